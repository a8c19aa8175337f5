#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// The destination `lp` prints on when given none, found the way CUPS
/// finds it, in process where it can be, so that listing activities
/// costs no process:
///
/// 1. `LPDEST`, else `PRINTER` (unless it is `lp`);
/// 2. a `Default` line in `~/.cups/lpoptions`, else `/etc/cups/lpoptions`;
/// 3. the default of the CUPS server the client would ask
///    (`CUPS_SERVER`, else `ServerName` in `~/.cups/client.conf` or
///    `/etc/cups/client.conf`, else the local socket
///    `/run/cups/cups.sock` when it exists, else localhost), asked with
///    one IPP request (CUPS-Get-Default) on its socket or on localhost;
///    for a server on another host, `lpstat -d` is asked instead.
///
/// No answer (no server running) means no destination: `lp` could not
/// print either.
struct PrintDestination {
  let home: String
  let programs: ProgramSearch
  /// How long the server may take to answer.
  var timeoutMilliseconds: Int64 = 2000

  func find() -> String? {
    if let d = environmentValue("LPDEST") { return d }
    if let d = environmentValue("PRINTER"), d != "lp" { return d }
    for file in [home + "/.cups/lpoptions", "/etc/cups/lpoptions"] {
      if let d = PrintDestination.firstWord(after: "Default ", in: file) { return d }
    }
    let server = self.server()
    if server.hasPrefix("/") { return askDefault(endpoints: [PrintDestination.unixEndpoint(server)]) }
    let (host, port) = PrintDestination.hostAndPort(server)
    if host == "localhost" || host == "127.0.0.1" || host == "::1" {
      return askDefault(endpoints: [PrintDestination.inetEndpoint(port: port), PrintDestination.inet6Endpoint(port: port)])
    }
    return askLpstat()
  }

  /// The server a CUPS client would use.
  func server() -> String {
    if let s = environmentValue("CUPS_SERVER") { return s }
    for file in [home + "/.cups/client.conf", "/etc/cups/client.conf"] {
      if let s = PrintDestination.firstWord(after: "ServerName ", in: file) { return s }
    }
    return access("/run/cups/cups.sock", F_OK) == 0 ? "/run/cups/cups.sock" : "localhost"
  }

  static func hostAndPort(_ server: String) -> (String, UInt16) {
    let defaultPort = environmentValue("IPP_PORT").flatMap { UInt16($0) } ?? 631
    if server.hasPrefix("["), let close = server.firstIndex(of: "]") {
      let host = String(server[server.index(after: server.startIndex)..<close])
      let rest = server[server.index(after: close)...]
      return (host, rest.hasPrefix(":") ? UInt16(rest.dropFirst()) ?? defaultPort : defaultPort)
    }
    let parts = server.split(separator: ":", omittingEmptySubsequences: false)
    if parts.count == 2 { return (String(parts[0]), UInt16(parts[1]) ?? defaultPort) }
    return (server, defaultPort)
  }

  // MARK: IPP

  /// A CUPS-Get-Default request asking for printer-name (RFC 8010's
  /// encoding: version 2.0, the operation, a request id, the operation
  /// attributes group, the end tag).
  static let request: [UInt8] = {
    func attribute(_ tag: UInt8, _ name: String, _ value: String) -> [UInt8] {
      let n = Array(name.utf8), v = Array(value.utf8)
      return [tag, UInt8(n.count >> 8), UInt8(n.count & 0xFF)] + n + [UInt8(v.count >> 8), UInt8(v.count & 0xFF)] + v
    }
    return [0x02, 0x00, 0x40, 0x01, 0, 0, 0, 1, 0x01]
      + attribute(0x47, "attributes-charset", "utf-8")
      + attribute(0x48, "attributes-natural-language", "en")
      + attribute(0x44, "requested-attributes", "printer-name")
      + [0x03]
  }()

  private func askDefault(endpoints: [[UInt8]]) -> String? {
    let deadline = WallClock.monotonicMilliseconds() + timeoutMilliseconds
    let http = Array(
      ("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/ipp\r\n"
        + "Content-Length: \(PrintDestination.request.count)\r\nConnection: close\r\n\r\n").utf8) + PrintDestination.request
    for endpoint in endpoints {
      var refused = false
      guard let response = PrintDestination.exchange(http, with: endpoint, until: deadline, refused: &refused) else {
        // Nothing listens on localhost's IPv4 port: no need to try IPv6.
        if refused { return nil }
        continue
      }
      return PrintDestination.printerName(inHTTPResponse: response)
    }
    return nil
  }

  /// The printer-name in an HTTP response carrying an IPP response with
  /// status successful-ok; nil otherwise (client-error-not-found: no
  /// default).
  static func printerName(inHTTPResponse response: [UInt8]) -> String? {
    guard let end = response.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A]) else { return nil }
    let head = String(decoding: response[..<end.lowerBound], as: UTF8.self).lowercased()
    guard head.hasPrefix("http/1.1 200") || head.hasPrefix("http/1.0 200") else { return nil }
    var body = Array(response[end.upperBound...])
    if head.contains("transfer-encoding: chunked") { body = dechunked(body) }
    guard body.count >= 8, body[2] == 0, body[3] == 0 else { return nil }
    var i = 8
    func u16(_ at: Int) -> Int { Int(body[at]) << 8 | Int(body[at + 1]) }
    while i < body.count {
      let tag = body[i]
      i += 1
      if tag == 0x03 { break }
      if tag < 0x10 { continue }  // the start of an attributes group
      guard i + 2 <= body.count else { return nil }
      let nameLength = u16(i)
      guard i + 2 + nameLength + 2 <= body.count else { return nil }
      let name = String(decoding: body[(i + 2)..<(i + 2 + nameLength)], as: UTF8.self)
      i += 2 + nameLength
      let valueLength = u16(i)
      guard i + 2 + valueLength <= body.count else { return nil }
      let value = body[(i + 2)..<(i + 2 + valueLength)]
      i += 2 + valueLength
      if name == "printer-name", !value.isEmpty { return String(decoding: value, as: UTF8.self) }
    }
    return nil
  }

  /// The data of a chunked HTTP body.
  static func dechunked(_ body: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    var i = 0
    while let lineEnd = body[i...].firstRange(of: [0x0D, 0x0A]) {
      let sizeText = String(decoding: body[i..<lineEnd.lowerBound], as: UTF8.self).prefix { $0 != ";" }
      guard let size = Int(sizeText.trimmingCharacters(), radix: 16), size > 0 else { break }
      let start = lineEnd.upperBound
      guard start + size <= body.count else { break }
      out += body[start..<(start + size)]
      i = start + size + 2
      if i >= body.count { break }
    }
    return out
  }

  /// Connects to `endpoint` (a socket address), sends `request` and reads
  /// until the server closes the connection; nil when nothing answers
  /// (`refused` tells whether the connection was refused).
  static func exchange(_ request: [UInt8], with endpoint: [UInt8], until deadline: Int64, refused: inout Bool) -> [UInt8]? {
    let family = Int32(endpoint.withUnsafeBytes { $0.load(as: sa_family_t.self) })
    let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    let rc = endpoint.withUnsafeBufferPointer { raw in
      raw.baseAddress!.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(endpoint.count)) }
    }
    if rc != 0 {
      refused = errno == ECONNREFUSED
      guard errno == EINPROGRESS || errno == EAGAIN, wait(fd, for: Int16(POLLOUT), until: deadline) else { return nil }
      var err: Int32 = 0
      var len = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
      refused = err == ECONNREFUSED
      if err != 0 { return nil }
    }
    var sent = 0
    while sent < request.count {
      let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
      if n > 0 {
        sent += n
      } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
        guard wait(fd, for: Int16(POLLOUT), until: deadline) else { return nil }
      } else {
        return nil
      }
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while response.count < 1 << 20 {
      let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n > 0 {
        response += buffer[0..<n]
      } else if n == 0 {
        break
      } else if errno == EAGAIN || errno == EINTR {
        guard wait(fd, for: Int16(POLLIN), until: deadline) else { return nil }
      } else {
        return nil
      }
    }
    return response
  }

  private static func wait(_ fd: Int32, for events: Int16, until deadline: Int64) -> Bool {
    awaitReadiness(fd, for: events, until: deadline) == .ready
  }

  static func unixEndpoint(_ path: String) -> [UInt8] {
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    let bytes = ByteString.bytes(path)
    withUnsafeMutableBytes(of: &addr.sun_path) { raw in
      for (i, b) in bytes.prefix(raw.count - 1).enumerated() { raw[i] = b }
    }
    return withUnsafeBytes(of: &addr) { Array($0.prefix(MemoryLayout<sa_family_t>.size + min(bytes.count, 107) + 1)) }
  }

  static func inetEndpoint(port: UInt16) -> [UInt8] {
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_port = port.bigEndian
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return withUnsafeBytes(of: &addr) { Array($0) }
  }

  static func inet6Endpoint(port: UInt16) -> [UInt8] {
    var addr = sockaddr_in6()
    addr.sin6_family = sa_family_t(AF_INET6)
    addr.sin6_port = port.bigEndian
    withUnsafeMutableBytes(of: &addr.sin6_addr) { $0[15] = 1 }
    return withUnsafeBytes(of: &addr) { Array($0) }
  }

  // MARK: Files and lpstat

  /// `lpstat -d` ("system default destination: NAME"), for a server on
  /// another host.
  private func askLpstat() -> String? {
    guard let lpstat = programs.find("lpstat"),
      let answer = try? ProgramRun.run([lpstat, "-d"], timeout: timeoutMilliseconds, what: "lpstat")
    else { return nil }
    let text = String(decoding: answer, as: UTF8.self)
    guard text.hasPrefix("system default destination:"), let colon = text.firstIndex(of: ":") else { return nil }
    let name = text[text.index(after: colon)...].prefix { $0 != "\n" }.trimmingCharacters()
    return name.isEmpty ? nil : name
  }

  static func firstWord(after prefix: String, in path: String) -> String? {
    guard let bytes = try? Descriptor.open(path, O_RDONLY).readToEnd() else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) where line.hasPrefix(prefix) {
      let word = line.dropFirst(prefix.count).drop { $0 == " " || $0 == "\t" }.prefix { $0 != " " && $0 != "\t" }
      if !word.isEmpty { return String(word) }
    }
    return nil
  }
}
