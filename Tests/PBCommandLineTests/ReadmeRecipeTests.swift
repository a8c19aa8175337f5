import Foundation
import XCTest

/// The README's Neovim and tmux recipes, taken from README.md itself (so
/// these tests break when the README drifts) and run for real: headless
/// Neovim and a private tmux server, with pb on the file backend.
final class ReadmeRecipeTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws {
    pb = try PBRunner()
    try FileManager.default.createDirectory(atPath: pb.environment["HOME"]!, withIntermediateDirectories: true)
    // Neither Neovim nor tmux may read the user's own configuration.
    for (name, dir) in [("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache")] {
      pb.environment[name] = pb.root + "/" + dir
    }
    pb.environment["TERM"] = "xterm"
  }

  override func tearDown() { pb.cleanUp() }

  func readme() throws -> String { try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8) }

  func write(_ text: String, to name: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: pb.root + "/" + name))
  }

  func contents(_ name: String) throws -> String {
    try String(contentsOfFile: pb.root + "/" + name, encoding: .utf8)
  }

  // MARK: Neovim

  static let neovimHeading = "## pb as Neovim's clipboard provider"

  /// Runs headless Neovim on `file` with the README's `vim.g.clipboard`
  /// block as its whole configuration, runs `commands`, writes the file
  /// and quits; returns Neovim's messages.
  func neovim(_ commands: [String], on file: String) throws -> String {
    let nvim = try requireTool("nvim", package: "neovim")
    let block = try XCTUnwrap(
      fencedBlock(in: try readme(), after: ReadmeRecipeTests.neovimHeading, language: "lua"),
      "README.md has no ```lua block under '\(ReadmeRecipeTests.neovimHeading)'")
    XCTAssertTrue(block.contains("vim.g.clipboard"), block)
    try write(block, to: "init.lua")
    let all =
      commands + [#"call writefile(split(execute("messages"), "\n"), "messages.txt")"#, "wq"]
    let script =
      "\(shellQuoted(nvim)) --headless -n -i NONE -u init.lua "
      + all.map { "-c " + shellQuoted($0) }.joined(separator: " ") + " " + shellQuoted(file)
    let result = try pb.shell(script, limit: 30)
    XCTAssertEqual(result.status, 0, "nvim: \(result.stderr)")
    return try contents("messages.txt")
  }

  func testNeovimYanksToThePlusAndStarRegistersThroughPb() throws {
    try write("first line\nsecond line\n", to: "buffer.txt")
    let messages = try neovim([#"normal! gg"+yy"#, #"normal! G0"*yiw"#], on: "buffer.txt")
    XCTAssertFalse(messages.contains("clipboard"), messages)
    let plus = try pb.run(["paste"])
    assertStatus(plus, 0)
    XCTAssertEqual(plus.text, "first line\n", "a linewise yank to + is the line and its newline")
    let star = try pb.run(["paste", "-b", "primary"])
    assertStatus(star, 0)
    XCTAssertEqual(star.text, "second", "a yank to * goes to the primary board")
    XCTAssertEqual(try pb.run(["count"]).text, "1\n", "one yank, one copy")
  }

  func testNeovimOverSSHYanksIntoTheTerminalsClipboard() throws {
    // README "pb over SSH": the same recipe, in Neovim running on a
    // terminal (a tmux pane with set-clipboard on) in an SSH session.
    let nvim = try requireTool("nvim", package: "neovim")
    let block = try XCTUnwrap(fencedBlock(in: try readme(), after: ReadmeRecipeTests.neovimHeading, language: "lua"))
    try write(block, to: "init.lua")
    try write("over ssh ✓\nsecond\n", to: "buffer.txt")
    pb.environment["SSH_TTY"] = "/dev/pts/0"
    let run = "cd \(shellQuoted(pb.root)) && \(shellQuoted(nvim)) --headless -n -i NONE -u init.lua -c 'normal! gg\"+yy' -c 'qa!' buffer.txt"
    let pane = try Pane(pb, command: run, configuration: "set -g set-clipboard on\n")
    defer { pane.stop() }
    try pane.waitFor("[exit 0]")
    XCTAssertEqual(try pane.tmuxCommand(["show-buffer"]), "over ssh ✓\n", "the yank reached the terminal")
    XCTAssertEqual(try pb.run(["paste"]).text, "over ssh ✓\n", "and the board")
  }

  func testNeovimPastesFromPb() throws {
    try write("first line\nsecond line\n", to: "buffer.txt")
    assertStatus(try pb.run(["copy"], input: Data("from pb\n".utf8)), 0)
    assertStatus(try pb.run(["copy", "-n", "-b", "primary"], input: Data("word\n".utf8)), 0)
    let messages = try neovim([#"normal! gg"+p"#, #"normal! gg0"*P"#], on: "buffer.txt")
    XCTAssertFalse(messages.contains("clipboard"), messages)
    XCTAssertEqual(try contents("buffer.txt"), "wordfirst line\nfrom pb\nsecond line\n")
  }

  func testNeovimPastesNothingAndShowsPbsMessageWhenPbHasNoText() throws {
    try write("unchanged\n", to: "buffer.txt")
    // Nothing on the board: pb paste exits 1.
    let empty = try neovim([#"normal! gg"+p"#], on: "buffer.txt")
    XCTAssertEqual(try contents("buffer.txt"), "unchanged\n")
    XCTAssertTrue(empty.contains("clipboard: error: pb: board 'general' is empty"), empty)
    // An image on the board: the recipe's -t (a text type) refuses it (exit 6).
    assertStatus(try pb.run(["copy"], input: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0])), 0)
    let image = try neovim([#"normal! gg"+p"#], on: "buffer.txt")
    XCTAssertEqual(try contents("buffer.txt"), "unchanged\n")
    XCTAssertTrue(image.contains("clipboard: error: pb: type 'text/plain"), image)
    XCTAssertTrue(image.contains("' is not offered (offered: image/png)"), image)
  }

  // MARK: tmux

  static let tmuxHeading = "## pb as tmux's copy command"

  func testTmuxCopiesThroughPbAndPastesWithTheBracketBinding() throws {
    let tmux = try TmuxSession(pb, readme: try readme())
    defer { tmux.stop() }

    // y in copy mode: the README's copy-pipe-and-cancel 'pb copy' binding.
    try tmux.selectLine(fromBottom: 2)
    try tmux.keys(["y"])
    try tmux.waitForCopy(containing: "tmux-y-line")

    // Enter in copy mode: tmux's own binding, through copy-command.
    try tmux.selectLine(fromBottom: 1)
    try tmux.keys(["Enter"])
    try tmux.waitForCopy(containing: "tmux-enter-line")

    // ] (after the prefix, typed on a client's terminal) pastes pb's text.
    assertStatus(try pb.run(["copy"], input: Data("pasted-by-pb".utf8)), 0)
    try tmux.attach()
    try tmux.type("\u{02}]")
    waitUntil("the pasted text in the pane") { (try? tmux.capture().contains("pasted-by-pb")) ?? false }
    XCTAssertFalse(try tmux.bufferNames().contains("pb"), "the buffer named pb is deleted once pasted")

    // With the clipboard empty, ] pastes nothing, not tmux's last buffer.
    let before = try tmux.capture()
    assertStatus(try pb.run(["clear"]), 0)
    try tmux.type("\u{02}]")
    // run shows the failed command in view mode once it has finished.
    waitUntil("the failed paste to be shown") { (try? tmux.paneMode()) == "view-mode" }
    XCTAssertEqual(try tmux.capture(), before, "nothing was pasted")
    XCTAssertFalse(try tmux.bufferNames().contains("pb"))
  }

  /// The README: "when the clipboard is empty, pb's message is shown".
  func testTmuxShowsPbsMessageWhenTheClipboardIsEmpty() throws {
    let tmux = try TmuxSession(pb, readme: try readme())
    defer { tmux.stop() }
    try tmux.attach()
    try tmux.type("\u{02}]")
    // run shows what the command printed, and that it failed, in view mode.
    waitUntil("the failed paste to be shown on the client's terminal") { tmux.typescript().contains("returned 1") }
    let shown = tmux.typescript()
    XCTAssertTrue(
      shown.contains("pb: board 'general' is empty"),
      "the client's terminal shows no pb message; view mode shows only: "
        + (shown.components(separatedBy: "\u{1B}").first { $0.contains("returned 1") } ?? "")
        .replacingOccurrences(of: #"^\[[0-9;?]*[A-Za-z]"#, with: "", options: .regularExpression)
        .trimmingCharacters(in: .whitespaces))
  }
}

/// A private tmux server (its own socket, `-f` a configuration holding the
/// README's tmux lines) with one pane that shows two lines and then echoes
/// what is typed or pasted into it (`cat`).
final class TmuxSession {
  let pb: PBRunner
  let tmux: String
  let socket: String
  var client: Process?
  var clientInput: Pipe?

  init(_ runner: PBRunner, readme: String, file: StaticString = #filePath, line: UInt = #line) throws {
    pb = runner
    tmux = try requireTool("tmux", package: "tmux")
    socket = runner.root + "/tmux.sock"
    let lines = try XCTUnwrap(
      fencedBlock(in: readme, after: ReadmeRecipeTests.tmuxHeading, language: "tmux"),
      "README.md has no ```tmux block under '\(ReadmeRecipeTests.tmuxHeading)'")
    XCTAssertTrue(lines.contains("copy-pipe-and-cancel 'pb copy'"), lines, file: file, line: line)
    // The README's y binding is in the copy-mode-vi table: vi keys.
    let config = lines + "set -g mode-keys vi\n"
    try Data(config.utf8).write(to: URL(fileURLWithPath: runner.root + "/tmux.conf"))
    let pane = #"printf 'tmux-y-line\ntmux-enter-line\n'; exec cat"#
    // The server outlives this command: it keeps none of the test's
    // descriptors beyond standard input, output and error (which it
    // replaces with /dev/null).
    let closeInherited = #"for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null; "#
    let started = try pb.shell(
      closeInherited
        + "\(shellQuoted(tmux)) -S \(shellQuoted(socket)) -f tmux.conf new-session -d -s pb -x 100 -y 20 \(shellQuoted(pane))")
    XCTAssertEqual(started.status, 0, "tmux: \(started.stderr)", file: file, line: line)
    waitUntil("the pane to show its lines", file: file, line: line) {
      (try? capture().contains("tmux-enter-line")) ?? false
    }
  }

  @discardableResult
  func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> PBRunner.Result {
    let command = ([tmux, "-S", socket] + arguments).map(shellQuoted).joined(separator: " ")
    let result = try pb.shell(command, limit: 20, file: file, line: line)
    XCTAssertEqual(result.status, 0, "tmux \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
    return result
  }

  func capture() throws -> String { try run(["capture-pane", "-p", "-t", "pb"]).text }

  func paneMode() throws -> String {
    try run(["display-message", "-p", "-t", "pb", "#{pane_mode}"]).text.trimmingCharacters(in: .newlines)
  }

  func bufferNames() throws -> [String] {
    try run(["list-buffers", "-F", "#{buffer_name}"]).text.split(separator: "\n").map(String.init)
  }

  /// Sends keys to the pane: in copy mode they go through the copy-mode-vi
  /// key table, bindings included.
  func keys(_ keys: [String]) throws { try run(["send-keys", "-t", "pb"] + keys) }

  /// Enters copy mode and selects the whole line `n` lines above the
  /// cursor.
  func selectLine(fromBottom n: Int) throws {
    try run(["copy-mode", "-t", "pb"])
    try keys(Array(repeating: "k", count: n) + ["0", "Space", "$"])
  }

  /// Waits until pb holds what tmux copied (tmux keeps it as its newest
  /// buffer too) and the pane has left copy mode.
  func waitForCopy(containing text: String, file: StaticString = #filePath, line: UInt = #line) throws {
    var last = ""
    let copied = try waitUntil("pb to hold tmux's copy of \(text) (pb has: \(last))", file: file, line: line) {
      let pasted = try pb.run(["paste"])
      last = pasted.text
      guard pasted.status == 0, pasted.text.contains(text) else { return false }
      return try run(["show-buffer"]).text == pasted.text
    }
    if copied { XCTAssertEqual(try paneMode(), "", "copy-pipe-and-cancel leaves copy mode", file: file, line: line) }
  }

  /// Attaches a client on a pseudo-terminal (through script(1)), so that
  /// keys typed on it go through tmux's prefix key table.
  func attach(file: StaticString = #filePath, line: UInt = #line) throws {
    let script = try requireTool("script", package: "bsdutils")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: script)
    let attach = "stty cols 200 rows 30; exec \(shellQuoted(tmux)) -S \(shellQuoted(socket)) attach -t pb"
    process.arguments = ["-q", "-f", "-e", "-c", attach, pb.root + "/typescript"]
    var environment = pb.environment
    environment["PATH"] = URL(fileURLWithPath: PBRunner.executable).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "")
    process.environment = environment
    process.currentDirectoryURL = URL(fileURLWithPath: pb.root)
    let input = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    client = process
    clientInput = input
    waitUntil("a tmux client to attach", file: file, line: line) {
      !((try? run(["list-clients", "-F", "#{client_name}"]).text.isEmpty) ?? true)
    }
  }

  /// Types `text` on the attached client's terminal.
  func type(_ text: String) throws {
    try XCTUnwrap(clientInput).fileHandleForWriting.write(Data(text.utf8))
  }

  /// What the attached client's terminal has shown.
  func typescript() -> String {
    (try? String(contentsOfFile: pb.root + "/typescript", encoding: .utf8)) ?? ""
  }

  func stop() {
    _ = try? pb.shell("\(shellQuoted(tmux)) -S \(shellQuoted(socket)) kill-server")
    try? clientInput?.fileHandleForWriting.close()
    // The client ends with its server.
    if let client {
      let deadline = Date().addingTimeInterval(5)
      while client.isRunning && Date() < deadline { usleep(10_000) }
      if client.isRunning { kill(client.processIdentifier, SIGKILL) }
    }
  }
}
