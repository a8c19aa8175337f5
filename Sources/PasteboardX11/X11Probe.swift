import PasteboardKit

/// Whether the X11 backend can be used, decided fast: for `--backend auto`
/// and `pb info`.
public enum X11Probe {
  /// Whether the display named by DISPLAY answers within `milliseconds`,
  /// with a one-line reason that names the display.
  public static func check(milliseconds: Int64 = 1000) -> (usable: Bool, reason: String) {
    guard let name = environmentValue("DISPLAY") else { return (false, "DISPLAY is unset") }
    guard let address = DisplayAddress(name) else {
      return (false, "DISPLAY is '\(name)', which is not a display name")
    }
    if let reason = DisplayProbe.check(address, milliseconds: milliseconds) {
      return (false, "the X server of DISPLAY \(name) is not reachable: \(reason)")
    }
    return (true, "the X server of DISPLAY \(name) answers")
  }
}
