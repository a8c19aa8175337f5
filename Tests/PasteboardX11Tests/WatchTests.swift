import PasteboardKit
import XCTest

@testable import PasteboardX11

/// Watching X11 boards (`X11Backend.watchChanges`, XFixes): one report per
/// copy whoever copies, PRIMARY and CLIPBOARD apart, a secret reported
/// without its content, no CPU while idle, a dead server or a server
/// without XFixes reported as unavailable.
final class WatchTests: X11TestCase {
  private func soon() -> Int64 { WallClock.monotonicMilliseconds() + 10_000 }

  /// Waits for the next report: exactly one change, of `board`, holding
  /// `text`, with a count other than `previous` and the one a reader
  /// sees. Returns that count.
  @discardableResult
  private func expectChange(
    _ watch: BoardWatch, _ board: BoardName, _ text: String, after previous: UInt64, by who: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> UInt64 {
    let changes = try watch.next(deadline: soon())
    XCTAssertEqual(changes.map(\.board), [board], "one report for \(who)'s copy", file: file, line: line)
    guard let change = changes.first else { return previous }
    XCTAssertNotEqual(change.changeCount, previous, "\(who): the count moved", file: file, line: line)
    XCTAssertEqual(change.changeCount, try backend().changeCount(of: board), "\(who): the count a reader sees", file: file, line: line)
    XCTAssertFalse(change.sensitive, who, file: file, line: line)
    let bytes = try change.contents.items.first?.representation(for: MIMEType.utf8Text)?.payload.loadBytes()
    XCTAssertEqual(bytes.map { String(decoding: $0, as: UTF8.self) }, text, "\(who)'s content", file: file, line: line)
    return change.changeCount
  }

  /// Nothing more is reported (a duplicate report for one copy would be).
  private func expectQuiet(_ watch: BoardWatch, file: StaticString = #filePath, line: UInt = #line) throws {
    let extra = try watch.next(deadline: WallClock.monotonicMilliseconds() + 1500)
    XCTAssertEqual(extra.map(\.board), [], "no further report", file: file, line: line)
  }

  func testCopiesByXclipXselGTKAndPBAreEachReportedOnce() throws {
    let gtk = try sh("\(ToolkitPeer.command) gtk check")
    guard gtk.status == 0 else { return XCTFail("the watch tests need GTK 3: \(gtk.stderr)") }
    let watch = try backend().watchChanges(of: [.general])
    var count: UInt64 = 0
    try sh("printf 'from xclip' | xclip -i -selection clipboard")
    count = try expectChange(watch, .general, "from xclip", after: count, by: "xclip")
    try sh("printf 'from xsel' | xsel -bi")
    count = try expectChange(watch, .general, "from xsel", after: count, by: "xsel")
    try startPeer(command: "\(ToolkitPeer.command) gtk own \(Tools.file(Array("from GTK".utf8)))")
    count = try expectChange(watch, .general, "from GTK", after: count, by: "GTK 3")
    XCTAssertEqual(try sh("printf 'from pb' | $PB copy").status, 0)
    count = try expectChange(watch, .general, "from pb", after: count, by: "pb")
    try backend().write([.text("from the library")], to: [.general], options: .init())
    try expectChange(watch, .general, "from the library", after: count, by: "X11Backend.write")
    try expectQuiet(watch)
  }

  func testPrimaryAndClipboardAreReportedApart() throws {
    let watch = try backend().watchChanges(of: [.general, .primary])
    try sh("printf p1 | xclip -i -selection primary")
    let p = try expectChange(watch, .primary, "p1", after: 0, by: "xclip on PRIMARY")
    try sh("printf c1 | xclip -i -selection clipboard")
    let c = try expectChange(watch, .general, "c1", after: 0, by: "xclip on CLIPBOARD")
    try sh("printf p2 | $PB copy -b primary")
    try expectChange(watch, .primary, "p2", after: p, by: "pb on PRIMARY")
    try sh("printf c2 | $PB copy -b general")
    try expectChange(watch, .general, "c2", after: c, by: "pb on CLIPBOARD")
    try expectQuiet(watch)
  }

  /// A password manager's owner (x-kde-passwordManagerHint = secret) is
  /// reported sensitive, and the watch asks it for TARGETS only.
  func testSecretOwnerIsReportedSensitiveWithoutItsContent() throws {
    let watch = try backend().watchChanges(of: [.general])
    let peer = try startPeer("secret hunter2")
    let changes = try watch.next(deadline: soon())
    XCTAssertEqual(changes.map(\.board), [.general])
    XCTAssertEqual(changes.first?.sensitive, true, "the hint marks it sensitive")
    XCTAssertEqual(changes.first?.types, [MIMEType.utf8Text], "its types are reported")
    let requests = peer.output.split(separator: "\n").filter { $0.hasPrefix("request ") }
    XCTAssertEqual(requests, ["request TARGETS"], "the watch transferred nothing but TARGETS")
  }

  /// The watch waits in poll(2) on the X connection: 5 idle seconds cost
  /// (almost) no CPU time of the waiting thread.
  func testIdleWatchUsesNoCPU() throws {
    let watch = try backend().watchChanges(of: [.general, .primary])
    func cpu() -> Int64 {
      var ts = timespec()
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
      return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
    let start = (wall: WallClock.monotonicMilliseconds(), cpu: cpu())
    XCTAssertEqual(try watch.next(deadline: start.wall + 5000).count, 0)
    let wall = WallClock.monotonicMilliseconds() - start.wall
    let used = cpu() - start.cpu
    print("idle watch: \(used) µs of CPU in \(wall) ms")
    XCTAssertGreaterThanOrEqual(wall, 5000)
    XCTAssertLessThan(used, 20_000, "an idle watch must not poll")
  }

  func testDeadServerEndsTheWatch() throws {
    let watch = try backend().watchChanges(of: [.general])
    display.stop(signal: SIGKILL)
    let start = WallClock.monotonicMilliseconds()
    XCTAssertThrowsError(try watch.next(deadline: soon())) { error in
      guard case PasteboardError.unavailable = error else { return XCTFail("\(error)") }
    }
    XCTAssertLessThan(WallClock.monotonicMilliseconds() - start, 5000, "noticed at once")
  }

  func testServerWithoutXFixesCannotBeWatched() throws {
    let bare = try PrivateDisplay(arguments: ["-extension", "XFIXES"])
    defer { bare.stop() }
    XCTAssertThrowsError(try X11Backend(displayName: bare.name).watchChanges(of: [.general])) { error in
      guard case PasteboardError.unavailable(let message) = error else { return XCTFail("\(error)") }
      XCTAssertTrue(message.contains("XFixes"), message)
    }
  }
}
