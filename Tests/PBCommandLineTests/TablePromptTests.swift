import Foundation
import XCTest

/// `pb table` at a real terminal (a pane of a private tmux server): the
/// listing on standard input or in a file, the prompt and its keys on the
/// terminal; numbered rows, the menu of exactly the actions the policy
/// allows, picked by number or letter, and what they do to the board and
/// to the file; search, pages that follow the pane's size, q, end of input
/// and Ctrl-C; hostile and wide rows shown safely.
final class TablePromptTests: XCTestCase {
  var pb: PBRunner!
  var pane: Pane!

  static let rowPrompt = "Row (number, S:R or /text; Enter: next page, p: previous, q: quit): "
  static let actionPrompt = "Action (number or letter; Enter: back, q: quit): "
  /// The same on a terminal too narrow for them.
  static let shortRowPrompt = "Row (N, /text, Enter, p, q): "
  static let shortActionPrompt = "Action (N or letter, q): "

  override func setUpWithError() throws {
    pb = try PBRunner()
    // The pane's terminal decodes UTF-8 whatever the caller's locale.
    pb.environment["LC_ALL"] = "C.UTF-8"
  }

  override func tearDown() {
    pane?.stop()
    pb.cleanUp()
  }

  /// Starts `command` in a pane and waits for the row prompt.
  func start(_ command: String, width: Int = 100, height: Int = 30, options: [String] = [], expect: String = rowPrompt) throws {
    pane = try Pane(pb, command: command, width: width, height: height, options: options)
    try pane.waitFor(expect.trimmingCharacters(in: .whitespaces))
  }

  func write(_ name: String, _ bytes: [UInt8]) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: pb.root + "/" + name))
  }

  func write(_ name: String, _ text: String) throws { try write(name, Array(text.utf8)) }

  func bytes(_ name: String) -> [UInt8]? { FileManager.default.contents(atPath: pb.root + "/" + name).map { [UInt8]($0) } }

  func board() throws -> String {
    let r = try pb.run(["paste"])
    return r.status == 0 ? r.text : "(pb paste: exit \(r.status))"
  }

  // MARK: Rows, the menu, the actions

  func testAListingOnStandardInputIsNumberedAndItsMenuIsWhatAReadOnlyTableAllows() throws {
    try start("printf 'alpha\\nbeta\\ngamma\\n' | pb table")
    let screen = try pane.capture()
    let lines = screen.components(separatedBy: "\n")
    for line in ["1   alpha", "2   beta", "3   gamma", "(rows 1-3 of 3)"] {
      XCTAssertTrue(lines.contains(line), "no '\(line)' in:\n\(screen)")
    }
    // Read-only, empty board: no cut, paste or delete.
    try pane.answer("2", expect: Self.actionPrompt)
    XCTAssertEqual(try pane.lastMenu(), ["Row 2: beta", "  1) [c] Copy", "  2) [s] Select", "  3) [a] Select all", "  4) [h] Share"])
    // By number.
    try pane.answer("1", expect: "Copied row 2 to board 'general'.")
    XCTAssertEqual(try board(), "beta")
    try pane.answer("q", expect: "[exit 0]")
  }

  func testAnEditableListingOffersEveryActionByLetterAndIsWrittenWhenYouQuit() throws {
    try start("printf 'one\\ntwo\\nthree\\n' | pb table -o out.txt")
    // The board is empty: no paste yet.
    try pane.answer("1", expect: Self.actionPrompt)
    XCTAssertEqual(
      try pane.lastMenu(),
      ["Row 1: one", "  1) [c] Copy", "  2) [x] Cut", "  3) [d] Delete", "  4) [s] Select", "  5) [a] Select all", "  6) [h] Share"])
    try pane.answer("", expect: Self.rowPrompt)
    // Another program fills the board meanwhile: the next menu offers paste.
    assertStatus(try pb.run(["copy"], input: Data("pasted\n".utf8)), 0)
    try pane.answer("1", expect: Self.actionPrompt)
    XCTAssertEqual(
      try pane.lastMenu(),
      [
        "Row 1: one", "  1) [c] Copy", "  2) [x] Cut", "  3) [v] Paste after", "  4) [d] Delete", "  5) [s] Select", "  6) [a] Select all",
        "  7) [h] Share",
      ])
    try pane.answer("v", expect: "Pasted 1 row after row 1. (written to out.txt when you quit)")
    XCTAssertNil(bytes("out.txt"), "written before quitting")
    // one, pasted, two, three: cut "two" (by letter).
    try pane.answer("3", expect: "Row 3: two")
    try pane.answer("x", expect: "Cut row 3 to board 'general'.")
    XCTAssertEqual(try board(), "two")
    XCTAssertNil(bytes("out.txt"), "written before quitting")
    try pane.answer("q", expect: "[exit 0]")
    let history = try pane.history()
    XCTAssertTrue(history.contains("Wrote out.txt."), history)
    XCTAssertEqual(bytes("out.txt"), Array("one\npasted\nthree\n".utf8))
  }

  func testDenyAndAPolicyFileShapeTheMenuAndAHiddenMenuSaysSo() throws {
    try write("rows.txt", "first\nsecond\nsecret token\nlast\n")
    try write("policy", "# rows 2 get no menu; secrets are not copied\ndeny menu rows 2\ndeny copy,share match ^secret\n")
    assertStatus(try pb.run(["copy"], input: Data("board text".utf8)), 0)
    try start("pb table rows.txt --deny cut,delete --policy policy")
    try pane.answer("1", expect: Self.actionPrompt)
    XCTAssertEqual(try pane.lastMenu(), ["Row 1: first", "  1) [c] Copy", "  2) [v] Paste after", "  3) [s] Select", "  4) [a] Select all", "  5) [h] Share"])
    // A denied action's letter is not in the menu, and does nothing.
    try pane.answer("x", expect: "'x' is not in the menu.")
    try pane.answer("2", expect: "Row 2 has no menu: the policy hides it.")
    try pane.answer("3", expect: Self.actionPrompt)
    XCTAssertEqual(try pane.lastMenu(), ["Row 3: secret token", "  1) [v] Paste after", "  2) [s] Select", "  3) [a] Select all"])
    try pane.answer("c", expect: "'c' is not in the menu.")
    XCTAssertEqual(try board(), "board text")
    try pane.answer("q", expect: "[exit 0]")
    XCTAssertEqual(bytes("rows.txt"), Array("first\nsecond\nsecret token\nlast\n".utf8), "nothing was edited")
  }

  func testAFilesEditsAreWrittenWhenYouQuitAndAfterEndOfInput() throws {
    try write("list.txt", "a\r\nb\r\nc")
    try start("pb table list.txt")
    try pane.answer("2", expect: Self.actionPrompt)
    try pane.answer("d", expect: "Deleted row 2; the board is unchanged. (written to list.txt when you quit)")
    XCTAssertEqual(bytes("list.txt"), Array("a\r\nb\r\nc".utf8), "written before quitting")
    // Ctrl-D at the row prompt: end of input quits, writing the edit.
    try pane.key("C-d", expect: "[exit 0]")
    XCTAssertEqual(bytes("list.txt"), Array("a\r\nc".utf8))
  }

  func testEndOfInputAtTheMenuQuitsToo() throws {
    try write("list.txt", "a\nb\n")
    try start("pb table list.txt")
    try pane.answer("1", expect: Self.actionPrompt)
    try pane.key("C-d", expect: "[exit 0]")
  }

  /// pb-table(1): copy takes the selected rows with the one picked, in
  /// table order, joined by newlines; the copy clears the selection.
  func testSelectedRowsAreCopiedTogetherInTableOrder() throws {
    try start("printf 'alpha\\nbeta\\ngamma\\ndelta\\n' | pb table")
    try pane.answer("3", expect: Self.actionPrompt)
    try pane.answer("s", expect: "Selected row 3 (1 selected).")
    try pane.answer("1", expect: Self.actionPrompt)
    try pane.answer("s", expect: "Selected row 1 (2 selected).")
    // The page, shown again, marks them.
    try pane.answer("", expect: "(rows 1-4 of 4, 2 selected)")
    let lines = try pane.capture().components(separatedBy: "\n")
    for line in ["1 * alpha", "2   beta", "3 * gamma", "4   delta"] {
      XCTAssertTrue(lines.contains(line), "no '\(line)' in:\n\(lines.joined(separator: "\n"))")
    }
    try pane.answer("2", expect: Self.actionPrompt)
    try pane.answer("c", expect: "Copied 3 rows to board 'general'.")
    XCTAssertEqual(try board(), "alpha\nbeta\ngamma")
    // Nothing is selected any more: a copy takes its row alone.
    try pane.answer("4", expect: Self.actionPrompt)
    try pane.answer("c", expect: "Copied row 4 to board 'general'.")
    XCTAssertEqual(try board(), "delta")
    // Select all, then copy from any row: every row.
    try pane.answer("2", expect: Self.actionPrompt)
    try pane.answer("a", expect: "Selected all 4 rows.")
    try pane.answer("3", expect: Self.actionPrompt)
    try pane.answer("1", expect: "Copied 4 rows to board 'general'.")
    XCTAssertEqual(try board(), "alpha\nbeta\ngamma\ndelta")
    try pane.answer("q", expect: "[exit 0]")
  }

  // MARK: Search and pages

  func testSearchFindsTheNextRowAndAnAllLowercaseQueryIgnoresCase() throws {
    try start("printf 'Apple pie\\nbanana\\nCherry APPLE\\nplum\\n' | pb table")
    // All lower case: any case.
    try pane.answer("/apple", expect: Self.actionPrompt)
    XCTAssertEqual(try pane.lastMenu().first, "Row 1: Apple pie")
    try pane.answer("", expect: Self.rowPrompt)
    // "/" again: the next row that holds it, then round to the first.
    try pane.answer("/", expect: Self.actionPrompt)
    XCTAssertEqual(try pane.lastMenu().first, "Row 3: Cherry APPLE")
    try pane.answer("", expect: Self.rowPrompt)
    try pane.answer("/", expect: Self.actionPrompt)
    XCTAssertEqual(try pane.lastMenu().first, "Row 1: Apple pie")
    try pane.answer("", expect: Self.rowPrompt)
    // Any capital: that case only.
    try pane.answer("/APPLE", expect: Self.actionPrompt)
    XCTAssertEqual(try pane.lastMenu().first, "Row 3: Cherry APPLE")
    try pane.answer("", expect: Self.rowPrompt)
    try pane.answer("/Banana", expect: "No row holds 'Banana'.")
    try pane.answer("/nan", expect: Self.actionPrompt)
    XCTAssertEqual(try pane.lastMenu().first, "Row 2: banana")
    try pane.answer("c", expect: "Copied row 2")
    XCTAssertEqual(try board(), "banana")
  }

  func testPagesFitThePaneAndFollowAResize() throws {
    try write("fifty.txt", (1...50).map { "line \($0)\n" }.joined())
    try start("pb table fifty.txt", width: 80, height: 12)
    // 12 lines: 9 rows, the "(rows ...)" line, the prompt and one spare.
    try pane.waitFor("(rows 1-9 of 50)")
    try assertRowsShown(1...9)
    try pane.answer("", expect: "(rows 10-18 of 50)")
    try assertRowsShown(10...18)
    try pane.answer("p", expect: "(rows 1-9 of 50)")
    try pane.answer("", expect: "(rows 10-18 of 50)")
    try pane.tmuxCommand(["resize-window", "-x", "80", "-y", "20"])
    XCTAssertTrue(waitUntil("the pane to be 20 lines high") { (try? pane.tmuxCommand(["display-message", "-p", "#{pane_height}"])) == "20\n" })
    try pane.answer("", expect: "(rows 19-35 of 50)")
    try assertRowsShown(19...35)
    try pane.answer("", expect: "(rows 36-50 of 50)")
    try pane.answer("", expect: "(the last page)")
    try pane.answer("q", expect: "[exit 0]")
  }

  func testPagesWithSectionsKeepEveryRowOnScreen() throws {
    try write("sections.txt", (1...4).map { s in (1...6).map { "s\(s) row \($0)\n" }.joined() }.joined(separator: "\n"))
    try start("pb table --sections blank sections.txt", width: 80, height: 12)
    try pane.waitFor("(rows 1-")
    // Every row of the page, and the header of its section, still on screen.
    let screen = try pane.capture()
    guard let range = screen.range(of: #"\(rows 1-(\d+) of 24\)"#, options: .regularExpression) else { return XCTFail(screen) }
    let last = Int(screen[range].dropFirst(8).prefix { $0.isNumber })!
    XCTAssertGreaterThanOrEqual(last, 6, screen)
    XCTAssertTrue(screen.contains("── section 1 ──"), screen)
    try assertRowsShown(1...last, width: 2)
  }

  /// The rows `numbers` are on the screen as numbered rows.
  func assertRowsShown(_ numbers: ClosedRange<Int>, width: Int = 2, file: StaticString = #filePath, line: UInt = #line) throws {
    let screen = try pane.capture()
    let lines = Set(screen.split(separator: "\n").map(String.init))
    for n in numbers {
      let number = String(repeating: " ", count: max(0, width - String(n).count)) + String(n)
      XCTAssertTrue(lines.contains { $0.hasPrefix(number + "   ") }, "row \(n) is not on the screen:\n\(screen)", file: file, line: line)
    }
  }

  // MARK: Quitting

  func testQQuitsAndChangesNothing() throws {
    try write("list.txt", "a\nb\n")
    try start("pb table list.txt")
    try pane.answer("q", expect: "[exit 0]")
    XCTAssertEqual(bytes("list.txt"), Array("a\nb\n".utf8))
  }

  func testCtrlCLeavesTheFileAsItWasAndTheTerminalSane() throws {
    // No final newline, CRLF, a NUL and a byte that is not UTF-8.
    let original: [UInt8] = Array("keep\r\nme\u{0}\r\n".utf8) + [0xFF] + Array("exactly".utf8)
    try write("list.txt", original)
    let before = try FileManager.default.contentsOfDirectory(atPath: pb.root).sorted()
    try start("pb table list.txt; s=$?; stty -a; (exit $s)")
    try pane.answer("1", expect: Self.actionPrompt)
    try pane.answer("d", expect: "Deleted row 1")
    try pane.answer("1", expect: Self.actionPrompt)
    // Ctrl-C at the menu, with an edit pending.
    try pane.key("C-c", expect: "[exit 130]")
    XCTAssertEqual(bytes("list.txt"), original, "Ctrl-C changed the file")
    let after = try FileManager.default.contentsOfDirectory(atPath: pb.root).filter { !["pane.sock", "tmux.conf", "store"].contains($0) }.sorted()
    XCTAssertEqual(after, before, "Ctrl-C left a file behind")
    // The terminal is left in its line mode, echoing, as it was.
    let screen = try pane.history()
    let words = Set(screen.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init))
    for flag in ["icanon", "echo", "isig", "icrnl", "opost"] {
      XCTAssertTrue(words.contains(flag) && !words.contains("-" + flag), "stty -a does not show '\(flag)':\n\(screen)")
    }
  }

  // MARK: Rows shown safely

  func testHostileRowsAreShownVisiblyAndActOnNothing() throws {
    let rows: [[UInt8]] = [
      Array("plain".utf8),
      Array("\u{1B}]52;c;aGVsbG8=\u{07}osc52".utf8),
      Array("\u{1B}]0;owned\u{07}title".utf8),
      Array("\u{1B}[2J\u{1B}[Hclear".utf8),
      Array("\u{202E}bidi\u{2066}x\u{2069}".utf8),
      Array("c1\u{9B}31m".utf8) + [0x9B] + Array("raw\u{7F}".utf8),
    ]
    try write("hostile.txt", rows.map { $0 + [0x0A] }.reduce([], +))
    // With set-clipboard on, an OSC 52 that got through would fill a tmux buffer.
    try start("printf 'MARKER BEFORE\\n'; pb table hostile.txt", options: ["set-clipboard on"])
    let screen = try pane.capture()
    for line in [
      "MARKER BEFORE", "1   plain", "2   ^[]52;c;aGVsbG8=^Gosc52", "3   ^[]0;owned^Gtitle", "4   ^[[2J^[[Hclear",
      "5   <U+202E>bidi<U+2066>x<U+2069>", "6   c1<U+009B>31m<9B>raw^?",
    ] {
      XCTAssertTrue(screen.contains(line), "no '\(line)' in:\n\(screen)")
    }
    try pane.answer("2", expect: Self.actionPrompt)
    XCTAssertEqual(try pane.lastMenu().first, "Row 2: ^[]52;c;aGVsbG8=^Gosc52")
    try pane.answer("c", expect: "Copied row 2")
    // The board holds the row's bytes as they were.
    XCTAssertEqual([UInt8](try pb.run(["paste"]).stdout), rows[1])
    try pane.answer("q", expect: "[exit 0]")
    let screen2 = try pane.capture()
    XCTAssertTrue(screen2.hasPrefix("MARKER BEFORE\n"), "the screen was cleared:\n\(screen2)")
    XCTAssertFalse(try pane.title().contains("owned"), "a row set the pane's title")
    XCTAssertEqual(try pane.tmuxCommand(["list-buffers"]), "", "an OSC 52 reached the terminal")
  }

  func testLongRowsAreCutToThePaneWidthByDisplayWidth() throws {
    let rows = [
      String(repeating: "日本語", count: 30),
      String(repeating: "😀", count: 60),
      String(repeating: "a日", count: 40),
      String(repeating: "é", count: 100),
      String(repeating: "e\u{301}", count: 100),
      String(repeating: "x", count: 200) + "\u{1B}[2J",
    ]
    try write("wide.txt", rows.map { $0 + "\n" }.joined())
    try start("pb table wide.txt", width: 60, height: 20, expect: Self.shortRowPrompt)
    // 60 columns: "N   " and 55 columns of the row, the last one "…" when
    // cut, and the last column free.
    let expected = [
      "1   " + String(repeating: "日本語", count: 9) + "…",
      "2   " + String(repeating: "😀", count: 27) + "…",
      "3   " + String(repeating: "a日", count: 18) + "…",
      "4   " + String(repeating: "é", count: 54) + "…",
      "5   " + String(repeating: "e\u{301}", count: 54) + "…",
      "6   " + String(repeating: "x", count: 54) + "…",
    ]
    let screen = try pane.capture()
    for line in expected {
      XCTAssertTrue(screen.precomposedStringWithCanonicalMapping.contains(line.precomposedStringWithCanonicalMapping), "no '\(line)' in:\n\(screen)")
    }
    // The menu's line is cut too: "Row 3: " and 52 columns.
    try pane.answer("1", expect: Self.actionPrompt)
    try pane.answer("", expect: Self.shortRowPrompt)
    try pane.answer("3", expect: Self.actionPrompt)
    XCTAssertEqual(try pane.lastMenu().first, "Row 3: " + String(repeating: "a日", count: 17) + "…")
    // No line of the screen wrapped: joining wrapped lines changes nothing.
    try pane.assertNothingWrapped()
    try pane.answer("c", expect: "Copied row 3")
    XCTAssertEqual(try board(), rows[2])
  }

  func testANarrowPaneWrapsNoRowNorThePrompt() throws {
    try write("list.txt", (1...30).map { "row \($0) " + String(repeating: "≈", count: $0) + "\n" }.joined())
    try start("pb table list.txt", width: 40, height: 10, expect: Self.shortRowPrompt)
    try pane.assertNothingWrapped()
    try pane.answer("25", expect: Self.shortActionPrompt)
    try pane.assertNothingWrapped()
    try pane.answer("q", expect: "[exit 0]")
  }
}

extension Pane {
  /// Everything the pane showed (its history and its screen), each wrapped
  /// line joined.
  func history() throws -> String { try tmuxCommand(["capture-pane", "-p", "-J", "-S", "-"]) }

  /// How many times `text` occurs in the pane's history.
  func occurrences(of text: String) throws -> Int { try history().components(separatedBy: text).count - 1 }

  /// Types `text` and Enter, then waits until `expect` shows once more
  /// than before.
  func answer(_ text: String, expect: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let before = try occurrences(of: expect)
    try type(text + "\n")
    try waitForMore(expect, than: before, file: file, line: line)
  }

  /// Sends the key `name` (tmux's name: C-c, C-d), then waits until
  /// `expect` shows once more than before.
  func key(_ name: String, expect: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let before = try occurrences(of: expect)
    try tmuxCommand(["send-keys", name])
    try waitForMore(expect, than: before, file: file, line: line)
  }

  private func waitForMore(_ text: String, than count: Int, file: StaticString, line: UInt) throws {
    let found = waitUntil("'\(text)' on the terminal", file: file, line: line) { ((try? occurrences(of: text)) ?? 0) > count }
    if !found { XCTFail("the terminal showed:\n\((try? history()) ?? "")", file: file, line: line) }
  }

  /// The last menu shown: its "Row N: ..." line and its items.
  func lastMenu() throws -> [String] {
    let lines = try history().components(separatedBy: "\n")
    guard let end = lines.lastIndex(where: { $0.hasPrefix("Action (") }),
      let start = lines[..<end].lastIndex(where: { $0.hasPrefix("Row ") && !$0.hasPrefix("Row (") })
    else { return [] }
    return Array(lines[start..<end])
  }

  /// Fails unless every line of the screen fits the pane's width (tmux's
  /// own measure): the screen's rows are then its lines, joined or not.
  func assertNothingWrapped(file: StaticString = #filePath, line: UInt = #line) throws {
    let rows = try tmuxCommand(["capture-pane", "-p"])
    let joined = try tmuxCommand(["capture-pane", "-p", "-J"]).split(separator: "\n", omittingEmptySubsequences: false)
      .map { String($0.reversed().drop { $0 == " " }.reversed()) }.joined(separator: "\n")
    XCTAssertEqual(rows, joined, "a line wrapped", file: file, line: line)
  }
}
