import PasteboardKit
import XCTest

@testable import PasteboardTable

/// The policy language: its grammar, every malformed form, and which rule
/// decides.
final class PolicyTests: XCTestCase {
  func rules(_ text: String) throws -> [PolicyRule] { try Policy.parse(text, file: "p") }

  func problems(_ text: String) -> String {
    do {
      _ = try rules(text)
      return ""
    } catch {
      return "\(error)"
    }
  }

  func testTheGrammar() throws {
    let parsed = try rules("""
      # comments and blank lines are skipped

      allow copy
      deny cut,delete rows 1-3,7,10-
      deny menu match ^#.*  (with blanks)
      allow * sections 2
      deny paste all
      \tallow share\trows\t4
      deny select-all rows 2\r
      """)
    XCTAssertEqual(parsed.map(\.origin), ["p:3", "p:4", "p:5", "p:6", "p:7", "p:8", "p:9"])
    XCTAssertEqual(parsed[0].targets, [.action(.copy)])
    XCTAssertEqual(parsed[1].targets, [.action(.cut), .action(.delete)])
    guard case .rows(let ranges) = parsed[1].selector else { return XCTFail("rows") }
    XCTAssertEqual(ranges, [1...3, 7...7, 10...Int.max])
    XCTAssertEqual(parsed[2].targets, [.menu])
    guard case .match(let pattern) = parsed[2].selector else { return XCTFail("match") }
    XCTAssertEqual(pattern.source, "^#.*  (with blanks)", "the expression is the rest of the line, blanks and all")
    XCTAssertEqual(parsed[3].targets.count, EditAction.allCases.count, "* is every action")
    XCTAssertFalse(parsed[3].targets.contains(.menu), "* is not the menu")
    guard case .sections(let sections) = parsed[3].selector else { return XCTFail("sections") }
    XCTAssertEqual(sections, [2...2])
    XCTAssertEqual(parsed[5].targets, [.action(.share)], "tabs separate words too")
    XCTAssertEqual(parsed[6].text, "deny select-all rows 2", "a CR before the newline is not part of the rule")
  }

  func testEveryMalformedFormIsReportedWithFileAndLine() {
    for (text, message) in [
      ("permit copy", "p:1: a rule starts with allow or deny, not 'permit'"),
      ("allow", "p:1: 'allow' names no action"),
      ("allow cpy", "p:1: unknown action 'cpy'"),
      ("allow copy,", "p:1: unknown action ''"),
      ("allow ,copy", "p:1: unknown action ''"),
      ("deny copy rows", "p:1: 'rows' needs a list such as 1-3,7"),
      ("deny copy rows 0", "p:1: '0' is not a list of numbers and ranges"),
      ("deny copy rows 3-1", "p:1: '3-1' is not a list"),
      ("deny copy rows 1,,2", "p:1: '1,,2' is not a list"),
      ("deny copy rows -3", "p:1: '-3' is not a list"),
      ("deny copy rows +3", "p:1: '+3' is not a list"),
      ("deny copy rows x", "p:1: 'x' is not a list"),
      ("deny copy sections", "p:1: 'sections' needs a list"),
      ("deny copy match", "p:1: 'match' needs a regular expression"),
      ("deny copy match (", "p:1: bad regular expression '('"),
      ("deny copy match a[", "p:1: bad regular expression 'a['"),
      ("deny copy everywhere", "p:1: rows are selected by all, rows, sections or match, not 'everywhere'"),
      ("deny copy all of them", "p:1: 'all' takes nothing after it, not 'of them'"),
      ("allow Copy", "p:1: unknown action 'Copy'"),
    ] {
      XCTAssertTrue(problems(text).contains(message), "\(text): \(problems(text))")
    }
    let many = problems("allow copy\nbogus\n\ndeny cpy\n# fine\nallow paste rows q")
    XCTAssertTrue(many.contains("p:2:") && many.contains("p:4:") && many.contains("p:6:"), "every problem at once: \(many)")
    XCTAssertFalse(many.contains("p:1:"), many)
  }

  func testCommandLineRules() throws {
    let rules = try Policy.commandLine(deny: ["cut,delete"], allow: ["menu"])
    XCTAssertEqual(rules.map(\.origin), ["--deny", "--allow"])
    XCTAssertThrowsError(try Policy.commandLine(deny: ["cutt"], allow: [])) { error in
      XCTAssertTrue("\(error)".contains("unknown action 'cutt'"), "\(error)")
    }
  }

  func testFirstMatchWinsAndDefaultsComeLast() throws {
    let policy = Policy(rules: try rules("""
      allow delete rows 2
      deny delete,cut rows 1-3
      deny menu match ^#
      deny copy sections 2
      """))
    let table = Table(bytes: Array("# header\nrow two\nrow three\nrow four\n".utf8))
    func decide(_ a: EditAction, _ n: Int, section: Int = 0) -> (Bool, String?) {
      let d = policy.decide(a, row: n, path: RowPath(section: section, row: n), content: table.content(n))
      return (d.allowed, d.rule?.origin)
    }
    XCTAssertEqual(decide(.delete, 1).0, true, "row 2: the allow before the deny wins")
    XCTAssertEqual(decide(.delete, 1).1, "p:1")
    XCTAssertEqual(decide(.delete, 0).0, false)
    XCTAssertEqual(decide(.delete, 0).1, "p:2")
    XCTAssertEqual(decide(.cut, 2).0, false)
    XCTAssertEqual(decide(.delete, 3).0, true, "row 4: no rule, the default")
    XCTAssertNil(decide(.delete, 3).1)
    XCTAssertEqual(decide(.copy, 1, section: 1).0, false, "sections are 1-based in rules")
    XCTAssertEqual(decide(.copy, 1, section: 0).0, true)
    XCTAssertFalse(policy.showsMenu(row: 0, path: RowPath(section: 0, row: 0), content: table.content(0)).allowed)
    XCTAssertTrue(policy.showsMenu(row: 1, path: RowPath(section: 0, row: 1), content: table.content(1)).allowed)
  }

  func testPatternsMatchBytesAsTheyAre() throws {
    let pattern = try RowPattern("^ab+c$")
    XCTAssertTrue(pattern.matches(Array("abbbc".utf8)[...]))
    XCTAssertFalse(pattern.matches(Array("xabbc".utf8)[...]))
    XCTAssertTrue(try RowPattern("b").matches(Array("abc".utf8)[...]), "a match anywhere in the row")
    XCTAssertTrue(try RowPattern("^a.c$").matches([0x61, 0xFF, 0x63][...]), "a byte that is not UTF-8 is one character")
    XCTAssertTrue(try RowPattern("c$").matches([0x61, 0x00, 0x62, 0x63][...]), "a NUL byte does not end the row")
    XCTAssertTrue(try RowPattern("^$").matches([][...]), "an empty row")
    XCTAssertTrue(try RowPattern("(x|y){2}").matches(Array("axyb".utf8)[...]), "extended syntax")
  }
}
