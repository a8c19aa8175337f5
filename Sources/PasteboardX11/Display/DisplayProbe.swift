#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// Asks the X server behind a display address whether it answers, with a
/// deadline, without Xlib.
///
/// `XOpenDisplay` blocks without limit on a server that accepts connections
/// but never replies (a stopped Xvfb still accepts them in the kernel). The
/// probe connects itself, sends a connection set-up request the server
/// must refuse, and waits for the refusal (or the connection's close):
/// either proves that something answers there.
enum DisplayProbe {
  /// Returns nil when the server answered within `milliseconds`, else the
  /// reason it did not (for messages: "connection refused", "no answer
  /// within 1000 ms").
  static func check(_ address: DisplayAddress, milliseconds: Int64) -> String? {
    // `--backend auto` probes, then the backend opens the display: an
    // answer from the last two seconds is enough.
    let now = WallClock.monotonicMilliseconds()
    if let at = answered[address.name], now - at < 2000 { return nil }
    let reason = probe(address, milliseconds: milliseconds)
    if reason == nil { answered[address.name] = now }
    return reason
  }

  nonisolated(unsafe) private static var answered: [String: Int64] = [:]

  private static func probe(_ address: DisplayAddress, milliseconds: Int64) -> String? {
    let deadline = WallClock.monotonicMilliseconds() + milliseconds
    var lastReason = "no X server listens there"
    for candidate in endpoints(address) {
      let fd = socket(candidate.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
      if fd < 0 { lastReason = errnoText(); continue }
      defer { close(fd) }
      let rc = candidate.address.withUnsafeBufferPointer { raw in
        raw.baseAddress!.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(candidate.address.count))
        }
      }
      if rc != 0 && errno != EINPROGRESS {
        lastReason = errnoText()
        continue
      }
      if rc != 0 {
        guard wait(fd, for: Int16(POLLOUT), until: deadline) else {
          return "no answer within \(milliseconds) ms"
        }
        var err: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
        if err != 0 {
          lastReason = errnoText(err)
          continue
        }
      }
      // xConnClientPrefix: byte order 'l', pad, protocol version 0.0, no
      // auth. The server answers "protocol version mismatch" at once and
      // never counts the probe as a client, so a server that resets when
      // its last client leaves (a bare Xvfb) does not reset under the
      // connection that follows. An SSH X11 proxy closes the connection
      // instead (no cookie): that is an answer too.
      let setup: [UInt8] = [0x6C, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
      let sent = setup.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard sent == setup.count else {
        lastReason = errnoText()
        continue
      }
      guard wait(fd, for: Int16(POLLIN), until: deadline) else {
        return "no answer within \(milliseconds) ms"
      }
      var byte: UInt8 = 0
      let got = recv(fd, &byte, 1, 0)
      if got >= 0 { return nil }  // a reply, or an orderly close
      lastReason = errnoText()
    }
    return lastReason
  }

  private struct Endpoint {
    let family: Int32
    let address: [UInt8]
  }

  /// The socket addresses Xlib would try, in its order.
  private static func endpoints(_ address: DisplayAddress) -> [Endpoint] {
    switch address.transport {
    case .local:
      let path = Array(address.socketPath.utf8)
      return [unixEndpoint([0] + path), unixEndpoint(path + [0])]
    case .tcp(let host):
      var hints = addrinfo()
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
      var list: UnsafeMutablePointer<addrinfo>?
      guard getaddrinfo(host, String(6000 + address.number), &hints, &list) == 0 else { return [] }
      defer { freeaddrinfo(list) }
      var result: [Endpoint] = []
      var node = list
      while let info = node {
        let bytes = UnsafeRawBufferPointer(start: info.pointee.ai_addr, count: Int(info.pointee.ai_addrlen))
        result.append(Endpoint(family: info.pointee.ai_family, address: Array(bytes)))
        node = info.pointee.ai_next
      }
      return result
    }
  }

  private static func unixEndpoint(_ path: [UInt8]) -> Endpoint {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in path.prefix(raw.count - 1).enumerated() { raw[i] = b }
    }
    let length = MemoryLayout<sa_family_t>.size + path.count
    let bytes = withUnsafeBytes(of: &addr) { Array($0.prefix(length)) }
    return Endpoint(family: AF_UNIX, address: bytes)
  }

  private static func wait(_ fd: Int32, for events: Int16, until deadline: Int64) -> Bool {
    // A failed poll lets the next call report the error.
    awaitReadiness(fd, for: events, until: deadline) != .timedOut
  }

}
