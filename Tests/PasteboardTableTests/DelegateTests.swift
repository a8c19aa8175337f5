import PasteboardKit
import XCTest

@testable import PasteboardTable

/// The standard delegate's three decisions, on a memory board.
final class DelegateTests: XCTestCase {
  func delegate(_ text: String, editable: Bool, policy: String = "", board: String? = nil) throws -> TablePolicyDelegate {
    let document = TableDocument(listing: Array(text.utf8), sectioning: .none, output: editable ? "/nonexistent/out" : nil)
    let pasteboard = Pasteboard(backend: MemoryBackend())
    if let board { try pasteboard.setString(board) }
    return TablePolicyDelegate(document: document, policy: Policy(rules: try Policy.parse(policy, file: "p")), pasteboard: pasteboard)
  }

  let first = RowPath(section: 0, row: 0)

  func allowed(_ d: TablePolicyDelegate, _ path: RowPath) -> [EditAction] {
    EditAction.allCases.filter { d.canPerform($0, forRowAt: path) }
  }

  func testTheDefaults() throws {
    XCTAssertEqual(allowed(try delegate("a\n", editable: false), first), [.copy, .select, .selectAll, .share], "a listing is read-only")
    XCTAssertEqual(allowed(try delegate("a\n", editable: true), first), [.copy, .cut, .delete, .select, .selectAll, .share], "no text on the board: no paste")
    XCTAssertEqual(allowed(try delegate("a\n", editable: true, board: "x"), first), EditAction.allCases)
    XCTAssertTrue(try delegate("a\n", editable: false).shouldShowMenu(forRowAt: first))
  }

  func testRulesDecideAmongWhatIsPossible() throws {
    let d = try delegate("# head\nbody\n", editable: false, policy: "allow cut\ndeny share rows 2\ndeny menu match ^#")
    XCTAssertFalse(d.canPerform(.cut, forRowAt: RowPath(section: 0, row: 1)), "no rule makes a listing editable")
    XCTAssertEqual(d.explain(.cut, forRowAt: first).reason, "the table is read-only (a listing; -o FILE makes it editable)")
    XCTAssertFalse(d.canPerform(.share, forRowAt: RowPath(section: 0, row: 1)))
    XCTAssertEqual(d.explain(.share, forRowAt: RowPath(section: 0, row: 1)).reason, "p:2: deny share rows 2")
    XCTAssertFalse(d.shouldShowMenu(forRowAt: first))
    XCTAssertTrue(d.shouldShowMenu(forRowAt: RowPath(section: 0, row: 1)))
    XCTAssertFalse(d.shouldShowMenu(forRowAt: RowPath(section: 0, row: 9)), "no such row")
  }

  func testPerformGoesThroughThePasteboard() throws {
    let d = try delegate("one\ntwo\nthree\n", editable: true)
    _ = try d.perform(.copy, forRowsAt: [RowPath(section: 0, row: 2), RowPath(section: 0, row: 0)])
    XCTAssertEqual(try d.pasteboard.string(), "one\nthree", "rows in table order, joined by newlines, no final newline")
    let cut = try d.perform(.cut, forRowsAt: [RowPath(section: 0, row: 1)])
    XCTAssertTrue(cut.edited)
    XCTAssertEqual(try d.pasteboard.string(), "two")
    XCTAssertEqual(String(decoding: d.document.table.bytes, as: UTF8.self), "one\nthree\n")
    _ = try d.perform(.paste, forRowsAt: [RowPath(section: 0, row: 0)])
    XCTAssertEqual(String(decoding: d.document.table.bytes, as: UTF8.self), "one\ntwo\nthree\n")
    _ = try d.perform(.delete, forRowsAt: [RowPath(section: 0, row: 0)])
    XCTAssertEqual(try d.pasteboard.string(), "two", "delete leaves the board alone")
    _ = try d.perform(.select, forRowsAt: [RowPath(section: 0, row: 1)])
    XCTAssertEqual(d.document.selection, [1])
    _ = try d.perform(.selectAll, forRowsAt: [first])
    XCTAssertEqual(d.document.selection, [0, 1])
    let shared = try d.perform(.share, forRowsAt: [first])
    XCTAssertEqual(shared.shared, [Array("two".utf8)])
  }

  func testADeniedActionChangesNothing() throws {
    let d = try delegate("keep\nme\n", editable: true, policy: "deny cut,delete all", board: "board")
    for action in [EditAction.cut, .delete] {
      XCTAssertThrowsError(try d.perform(action, forRowsAt: [first])) { error in
        XCTAssertEqual((error as? PasteboardError)?.exitStatus, 3, "\(error)")
      }
    }
    XCTAssertEqual(String(decoding: d.document.table.bytes, as: UTF8.self), "keep\nme\n")
    XCTAssertFalse(d.document.isEdited)
    XCTAssertEqual(try d.pasteboard.string(), "board")
  }

  func testPasteSplitsTheBoardsTextIntoRows() throws {
    let d = try delegate("a\nb\n", editable: true, board: "x\r\ny\n")
    _ = try d.perform(.paste, forRowsAt: [first])
    XCTAssertEqual(String(decoding: d.document.table.bytes, as: UTF8.self), "a\nx\ny\nb\n", "CRLF and a final newline make no extra row")
  }
}
