import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// A real xterm on a test's private display running a shell script in a
/// simulated SSH session: `SSH_TTY` and `SSH_CONNECTION` set, no `DISPLAY`
/// for the script (so pb writes a file store of its own, `$D/store`), and
/// `pb` a shell function running the pb under test with
/// `timeout --foreground` (plain timeout(1) would put pb in a background
/// process group, where touching the terminal stops it). The script runs
/// in the xterm directly, in a tmux pane, or in a GNU screen window; it
/// writes its results to files in `directory` (`$D`, also its working
/// directory), `stty -g` of its terminal to `stty.before` and
/// `stty.after`, then creates `done` and sleeps, so that the xterm still
/// owns the selections it set while the test reads them with xclip.
final class Xterm {
  enum Multiplexer {
    case none
    /// tmux with a private server and the configuration `config`.
    case tmux(config: String)
    /// GNU screen with a private socket directory.
    case screen
  }

  /// xterm's default `disallowedWindowOps` (xterm(1)): every operation.
  /// OSC 52 is allowed by removing `SetSelection` (setting a selection)
  /// and `GetSelection` (answering a query) from it.
  static let defaultDisallowed = [
    "1", "2", "3", "4", "5", "6", "7", "8", "9", "11", "13", "14", "18", "19", "20", "21",
    "GetSelection", "SetSelection", "SetWinLines", "SetXprop",
  ]

  /// The programs these tests drive, with the Debian package of each.
  static let tools = [("xterm", "xterm"), ("tmux", "tmux"), ("screen", "screen")]

  /// Fails (never skips) when one of `tools` is missing.
  static func checkTools(file: StaticString = #filePath, line: UInt = #line) -> Bool {
    let missing = tools.filter { Tools.path(of: $0.0) == nil }
    guard missing.isEmpty else {
      XCTFail(
        "the terminal tests need \(missing.map(\.0).joined(separator: ", ")): install them with: apt-get install \(missing.map(\.1).joined(separator: " ")) (scripts/test does)",
        file: file, line: line)
      return false
    }
    return true
  }

  let directory: String
  let multiplexer: Multiplexer
  private let display: PrivateDisplay
  private var pid: pid_t = 0

  /// Starts an xterm with the window operations in `allowing` taken off
  /// its default deny list, running `script` (see the type's comment).
  init(
    _ test: X11TestCase, allowing: [String], multiplexer: Multiplexer = .none, script: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    display = test.display
    self.multiplexer = multiplexer
    directory = "\(Tools.scratch)/xt-\(UUID().uuidString.prefix(8))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let run = """
      unset DISPLAY
      export SSH_TTY="$(tty)" SSH_CONNECTION='192.0.2.1 50022 192.0.2.2 22' PB_DIR="$D/store"
      pb() { timeout --foreground 20 "$PB" "$@"; }
      cd "$D" || exit 1
      stty -g > stty.before
      \(script)
      stty -g > stty.after
      touch done
      exec sleep 600
      """
    try run.write(toFile: "\(directory)/run.sh", atomically: true, encoding: .utf8)
    let outer: String
    switch multiplexer {
    case .none:
      outer = "exec /bin/sh \"$D/run.sh\""
    case .tmux(let config):
      try config.write(toFile: "\(directory)/tmux.conf", atomically: true, encoding: .utf8)
      outer = "exec tmux -S \"$D/tmux.sock\" -f \"$D/tmux.conf\" new-session \"/bin/sh $D/run.sh\""
    case .screen:
      // autodetach off: the session ends with its xterm.
      try "autodetach off\nstartup_message off\n".write(toFile: "\(directory)/screenrc", atomically: true, encoding: .utf8)
      try FileManager.default.createDirectory(
        atPath: "\(directory)/screens", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
      outer = "export SCREENDIR=\"$D/screens\"; exec screen -c \"$D/screenrc\" -S pb /bin/sh \"$D/run.sh\""
    }
    try outer.write(toFile: "\(directory)/outer.sh", atomically: true, encoding: .utf8)
    let disallowed = Self.defaultDisallowed.filter { !allowing.contains($0) }.joined(separator: ",")
    // A bare environment (none of the test runner's TMUX, STY, PB_*), a
    // HOME of its own (no resource files of the user's), UTF-8.
    let environment = [
      "PATH=\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")", "HOME=\(directory)", "LC_ALL=C.UTF-8",
      "DISPLAY=\(display.name)", "D=\(directory)", "PB=\(Tools.pb)",
    ]
    let command =
      ["env", "-i"] + environment + [
        "xterm", "-geometry", "80x24", "-xrm", "XTerm*allowWindowOps: false", "-xrm", "XTerm*disallowedWindowOps: \(disallowed)",
        "-e", "/bin/sh", "\(directory)/outer.sh",
      ]
    let log = Self.quoted(directory + "/xterm.log")
    pid = try test.background(command.map(Self.quoted).joined(separator: " ") + " > \(log) 2>&1", file: file, line: line)
  }

  /// Waits for the script to finish (its `done` file).
  @discardableResult
  func waitUntilDone(seconds: Int64 = 30, file: StaticString = #filePath, line: UInt = #line) -> Bool {
    if Tools.eventually(seconds * 1000, { FileManager.default.fileExists(atPath: "\(directory)/done") }) { return true }
    var what = "the script in xterm did not finish within \(seconds) s; xterm says: \(contents("xterm.log"))"
    what += "; files: \((try? FileManager.default.contentsOfDirectory(atPath: directory).sorted().joined(separator: " ")) ?? "")"
    if case .tmux = multiplexer { what += "; the tmux pane:\n\(tmux(["capture-pane", "-p"]))" }
    XCTFail(what, file: file, line: line)
    return false
  }

  /// The text of the script's file `name` (empty when it is missing).
  func contents(_ name: String) -> String { Tools.contents(of: "\(directory)/\(name)") }

  /// The bytes of the script's file `name`.
  func bytes(_ name: String) -> [UInt8] { [UInt8](FileManager.default.contents(atPath: "\(directory)/\(name)") ?? Data()) }

  /// The script's file `name` as a trimmed line (an exit status, say).
  func value(_ name: String) -> String { contents(name).trimmingCharacters(in: .whitespacesAndNewlines) }

  /// Writes `bytes` to the file `name` for the script.
  func put(_ name: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data(bytes))
  }

  /// Runs a tmux command against this xterm's private tmux server.
  @discardableResult
  func tmux(_ arguments: [String]) -> String {
    let command = (["tmux", "-S", "\(directory)/tmux.sock"] + arguments).map(Self.quoted).joined(separator: " ")
    return (try? Tools.shell(command, display: display, limit: 10).text) ?? ""
  }

  /// Ends the multiplexer's server and the xterm.
  func stop() {
    switch multiplexer {
    case .none: break
    case .tmux: tmux(["kill-server"])
    case .screen: _ = try? Tools.shell("SCREENDIR=\(Self.quoted(directory + "/screens")) screen -S pb -X quit", display: display, limit: 10)
    }
    if pid > 0 && kill(pid, 0) == 0 { kill(pid, SIGKILL) }
    pid = 0
  }

  deinit { stop() }

  static func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}

extension X11TestCase {
  /// What `xclip -o` prints for `selection` (CLIPBOARD, PRIMARY) on this
  /// test's display, or nil when nobody owns it.
  func selectionText(_ selection: String) throws -> [UInt8]? {
    let r = try sh("xclip -o -selection \(selection.lowercased()) -t UTF8_STRING", limit: 10)
    return r.status == 0 ? r.stdout : nil
  }

  /// Waits until `selection` holds exactly `expected` (the xterm may not
  /// have read the sequence yet when pb has exited).
  @discardableResult
  func waitForSelection(_ selection: String, _ expected: [UInt8], seconds: Int64 = 10, file: StaticString = #filePath, line: UInt = #line) -> Bool {
    var last: [UInt8]?
    if Tools.eventually(seconds * 1000, {
      last = try? selectionText(selection)
      return last == expected
    }) {
      return true
    }
    let got = last.map { bytes in
      let first = zip(bytes, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(bytes.count, expected.count)
      return "\(bytes.count) bytes, the first difference at byte \(first): \(String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription)"
    }
    XCTFail(
      "\(selection) did not get the \(expected.count) bytes within \(seconds) s; it holds \(got ?? "nothing (no owner)")",
      file: file, line: line)
    return false
  }
}
