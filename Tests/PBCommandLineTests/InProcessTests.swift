import Foundation
import PasteboardKit
import XCTest

@testable import PBCommandLine

/// Commands run in this process with their standard streams given as
/// descriptors (CommandIO): what lets a prompt be tested without a
/// terminal as well as through one.
final class InProcessTests: XCTestCase {
  var store: String!

  override func setUpWithError() throws {
    store = NSTemporaryDirectory() + "pb-inprocess-" + UUID().uuidString
    setenv("PB_DIR", store, 1)
    setenv("PB_BACKEND", "file", 1)
  }

  override func tearDown() {
    unsetenv("PB_DIR")
    unsetenv("PB_BACKEND")
    try? FileManager.default.removeItem(atPath: store)
  }

  /// A file holding `bytes`, open for reading, and an empty file open for
  /// writing, with their paths.
  func streams(input bytes: [UInt8]) throws -> (CommandIO, output: String, error: String) {
    let base = NSTemporaryDirectory() + "pb-io-" + UUID().uuidString
    _ = FileManager.default.createFile(atPath: base + ".in", contents: Data(bytes))
    _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
    _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
    addTeardownBlock { for s in [".in", ".out", ".err"] { try? FileManager.default.removeItem(atPath: base + s) } }
    let io = CommandIO(
      input: try Descriptor.open(base + ".in", O_RDONLY), output: try Descriptor.open(base + ".out", O_WRONLY),
      error: try Descriptor.open(base + ".err", O_WRONLY), openTerminal: { throw PasteboardError.unavailable("no terminal in process") })
    return (io, base + ".out", base + ".err")
  }

  func read(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

  func testCommandsUseTheStreamsTheyAreGiven() throws {
    let (copyIO, copyOut, _) = try streams(input: Array("from a descriptor\n".utf8))
    XCTAssertEqual(PB.main(["pb", "copy"], io: copyIO), 0)
    XCTAssertEqual(read(copyOut), "")
    let (pasteIO, pasteOut, _) = try streams(input: [])
    XCTAssertEqual(PB.main(["pb", "paste"], io: pasteIO), 0)
    XCTAssertEqual(read(pasteOut), "from a descriptor\n")
    let (countIO, countOut, _) = try streams(input: [])
    XCTAssertEqual(PB.main(["pb", "count", "--json"], io: countIO), 0)
    XCTAssertEqual(read(countOut), #"{"board":"general","count":1}"# + "\n")
  }

  func testErrorsGoToTheGivenErrorStream() throws {
    let (io, out, err) = try streams(input: [])
    XCTAssertEqual(PB.main(["pb", "paste", "-b", "never-written"], io: io), 1)
    XCTAssertEqual(read(out), "")
    XCTAssertEqual(read(err), "pb: board 'never-written' is empty\n")
    let (usageIO, _, usageErr) = try streams(input: [])
    XCTAssertEqual(PB.main(["pb", "copy", "--bogus"], io: usageIO), 2)
    XCTAssertEqual(read(usageErr), "pb: unknown option '--bogus' for 'pb copy'\n")
  }
}
