import PasteboardKit

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
      (url, source) = (String(decoding: try PrivateFile.read(path, variable: "PB_REDIS_URL_FILE"), as: UTF8.self), "PB_REDIS_URL_FILE")
    } else {
      (url, source) = (defaultURL, "default")
    }
    let prefix = environmentValue("PB_REDIS_PREFIX") ?? "pb:"
    let keyFile = environmentValue("PB_REDIS_KEY_FILE").flatMap { $0.isEmpty ? nil : $0 }
    return RedisSettings(address: try RedisAddress.parse(url, from: source), source: source, prefix: prefix, keyFile: keyFile)
  }
}
