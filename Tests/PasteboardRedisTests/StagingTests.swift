import PasteboardKit
import RedisTestSupport
import XCTest

@testable import PasteboardRedis

#if canImport(Glibc)
  import Glibc
#endif

/// Writes swap staged pieces in: one that outlives its staged pieces fails
/// and changes nothing, and a reader streaming the old content while it is
/// replaced finishes with the old content.
final class RedisStagingTests: XCTestCase {
  var server: RedisServer!

  override func setUpWithError() throws { server = try RedisServer(unixSocket: true) }
  override func tearDown() { server = nil }

  /// A client; without history, nothing but the grace period keeps a
  /// replaced item.
  func backend(history: HistoryLimits = HistoryLimits(entries: 0)) throws -> RedisBackend {
    RedisBackend(settings: RedisSettings(address: try RedisAddress.parse(server.url, from: "test")), history: history)
  }

  /// A stream that sends `first`, waits `pause` microseconds, then `rest`.
  func slowStream(_ first: [UInt8], pause: UInt32, _ rest: [UInt8]) -> PasteboardKit.InputStream {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    let writer = fds[1]
    Thread.detachNewThread {
      _ = first.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
      usleep(pause)
      _ = rest.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) }
      close(writer)
    }
    return PasteboardKit.InputStream(source: Descriptor(fds[0]), name: "slow pipe")
  }

  func testAWriteThatOutlivesItsStagedPiecesChangesNothing() throws {
    let b = try backend()
    try b.write([.text("kept")], to: [.general], options: .init())
    b.stagingMilliseconds = 100
    let piece = [UInt8](repeating: 0x61, count: RedisBackend.pieceSize + 10)
    let stream = slowStream(piece, pause: 400_000, [0x62])
    XCTAssertThrowsError(
      try b.write([PasteboardItem([Representation(type: "text/plain", payload: .stream(stream))])], to: [.general], options: .init())
    ) { error in
      guard case PasteboardError.failed(let message) = error else { return XCTFail("\(error)") }
      XCTAssertTrue(message.contains("expired"), message)
    }
    XCTAssertEqual(try b.read(.general, purpose: .inspect).items.first?.representations.first?.payload.loadBytes(), Array("kept".utf8))
    XCTAssertEqual(try b.changeCount(of: .general), 1)
  }

  func testAReaderFinishesWithTheContentItBeganWith() throws {
    let reader = try backend()
    let writer = try backend()
    let old = (0..<(RedisBackend.pieceSize * 3)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try writer.write([PasteboardItem([Representation(type: "application/octet-stream", bytes: old)])], to: [.general], options: .init())
    let contents = try reader.read(.general, purpose: .inspect)
    try writer.write([.text("new")], to: [.general], options: .init())
    try writer.clear(.general, ifChangeCount: nil)
    XCTAssertEqual(try contents.items.first?.representations.first?.payload.loadBytes(), old)
    XCTAssertTrue(try reader.read(.general, purpose: .inspect).isEmpty)
  }
}
