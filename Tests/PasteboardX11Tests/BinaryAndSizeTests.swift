import XCTest

/// Binary data, images, tiny and huge sizes, and the INCR boundaries
/// (checklist 9-16).
final class BinaryAndSizeTests: X11TestCase {
  /// Copies `bytes` with pb and checks what xclip reads back, then the
  /// other way round, from an xclip owner with pb's owner gone.
  private func roundTrip(_ bytes: [UInt8], type: String, env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws {
    let path = Tools.file(bytes)
    let copy = try sh("$PB copy -t '\(type)' < \(path)", env: env)
    XCTAssertEqual(copy.status, 0, copy.stderr, file: file, line: line)
    let out = try sh("xclip -selection clipboard -o -t '\(type)'")
    XCTAssertEqual(out.status, 0, out.stderr, file: file, line: line)
    XCTAssertTrue(out.stdout == bytes, "xclip read \(out.stdout.count) of \(bytes.count) bytes", file: file, line: line)
    try peerCopies("xclip -selection clipboard -i -t '\(type)' < \(path) >/dev/null 2>&1", file: file, line: line)
    let back = try sh("$PB paste -t '\(type)'", env: env)
    XCTAssertEqual(back.status, 0, back.stderr, file: file, line: line)
    XCTAssertTrue(back.stdout == bytes, "pb read \(back.stdout.count) of \(bytes.count) bytes", file: file, line: line)
  }

  func testBinaryWithNULsBothWays() throws {
    try roundTrip(Tools.pattern(1 << 20), type: "application/octet-stream")
  }

  func testPNGBothWaysAndChosenByName() throws {
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Tools.pattern(5000)
    try roundTrip(png, type: "image/png")
    let targets = try sh("$PB copy -t image/png < \(Tools.file(png)); xclip -selection clipboard -o -t TARGETS").text
    XCTAssertEqual(targets, "TARGETS\nTIMESTAMP\nMULTIPLE\nSAVE_TARGETS\nimage/png\n")
    let out = "\(Tools.scratch)/pasted.png"
    XCTAssertEqual(try sh("$PB paste -o \(out)").status, 0)
    XCTAssertEqual(FileManager.default.contents(atPath: out).map { [UInt8]($0) }, png)
  }

  func testZeroBytes() throws {
    let copy = try sh("$PB copy --allow-empty < /dev/null")
    XCTAssertEqual(copy.status, 0, copy.stderr)
    let out = try sh("xclip -selection clipboard -o")
    XCTAssertEqual(out.status, 0)
    XCTAssertEqual(out.stdout, [])
    // xclip owning an empty text: an empty paste, not a failure.
    try peerCopies("xclip -selection clipboard -i < /dev/null >/dev/null 2>&1")
    let p = try sh("$PB paste")
    XCTAssertEqual(p.status, 0, p.stderr)
    XCTAssertEqual(p.stdout, [])
  }

  func testOneByte() throws {
    for b: UInt8 in [0x61, 0x0A] {
      try sh("$PB copy < \(Tools.file([b]))")
      XCTAssertEqual(try sh("xclip -selection clipboard -o").stdout, [b])
      XCTAssertEqual(try sh("$PB paste").stdout, [b])
    }
    try roundTrip([0], type: "application/octet-stream")
  }

  /// Sizes around the chunk size C, with a small C so that INCR runs many
  /// rounds: C-1 and C go in one piece, C+1 and up by INCR, 2C in exactly
  /// two chunks and a terminator.
  func testSizesAroundTheChunkSize() throws {
    let c = 4096
    let log = "\(Tools.scratch)/owner-\(UUID().uuidString).log"
    let env = ["PB_X11_CHUNK_SIZE": String(c), "PB_X11_LOG": log]
    for size in [c - 1, c, c + 1, 2 * c, 2 * c + 1] {
      let text = [UInt8](repeating: UInt8(ascii: "a") + UInt8(size % 26), count: size)
      let path = Tools.file(text)
      try sh("$PB copy < \(path)", env: env)
      XCTAssertEqual(try sh("xclip -selection clipboard -o").stdout, text, "xclip at \(size)")
      XCTAssertEqual(try sh("xsel -b -o").stdout, text, "xsel at \(size)")
      XCTAssertEqual(try sh("$PB paste", env: env).stdout, text, "pb at \(size)")
    }
    let trace = Tools.contents(of: log)
    XCTAssertTrue(trace.contains("sends UTF8_STRING in one piece (\(c) bytes)"), trace)
    XCTAssertTrue(trace.contains("starts INCR of \(c + 1) bytes"), trace)
    XCTAssertTrue(trace.contains("ends INCR to") && trace.contains("after \(2 * c) bytes"), trace)
  }

  /// Other programs get chunks of 256 KiB (Tk reads no more than about
  /// 400,000 bytes from one property); pb's own paste, which names the
  /// property PB_SELECTION, gets 1 MiB chunks.
  func testChunkSizeDependsOnTheRequestor() throws {
    let text = [UInt8](repeating: UInt8(ascii: "c"), count: 3 << 20)
    let log = "\(Tools.scratch)/chunks-\(UUID().uuidString).log"
    try sh("$PB copy < \(Tools.file(text))", env: ["PB_X11_LOG": log])
    XCTAssertTrue(try sh("xclip -selection clipboard -o").stdout == text)
    let fromXclip = Tools.contents(of: log)
    XCTAssertTrue(fromXclip.contains("starts INCR of \(3 << 20) bytes") && fromXclip.contains("in chunks of 262144"), fromXclip)
    XCTAssertFalse(fromXclip.contains("in chunks of 1048576"), fromXclip)
    XCTAssertTrue(try sh("$PB paste").stdout == text)
    let fromPB = Tools.contents(of: log)
    XCTAssertTrue(fromPB.contains("in chunks of 1048576"), fromPB)
    // Up to 256 KiB goes in one piece to everyone.
    try sh("$PB copy < \(Tools.file(Array(text.prefix(256 << 10))))", env: ["PB_X11_LOG": log])
    XCTAssertEqual(try sh("xclip -selection clipboard -o").stdout.count, 256 << 10)
    let oneShot = Tools.contents(of: log)
    XCTAssertTrue(oneShot.contains("sends UTF8_STRING in one piece (262144 bytes)"), oneShot)
  }

  /// xsel sends by INCR above 4000 bytes, xclip above about 1 MiB on Xvfb.
  func testReadingPeersAroundTheirBoundaries() throws {
    for size in [3999, 4000, 4001, 8000, 8001] {
      let text = Tools.pattern(size).map { 0x61 + $0 % 26 }
      try peerCopies("xsel -b -i < \(Tools.file(text)) >/dev/null 2>&1")
      XCTAssertEqual(try sh("$PB paste").stdout, text, "xsel owner at \(size)")
    }
    for size in [1_048_575, 1_048_576, 1_048_577] {
      let data = Tools.pattern(size)
      try peerCopies("xclip -selection clipboard -i -t application/octet-stream < \(Tools.file(data)) >/dev/null 2>&1")
      XCTAssertTrue(try sh("$PB paste -t application/octet-stream").stdout == data, "xclip owner at \(size)")
    }
  }

  /// A 12 MiB reply in one property (allowed by BIG-REQUESTS) is read in
  /// bounded pieces.
  func testLargeOneShotProperty() throws {
    let data = Tools.pattern(12 << 20)
    let path = Tools.file(data)
    let env = ["PB_X11_CHUNK_SIZE": "16000000", "PB_X11_LOG": "\(Tools.scratch)/oneshot-\(UUID().uuidString).log"]
    try sh("$PB copy -t application/octet-stream < \(path)", env: env)
    XCTAssertTrue(try sh("$PB paste -t application/octet-stream").stdout == data)
    let log = Tools.contents(of: env["PB_X11_LOG"] ?? "")
    XCTAssertTrue(log.contains("in one piece (\(12 << 20) bytes)"), log)
  }

  /// 128 MiB both ways, byte for byte, in bounded time.
  func test128MiBBothWays() throws {
    let f = "\(Tools.scratch)/big-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: f) }
    let out = try sh("""
      set -e
      head -c 134217728 /dev/urandom > \(f)
      $PB copy -t application/octet-stream < \(f)
      xclip -selection clipboard -o -t application/octet-stream | cmp - \(f)
      echo pb-to-xclip-ok
      $PB paste -t application/octet-stream | cmp - \(f)
      echo pb-to-pb-ok
      """, limit: 120)
    XCTAssertEqual(out.status, 0, out.stderr)
    XCTAssertEqual(out.text, "pb-to-xclip-ok\npb-to-pb-ok\n")
    try peerCopies("xclip -selection clipboard -i -t application/octet-stream < \(f) >/dev/null 2>&1")
    let back = try sh("$PB paste -t application/octet-stream | cmp - \(f) && echo xclip-to-pb-ok", limit: 120)
    XCTAssertEqual(back.text, "xclip-to-pb-ok\n", back.stderr)
  }
}
