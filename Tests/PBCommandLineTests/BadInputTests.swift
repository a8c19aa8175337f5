import Foundation
import XCTest

/// Bad input gets one clear `pb:` line and the documented status, and
/// leaves the board and any output file untouched.
final class BadInputTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws {
    pb = try PBRunner()
    assertStatus(try pb.run(["copy"], input: Data("original".utf8)), 0)
  }

  override func tearDown() { pb.cleanUp() }

  func assertBoardUntouched(file: StaticString = #filePath, line: UInt = #line) throws {
    XCTAssertEqual(try pb.run(["paste"]).text, "original", file: file, line: line)
    XCTAssertEqual(try pb.run(["count"]).text, "1\n", file: file, line: line)
  }

  func testUsageErrorsExitTwo() throws {
    for arguments in [
      ["copy", "--bogus"], ["copy", "-Z"], ["paste", "-t"], ["paste", "--output"], ["copy", "--ty=text/plain"],
      ["frobnicate"], [], ["copy", "--backend", "wayland"], ["paste", "extra"], ["copy", "--expire", "soon"],
      ["copy", "--pastes", "0"], ["copy", "-b", "bad/name"], ["clear", "--if-count", "x"], ["copy", "--also", "nofile"],
      ["paste", "-b", "general,primary"], ["copy", "-t", "not a type"], ["count", "--json=yes"],
    ] {
      let result = try pb.run(arguments, input: Data("new".utf8))
      assertStatus(result, 2)
      XCTAssertFalse(result.stderr.isEmpty, "\(arguments)")
    }
    try assertBoardUntouched()
  }

  func testMessagesNameTheProblem() throws {
    XCTAssertEqual(try pb.run(["copy", "--bogus"]).stderr, "pb: unknown option '--bogus' for 'pb copy'\n")
    XCTAssertTrue(try pb.run(["copy", "--apend"]).stderr.contains("did you mean '--append'?"))
    XCTAssertEqual(try pb.run(["paste", "-o"]).stderr, "pb: option '-o' needs a value (FILE)\n")
    XCTAssertTrue(try pb.run(["paste", "-t", "image/png"]).stderr.contains("offered: text/plain;charset=utf-8"))
  }

  func testParsingFormsAllWork() throws {
    assertStatus(try pb.run(["copy", "-nb", "packed"], input: Data("p\n".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste", "--board=packed"]).text, "p")
    assertStatus(try pb.run(["copy", "-bvalue"], input: Data("v".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste", "-b", "value"]).text, "v")
    try Data("dash file".utf8).write(to: URL(fileURLWithPath: pb.root + "/-dash"))
    assertStatus(try pb.shell("pb copy -b dash -- -dash"), 0)
    XCTAssertEqual(try pb.run(["paste", "-b", "dash"]).text, "dash file")
    XCTAssertEqual(try pb.run(["-b", "dash", "paste"]).text, "dash file")
  }

  func testMissingOrUnreadableInputFileExitsSeven() throws {
    assertStatus(try pb.run(["copy", pb.root + "/missing.txt"]), 7)
    assertStatus(try pb.run(["copy", pb.root]), 7)
    assertStatus(try pb.run(["copy", "--also", "text/html=" + pb.root + "/missing.html"], input: Data("x".utf8)), 7)
    if getuid() != 0 {
      try Data("locked".utf8).write(to: URL(fileURLWithPath: pb.root + "/locked"))
      chmod(pb.root + "/locked", 0)
      assertStatus(try pb.run(["copy", pb.root + "/locked"]), 7)
    }
    try assertBoardUntouched()
  }

  func testOutputDashIsStandardOutputAndLinksAreWrittenThrough() throws {
    XCTAssertEqual(try pb.run(["paste", "-o", "-"]).text, "original")
    let target = pb.root + "/target.txt"
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: pb.root + "/link.txt", withDestinationPath: target)
    assertStatus(try pb.run(["paste", "-o", pb.root + "/link.txt"]), 0)
    XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "original")
    XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: pb.root + "/link.txt"), target)
  }

  /// A FIFO stands in for devices such as /dev/null (the same code path;
  /// a test must never risk replacing the machine's /dev/null).
  func testOutputToAFIFOIsWrittenDirectly() throws {
    let fifo = pb.root + "/fifo"
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let result = try pb.shell("cat fifo > from-fifo & pb paste -o fifo; wait; cat from-fifo")
    assertStatus(result, 0)
    XCTAssertEqual(result.text, "original")
    var st = stat()
    XCTAssertEqual(stat(fifo, &st), 0)
    XCTAssertEqual(st.st_mode & S_IFMT, S_IFIFO, "the FIFO must stay a FIFO")
  }

  func testOutputIntoAMissingDirectoryExitsSevenAndLeavesNothing() throws {
    assertStatus(try pb.run(["paste", "-o", pb.root + "/no/such/dir/out.txt"]), 7)
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/no"))
  }

  func testFailedPasteLeavesTheOutputFileUntouched() throws {
    let out = pb.root + "/keep.txt"
    try Data("previous".utf8).write(to: URL(fileURLWithPath: out))
    assertStatus(try pb.run(["paste", "-t", "image/png", "-o", out]), 6)
    assertStatus(try pb.run(["paste", "-b", "empty", "-o", out]), 1)
    XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "previous")
    // A paste that fails while writing (file size limit) leaves it too.
    assertStatus(try pb.shell("head -c 300000 /dev/zero | tr '\\\\0' x | pb copy -b big"), 0)
    let limited = try pb.shell("ulimit -f 100; pb paste -b big -o keep.txt")
    XCTAssertEqual(limited.status, 7, limited.stderr)
    XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "previous")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: pb.root).filter { $0.hasPrefix(".pb-tmp") }
    XCTAssertEqual(leftovers, [])
  }

  func testFullDiskDuringCopyLeavesTheBoardUntouched() throws {
    // A file-size limit stands in for a full disk: writes fail with EFBIG.
    let result = try pb.shell("head -c 400000 /dev/zero | (ulimit -f 100; pb copy)")
    XCTAssertEqual(result.status, 7, result.stderr)
    XCTAssertTrue(result.stderr.hasPrefix("pb: cannot write"), result.stderr)
    try assertBoardUntouched()
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: pb.store + "/boards")
    XCTAssertEqual(leftovers, ["general"])
  }

  func testInterruptedCopyLeavesNothingBehind() throws {
    let result = try pb.shell("""
      (sleep 0.3; head -c 1000 /dev/zero; sleep 2) | pb copy & pid=$!
      sleep 0.6; kill -TERM $pid; wait $pid; echo "status $?"
      ls -A "$PB_DIR/boards"
      """)
    XCTAssertTrue(result.text.contains("status 143"), result.text)
    XCTAssertTrue(result.text.hasSuffix("general\n"), "only the board remains: \(result.text)")
    try assertBoardUntouched()
  }

  func testHelpWorksWithNoDisplayAndNoStore() throws {
    var bare = pb!
    bare.environment = ["PATH": "/usr/bin:/bin"]
    for command in ["copy", "paste", "types", "clear", "boards", "count", "history", "info", "help"] {
      let viaFlag = try bare.run([command, "--help"])
      assertStatus(viaFlag, 0)
      XCTAssertTrue(viaFlag.text.contains("USAGE: pb \(command)"), viaFlag.text)
      XCTAssertEqual(try bare.run(["help", command]).stdout, viaFlag.stdout, "pb help \(command)")
      XCTAssertEqual(try bare.run([command, "-h"]).stdout, viaFlag.stdout)
    }
    assertStatus(try bare.run(["--help"]), 0)
    XCTAssertTrue(try bare.run(["--version"]).text.hasPrefix("pb "))
    let noStore = try bare.run(["paste"])
    assertStatus(noStore, 4)
    XCTAssertTrue(noStore.stderr.contains("HOME"), noStore.stderr)
  }
}
