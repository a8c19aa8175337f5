import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// How pb finds and uses the Redis server, from the environment:
/// `PB_REDIS_URL` (or `PB_REDIS_URL_FILE`, a file of mode 0600 holding
/// it), `PB_REDIS_PREFIX` (default `pb:`) and `PB_REDIS_KEY_FILE`.
public struct RedisSettings {
  public var address: RedisAddress
  /// Where the address came from, for `pb info`.
  public var source: String
  /// What every key starts with.
  public var prefix: String
  /// The key for sensitive content, when one is configured.
  public var keyFile: String?

  public static let defaultURL = "redis://127.0.0.1:6379"

  public init(address: RedisAddress, source: String = "given", prefix: String = "pb:", keyFile: String? = nil) {
    self.address = address
    self.source = source
    self.prefix = prefix
    self.keyFile = keyFile
  }

  /// The settings the environment gives; reads nothing from the network.
  /// - Throws: `.unavailable` for a malformed URL or a URL file that
  ///   others may read.
  public static func fromEnvironment() throws -> RedisSettings {
    let (url, source): (String, String)
    if let text = environmentValue("PB_REDIS_URL"), !text.isEmpty {
      (url, source) = (text, "PB_REDIS_URL")
    } else if let path = environmentValue("PB_REDIS_URL_FILE"), !path.isEmpty {
      (url, source) = (try readURLFile(path), "PB_REDIS_URL_FILE")
    } else {
      (url, source) = (defaultURL, "default")
    }
    let prefix = environmentValue("PB_REDIS_PREFIX") ?? "pb:"
    let keyFile = environmentValue("PB_REDIS_KEY_FILE").flatMap { $0.isEmpty ? nil : $0 }
    return RedisSettings(address: try RedisAddress.parse(url, from: source), source: source, prefix: prefix, keyFile: keyFile)
  }

  /// The URL in `path`, which only its owner may read (it may hold a
  /// password).
  static func readURLFile(_ path: String) throws -> String {
    let file: Descriptor
    do {
      file = try Descriptor.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
    } catch {
      throw PasteboardError.unavailable("cannot read \(path) (PB_REDIS_URL_FILE): \(errnoText())")
    }
    let st = try file.status()
    if st.st_mode & 0o077 != 0 {
      throw PasteboardError.unavailable(
        "\(path) (PB_REDIS_URL_FILE) may be read by others (mode \(String(st.st_mode & 0o777, radix: 8))); it must be 0600 or stricter")
    }
    return String(decoding: try file.readToEnd(), as: UTF8.self)
  }
}
