import PasteboardKit
import XCTest

@testable import PasteboardTable

/// Rows, sections and edits, byte for byte.
final class TableTests: XCTestCase {
  func table(_ text: String, _ sectioning: Table.Sectioning = .none) -> Table { Table(bytes: Array(text.utf8), sectioning: sectioning) }
  func rows(_ t: Table) -> [String] { (0..<t.count).map { String(decoding: t.content($0), as: UTF8.self) } }

  func testRowsKeepTheirBytesAndLineEndings() {
    let crlf = table("one\r\ntwo\r\n")
    XCTAssertEqual(rows(crlf), ["one", "two"])
    XCTAssertEqual(crlf.lineEnding, [0x0D, 0x0A])
    XCTAssertEqual(Array(crlf.line(0)), Array("one\r\n".utf8))
    let bare = table("a\nb")
    XCTAssertEqual(rows(bare), ["a", "b"])
    XCTAssertFalse(bare.endsInNewline)
    let binary = Table(bytes: [0x61, 0x00, 0xFF, 0x0A, 0x0A, 0x62])
    XCTAssertEqual(binary.count, 3, "an empty line is a row")
    XCTAssertEqual(Array(binary.content(0)), [0x61, 0x00, 0xFF])
    XCTAssertEqual(table("").count, 0)
    XCTAssertEqual(table("\n").count, 1)
    XCTAssertEqual(rows(table("lone\rcr\n")), ["lone\rcr"], "a CR inside a row is content")
  }

  func testSections() throws {
    let blank = table("a\nb\n\n  \n\nc\n\nd\ne\n", .blankLines)
    XCTAssertEqual(rows(blank), ["a", "b", "c", "d", "e"], "blank lines (spaces and tabs too) are not rows")
    XCTAssertEqual(blank.sectionCount, 3)
    XCTAssertEqual(blank.indexPath(of: 3), RowPath(section: 2, row: 0))
    XCTAssertEqual(blank.row(at: RowPath(section: 1, row: 0)), 2)
    XCTAssertNil(blank.row(at: RowPath(section: 1, row: 1)))
    XCTAssertEqual(blank.rows(inSection: 2), 3..<5)
    let headed = table("intro\n## one\nx\n## two\ny\nz\n", .matching(try RowPattern("^## ")))
    XCTAssertEqual(headed.sectionCount, 3, "rows before the first match are a section of their own")
    XCTAssertEqual(headed.indexPath(of: 1), RowPath(section: 1, row: 0), "the matching line is its section's first row")
    XCTAssertEqual(headed.indexPath(of: 5), RowPath(section: 2, row: 2))
    XCTAssertEqual(table("## first\nx\n", .matching(try RowPattern("^## "))).sectionCount, 1)
  }

  func testEditsKeepTheFilesConventions() {
    let t = table("a\nb\nc\n")
    XCTAssertEqual(String(decoding: t.removing([1]), as: UTF8.self), "a\nc\n")
    XCTAssertEqual(String(decoding: t.inserting([Array("x".utf8), Array("y".utf8)], after: 0), as: UTF8.self), "a\nx\ny\nb\nc\n")
    XCTAssertEqual(String(decoding: t.inserting([Array("z".utf8)], after: 2), as: UTF8.self), "a\nb\nc\nz\n")
    let crlf = table("a\r\nb\r\n")
    XCTAssertEqual(String(decoding: crlf.inserting([Array("x".utf8)], after: 0), as: UTF8.self), "a\r\nx\r\nb\r\n", "new rows get the file's line ending")
    XCTAssertEqual(String(decoding: crlf.removing([0]), as: UTF8.self), "b\r\n")
    let bare = table("a\nb")
    XCTAssertEqual(String(decoding: bare.inserting([Array("z".utf8)], after: 1), as: UTF8.self), "a\nb\nz", "still no final newline")
    XCTAssertEqual(String(decoding: bare.removing([1]), as: UTF8.self), "a", "still no final newline")
    XCTAssertEqual(String(decoding: bare.removing([0]), as: UTF8.self), "b")
    let crlfBare = table("a\r\nb")
    XCTAssertEqual(String(decoding: crlfBare.removing([1]), as: UTF8.self), "a")
    XCTAssertEqual(String(decoding: crlfBare.inserting([Array("z".utf8)], after: 1), as: UTF8.self), "a\r\nb\r\nz")
    XCTAssertEqual(String(decoding: table("").inserting([Array("x".utf8)], after: -1), as: UTF8.self), "x\n")
    let separated = table("a\n\nb\n", .blankLines)
    XCTAssertEqual(String(decoding: separated.removing([1]), as: UTF8.self), "a\n\n", "a separator is not a row and stays")
  }

  func testRowAddresses() throws {
    let t = table("a\nb\n\nc\nd\ne\n", .blankLines)
    XCTAssertEqual(try RowAddress.rows("1,3-5", in: t), [0, 2, 3, 4])
    XCTAssertEqual(try RowAddress.rows("2:1,1:2,2:1", in: t), [2, 1], "S:R, in the order given, once")
    XCTAssertEqual(try RowAddress.row("5", in: t), 4)
    for bad in ["0", "6", "2:4", "3:1", "1-9", "x", "", "2-1", "1:", ":1", "+1", "1,,2"] {
      XCTAssertThrowsError(try RowAddress.rows(bad, in: t), bad) { error in
        XCTAssertEqual((error as? PasteboardError)?.exitStatus, 2, "\(bad): \(error)")
      }
    }
  }
}
