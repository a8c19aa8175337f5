import Foundation
import PasteboardKit
import XCTest

/// Runs the built `pb` binary as a real process, the way users and scripts
/// do, with a private store per test.
struct PBRunner {
  struct Result {
    let status: Int32
    let stdout: Data
    let stderr: String
    var text: String { String(decoding: stdout, as: UTF8.self) }
  }

  /// The `pb` executable next to the test bundle (`.build/debug/pb`), or
  /// the one `PB_TEST_BINARY` names: running the tests against a build
  /// with a known defect shows that they catch it.
  static let executable: String = {
    if let other = ProcessInfo.processInfo.environment["PB_TEST_BINARY"] { return other }
    var dir = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("pb").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      dir = dir.deletingLastPathComponent()
    }
    let fallback = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../.build/debug/pb").standardized.path
    return fallback
  }()

  let root: String
  var environment: [String: String]
  /// Run pb as the unprivileged user `nobody` (through setpriv), for cases
  /// that root would not meet (unreadable files, read-only stores).
  var asNobody = false
  static let nobody: uid_t = 65534

  /// A runner with a fresh store under a new temporary directory and no
  /// display, so the file backend is used.
  init() throws {
    root = NSTemporaryDirectory() + "pb-cli-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    environment = [
      "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      "HOME": root + "/home",
      "PB_DIR": root + "/store",
      "PB_BACKEND": "file",
    ]
  }

  var store: String { environment["PB_DIR"]! }

  func cleanUp() {
    try? FileManager.default.removeItem(atPath: root)
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/dev/shm/pb-test-") {
      try? FileManager.default.removeItem(atPath: runtime)
    }
  }

  /// Gives the runner a private runtime directory on a tmpfs
  /// (`/dev/shm`), as a login session's `XDG_RUNTIME_DIR` is.
  mutating func useRuntimeDirectory() throws {
    let runtime = "/dev/shm/pb-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    environment["XDG_RUNTIME_DIR"] = runtime
  }

  /// A runner whose pb runs as `nobody`, with a store and a root directory
  /// that user owns. Fails the test when setpriv cannot drop privileges.
  func unprivileged(file: StaticString = #filePath, line: UInt = #line) throws -> PBRunner {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
      XCTFail("these cases run pb as nobody with setpriv: apt-get install util-linux", file: file, line: line)
      throw POSIXError(.ENOENT)
    }
    guard getuid() == 0 else {
      XCTFail("these cases switch to the user nobody, which needs root (CI runs as root)", file: file, line: line)
      throw POSIXError(.EPERM)
    }
    var other = self
    other.asNobody = true
    let home = root + "/nobody"
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    chown(home, PBRunner.nobody, PBRunner.nobody)
    chmod(root, 0o755)
    other.environment["PB_DIR"] = home + "/store"
    other.environment["HOME"] = home
    return other
  }

  /// How long one run may take before it counts as a hang: the run is
  /// killed and the test fails (a hang must fail a test, never stall CI).
  static let defaultLimit: Double = 60

  /// Runs `pb` with `arguments`; standard input is `input` (or empty), or
  /// the file `inputFile`.
  @discardableResult
  func run(
    _ arguments: [String], input: Data = Data(), inputFile: String? = nil, limit: Double = PBRunner.defaultLimit,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> Result {
    var stdin = inputFile
    let inputPath = root + "/.in-\(UUID().uuidString)"
    if stdin == nil {
      FileManager.default.createFile(atPath: inputPath, contents: input)
      stdin = inputPath
    }
    defer { try? FileManager.default.removeItem(atPath: inputPath) }
    return try execute(PBRunner.executable, arguments, environment: environment, stdin: stdin!, limit: limit, file: file, line: line)
  }

  /// Runs a shell command line with this runner's environment and `pb` on
  /// PATH (for pipelines and resource limits), in the runner's directory.
  @discardableResult
  func shell(_ script: String, limit: Double = PBRunner.defaultLimit, file: StaticString = #filePath, line: UInt = #line) throws -> Result {
    var env = environment
    env["PATH"] = URL(fileURLWithPath: PBRunner.executable).deletingLastPathComponent().path + ":" + (env["PATH"] ?? "")
    return try execute("/bin/bash", ["-c", script], environment: env, stdin: "/dev/null", limit: limit, file: file, line: line)
  }

  /// Runs `program` with its output and error in files (so that a
  /// background process holding them cannot stall the test), in a process
  /// group of its own that is ended if it runs past `limit` seconds.
  private func execute(
    _ program: String, _ arguments: [String], environment: [String: String], stdin: String, limit: Double,
    file: StaticString, line: UInt
  ) throws -> Result {
    let out = root + "/.out-\(UUID().uuidString)"
    let err = out + ".err"
    FileManager.default.createFile(atPath: out, contents: nil)
    FileManager.default.createFile(atPath: err, contents: nil)
    defer {
      try? FileManager.default.removeItem(atPath: out)
      try? FileManager.default.removeItem(atPath: err)
    }
    if asNobody { for path in [out, err] { chown(path, PBRunner.nobody, PBRunner.nobody) } }
    let argv =
      asNobody
      ? ["/usr/bin/setpriv", "--reuid=\(PBRunner.nobody)", "--regid=\(PBRunner.nobody)", "--clear-groups", program] + arguments
      : [program] + arguments
    let child = try ChildProcess(
      argv, environment: environment.map { "\($0.key)=\($0.value)" }, directory: root,
      input: .descriptor(try Descriptor.open(stdin, O_RDONLY)),
      output: .descriptor(try Descriptor.open(out, O_WRONLY)), error: .descriptor(try Descriptor.open(err, O_WRONLY)))
    let status: Int32
    do {
      switch try child.wait(until: WallClock.monotonicMilliseconds() + Int64(limit * 1000), graceMilliseconds: 500) {
      case .exited(let code): status = code
      case .signaled(let signal): status = 128 + signal
      }
    } catch {
      XCTFail("\(argv.joined(separator: " ")) did not finish within \(limit) s", file: file, line: line)
      status = -1
    }
    return Result(
      status: status, stdout: try Data(contentsOf: URL(fileURLWithPath: out)),
      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
  }
}

/// Asserts a `pb` result's exit status and that an error is one `pb:` line.
func assertStatus(_ result: PBRunner.Result, _ status: Int32, file: StaticString = #filePath, line: UInt = #line) {
  XCTAssertEqual(result.status, status, "stderr: \(result.stderr)", file: file, line: line)
  if status != 0 {
    let lines = result.stderr.split(separator: "\n")
    XCTAssertEqual(lines.count, 1, "expected one error line, got: \(result.stderr)", file: file, line: line)
    XCTAssertTrue(result.stderr.hasPrefix("pb: "), "error must start with 'pb: ': \(result.stderr)", file: file, line: line)
  }
}
