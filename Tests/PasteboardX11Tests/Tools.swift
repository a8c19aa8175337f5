import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Running pb and its peers (xclip, xsel, python3-xlib helpers) as real
/// processes against a private display.
enum Tools {
  static func now() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
  }

  static func path(of tool: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") + ["/usr/bin"] {
      let p = "\(dir)/\(tool)"
      if access(p, X_OK) == 0 { return p }
    }
    return nil
  }

  /// The pb binary built beside the test bundle.
  static var pb: String {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
    // The bundle may be a directory (…/pbPackageTests.xctest/…).
    while !FileManager.default.isExecutableFile(atPath: dir.appendingPathComponent("pb").path), dir.path != "/" {
      dir = dir.deletingLastPathComponent()
    }
    return dir.appendingPathComponent("pb").path
  }

  /// The outcome of a shell script.
  struct Result {
    let status: Int32
    let stdout: [UInt8]
    let stderr: String
    let milliseconds: Int64
    var text: String { String(decoding: stdout, as: UTF8.self) }
  }

  /// A directory for this test process's files, made on demand and
  /// removed after each test class.
  static var scratch: String {
    let dir = NSTemporaryDirectory() + "pb-x11-tests-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  static func removeScratch() {
    try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "pb-x11-tests-\(getpid())")
  }

  /// Runs `script` with bash on `display`, pb on PATH as `pb` (through
  /// `$PB`), standard output and error captured in files (so a peer's
  /// daemon holding a pipe cannot hang the test), and a hard time limit.
  @discardableResult
  static func shell(
    _ script: String, display: PrivateDisplay, input: [UInt8]? = nil,
    environment: [String: String] = [:], limit: Int = 60
  ) throws -> Result {
    let id = UUID().uuidString
    let outPath = "\(scratch)/\(id).out", errPath = "\(scratch)/\(id).err", inPath = "\(scratch)/\(id).in"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    _ = FileManager.default.createFile(atPath: inPath, contents: Data(input ?? []))
    defer {
      for p in [outPath, errPath, inPath] { try? FileManager.default.removeItem(atPath: p) }
    }
    var env = ProcessInfo.processInfo.environment
    env["DISPLAY"] = display.name
    env["PB"] = pb
    env["PB_BACKEND"] = "x11"
    env.removeValue(forKey: "XAUTHORITY")
    for (k, v) in environment { env[k] = v }
    let start = now()
    // posix_spawn and waitpid rather than Foundation's Process, which
    // waits for descriptors that a peer's daemon (xclip) may inherit.
    let status = try spawnAndWait(
      ["/usr/bin/timeout", "-k", "5", String(limit), "/bin/bash", "-c", script],
      environment: env.map { "\($0.key)=\($0.value)" }, stdin: inPath, stdout: outPath, stderr: errPath)
    let elapsed = now() - start
    let out = FileManager.default.contents(atPath: outPath) ?? Data()
    let err = FileManager.default.contents(atPath: errPath) ?? Data()
    return Result(
      status: status, stdout: [UInt8](out),
      stderr: String(decoding: err, as: UTF8.self), milliseconds: elapsed)
  }

  /// Runs `argv` with its standard streams on files and waits for it.
  static func spawnAndWait(_ argv: [String], environment: [String], stdin: String, stdout: String, stderr: String) throws -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_TRUNC, 0o600)
    var cArgs = argv.map { strdup($0) } + [nil]
    var cEnv = environment.map { strdup($0) } + [nil]
    defer {
      cArgs.forEach { free($0) }
      cEnv.forEach { free($0) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, argv[0], &actions, nil, &cArgs, &cEnv)
    guard rc == 0 else { throw TestFailure("cannot run \(argv[0]): \(String(cString: strerror(rc)))") }
    var st: Int32 = 0
    while waitpid(pid, &st, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS, which Swift does not import.
    return (st & 0x7F) == 0 ? (st >> 8) & 0xFF : 128 + (st & 0x7F)
  }

  /// The exit status of a command run without a display.
  static func shellStatus(_ script: String) -> Int32 {
    (try? spawnAndWait(["/bin/sh", "-c", script], environment: ["PATH=/usr/bin:/bin"], stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null")) ?? -1
  }

  /// The text of a file, or "" when it cannot be read.
  static func contents(of path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }

  /// Everything `fd` gives until end of file, waiting for it (at most 30 s).
  static func readAll(_ fd: Int32) -> [UInt8] {
    var all: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    let deadline = now() + 30_000
    while now() < deadline {
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, 1000) >= 0 else { break }
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n == 0 { break }
      if n > 0 { all += buffer[0..<n] }
    }
    return all
  }

  /// The size of a file in bytes, or -1.
  static func size(of path: String) -> Int64 {
    var st = stat()
    return stat(path, &st) == 0 ? Int64(st.st_size) : -1
  }

  /// Writes `bytes` to a scratch file and returns its path.
  static func file(_ bytes: [UInt8], name: String = UUID().uuidString) -> String {
    let p = "\(scratch)/\(name)"
    _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
    return p
  }

  /// Deterministic bytes of every value, NULs included.
  static func pattern(_ count: Int, seed: UInt32 = 1) -> [UInt8] {
    var x = seed &* 2_654_435_761 | 1
    return (0..<count).map { _ in
      x ^= x << 13
      x ^= x >> 17
      x ^= x << 5
      return UInt8(truncatingIfNeeded: x)
    }
  }

  static let pbResolved: String = URL(fileURLWithPath: pb).resolvingSymlinksInPath().path

  /// Whether `pid` is a live process with `display` as its DISPLAY.
  static func runs(_ pid: pid_t, on display: PrivateDisplay) -> Bool {
    guard !isZombie(pid), let env = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
    return env.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "DISPLAY=\(display.name)" }
  }

  /// Process ids of pb's background owners serving on `display`.
  static func owners(on display: PrivateDisplay) -> [pid_t] {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
    return entries.compactMap { Int32($0) }.filter { pid in
      guard let cmd = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
      let args = cmd.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      // A forked owner keeps its `pb copy` (or `pb table`) command line; a
      // re-executed one reads `pb __x11-serve`.
      guard args.contains("__x11-serve") || args.contains("copy") || args.contains("table") else { return false }
      guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == pbResolved else { return false }
      return runs(pid, on: display)
    }
  }

  /// The parent process of `pid`, or -1.
  static func parent(of pid: pid_t) -> pid_t {
    statusField("PPid", of: pid).flatMap { pid_t($0) } ?? -1
  }

  /// The signals `pid` ignores (SigIgn in /proc).
  static func ignoredSignals(of pid: pid_t) -> [Int32] {
    guard let mask = statusField("SigIgn", of: pid).flatMap({ UInt64($0, radix: 16) }) else { return [] }
    return (1...64).filter { mask & (1 << UInt64($0 - 1)) != 0 }
  }

  private static func statusField(_ name: String, of pid: pid_t) -> String? {
    let line = contents(of: "/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix("\(name):") }
    return line.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
  }

  /// Waits until `condition` holds or `milliseconds` pass.
  static func eventually(_ milliseconds: Int64, _ condition: () -> Bool) -> Bool {
    let deadline = now() + milliseconds
    while now() < deadline {
      if condition() { return true }
      usleep(20_000)
    }
    return condition()
  }
}
