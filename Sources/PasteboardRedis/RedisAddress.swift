import PasteboardKit

/// Where the Redis server is, parsed from `PB_REDIS_URL`:
/// `redis://[USER[:PASSWORD]@]HOST[:PORT][/DB]` or
/// `unix://[USER[:PASSWORD]@]/PATH[?db=N]`.
///
/// The password is kept apart from everything that is ever shown:
/// `description` (messages, `pb info`) never includes it.
public struct RedisAddress: CustomStringConvertible, Equatable {
  public enum Endpoint: Equatable {
    case tcp(host: String, port: Int32)
    case unix(path: String)
  }

  public var endpoint: Endpoint
  public var user: String?
  public var password: String?
  public var database: Int = 0

  public init(endpoint: Endpoint, user: String? = nil, password: String? = nil, database: Int = 0) {
    self.endpoint = endpoint
    self.user = user
    self.password = password
    self.database = database
  }

  /// The address as messages show it: the URL with the password left out.
  public var description: String {
    let who = user.map { "\($0)@" } ?? (password != nil ? "(password)@" : "")
    switch endpoint {
    case .tcp(let host, let port):
      let shown = host.contains(":") ? "[\(host)]" : host
      return "redis://\(who)\(shown):\(port)" + (database != 0 ? "/\(database)" : "")
    case .unix(let path):
      return "unix://\(who)\(path)" + (database != 0 ? "?db=\(database)" : "")
    }
  }

  /// Parses a URL. The error never repeats the URL, which may hold a
  /// password.
  /// - Throws: `.unavailable` saying what is wrong with it.
  public static func parse(_ url: String, from source: String) throws -> RedisAddress {
    func bad(_ why: String) -> PasteboardError {
      .unavailable("\(source) is not a Redis URL: \(why) (redis://[USER[:PASSWORD]@]HOST[:PORT][/DB] or unix:///PATH[?db=N])")
    }
    let url = url.trimmingSpaces
    var rest: Substring
    let isUnix: Bool
    if url.hasPrefix("redis://") {
      rest = url.dropFirst(8)
      isUnix = false
    } else if url.hasPrefix("unix://") {
      rest = url.dropFirst(7)
      isUnix = true
    } else {
      throw bad("it starts with neither redis:// nor unix://")
    }
    var address = RedisAddress(endpoint: .unix(path: ""))
    let authorityEnd = isUnix ? (rest.firstIndex(of: "/") ?? rest.endIndex) : (rest.firstIndex(of: "/") ?? rest.endIndex)
    if let at = rest[..<authorityEnd].lastIndex(of: "@") {
      let credentials = rest[..<at]
      if let colon = credentials.firstIndex(of: ":") {
        address.user = try decode(credentials[..<colon], bad)
        address.password = try decode(credentials[credentials.index(after: colon)...], bad)
      } else {
        address.user = try decode(credentials, bad)
      }
      if address.user == "" { address.user = nil }
      rest = rest[rest.index(after: at)...]
    }
    if isUnix {
      var path = rest
      if let q = rest.firstIndex(of: "?") {
        path = rest[..<q]
        for pair in rest[rest.index(after: q)...].split(separator: "&") {
          guard pair.hasPrefix("db="), let n = Int(pair.dropFirst(3)), n >= 0 else { throw bad("only ?db=N may follow the path") }
          address.database = n
        }
      }
      guard path.hasPrefix("/") else { throw bad("a unix socket needs an absolute path") }
      address.endpoint = .unix(path: try decode(path, bad))
      return address
    }
    var hostPort = rest
    if let slash = rest.firstIndex(of: "/") {
      hostPort = rest[..<slash]
      let db = rest[rest.index(after: slash)...]
      if !db.isEmpty {
        guard let n = Int(db), n >= 0 else { throw bad("the database must be a number") }
        address.database = n
      }
    }
    var host = hostPort
    var port: Int32 = 6379
    if hostPort.hasPrefix("[") {
      guard let close = hostPort.firstIndex(of: "]") else { throw bad("an IPv6 address in [ needs its closing ]") }
      host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
      let after = hostPort[hostPort.index(after: close)...]
      if after.hasPrefix(":") {
        guard let p = Int32(after.dropFirst()), p > 0, p < 65536 else { throw bad("the port must be a number") }
        port = p
      } else if !after.isEmpty {
        throw bad("only :PORT may follow an IPv6 address in [ ]")
      }
    } else if let colon = hostPort.lastIndex(of: ":") {
      host = hostPort[..<colon]
      guard let p = Int32(hostPort[hostPort.index(after: colon)...]), p > 0, p < 65536 else { throw bad("the port must be a number") }
      port = p
    }
    guard !host.isEmpty else { throw bad("it names no host") }
    address.endpoint = .tcp(host: String(host), port: port)
    return address
  }

  /// Undoes %XX escapes (a password may hold '@' or ':').
  private static func decode(_ text: Substring, _ bad: (String) -> PasteboardError) throws -> String {
    var bytes: [UInt8] = []
    var it = Array(text.utf8)[...]
    while let c = it.popFirst() {
      guard c == UInt8(ascii: "%") else {
        bytes.append(c)
        continue
      }
      guard it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) else {
        throw bad("a % escape is not two hex digits")
      }
      bytes.append(v)
      it = it.dropFirst(2)
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

extension String {
  /// The string without leading and trailing spaces and newlines (a URL
  /// file ends with one).
  var trimmingSpaces: String {
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
    return String(drop(while: blank).reversed().drop(while: blank).reversed())
  }
}
