import PasteboardKit
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The library's system helpers: running a program in the foreground,
/// exit statuses, and the strict number parsers.
final class SystemTests: XCTestCase {
  func testExitStatusesFollowPbOne() {
    let cases: [(PasteboardError, Int32)] = [
      (.nothingThere("x"), 1), (.invalid("x"), 2), (.refused("x"), 3), (.unavailable("x"), 4),
      (.timedOut("x"), 5), (.typeNotOffered(requested: "a/b", offered: []), 6), (.failed("x"), 7),
    ]
    for (error, status) in cases {
      XCTAssertEqual(error.exitStatus, status, "\(error)")
      if status != 6 {
        XCTAssertEqual(PasteboardError(exitStatus: status, message: "x"), error, "round trip of \(status)")
      }
    }
    XCTAssertEqual(PasteboardError(exitStatus: 6, message: "m"), .failed("m"))
    XCTAssertEqual(PasteboardError(exitStatus: 99, message: "m"), .failed("m"))
  }

  func testWholeNumbersAndByteCounts() throws {
    XCTAssertEqual(try WholeNumber.parse("42", as: Int.self, for: "--n"), 42)
    XCTAssertEqual(try WholeNumber.parse("18446744073709551615", as: UInt64.self, for: "--n"), UInt64.max)
    for bad in ["", "+3", "-1", " 1", "1 ", "0x1", "1e3", "١"] {
      XCTAssertThrowsError(try WholeNumber.parse(bad, as: Int.self, for: "--n"), bad) { error in
        XCTAssertEqual(error as? PasteboardError, .invalid("--n needs a whole number, not '\(bad)'"))
      }
    }
    XCTAssertThrowsError(try WholeNumber.parse("18446744073709551616", as: UInt64.self, for: "--n")) { error in
      XCTAssertTrue("\(error)".contains("is too large"), "\(error)")
    }
    XCTAssertThrowsError(try WholeNumber.parse("0", as: Int.self, for: "--pastes", minimum: 1))
    XCTAssertEqual(try ByteCount.parse("4096", for: "X"), 4096)
    XCTAssertEqual(try ByteCount.parse("512K", for: "X"), 512 << 10)
    XCTAssertEqual(try ByteCount.parse("16M", for: "X"), 16 << 20)
    XCTAssertEqual(try ByteCount.parse("1GiB", for: "X"), 1 << 30)
    for bad in ["", "M", "1.5M", "-1", "1T", "+1"] { XCTAssertThrowsError(try ByteCount.parse(bad, for: "X"), bad) }
    XCTAssertThrowsError(try ByteCount.parse("99999999999G", for: "X")) { XCTAssertTrue("\($0)".contains("too large")) }
  }

  func testDurationsTooLargeSayTooLarge() {
    XCTAssertThrowsError(try DurationParser.milliseconds("99999999999h")) { error in
      XCTAssertEqual(error as? PasteboardError, .invalid("the duration '99999999999h' is too large"))
    }
    for bad in ["+3", ".5", "3.", "1,5s", "٣s"] {
      XCTAssertThrowsError(try DurationParser.milliseconds(bad), bad)
    }
  }

  /// gnulib-style: one fixed hostile string and its exact visible form.
  func testVisibleTextOfAHostileString() {
    let hostile = Array("a\u{1B}]52;c;eA==\u{07}\r\u{9B}b\u{202E}\u{2066}\u{200F}\t\n\u{7F}\u{0}".utf8) + [0xFF, 0xC3]
    XCTAssertEqual(
      VisibleText.escape(hostile),
      "a^[]52;c;eA==^G^M<U+009B>b<U+202E><U+2066><U+200F>^I^J^?^@<FF><C3>")
    XCTAssertEqual(VisibleText.escape("plain ✓ 日本 👍🏽 e\u{301}"), "plain ✓ 日本 👍🏽 e\u{301}", "printable text passes")
    XCTAssertEqual(VisibleText.escape([0xED, 0xA0, 0x80]), "<ED><A0><80>", "an encoded surrogate is not UTF-8")
    XCTAssertEqual(VisibleText.preview(Array("line one\r\nline\ttwo\rthree\n\n".utf8), limit: 60), "line one line two^Mthree")
    XCTAssertEqual(VisibleText.preview(Array("👍🏽👍🏽👍🏽".utf8), limit: 2), "👍🏽👍🏽", "cut between characters")
  }

  func testByteStringsKeepBytesThatAreNotUTF8() {
    let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".txt".utf8)
    let text = ByteString.decode(latin1)
    XCTAssertEqual(ByteString.bytes(text), latin1, "the bytes come back")
    XCTAssertTrue(ByteString.holdsRawBytes(text))
    XCTAssertEqual(VisibleText.escape(text), "caf<E9>.txt")
    let utf8 = Array("café ✓ 👍🏽".utf8)
    XCTAssertEqual(ByteString.decode(utf8), "café ✓ 👍🏽", "UTF-8 is decoded as UTF-8")
    XCTAssertEqual(ByteString.bytes(ByteString.decode(utf8)), utf8)
    XCTAssertFalse(ByteString.holdsRawBytes("café"))
    let mixed: [UInt8] = [0xC3, 0x28, 0xED, 0xA0, 0x80, 0xF4, 0x8F, 0xBF, 0xBF, 0xFF]
    XCTAssertEqual(ByteString.bytes(ByteString.decode(mixed)), mixed, "broken, surrogate and edge sequences round-trip")
    ByteString.withCString(text) { XCTAssertEqual(strlen($0), latin1.count) }
  }

  func testChildProcessRunsAnArgumentVectorAndReportsItsEnd() throws {
    let child = try ChildProcess(["/bin/sh", "-c", "exit 3"])
    XCTAssertEqual(try child.wait(until: nil), .exited(3))
    let killed = try ChildProcess(["/bin/sh", "-c", "kill -TERM $$"])
    XCTAssertEqual(try killed.wait(until: nil), .signaled(SIGTERM))
    // Arguments are never split or expanded by a shell.
    let out = try ChildProcess(["/bin/echo", "a  b", "$HOME", "*"], output: .pipe)
    XCTAssertEqual(try outputOf(out), "a  b $HOME *\n")
    XCTAssertThrowsError(try ChildProcess(["/no/such/program"])) { error in
      XCTAssertTrue("\(error)".contains("cannot run /no/such/program"), "\(error)")
    }
    XCTAssertThrowsError(try ChildProcess(["no-such-program-on-path"]))
  }

  func testChildProcessGetsItsInputOnAPipe() throws {
    let cat = try ChildProcess(["cat"], input: .pipe, output: .pipe)
    let text = Array(repeating: UInt8(ascii: "z"), count: 300_000)  // more than a pipe holds
    let deadline = WallClock.monotonicMilliseconds() + 10_000
    // cat's output pipe fills too, so its output is read on the way.
    var got: [UInt8] = []
    let reader = Thread { got = (try? cat.output?.readToEnd()) ?? [] }
    reader.start()
    XCTAssertTrue(try cat.send(text, until: deadline))
    XCTAssertEqual(try cat.wait(until: deadline), .exited(0))
    while got.count < text.count && WallClock.monotonicMilliseconds() < deadline { usleep(10_000) }
    XCTAssertEqual(got.count, text.count)
    // A program that does not read its input does not block the sender
    // forever: the deadline ends the wait.
    let deaf = try ChildProcess(["sleep", "30"], input: .pipe)
    let start = WallClock.monotonicMilliseconds()
    XCTAssertThrowsError(try deaf.send(text, until: start + 300)) { error in
      XCTAssertTrue("\(error)".contains("did not read its input"), "\(error)")
    }
    XCTAssertLessThan(WallClock.monotonicMilliseconds() - start, 2000)
    _ = try? deaf.wait(until: WallClock.monotonicMilliseconds(), graceMilliseconds: 100)
  }

  /// At the deadline the whole process group ends, grandchildren included.
  func testATimeoutEndsTheProcessGroup() throws {
    let marker = "/tmp/pb-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { unlink(marker) }
    let child = try ChildProcess(["/bin/sh", "-c", "sleep 30 & echo $! > \(marker); wait"])
    var grandchild: pid_t = 0
    let found = WallClock.monotonicMilliseconds() + 5000
    while WallClock.monotonicMilliseconds() < found {
      if let text = try? Descriptor.open(marker, O_RDONLY).readToEnd(), let pid = Int32(String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) {
        grandchild = pid
        break
      }
      usleep(10_000)
    }
    XCTAssertGreaterThan(grandchild, 0, "the grandchild did not start")
    let start = WallClock.monotonicMilliseconds()
    XCTAssertThrowsError(try child.wait(until: start + 300, graceMilliseconds: 300)) { error in
      XCTAssertEqual((error as? PasteboardError)?.exitStatus, 5, "\(error)")
    }
    XCTAssertLessThan(WallClock.monotonicMilliseconds() - start, 2000)
    let gone = WallClock.monotonicMilliseconds() + 2000
    while kill(grandchild, 0) == 0 && !isZombie(grandchild) && WallClock.monotonicMilliseconds() < gone { usleep(10_000) }
    XCTAssertTrue(kill(grandchild, 0) != 0 || isZombie(grandchild), "the grandchild survived the timeout")
  }

  private func outputOf(_ process: ChildProcess) throws -> String {
    let bytes = try process.output?.readToEnd() ?? []
    _ = try process.wait(until: WallClock.monotonicMilliseconds() + 5000)
    return String(decoding: bytes, as: UTF8.self)
  }

  private func isZombie(_ pid: pid_t) -> Bool {
    guard let text = try? Descriptor.open("/proc/\(pid)/stat", O_RDONLY).readToEnd() else { return true }
    let fields = String(decoding: text, as: UTF8.self).split(separator: ")").last?.split(separator: " ")
    return fields?.first == "Z"
  }
}
