import Foundation
import XCTest

/// Clipboard text and file names shown to a person never act on the
/// terminal: control characters are shown visibly, one line per entry,
/// while `--json` stays exact.
final class TerminalSafetyTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws { pb = try PBRunner() }
  override func tearDown() { pb.cleanUp() }

  /// A string that sets the terminal's clipboard (OSC 52), rings the bell,
  /// returns the cursor, sends a C1 CSI, reverses the text direction and
  /// ends in a byte that is not UTF-8.
  static let hostile: [UInt8] =
    Array("a\u{1B}]52;c;aGk=\u{07}b\rc\u{9B}31md\u{202E}e\nf\tg".utf8) + [0xFF]

  /// Bytes that act on a terminal: C0 controls other than newline (which
  /// ends a line of the listing), DEL, and the UTF-8 of C1 and bidi controls.
  func assertInert(_ output: Data, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
    let bytes = [UInt8](output)
    XCTAssertFalse(bytes.contains { ($0 < 0x20 && $0 != 0x0A && $0 != 0x09) || $0 == 0x7F }, "\(what) holds a control character: \(bytes)", file: file, line: line)
    let text = String(decoding: bytes, as: UTF8.self)
    XCTAssertFalse(text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E }, "\(what): \(text)", file: file, line: line)
  }

  func testHistoryPreviewsShowControlsVisibly() throws {
    assertStatus(try pb.run(["copy", "-t", "text/plain;charset=utf-8"], input: Data(Self.hostile)), 0)
    let listing = try pb.run(["history"])
    assertStatus(listing, 0)
    assertInert(listing.stdout, "pb history")
    XCTAssertEqual(listing.text.split(separator: "\n").count, 1, "one line per entry: \(listing.text)")
    XCTAssertTrue(listing.text.hasSuffix("\ta^[]52;c;aGk=^Gb^Mc<U+009B>31md<U+202E>e f g<FF>\n"), listing.text)
    // JSON is exact: the preview decodes to the text, escapes and all.
    let json = try pb.run(["history", "--json"])
    let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
    XCTAssertEqual(rows.first?["preview"] as? String, String(decoding: Self.hostile, as: UTF8.self))
  }

  func testMessagesShowControlsVisibly() throws {
    let option = try pb.run(["copy", "--bogus\u{1B}]52;c;eA\u{07}"])
    assertStatus(option, 2)
    assertInert(Data(option.stderr.utf8), "the unknown-option message")
    XCTAssertTrue(option.stderr.contains("--bogus^[]52;c;eA^G"), option.stderr)
    let file = try pb.run(["copy", pb.root + "/no\u{1B}[2Jsuch\nfile"])
    assertStatus(file, 7)
    assertInert(Data(file.stderr.utf8), "the missing-file message")
    XCTAssertTrue(file.stderr.contains("no^[[2Jsuch^Jfile"), file.stderr)
  }

  func testListingsOfNamesAndTypesAreSafe() throws {
    assertStatus(try pb.run(["copy"], input: Data("x".utf8)), 0)
    try BoardFiles.plant(
      at: pb.store + "/boards/tricky", lines: ["count 1", "written 0", "rep 0 0 1 text/x-\u{1B}[31m"], payload: [0x41])
    // The planted type is refused as not a MIME type: the board is damaged,
    // and the message naming it is safe.
    let types = try pb.run(["types", "-b", "tricky"])
    assertInert(Data(types.stderr.utf8), "pb types")
    assertInert(try pb.run(["boards"]).stdout, "pb boards")
    var odd = pb!
    odd.environment["PB_DIR"] = pb.root + "/store\u{1B}]0;title\u{07}"
    let info = try odd.run(["info"])
    assertStatus(info, 0)
    assertInert(info.stdout, "pb info")
    XCTAssertTrue(info.text.contains("store: \(pb.root)/store^[]0;title^G\n"), info.text)
    let json = try odd.run(["info", "--json"])
    let fields = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.stdout) as? [String: String])
    XCTAssertEqual(fields["store"], pb.root + "/store\u{1B}]0;title\u{07}")
  }
}
