import Foundation
import XCTest

/// `pb share --activity print` against a real CUPS: a private cupsd
/// (started once for the class) with a cups-pdf queue, so every job
/// becomes a PDF file the test can read (pdftotext, pdfimages).
final class SharePrintTests: XCTestCase {
  nonisolated(unsafe) static var cups: PrivateCUPS?
  nonisolated(unsafe) static var startFailure: String?

  override class func setUp() {
    do {
      cups = try PrivateCUPS()
    } catch {
      startFailure = "\(error)"
    }
  }

  override class func tearDown() {
    cups?.stop()
    cups = nil
  }

  var pb: PBRunner!
  var cups: PrivateCUPS!

  override func setUpWithError() throws {
    pb = try PBRunner()
    guard let server = SharePrintTests.cups else {
      XCTFail(SharePrintTests.startFailure ?? "no CUPS server")
      throw MissingTool(description: SharePrintTests.startFailure ?? "no CUPS server")
    }
    cups = server
    pb.environment.merge(server.clientEnvironment) { $1 }
  }

  override func tearDown() { pb.cleanUp() }

  func pdfText(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
    let run = try runTool(["/usr/bin/pdftotext", "-layout", path, "-"], file: file, line: line)
    XCTAssertTrue(run.succeeded, "pdftotext: \(run.stderr)", file: file, line: line)
    return run.stdout
  }

  func assertIsPDF(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let head = try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).readData(ofLength: 5)
    XCTAssertEqual(String(decoding: head, as: UTF8.self), "%PDF-", "\(path) is not a PDF", file: file, line: line)
  }

  func testPrintsTextFromTheBoard() throws {
    try cups.makeDefault()
    // Latin-1 text: the PostScript that CUPS makes for cups-pdf draws
    // other scripts (Cyrillic, CJK) with bitmap fonts that have no map
    // back to Unicode, so pdftotext could not show that they arrived.
    let text = "Printed by pb: Grüße, café\nsecond line of the job\n"
    try pb.run(["copy"], input: Data(text.utf8))
    XCTAssertTrue(listedTypes(try pb.run(["share", "--list"])).contains("pb.print"))
    let r = try pb.run(["share", "--activity", "print"])
    assertStatus(r, 0)
    XCTAssertTrue(r.text.hasPrefix("request id is \(cups.queue)-"), r.text)
    guard let pdf = try cups.pdf(ofJobIn: r.text) else { return }
    try assertIsPDF(pdf)
    let printed = try pdfText(pdf)
    XCTAssertTrue(printed.contains("Printed by pb: Grüße, café"), printed)
    XCTAssertTrue(printed.contains("second line of the job"), printed)
  }

  func testPrintsAPDFFile() throws {
    try cups.makeDefault()
    try SharePrintTests.pdf(saying: "pb printed this PDF file").write(to: URL(fileURLWithPath: pb.root + "/doc.pdf"))
    XCTAssertTrue(try pdfText(pb.root + "/doc.pdf").contains("pb printed this PDF file"), "the test's own PDF")
    // A relative path: pb runs in the runner's directory, lp elsewhere.
    let r = try pb.run(["share", "--activity", "print", "--file", "doc.pdf"])
    assertStatus(r, 0)
    guard let pdf = try cups.pdf(ofJobIn: r.text) else { return }
    try assertIsPDF(pdf)
    XCTAssertTrue(try pdfText(pdf).contains("pb printed this PDF file"))
  }

  func testPrintsAPNGFromTheBoard() throws {
    try cups.makeDefault()
    let png = try makePNG(width: 64, height: 48)
    try pb.run(["copy", "-t", "image/png"], input: png)
    let r = try pb.run(["share", "--activity", "print"])
    assertStatus(r, 0)
    guard let pdf = try cups.pdf(ofJobIn: r.text) else { return }
    try assertIsPDF(pdf)
    let images = try runTool(["/usr/bin/pdfimages", "-list", pdf])
    // A header of two lines, then one line per image.
    let rows = images.stdout.split(separator: "\n").dropFirst(2)
    XCTAssertGreaterThanOrEqual(rows.count, 1, "no image in the printed PDF: \(images.stdout)")
  }

  func testOfferedOnlyWithLpAndADestination() throws {
    try pb.run(["copy"], input: Data("print me\n".utf8))
    try cups.makeDefault()
    XCTAssertTrue(listedTypes(try pb.run(["share", "--list"])).contains("pb.print"))
    // The same server asked on localhost over TCP.
    var tcp = pb!
    tcp.environment["CUPS_SERVER"] = "localhost:\(cups.port)"
    XCTAssertTrue(listedTypes(try tcp.run(["share", "--list"])).contains("pb.print"), "CUPS_SERVER=localhost:\(cups.port)")

    // lp missing (lpstat still there to say the destination).
    var noLp = pb!
    noLp.environment["PATH"] = try pathWithout(["lp"], in: pb.root + "/bin")
    XCTAssertFalse(listedTypes(try noLp.run(["share", "--list"])).contains("pb.print"))
    var r = try noLp.run(["share", "--activity", "print"])
    assertStatus(r, 3)
    XCTAssertTrue(r.stderr.contains("pb.print"), r.stderr)

    // A CUPS that answers but has no default destination.
    try cups.removeDefault()
    defer { try? cups.makeDefault() }
    let list = try pb.run(["share", "--list"])
    XCTAssertFalse(listedTypes(list).contains("pb.print"), list.text)
    XCTAssertTrue(listedTypes(list).contains("pb.mail"), list.text)
    r = try pb.run(["share", "--activity", "print"])
    assertStatus(r, 3)

    // No CUPS at all where CUPS_SERVER points.
    var nowhere = pb!
    nowhere.environment["CUPS_SERVER"] = pb.root + "/no-cups.sock"
    XCTAssertFalse(listedTypes(try nowhere.run(["share", "--list"])).contains("pb.print"))
    nowhere.environment["CUPS_SERVER"] = "localhost:\(try PrivateCUPS.freePort())"
    XCTAssertFalse(listedTypes(try nowhere.run(["share", "--list"])).contains("pb.print"))
  }

  func testListingRunsNoProgramToFindTheDestination() throws {
    try cups.makeDefault()
    try pb.run(["copy"], input: Data("print me\n".utf8))
    // An lpstat that only leaves a trace: listing must not need it (a
    // process per --list would cost more than a whole pb paste).
    let bin = pb.root + "/traced-bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try writeScript(bin + "/lpstat", "#!/bin/sh\ntouch \"$0.ran\"\nexit 1\n")
    var traced = pb!
    traced.environment["PATH"] = bin + ":" + (pb.environment["PATH"] ?? "")
    XCTAssertTrue(listedTypes(try traced.run(["share", "--list"])).contains("pb.print"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: bin + "/lpstat.ran"), "pb ran lpstat to list")
  }

  func testAFailingLpFailsTheActivity() throws {
    // PRINTER names the destination: offered, and lp refuses it.
    pb.environment["PRINTER"] = "no-such-queue"
    let r = try pb.run(["share", "--activity", "print", "never printed"])
    assertStatus(r, 7)
    XCTAssertTrue(r.stderr.contains("pb.print"), r.stderr)
    XCTAssertTrue(r.stderr.contains("lp"), r.stderr)
  }

  /// A one-page PDF that shows `text` in Helvetica.
  static func pdf(saying text: String) -> Data {
    let content = "BT /F1 24 Tf 72 720 Td (\(text)) Tj ET"
    let objects = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
      "<< /Length \(content.utf8.count) >>\nstream\n\(content)\nendstream",
      "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
    ]
    var out = "%PDF-1.4\n"
    var offsets: [Int] = []
    for (i, object) in objects.enumerated() {
      offsets.append(out.utf8.count)
      out += "\(i + 1) 0 obj\n\(object)\nendobj\n"
    }
    let xref = out.utf8.count
    out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
    for offset in offsets { out += String(format: "%010d 00000 n \n", offset) }
    out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
    return Data(out.utf8)
  }
}
