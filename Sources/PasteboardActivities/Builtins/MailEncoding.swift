import PasteboardKit

/// The encodings of an Internet message, for `MailMessage`: base64 and
/// quoted-printable bodies (RFC 2045) here, header lines in
/// `MailHeaders.swift`.
///
/// Every line made here stays within 78 characters (RFC 5322's
/// recommended limit; base64 and quoted-printable lines within 76), so no
/// relay needs to rewrap anything.
enum MailEncoding {
  /// The longest line a header may have.
  static let lineLimit = 78

  // MARK: Bodies

  /// Base64 in lines of 76 characters, each ending in CRLF.
  static func base64Lines(_ bytes: [UInt8]) -> [UInt8] {
    let encoded = Base64.encode(bytes)
    var out: [UInt8] = []
    out.reserveCapacity(encoded.count + encoded.count / 76 * 2 + 2)
    var i = 0
    while i < encoded.count {
      out += encoded[i..<min(i + 76, encoded.count)]
      out += [0x0D, 0x0A]
      i += 76
    }
    return out
  }

  /// Quoted-printable (RFC 2045 6.7): line breaks (LF or CRLF) as CRLF,
  /// soft breaks keeping lines within 76 characters, `=` and bytes
  /// outside printable ASCII as `=XX`, and a space or tab at the end of a
  /// line encoded.
  static func quotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 8)
    var lineLength = 0
    func emit(_ chunk: [UInt8]) {
      if lineLength + chunk.count > 75 {
        out += [0x3D, 0x0D, 0x0A]
        lineLength = 0
      }
      out += chunk
      lineLength += chunk.count
    }
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      let next = i + 1 < bytes.count ? bytes[i + 1] : nil
      let atLineEnd = next == nil || next == 0x0A || (next == 0x0D && i + 2 < bytes.count && bytes[i + 2] == 0x0A)
      if b == 0x0A {
        out += [0x0D, 0x0A]
        lineLength = 0
      } else if b == 0x0D && next == 0x0A {
        // CRLF: the LF that follows makes the break.
      } else if (b >= 0x21 && b <= 0x7E && b != 0x3D) || ((b == 0x20 || b == 0x09) && !atLineEnd) {
        emit([b])
      } else {
        emit([0x3D, hex[Int(b >> 4)], hex[Int(b & 15)]])
      }
      i += 1
    }
    return out
  }
}

extension String {
  func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

extension Array where Element == UInt8 {
  /// Whether `needle` occurs in the bytes (a plain scan, no copies).
  func contains(subsequence needle: [UInt8]) -> Bool {
    guard let first = needle.first, needle.count <= count else { return false }
    var i = 0
    let last = count - needle.count
    while i <= last {
      if self[i] == first {
        var j = 1
        while j < needle.count && self[i + j] == needle[j] { j += 1 }
        if j == needle.count { return true }
      }
      i += 1
    }
    return false
  }
}
