import XCTest

@testable import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// Payload.forEachPiece: full pieces but the last, the last one marked,
/// an empty payload as one empty piece, and `-n` dropping the newline even
/// when it ends a full piece.
final class PiecesTests: XCTestCase {
  func pieces(_ payload: Payload, size: Int) throws -> (pieces: [[UInt8]], last: [Bool], total: Int64) {
    var pieces: [[UInt8]] = []
    var last: [Bool] = []
    let total = try payload.forEachPiece(size: size) { piece, isLast in
      pieces.append(piece)
      last.append(isLast)
    }
    return (pieces, last, total)
  }

  func stream(_ bytes: [UInt8], prefix: Int = 0, trim: Bool = false) -> PasteboardKit.InputStream {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    let rest = Array(bytes[prefix...])
    _ = rest.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
    close(fds[1])
    let s = PasteboardKit.InputStream(source: Descriptor(fds[0]), prefix: Array(bytes[..<prefix]), name: "pipe")
    s.trimsTrailingNewline = trim
    return s
  }

  func testPiecesAreFullButTheLast() throws {
    let bytes = (0..<25).map { UInt8($0) }
    let r = try pieces(.bytes(bytes), size: 10)
    XCTAssertEqual(r.pieces.map(\.count), [10, 10, 5])
    XCTAssertEqual(r.last, [false, false, true])
    XCTAssertEqual(r.pieces.flatMap { $0 }, bytes)
    XCTAssertEqual(r.total, 25)
    let exact = try pieces(.bytes(Array(bytes[..<20])), size: 10)
    XCTAssertEqual(exact.pieces.map(\.count), [10, 10], "no empty piece after an exact fit")
    XCTAssertEqual(exact.last, [false, true])
  }

  func testAnEmptyPayloadIsOneEmptyPiece() throws {
    let r = try pieces(.bytes([]), size: 10)
    XCTAssertEqual(r.pieces, [[]])
    XCTAssertEqual(r.last, [true])
  }

  func testStreamsAndConcatenations() throws {
    let bytes = Array("0123456789abcdefghij\n".utf8)
    let trimmed = try pieces(.stream(stream(bytes, prefix: 3, trim: true)), size: 7)
    XCTAssertEqual(trimmed.pieces.flatMap { $0 }, Array(bytes.dropLast()))
    XCTAssertEqual(trimmed.total, Int64(bytes.count - 1))
    // The newline alone in a last piece of its own, which -n empties.
    let boundary = try pieces(.stream(stream(bytes, trim: true)), size: 10)
    XCTAssertEqual(boundary.pieces.flatMap { $0 }, Array(bytes.dropLast()))
    XCTAssertEqual(boundary.pieces.map(\.count), [10, 10, 0], boundary.pieces.description)
    XCTAssertEqual(boundary.last, [false, false, true])
    let both = try pieces(.concatenation([.bytes(Array("ab".utf8)), .stream(stream(Array("cd\n".utf8), trim: true))]), size: 3)
    XCTAssertEqual(both.pieces, [Array("abc".utf8), Array("d".utf8)])
    let emptyTail = try pieces(.concatenation([.bytes(Array("ab\n".utf8)), .stream(stream([], trim: true))]), size: 8)
    XCTAssertEqual(emptyTail.pieces, [Array("ab\n".utf8)], "an empty stream drops no newline of what came before")
  }
}
