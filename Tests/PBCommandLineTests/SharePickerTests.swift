import Foundation
import XCTest

/// `pb share`'s menu on a real terminal (a private tmux server): the
/// activities that can perform, picked by number or by letter, `q` to
/// cancel, and the export's question for a name.
final class SharePickerTests: XCTestCase {
  var pb: PBRunner!
  var pane: Pane!

  override func setUpWithError() throws {
    pb = try PBRunner()
    try pb.useRuntimeDirectory()
    pb.environment["HOME"] = pb.root + "/home"
    pb.environment["XDG_CONFIG_HOME"] = pb.root + "/config"
    try FileManager.default.createDirectory(atPath: pb.root + "/home", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: pb.root + "/config/pb/activities", withIntermediateDirectories: true)
    // No xdg-open, lp or sendmail: the menu is the built-ins that need none.
    pb.environment["PATH"] = "/nonexistent"
  }

  override func tearDown() {
    pane?.stop()
    pb.cleanUp()
  }

  func start(_ command: String) throws {
    pane = try Pane(pb, command: command)
  }

  func testTheMenuShowsWhatCanPerformAndANumberPicks() throws {
    try start("pb share 'hello world'")
    try pane.waitFor("Number or letter (q to cancel): ")
    let screen = try pane.capture()
    for line in [
      "  1) [c] Copy to the pasteboard  (pb.copy-to-pasteboard)", "  2) [m] Mail  (pb.mail)", "  3) [r] Reverse text  (pb.reverse)",
      "  4) [e] Export to a folder  (pb.export)", "  5) [a] Add to the archive  (pb.archive)",
    ] {
      XCTAssertTrue(screen.contains(line), "no '\(line)' in:\n\(screen)")
    }
    XCTAssertFalse(screen.contains("Save image"), "an image activity is not offered for text")
    try pane.type("3\n")
    try pane.waitFor("[exit 0]")
    let after = try pane.capture()
    XCTAssertTrue(after.contains("dlrow olleh[exit 0]"), after)
  }

  func testALetterPicksAndAnUnknownAnswerAsksAgain() throws {
    try start("pb share 'abc'")
    try pane.waitFor("Number or letter")
    try pane.type("z\n")
    try pane.waitFor("'z' is not in the menu.")
    try pane.type("r\n")
    try pane.waitFor("[exit 0]")
    let after = try pane.capture()
    XCTAssertTrue(after.contains("cba[exit 0]"), after)
  }

  func testQCancelsAndDoesNothing() throws {
    try start("pb share 'abc'")
    try pane.waitFor("Number or letter")
    try pane.type("q\n")
    try pane.waitFor("[exit 3]")
    let after = try pane.capture()
    XCTAssertTrue(after.contains("pb: cancelled: no activity was run"), after)
  }

  func testEndOfInputCancels() throws {
    try start("pb share 'abc'")
    try pane.waitFor("Number or letter")
    try pane.type("\u{04}")
    try pane.waitFor("[exit 3]")
  }

  func testExportAsksForAName() throws {
    try start("pb share 'exported text'")
    try pane.waitFor("Number or letter")
    try pane.type("e\n")
    try pane.waitFor("Name of the folder to export into: ")
    try pane.type("From the menu\n")
    try pane.waitFor("[exit 0]")
    XCTAssertEqual(try String(contentsOfFile: pb.root + "/home/From the menu/text.txt", encoding: .utf8), "exported text")
  }

  func testTitlesAreShownSafely() throws {
    let file = pb.root + "/config/pb/activities/evil.activity"
    try Data("type = com.example.evil\ntitle = Evil\\t\u{1B}]0;owned\u{07} title\narg = /bin/true\n".utf8)
      .write(to: URL(fileURLWithPath: file))
    try start("pb share 'abc'")
    try pane.waitFor("Number or letter")
    let screen = try pane.capture()
    XCTAssertTrue(screen.contains("Evil^I^[]0;owned^G title  (com.example.evil)"), screen)
    XCTAssertNotEqual(try pane.title(), "owned", "a title set the terminal's title")
  }
}

/// A command running on a real terminal: a pane of a private tmux server,
/// its screen read with capture-pane and keys typed with send-keys. The
/// pane shows `[exit N]` when the command ends (130 after Ctrl-C: the
/// pane's shell outlives it).
final class Pane {
  let pb: PBRunner
  let tmux: String
  let socket: String

  /// - Parameters:
  ///   - width, height: the pane's size.
  ///   - configuration: the tmux server's configuration file (none by
  ///     default).
  ///   - options: tmux options set before the command starts
  ///     (`set-clipboard on`), after the configuration.
  ///   - name: the server's socket in the runner's directory (one server
  ///     per name: a new one never races an old one that is exiting).
  init(
    _ runner: PBRunner, command: String, width: Int = 150, height: Int = 40, configuration: String = "",
    options: [String] = [], name: String = "pane", file: StaticString = #filePath, line: UInt = #line
  ) throws {
    pb = runner
    tmux = try requireTool("tmux", package: "tmux")
    socket = runner.root + "/\(name).sock"
    let conf = runner.root + "/tmux.conf"
    try (configuration + options.map { "set-option -g \($0)\n" }.joined())
      .write(toFile: conf, atomically: true, encoding: .utf8)
    // printf is a shell builtin; sleep is named in full (PATH may be bare).
    // The trap keeps the shell (not the command: a caught signal is reset
    // in a child) alive through Ctrl-C.
    let script = "trap : INT; \(command); printf '[exit %s]' $?; exec /bin/sleep 600"
    let started = try pb.shell(
      "\(shellQuoted(tmux)) -S \(shellQuoted(socket)) -f \(shellQuoted(conf)) new-session -d -x \(width) -y \(height) \(shellQuoted(script))")
    XCTAssertEqual(started.status, 0, "tmux: \(started.stderr)", file: file, line: line)
  }

  @discardableResult
  func tmuxCommand(_ arguments: [String]) throws -> String {
    let command = ([tmux, "-S", socket] + arguments).map(shellQuoted).joined(separator: " ")
    return try pb.shell(command, limit: 20).text
  }

  /// The screen, with each wrapped line joined.
  func capture() throws -> String { try tmuxCommand(["capture-pane", "-p", "-J"]) }

  func title() throws -> String { try tmuxCommand(["display-message", "-p", "#{pane_title}"]).trimmingCharacters(in: .newlines) }

  /// Types `text` literally (a newline is Enter).
  func type(_ text: String) throws {
    for part in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if part.offset > 0 { try tmuxCommand(["send-keys", "Enter"]) }
      if !part.element.isEmpty { try tmuxCommand(["send-keys", "-l", String(part.element)]) }
    }
  }

  func waitFor(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
    var screen = ""
    let found = waitUntil("'\(text)' on the terminal", file: file, line: line) {
      screen = (try? capture()) ?? ""
      return screen.contains(text)
    }
    if !found { XCTFail("the screen was:\n\(screen)", file: file, line: line) }
  }

  func stop() { _ = try? pb.shell("\(shellQuoted(tmux)) -S \(shellQuoted(socket)) kill-server") }
}
