import PasteboardKit
import XCTest

@testable import PasteboardX11

/// Parts of the backend that need no X server.
final class X11UnitTests: XCTestCase {
  func testDisplayNames() {
    XCTAssertEqual(DisplayAddress(":0")?.transport, .local)
    XCTAssertEqual(DisplayAddress(":12.1")?.number, 12)
    XCTAssertEqual(DisplayAddress("unix:3")?.transport, .local)
    XCTAssertEqual(DisplayAddress("localhost:10.0")?.transport, .tcp(host: "localhost"))
    XCTAssertEqual(DisplayAddress("localhost:10.0")?.number, 10)
    XCTAssertEqual(DisplayAddress("tcp/host:2")?.transport, .tcp(host: "host"))
    XCTAssertEqual(DisplayAddress("unix/:7")?.transport, .local)
    XCTAssertEqual(DisplayAddress(":7")?.socketPath, "/tmp/.X11-unix/X7")
    XCTAssertNil(DisplayAddress("nonsense"))
    XCTAssertNil(DisplayAddress(":x"))
    XCTAssertNil(DisplayAddress("host::0"))
  }

  func testProbeOfANonexistentDisplayFailsFast() {
    let start = WallClock.monotonicMilliseconds()
    let reason = DisplayProbe.check(DisplayAddress(":59998")!, milliseconds: 1000)
    XCTAssertNotNil(reason)
    XCTAssertLessThan(WallClock.monotonicMilliseconds() - start, 500)
  }

  /// X gives a gone client's window ids to the next client, so a
  /// BadWindow that answers a request made before a transfer began (the
  /// event mask cleared on the last requestor's window) must not end a
  /// transfer to the new window of the same id; one from the transfer's
  /// own requests does.
  func testOnlyATransfersOwnErrorsEndIt() {
    let bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    let t = IncrTransfer(
      key: .init(window: 0x200001, property: 7), type: 31, bytes: bytes, chunkSize: 4096, deadline: 0, isPaste: false,
      firstSerial: 100)
    XCTAssertFalse(t.isEnded(by: XErrorRecord(serial: 99, code: 3, request: 2, resource: 0x200001)), "an earlier window's error")
    XCTAssertTrue(t.isEnded(by: XErrorRecord(serial: 100, code: 3, request: 18, resource: 0x200001)), "its own first request")
    XCTAssertTrue(t.isEnded(by: XErrorRecord(serial: 140, code: 3, request: 18, resource: 0x200001)), "a later chunk")
    XCTAssertFalse(t.isEnded(by: XErrorRecord(serial: 140, code: 3, request: 18, resource: 0x400001)), "another window")
  }

  func testLatin1Conversions() {
    let utf8 = Array("héllo ✓ 日本 ÿ".utf8)
    let latin1 = utf8.withUnsafeBytes { Latin1.fromUTF8($0) }
    XCTAssertEqual(latin1, [0x68, 0xE9, 0x6C, 0x6C, 0x6F, 0x20, 0x3F, 0x20, 0x3F, 0x3F, 0x20, 0xFF])
    var back: [UInt8] = []
    try? [UInt8]([0x63, 0x61, 0x66, 0xE9]).withUnsafeBytes { try Latin1.withUTF8($0) { back += $0 } }
    XCTAssertEqual(String(decoding: back, as: UTF8.self), "café")
    // Malformed UTF-8 becomes '?', never a crash.
    XCTAssertEqual([UInt8]([0xC3, 0x41, 0xFF]).withUnsafeBytes { Latin1.fromUTF8($0) }, [0x3F, 0x41, 0x3F])
  }

  func testServeRequestRoundTrip() {
    let r = ServeRequest(
      selections: ["CLIPBOARD", "PRIMARY"],
      slices: [.init(type: "text/plain;charset=utf-8", offset: 0, length: 5), .init(type: "image/png", offset: 5, length: 9)],
      options: WriteOptions(sensitive: true, expiresAt: 123, pasteLimit: 2), displayName: ":4")
    XCTAssertEqual(r.arguments.first, "__x11-serve")
    XCTAssertEqual(ServeRequest(arguments: r.arguments.dropFirst()), r)
    XCTAssertNil(ServeRequest(arguments: ["--slice", "x"]))
    XCTAssertNil(ServeRequest(arguments: []))
  }

  func testOwnerStatusCodes() {
    XCTAssertNil(OwnerStatus.decode("ok"))
    let e = PasteboardError.unavailable("cannot open display :3")
    XCTAssertEqual(OwnerStatus.decode(String(OwnerStatus.encode(e).dropLast())), e)
  }

  /// pb's requestor gets 1 MiB chunks, every other at most 256 KiB (Tk
  /// reads at most about 400,000 bytes from one property), and neither
  /// more than the server takes.
  func testChunkSizeFollowsTheRequestorAndTheServer() {
    var s = X11Settings()
    XCTAssertEqual(s.chunkSize(maxRequestBytes: 16_777_212, forPB: true), 1 << 20)
    XCTAssertEqual(s.chunkSize(maxRequestBytes: 16_777_212, forPB: false), 256 << 10)
    XCTAssertEqual(s.chunkSize(maxRequestBytes: 262_140, forPB: true), 261_116)
    XCTAssertEqual(s.chunkSize(maxRequestBytes: 262_140, forPB: false), 261_116)
    XCTAssertEqual(s.chunkSize(maxRequestBytes: 262_140, forPB: true) % 4, 0)
    s.chunkSize = 4096
    XCTAssertEqual(s.chunkSize(maxRequestBytes: 16_777_212, forPB: true), 4096, "PB_X11_CHUNK_SIZE sets both")
    XCTAssertEqual(s.chunkSize(maxRequestBytes: 16_777_212, forPB: false), 4096)
  }

  /// An owner gives up a reader that stops taking chunks after 30 s (the
  /// mechanism is tested in RobustnessTests with a shorter limit):
  /// `--timeout` changes only the reading side, PB_X11_IDLE_TIMEOUT both.
  func testOwnersWaitThirtySecondsForAStalledReader() {
    let saved = environmentValue("PB_X11_IDLE_TIMEOUT")
    defer {
      if let saved { setenv("PB_X11_IDLE_TIMEOUT", saved, 1) } else { unsetenv("PB_X11_IDLE_TIMEOUT") }
    }
    unsetenv("PB_X11_IDLE_TIMEOUT")
    XCTAssertEqual(X11Settings.fromEnvironment().ownerIdleMilliseconds, 30_000)
    XCTAssertEqual(X11Settings.fromEnvironment().idleMilliseconds, 10_000)
    let withTimeout = X11Backend(displayName: ":0", timeoutMilliseconds: 800).settings
    XCTAssertEqual(withTimeout.ownerIdleMilliseconds, 30_000)
    XCTAssertEqual(withTimeout.idleMilliseconds, 800)
    setenv("PB_X11_IDLE_TIMEOUT", "1500ms", 1)
    XCTAssertEqual(X11Settings.fromEnvironment().ownerIdleMilliseconds, 1500)
    XCTAssertEqual(X11Backend(displayName: ":0", timeoutMilliseconds: 800).settings.idleMilliseconds, 1500)
  }

  func testOwnershipRefusalNamesWhatHappenedToEveryBoard() {
    XCTAssertEqual(
      SelectionOwner.refusal(["CLIPBOARD"], emptied: [], display: ":3"),
      "cannot own the CLIPBOARD (board general) selection: another program took it in the meantime; nothing was copied (DISPLAY is :3)")
    XCTAssertEqual(
      SelectionOwner.refusal(["work", "PRIMARY"], emptied: ["CLIPBOARD", "x", "SECONDARY"], display: ":3"),
      "cannot own the work and PRIMARY (board primary) selections: other programs took them in the meantime; nothing was copied, and CLIPBOARD (board general), x and SECONDARY (board secondary), which pb had taken, were given up and are now empty (DISPLAY is :3)")
  }

  func testServerTimesWrap() {
    XCTAssertTrue(serverTime(10, isEarlierThan: 20))
    XCTAssertFalse(serverTime(20, isEarlierThan: 10))
    XCTAssertTrue(serverTime(0xFFFF_FFF0, isEarlierThan: 5), "wrapped")
  }

  /// Every MIME target is a type of its own; only X's text targets (and
  /// the MIME name of UTF-8 text) fold into text/plain;charset=utf-8,
  /// where the first of them stands, fetched from the best of them.
  func testOnlyXTextTargetsFold() {
    func types(_ targets: [String]) -> [String] { TargetFolding.plan(targets).map(\.type) }
    let utf8 = "text/plain;charset=utf-8"
    // GTK 3, Qt 5 and Tk owners of text.
    let gtk = [
      "TIMESTAMP", "TARGETS", "MULTIPLE", "SAVE_TARGETS", "UTF8_STRING", "COMPOUND_TEXT", "TEXT", "STRING", utf8, "text/plain",
    ]
    XCTAssertEqual(types(gtk), [utf8, "text/plain"])
    XCTAssertEqual(TargetFolding.plan(gtk).first?.targets, ["UTF8_STRING", utf8, "STRING", "TEXT", "COMPOUND_TEXT"])
    XCTAssertEqual(types(["text/plain", "UTF8_STRING", "STRING", "TEXT", "TARGETS", "MULTIPLE", "TIMESTAMP"]), ["text/plain", utf8])
    XCTAssertEqual(types(["MULTIPLE", "TARGETS", "TIMESTAMP", "TK_APPLICATION", "TK_WINDOW", "UTF8_STRING", "STRING"]), [utf8])
    XCTAssertEqual(types(["COMPOUND_TEXT"]), [utf8], "COMPOUND_TEXT is text too")
    XCTAssertEqual(types(["text/html", "text/plain;charset=UTF-8", "image/png", "PIXMAP"]), ["text/html", utf8, "image/png"])
    XCTAssertEqual(types(["TARGETS", "x-kde-passwordManagerHint", "PIXMAP"]), [])
    XCTAssertEqual(TargetFolding.plan(["STRING", "TEXT"]).first?.targets, ["STRING", "TEXT"])
  }
}
