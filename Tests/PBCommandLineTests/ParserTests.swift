@testable import PBCommandLine
import XCTest

/// The two-stage parser, in process: tokens first, then commands.
final class ParserTests: XCTestCase {
  func testTokenizer() {
    XCTAssertEqual(
      Token.split(["--type=a/b", "--json", "-nq", "-", "x", "--", "--not-an-option", "-n"]),
      [
        .long(name: "type", value: "a/b"), .long(name: "json", value: nil), .shorts("nq"), .positional("-"),
        .positional("x"), .terminator, .positional("--not-an-option"), .positional("-n"),
      ])
  }

  func parse(_ words: [String]) throws -> Invocation {
    try Invocation.parse(words, commands: PB.commands)
  }

  func testGlobalOptionsBeforeOrAfterTheCommand() throws {
    let before = try parse(["-b", "work", "--backend", "file", "paste"])
    let after = try parse(["paste", "-b", "work", "--backend=file"])
    XCTAssertEqual(before.command?.name, "paste")
    XCTAssertEqual(after.command?.name, "paste")
    XCTAssertEqual(before.value("board"), "work")
    XCTAssertEqual(after.value("board"), "work")
    XCTAssertEqual(before.value("backend"), "file")
    XCTAssertEqual(after.value("backend"), "file")
  }

  /// pb(1): short options pack, and a value may follow the last letter as
  /// the next word, before the command name as after it.
  func testPackedShortOptionsWithAValueBeforeTheCommand() throws {
    for words in [["-qb", "work", "paste"], ["-qbwork", "paste"], ["-q", "-b", "work", "paste"], ["paste", "-qb", "work"]] {
      let i = try parse(words)
      XCTAssertEqual(i.command?.name, "paste", "\(words)")
      XCTAssertEqual(i.value("board"), "work", "\(words)")
      XCTAssertTrue(i.has("quiet"), "\(words)")
      XCTAssertEqual(i.positionals, [], "\(words)")
    }
    let attached = try parse(["-bqueue", "copy"])
    XCTAssertEqual(attached.value("board"), "queue", "the rest of the cluster is the value")
    XCTAssertEqual(attached.command?.name, "copy")
  }

  func testPackedShortFlagsAndAttachedValues() throws {
    let packed = try parse(["copy", "-nqbwork", "-tI/P"])
    XCTAssertTrue(packed.has("trim-newline"))
    XCTAssertTrue(packed.has("quiet"))
    XCTAssertEqual(packed.value("board"), "work")
    XCTAssertEqual(packed.value("type"), "I/P")
  }

  func testRepeatableOptionsAccumulateAndOthersKeepTheLast() throws {
    let i = try parse(["copy", "--also", "a/b=1", "--also=c/d=2", "-t", "x/y", "-t", "z/w"])
    XCTAssertEqual(i.all("also"), ["a/b=1", "c/d=2"])
    XCTAssertEqual(i.value("type"), "z/w")
  }

  func testTerminatorMakesEverythingPositional() throws {
    let i = try parse(["copy", "--", "-n", "--type"])
    XCTAssertEqual(i.positionals, ["-n", "--type"])
    XCTAssertFalse(i.has("trim-newline"))
  }

  func testNoAbbreviations() {
    XCTAssertThrowsError(try parse(["copy", "--trim"]))
    XCTAssertThrowsError(try parse(["copy", "--app"]))
    XCTAssertThrowsError(try parse(["cop"]))
  }

  func testErrorsQuoteTheToken() {
    func message(_ words: [String]) -> String {
      do {
        _ = try parse(words)
        return ""
      } catch let error as UsageError {
        return error.message
      } catch {
        return "\(error)"
      }
    }
    XCTAssertEqual(message(["paste", "--frob"]), "unknown option '--frob' for 'pb paste'")
    XCTAssertEqual(message(["paste", "-x"]), "unknown option '-x' for 'pb paste'")
    XCTAssertEqual(message(["paste", "--timeout"]), "option '--timeout' needs a value (DURATION)")
    XCTAssertEqual(message(["count", "--json=1"]), "option '--json' takes no value")
    XCTAssertEqual(message(["paste", "a", "b"]), "unexpected arguments 'a', 'b' for 'pb paste'")
    XCTAssertEqual(message(["pate"]), "unknown command 'pate'; did you mean 'paste'? (see 'pb --help')")
  }

  func testHelpTextListsEveryOption() {
    for command in PB.commands {
      let text = HelpCommand.text(for: command)
      for option in command.options + GlobalOptions.table {
        XCTAssertTrue(text.contains("--" + option.long), "\(command.name) help lacks --\(option.long)")
      }
    }
  }

  func testJSONKeepsEveryBitOfACount() {
    XCTAssertEqual(JSON.unsigned(UInt64.max).text, "18446744073709551615")
    XCTAssertEqual(JSON.object([("a", .string("q\"\n\u{1}"))]).text, #"{"a":"q\"\n\u0001"}"#)
  }
}
