import XCTest

/// Text both ways with GTK 3, Qt 5 and Tk programs as real peers
/// (scripts/x11-toolkit-peer.py, on Debian's python3), at 0 B, 1 B, 3 MiB
/// (more than Tk reads from one property) and 32 MiB, pb's 128 MiB read by
/// every peer, and the types each side sees of the other.
final class ToolkitInteropTests: X11TestCase {
  func testGTK3BothWays() throws { try bothWays("gtk") }
  func testQt5BothWays() throws { try bothWays("qt") }
  func testTkBothWays() throws { try bothWays("tk") }

  func testGTK3Targets() throws {
    try targets(
      "gtk", pbTypes: ["text/plain;charset=utf-8", "text/plain"],
      seen: ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING", "TEXT"])
  }

  func testQt5Targets() throws {
    // Qt offers text/plain before its X text targets; it lists MIME types,
    // and the X targets it does not map under their own names.
    try targets(
      "qt", pbTypes: ["text/plain", "text/plain;charset=utf-8"],
      seen: ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "text/plain", "text/plain;charset=utf-8"])
  }

  func testTkTargets() throws {
    // Tk offers no MIME type: its X text targets fold into one.
    try targets(
      "tk", pbTypes: ["text/plain;charset=utf-8"],
      seen: ["TARGETS", "TIMESTAMP", "MULTIPLE", "SAVE_TARGETS", "UTF8_STRING", "text/plain;charset=utf-8", "text/plain", "STRING", "TEXT"])
  }

  static let sizes = [0, 1, 3 << 20, 32 << 20]

  /// The largest size pb serves in the benchmarks, read from one pb owner
  /// by every peer in turn: INCR in the chunks each reads.
  func testEveryPeerReads128MiBFromPb() throws {
    for toolkit in ["gtk", "qt", "tk"] { try requireToolkit(toolkit) }
    let text = Self.text(128 << 20)
    let path = Tools.file(text)
    XCTAssertEqual(try sh("$PB copy < \(path)").status, 0)
    for (peer, command) in [
      ("GTK 3", "\(ToolkitPeer.command) gtk paste"), ("Qt 5", "\(ToolkitPeer.command) qt paste"),
      ("Tk", "\(ToolkitPeer.command) tk paste"), ("xsel", "xsel -b -o"), ("xclip", "xclip -selection clipboard -o"),
    ] {
      let read = try sh("\(command) | cmp -s - \(path) && echo same", limit: 120)
      XCTAssertEqual(read.text, "same\n", "\(peer) reading 128 MiB from pb: \(read.stderr)")
    }
  }

  /// UTF-8 text of exactly `size` bytes: whole lines of mixed scripts,
  /// padded with ASCII.
  static func text(_ size: Int) -> [UInt8] {
    let line = Array("héllo ✓ 日本 0123456789\n".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(size)
    while bytes.count + line.count <= size { bytes += line }
    return bytes + [UInt8](repeating: UInt8(ascii: "a"), count: size - bytes.count)
  }

  private func bothWays(_ toolkit: String, file: StaticString = #filePath, line: UInt = #line) throws {
    try requireToolkit(toolkit)
    for size in Self.sizes {
      let text = Self.text(size)
      let path = Tools.file(text)
      // pb to the toolkit.
      let copy = try sh("$PB copy --allow-empty < \(path)")
      XCTAssertEqual(copy.status, 0, copy.stderr, file: file, line: line)
      let read = try sh("\(ToolkitPeer.command) \(toolkit) paste")
      XCTAssertEqual(read.status, 0, "\(toolkit) reading \(size) bytes from pb: \(read.stderr)", file: file, line: line)
      XCTAssertTrue(read.stdout == text, "\(toolkit) read \(read.stdout.count) of \(size) bytes from pb", file: file, line: line)
      // The toolkit to pb, from a selection the toolkit owns, pb's owner gone.
      try startPeer(command: "\(ToolkitPeer.command) \(toolkit) own \(path)")
      XCTAssertTrue(
        Tools.eventually(2000) { Tools.owners(on: display).isEmpty }, "pb's owner outlived the \(toolkit) copy", file: file, line: line)
      let pasted = try sh("$PB paste")
      XCTAssertEqual(pasted.status, 0, "pb reading \(size) bytes from \(toolkit): \(pasted.stderr)", file: file, line: line)
      XCTAssertTrue(pasted.stdout == text, "pb read \(pasted.stdout.count) of \(size) bytes from \(toolkit)", file: file, line: line)
    }
  }

  /// `pb types` on the toolkit's text, and the toolkit's view of pb's.
  private func targets(_ toolkit: String, pbTypes: [String], seen: [String], file: StaticString = #filePath, line: UInt = #line) throws {
    try requireToolkit(toolkit)
    try startPeer(command: "\(ToolkitPeer.command) \(toolkit) own \(Tools.file(Array("typed".utf8)))")
    XCTAssertEqual(try sh("$PB types").text, pbTypes.map { $0 + "\n" }.joined(), "pb types on a \(toolkit) owner", file: file, line: line)
    try sh("printf typed | $PB copy")
    let listed = try sh("\(ToolkitPeer.command) \(toolkit) targets")
    XCTAssertEqual(listed.status, 0, listed.stderr, file: file, line: line)
    XCTAssertEqual(listed.text.split(separator: "\n").map(String.init), seen, "\(toolkit) on pb's owner", file: file, line: line)
  }

  /// Fails, saying what to install, when the toolkit cannot be loaded.
  private func requireToolkit(_ toolkit: String) throws {
    let r = try sh("\(ToolkitPeer.command) \(toolkit) check")
    guard r.status == 0 else {
      XCTFail("the toolkit tests need \(toolkit): \(r.stderr)")
      throw TestFailure("no \(toolkit)")
    }
  }
}

/// scripts/x11-toolkit-peer.py, run by Debian's python3 (where apt-get
/// installs the toolkits' bindings).
enum ToolkitPeer {
  static var command: String { "/usr/bin/python3 \(Peer.scriptDirectory)/x11-toolkit-peer.py" }
}
