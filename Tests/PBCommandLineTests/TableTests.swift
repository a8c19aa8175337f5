import Foundation
import XCTest

/// `pb table` from scripts, through real pb processes on the file backend:
/// every action's effect on the board and on the file, denials that change
/// nothing, sections, byte-exact files, and what is refused.
final class TableCommandTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws { pb = try PBRunner() }
  override func tearDown() { pb.cleanUp() }

  func write(_ text: String, _ name: String = "notes.txt") throws -> String {
    let path = pb.root + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  func read(_ path: String) -> String { String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self) }

  func testCopyFromAListing() throws {
    let result = try pb.run(["table", "--row", "2", "--action", "copy"], input: Data("first\nsecond row\nthird\n".utf8))
    assertStatus(result, 0)
    XCTAssertEqual(result.text, "")
    XCTAssertEqual(try pb.run(["paste"]).text, "second row", "the row without its line ending")
    assertStatus(try pb.run(["table", "--row", "3,1", "--action", "copy"], input: Data("a\nb\nc\n".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "a\nc", "several rows: in table order, joined by newlines, no final newline")
    assertStatus(try pb.run(["table", "--row", "1-2", "--action", "copy", "-b", "work"], input: Data("x\ny\n".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste", "-b", "work"]).text, "x\ny")
  }

  func testCutPasteAndDeleteOnAFile() throws {
    let file = try write("one\ntwo\nthree\n")
    assertStatus(try pb.run(["table", file, "--row", "2", "--action", "cut"]), 0)
    XCTAssertEqual(read(file), "one\nthree\n")
    XCTAssertEqual(try pb.run(["paste"]).text, "two")
    assertStatus(try pb.run(["table", file, "--row", "2", "--action", "paste"]), 0)
    XCTAssertEqual(read(file), "one\nthree\ntwo\n", "pasted after the row")
    assertStatus(try pb.run(["copy"], input: Data("x\ny\n".utf8)), 0)
    assertStatus(try pb.run(["table", file, "--row", "1", "--action", "paste"]), 0)
    XCTAssertEqual(read(file), "one\nx\ny\nthree\ntwo\n", "the board's lines as rows")
    assertStatus(try pb.run(["table", file, "--row", "2-3", "--action", "delete"]), 0)
    XCTAssertEqual(read(file), "one\nthree\ntwo\n")
    XCTAssertEqual(try pb.run(["paste"]).text, "x\ny\n", "delete leaves the board alone")
  }

  func testAWriteBackKeepsModeAndIsAtomic() throws {
    let file = try write("keep\nmode\n")
    chmod(file, 0o640)
    assertStatus(try pb.run(["table", file, "--row", "1", "--action", "delete"]), 0)
    var st = stat()
    stat(file, &st)
    XCTAssertEqual(st.st_mode & 0o7777, 0o640)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: pb.root).filter { $0.hasPrefix(".pb-tmp") }, [])
  }

  /// pb-table(1), "Writing back": the new file gets the old one's owner
  /// and group too (root's pb could otherwise leave a user's file root's).
  func testAWriteBackKeepsOwnerAndGroup() throws {
    guard getuid() == 0 else { return XCTFail("giving a file to another user needs root (CI runs as root)") }
    let file = try write("first\nsecond\nthird\n")
    let (uid, gid): (uid_t, gid_t) = (PBRunner.nobody, 4242)
    XCTAssertEqual(chown(file, uid, gid), 0)
    chmod(file, 0o604)
    assertStatus(try pb.run(["table", file, "--row", "2", "--action", "delete"]), 0)
    XCTAssertEqual(read(file), "first\nthird\n")
    var st = stat()
    XCTAssertEqual(stat(file, &st), 0)
    XCTAssertEqual(st.st_uid, uid, "owner")
    XCTAssertEqual(st.st_gid, gid, "group")
    XCTAssertEqual(st.st_mode & 0o7777, 0o604, "mode")
  }

  func testDenialsChangeNothing() throws {
    let file = try write("# header\nbody\n")
    let policy = try write("deny cut,delete rows 1\ndeny menu match ^secret\n", "policy")
    assertStatus(try pb.run(["copy"], input: Data("board".utf8)), 0)
    for arguments in [
      ["--row", "1", "--action", "cut", "--policy", policy], ["--row", "1", "--action", "delete", "--policy", policy],
      ["--row", "2", "--action", "paste", "--deny", "paste"], ["--row", "1-2", "--action", "delete", "--policy", policy],
    ] {
      let result = try pb.run(["table", file] + arguments)
      assertStatus(result, 3)
      XCTAssertTrue(result.stderr.contains("nothing changed"), result.stderr)
      XCTAssertEqual(read(file), "# header\nbody\n", "\(arguments) changed the file")
      XCTAssertEqual(try pb.run(["paste"]).text, "board", "\(arguments) changed the board")
    }
    let listing = try pb.run(["table", "--row", "1", "--action", "cut"], input: Data("a\n".utf8))
    assertStatus(listing, 3)
    XCTAssertTrue(listing.stderr.contains("read-only"), listing.stderr)
    let hidden = try pb.run(["table", "--row", "2", "--action", "copy", "--policy", policy], input: Data("x\nsecret row\n".utf8))
    assertStatus(hidden, 3)
    XCTAssertTrue(hidden.stderr.contains("has no menu"), hidden.stderr)
    XCTAssertEqual(try pb.run(["paste"]).text, "board")
  }

  /// pb-policy(5): command-line rules come before the file's, --deny
  /// before --allow; no rule makes a read-only listing editable.
  func testAllowOnTheCommandLineOverridesThePolicyFile() throws {
    let policy = try write("deny cut,delete rows 1\ndeny menu rows 2\ndeny copy\n", "policy")
    let file = try write("# head\nbody\ntail\n")
    assertStatus(try pb.run(["copy"], input: Data("board".utf8)), 0)
    assertStatus(try pb.run(["table", file, "--policy", policy, "--row", "1", "--action", "delete"]), 3)
    XCTAssertEqual(read(file), "# head\nbody\ntail\n")
    assertStatus(try pb.run(["table", file, "--policy", policy, "--allow", "delete", "--row", "1", "--action", "delete"]), 0)
    XCTAssertEqual(read(file), "body\ntail\n", "--allow delete beat the file's deny")
    XCTAssertEqual(try pb.run(["paste"]).text, "board")
    // Several actions at once, and repeated: cut (and so copy) on row 1.
    let explained = try pb.run(["table", file, "--policy", policy, "--allow", "cut", "--allow", "copy,menu", "--explain", "1"]).text
    XCTAssertTrue(explained.contains("cut\tallowed\t--allow: --allow cut\n"), explained)
    XCTAssertTrue(explained.contains("copy\tallowed\t--allow: --allow copy,menu\n"), explained)
    assertStatus(try pb.run(["table", file, "--policy", policy, "--allow", "cut", "--row", "1", "--action", "cut"]), 0)
    XCTAssertEqual(read(file), "tail\n")
    XCTAssertEqual(try pb.run(["paste"]).text, "body")
    // The file's "deny copy" still holds where nothing allows it.
    assertStatus(try pb.run(["table", file, "--policy", policy, "--row", "1", "--action", "copy"]), 3)
    // A hidden menu shown again with --allow menu.
    let listing = Data("a\nb\n".utf8)
    assertStatus(try pb.run(["table", "--policy", policy, "--allow", "copy", "--row", "2", "--action", "copy"], input: listing), 3)
    assertStatus(try pb.run(["table", "--policy", policy, "--allow", "copy,menu", "--row", "2", "--action", "copy"], input: listing), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "b")
    // --deny comes first; and --allow cannot make a listing editable.
    let denied = try pb.run(["table", file, "--deny", "delete", "--allow", "delete", "--row", "1", "--action", "delete"])
    assertStatus(denied, 3)
    XCTAssertTrue(denied.stderr.contains("--deny: --deny delete"), denied.stderr)
    let readOnly = try pb.run(["table", "--allow", "cut", "--row", "1", "--action", "cut"], input: listing)
    assertStatus(readOnly, 3)
    XCTAssertTrue(readOnly.stderr.contains("read-only"), readOnly.stderr)
    XCTAssertEqual(read(file), "tail\n")
    XCTAssertEqual(try pb.run(["paste"]).text, "b")
  }

  func testABadPolicyStopsEverythingBeforeAnythingRuns() throws {
    let file = try write("a\nb\n")
    let policy = try write("deny cut rows 1\nallow cpy\nbogus\n", "policy")
    let result = try pb.run(["table", file, "--row", "2", "--action", "delete", "--policy", policy])
    assertStatus(result, 2)
    XCTAssertTrue(result.stderr.contains("policy:2: unknown action 'cpy'") && result.stderr.contains("policy:3:"), result.stderr)
    XCTAssertEqual(read(file), "a\nb\n")
    assertStatus(try pb.run(["table", file, "--row", "1", "--action", "copy", "--deny", "frob"]), 2)
    assertStatus(try pb.run(["table", file, "--row", "1", "--action", "copy", "--policy", pb.root + "/missing"]), 7)
  }

  func testUsageErrors() throws {
    let file = try write("a\nb\n")
    for (arguments, message) in [
      (["--row", "3", "--action", "copy"], "there is no row 3 (the table has 2 rows)"),
      (["--row", "0", "--action", "copy"], "there is no row 0"),
      (["--row", "1", "--action", "frobnicate"], "unknown action 'frobnicate'"),
      (["--row", "1"], "--row needs --action"),
      (["--action", "copy"], "--action needs --row"),
      (["--row", "x", "--action", "copy"], "'x' is not a row"),
      (["--explain", "9"], "there is no row 9"),
      (["--sections", "(", "--row", "1", "--action", "copy"], "bad regular expression"),
      (["-o", "out", "--row", "1", "--action", "copy"], "-o is for a listing"),
    ] {
      let result = try pb.run(["table", file] + arguments)
      assertStatus(result, 2)
      XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
    }
    XCTAssertEqual(read(file), "a\nb\n")
    let noTerminal = try pb.run(["table", file])
    assertStatus(noTerminal, 2)
    XCTAssertTrue(noTerminal.stderr.contains("no terminal"), noTerminal.stderr)
  }

  func testSections() throws {
    let file = try write("a1\na2\n\nb1\nb2\n")
    assertStatus(try pb.run(["table", file, "--sections", "blank", "--row", "2:2", "--action", "copy"]), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "b2")
    assertStatus(try pb.run(["table", file, "--sections", "blank", "--row", "3", "--action", "copy"]), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "b1", "N counts across sections; the blank line is not a row")
    let policy = try write("deny delete sections 1\n", "policy")
    assertStatus(try pb.run(["table", file, "--sections", "blank", "--policy", policy, "--row", "1:1", "--action", "delete"]), 3)
    assertStatus(try pb.run(["table", file, "--sections", "blank", "--policy", policy, "--row", "2:1", "--action", "delete"]), 0)
    XCTAssertEqual(read(file), "a1\na2\n\nb2\n")
    let headed = try write("intro\n[one]\nx\n[two]\ny\n", "headed")
    assertStatus(try pb.run(["table", headed, "--sections", "^\\[", "--row", "3:2", "--action", "copy"]), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "y", "a matching line is its section's first row")
  }

  func testFilesRoundTripByteForByte() throws {
    for (name, bytes) in [
      ("crlf", Array("one\r\ntwo\r\nthree\r\n".utf8)), ("bare", Array("one\ntwo\nthree".utf8)),
      ("binary", [0x61, 0x00, 0x62, 0x0A, 0xFF, 0xFE, 0x0A, 0x63, 0x0D, 0x64, 0x0A] as [UInt8]), ("crlf-bare", Array("one\r\ntwo\r\nthree".utf8)),
    ] {
      let file = pb.root + "/" + name
      try Data(bytes).write(to: URL(fileURLWithPath: file))
      // Cut the last row and paste it back after the new last row.
      assertStatus(try pb.run(["table", file, "--row", "3", "--action", "cut"]), 0, file: #filePath, line: #line)
      assertStatus(try pb.run(["table", file, "--row", "2", "--action", "paste"]), 0)
      XCTAssertEqual([UInt8](FileManager.default.contents(atPath: file) ?? Data()), bytes, "\(name) did not round-trip")
      // And a middle row.
      assertStatus(try pb.run(["table", file, "--row", "2", "--action", "cut"]), 0)
      assertStatus(try pb.run(["table", file, "--row", "1", "--action", "paste"]), 0)
      XCTAssertEqual([UInt8](FileManager.default.contents(atPath: file) ?? Data()), bytes, "\(name) did not round-trip (middle)")
    }
  }

  func testAListingIsWrittenToOutputOnlyWhenEdited() throws {
    let out = pb.root + "/out.txt"
    assertStatus(try pb.run(["table", "-o", out, "--row", "1", "--action", "copy"], input: Data("a\nb\n".utf8)), 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out), "no edit, no file")
    assertStatus(try pb.run(["table", "-o", out, "--row", "1", "--action", "delete"], input: Data("a\nb\n".utf8)), 0)
    XCTAssertEqual(read(out), "b\n")
  }

  func testActionsAndExplain() throws {
    let file = try write("# head\nbody\n")
    let policy = try write("# protect the header\ndeny cut,delete rows 1\n", "policy")
    XCTAssertEqual(try pb.run(["table", file, "--policy", policy, "--actions", "1"]).text, "copy\nselect\nselect-all\nshare\n")
    XCTAssertEqual(
      try pb.run(["table", file, "--policy", policy, "--actions", "2"]).text, "copy\ncut\ndelete\nselect\nselect-all\nshare\n",
      "no paste: the board holds no text")
    let explained = try pb.run(["table", file, "--policy", policy, "--deny", "share", "--explain", "1"]).text
    XCTAssertEqual(explained, """
      menu\tshown\tdefault
      copy\tallowed\tdefault
      cut\tdenied\t\(policy):2: deny cut,delete rows 1
      paste\tdenied\tthe board holds no text
      delete\tdenied\t\(policy):2: deny cut,delete rows 1
      select\tallowed\tdefault
      select-all\tallowed\tdefault
      share\tdenied\t--deny: --deny share

      """)
    let json = try pb.run(["table", file, "--policy", policy, "--explain", "1", "--json"])
    let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
    XCTAssertEqual(rows.count, 8)
    XCTAssertEqual(rows[2]["action"] as? String, "cut")
    XCTAssertEqual(rows[2]["allowed"] as? Bool, false)
    let actions = try pb.run(["table", file, "--actions", "2", "--json"])
    let list = try XCTUnwrap(try JSONSerialization.jsonObject(with: actions.stdout) as? [[String: String]])
    XCTAssertEqual(list.first, ["action": "copy", "title": "Copy", "shortcut": "c"])
  }

  func testShareHandsRowsToAnActivity() throws {
    let result = try pb.run(["table", "--row", "2", "--action", "share", "--activity", "reverse"], input: Data("a\nПривет 👍🏽\n".utf8))
    assertStatus(result, 0)
    XCTAssertEqual(result.text, "👍🏽 тевирП")
  }

  /// A file another program changed while pb had it open in the prompt is
  /// not overwritten.
  func testAFileChangedBehindPbsBackIsNotOverwritten() throws {
    let file = try write("one\ntwo\n")
    let pane = try Pane(pb, command: "pb table notes.txt")
    defer { pane.stop() }
    try pane.waitFor("q: quit): ")
    try pane.type("1\n")
    try pane.waitFor("Action (number or letter")
    try pane.type("d\n")
    try pane.waitFor("Deleted row 1")
    try Data("changed by someone else\n".utf8).write(to: URL(fileURLWithPath: file))
    try pane.type("q\n")
    try pane.waitFor("[exit 7]")
    XCTAssertTrue(try pane.capture().contains("changed on disk since pb read it; nothing was written"))
    XCTAssertEqual(read(file), "changed by someone else\n")
  }
}
