import CSodium
import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// Encrypts sensitive content on the client (libsodium's secretbox:
/// XSalsa20 and Poly1305) under the user's key, piece by piece, so the
/// server only ever holds ciphertext.
///
/// Each piece has its own nonce: 16 random bytes of the item, then the
/// blob's number and the piece's number, whose top bit marks the last
/// piece. A piece moved to another place, another item or another blob
/// does not open, and neither does a blob cut short (its last piece
/// lacks the mark) or made longer.
struct SecretBox {
  static let keyBytes = Int(crypto_secretbox_KEYBYTES)
  static let macBytes = Int(crypto_secretbox_MACBYTES)
  static let itemNonceBytes = 16
  private let key: [UInt8]

  /// The key in `path` (`PB_REDIS_KEY_FILE`): exactly 32 bytes, in a file
  /// no one else may read.
  /// - Throws: `.unavailable` saying what is wrong with the file.
  static func load(path: String) throws -> SecretBox {
    let key = try PrivateFile.read(path, variable: "PB_REDIS_KEY_FILE")
    guard key.count == keyBytes else {
      throw PasteboardError.unavailable(
        "\(path) (PB_REDIS_KEY_FILE) holds \(key.count) bytes, not \(keyBytes) (make one with: head -c 32 /dev/urandom > FILE)")
    }
    guard sodium_init() >= 0 else { throw PasteboardError.unavailable("libsodium cannot start") }
    return SecretBox(key: key)
  }

  /// Fresh random bytes (an item's nonce prefix, a content id).
  static func randomBytes(_ count: Int) -> [UInt8] {
    _ = sodium_init()
    var bytes = [UInt8](repeating: 0, count: count)
    randombytes_buf(&bytes, count)
    return bytes
  }

  /// The nonce of piece `piece` of blob `blob` of the item.
  static func nonce(item: [UInt8], blob: Int, piece: Int, isLast: Bool) -> [UInt8] {
    let p = UInt32(piece) | (isLast ? 0x8000_0000 : 0)
    let b = UInt32(blob)
    return item + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: b >> $0) } + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: p >> $0) }
  }

  func seal(_ plain: [UInt8], nonce: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: plain.count + SecretBox.macBytes)
    _ = crypto_secretbox_easy(&out, plain, UInt64(plain.count), nonce, key)
    return out
  }

  /// The plain bytes, or nil when the piece does not open under this key
  /// and nonce (another key, or a piece out of place).
  func open(_ sealed: [UInt8], nonce: [UInt8]) -> [UInt8]? {
    guard sealed.count >= SecretBox.macBytes else { return nil }
    var out = [UInt8](repeating: 0, count: sealed.count - SecretBox.macBytes)
    guard crypto_secretbox_open_easy(&out, sealed, UInt64(sealed.count), nonce, key) == 0 else { return nil }
    return out
  }
}
