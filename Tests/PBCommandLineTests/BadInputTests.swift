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
    // A later file that is missing fails the copy before anything is read.
    try Data("first".utf8).write(to: URL(fileURLWithPath: pb.root + "/first.txt"))
    assertStatus(try pb.run(["copy", pb.root + "/first.txt", pb.root + "/missing.txt"]), 7)
    try assertBoardUntouched()
    // Root reads any file, so the unreadable case runs as nobody.
    let user = try pb.unprivileged()
    assertStatus(try user.run(["copy"], input: Data("original".utf8)), 0)
    let locked = pb.root + "/nobody/locked"
    try Data("locked".utf8).write(to: URL(fileURLWithPath: locked))
    chmod(locked, 0o600)  // root's, unreadable for nobody
    let result = try user.run(["copy", locked])
    assertStatus(result, 7)
    XCTAssertTrue(result.stderr.contains("Permission denied"), result.stderr)
    XCTAssertEqual(try user.run(["paste"]).text, "original")
  }

  /// pb(1): a store pb cannot write is unusable (4), not an I/O failure.
  func testAReadOnlyStoreIsUnavailable() throws {
    let user = try pb.unprivileged()
    assertStatus(try user.run(["copy"], input: Data("before".utf8)), 0)
    chmod(user.store + "/boards", 0o500)
    let result = try user.run(["copy"], input: Data("after".utf8))
    assertStatus(result, 4)
    XCTAssertTrue(result.stderr.contains("read-only"), result.stderr)
    XCTAssertEqual(try user.run(["paste"]).text, "before", "reading a read-only store still works")
    chmod(user.store, 0o500)
    chmod(user.store + "/boards", 0o700)
    try FileManager.default.removeItem(atPath: user.store + "/history")
    assertStatus(try user.run(["copy"], input: Data("after".utf8)), 4)
    chmod(user.store, 0o700)
  }

  func testNumbersAndDurationsAreStrict() throws {
    for (arguments, message) in [
      (["copy", "--pastes", "+3"], "needs a whole number, not '+3'"),
      (["copy", "--pastes", " 3"], "needs a whole number"),
      (["paste", "--history", "+1"], "needs a whole number, not '+1'"),
      (["clear", "--if-count", "0x10"], "needs a whole number"),
      (["clear", "--if-count", "99999999999999999999"], "is too large"),
      (["copy", "--pastes", "99999999999999999999"], "is too large"),
      (["copy", "--expire", "99999999999h"], "the duration '99999999999h' is too large"),
      (["copy", "--expire", "+3s"], "is not a duration"),
      (["copy", "--expire", ".5s"], "is not a duration"),
    ] {
      let result = try pb.run(arguments, input: Data("x".utf8))
      assertStatus(result, 2)
      XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
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

  /// A copy interrupted after it has streamed into its temporary file
  /// (past the 64 KiB read for type detection) removes the file, whichever
  /// of SIGTERM, SIGINT and SIGHUP ends it. (`set -m`: a script's
  /// background job otherwise starts with SIGINT ignored.)
  func testInterruptedCopyLeavesNothingBehind() throws {
    for (signal, status) in [("TERM", 143), ("INT", 130), ("HUP", 129)] {
      let result = try pb.shell("""
        set -m
        mkfifo input-\(signal); pb copy < input-\(signal) & pid=$!
        exec 3> input-\(signal); head -c 300000 /dev/zero >&3
        for i in $(seq 250); do
          [ -n "$(find "$PB_DIR/boards" -name '.pb-tmp-*' -size +200k)" ] && break; sleep 0.02
        done
        echo "streamed $(find "$PB_DIR/boards" -name '.pb-tmp-*' -size +200k | wc -l)"
        kill -\(signal) $pid; wait $pid; echo "status $?"; exec 3>&-
        ls -A "$PB_DIR/boards"
        """)
      XCTAssertEqual(result.text, "streamed 1\nstatus \(status)\ngeneral\n", "SIG\(signal): \(result.stderr)")
      try assertBoardUntouched()
    }
  }

  /// A signal the caller ignores (`nohup`) stays ignored: pb's cleanup
  /// handler does not take it over.
  func testIgnoredHangupStaysIgnored() throws {
    let result = try pb.shell("""
      mkfifo input; nohup pb copy < input > /dev/null 2>&1 & pid=$!
      exec 3> input; printf 'survives a hangup' >&3
      # Wait until pb has set its handlers: SIGTERM (bit 15) is caught.
      for i in $(seq 250); do
        (( 0x$(awk '/^SigCgt/ {print $2}' /proc/$pid/status) & 0x4000 )) && break; sleep 0.02
      done
      kill -HUP $pid; exec 3>&-; wait $pid; echo "status $?"
      """)
    XCTAssertEqual(result.text, "status 0\n", result.stderr)
    XCTAssertEqual(try pb.run(["paste"]).text, "survives a hangup")
  }

  func testHelpWorksWithNoDisplayAndNoStore() throws {
    var bare = pb!
    bare.environment = ["PATH": "/usr/bin:/bin"]
    for command in ["copy", "paste", "types", "clear", "boards", "count", "history", "info", "share", "help"] {
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
