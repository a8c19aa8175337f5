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

  /// Runs `pb` with `arguments`; standard input is `input` (or empty).
  @discardableResult
  func run(_ arguments: [String], input: Data = Data(), inputFile: String? = nil) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: PBRunner.executable)
    process.arguments = arguments
    process.environment = environment
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
    if let inputFile {
      process.standardInput = FileHandle(forReadingAtPath: inputFile)
    } else {
      let inputPath = out + ".in"
      FileManager.default.createFile(atPath: inputPath, contents: input)
      defer { try? FileManager.default.removeItem(atPath: inputPath) }
      process.standardInput = FileHandle(forReadingAtPath: inputPath)
    }
    try process.run()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus,
      stdout: try Data(contentsOf: URL(fileURLWithPath: out)),
      stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
  }

  /// Runs a shell command line with this runner's environment and `pb` on
  /// PATH (for pipelines and resource limits).
  @discardableResult
  func shell(_ script: String) throws -> Result {
    var env = environment
    env["PATH"] = URL(fileURLWithPath: PBRunner.executable).deletingLastPathComponent().path + ":" + (env["PATH"] ?? "")
    var runner = self
    runner.environment = env
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.environment = env
    process.currentDirectoryURL = URL(fileURLWithPath: root)
    let pipe = Pipe()
    let errPipe = Pipe()
    process.standardOutput = pipe
    process.standardError = errPipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let out = pipe.fileHandleForReading.readDataToEndOfFile()
    let err = errPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    _ = runner
    return Result(status: process.terminationStatus, stdout: out, stderr: String(decoding: err, as: UTF8.self))
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
