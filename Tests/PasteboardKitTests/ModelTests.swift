import PasteboardKit
import XCTest

final class ModelTests: XCTestCase {
  func testDurations() throws {
    XCTAssertEqual(try DurationParser.milliseconds("500ms"), 500)
    XCTAssertEqual(try DurationParser.milliseconds("30s"), 30_000)
    XCTAssertEqual(try DurationParser.milliseconds("5m"), 300_000)
    XCTAssertEqual(try DurationParser.milliseconds("1h"), 3_600_000)
    XCTAssertEqual(try DurationParser.milliseconds("2"), 2000)
    XCTAssertEqual(try DurationParser.milliseconds("1.5s"), 1500)
    for bad in ["", "s", "-1s", "1d", "abc", "1e3", "1 s", "nan"] {
      XCTAssertThrowsError(try DurationParser.milliseconds(bad), bad)
    }
  }

  func testBoardNames() throws {
    XCTAssertEqual(try BoardName.list("general,primary,general").map(\.rawValue), ["general", "primary"])
    for bad in ["", ".hidden", "a/b", "a b", String(repeating: "x", count: 65), "a,,b", "é"] {
      XCTAssertThrowsError(try BoardName.list(bad), bad)
    }
  }

  func testTypeDetectionFromMagicBytesAndNames() {
    XCTAssertEqual(TypeDetection.types(of: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), ["image/png"])
    XCTAssertEqual(TypeDetection.types(of: [0xFF, 0xD8, 0xFF, 0xE0]), ["image/jpeg"])
    XCTAssertEqual(TypeDetection.types(of: Array("GIF89a...".utf8)), ["image/gif"])
    XCTAssertEqual(TypeDetection.types(of: Array("%PDF-1.7".utf8)), ["application/pdf"])
    XCTAssertEqual(TypeDetection.types(of: Array("plain ✓".utf8)), [MIMEType.utf8Text])
    XCTAssertEqual(TypeDetection.types(of: Array("{}".utf8), fileName: "a.json"), [MIMEType.utf8Text, "application/json"])
    XCTAssertEqual(TypeDetection.types(of: [0, 1, 2]), [MIMEType.octetStream])
    XCTAssertEqual(TypeDetection.types(of: [0xC3, 0x28]), [MIMEType.octetStream])
    XCTAssertEqual(TypeDetection.types(of: [0, 1], fileName: "x.png"), ["image/png"])
    XCTAssertEqual(TypeDetection.types(of: [0, 1], fileName: "dir.v2/noext"), [MIMEType.octetStream])
    // A prefix cut inside a UTF-8 sequence is still text.
    let cut = Array("ab✓".utf8).dropLast()
    XCTAssertEqual(TypeDetection.types(of: Array(cut), complete: false), [MIMEType.utf8Text])
    XCTAssertEqual(TypeDetection.types(of: Array(cut), complete: true), [MIMEType.octetStream])
  }

  func testTypeChoice() throws {
    let item = PasteboardItem([
      Representation(type: "image/png", bytes: [1]),
      Representation(type: "text/plain", bytes: [2]),
    ])
    XCTAssertEqual(try TypeChoice.choose(from: item, requested: nil, outputName: nil).type, "text/plain")
    XCTAssertEqual(try TypeChoice.choose(from: item, requested: nil, outputName: "x.png").type, "image/png")
    XCTAssertEqual(try TypeChoice.choose(from: item, requested: "UTF8_STRING", outputName: nil).type, "text/plain")
    XCTAssertThrowsError(try TypeChoice.choose(from: item, requested: "image/gif", outputName: nil)) { error in
      XCTAssertEqual(error as? PasteboardError, .typeNotOffered(requested: "image/gif", offered: ["image/png", "text/plain"]))
    }
    let binary = PasteboardItem([Representation(type: "application/pdf", bytes: [3])])
    XCTAssertEqual(try TypeChoice.choose(from: binary, requested: nil, outputName: nil).type, "application/pdf")
  }
}
