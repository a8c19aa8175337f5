import PasteboardKit
import PasteboardRedis

/// The command line's only contact with the Redis backend. Building the
/// backend reads the environment and connects to nothing: the first
/// operation does, so `pb info` never waits on the network.
enum RedisSupport {
  /// How long a command waits on the server when `--timeout` is not given.
  static let defaultTimeout: Int64 = 5000

  static func makeBackend(timeoutMilliseconds: Int64?) throws -> PasteboardBackend {
    RedisBackend(
      settings: try RedisSettings.fromEnvironment(), history: try FileBackendFactory.historyLimits(),
      timeoutMilliseconds: timeoutMilliseconds ?? defaultTimeout)
  }

  /// `pb info`'s fields: the server (never its password), where the
  /// address came from, the key prefix and the key file for secrets.
  static func infoFields() -> [(String, String)] {
    do {
      let s = try RedisSettings.fromEnvironment()
      return [
        ("redis", s.address.description), ("redis_source", s.source), ("redis_prefix", s.prefix),
        ("redis_key_file", s.keyFile ?? "(none: --sensitive is refused on Redis)"),
      ]
    } catch {
      return [("redis", "(unusable: \(error))"), ("redis_source", "-"), ("redis_prefix", "-"), ("redis_key_file", "-")]
    }
  }
}
