// Test support: built only where XCTest is (debug builds for `swift test`).
#if canImport(XCTest)
import PasteboardKit
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The semantics every `PasteboardBackend` keeps, as one suite run against
/// each backend (memory, file, X11) with a fresh store per case.
///
/// Usage from a test: `BackendConformance.checkAll { try makeBackend() }`.
public enum BackendConformance {
  /// Cases a backend may opt out of, each with a reason at the call site.
  public enum Case: String, CaseIterable {
    case emptyBoard, roundTrip, replace, countMonotonic, clearIfCount, independentBoards
    case representations, severalBoards, binary, emptyItem, streamed, pasteLimit, expiry, boardNames
    case textAliases, watch
  }

  public static func checkAll(
    skipping skipped: Set<Case> = [], file: StaticString = #filePath, line: UInt = #line,
    make: () throws -> PasteboardBackend
  ) {
    for c in Case.allCases where !skipped.contains(c) {
      do {
        try run(c, on: try make(), file: file, line: line)
      } catch {
        XCTFail("conformance case \(c.rawValue) threw \(error)", file: file, line: line)
      }
    }
  }

  static let work = try! BoardName("conformance-work")

  static func bytes(_ backend: PasteboardBackend, _ board: BoardName, _ type: String? = nil) throws -> [UInt8]? {
    guard let item = try backend.read(board, purpose: .inspect).items.first else { return nil }
    let rep = type.flatMap { item.representation(for: $0) } ?? item.representations.first
    return try rep?.payload.loadBytes()
  }

  static func text(_ s: String) -> PasteboardItem { .text(s) }

  static func run(_ c: Case, on b: PasteboardBackend, file: StaticString, line: UInt) throws {
    let g = BoardName.general
    let tag = "[\(b.kind) \(c.rawValue)]"
    switch c {
    case .emptyBoard:
      XCTAssertTrue(try b.read(work, purpose: .inspect).isEmpty, tag, file: file, line: line)
      XCTAssertEqual(try b.changeCount(of: work), 0, tag, file: file, line: line)
    case .roundTrip:
      try b.write([text("héllo ✓ 日本\n")], to: [g], options: .init())
      XCTAssertEqual(try bytes(b, g), Array("héllo ✓ 日本\n".utf8), tag, file: file, line: line)
    case .replace:
      try b.write([text("one")], to: [g], options: .init())
      let first = try b.changeCount(of: g)
      try b.write([.image([0x89, 0x50])], to: [g], options: .init())
      let contents = try b.read(g, purpose: .inspect)
      XCTAssertEqual(contents.types, ["image/png"], tag, file: file, line: line)
      XCTAssertNotEqual(try b.changeCount(of: g), first, tag, file: file, line: line)
    case .countMonotonic:
      var last = try b.changeCount(of: g)
      for i in 0..<5 {
        if i == 3 { try b.clear(g, ifChangeCount: nil) } else { try b.write([text("\(i)")], to: [g], options: .init()) }
        let now = try b.changeCount(of: g)
        XCTAssertGreaterThan(now, last, "\(tag) step \(i)", file: file, line: line)
        last = now
      }
      XCTAssertTrue(try b.read(g, purpose: .inspect).isEmpty == false, tag, file: file, line: line)
    case .clearIfCount:
      try b.write([text("keep")], to: [g], options: .init())
      let count = try b.changeCount(of: g)
      XCTAssertThrowsError(try b.clear(g, ifChangeCount: count &+ 1000), tag, file: file, line: line) { error in
        guard case PasteboardError.refused = error else { return XCTFail("\(tag) \(error)", file: file, line: line) }
      }
      XCTAssertEqual(try bytes(b, g), Array("keep".utf8), tag, file: file, line: line)
      try b.clear(g, ifChangeCount: count)
      XCTAssertTrue(try b.read(g, purpose: .inspect).isEmpty, tag, file: file, line: line)
    case .independentBoards:
      try b.write([text("a")], to: [g], options: .init())
      try b.write([text("b")], to: [work], options: .init())
      XCTAssertEqual(try bytes(b, g), Array("a".utf8), tag, file: file, line: line)
      XCTAssertEqual(try bytes(b, work), Array("b".utf8), tag, file: file, line: line)
    case .representations:
      let item = PasteboardItem([
        Representation(type: "text/html", bytes: Array("<b>hi</b>".utf8)),
        Representation(type: MIMEType.utf8Text, bytes: Array("hi".utf8)),
      ])
      try b.write([item], to: [g], options: .init())
      XCTAssertEqual(try bytes(b, g, "text/html"), Array("<b>hi</b>".utf8), tag, file: file, line: line)
      XCTAssertEqual(try bytes(b, g, MIMEType.utf8Text), Array("hi".utf8), tag, file: file, line: line)
    case .severalBoards:
      try b.write([text("both")], to: [g, work], options: .init())
      XCTAssertEqual(try bytes(b, g), Array("both".utf8), tag, file: file, line: line)
      XCTAssertEqual(try bytes(b, work), Array("both".utf8), tag, file: file, line: line)
    case .binary:
      let data: [UInt8] = [0, 1, 0xFF, 0xFE, 0, 0x0A, 0xC3, 0x28] + (0..<300).map { UInt8($0 % 256) }
      try b.write([PasteboardItem([Representation(type: "application/octet-stream", bytes: data)])], to: [g], options: .init())
      XCTAssertEqual(try bytes(b, g), data, tag, file: file, line: line)
    case .emptyItem:
      try b.write([text("")], to: [g], options: .init())
      let contents = try b.read(g, purpose: .inspect)
      XCTAssertFalse(contents.isEmpty, "\(tag) an empty item is not an empty board", file: file, line: line)
      XCTAssertEqual(try bytes(b, g), [], tag, file: file, line: line)
    case .streamed:
      var fds: [Int32] = [0, 0]
      XCTAssertEqual(pipe(&fds), 0)
      let payload = Array(repeating: UInt8(ascii: "z"), count: 1000)
      _ = payload.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
      close(fds[1])
      let stream = InputStream(source: Descriptor(fds[0]), prefix: Array("pre".utf8), name: "pipe")
      try b.write([PasteboardItem([Representation(type: MIMEType.utf8Text, payload: .stream(stream))])], to: [g], options: .init())
      XCTAssertEqual(try bytes(b, g), Array("pre".utf8) + payload, tag, file: file, line: line)
    case .pasteLimit:
      try b.write([text("twice")], to: [g], options: WriteOptions(pasteLimit: 2))
      for i in 1...2 {
        let item = try b.read(g, purpose: .paste).items.first
        XCTAssertEqual(try item?.representations.first?.payload.loadBytes(), Array("twice".utf8), "\(tag) paste \(i)", file: file, line: line)
      }
      XCTAssertTrue(try b.read(g, purpose: .paste).isEmpty, "\(tag) third paste", file: file, line: line)
    case .expiry:
      try b.write([text("soon gone")], to: [g], options: WriteOptions(expiresAt: WallClock.nowMilliseconds() + 300))
      XCTAssertEqual(try bytes(b, g), Array("soon gone".utf8), tag, file: file, line: line)
      // Expiry happens in another process on some backends (the X11
      // owner): wait for its outcome, up to a bound, rather than a guess.
      let deadline = WallClock.monotonicMilliseconds() + 5000
      while try !b.read(g, purpose: .inspect).isEmpty && WallClock.monotonicMilliseconds() < deadline { usleep(20_000) }
      XCTAssertTrue(try b.read(g, purpose: .inspect).isEmpty, "\(tag) after expiry", file: file, line: line)
    case .boardNames:
      try b.write([text("x")], to: [work], options: .init())
      XCTAssertTrue(try b.boardNames().contains(work), tag, file: file, line: line)
    case .textAliases:
      try b.write([text("alias")], to: [g], options: .init())
      let item = try b.read(g, purpose: .inspect).items.first
      XCTAssertNotNil(item?.representation(for: "text/plain"), tag, file: file, line: line)
      XCTAssertNotNil(item?.representation(for: "UTF8_STRING"), tag, file: file, line: line)
    case .watch:
      try checkWatch(b, tag: tag, file: file, line: line)
    }
  }

  /// Watching: nothing before a change, one report per change noticed,
  /// changes made in between coalesced into the newest, several boards
  /// reported by name, a clear reported as empty.
  static func checkWatch(_ b: PasteboardBackend, tag: String, file: StaticString, line: UInt) throws {
    guard let watching = b as? ChangeWatching else {
      XCTFail("\(tag) the backend cannot be watched", file: file, line: line)
      return
    }
    let g = BoardName.general
    let watch = try watching.watchChanges(of: [g, work])
    func soon() -> Int64 { WallClock.monotonicMilliseconds() + 5000 }
    XCTAssertEqual(try watch.next(deadline: WallClock.monotonicMilliseconds() + 100).count, 0, "\(tag) no change yet", file: file, line: line)
    let before = try b.changeCount(of: g)
    try b.write([text("one")], to: [g], options: .init())
    XCTAssertTrue(try watch.awaitNotice(until: soon()), "\(tag) the write is notified, not only found by its count", file: file, line: line)
    var changes = try watch.next(deadline: soon())
    XCTAssertEqual(changes.map(\.board), [g], tag, file: file, line: line)
    XCTAssertNotEqual(changes.first?.changeCount, before, tag, file: file, line: line)
    XCTAssertEqual(try changes.first?.contents.items.first?.representations.first?.payload.loadBytes(), Array("one".utf8), tag, file: file, line: line)
    try b.write([text("two")], to: [g], options: .init())
    try b.write([text("three")], to: [g], options: .init())
    changes = try watch.next(deadline: soon())
    XCTAssertEqual(changes.count, 1, "\(tag) changes made in between coalesce", file: file, line: line)
    XCTAssertEqual(try changes.first?.contents.items.first?.representations.first?.payload.loadBytes(), Array("three".utf8), tag, file: file, line: line)
    XCTAssertEqual(changes.first?.changeCount, try b.changeCount(of: g), tag, file: file, line: line)
    try b.write([text("both")], to: [g, work], options: .init())
    var seen: [BoardName] = []
    while seen.count < 2, case let more = try watch.next(deadline: soon()), !more.isEmpty { seen += more.map(\.board) }
    XCTAssertEqual(Set(seen), [g, work], "\(tag) each board is reported", file: file, line: line)
    // Consumes the notices left of the last write, so the next is the clear's.
    XCTAssertEqual(try watch.next(deadline: WallClock.monotonicMilliseconds() + 200).count, 0, "\(tag) quiet in between", file: file, line: line)
    try b.clear(g, ifChangeCount: nil)
    XCTAssertTrue(try watch.awaitNotice(until: soon()), "\(tag) the clear is notified", file: file, line: line)
    changes = try watch.next(deadline: soon())
    XCTAssertEqual(changes.map(\.board), [g], tag, file: file, line: line)
    XCTAssertEqual(changes.first?.contents.isEmpty, true, "\(tag) a clear is a change to nothing", file: file, line: line)
    XCTAssertEqual(try watch.next(deadline: WallClock.monotonicMilliseconds() + 100).count, 0, "\(tag) and then quiet", file: file, line: line)
  }
}
#endif
