import Foundation
import XCTest

@testable import PBCommandLine

/// The man pages in `man/` against the option tables: every command has a
/// page, every option is documented where it applies, pb(1) lists every
/// command, and every page passes `mandoc -T lint -W warning`.
final class ManPageTests: XCTestCase {
  /// The repository's root, from this file's place in `Tests/PBCommandLineTests/`.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let manDirectory = root.appendingPathComponent("man")

  /// The commands that have a page of their own (`help` is described in pb(1)).
  static var documentedCommands: [CommandSpec] { PB.commands.filter { $0.name != "help" } }

  static func pagePath(_ name: String) -> String { manDirectory.appendingPathComponent(name).path }

  static func page(_ name: String) throws -> String {
    try String(contentsOfFile: pagePath(name), encoding: .utf8)
  }

  /// `paste-once` as roff writes it: `paste\-once`.
  static func roff(_ text: String) -> String { text.replacingOccurrences(of: "-", with: "\\-") }

  /// Whether `page` mentions `--long` as a whole option name: `\-\-long`,
  /// not followed by more of a name (`\-\-paste` must not match `\-\-pastes`).
  static func mentions(long: String, in page: String) -> Bool {
    let pattern = NSRegularExpression.escapedPattern(for: "\\-\\-" + roff(long)) + "(?![A-Za-z0-9]|\\\\-[A-Za-z0-9])"
    return matches(pattern, page)
  }

  /// Whether `page` mentions `-x` on its own: `\-x`, not the tail of a long
  /// option (`\-\-board` contains `\-b`) and not the start of a word.
  static func mentions(short: Character, in page: String) -> Bool {
    let pattern = "(?<!\\\\-)" + NSRegularExpression.escapedPattern(for: "\\-" + String(short)) + "(?![A-Za-z0-9])"
    return matches(pattern, page)
  }

  static func matches(_ pattern: String, _ text: String) -> Bool {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
    return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
  }

  /// The text of section `name` (from `.SH NAME` to the next `.SH`).
  static func section(_ name: String, of page: String) -> String? {
    guard let start = page.range(of: "\n.SH \(name)\n") else { return nil }
    let rest = page[start.upperBound...]
    let end = rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex
    return String(rest[..<end])
  }

  func testEveryCommandHasAPage() {
    for command in Self.documentedCommands {
      XCTAssertTrue(
        FileManager.default.fileExists(atPath: Self.pagePath("pb-\(command.name).1")),
        "man/pb-\(command.name).1 is missing")
    }
    XCTAssertTrue(FileManager.default.fileExists(atPath: Self.pagePath("pb.1")), "man/pb.1 is missing")
  }

  func testEveryOptionIsInItsCommandsPage() throws {
    for command in Self.documentedCommands {
      let file = "pb-\(command.name).1"
      guard let text = try? Self.page(file) else {
        XCTFail("man/\(file) cannot be read")
        continue
      }
      for option in command.options + GlobalOptions.table {
        XCTAssertTrue(
          Self.mentions(long: option.long, in: text),
          "man/\(file) does not document --\(option.long) (write it as \\-\\-\(Self.roff(option.long)))")
        if let short = option.short {
          XCTAssertTrue(
            Self.mentions(short: short, in: text), "man/\(file) does not document -\(short) (write it as \\-\(short))")
        }
      }
    }
  }

  func testOverviewPageListsEveryCommandAndGlobalOption() throws {
    let text = try Self.page("pb.1")
    let commands = try XCTUnwrap(Self.section("COMMANDS", of: text), "man/pb.1 has no COMMANDS section")
    for command in PB.commands {
      let tagged =
        commands.contains("\\fB\(command.name)\\fR")
        || commands.split(separator: "\n").contains { line in
          line == ".B \(command.name)" || line.hasPrefix(".B \(command.name) ") || line.hasPrefix(".BR \(command.name) ")
        }
      XCTAssertTrue(tagged, "the COMMANDS section of man/pb.1 does not list '\(command.name)'")
    }
    for command in Self.documentedCommands {
      XCTAssertTrue(
        text.contains(".BR pb\\-\(command.name) (1)"), "man/pb.1 does not refer to pb-\(command.name)(1)")
    }
    for option in GlobalOptions.table {
      XCTAssertTrue(Self.mentions(long: option.long, in: text), "man/pb.1 does not document --\(option.long)")
      if let short = option.short {
        XCTAssertTrue(Self.mentions(short: short, in: text), "man/pb.1 does not document -\(short)")
      }
    }
  }

  func testEveryPagePassesMandocLint() throws {
    guard let mandoc = Self.executable("mandoc") else {
      XCTFail("mandoc is not on PATH; install it with: apt-get install mandoc")
      return
    }
    var pages = Set(["pb.1"] + Self.documentedCommands.map { "pb-\($0.name).1" })
    let listed = (try? FileManager.default.contentsOfDirectory(atPath: Self.manDirectory.path)) ?? []
    pages.formUnion(listed.filter { Self.matches("\\.[1-9]$", $0) })
    for name in pages.sorted() {
      let path = Self.pagePath(name)
      guard FileManager.default.fileExists(atPath: path) else { continue }  // reported by testEveryCommandHasAPage
      let (status, output) = try Self.run(mandoc, ["-T", "lint", "-W", "warning", path])
      XCTAssertEqual(output, "", "mandoc -T lint -W warning man/\(name) complains")
      XCTAssertEqual(status, 0, "mandoc -T lint -W warning man/\(name) exits \(status)")
    }
  }

  /// The full path of `name` on PATH, if it is there.
  static func executable(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for dir in path.split(separator: ":") {
      let candidate = String(dir) + "/" + name
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Runs a program and returns its exit status and its standard output and
  /// standard error together.
  static func run(_ program: String, _ arguments: [String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}
