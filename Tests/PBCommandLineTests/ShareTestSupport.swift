import Foundation
import PasteboardKit
import XCTest

/// What the `pb share` tests of print, open and mail need besides pb: the
/// system programs they run (cupsd, lpadmin, xdg-open, Python), scripts
/// that stand in for a user's programs, and PATHs without some program.

/// A program a test runs itself (not pb), as a real process.
struct ToolRun {
  let status: Int32
  let stdout: String
  let stderr: String
  var succeeded: Bool { status == 0 }
}

/// Runs `arguments` with `environment` (nil: this process's), standard
/// input from `input`, and its output collected; a run longer than
/// `limit` seconds is ended and fails the test.
@discardableResult
func runTool(
  _ arguments: [String], environment: [String: String]? = nil, input: Data = Data(), limit: Double = 30,
  file: StaticString = #filePath, line: UInt = #line
) throws -> ToolRun {
  let scratch = NSTemporaryDirectory() + "pb-tool-" + UUID().uuidString
  try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: false)
  defer { try? FileManager.default.removeItem(atPath: scratch) }
  let (inPath, outPath, errPath) = (scratch + "/in", scratch + "/out", scratch + "/err")
  FileManager.default.createFile(atPath: inPath, contents: input)
  FileManager.default.createFile(atPath: outPath, contents: nil)
  FileManager.default.createFile(atPath: errPath, contents: nil)
  let child = try ChildProcess(
    arguments, environment: environment.map { $0.map { "\($0.key)=\($0.value)" } }, directory: scratch,
    input: .descriptor(try Descriptor.open(inPath, O_RDONLY)), output: .descriptor(try Descriptor.open(outPath, O_WRONLY)),
    error: .descriptor(try Descriptor.open(errPath, O_WRONLY)))
  var status: Int32 = -1
  do {
    switch try child.wait(until: WallClock.monotonicMilliseconds() + Int64(limit * 1000), graceMilliseconds: 1000) {
    case .exited(let code): status = code
    case .signaled(let signal): status = 128 + signal
    }
  } catch {
    XCTFail("\(arguments.joined(separator: " ")) did not finish within \(limit) s", file: file, line: line)
  }
  return ToolRun(
    status: status, stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
    stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
}

/// `path` when it exists; else the test fails with the Debian package
/// that provides it (never a skip).
func requireFile(_ path: String, package: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
  if FileManager.default.fileExists(atPath: path) { return path }
  let message = "\(path) is missing: install Debian's \(package) package (apt-get install \(package)); scripts/test installs it"
  XCTFail(message, file: file, line: line)
  throw MissingTool(description: message)
}

/// Writes an executable script.
func writeScript(_ path: String, _ text: String) throws {
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  chmod(path, 0o755)
}

/// A PATH like this process's in which the programs `missing` are not
/// found: each directory that holds one of them is replaced by
/// `directory`, which holds symbolic links to its other programs.
func pathWithout(_ missing: Set<String>, in directory: String) throws -> String {
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  var kept: [String] = [directory]
  for dir in path.split(separator: ":").map(String.init) where !dir.isEmpty {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
    guard names.contains(where: missing.contains) else {
      kept.append(dir)
      continue
    }
    for name in names where !missing.contains(name) {
      let link = directory + "/" + name
      if FileManager.default.fileExists(atPath: link) { continue }
      try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: dir + "/" + name)
    }
  }
  return kept.joined(separator: ":")
}

/// The types `pb share --list` prints, one per line before a tab.
func listedTypes(_ result: PBRunner.Result) -> [String] {
  result.text.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
}

/// The system's Python 3 (Debian's python3, which has the `email`
/// package), never one a version manager put first on PATH.
func requirePython(file: StaticString = #filePath, line: UInt = #line) throws -> String {
  try requireFile("/usr/bin/python3", package: "python3", file: file, line: line)
}

/// A small PNG: `width` × `height` pixels of an RGB gradient, made by
/// Python's zlib (CRCs and compression done right).
func makePNG(width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) throws -> Data {
  let python = try requirePython(file: file, line: line)
  let script = """
    import struct, sys, zlib
    w, h = \(width), \(height)
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    rows = b"".join(b"\\0" + b"".join(bytes((x * 255 // w, y * 255 // h, 128)) for x in range(w)) for y in range(h))
    png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    sys.stdout.buffer.write(png.hex().encode())
    """
  let run = try runTool([python, "-c", script], file: file, line: line)
  XCTAssertTrue(run.succeeded, run.stderr, file: file, line: line)
  return try XCTUnwrap(Data(hexString: run.stdout), "python wrote: \(run.stdout.prefix(80))", file: file, line: line)
}

extension Data {
  init?(hexString: String) {
    var bytes: [UInt8] = []
    var high: UInt8?
    for c in hexString.utf8 {
      let v: UInt8
      switch c {
      case 0x30...0x39: v = c - 0x30
      case 0x61...0x66: v = c - 0x61 + 10
      case 0x0A: continue
      default: return nil
      }
      if let h = high {
        bytes.append(h << 4 | v)
        high = nil
      } else {
        high = v
      }
    }
    guard high == nil else { return nil }
    self.init(bytes)
  }
}
