import Foundation
import XCTest

/// Byte-exact round trips through real `pb` processes on the file backend.
final class CopyPasteTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws { pb = try PBRunner() }
  override func tearDown() { pb.cleanUp() }

  func roundTrip(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
    assertStatus(try pb.run(["copy"], input: Data(bytes)), 0, file: file, line: line)
    let pasted = try pb.run(["paste"])
    assertStatus(pasted, 0, file: file, line: line)
    XCTAssertEqual(Array(pasted.stdout), bytes, file: file, line: line)
  }

  func testOneByteNulAndInvalidUTF8RoundTrip() throws {
    try roundTrip([0x61])
    try roundTrip([0x0A])
    try roundTrip([0x00])
    try roundTrip([0x61, 0x00, 0x62, 0x00, 0x00])
    try roundTrip([0xFF, 0xFE, 0xC3, 0x28, 0x80])
    try roundTrip(Array("héllo ✓ 日本 👍🏽".utf8))
  }

  func testNoNewlineIsAddedAndTrimDropsExactlyOne() throws {
    try roundTrip(Array("no newline".utf8))
    assertStatus(try pb.run(["copy", "-n"], input: Data("two\n\n".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "two\n")
    assertStatus(try pb.run(["copy", "--trim-newline"], input: Data("none".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "none")
  }

  func testEmptyInputKeepsTheBoardAndExitsOne() throws {
    try roundTrip(Array("kept".utf8))
    let count = try pb.run(["count"]).text
    assertStatus(try pb.run(["copy"]), 1)
    assertStatus(try pb.run(["copy", "-n"], input: Data("\n".utf8)), 1)
    XCTAssertEqual(try pb.run(["paste"]).text, "kept")
    XCTAssertEqual(try pb.run(["count"]).text, count)
    let quiet = try pb.run(["copy", "-q"])
    XCTAssertEqual(quiet.status, 1)
    XCTAssertEqual(quiet.stderr, "", "-q silences exit-1 messages")
  }

  func testAllowEmptyCopiesAnEmptyItem() throws {
    assertStatus(try pb.run(["copy", "--allow-empty"]), 0)
    let pasted = try pb.run(["paste"])
    assertStatus(pasted, 0)
    XCTAssertEqual(pasted.stdout.count, 0)
  }

  func testNeverWrittenBoard() throws {
    assertStatus(try pb.run(["paste", "-b", "fresh"]), 1)
    assertStatus(try pb.run(["types", "-b", "fresh"]), 1)
    let count = try pb.run(["count", "-b", "fresh"])
    assertStatus(count, 0)
    XCTAssertEqual(count.text, "0\n")
  }

  func testHundredMebibytesRoundTripThroughFiles() throws {
    let source = pb.root + "/big.bin"
    // A xorshift stream over all 100 MiB: no 256-byte or 1 MiB period, so
    // a stale or repeated buffer anywhere shows as a difference.
    FileManager.default.createFile(atPath: source, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: source))
    var x: UInt64 = 0x9E37_79B9_7F4A_7C15
    var chunk = Data(count: 1 << 20)
    var firstChunk = Data()
    for i in 0..<100 {
      chunk.withUnsafeMutableBytes { raw in
        let words = raw.bindMemory(to: UInt64.self)
        for w in 0..<words.count {
          x ^= x << 13
          x ^= x >> 7
          x ^= x << 17
          words[w] = x
        }
      }
      if i == 0 { firstChunk = chunk }
      handle.write(chunk)
    }
    try handle.close()
    XCTAssertNotEqual(chunk, firstChunk, "every mebibyte differs")
    XCTAssertNotEqual(firstChunk.prefix(256), firstChunk.subdata(in: 256..<512), "no 256-byte period")
    assertStatus(try pb.run(["copy"], inputFile: source), 0)
    let result = try pb.shell("pb paste > out.bin && cmp big.bin out.bin && pb paste -o out2.bin && cmp big.bin out2.bin")
    assertStatus(result, 0)
    assertStatus(try pb.shell("cat big.bin | pb copy -b piped && pb paste -b piped | cmp - big.bin"), 0)
  }

  func testFilesAreConcatenatedAndTypesDetected() throws {
    try Data("<html><b>x</b></html>\n".utf8).write(to: URL(fileURLWithPath: pb.root + "/page.html"))
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]).write(to: URL(fileURLWithPath: pb.root + "/pic.png"))
    assertStatus(try pb.run(["copy", pb.root + "/page.html"]), 0)
    XCTAssertEqual(try pb.run(["types"]).text, "text/plain;charset=utf-8\ntext/html\n")
    assertStatus(try pb.run(["copy", pb.root + "/pic.png"]), 0)
    XCTAssertEqual(try pb.run(["types"]).text, "image/png\n")
    assertStatus(try pb.run(["copy", pb.root + "/page.html", "-", pb.root + "/page.html"], input: Data("mid".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "<html><b>x</b></html>\nmid<html><b>x</b></html>\n")
  }

  func testAppendAddsToTheText() throws {
    try roundTrip(Array("one\n".utf8))
    assertStatus(try pb.run(["copy", "--append"], input: Data("two\n".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "one\ntwo\n")
  }

  func testAlsoAddsRepresentationsOfOneItem() throws {
    try Data("<b>bold</b>".utf8).write(to: URL(fileURLWithPath: pb.root + "/page.html"))
    try Data("bold".utf8).write(to: URL(fileURLWithPath: pb.root + "/page.txt"))
    assertStatus(
      try pb.run(["copy", "-t", "text/html", pb.root + "/page.html", "--also", "text/plain=" + pb.root + "/page.txt"]), 0)
    XCTAssertEqual(try pb.run(["types"]).text, "text/html\ntext/plain\n")
    XCTAssertEqual(try pb.run(["paste", "-t", "text/html"]).text, "<b>bold</b>")
    XCTAssertEqual(try pb.run(["paste"]).text, "bold", "text is preferred when no type is asked for")
    let json = try pb.run(["types", "--json"]).text
    XCTAssertEqual(json, #"[[{"type":"text/html","size":11},{"type":"text/plain","size":4}]]"# + "\n")
  }

  func testAppendOntoNonTextIsRefused() throws {
    try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2]).write(to: URL(fileURLWithPath: pb.root + "/pic.png"))
    assertStatus(try pb.run(["copy", pb.root + "/pic.png"]), 0)
    let result = try pb.run(["copy", "--append"], input: Data("text".utf8))
    assertStatus(result, 6)
    XCTAssertTrue(result.stderr.contains("offered: image/png"), result.stderr)
    XCTAssertEqual(try pb.run(["types"]).text, "image/png\n", "the image is untouched")
    XCTAssertEqual(try pb.run(["count"]).text, "1\n")
    assertStatus(try pb.run(["copy", "--append", "-b", "a,b"], input: Data("x".utf8)), 2)
  }

  func testBoardsAreIndependentAndSeveralCanBeWritten() throws {
    assertStatus(try pb.run(["copy", "-b", "general,primary"], input: Data("both".utf8)), 0)
    assertStatus(try pb.run(["-b", "work", "copy"], input: Data("work".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste", "-b", "primary"]).text, "both")
    XCTAssertEqual(try pb.run(["paste"]).text, "both")
    XCTAssertEqual(try pb.run(["paste", "--board=work"]).text, "work")
    let boards = try pb.run(["boards"]).text
    XCTAssertTrue(boards.contains("general\t1\t4\ttext/plain;charset=utf-8"), boards)
    XCTAssertTrue(boards.contains("work\t"), boards)
  }
}
