import XCTest

/// Owning several selections at once, and failing to own one; selections
/// of other names; `pb boards` and `pb clear` over several boards.
final class OwnershipTests: X11TestCase {
  /// Another program takes one of the selections after pb took its
  /// timestamp, so the server ignores pb's older claim: pb gives up the
  /// selection it did get, exits 7 and says exactly that in one line.
  func testFailingToOwnOneSelectionGivesTheOthersUp() throws {
    // The peer takes `work` while pb is between its timestamp and its
    // claim; pb usually gets there first only if the peer is slow to
    // wake, so a few attempts make the failure certain.
    for _ in 1...10 {
      try peerCopies("printf previous | xclip -selection clipboard -i >/dev/null 2>&1")
      let peer = try startPeer("steal work")
      let r = try sh("printf new | $PB copy -b general,work")
      XCTAssertTrue(Tools.eventually(2000) { peer.output.contains("stole") }, peer.output)
      if r.status == 0 { continue }  // pb owned both before the peer moved
      XCTAssertEqual(r.status, 7, r.stderr)
      XCTAssertEqual(
        r.stderr,
        "pb: cannot own the work selection: another program took it in the meantime; nothing was copied, and CLIPBOARD (board general), which pb had taken, was given up and is now empty (DISPLAY is \(display.name))\n")
      XCTAssertNil(try owner(of: "CLIPBOARD"), "general was given up, not left with the new copy")
      XCTAssertTrue(Tools.eventually(1000) { Tools.owners(on: display).isEmpty }, "a pb owner was left")
      XCTAssertEqual(try sh("$PB paste").status, 1)
      let work = try owner(of: "work")
      XCTAssertNotNil(work)
      XCTAssertEqual(try work.map(isPBOwner), false, "the peer keeps work")
      return
    }
    XCTFail("in 10 attempts the peer never took the selection before pb did")
  }

  /// Any other board is the selection of that name, which any program
  /// naming that atom shares (xclip and xsel know only the three standard
  /// ones: `xclip -selection work` is PRIMARY).
  func testOtherSelectionNamesBothWays() throws {
    try sh("printf mine | $PB copy -b work")
    XCTAssertEqual(try sh("\(Peer.command) text-reader work").text, "mine")
    XCTAssertNil(try owner(of: "CLIPBOARD"), "work is a selection of its own")
    XCTAssertNil(try owner(of: "PRIMARY"))
    try startPeer("text-owner work theirs")
    XCTAssertTrue(Tools.eventually(1000) { Tools.owners(on: display).isEmpty }, "pb's owner was replaced")
    let r = try sh("$PB paste -b work")
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.text, "theirs")
  }

  /// `pb boards` lists the standard boards that have an owner, whoever it
  /// is, with their counts and types.
  func testBoardsListsTheOwnedStandardBoards() throws {
    XCTAssertEqual(try sh("$PB boards").text, "")
    try sh("printf p | $PB copy -b primary")
    try peerCopies("printf c | xclip -selection clipboard -i >/dev/null 2>&1", pbOwnersLeft: true)
    let general = try sh("$PB count").text.trimmingCharacters(in: .whitespacesAndNewlines)
    let primary = try sh("$PB count -b primary").text.trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(
      try sh("$PB boards").text,
      "general\t\(general)\t-\ttext/plain;charset=utf-8\nprimary\t\(primary)\t-\ttext/plain;charset=utf-8,text/plain\n")
  }

  /// `clear --if-count N -b a,b` checks every board's count before it
  /// clears any.
  func testClearIfCountOnSeveralBoardsIsAllOrNothing() throws {
    try sh("printf both | $PB copy -b general,primary")
    let count = try sh("$PB count").text.trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(try sh("$PB count -b primary").text.trimmingCharacters(in: .whitespacesAndNewlines), count, "one owner, one count")
    try peerCopies("printf other | xclip -selection primary -i >/dev/null 2>&1", selection: "PRIMARY", pbOwnersLeft: true)
    let refused = try sh("$PB clear --if-count \(count) -b general,primary")
    XCTAssertEqual(refused.status, 3, refused.stderr)
    XCTAssertTrue(refused.stderr.contains("'primary' has changed") && refused.stderr.contains("nothing cleared"), refused.stderr)
    XCTAssertEqual(try sh("$PB paste").text, "both", "general was not cleared")
    XCTAssertEqual(try sh("$PB paste -b primary").text, "other")
    let cleared = try sh("$PB clear --if-count \(count) -b general")
    XCTAssertEqual(cleared.status, 0, cleared.stderr)
    XCTAssertNil(try owner(of: "CLIPBOARD"))
    XCTAssertTrue(Tools.eventually(1000) { Tools.owners(on: display).isEmpty }, "pb's owner lost both and exits")
  }
}
