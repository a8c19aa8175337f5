import Foundation
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

  /// The `pb` executable next to the test bundle (`.build/debug/pb`).
  static let executable: String = {
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

  func cleanUp() { try? FileManager.default.removeItem(atPath: root) }

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
  /// background process holding them cannot stall the test), and kills it
  /// (with its process group) if it runs past `limit` seconds.
  private func execute(
    _ program: String, _ arguments: [String], environment: [String: String], stdin: String, limit: Double,
    file: StaticString, line: UInt
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: root)
    let out = root + "/.out-\(UUID().uuidString)"
    let err = out + ".err"
    FileManager.default.createFile(atPath: out, contents: nil)
    FileManager.default.createFile(atPath: err, contents: nil)
    defer {
      try? FileManager.default.removeItem(atPath: out)
      try? FileManager.default.removeItem(atPath: err)
    }
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
    process.standardInput = FileHandle(forReadingAtPath: stdin)
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()
    if ended.wait(timeout: .now() + limit) == .timedOut {
      kill(-process.processIdentifier, SIGKILL)
      kill(process.processIdentifier, SIGKILL)
      ended.wait()
      XCTFail("\(([program] + arguments).joined(separator: " ")) did not finish within \(limit) s", file: file, line: line)
    }
    return Result(
      status: process.terminationStatus,
      stdout: try Data(contentsOf: URL(fileURLWithPath: out)),
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
