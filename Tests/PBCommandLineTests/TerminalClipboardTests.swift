import Foundation
import XCTest

/// `pb copy`'s OSC 52 bridge and `pb paste --from-terminal`, with tmux as
/// the terminal (a private server with `set-clipboard on`: what tmux
/// receives becomes its paste buffer, read back with show-buffer), and a
/// scripted pseudo-terminal (scripts/pty-terminal.py) where the exact
/// bytes, a hostile answer or an interruption matter. Real xterm and GNU
/// screen are in PasteboardX11Tests' TerminalEmulatorTests.
final class TerminalClipboardTests: XCTestCase {
  var pb: PBRunner!
  var pane: Pane!
  let clipboardOn = "set -g set-clipboard on\n"

  override func setUpWithError() throws {
    pb = try PBRunner()
    try pb.useRuntimeDirectory()
    // A remote session: the SSH rule applies (no DISPLAY in the runner).
    pb.environment["SSH_TTY"] = "/dev/pts/0"
    pb.environment["SSH_CONNECTION"] = "192.0.2.1 50000 192.0.2.2 22"
  }

  override func tearDown() {
    pane?.stop()
    pb.cleanUp()
  }

  /// Runs `command` in a fresh tmux pane and waits for it to end; returns
  /// its exit status.
  @discardableResult
  func inTmux(_ command: String, configuration: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
    pane?.stop()
    pane = try Pane(pb, command: command, configuration: configuration ?? clipboardOn, name: UUID().uuidString, file: file, line: line)
    var screen = ""
    waitUntil("the command in tmux to end", timeout: 20, file: file, line: line) {
      screen = (try? pane.capture()) ?? ""
      return screen.contains("[exit ")
    }
    guard let range = screen.range(of: #"\[exit (\d+)\]"#, options: .regularExpression) else {
      XCTFail("no exit status on the screen:\n\(screen)", file: file, line: line)
      return -1
    }
    return Int(screen[range].dropFirst(6).dropLast())!
  }

  /// tmux's newest paste buffer; nil when it has none.
  func tmuxBuffer() throws -> Data? {
    let result = try pb.shell("\(shellQuoted(pane.tmux)) -S \(shellQuoted(pane.socket)) show-buffer")
    return result.status == 0 ? result.stdout : nil
  }

  func write(_ data: Data, _ name: String) -> String {
    let path = pb.root + "/" + name
    FileManager.default.createFile(atPath: path, contents: data)
    return path
  }

  func file(_ name: String) -> Data { FileManager.default.contents(atPath: pb.root + "/" + name) ?? Data() }

  // MARK: tmux as the terminal

  func testCopyReachesTmuxExactlyAndStandardOutputStaysClean() throws {
    let text = Data("héllo\twörld ✓\nline two\n".utf8)
    let input = write(text, "in.txt")
    let status = try inTmux("pb copy < \(input) > \(pb.root)/out; echo $? > \(pb.root)/status; pb copy < \(input) | cat > \(pb.root)/piped")
    XCTAssertEqual(status, 0)
    XCTAssertEqual(try tmuxBuffer(), text, "tmux's buffer holds the text byte for byte")
    XCTAssertEqual(file("status"), Data("0\n".utf8))
    XCTAssertEqual(file("out"), Data(), "nothing on standard output")
    XCTAssertEqual(file("piped"), Data(), "a pipeline after pb copy gets nothing")
    XCTAssertEqual(try pb.run(["paste"]).stdout, text, "the board is written as usual")
  }

  func testTheSizeGuardAtTheLimitAndOneByteMore() throws {
    let atLimit = Data((0..<1000).map { _ in UInt8(ascii: "a") + UInt8.random(in: 0..<26) })
    let over = atLimit + Data("z".utf8)
    let a = write(atLimit, "a"), b = write(over, "b")
    var status = try inTmux("pb copy --osc52-max 1000 < \(a) && pb copy --osc52-max 1000 < \(b) 2> \(pb.root)/err")
    XCTAssertEqual(status, 0, "under auto, a text over the limit still copies (exit 0)")
    XCTAssertEqual(try tmuxBuffer(), atLimit, "exactly the limit is sent; one byte more is not")
    XCTAssertEqual(
      String(decoding: file("err"), as: UTF8.self),
      "pb: the text is 1001 bytes, over the OSC 52 limit of 1000 (--osc52-max), so it was not sent to the terminal; the board has it\n")
    XCTAssertEqual(try pb.run(["paste"]).stdout, over, "the board has the whole text")

    // Asked for explicitly: exit 3, the board still written; the limit
    // from PB_OSC52_MAX; nothing is ever sent in part.
    let c = write(over + Data("y".utf8), "c")
    status = try inTmux("PB_OSC52_MAX=1000 pb copy --osc52 < \(c) 2> \(pb.root)/err2")
    XCTAssertEqual(status, 3)
    XCTAssertNil(try tmuxBuffer(), "nothing reached tmux")
    XCTAssertTrue(String(decoding: file("err2"), as: UTF8.self).contains("is 1002 bytes, over the OSC 52 limit of 1000"))
    XCTAssertEqual(try pb.run(["paste"]).stdout, over + Data("y".utf8))
  }

  func testTheDefaultLimitIs100000Bytes() throws {
    let text = Data((0..<100_000).map { UInt8(ascii: "A") + UInt8($0 % 26) })
    let a = write(text, "a"), b = write(text + Data("!".utf8), "b")
    let status = try inTmux("pb copy < \(a) && cat \(b) | pb copy 2> \(pb.root)/err")
    XCTAssertEqual(status, 0)
    XCTAssertEqual(try tmuxBuffer(), text)
    // Read from a pipe, the size is known once the board holds it.
    XCTAssertTrue(String(decoding: file("err"), as: UTF8.self).contains("the text is 100001 bytes, over the OSC 52 limit of 100000"), String(decoding: file("err"), as: UTF8.self))
  }

  func testPrimaryAndBothSelectionsAndNamedBoards() throws {
    let status = try inTmux("printf one | pb copy -b primary && printf two | pb copy -b work 2> \(pb.root)/err && printf three | pb copy -b work --osc52 2> \(pb.root)/err3; echo $? > \(pb.root)/status")
    XCTAssertEqual(status, 0)
    XCTAssertEqual(try tmuxBuffer(), Data("one".utf8), "a board of pb's own has no terminal selection")
    XCTAssertEqual(file("err"), Data(), "under auto that is no news")
    XCTAssertEqual(file("status"), Data("3\n".utf8), "asked for explicitly, it is refused")
    XCTAssertTrue(String(decoding: file("err3"), as: UTF8.self).contains("board 'work' has no terminal selection"))
    XCTAssertEqual(try pb.run(["paste", "-b", "work"]).stdout, Data("three".utf8), "the board is written anyway")
  }

  func testSecretsOnlyWhenAskedFor() throws {
    var status = try inTmux("printf s3cret | pb copy --sensitive 2> \(pb.root)/err")
    XCTAssertEqual(status, 0)
    XCTAssertNil(try tmuxBuffer(), "under auto a secret is not sent")
    XCTAssertEqual(
      String(decoding: file("err"), as: UTF8.self),
      "pb: a sensitive text goes to the terminal only with --osc52 or PB_OSC52=always; the board has it\n")
    status = try inTmux("printf s3cret | PB_OSC52=always pb copy --sensitive")
    XCTAssertEqual(status, 0)
    XCTAssertEqual(try tmuxBuffer(), Data("s3cret".utf8))
  }

  func testTheSettingsOutsideSSHAndOff() throws {
    pb.environment["SSH_TTY"] = nil
    pb.environment["SSH_CONNECTION"] = nil
    XCTAssertEqual(try inTmux("printf local | pb copy"), 0)
    XCTAssertNil(try tmuxBuffer(), "not over SSH: the board alone")
    XCTAssertEqual(try inTmux("printf asked | pb copy --osc52"), 0)
    XCTAssertEqual(try tmuxBuffer(), Data("asked".utf8), "--osc52 sends it in any session")
    pb.environment["SSH_TTY"] = "/dev/pts/0"
    XCTAssertEqual(try inTmux("printf off | pb copy --no-osc52 && printf off | PB_OSC52=never pb copy"), 0)
    XCTAssertNil(try tmuxBuffer())
    XCTAssertEqual(try inTmux("pb copy --osc52 --no-osc52 < /dev/null 2> \(pb.root)/err"), 2)
    XCTAssertEqual(try inTmux("printf x | PB_OSC52=sometimes pb copy 2> \(pb.root)/err"), 2)
    XCTAssertEqual(String(decoding: file("err"), as: UTF8.self), "pb: PB_OSC52 must be auto, always or never, not 'sometimes'\n")
    XCTAssertEqual(try inTmux("printf x | pb copy --osc52-max lots 2> \(pb.root)/err"), 2)
  }

  func testOnlyTextIsSent() throws {
    let png = write(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]), "a.png")
    XCTAssertEqual(try inTmux("pb copy \(png) 2> \(pb.root)/err"), 0)
    XCTAssertNil(try tmuxBuffer())
    XCTAssertEqual(
      String(decoding: file("err"), as: UTF8.self),
      "pb: image/png is not text, so it was not sent to the terminal (OSC 52 carries text); the board has it\n")
    XCTAssertEqual(try inTmux("pb copy --osc52 \(png) 2> /dev/null"), 3)
  }

  func testTmuxIgnoresOSC52UnlessSetClipboardIsOnAndPbInfoSaysSo() throws {
    XCTAssertEqual(try inTmux("printf lost | pb copy; pb info > \(pb.root)/info", configuration: ""), 0)
    XCTAssertNil(try tmuxBuffer(), "tmux's default (external) ignores the sequence")
    let info = String(decoding: file("info"), as: UTF8.self)
    XCTAssertTrue(info.contains("osc52: yes\n"), info)
    XCTAssertTrue(info.contains("multiplexer: tmux\n"), info)
    XCTAssertTrue(info.contains("tmux_set_clipboard: external\n"), info)
    XCTAssertTrue(info.contains("(set -g set-clipboard on)"), info)
    XCTAssertEqual(try inTmux("pb info > \(pb.root)/info"), 0)
    let on = String(decoding: file("info"), as: UTF8.self)
    XCTAssertTrue(on.contains("osc52_reason: auto: an SSH session (SSH_TTY is set) with no X11 display (DISPLAY is unset)\n"), on)
    XCTAssertTrue(on.contains("tmux_set_clipboard: on\n"), on)
  }

  func testNestedTmuxOverSSHReachesTheOuterTmux() throws {
    // The outer tmux is the terminal of the machine in front of the user;
    // the inner one runs (in a real session, on the far side of ssh) in
    // one of its panes, and pb runs in the inner one. Both have
    // set-clipboard on; the inner one passes the text on to its terminal,
    // the outer tmux.
    let inner = pb.root + "/inner.sock"
    try clipboardOn.write(toFile: pb.root + "/inner.conf", atomically: true, encoding: .utf8)
    let text = Data("nested ✓\tacross two tmux".utf8)
    let input = write(text, "in.txt")
    let copy = "pb copy < \(input); echo $? > \(pb.root)/status; exec /bin/sleep 600"
    pane = try Pane(
      pb, command: "\(shellQuoted(try requireTool("tmux", package: "tmux"))) -S \(inner) -f \(pb.root)/inner.conf new-session \(shellQuoted(copy))",
      configuration: clipboardOn)
    defer { _ = try? pb.shell("\(shellQuoted(pane.tmux)) -S \(inner) kill-server") }
    waitUntil("the outer tmux to get a buffer", timeout: 20) { (try? tmuxBuffer()) != nil }
    XCTAssertEqual(try tmuxBuffer(), text, "the outer tmux got the text")
    XCTAssertEqual(file("status"), Data("0\n".utf8))
    XCTAssertEqual(try pb.shell("\(shellQuoted(pane.tmux)) -S \(inner) show-buffer").stdout, text, "and so did the inner one")
  }

  // MARK: no terminal

  func testNoControllingTerminal() throws {
    let explicit = try pb.shell("printf board | setsid -w pb copy --osc52")
    assertStatus(explicit, 4)
    XCTAssertTrue(explicit.stderr.contains("cannot send OSC 52: no controlling terminal"), explicit.stderr)
    XCTAssertEqual(try pb.run(["paste"]).stdout, Data("board".utf8), "the board is written")
    // Under auto (a script run by ssh without a terminal) it is no news.
    let auto = try pb.shell("printf quiet | setsid -w pb copy")
    assertStatus(auto, 0)
    XCTAssertEqual(auto.stderr, "")
    let reading = try pb.shell("setsid -w pb paste --from-terminal")
    assertStatus(reading, 4)
  }

  func testTerminalNamesTheDeviceForAProgramOutsideItsTerminal() throws {
    // As Neovim runs its clipboard commands: in a session of their own,
    // with no controlling terminal, told which terminal to use.
    pane = try Pane(pb, command: "exec /bin/sleep 600", configuration: clipboardOn, name: "still")
    let tty = try pane.tmuxCommand(["display-message", "-p", "#{pane_tty}"]).trimmingCharacters(in: .newlines)
    XCTAssertTrue(tty.hasPrefix("/dev/pts/"), tty)
    assertStatus(try pb.shell("printf 'from outside' | setsid -w pb copy --terminal \(tty)"), 0)
    XCTAssertEqual(try tmuxBuffer(), Data("from outside".utf8))
    let notATerminal = try pb.shell("printf x | setsid -w pb copy --osc52 --terminal /dev/null")
    assertStatus(notATerminal, 4)
    XCTAssertTrue(notATerminal.stderr.contains("/dev/null is not a terminal"), notATerminal.stderr)
    let auto = try pb.shell("printf y | setsid -w pb copy --terminal /nonexistent/tty")
    assertStatus(auto, 0)
    XCTAssertTrue(auto.stderr.hasPrefix("pb: cannot send OSC 52: cannot open /nonexistent/tty"), auto.stderr)
    XCTAssertEqual(try pb.run(["paste"]).stdout, Data("y".utf8))
    assertStatus(try pb.run(["copy", "--terminal", ""], input: Data("z".utf8)), 2)
  }

  // MARK: reading the terminal

  func testPasteFromTmuxWhichAnswersWithItsBuffer() throws {
    let text = Data("from tmux ✓\n\tindented".utf8)
    let input = write(text, "in.txt")
    let status = try inTmux(
      "stty -g > \(pb.root)/before; pb copy < \(input) && pb paste --from-terminal > \(pb.root)/pasted; echo $? > \(pb.root)/status; stty -g > \(pb.root)/after")
    XCTAssertEqual(status, 0)
    XCTAssertEqual(file("status"), Data("0\n".utf8))
    XCTAssertEqual(file("pasted"), text)
    XCTAssertEqual(file("before"), file("after"), "the terminal's mode is put back")
  }

  func testATerminalThatIgnoresTheQueryTimesOutWithItsModeKept() throws {
    let start = Date()
    let status = try inTmux(
      "stty -g > \(pb.root)/before; pb paste --from-terminal --timeout 700ms > \(pb.root)/pasted 2> \(pb.root)/err; echo $? > \(pb.root)/status; stty -g > \(pb.root)/after",
      configuration: "")
    XCTAssertEqual(status, 0)
    XCTAssertEqual(file("status"), Data("5\n".utf8), String(decoding: file("err"), as: UTF8.self))
    XCTAssertEqual(file("pasted"), Data(), "never an empty paste that looks like success")
    XCTAssertTrue(String(decoding: file("err"), as: UTF8.self).hasPrefix("pb: the terminal did not answer the OSC 52 query within 700 ms"))
    XCTAssertEqual(file("before"), file("after"))
    XCTAssertLessThan(Date().timeIntervalSince(start), 15)
  }

  func testInTheBackgroundPbRefusesInsteadOfStopping() throws {
    let status = try inTmux("timeout 10 pb paste --from-terminal 2> \(pb.root)/err; echo $? > \(pb.root)/status")
    XCTAssertEqual(status, 0)
    XCTAssertEqual(file("status"), Data("4\n".utf8), "plain timeout(1) runs pb in the background")
    XCTAssertTrue(String(decoding: file("err"), as: UTF8.self).contains("use timeout --foreground"))
  }

  /// Runs pb on the scripted terminal; returns pb's result (its exit
  /// status, standard output and error), what it wrote to the terminal,
  /// and the script's report line.
  func onScriptedTerminal(
    _ arguments: String, answer: [UInt8]? = nil, split: Int? = nil, interrupt: Bool = false, terminate: Bool = false
  ) throws -> (PBRunner.Result, Data, String) {
    var options = ""
    if let answer { options += " --answer \(write(Data(answer), "answer"))" }
    if let split { options += " --split \(split)" }
    if interrupt { options += " --interrupt" }
    if terminate { options += " --terminate" }
    let result = try pb.shell(
      "/usr/bin/python3 \(repositoryRoot)/scripts/pty-terminal.py \(pb.root)/record \(pb.root)/report\(options) -- pb \(arguments)")
    let report = String(decoding: file("report"), as: UTF8.self)
    XCTAssertEqual(result.status, 0, "pty-terminal.py: \(result.stderr)")
    // pb's own exit status is the report's first word.
    let status = Int32(report.split(separator: " ").first ?? "") ?? -1
    return (PBRunner.Result(status: status, stdout: result.stdout, stderr: result.stderr), file("record"), report)
  }

  func testTheExactSequenceGoesToTheTerminalAlone() throws {
    let (copy, record, report) = try onScriptedTerminal("copy -b general,primary < /dev/null --allow-empty")
    XCTAssertEqual(copy.stdout, Data())
    XCTAssertEqual(report, "0 mode-same\n")
    XCTAssertEqual(record, Data("\u{1B}]52;c;\u{07}\u{1B}]52;p;\u{07}".utf8), "an empty copy empties both selections")
    try "héllo".write(toFile: pb.root + "/t", atomically: true, encoding: .utf8)
    let (_, text, _) = try onScriptedTerminal("copy -b secondary \(pb.root)/t")
    XCTAssertEqual(text, Data("\u{1B}]52;q;aMOpbGxv\u{07}".utf8))
  }

  func testAnswersAreDecodedStrictly() throws {
    let esc: UInt8 = 0x1B
    // Typed-ahead keys before the answer, ended by ST, in two pieces.
    var (result, record, report) = try onScriptedTerminal(
      "paste --from-terminal", answer: Array("ls".utf8) + [esc] + Array("]52;c;aMOpbGxv".utf8) + [esc, 0x5C], split: 9)
    assertStatus(result, 0)
    XCTAssertEqual(result.stdout, Data("héllo".utf8))
    XCTAssertEqual(record, Data("\u{1B}]52;c;?\u{07}".utf8), "the query, and nothing else")
    XCTAssertEqual(report, "0 mode-same\n")

    (result, _, report) = try onScriptedTerminal("paste --from-terminal -b primary", answer: [esc] + Array("]52;p;aM!pbGxv".utf8) + [0x07])
    assertStatus(result, 7)
    XCTAssertTrue(result.stderr.contains("not valid base64"), result.stderr)
    XCTAssertEqual(result.stdout, Data())
    XCTAssertEqual(report, "7 mode-same\n")

    (result, _, _) = try onScriptedTerminal("paste --from-terminal", answer: [esc] + Array("]52;c;aMOp".utf8) + [esc] + Array("[A".utf8))
    assertStatus(result, 7)
    XCTAssertTrue(result.stderr.contains("cut off"), result.stderr)

    (result, _, _) = try onScriptedTerminal("paste --from-terminal", answer: [esc] + Array("]52;c;".utf8) + [0x07])
    assertStatus(result, 1)
    XCTAssertTrue(result.stderr.contains("the terminal's clipboard is empty"), result.stderr)

    (result, _, _) = try onScriptedTerminal("paste --from-terminal -o \(pb.root)/saved", answer: [esc] + Array("]52;c;aGk=".utf8) + [0x07])
    assertStatus(result, 0)
    XCTAssertEqual(file("saved"), Data("hi".utf8))
  }

  func testCtrlCWhileWaitingPutsTheModeBack() throws {
    let (result, _, report) = try onScriptedTerminal("paste --from-terminal --timeout 10s", interrupt: true)
    XCTAssertEqual(report, "130 mode-same\n", "pb dies of SIGINT, as Ctrl-C means, with the mode restored")
    XCTAssertEqual(result.stdout, Data())
  }

  func testSIGTERMWhileWaitingPutsTheModeBack() throws {
    let (result, _, report) = try onScriptedTerminal("paste --from-terminal --timeout 10s", terminate: true)
    XCTAssertEqual(report, "143 mode-same\n")
    XCTAssertEqual(result.stdout, Data())
  }

  func testUsageOfFromTerminal() throws {
    assertStatus(try pb.run(["paste", "--from-terminal", "--history", "1"]), 2)
    assertStatus(try pb.run(["paste", "--from-terminal", "-b", "work"]), 2)
  }
}
