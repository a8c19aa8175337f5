import Foundation
import XCTest

/// Two machines share boards through one redis-server: what one copies
/// the other pastes byte for byte, in every representation, with counts
/// and history that agree.
final class RedisSharingTests: RedisTestCase {
  func testContentCrossesMachinesByteForByte() throws {
    let cases: [(String, [UInt8])] = [
      ("one byte", [0x41]), ("NULs", [0, 0, 1, 0]), ("invalid UTF-8", [0xC3, 0x28, 0xFF, 0xFE, 0x0A]),
      ("text", Array("héllo ✓\n".utf8)),
    ]
    for (name, bytes) in cases {
      assertStatus(try laptop.run(["copy"], input: Data(bytes)), 0)
      let pasted = try desktop.run(["paste"])
      assertStatus(pasted, 0)
      XCTAssertEqual([UInt8](pasted.stdout), bytes, name)
      XCTAssertEqual(try laptop.run(["count"]).text, try desktop.run(["count"]).text, name)
    }
    assertStatus(try laptop.run(["copy", "--allow-empty"]), 0)
    let empty = try desktop.run(["paste"])
    assertStatus(empty, 0)
    XCTAssertEqual(empty.stdout, Data())
    XCTAssertEqual(try desktop.run(["count"]).text, "\(cases.count + 1)\n", "one count per write, across machines")
  }

  func testSeveralRepresentationsAndHistory() throws {
    let html = file(Data("<b>hi</b>".utf8), in: laptop, named: "page.html")
    assertStatus(try laptop.run(["copy", "-t", "text/plain", "--also", "text/html=\(html)"], input: Data("hi".utf8)), 0)
    XCTAssertEqual(try desktop.run(["types"]).text, "text/plain\ntext/html\n")
    XCTAssertEqual(try desktop.run(["paste", "-t", "text/html"]).text, "<b>hi</b>")
    XCTAssertEqual(try desktop.run(["paste"]).text, "hi")
    assertStatus(try desktop.run(["copy"], input: Data("second".utf8)), 0)
    let history = try laptop.run(["history"])
    assertStatus(history, 0)
    let lines = history.text.split(separator: "\n")
    XCTAssertEqual(lines.count, 2, history.text)
    XCTAssertTrue(lines.first?.hasSuffix("second") == true, history.text)
    XCTAssertEqual(try laptop.run(["paste", "--history", "2", "-t", "text/html"]).text, "<b>hi</b>")
    XCTAssertEqual(try laptop.run(["paste", "--history", "1"]).text, "second")
    assertStatus(try desktop.run(["history", "--clear"]), 0)
    assertStatus(try laptop.run(["history"]), 1)
    XCTAssertEqual(try laptop.run(["paste"]).text, "second", "clearing history keeps the content")
  }

  /// History keeps the file backend's bounds: PB_HISTORY_SIZE entries.
  func testHistoryIsBounded() throws {
    var small = laptop!
    small.environment["PB_HISTORY_SIZE"] = "3"
    for i in 1...6 { assertStatus(try small.run(["copy"], input: Data("entry \(i)".utf8)), 0) }
    XCTAssertEqual(try small.run(["history"]).text.split(separator: "\n").count, 3)
    XCTAssertEqual(try small.run(["paste", "--history", "3"]).text, "entry 4")
    let items = try server.lasting("pb:item:")
    XCTAssertEqual(items.count, 3, "the dropped entries' items expire: \(items)")
  }

  func testAHundredMebibytesStreamWithBoundedMemory() throws {
    let time = try requireTool("time", package: "time")
    let big = laptop.root + "/big"
    assertStatus(try laptop.shell("head -c \(100 << 20) /dev/urandom > big"), 0)
    assertStatus(try laptop.shell("\(time) -f %M -o peak.copy pb copy < big"), 0)
    assertStatus(try desktop.shell("\(time) -f %M -o peak.paste pb paste > out && cmp out \(big) && rm out"), 0)
    assertStatus(try desktop.shell("\(time) -f %M -o peak.small pb count > /dev/null"), 0)
    let base = try peak(desktop.root + "/peak.small")
    let copyPeak = try peak(laptop.root + "/peak.copy")
    let pastePeak = try peak(desktop.root + "/peak.paste")
    // A few pieces of a quarter MiB above what pb needs for a count.
    XCTAssertLessThan(copyPeak - base, 8 << 20, "copy peak \(copyPeak >> 10) KiB, pb alone \(base >> 10) KiB")
    XCTAssertLessThan(pastePeak - base, 8 << 20, "paste peak \(pastePeak >> 10) KiB, pb alone \(base >> 10) KiB")
    XCTAssertEqual(try desktop.run(["boards"]).text.split(separator: "\t")[2], "\(100 << 20)")
  }

  func testWatchOnAnotherMachineSeesEachChange() throws {
    var watcher = desktop!
    watcher.environment["PB_BACKEND"] = "redis"
    let result = try watcher.shell("pb watch --once --timeout 10s > seen & sleep 0.5; echo -n shared | PB_DIR=$HOME/other pb copy; wait; cat seen")
    assertStatus(result, 0)
    XCTAssertEqual(result.text, "1\t6\ttext/plain;charset=utf-8\n")
  }

  func testWatchEndsWhenTheServerGoes() throws {
    let result = try desktop.shell("pb watch > seen 2> err & w=$!; sleep 0.5; kill -9 \(server.pid); wait $w; echo $?; cat err", limit: 20)
    let lines = result.text.split(separator: "\n")
    XCTAssertEqual(lines.first, "4", result.text)
    XCTAssertEqual(lines.count, 2, result.text)
    XCTAssertTrue(lines.last?.contains("127.0.0.1:\(server.port)") == true, result.text)
  }

  func testInfoNamesTheServerWithoutItsPassword() throws {
    var runner = laptop!
    runner.environment["PB_REDIS_URL"] = "redis://alice:hunter2@127.0.0.1:6390/2"
    runner.environment["PB_REDIS_PREFIX"] = "team:"
    let info = try runner.run(["info"])
    assertStatus(info, 0)
    XCTAssertTrue(info.text.contains("redis: redis://alice@127.0.0.1:6390/2\n"), info.text)
    XCTAssertTrue(info.text.contains("redis_prefix: team:\n"), info.text)
    XCTAssertTrue(info.text.contains("redis_key_file: (none"), info.text)
    XCTAssertFalse(info.text.contains("hunter2"))
    XCTAssertTrue(info.text.contains("backend: redis\n"), info.text)
  }

  func testAutoNeverPicksRedis() throws {
    var runner = laptop!
    runner.environment["PB_BACKEND"] = "auto"
    runner.environment["DISPLAY"] = nil
    XCTAssertTrue(try runner.run(["info"]).text.contains("backend: file\n"))
  }

  func testExpiryIsTheServersOwn() throws {
    assertStatus(try laptop.run(["copy", "--expire", "700ms"], input: Data("brief".utf8)), 0)
    XCTAssertEqual(try desktop.run(["paste"]).text, "brief")
    usleep(900_000)
    XCTAssertEqual(try desktop.run(["paste", "-q"]).status, 1)
    XCTAssertEqual(try server.keys("pb:item:"), [], "the item expired on the server with no pb running")
  }
}
