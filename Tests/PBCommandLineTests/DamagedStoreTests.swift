import Foundation
import XCTest

/// A damaged or hostile store never crashes pb, hangs it, or makes it
/// delete what is not pb's: every damage is one `pb:` line naming the file
/// (exit 7), the rest of the store stays usable, and a copy or a clear
/// replaces a damaged board.
final class DamagedStoreTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws {
    pb = try PBRunner()
    assertStatus(try pb.run(["copy", "-b", "good"], input: Data("fine".utf8)), 0)
  }

  override func tearDown() { pb.cleanUp() }

  var boards: String { pb.store + "/boards" }

  /// Trailers a careless or hostile hand could leave, each with the name
  /// of its damage.
  static let hostileTrailers: [(String, [String])] = [
    ("negative-offset", ["count 1", "written 0", "rep 0 -5 10 text/plain"]),
    ("overflowing-length", ["count 1", "written 0", "rep 0 9223372036854775807 9223372036854775807 text/plain"]),
    ("past-the-end", ["count 1", "written 0", "rep 0 0 999999 text/plain"]),
    ("huge-item", ["count 1", "written 0", "rep 99999999999 0 0 text/plain"]),
    ("huge-count", ["count 99999999999999999999999", "written 0"]),
    ("signed-count", ["count -1", "written 0"]),
    ("no-count", ["written 0", "rep 0 0 0 text/plain"]),
    ("bad-type", ["count 1", "written 0", "rep 0 0 0 not a type"]),
    ("zero-pastes", ["count 1", "written 0", "pastes 0"]),
    ("many-reps", ["count 1", "written 0"] + Array(repeating: "rep 0 0 0 text/plain", count: 50_000)),
  ]

  func testHostileTrailersAreReportedNeverCrash() throws {
    for (name, lines) in Self.hostileTrailers {
      try BoardFiles.plant(at: boards + "/" + name, lines: lines, payload: Array("abc".utf8))
      for command in [["paste"], ["types"], ["count"]] {
        let result = try pb.run(command + ["-b", name], limit: 10)
        assertStatus(result, 7)
        XCTAssertTrue(result.stderr.contains(boards + "/" + name), "\(name) \(command): \(result.stderr)")
        XCTAssertTrue(result.stderr.contains("is damaged"), "\(name): \(result.stderr)")
      }
    }
    let listing = try pb.run(["boards"])
    XCTAssertEqual(listing.status, 7, listing.stderr)
    XCTAssertTrue(listing.text.contains("good\t1\t4\ttext/plain;charset=utf-8"), "the sound board is listed: \(listing.text)")
    for (name, _) in Self.hostileTrailers {
      XCTAssertTrue(listing.text.contains("\(name)\t-\t-\t(unreadable: "), "\(name) is marked: \(listing.text)")
    }
    XCTAssertEqual(try pb.run(["paste", "-b", "good"]).text, "fine")
  }

  func testReadingAHostileBoardStaysSmall() throws {
    try BoardFiles.plant(at: boards + "/huge-item", lines: Self.hostileTrailers[3].1)
    let result = try pb.shell("/usr/bin/time -f '%M' pb paste -b huge-item 2>&1 >/dev/null | tail -n 1")
    guard let peak = Int(result.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      return XCTFail("no peak memory from /usr/bin/time (apt-get install time): \(result.text) \(result.stderr)")
    }
    XCTAssertLessThan(peak, 32 * 1024, "peak \(peak) KiB for a 60-byte board file")
  }

  func testACopyOrAClearReplacesADamagedBoard() throws {
    // History remembers count 3, so the replacement does not lower it.
    for word in ["one", "two", "three"] { assertStatus(try pb.run(["copy", "-b", "work"], input: Data(word.utf8)), 0) }
    try BoardFiles.plant(at: boards + "/work", lines: ["count banana"])
    assertStatus(try pb.run(["paste", "-b", "work"]), 7)
    assertStatus(try pb.run(["copy", "-b", "work"], input: Data("fresh".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste", "-b", "work"]).text, "fresh")
    XCTAssertEqual(try pb.run(["count", "-b", "work"]).text, "4\n")
    try Data("not a board at all".utf8).write(to: URL(fileURLWithPath: boards + "/junk"))
    let guarded = try pb.run(["clear", "-b", "junk", "--if-count", "0"])
    assertStatus(guarded, 3)
    assertStatus(try pb.run(["clear", "-b", "junk"]), 0)
    assertStatus(try pb.run(["paste", "-b", "junk"]), 1)
  }

  /// A FIFO where a board or a history entry should be: opening it for
  /// reading would wait for a writer forever.
  func testAFIFOInTheStoreNeverHangs() throws {
    assertStatus(try pb.run(["copy"], input: Data("kept".utf8)), 0)
    XCTAssertEqual(mkfifo(boards + "/fifo", 0o600), 0)
    let history = try FileManager.default.contentsOfDirectory(atPath: pb.store + "/history/general")
    XCTAssertEqual(mkfifo(pb.store + "/history/general/00000000000000000099", 0o600), 0, "\(history)")
    for command in [["paste", "-b", "fifo"], ["count", "-b", "fifo"], ["types", "-b", "fifo"]] {
      let result = try pb.run(command, limit: 10)
      assertStatus(result, 7)
      XCTAssertTrue(result.stderr.contains("not a regular file"), result.stderr)
    }
    let listing = try pb.run(["boards"], limit: 10)
    XCTAssertEqual(listing.status, 7)
    XCTAssertTrue(listing.text.contains("general\t"), listing.text)
    let past = try pb.run(["history"], limit: 10)
    XCTAssertEqual(past.status, 7, "a listing with a damaged entry is not a success: \(past.stderr)")
    XCTAssertTrue(past.text.contains("(damaged: it is not a regular file)"), past.text)
    XCTAssertTrue(past.text.contains("kept"), "the sound entries are listed: \(past.text)")
    assertStatus(try pb.run(["copy", "-b", "fifo"], input: Data("now a board".utf8), limit: 10), 0)
    XCTAssertEqual(try pb.run(["paste", "-b", "fifo"]).text, "now a board")
  }

  func testALinkedOrForeignBoardIsNotFollowed() throws {
    let outside = pb.root + "/outside"
    try BoardFiles.plant(at: outside, lines: ["count 1", "written 0", "rep 0 0 6 text/plain"], payload: Array("leaked".utf8))
    try FileManager.default.createSymbolicLink(atPath: boards + "/linked", withDestinationPath: outside)
    let result = try pb.run(["paste", "-b", "linked"])
    assertStatus(result, 7)
    XCTAssertTrue(result.stderr.contains("symbolic link"), result.stderr)
    XCTAssertFalse(result.text.contains("leaked"))
    guard getuid() == 0 else { return XCTFail("the foreign-owner case needs root (CI runs as root)") }
    try BoardFiles.plant(at: boards + "/foreign", lines: ["count 1", "written 0"])
    XCTAssertEqual(chown(boards + "/foreign", PBRunner.nobody, PBRunner.nobody), 0)
    let foreign = try pb.run(["count", "-b", "foreign"])
    assertStatus(foreign, 7)
    XCTAssertTrue(foreign.stderr.contains("belongs to uid 65534"), foreign.stderr)
  }

  /// A link planted where a board's history folder goes: clearing the
  /// history removes the link, never the files it points to.
  func testHistoryClearNeverDeletesThroughALink() throws {
    let victim = pb.root + "/victim"
    try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
    for name in ["00000000000000000001", "notes.txt"] {
      try Data("precious".utf8).write(to: URL(fileURLWithPath: victim + "/" + name))
    }
    let folder = pb.store + "/history/planted"
    try FileManager.default.createSymbolicLink(atPath: folder, withDestinationPath: victim)
    let listing = try pb.run(["history", "-b", "planted"])
    assertStatus(listing, 7)
    XCTAssertTrue(listing.stderr.contains(folder), listing.stderr)
    assertStatus(try pb.run(["copy", "-b", "planted"], input: Data("new".utf8)), 0)
    assertStatus(try pb.run(["history", "--clear", "-b", "planted"]), 0)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: victim).sorted(), ["00000000000000000001", "notes.txt"])
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "the planted link is removed")
  }

  /// Liveness of a temporary file is its writer's lock, not a process id:
  /// a live writer in another PID namespace has an id that means nothing
  /// here, and a stale file may carry an id that is in use here.
  func testTemporaryFilesAreSweptByLockNotByProcessID() throws {
    let live = boards + "/.pb-tmp-99999999-1-1"
    let stale = boards + "/.pb-tmp-1-1-1"
    try Data("live writer's data".utf8).write(to: URL(fileURLWithPath: live))
    try Data("stale".utf8).write(to: URL(fileURLWithPath: stale))
    // A process holding the lock, as a writer in a container would.
    let holder = try pb.shell("flock -x '\(live)' sleep 30 >/dev/null 2>&1 & echo $!")
    let holderPID = Int32(holder.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    defer { kill(holderPID, SIGKILL) }
    XCTAssertTrue(eventually(5000) { (try? self.pb.shell("flock -n -x '\(live)' true").status) == 1 }, "the lock holder did not start")
    assertStatus(try pb.run(["copy", "-b", "sweeper"], input: Data("x".utf8)), 0)
    XCTAssertTrue(FileManager.default.fileExists(atPath: live), "a live writer's file was swept")
    XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "an unlocked file named after a live process (pid 1) was kept")
  }
}
