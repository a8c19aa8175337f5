import PasteboardKit
import XCTest

/// The UIPasteboard-style conveniences, on the memory and file backends.
final class PasteboardTests: XCTestCase {
  func backends() throws -> [PasteboardBackend] {
    let dir = try TemporaryDirectory()
    addTeardownBlock { _ = dir }
    return [MemoryBackend(), FileBackend(location: StoreLocation(directory: dir.path + "/store", source: "test"))]
  }

  func testStrings() throws {
    for backend in try backends() {
      let board = try Pasteboard(name: "notes", backend: backend)
      XCTAssertNil(try board.string())
      XCTAssertFalse(try board.hasStrings())
      try board.setStrings(["one", "two ✓"])
      XCTAssertEqual(try board.strings(), ["one", "two ✓"], backend.kind)
      XCTAssertEqual(try board.string(), "one")
      XCTAssertTrue(try board.hasStrings())
      XCTAssertEqual(try board.changeCount(), 1)
    }
  }

  func testURLsAreOfferedAsAListAndAsText() throws {
    for backend in try backends() {
      let board = Pasteboard(backend: backend)
      try board.setURLs(["https://example.org/a b", "file:///tmp/x"])
      XCTAssertEqual(try board.urls(), ["https://example.org/a b", "file:///tmp/x"], backend.kind)
      XCTAssertEqual(try board.string(), "https://example.org/a b")
      XCTAssertEqual(try board.types(), [MIMEType.uriList, MIMEType.utf8Text])
      XCTAssertTrue(try board.hasURLs())
    }
  }

  func testImages() throws {
    for backend in try backends() {
      let board = Pasteboard(backend: backend)
      XCTAssertFalse(try board.hasImages())
      try board.setImage([0x89, 0x50, 0x4E, 0x47], type: "image/png")
      XCTAssertEqual(try board.image()?.bytes, [0x89, 0x50, 0x4E, 0x47], backend.kind)
      XCTAssertEqual(try board.image()?.type, "image/png")
      XCTAssertTrue(try board.hasImages())
      XCTAssertNil(try board.string())
      try board.clear()
      XCTAssertEqual(try board.items().count, 0)
      XCTAssertEqual(try board.changeCount(), 2)
    }
  }

  func testDataForTypeAcceptsTextAliases() throws {
    let board = Pasteboard(backend: MemoryBackend())
    try board.setString("alias")
    XCTAssertEqual(try board.data(forType: "text/plain"), Array("alias".utf8))
    XCTAssertEqual(try board.data(forType: "UTF8_STRING"), Array("alias".utf8))
    XCTAssertNil(try board.data(forType: "image/png"))
  }
}
