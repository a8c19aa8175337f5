import Foundation
import XCTest

/// `pb paste -o FILE`: atomic, with the owner and mode rules of a shell
/// redirection, and never using up a limited paste it cannot deliver.
final class OutputFileTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws {
    pb = try PBRunner()
    assertStatus(try pb.run(["copy"], input: Data("pasted".utf8)), 0)
  }

  override func tearDown() { pb.cleanUp() }

  func path(_ name: String) -> String { pb.root + "/" + name }

  func status(_ name: String) -> stat {
    var st = stat()
    lstat(path(name), &st)
    return st
  }

  func contents(_ name: String) -> String {
    (try? String(contentsOfFile: path(name), encoding: .utf8)) ?? "(unreadable)"
  }

  func testModeIsKeptAndSetIDBitsAreDropped() throws {
    try Data("old".utf8).write(to: URL(fileURLWithPath: path("script")))
    chmod(path("script"), 0o6750)
    assertStatus(try pb.run(["paste", "-o", path("script")]), 0)
    XCTAssertEqual(contents("script"), "pasted")
    XCTAssertEqual(status("script").st_mode & 0o7777, 0o750, "set-user-ID and set-group-ID must not be carried over")
    try Data("old".utf8).write(to: URL(fileURLWithPath: path("private")))
    chmod(path("private"), 0o600)
    assertStatus(try pb.run(["paste", "-o", path("private")]), 0)
    XCTAssertEqual(status("private").st_mode & 0o7777, 0o600)
    assertStatus(try pb.shell("umask 027; pb paste -o new-file"), 0)
    XCTAssertEqual(status("new-file").st_mode & 0o777, 0o640, "a new file gets 0666 less the umask")
  }

  func testHardLinksKeepTheOldContent() throws {
    try Data("old".utf8).write(to: URL(fileURLWithPath: path("name")))
    XCTAssertEqual(link(path("name"), path("other-name")), 0)
    assertStatus(try pb.run(["paste", "-o", path("name")]), 0)
    XCTAssertEqual(contents("name"), "pasted")
    XCTAssertEqual(contents("other-name"), "old", "the other link is left alone (documented in pb-paste(1))")
  }

  /// Root may replace another user's file; the new file keeps that owner
  /// and group, as writing through `>` would.
  func testAnotherUsersFileKeepsItsOwner() throws {
    guard getuid() == 0 else { return XCTFail("this case needs root to make a file of another user (CI runs as root)") }
    try Data("theirs".utf8).write(to: URL(fileURLWithPath: path("theirs")))
    XCTAssertEqual(chown(path("theirs"), PBRunner.nobody, PBRunner.nobody), 0)
    chmod(path("theirs"), 0o640)
    assertStatus(try pb.run(["paste", "-o", path("theirs")]), 0)
    XCTAssertEqual(contents("theirs"), "pasted")
    XCTAssertEqual(status("theirs").st_uid, PBRunner.nobody)
    XCTAssertEqual(status("theirs").st_gid, PBRunner.nobody)
    XCTAssertEqual(status("theirs").st_mode & 0o7777, 0o640)
  }

  /// As an ordinary user: a read-only file is refused as `>` refuses it,
  /// and another user's file that you may write is refused rather than
  /// made yours.
  func testWhatARedirectionWouldRefuseIsRefused() throws {
    let user = try pb.unprivileged()
    assertStatus(try user.run(["copy"], input: Data("mine".utf8)), 0)
    let dir = pb.root + "/nobody"
    try Data("read only".utf8).write(to: URL(fileURLWithPath: dir + "/ro"))
    chown(dir + "/ro", PBRunner.nobody, PBRunner.nobody)
    chmod(dir + "/ro", 0o444)
    let refused = try user.run(["paste", "-o", dir + "/ro"])
    assertStatus(refused, 7)
    XCTAssertTrue(refused.stderr.contains("Permission denied"), refused.stderr)
    XCTAssertEqual(try String(contentsOfFile: dir + "/ro", encoding: .utf8), "read only")
    try Data("root's".utf8).write(to: URL(fileURLWithPath: dir + "/shared"))
    chmod(dir + "/shared", 0o666)
    let foreign = try user.run(["paste", "-o", dir + "/shared"])
    assertStatus(foreign, 7)
    XCTAssertTrue(foreign.stderr.contains("pb paste > "), foreign.stderr)
    XCTAssertEqual(try String(contentsOfFile: dir + "/shared", encoding: .utf8), "root's")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix(".pb-tmp") }
    XCTAssertEqual(leftovers, [])
  }

  func testADanglingLinkIsWrittenThrough() throws {
    try FileManager.default.createSymbolicLink(atPath: path("link"), withDestinationPath: "target-to-be")
    assertStatus(try pb.run(["paste", "-o", path("link")]), 0)
    XCTAssertEqual(status("link").st_mode & S_IFMT, S_IFLNK, "the link stays a link")
    XCTAssertEqual(contents("target-to-be"), "pasted")
    try FileManager.default.createSymbolicLink(atPath: path("to-nowhere"), withDestinationPath: "missing-dir/file")
    assertStatus(try pb.run(["paste", "-o", path("to-nowhere")]), 7)
    XCTAssertEqual(status("to-nowhere").st_mode & S_IFMT, S_IFLNK)
  }

  /// Every check that can fail is made before a limited paste is counted.
  func testALimitedPasteIsNotUsedUpByAFailure() throws {
    assertStatus(try pb.run(["copy", "--paste-once"], input: Data(repeating: UInt8(ascii: "y"), count: 300_000)), 0)
    let empty = try pb.run(["paste", "-o", ""])
    assertStatus(empty, 2)
    let limited = try pb.shell("ulimit -f 100; pb paste -o out.txt")
    XCTAssertEqual(limited.status, 7, limited.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.txt")))
    let closed = try pb.shell("pb paste >&-")
    XCTAssertEqual(closed.status, 7, closed.stderr)
    let readOnly = try pb.shell("pb paste 1< /dev/null")
    XCTAssertEqual(readOnly.status, 7, readOnly.stderr)
    let pasted = try pb.run(["paste"])
    assertStatus(pasted, 0)
    XCTAssertEqual(pasted.stdout.count, 300_000, "the one paste must still be there after the failures")
    assertStatus(try pb.run(["paste"]), 1)
  }
}
