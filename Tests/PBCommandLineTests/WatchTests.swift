import Foundation
import PasteboardKit
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `pb watch` on the file backend, with real processes: the watch in one,
/// `pb copy` in others.
final class WatchTests: XCTestCase {
  var pb: PBRunner!
  var watcher: ChildProcess?

  override func setUpWithError() throws {
    pb = try PBRunner()
    try pb.useRuntimeDirectory()
  }

  override func tearDown() {
    if let watcher { _ = try? watcher.wait(until: WallClock.monotonicMilliseconds()) }
    pb.cleanUp()
  }

  var out: String { pb.root + "/watch.out" }
  var err: String { pb.root + "/watch.err" }
  func output() -> Data { FileManager.default.contents(atPath: out) ?? Data() }
  func errors() -> String { String(decoding: FileManager.default.contents(atPath: err) ?? Data(), as: UTF8.self) }

  /// Starts `pb watch ARGUMENTS` in the background, its output and error
  /// in files, and waits until it watches (its inotify watch is set up
  /// before it reads the counts, so a copy after this is seen).
  func startWatch(_ arguments: [String]) throws {
    FileManager.default.createFile(atPath: out, contents: nil)
    FileManager.default.createFile(atPath: err, contents: nil)
    watcher = try ChildProcess(
      [PBRunner.executable, "watch"] + arguments, environment: pb.environment.map { "\($0.key)=\($0.value)" },
      directory: pb.root, output: .descriptor(try Descriptor.open(out, O_WRONLY)),
      error: .descriptor(try Descriptor.open(err, O_WRONLY)))
    let pid = watcher!.pid
    waitUntil("pb watch to watch the store") {
      // It holds an inotify descriptor once it watches.
      ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).contains { fd in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)")) == "anon_inode:inotify"
      }
    }
  }

  func copy(_ text: String, _ extra: [String] = []) throws {
    assertStatus(try pb.run(["copy"] + extra, input: Data(text.utf8)), 0)
  }

  func lines() -> [String] { String(decoding: output(), as: UTF8.self).split(separator: "\n").map(String.init) }

  func testOneLinePerChangeWithCountsRising() throws {
    try copy("before")  // not reported: it happened before the watch
    try startWatch([])
    try copy("héllo\n")
    waitUntil("the first report") { lines().count == 1 }
    assertStatus(try pb.run(["copy", "-t", "image/png"], input: Data([0x89, 0x50, 0x4E, 0x47])), 0)
    waitUntil("the second report") { lines().count == 2 }
    assertStatus(try pb.run(["clear"]), 0)
    waitUntil("the third report") { lines().count == 3 }
    XCTAssertEqual(lines(), ["2\t7\ttext/plain;charset=utf-8", "3\t4\timage/png", "4\t0\t"])
  }

  func testSeveralBoardsAreNamedAndJSONCarriesEverything() throws {
    try startWatch(["-b", "general,work", "--json"])
    try copy("a")
    waitUntil("a report") { lines().count == 1 }
    try copy("secret", ["-b", "work", "--sensitive"])
    waitUntil("two reports") { lines().count == 2 }
    let objects = try lines().map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    XCTAssertEqual(objects[0]["board"] as? String, "general")
    XCTAssertEqual(objects[0]["count"] as? Int, 1)
    XCTAssertEqual(objects[0]["types"] as? [String], ["text/plain;charset=utf-8"])
    XCTAssertEqual(objects[0]["size"] as? Int, 1)
    XCTAssertEqual(objects[0]["sensitive"] as? Bool, false)
    let time = try XCTUnwrap(objects[0]["time"] as? Int)
    XCTAssertLessThan(abs(Double(time) / 1000 - Date().timeIntervalSince1970), 60)
    XCTAssertEqual(objects[1]["board"] as? String, "work")
    XCTAssertEqual(objects[1]["sensitive"] as? Bool, true)
  }

  func testPrint0GivesTheContentByteForByte() throws {
    try startWatch(["--print0"])
    let first = Data([0x61, 0x00, 0x62, 0xFF, 0x0A])
    assertStatus(try pb.run(["copy"], input: first), 0)
    waitUntil("the first record") { output().count == first.count + 1 }
    try copy("", ["--allow-empty"])
    waitUntil("the second record") { output().count == first.count + 2 }
    try copy("hidden", ["--sensitive"])
    try copy("shown")
    waitUntil("the last record") { output().count == first.count + 2 + 6 }
    XCTAssertEqual(output(), first + Data([0]) + Data([0]) + Data("shown".utf8) + Data([0]), "a secret is not printed")
  }

  func testABurstCoalescesAndNeverLosesTheLastChange() throws {
    try startWatch(["--json"])
    let burst = try pb.shell("for i in $(seq 1 200); do printf 'copy %s' $i | pb copy; done")
    assertStatus(burst, 0)
    waitUntil("the report of the last copy", timeout: 20) { lines().last?.contains("\"count\":200") == true }
    let counts = try lines().map { line -> Int in
      try XCTUnwrap((try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["count"] as? Int)
    }
    XCTAssertEqual(counts, counts.sorted(), "counts only rise")
    XCTAssertEqual(Set(counts).count, counts.count, "no change is reported twice")
    XCTAssertLessThanOrEqual(counts.count, 200)
    XCTAssertEqual(counts.last, 200)
  }

  func testOnceAndTimeout() throws {
    let idle = try pb.run(["watch", "--timeout", "300ms"])
    assertStatus(idle, 5)
    XCTAssertEqual(idle.stderr, "pb: no change of board 'general' within 300 ms\n")
    try startWatch(["--once"])
    try copy("first")
    let ended = waitUntil("pb watch --once to exit") { watcher!.exit(before: WallClock.monotonicMilliseconds()) != nil }
    if ended { XCTAssertEqual(watcher!.exit(before: nil), .exited(0)) }
    XCTAssertEqual(lines(), ["1\t5\ttext/plain;charset=utf-8"])
    // Changes within the timeout: exit 0 when it runs out.
    try startWatch(["--timeout", "1s"])
    try copy("second")
    XCTAssertEqual(watcher!.exit(before: WallClock.monotonicMilliseconds() + 10_000), .exited(0))
    XCTAssertEqual(lines(), ["2\t6\ttext/plain;charset=utf-8"])
  }

  func testACommandRunsPerChangeWithTheContentAndTheChange() throws {
    let script = #"printf '%s|%s|%s|%s|%s|' "$PB_BOARD" "$PB_COUNT" "$PB_TYPE" "$PB_TYPES" "$PB_SENSITIVE"; cat; echo; [ "$PB_COUNT" != 2 ]"#
    try startWatch(["--", "/bin/sh", "-c", script])
    try copy("one\ttab")
    waitUntil("the first run") { lines().count == 1 }
    try copy("two")
    waitUntil("the second run, which fails") { errors().contains("failed") }
    try copy("s3cret", ["--sensitive"])
    waitUntil("the third run") { lines().count == 3 }
    XCTAssertEqual(
      lines(),
      [
        "general|1|text/plain;charset=utf-8|text/plain;charset=utf-8|0|one\ttab", "general|2|text/plain;charset=utf-8|text/plain;charset=utf-8|0|two",
        "general|3|text/plain;charset=utf-8|text/plain;charset=utf-8|1|",
      ], "a secret's content is not handed on")
    XCTAssertEqual(errors(), "pb: '/bin/sh' for change 2 of board 'general' failed (exit status 1)\n", "a failure is reported, and the watch goes on")
  }

  func testAHangingCommandIsEndedWithItsGroup() throws {
    let pids = pb.root + "/pids"
    try startWatch(["--exec-timeout", "500ms", "--", "/bin/sh", "-c", "/bin/sleep 100 & echo $! >> \(pids); wait"])
    try copy("x")
    waitUntil("the command to be ended", timeout: 15) { errors().contains("did not finish in time") }
    let sleeper = try XCTUnwrap(Int32(String(decoding: FileManager.default.contents(atPath: pids) ?? Data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    waitUntil("the command's child to be gone too") { kill(sleeper, 0) != 0 }
    // The watch goes on.
    try copy("y")
    waitUntil("the next run") { String(decoding: FileManager.default.contents(atPath: pids) ?? Data(), as: UTF8.self).split(separator: "\n").count == 2 }
  }

  func testIncludeSensitiveHandsSecretsOn() throws {
    try startWatch(["--print0", "--include-sensitive"])
    try copy("s3cret", ["--sensitive"])
    waitUntil("the record") { output() == Data("s3cret".utf8) + Data([0]) }
  }

  func testAnIdleWatchUsesNoCPU() throws {
    try startWatch([])
    let pid = watcher!.pid
    func cpuTicks() throws -> Int {
      let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
      let fields = stat[stat.range(of: ") ")!.upperBound...].split(separator: " ")
      return Int(fields[11])! + Int(fields[12])!  // utime + stime
    }
    let before = try cpuTicks()
    Thread.sleep(forTimeInterval: 5)
    let after = try cpuTicks()
    XCTAssertLessThanOrEqual(after - before, 1, "at most one clock tick (10 ms) in 5 idle seconds")
  }

  func testTheStoreRemovedWhileWatchedEndsTheWatch() throws {
    try copy("x")
    try startWatch([])
    try FileManager.default.removeItem(atPath: pb.store)
    XCTAssertEqual(watcher!.exit(before: WallClock.monotonicMilliseconds() + 10_000), .exited(4))
    XCTAssertTrue(errors().contains("was removed while pb watched it"), errors())
  }

  func testUsageErrors() throws {
    assertStatus(try pb.run(["watch", "echo"]), 2)
    assertStatus(try pb.run(["watch", "--"]), 2)
    assertStatus(try pb.run(["watch", "--json", "--print0"]), 2)
    assertStatus(try pb.run(["watch", "--print0", "--", "cat"]), 2)
    assertStatus(try pb.run(["watch", "--keep"]), 2)
    assertStatus(try pb.run(["watch", "--keep-max", "1M"]), 2)
    assertStatus(try pb.run(["watch", "--manage"]), 2)
    assertStatus(try pb.run(["watch", "--timeout", "soon"]), 2)
    assertStatus(try pb.run(["watch", "--exec-timeout", "-1"]), 2)
  }
}
