import PasteboardActivities
import XCTest

/// Reversal by user-perceived characters, line by line.
final class ReversalTests: XCTestCase {
  func testReversalKeepsCharactersWhole() {
    XCTAssertEqual(TextReversal.reverse("Привет 👍🏽"), "👍🏽 тевирП")
    XCTAssertEqual(TextReversal.reverse("e\u{301}a\u{308}o"), "oa\u{308}e\u{301}", "combining marks stay on their letter")
    XCTAssertEqual(TextReversal.reverse("👨‍👩‍👧‍👦 and 👩🏽‍💻"), "👩🏽‍💻 dna 👨‍👩‍👧‍👦", "ZWJ sequences stay whole")
    XCTAssertEqual(TextReversal.reverse("🇫🇷🇩🇪🇯🇵"), "🇯🇵🇩🇪🇫🇷", "flags stay whole")
    XCTAssertEqual(TextReversal.reverse("한국어"), "어국한")
  }

  func testLinesKeepTheirOrderAndBreaks() {
    XCTAssertEqual(TextReversal.reverse("abc\ndef\n"), "cba\nfed\n")
    XCTAssertEqual(TextReversal.reverse("ab\r\ncd"), "ba\r\ndc", "CRLF stays a line break")
    XCTAssertEqual(TextReversal.reverse("\n\nx\n"), "\n\nx\n")
    XCTAssertEqual(TextReversal.reverse(""), "")
    XCTAssertEqual(TextReversal.reverse("a\rb"), "b\ra", "a lone CR is a character")
    let text = "Привет 👍🏽\r\nline two\n\n🇫🇷 x\u{301}"
    XCTAssertEqual(TextReversal.reverse(TextReversal.reverse(text)), text, "twice gives the text back")
  }
}
