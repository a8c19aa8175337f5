import Foundation
import XCTest

/// The top of the repository (README.md, scripts/), found from this file.
let repositoryRoot: String = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

/// A program a test needs is not installed.
struct MissingTool: Error, CustomStringConvertible {
  let description: String
}

/// The path of the program `name` on PATH. When it is missing, the test
/// fails (never skips) with how to install it.
func requireTool(_ name: String, package: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
  for dir in path.split(separator: ":") {
    let candidate = "\(dir)/\(name)"
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  let message = "\(name) is not installed: install Debian's \(package) package (apt-get install \(package)); scripts/test installs it"
  XCTFail(message, file: file, line: line)
  throw MissingTool(description: message)
}

/// Checks `condition` every few milliseconds until it holds or `timeout`
/// seconds have passed; a timeout fails the test with `what`. Returns
/// whether the condition held.
@discardableResult
func waitUntil(
  _ what: @autoclosure () -> String, timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line,
  _ condition: () throws -> Bool
) rethrows -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while true {
    if try condition() { return true }
    if Date() >= deadline {
      XCTFail("timed out after \(timeout) s waiting for \(what())", file: file, line: line)
      return false
    }
    usleep(10_000)
  }
}

/// The text between the first fence line "```LANGUAGE" after the heading
/// line `heading` of a Markdown file and the closing fence.
func fencedBlock(in markdown: String, after heading: String, language: String) -> String? {
  let lines = markdown.components(separatedBy: "\n")
  guard let start = lines.firstIndex(of: heading),
    let open = lines[start...].firstIndex(of: "```" + language),
    let close = lines[(open + 1)...].firstIndex(of: "```")
  else { return nil }
  return lines[(open + 1)..<close].joined(separator: "\n") + "\n"
}

/// Shell quoting of one word.
func shellQuoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
