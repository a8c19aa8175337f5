import Foundation
import XCTest

/// The store's privacy and the handling of secrets and expiry.
final class SafetyTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws { pb = try PBRunner() }
  override func tearDown() { pb.cleanUp() }

  func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
  }

  func testStoreModesAreOwnerOnly() throws {
    assertStatus(try pb.run(["copy"], input: Data("private".utf8)), 0)
    XCTAssertEqual(try mode(pb.store), 0o700)
    XCTAssertEqual(try mode(pb.store + "/boards"), 0o700)
    XCTAssertEqual(try mode(pb.store + "/boards/general"), 0o600)
    let history = try FileManager.default.contentsOfDirectory(atPath: pb.store + "/history/general")
    XCTAssertEqual(history.count, 1)
    XCTAssertEqual(try mode(pb.store + "/history/general/" + history[0]), 0o600)
  }

  func testStoreWritableByOthersIsRefused() throws {
    try FileManager.default.createDirectory(atPath: pb.store, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: pb.store)
    assertStatus(try pb.run(["copy"], input: Data("x".utf8)), 4)
    assertStatus(try pb.run(["paste"]), 4)
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.store + "/boards"))
  }

  func testStoreOwnedBySomeoneElseIsRefused() throws {
    try FileManager.default.createDirectory(atPath: pb.store, withIntermediateDirectories: true)
    try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: pb.store)
    if getuid() == 0 {
      // As root, give it to nobody (65534).
      XCTAssertEqual(chown(pb.store, 65534, 65534), 0)
      let result = try pb.run(["copy"], input: Data("x".utf8))
      assertStatus(result, 4)
      XCTAssertTrue(result.stderr.contains("owned by uid 65534"), result.stderr)
    } else {
      // Not root: a directory owned by root stands in for "someone else".
      var env = pb!
      env.environment["PB_DIR"] = "/"
      assertStatus(try env.run(["copy"], input: Data("x".utf8)), 4)
    }
  }

  func testSensitiveContentNeverReachesHistoryOrTheDisk() throws {
    let runtime = "/dev/shm/pb-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    var secret = pb!
    secret.environment["XDG_RUNTIME_DIR"] = runtime
    assertStatus(try secret.run(["copy"], input: Data("ordinary".utf8)), 0)
    assertStatus(try secret.run(["copy", "--sensitive"], input: Data("hunter2-secret".utf8)), 0)
    XCTAssertEqual(try secret.run(["paste"]).text, "hunter2-secret")
    let onDisk = try pb.shell("grep -rl hunter2-secret \"$PB_DIR\" || true")
    XCTAssertEqual(onDisk.text, "", "the secret must not be in the store on disk")
    let history = try secret.run(["history"]).text
    XCTAssertFalse(history.contains("hunter2"), history)
    XCTAssertTrue(history.contains("ordinary"), history)
    // Replacing it removes the copy in the runtime directory.
    assertStatus(try secret.run(["copy"], input: Data("next".utf8)), 0)
    let left = try pb.shell("grep -rl hunter2-secret '\(runtime)' || true")
    XCTAssertEqual(left.text, "", "no copy of the secret may remain after replacement")
    // Clear removes it too.
    assertStatus(try secret.run(["copy", "--sensitive"], input: Data("hunter3-secret".utf8)), 0)
    assertStatus(try secret.run(["clear"]), 0)
    XCTAssertEqual(try pb.shell("grep -rl hunter3-secret '\(runtime)' \"$PB_DIR\" || true").text, "")
  }

  func testSensitiveIsRefusedWithoutATmpfs() throws {
    var env = pb!
    env.environment["XDG_RUNTIME_DIR"] = nil
    assertStatus(try env.run(["copy", "--sensitive"], input: Data("s".utf8)), 4)
    env.environment["XDG_RUNTIME_DIR"] = pb.root  // on the disk, not a tmpfs
    let result = try env.run(["copy", "--sensitive"], input: Data("s".utf8))
    assertStatus(result, 4)
    XCTAssertTrue(result.stderr.contains("not a tmpfs"), result.stderr)
  }

  func testExpireClearsOnlyIfTheBoardStillHoldsTheContent() throws {
    assertStatus(try pb.run(["copy", "--expire", "300ms"], input: Data("short-lived".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "short-lived")
    // The background sweeper clears it: the count moves on.
    XCTAssertTrue(eventually(5000) { (try? self.pb.run(["count"]).text) == "2\n" }, "the sweeper did not clear the board")
    assertStatus(try pb.run(["paste"]), 1)

    assertStatus(try pb.run(["copy", "--expire", "300ms", "-b", "second"], input: Data("old".utf8)), 0)
    assertStatus(try pb.run(["copy", "-b", "second"], input: Data("new".utf8)), 0)
    // Once the sweeper has nothing left to expire it exits; by then the
    // old expiry has passed.
    XCTAssertTrue(
      eventually(5000) { (try? self.pb.shell("pgrep -f -- '__expire \(self.pb.store)$'").status) == 1 },
      "the sweeper did not finish")
    XCTAssertEqual(try pb.run(["paste", "-b", "second"]).text, "new", "a newer copy is not expired")
    XCTAssertEqual(try pb.run(["count", "-b", "second"]).text, "2\n")
  }

  func testPasteOnceServesOnePaste() throws {
    assertStatus(try pb.run(["copy", "--paste-once"], input: Data("once".utf8)), 0)
    XCTAssertEqual(try pb.run(["types"]).text, "text/plain;charset=utf-8\n", "types does not count as a paste")
    XCTAssertEqual(try pb.run(["paste"]).text, "once")
    assertStatus(try pb.run(["paste"]), 1)
    assertStatus(try pb.run(["copy", "--pastes", "2"], input: Data("twice".utf8)), 0)
    // Pastes that cannot succeed do not count.
    assertStatus(try pb.run(["paste", "-t", "image/png"]), 6)
    assertStatus(try pb.run(["paste", "-o", pb.root + "/missing/dir/x"]), 7)
    XCTAssertEqual(try pb.run(["paste"]).text, "twice")
    XCTAssertEqual(try pb.run(["paste"]).text, "twice")
    assertStatus(try pb.run(["paste"]), 1)
  }

  func testClearIfCount() throws {
    assertStatus(try pb.run(["copy"], input: Data("a".utf8)), 0)
    assertStatus(try pb.run(["clear", "--if-count", "5"]), 3)
    XCTAssertEqual(try pb.run(["paste"]).text, "a")
    assertStatus(try pb.run(["clear", "--if-count", "1"]), 0)
    assertStatus(try pb.run(["paste"]), 1)
    XCTAssertEqual(try pb.run(["count"]).text, "2\n")
  }

  func testHistoryListsNewestFirstAndPastesEntries() throws {
    for word in ["first", "second", "third"] {
      assertStatus(try pb.run(["copy"], input: Data(word.utf8)), 0)
    }
    let lines = try pb.run(["history"]).text.split(separator: "\n")
    XCTAssertEqual(lines.count, 3)
    XCTAssertTrue(lines[0].hasPrefix("1\t3\t") && lines[0].hasSuffix("third"), String(lines[0]))
    XCTAssertTrue(lines[2].hasSuffix("first"))
    XCTAssertEqual(try pb.run(["paste", "--history", "1"]).text, "third", "entry 1 is the current content")
    XCTAssertEqual(try pb.run(["paste", "--history", "3"]).text, "first")
    assertStatus(try pb.run(["paste", "--history", "4"]), 1)
    var limited = pb!
    limited.environment["PB_HISTORY_SIZE"] = "2"
    assertStatus(try limited.run(["copy"], input: Data("fourth".utf8)), 0)
    XCTAssertEqual(try pb.run(["history"]).text.split(separator: "\n").count, 2)
  }

  func testHistoryClearAndItsSize() throws {
    for word in ["first", "second"] { assertStatus(try pb.run(["copy"], input: Data(word.utf8)), 0) }
    assertStatus(try pb.run(["history", "--clear"]), 0)
    assertStatus(try pb.run(["history"]), 1)
    XCTAssertEqual(try pb.run(["paste"]).text, "second", "clearing history leaves the board")
    var none = pb!
    none.environment["PB_HISTORY_SIZE"] = "0"
    assertStatus(try none.run(["copy"], input: Data("unkept".utf8)), 0)
    assertStatus(try none.run(["history"]), 1)
    XCTAssertEqual(try none.run(["info"]).text.split(separator: "\n").first { $0.hasPrefix("history_size") }, "history_size: 0")
    for bad in ["abc", "-1", "+3", "1.5", "99999999999999999999"] {
      var wrong = pb!
      wrong.environment["PB_HISTORY_SIZE"] = bad
      for command in [["copy"], ["info"], ["history"]] {
        let result = try wrong.run(command, input: Data("x".utf8))
        assertStatus(result, 2)
        XCTAssertTrue(result.stderr.contains("PB_HISTORY_SIZE"), "\(bad) \(command): \(result.stderr)")
      }
    }
  }

  func testExpiringAndLimitedContentIsNeverKept() throws {
    assertStatus(try pb.run(["copy"], input: Data("kept".utf8)), 0)
    assertStatus(try pb.run(["copy", "--expire", "1h"], input: Data("expiring".utf8)), 0)
    assertStatus(try pb.run(["copy", "--pastes", "3"], input: Data("limited".utf8)), 0)
    assertStatus(try pb.run(["copy", "--paste-once"], input: Data("once".utf8)), 0)
    let listing = try pb.run(["history"]).text
    XCTAssertEqual(listing.split(separator: "\n").count, 1, listing)
    XCTAssertTrue(listing.hasSuffix("kept\n"), listing)
    XCTAssertEqual(try pb.run(["paste", "--history", "1"]).text, "kept")
  }
}
