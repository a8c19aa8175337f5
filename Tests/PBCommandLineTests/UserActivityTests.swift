import Foundation
import XCTest

/// Activities users define in `$XDG_CONFIG_HOME/pb/activities/`: their
/// argument vectors reach the program exactly, never through a shell;
/// their temporary files are private and always removed; failures, hangs
/// and kills are reported with the activity's name.
final class UserActivityTests: XCTestCase {
  var pb: PBRunner!
  var folder: String { pb.root + "/config/pb/activities" }
  var log: String { pb.root + "/log" }

  override func setUpWithError() throws {
    pb = try PBRunner()
    try pb.useRuntimeDirectory()
    pb.environment["XDG_CONFIG_HOME"] = pb.root + "/config"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: log, withIntermediateDirectories: true)
    // A program that records its arguments (NUL-separated), its standard
    // input, and the files it is given, with their modes.
    try script("record", """
      #!/bin/sh
      out="\(log)"
      for a in "$@"; do printf '%s\\0' "$a"; done > "$out/argv"
      cat > "$out/stdin"
      for a in "$@"; do
        if [ -f "$a" ]; then
          stat -c '%a %U' "$a" >> "$out/modes"; stat -c '%a' "$(dirname "$a")" >> "$out/dirmodes"; echo "$a" >> "$out/files"
        fi
      done
      env | grep -E '^PB_(ACTIVITY|ITEM)' | sort > "$out/env"
      printf 'recorded'
      """)
  }

  override func tearDown() { pb.cleanUp() }

  @discardableResult
  func script(_ name: String, _ text: String) throws -> String {
    let path = pb.root + "/" + name
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o755)
    return path
  }

  func activity(_ name: String, _ lines: [String]) throws {
    let path = folder + "/" + name + ".activity"
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    chmod(path, 0o644)
  }

  func recorded(_ name: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: log + "/" + name) ?? Data()) }

  func testArgumentsAndItemsReachTheProgramLiterally() throws {
    try activity("record", [
      "# an activity for the test", "type = com.example.record", "title = Record it", "category = share",
      "accepts = text/*", "output = items",
      "arg = \(pb.root)/record", "arg = two  spaces", #"arg = "quoted" and 'single'"#, "arg = $(touch \(pb.root)/pwned)",
      #"arg = line\none"#, "arg = `date`; rm -rf /", "arg = *", #"arg = \sleading blank"#,
    ])
    let item = "item with $(touch \(pb.root)/pwned-too) and\nnewlines `x` \"q\"\n"
    let result = try pb.run(["share", "--activity", "com.example.record", item])
    assertStatus(result, 0)
    XCTAssertEqual(result.text, "recorded", "output = items: the program's output is the returned item")
    let argv = recorded("argv").split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
    XCTAssertEqual(argv, [
      "two  spaces", #""quoted" and 'single'"#, "$(touch \(pb.root)/pwned)", "line\none", "`date`; rm -rf /", "*", " leading blank",
    ])
    XCTAssertEqual(String(decoding: recorded("stdin"), as: UTF8.self), item)
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/pwned"), "an argument went through a shell")
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/pwned-too"))
    XCTAssertEqual(
      String(decoding: recorded("env"), as: UTF8.self),
      "PB_ACTIVITY_TYPE=com.example.record\nPB_ITEM_COUNT=1\nPB_ITEM_TYPES=text/plain;charset=utf-8\n")
    XCTAssertTrue(try pb.run(["share", "--list", "x"]).text.contains("com.example.record\tRecord it\n"))
    XCTAssertEqual(try pb.run(["share", "--activity", "record", "x"]).status, 0, "the last part of the type names it too")
  }

  /// pb-activity(5): `output = none` (also the default) discards what the
  /// program prints, on standard output and with --to-board; only
  /// `output = items` makes it the returned item.
  func testOutputNoneDiscardsWhatTheProgramPrints() throws {
    try script("talk", "#!/bin/sh\necho ran >> \(log)/runs\nprintf 'program output'\n")
    try activity("quiet", ["type = com.example.quiet", "title = Quiet", "output = none", "arg = \(pb.root)/talk"])
    try activity("default", ["type = com.example.default", "title = Default", "arg = \(pb.root)/talk"])
    try activity("loud", ["type = com.example.loud", "title = Loud", "output = items", "arg = \(pb.root)/talk"])
    assertStatus(try pb.run(["copy"], input: Data("board".utf8)), 0)
    for type in ["quiet", "default"] {
      let result = try pb.run(["share", "--activity", type, "x"])
      assertStatus(result, 0)
      XCTAssertEqual(result.text, "", "\(type): the program's output reached pb's")
      XCTAssertEqual(result.stderr, "")
      assertStatus(try pb.run(["share", "--activity", type, "--to-board", "x"]), 0)
      XCTAssertEqual(try pb.run(["paste"]).text, "board", "\(type): the program's output reached the board")
    }
    XCTAssertEqual(String(decoding: recorded("runs"), as: UTF8.self), "ran\nran\nran\nran\n", "the program ran each time")
    XCTAssertEqual(try pb.run(["share", "--activity", "loud", "x"]).text, "program output")
    assertStatus(try pb.run(["share", "--activity", "loud", "--to-board", "x"]), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "program output")
  }

  func testItemsAsPrivateFilesThatAreRemoved() throws {
    try activity("files", [
      "type = com.example.files", "title = Files", "input = files", "items = 1-3",
      "arg = \(pb.root)/record", "arg = --first={file}", "arg = {files}",
    ])
    let result = try pb.run(["share", "--activity", "files", "one", "two"])
    assertStatus(result, 0)
    let files = String(decoding: recorded("files"), as: UTF8.self).split(separator: "\n").map(String.init)
    XCTAssertEqual(files.count, 2, "{files} gave both: \(files)")
    let argv = recorded("argv").split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    XCTAssertEqual(argv.first, "--first=" + files[0])
    XCTAssertEqual(String(decoding: recorded("modes"), as: UTF8.self), "600 root\n600 root\n")
    XCTAssertEqual(String(decoding: recorded("dirmodes"), as: UTF8.self), "700\n700\n")
    XCTAssertTrue(files[0].hasPrefix(pb.environment["XDG_RUNTIME_DIR"]! + "/"), "under the runtime directory: \(files[0])")
    for file in files { XCTAssertFalse(FileManager.default.fileExists(atPath: file), "\(file) was left behind") }
    XCTAssertFalse(FileManager.default.fileExists(atPath: URL(fileURLWithPath: files[0]).deletingLastPathComponent().path))
    XCTAssertFalse(try pb.run(["share", "--list", "a", "b", "c", "d"]).text.contains("com.example.files"), "items = 1-3")
  }

  func testAFailingHangingOrKilledProgramIsReportedAndCleanedUp() throws {
    try script("fail", "#!/bin/sh\necho 'upload refused' >&2\nexit 3\n")
    try script("hang", "#!/bin/sh\necho $$ > \(log)/hang.pid\n(sleep 60; echo orphan > \(log)/orphan) &\necho $! > \(log)/child.pid\nwait\n")
    try script("die", "#!/bin/sh\nkill -KILL $$\n")
    try activity("fail", ["type = com.example.fail", "title = Failing upload", "arg = \(pb.root)/fail"])
    try activity("hang", ["type = com.example.hang", "title = Hanging upload", "input = files", "timeout = 500ms", "arg = \(pb.root)/hang", "arg = {file}"])
    try activity("die", ["type = com.example.die", "title = Dying upload", "arg = \(pb.root)/die"])
    let failed = try pb.run(["share", "--activity", "fail", "x"])
    assertStatus(failed, 7)
    XCTAssertTrue(failed.stderr.contains("Failing upload (com.example.fail) failed"), failed.stderr)
    XCTAssertTrue(failed.stderr.contains("exit status 3: upload refused"), "its error line is quoted: \(failed.stderr)")
    let start = Date()
    let hung = try pb.run(["share", "--activity", "hang", "x"])
    XCTAssertLessThan(Date().timeIntervalSince(start), 5, "the timeout is 500 ms")
    XCTAssertEqual(hung.status, 7, hung.stderr)
    XCTAssertTrue(hung.stderr.contains("Hanging upload (com.example.hang) did not finish within 500 ms"), hung.stderr)
    let child = Int32(String(decoding: recorded("child.pid"), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    XCTAssertGreaterThan(child, 0)
    XCTAssertTrue(eventually(3000) { kill(child, 0) != 0 }, "the program's child outlived the timeout: its group was not ended")
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: pb.environment["XDG_RUNTIME_DIR"]!).filter { $0.hasPrefix("pb-scratch") }, [])
    let died = try pb.run(["share", "--activity", "die", "x"])
    assertStatus(died, 7)
    XCTAssertTrue(died.stderr.contains("Dying upload (com.example.die) failed") && died.stderr.contains("signal 9"), died.stderr)
  }

  /// pb interrupted while its activity runs: the program's group gets
  /// SIGTERM and the temporary files go.
  func testAnInterruptedShareLeavesNothingBehind() throws {
    try script("slow", "#!/bin/sh\necho \"$1\" > \(log)/file\nsleep 30\n")
    try activity("slow", ["type = com.example.slow", "title = Slow", "input = files", "arg = \(pb.root)/slow", "arg = {file}"])
    let result = try pb.shell("""
      set -m
      pb share --activity slow secret-item & pid=$!
      for i in $(seq 250); do [ -s log/file ] && break; sleep 0.02; done
      kill -TERM $pid; wait $pid; echo "status $?"
      """)
    XCTAssertEqual(result.text, "status 143\n", result.stderr)
    let file = String(decoding: recorded("file"), as: UTF8.self).trimmingCharacters(in: .newlines)
    XCTAssertFalse(file.isEmpty)
    XCTAssertFalse(FileManager.default.fileExists(atPath: file), "the temporary file outlived pb")
    XCTAssertTrue(
      eventually(3000) { (try? self.pb.shell("pgrep -f '\(self.pb.root)/slow'").status) == 1 }, "the program outlived pb")
  }

  func testBadFilesAreReportedAndTheOthersStillWork() throws {
    try activity("good", ["type = com.example.good", "title = Good", "arg = \(pb.root)/record"])
    try activity("bad", [
      "type = pb.reserved", "title = Bad", "colour = blue", "items = 0", "accepts = notatype", "timeout = soon",
      "arg = x\\q", "input = sideways",
    ])
    try activity("empty", ["# nothing"])
    try activity("writable", ["type = com.example.writable", "title = W", "arg = /bin/true"])
    chmod(folder + "/writable.activity", 0o666)
    let result = try pb.run(["share", "--list", "x"])
    assertStatus(result, 0)
    XCTAssertTrue(result.text.contains("com.example.good\tGood\n"), result.text)
    XCTAssertFalse(result.text.contains("writable"), result.text)
    let bad = folder + "/bad.activity"
    for expected in [
      "\(bad):1: 'pb.reserved' is not an activity type", "\(bad):3: unknown key 'colour'", "\(bad):4: items is N",
      "\(bad):5: 'notatype' is not a MIME pattern", "\(bad):6: 'soon' is not a duration", "\(bad):7: unknown escape",
      "\(bad):8: input is stdin, files or none", "\(folder)/empty.activity: no 'type'", "\(folder)/writable.activity: may be written by group or others",
    ] {
      XCTAssertTrue(result.stderr.contains("pb: " + expected), "missing '\(expected)' in:\n\(result.stderr)")
    }
    XCTAssertEqual(try pb.run(["share", "--activity", "good", "x"]).status, 0)
  }
}
