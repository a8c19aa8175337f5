// Test support: built only where XCTest is (debug builds for `swift test`).
#if canImport(XCTest)
import Foundation
import XCTest

/// A private `redis-server` that a test starts in a temporary directory,
/// on a free loopback port (optionally with a password) or on a unix
/// socket, and ends when it is done: the Redis tests never talk to a
/// server of the machine's, and never to a mock.
public final class RedisServer {
  public let directory: String
  public let port: Int32
  public let password: String?
  public let unixSocket: Bool
  /// Keeps the data on disk (append-only file, synced on every write), so
  /// that content survives a SIGKILL and a restart.
  public let persistent: Bool
  public private(set) var process: Process?

  public static let installHint = "install Debian's redis-server and redis-tools packages (apt-get install redis-server redis-tools); scripts/test installs them"

  /// Starts a server. A missing `redis-server` fails the test (never a
  /// skip) with how to install it.
  public init(password: String? = nil, unixSocket: Bool = false, persistent: Bool = false,
              file: StaticString = #filePath, line: UInt = #line) throws {
    for tool in ["redis-server", "redis-cli"] where RedisServer.which(tool) == nil {
      XCTFail("\(tool) is not installed: \(RedisServer.installHint)", file: file, line: line)
      throw NSError(domain: "RedisServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(tool) missing"])
    }
    directory = NSTemporaryDirectory() + "pb-redis-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    port = unixSocket ? 0 : RedisServer.freePort()
    self.password = password
    self.unixSocket = unixSocket
    self.persistent = persistent
    try start()
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(atPath: directory)
  }

  public var socketPath: String { directory + "/redis.sock" }

  /// The URL pb is given (PB_REDIS_URL).
  public var url: String {
    let auth = password.map { ":\($0)@" } ?? ""
    return unixSocket ? "unix://\(auth)\(socketPath)" : "redis://\(auth)127.0.0.1:\(port)"
  }

  /// Starts (or restarts) the server and waits until it answers.
  public func start() throws {
    var args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", directory, "--save", "", "--daemonize", "no",
                "--logfile", directory + "/redis.log"]
    args += persistent ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]
    if unixSocket { args += ["--unixsocket", socketPath, "--unixsocketperm", "700"] }
    if let password { args += ["--requirepass", password] }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: RedisServer.which("redis-server")!)
    p.arguments = args
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    process = p
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if (try? cli(["PING"]))?.contains("PONG") == true { return }
      usleep(20_000)
    }
    throw NSError(domain: "RedisServer", code: 2, userInfo: [NSLocalizedDescriptionKey: "redis-server did not start"])
  }

  /// The server's process id (for a test that kills it mid-transfer).
  public var pid: Int32 { process?.processIdentifier ?? 0 }

  /// Starts the server again after it was killed (by `pid`) or stopped.
  public func restart() throws {
    process?.waitUntilExit()
    process = nil
    try start()
  }

  /// Ends the server with `signal` and waits for it.
  public func stop(signal: Int32 = SIGTERM) {
    guard let p = process else { return }
    kill(p.processIdentifier, signal)
    p.waitUntilExit()
    process = nil
  }

  /// Runs `redis-cli` against the server (`--raw`: values as bytes).
  @discardableResult
  public func cli(_ args: [String], input: Data? = nil) throws -> String {
    String(decoding: try cliData(args, input: input), as: UTF8.self)
  }

  public func cliData(_ args: [String], input: Data? = nil) throws -> Data {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: RedisServer.which("redis-cli")!)
    var env = ProcessInfo.processInfo.environment
    if let password { env["REDISCLI_AUTH"] = password }
    p.environment = env
    p.arguments = (unixSocket ? ["-s", socketPath] : ["-h", "127.0.0.1", "-p", String(port)]) + ["--raw"] + args
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    let inPipe = Pipe()
    p.standardInput = input == nil ? FileHandle.nullDevice : inPipe
    try p.run()
    if let input {
      inPipe.fileHandleForWriting.write(input)
      try? inPipe.fileHandleForWriting.close()
    }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return data
  }

  /// The keys under `prefix`.
  public func keys(_ prefix: String = "pb:") throws -> [String] {
    try cli(["--scan", "--pattern", prefix + "*"]).split(separator: "\n").map(String.init).sorted()
  }

  /// The key's time to live in milliseconds: -1 for none, -2 when absent.
  public func ttl(_ key: String) throws -> Int {
    Int(try cli(["PTTL", key]).split(separator: "\n").first ?? "") ?? -2
  }

  /// The keys under `prefix` that live until removed (no expiry).
  public func lasting(_ prefix: String) throws -> [String] {
    try keys(prefix).filter { try ttl($0) == -1 }
  }

  /// A port nobody listens on now (the kernel's choice for port 0).
  public static func freePort() -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int32(UInt16(bigEndian: address.sin_port))
  }

  static func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") + ["/usr/sbin", "/usr/bin"] {
      let candidate = "\(dir)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }
}
#endif
