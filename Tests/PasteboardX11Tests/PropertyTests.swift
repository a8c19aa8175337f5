import PasteboardKit
import XCTest

@testable import PasteboardX11

/// Reading window properties (`XConnection.withProperty`, the one place pb
/// calls `XGetWindowProperty`) on a real server.
final class X11PropertyTests: X11TestCase {
  /// An owner in this process, holding `text` on `selections`.
  private func owner(_ text: String, on c: XConnection, selections: [String] = ["CLIPBOARD"]) throws -> SelectionOwner {
    let (file, slices) = try SharedContent.store([Representation(type: MIMEType.utf8Text, bytes: Array(text.utf8))])
    let content = try SharedContent(fd: file.rawValue, slices: slices)
    return SelectionOwner(
      connection: c, content: content, selections: selections.map { SelectionNames.selection($0, on: c) },
      options: WriteOptions(), settings: X11Settings())
  }

  func testAnOwnersPublishedTimestampIsReadFromItsWindow() throws {
    let c = try XConnection(name: display.name)
    let o = try owner("x", on: c)
    XCTAssertNil(OwnerInspection.publishedTimestamp(of: c.window, on: c), "nothing published before owning")
    try o.acquire()
    XCTAssertEqual(OwnerInspection.publishedTimestamp(of: c.window, on: c), c.openedAt)
  }

  func testMissingPropertiesAndWindows() throws {
    let c = try XConnection(name: display.name)
    let missing = c.withProperty(c.atom("PB_NO_SUCH_PROPERTY"), of: c.window, longs: 1) { ($0.type, $0.format, $0.count) }
    XCTAssertEqual(missing?.0, 0, "a missing property has type None")
    XCTAssertEqual(missing?.2, 0)
    XCTAssertNil(c.withProperty(c.atoms.transfer, of: 0x7FF_FFFF, longs: 1) { _ in true }, "a window that does not exist")
    XCTAssertFalse(c.isLost, "a failed read does not end the connection")
  }
}
