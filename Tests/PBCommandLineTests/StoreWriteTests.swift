import Foundation
import XCTest

/// Writes that touch several boards, expiry, and the bounds of history on
/// the file backend.
final class StoreWriteTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws { pb = try PBRunner() }
  override func tearDown() { pb.cleanUp() }

  var boards: String { pb.store + "/boards" }

  /// A board that cannot be replaced (a directory in its place) fails the
  /// whole write before any board changes.
  func testWritingSeveralBoardsIsAllOrNothing() throws {
    assertStatus(try pb.run(["copy", "-b", "a"], input: Data("old a".utf8)), 0)
    try FileManager.default.createDirectory(atPath: boards + "/b", withIntermediateDirectories: true)
    let result = try pb.run(["copy", "-b", "a,b"], input: Data("new".utf8))
    assertStatus(result, 7)
    XCTAssertTrue(result.stderr.contains("no board changed"), result.stderr)
    XCTAssertEqual(try pb.run(["paste", "-b", "a"]).text, "old a", "board a changed although b could not be written")
    XCTAssertEqual(try pb.run(["count", "-b", "a"]).text, "1\n")
  }

  /// When a rename fails after others succeeded (here: an immutable board
  /// file), the message says exactly which boards changed.
  func testAFailureMidWayNamesTheBoardsThatChanged() throws {
    for name in ["a", "b", "c"] { assertStatus(try pb.run(["copy", "-b", name], input: Data("old".utf8)), 0) }
    let immutable = try pb.shell("chattr +i '\(boards)/b'")
    guard immutable.status == 0 else {
      return XCTFail("this case makes a board file immutable with chattr (as root, on ext4): \(immutable.stderr)")
    }
    defer { _ = try? pb.shell("chattr -i '\(boards)/b'") }
    let result = try pb.run(["copy", "-b", "a,b,c"], input: Data("new".utf8))
    assertStatus(result, 7)
    XCTAssertTrue(result.stderr.hasSuffix("changed: a; unchanged: b, c\n"), result.stderr)
    XCTAssertEqual(try pb.run(["paste", "-b", "a"]).text, "new")
    XCTAssertEqual(try pb.run(["paste", "-b", "c"]).text, "old")
  }

  func testClearIfCountOnSeveralBoardsIsAllOrNothing() throws {
    assertStatus(try pb.run(["copy", "-b", "a"], input: Data("a".utf8)), 0)
    assertStatus(try pb.run(["copy", "-b", "b"], input: Data("b1".utf8)), 0)
    assertStatus(try pb.run(["copy", "-b", "b"], input: Data("b2".utf8)), 0)
    let refused = try pb.run(["clear", "--if-count", "1", "-b", "a,b"])
    assertStatus(refused, 3)
    XCTAssertTrue(refused.stderr.contains("board 'b'") && refused.stderr.contains("nothing cleared"), refused.stderr)
    XCTAssertEqual(try pb.run(["paste", "-b", "a"]).text, "a", "a was cleared although b had moved on")
    assertStatus(try pb.run(["copy", "-b", "a"], input: Data("a2".utf8)), 0)
    assertStatus(try pb.run(["clear", "--if-count", "2", "-b", "a,b"]), 0)
    assertStatus(try pb.run(["paste", "-b", "a"]), 1)
    assertStatus(try pb.run(["paste", "-b", "b"]), 1)
  }

  /// The expiry sweeper processes of this test's store.
  func sweepers() throws -> Int {
    let result = try pb.shell("pgrep -f -c -- '__expire \(pb.store)$' || true")
    return Int(result.text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  func testOneSweeperPerStoreThatEndsWhenNothingIsLeft() throws {
    for i in 1...6 {
      assertStatus(try pb.run(["copy", "--expire", "1500ms", "-b", "b\(i)"], input: Data("\(i)".utf8)), 0)
    }
    XCTAssertEqual(try sweepers(), 1, "one sweeper for the store, not one per copy")
    // Replacing expiring content needs no sweeper for the old content.
    assertStatus(try pb.run(["copy", "-b", "b1"], input: Data("kept".utf8)), 0)
    XCTAssertTrue(eventually(6000) { (try? self.sweepers()) == 0 }, "the sweeper outlived the last expiry")
    for i in 2...6 { assertStatus(try pb.run(["paste", "-b", "b\(i)"]), 1) }
    XCTAssertEqual(try pb.run(["paste", "-b", "b1"]).text, "kept")
  }

  func testTheSweeperNeverRecreatesADeletedStore() throws {
    assertStatus(try pb.run(["copy", "--expire", "800ms"], input: Data("x".utf8)), 0)
    XCTAssertEqual(try sweepers(), 1)
    try FileManager.default.removeItem(atPath: pb.store)
    XCTAssertTrue(eventually(3000) { (try? self.sweepers()) == 0 }, "the sweeper kept running without a store")
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.store), "the sweeper brought the store back")
  }

  /// History keeps no content above the entry limit and no more than the
  /// total, oldest first out; a gigabyte copy costs no gigabyte of history.
  func testHistoryIsBoundedByBytes() throws {
    var limited = pb!
    limited.environment["PB_HISTORY_ENTRY_MAX"] = "1K"
    limited.environment["PB_HISTORY_TOTAL_MAX"] = "3K"
    let big = Data(repeating: UInt8(ascii: "x"), count: 2000)
    assertStatus(try limited.run(["copy"], input: big), 0)
    assertStatus(try limited.run(["history"]), 1)
    for i in 1...6 {
      assertStatus(try limited.run(["copy"], input: Data(String(repeating: "\(i)", count: 900).utf8)), 0)
    }
    let lines = try limited.run(["history"]).text.split(separator: "\n")
    XCTAssertEqual(lines.count, 3, "3 entries of ~0.9K fit in 3K: \(lines)")
    XCTAssertTrue(lines.first?.hasSuffix(String(repeating: "6", count: 60)) ?? false)
    let kept = try FileManager.default.contentsOfDirectory(atPath: pb.store + "/history/general")
    XCTAssertEqual(kept.count, 3)
    // The defaults: 16 MiB per entry.
    assertStatus(try pb.shell("head -c 17000000 /dev/zero | pb copy -b large"), 0)
    assertStatus(try pb.run(["history", "-b", "large"]), 1)
    assertStatus(try pb.shell("head -c 1000000 /dev/zero | pb copy -b large"), 0)
    XCTAssertEqual(try pb.run(["history", "-b", "large"]).text.split(separator: "\n").count, 1)
    for bad in ["abc", "-1", "1T", "99999999999999999999"] {
      var wrong = pb!
      wrong.environment["PB_HISTORY_TOTAL_MAX"] = bad
      let result = try wrong.run(["copy"], input: Data("x".utf8))
      assertStatus(result, 2)
      XCTAssertTrue(result.stderr.contains("PB_HISTORY_TOTAL_MAX"), result.stderr)
    }
  }
}
