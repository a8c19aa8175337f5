#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// Where the display named by DISPLAY lives: `[host]:number[.screen]`,
/// optionally with a `unix/` or `tcp/` protocol prefix, as Xlib reads it.
struct DisplayAddress: Equatable {
  enum Transport: Equatable {
    /// The local socket `/tmp/.X11-unix/X<number>` (also tried in the
    /// abstract namespace, as Xlib does).
    case local
    /// TCP to `host`, port 6000 + number (how SSH forwards X).
    case tcp(host: String)
  }

  let name: String
  let transport: Transport
  let number: Int

  /// Parses `name`; nil when it is not a display name Xlib would accept.
  init?(_ name: String) {
    self.name = name
    var rest = Substring(name)
    var proto: Substring?
    if let slash = rest.firstIndex(of: "/") {
      proto = rest[..<slash]
      rest = rest[rest.index(after: slash)...]
    }
    guard let colon = rest.lastIndex(of: ":") else { return nil }
    let host = String(rest[..<colon])
    if host.hasSuffix(":") { return nil }  // DECnet (host::0)
    var tail = rest[rest.index(after: colon)...]
    if let dot = tail.firstIndex(of: ".") { tail = tail[..<dot] }
    guard let n = Int(tail), n >= 0, n < 60000 else { return nil }
    number = n
    switch proto {
    case nil:
      transport = (host.isEmpty || host == "unix") ? .local : .tcp(host: host)
    case "unix"?, "local"?:
      transport = .local
    case "tcp"?, "inet"?, "inet6"?:
      transport = .tcp(host: host.isEmpty ? "localhost" : host)
    default:
      return nil
    }
  }

  /// The path of the local socket.
  var socketPath: String { "/tmp/.X11-unix/X\(number)" }
}
