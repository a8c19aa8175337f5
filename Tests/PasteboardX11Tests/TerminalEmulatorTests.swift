import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// OSC 52 against real terminals: pb in an xterm on the test's private
/// display over a simulated SSH session (no display for pb, so its board
/// is a file store), directly, in tmux inside the xterm, and in GNU screen
/// inside the xterm; the xterm's selections are read with xclip.
final class TerminalEmulatorTests: X11TestCase {
  private var terminals: [Xterm] = []

  override func setUpWithError() throws {
    guard Xterm.checkTools() else { throw TestFailure("missing tools") }
    try super.setUpWithError()
  }

  override func tearDown() {
    terminals.forEach { $0.stop() }
    terminals = []
    super.tearDown()
  }

  /// The tmux configuration pb's README recommends: tmux keeps what a
  /// pane sends and passes it on, to the clipboard (tmux 3.3a passes an
  /// empty selection, which xterm puts in PRIMARY).
  static let recommendedTmux = """
    set -g set-clipboard on
    set -as terminal-overrides ',xterm*:Ms=\\E]52;c%p1%.0s;%p2%s\\7'

    """

  private func xterm(
    allowing: [String] = ["SetSelection"], _ multiplexer: Xterm.Multiplexer = .none, script: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> Xterm {
    let x = try Xterm(self, allowing: allowing, multiplexer: multiplexer, script: script, file: file, line: line)
    terminals.append(x)
    return x
  }

  /// `count` bytes of UTF-8 text with tabs and newlines.
  static func text(_ count: Int) -> [UInt8] {
    var out: [UInt8] = []
    var n = 0
    while true {
      let line = Array("line \(n)\tgrüße € 日本 😀\n".utf8)
      if out.count + line.count > count { break }
      out += line
      n += 1
    }
    return out + [UInt8](repeating: 0x78, count: count - out.count)
  }

  static let mixed = Array("héllo\tworld ✓ 日本\nsecond line\twith tab\n\nlast, no newline".utf8)

  // MARK: xterm as the terminal

  func testCopyOverSSHSetsTheXtermClipboardByteForByte() throws {
    let x = try xterm(
      script: """
        pb info > info
        pb copy < text > copy.out 2> copy.err; echo $? > copy.status
        pb paste > board
        """)
    x.put("text", Self.mixed)
    x.waitUntilDone()
    XCTAssertEqual(x.value("copy.status"), "0", x.contents("copy.err"))
    XCTAssertTrue(x.contents("info").contains("osc52: yes"), x.contents("info"))
    XCTAssertTrue(x.contents("info").contains("SSH_TTY is set"), x.contents("info"))
    XCTAssertEqual(x.contents("copy.out"), "", "nothing on standard output")
    XCTAssertEqual(x.bytes("board"), Self.mixed, "the board has it too")
    waitForSelection("CLIPBOARD", Self.mixed)
    XCTAssertNil(try selectionText("PRIMARY"), "only the clipboard was set")
  }

  func testLargeTextsReachTheXtermClipboard() throws {
    for size in [60_000, 100_000] {
      let x = try xterm(script: "pb copy < text 2> copy.err; echo $? > copy.status")
      let text = Self.text(size)
      x.put("text", text)
      x.waitUntilDone()
      XCTAssertEqual(x.value("copy.status"), "0", x.contents("copy.err"))
      XCTAssertEqual(x.contents("copy.err"), "")
      waitForSelection("CLIPBOARD", text)
      x.stop()
    }
  }

  func testPrimaryBoardSetsTheXtermPrimarySelection() throws {
    let x = try xterm(script: "printf 'to primary\\t✓' | pb copy -b primary 2> copy.err; echo $? > copy.status")
    x.waitUntilDone()
    XCTAssertEqual(x.value("copy.status"), "0", x.contents("copy.err"))
    waitForSelection("PRIMARY", Array("to primary\t✓".utf8))
    XCTAssertNil(try selectionText("CLIPBOARD"), "the clipboard was not set")
  }

  func testGeneralAndPrimaryBoardsSetBothSelections() throws {
    let x = try xterm(script: "printf 'both\\nboards' | pb copy -b general,primary 2> copy.err; echo $? > copy.status")
    x.waitUntilDone()
    XCTAssertEqual(x.value("copy.status"), "0", x.contents("copy.err"))
    waitForSelection("CLIPBOARD", Array("both\nboards".utf8))
    waitForSelection("PRIMARY", Array("both\nboards".utf8))
  }

  // MARK: tmux inside the xterm

  func testTmuxInsideXtermReachesTheXtermClipboard() throws {
    let x = try xterm(.tmux(config: Self.recommendedTmux), script: "pb copy < text 2> copy.err; echo $? > copy.status")
    x.put("text", Self.mixed)
    x.waitUntilDone()
    XCTAssertEqual(x.value("copy.status"), "0", x.contents("copy.err"))
    waitForSelection("CLIPBOARD", Self.mixed)
    XCTAssertEqual(Array(x.tmux(["show-buffer"]).utf8), Self.mixed, "tmux's own buffer has it too")
  }

  /// What the override in `recommendedTmux` is for: tmux 3.3a alone hands
  /// the text on with an empty selection, which xterm puts in PRIMARY.
  func testTmuxWithoutTheOverrideReachesOnlyXtermPrimary() throws {
    let x = try xterm(.tmux(config: "set -g set-clipboard on\n"), script: "printf 'via tmux' | pb copy 2> copy.err; echo $? > copy.status")
    x.waitUntilDone()
    XCTAssertEqual(x.value("copy.status"), "0", x.contents("copy.err"))
    waitForSelection("PRIMARY", Array("via tmux".utf8))
    XCTAssertNil(try selectionText("CLIPBOARD"))
    XCTAssertEqual(x.tmux(["show-buffer"]), "via tmux")
  }

  // MARK: GNU screen inside the xterm

  func testScreenInsideXtermReachesTheXtermClipboard() throws {
    // Up to the default --osc52-max: screen takes each DCS piece alone.
    for size in [1000, 60_000, 100_000] {
      let x = try xterm(.screen, script: "echo \"$STY\" > sty; pb copy < text 2> copy.err; echo $? > copy.status")
      let text = Self.text(size)
      x.put("text", text)
      x.waitUntilDone()
      XCTAssertFalse(x.value("sty").isEmpty, "the script ran in screen")
      XCTAssertEqual(x.value("copy.status"), "0", x.contents("copy.err"))
      waitForSelection("CLIPBOARD", text)
      x.stop()
    }
  }

  // MARK: reading the terminal's clipboard

  func testPasteFromTerminalReadsTheXtermClipboard() throws {
    let text = Self.mixed + [0x0A] + Self.text(20_000)
    try background("xclip -quiet -i -selection clipboard \(Tools.file(text)) > /dev/null 2>&1")
    XCTAssertTrue(Tools.eventually(10_000) { (try? owner(of: "CLIPBOARD")) != nil }, "xclip owns the clipboard")
    let x = try xterm(
      allowing: ["SetSelection", "GetSelection"],
      script: "pb paste --from-terminal --timeout 5s > pasted 2> paste.err; echo $? > paste.status")
    x.waitUntilDone()
    XCTAssertEqual(x.value("paste.status"), "0", x.contents("paste.err"))
    XCTAssertEqual(x.bytes("pasted"), text)
    XCTAssertEqual(x.contents("stty.after"), x.contents("stty.before"), "the terminal's mode is put back")
  }

  func testPasteFromAnXtermThatRefusesTimesOutAndPutsTheModeBack() throws {
    try background("printf secret | xclip -quiet -i -selection clipboard > /dev/null 2>&1")
    // xterm's default: GetSelection disallowed, the query ignored.
    let x = try xterm(
      script: """
        start=$(date +%s%N)
        pb paste --from-terminal --timeout 1s > pasted 2> paste.err; echo $? > paste.status
        echo $(( ($(date +%s%N) - start) / 1000000 )) > paste.ms
        """)
    x.waitUntilDone()
    XCTAssertEqual(x.value("paste.status"), "5", x.contents("paste.err"))
    XCTAssertEqual(x.contents("pasted"), "", "never an empty paste: nothing at all")
    XCTAssertTrue(x.contents("paste.err").hasPrefix("pb: "), x.contents("paste.err"))
    XCTAssertEqual(x.contents("paste.err").filter { $0 == "\n" }.count, 1, "one line: \(x.contents("paste.err"))")
    let ms = Int(x.value("paste.ms")) ?? -1
    XCTAssertTrue((950..<4000).contains(ms), "pb waited \(ms) ms for a 1 s timeout")
    XCTAssertFalse(x.contents("stty.before").isEmpty)
    XCTAssertEqual(x.contents("stty.after"), x.contents("stty.before"), "the terminal's mode is put back")
  }

  func testTmuxInsideXtermAnswersTheQueryFromItsBuffer() throws {
    // The xterm refuses to answer: the answer is tmux's.
    let x = try xterm(
      .tmux(config: Self.recommendedTmux),
      script: """
        pb copy < text 2> copy.err; echo $? > copy.status
        pb paste --from-terminal --timeout 5s > pasted 2> paste.err; echo $? > paste.status
        """)
    x.put("text", Self.mixed)
    x.waitUntilDone()
    XCTAssertEqual(x.value("copy.status"), "0", x.contents("copy.err"))
    XCTAssertEqual(x.value("paste.status"), "0", x.contents("paste.err"))
    XCTAssertEqual(x.bytes("pasted"), Self.mixed)
    XCTAssertEqual(x.contents("stty.after"), x.contents("stty.before"), "the terminal's mode is put back")
  }

  func testScreenInsideXtermPassesTheQueryToXterm() throws {
    // Near the longest answer pb takes through screen.
    let text = Self.text(3000)
    try background("xclip -quiet -i -selection clipboard \(Tools.file(text)) > /dev/null 2>&1")
    XCTAssertTrue(Tools.eventually(10_000) { (try? owner(of: "CLIPBOARD")) != nil }, "xclip owns the clipboard")
    let x = try xterm(
      allowing: ["SetSelection", "GetSelection"], .screen,
      script: "pb paste --from-terminal --timeout 5s > pasted 2> paste.err; echo $? > paste.status")
    x.waitUntilDone()
    XCTAssertEqual(x.value("paste.status"), "0", x.contents("paste.err"))
    XCTAssertEqual(x.bytes("pasted"), text)
    XCTAssertEqual(x.contents("stty.after"), x.contents("stty.before"), "the terminal's mode is put back")
  }

  /// screen can drop bytes of a long answer (a text that still decodes),
  /// so pb refuses an answer longer than screen's input buffer, and reads
  /// it to its end: nothing of it is left for the shell.
  func testScreenInsideXtermLongAnswerIsRefusedAndNothingIsLeft() throws {
    try background("xclip -quiet -i -selection clipboard \(Tools.file(Self.text(10_000))) > /dev/null 2>&1")
    XCTAssertTrue(Tools.eventually(10_000) { (try? owner(of: "CLIPBOARD")) != nil }, "xclip owns the clipboard")
    let x = try xterm(
      allowing: ["SetSelection", "GetSelection"], .screen,
      script: """
        pb paste --from-terminal --timeout 5s > pasted 2> paste.err; echo $? > paste.status
        stty -g > mode.after
        stty -icanon min 0 time 5; cat > left; stty icanon
        """)
    x.waitUntilDone()
    XCTAssertEqual(x.value("paste.status"), "3", x.contents("paste.err"))
    XCTAssertTrue(x.contents("paste.err").contains("GNU screen"), x.contents("paste.err"))
    XCTAssertEqual(x.contents("pasted"), "")
    XCTAssertEqual(x.contents("left"), "", "nothing of the answer is left on the terminal")
    XCTAssertEqual(x.contents("mode.after"), x.contents("stty.before"), "the terminal's mode is put back")
  }
}
