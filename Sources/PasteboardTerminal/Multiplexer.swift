import PasteboardKit

/// The terminal multiplexer between pb and the terminal, which decides how
/// an OSC 52 sequence must be sent to get through.
///
/// - tmux: the plain sequence. With `set-clipboard on`, tmux keeps the text
///   as a paste buffer and passes it on to every attached terminal that
///   can take it (its `Ms` capability), nested tmux included. DCS
///   passthrough (`allow-passthrough`) would skip tmux's buffer and is off
///   by default; `tmux load-buffer -w` would cost a tmux client per copy.
/// - GNU screen: screen does not understand OSC 52, but passes the body of
///   a DCS string to the terminal untouched, and only strings of up to 768
///   bytes (fewer in older versions); so the sequence is cut into pieces
///   of `screenPiece` bytes, each its own DCS string, which the terminal
///   reads as one sequence.
public enum Multiplexer: String {
  case none
  case tmux
  case screen

  /// Base64 bytes per DCS string for screen: what other OSC 52 tools
  /// send, and well inside every screen's limit.
  public static let screenPiece = 76

  /// The longest answer to a query taken through screen, in base64 bytes:
  /// what fits screen's input buffer for a window (4096 bytes) with the
  /// answer's framing (`ESC ] 52 ; c ;` and `ESC \`), about 3 KB of
  /// text. Input screen has no room for can be dropped, a byte here and
  /// there, and a text that lost a multiple of 4 base64 bytes still
  /// decodes; so a longer answer through screen is refused, never pasted
  /// with bytes missing.
  public static let screenAnswerLimit = 4096 - 9

  /// The multiplexer this process runs in: tmux when `TMUX` is set,
  /// screen when `STY` is. When both are (one runs inside the other), the
  /// environment cannot tell which is nearer; tmux is assumed, the more
  /// common arrangement, and pb(1) says so.
  public static func current() -> Multiplexer {
    if environmentValue("TMUX") != nil { return .tmux }
    if environmentValue("STY") != nil { return .screen }
    return .none
  }
}

extension Multiplexer {
  /// tmux's `set-clipboard` option (`on`, `external`, `off`), asked of the
  /// tmux server this process runs under; nil when tmux does not answer
  /// within a second. Only `on` lets a program in a pane set the
  /// clipboard. For `pb info`: it costs a tmux client, too much for every
  /// copy.
  public static func tmuxSetClipboard() -> String? {
    guard
      let child = try? ChildProcess(
        ["tmux", "show-options", "-gv", "set-clipboard"], output: .pipe, error: .null),
      let output = child.output
    else { return nil }
    guard (try? child.wait(until: WallClock.monotonicMilliseconds() + 1000))?.succeeded == true,
      let bytes = try? output.readToEnd()
    else { return nil }
    let value = String(decoding: bytes, as: UTF8.self).trimmingNewlines()
    return value.isEmpty ? nil : value
  }
}

extension String {
  fileprivate func trimmingNewlines() -> String {
    var s = Substring(self)
    while s.last == "\n" || s.last == "\r" { s = s.dropLast() }
    return String(s)
  }
}
