import PasteboardKit

/// Whether `pb copy` sends its text to the terminal with OSC 52, and why
/// (`pb info` shows the reason).
///
/// `auto` (the default) sends it in a session over SSH (`SSH_TTY` or
/// `SSH_CONNECTION` set) where no X11 display answers: the only way the
/// text reaches the clipboard of the machine the user sits at. `always`
/// sends it in any session and counts as asking for it explicitly, which
/// makes a text that cannot be sent an error and allows secrets.
public struct OSC52Setting: Equatable {
  public enum Mode: String {
    case auto
    case always
    case never
  }

  public let mode: Mode
  /// Where the mode came from: `--osc52`, `PB_OSC52`, or `default`.
  public let source: String

  public init(mode: Mode, source: String) {
    self.mode = mode
    self.source = source
  }

  /// `PB_OSC52` (auto, always or never), else `auto`.
  /// - Throws: `.invalid` for another value.
  public static func fromEnvironment() throws -> OSC52Setting {
    guard let text = environmentValue("PB_OSC52") else { return OSC52Setting(mode: .auto, source: "default") }
    guard let mode = Mode(rawValue: text) else {
      throw PasteboardError.invalid("PB_OSC52 must be auto, always or never, not '\(text)'")
    }
    return OSC52Setting(mode: mode, source: "PB_OSC52=\(text)")
  }

  /// Whether OSC 52 was asked for in so many words (not by the SSH rule).
  public var isExplicit: Bool { mode == .always }

  /// The SSH variable that shows this is a remote session, if any.
  public static func sshVariable() -> String? {
    ["SSH_TTY", "SSH_CONNECTION"].first { environmentValue($0) != nil }
  }

  /// Whether the sequence is sent, and why. `display` says whether an X11
  /// display answers and why (asked only under `auto` in an SSH session,
  /// since probing takes time).
  public func decide(display: () -> (usable: Bool, reason: String)) -> (sends: Bool, reason: String) {
    switch mode {
    case .always: return (true, "asked for by \(source)")
    case .never: return (false, "turned off by \(source)")
    case .auto:
      guard let ssh = Self.sshVariable() else { return (false, "auto: not an SSH session (SSH_TTY and SSH_CONNECTION are unset)") }
      let probe = display()
      if probe.usable { return (false, "auto: an SSH session, but the X11 display answers (\(probe.reason))") }
      return (true, "auto: an SSH session (\(ssh) is set) with no X11 display (\(probe.reason))")
    }
  }
}
