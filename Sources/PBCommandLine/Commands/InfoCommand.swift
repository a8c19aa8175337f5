import PasteboardKit
import PasteboardTerminal

/// `pb info`: which backend `auto` picks and why, the display, the store,
/// and whether `pb copy` sends OSC 52 to the terminal. Answers at once:
/// the display probe and the question to tmux have short deadlines.
enum InfoCommand {
  static let spec = CommandSpec(
    name: "info", summary: "show which backend is used and why, the display and the store", arguments: "",
    positionalRange: 0...0, options: [], discussion: "", run: run)

  /// Whether `pb copy` sends OSC 52 and why, its limit, and the
  /// multiplexer (for tmux, whether its `set-clipboard` lets it through).
  static func terminalFields(_ choice: BackendChoice, io: CommandIO) throws -> [(String, String)] {
    let setting = try usage { try OSC52Setting.fromEnvironment() }
    let limit = try TerminalCopy.limit(nil)
    var (sends, reason) = setting.decide(display: choice.displayProbe)
    if sends && setting.mode == .auto && (try? io.openTerminal()) == nil {
      sends = false
      reason += ", but there is no controlling terminal"
    }
    let multiplexer = Multiplexer.current()
    var fields = [("osc52", sends ? "yes" : "no"), ("osc52_reason", reason), ("osc52_max", String(limit)), ("multiplexer", multiplexer.rawValue)]
    if multiplexer == .tmux {
      let option = Multiplexer.tmuxSetClipboard()
      fields.append(("tmux_set_clipboard", option ?? "(tmux did not answer)"))
      if let option, option != "on" {
        fields[1].1 += "; tmux ignores OSC 52 from its panes while set-clipboard is \(option) (set -g set-clipboard on)"
      }
    }
    return fields
  }

  static func run(_ invocation: Invocation) throws -> Int32 {
    let choice = try BackendChoice.resolve(invocation)
    let history = try FileBackendFactory.historyLimits()
    var location: StoreLocation?
    var storeState: String
    do {
      let found = try StoreLocation.fromEnvironment()
      location = found
      try FileBackend(location: found).checkStore()
      storeState = "usable"
    } catch {
      storeState = "unusable: \(error)"
    }
    let runtime = environmentValue("XDG_RUNTIME_DIR")
    let sensitive =
      runtime == nil
      ? "(none: XDG_RUNTIME_DIR is unset)"
      : runtime!.hasPrefix("/") ? runtime! + "/pb" : "(none: XDG_RUNTIME_DIR is not an absolute path)"
    let fields: [(String, String)] = [
      ("backend", choice.name),
      ("reason", choice.reason),
      ("display", environmentValue("DISPLAY") ?? "(unset)"),
      ("store", location?.directory ?? "(none)"),
      ("store_source", location?.source ?? "(none)"),
      ("store_state", storeState),
      ("sensitive_dir", sensitive),
      ("history_size", String(history.entries)),
      ("history_entry_max", String(history.entryBytes)),
      ("history_total_max", String(history.totalBytes)),
    ] + RedisSupport.infoFields() + (try terminalFields(choice, io: invocation.io)) + [
      ("version", PB.version),
    ]
    if invocation.has("json") {
      try invocation.io.print(JSON.object(fields.map { ($0.0, .string($0.1)) }).text + "\n")
    } else {
      try invocation.io.print(fields.map { "\($0.0): \(VisibleText.escape($0.1))\n" }.joined())
    }
    return 0
  }
}
