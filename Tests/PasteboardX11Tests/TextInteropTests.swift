import XCTest

/// Text both ways with xclip and xsel as real peers (checklist 1-7).
final class TextInteropTests: X11TestCase {
  func testTextOutToXclipAndXsel() throws {
    try sh("printf 'hello\\n' | $PB copy")
    XCTAssertEqual(try sh("xclip -selection clipboard -o").text, "hello\n")
    XCTAssertEqual(try sh("xsel -b -o").text, "hello\n")
    XCTAssertEqual(Tools.owners(on: display).count, 1, "the owner still serves")
  }

  func testTextInFromXclipAndXsel() throws {
    try peerCopies("printf 'from xclip' | xclip -selection clipboard -i >/dev/null 2>&1")
    var r = try sh("$PB paste")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.text, "from xclip")
    try peerCopies("printf 'from xsel' | xsel -b -i >/dev/null 2>&1")
    r = try sh("$PB paste")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.text, "from xsel")
  }

  func testUTF8BothWaysWithBothPeers() throws {
    let text = "héllo ✓ 日本"
    try sh("printf '%s' '\(text)' | $PB copy")
    XCTAssertEqual(try sh("xclip -selection clipboard -o").text, text)
    XCTAssertEqual(try sh("xsel -b -o").text, text)
    XCTAssertEqual(try sh("$PB paste").text, text)
    // STRING is Latin-1: é is 0xE9, the rest '?'.
    XCTAssertEqual(try sh("xclip -selection clipboard -o -t STRING").stdout, [0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x20, 0x3F, 0x20, 0x3F, 0x3F])
    // From each peer, with pb's owner gone.
    try peerCopies("printf '%s' '\(text)' | xclip -selection clipboard -i >/dev/null 2>&1")
    XCTAssertEqual(try sh("$PB paste").text, text)
    try peerCopies("printf '%s' '\(text)' | xsel -b -i >/dev/null 2>&1")
    XCTAssertEqual(try sh("$PB paste").text, text)
  }

  func testPrimaryAndSecondaryAndTwoBoardsAtOnce() throws {
    try sh("printf both | $PB copy -b general,primary")
    XCTAssertEqual(try sh("xclip -selection clipboard -o").text, "both")
    XCTAssertEqual(try sh("xclip -selection primary -o").text, "both")
    XCTAssertEqual(Tools.owners(on: display).count, 1, "one owner serves both")
    try sh("printf sec | $PB copy -b secondary")
    XCTAssertEqual(try sh("xsel -s -o").text, "sec")
    // Losing one selection keeps the other served.
    try peerCopies("printf other | xclip -selection clipboard -i >/dev/null 2>&1", pbOwnersLeft: true)
    XCTAssertEqual(try sh("$PB paste -b primary").text, "both")
  }

  func testTargetsListExactlyTheTextSet() throws {
    try sh("printf hi | $PB copy")
    let targets = try sh("xclip -selection clipboard -o -t TARGETS").text.split(separator: "\n").map(String.init)
    XCTAssertEqual(
      targets, ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING", "TEXT"])
    // text/plain is a MIME type of its own; the X targets fold into
    // text/plain;charset=utf-8.
    XCTAssertEqual(try sh("$PB types").text, "text/plain;charset=utf-8\ntext/plain\n")
  }

  func testTypesFromXselAndXclipOwners() throws {
    try peerCopies("printf x | xsel -b -i >/dev/null 2>&1")
    XCTAssertEqual(try sh("$PB types").text, "text/plain;charset=utf-8\n")
    try peerCopies("printf x | xclip -selection clipboard -i -t text/html >/dev/null 2>&1")
    XCTAssertEqual(try sh("$PB types").text, "text/html\n")
  }

  func testTimestampIsStableAndNotInTheFuture() throws {
    try sh("printf hi | $PB copy")
    let a = try sh("xclip -selection clipboard -o -t TIMESTAMP").text
    let b = try sh("xclip -selection clipboard -o -t TIMESTAMP").text
    XCTAssertEqual(a, b)
    let value = Int(a.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    XCTAssertGreaterThan(value, 0)
  }

  func testUnofferedTargetIsRefusedAndTheOwnerGoesOn() throws {
    try sh("printf text | $PB copy")
    let r = try sh("xclip -selection clipboard -o -t image/png")
    XCTAssertNotEqual(r.status, 0)
    XCTAssertTrue(r.stdout.isEmpty)
    XCTAssertEqual(try sh("xclip -selection clipboard -o").text, "text")
    let p = try sh("$PB paste -t image/png")
    XCTAssertEqual(p.status, 6, p.stderr)
    XCTAssertTrue(p.stderr.contains("text/plain"), p.stderr)
  }

  func testNoOwnerExitsOneAtOnce() throws {
    let r = try sh("$PB paste")
    XCTAssertEqual(r.status, 1, r.stderr)
    XCTAssertTrue(r.stdout.isEmpty)
    XCTAssertTrue(r.stderr.hasPrefix("pb: "), r.stderr)
    XCTAssertLessThan(r.milliseconds, 500)
    // An xsel that cleared the clipboard leaves no owner either.
    try sh("printf '' | xsel -b -i >/dev/null 2>&1")
    XCTAssertEqual(try sh("$PB paste").status, 1)
    XCTAssertEqual(try sh("$PB count").text, "0\n")
  }

  func testLatin1OnlyOwnerIsReadAsUTF8() throws {
    try startPeer("string-only 'café'")
    let r = try sh("$PB paste")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.text, "café")
  }

  /// COMPOUND_TEXT is one of X's text targets: shown as UTF-8 text and
  /// converted, escape sequences and all.
  func testCompoundTextOnlyOwnerIsReadAsUTF8() throws {
    try startPeer("compound-only")
    XCTAssertEqual(try sh("$PB types").text, "text/plain;charset=utf-8\n")
    let r = try sh("$PB paste")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.text, "hé日本!")
  }

  /// An owner that refuses TARGETS is asked for UTF8_STRING, then STRING.
  func testOwnerRefusingTargetsIsAskedForText() throws {
    try startPeer("no-targets 'no list ✓'")
    XCTAssertEqual(try sh("$PB types").text, "text/plain;charset=utf-8\n")
    let r = try sh("$PB paste")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.text, "no list ✓")
  }
}

/// The python3-xlib helper in scripts/.
enum Peer {
  /// The repository's scripts/ directory.
  static var scriptDirectory: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("scripts").path
  }

  static var script: String { "\(scriptDirectory)/x11-peer.py" }

  static var command: String { "/usr/bin/python3 \(script)" }
}
