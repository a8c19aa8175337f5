import PasteboardKit

/// The command line's only contact with the X11 backend.
///
/// Placeholder until the X11 backend lands: no display is ever usable, so
/// `auto` always chooses the file backend.
enum X11Support {
  /// Runs a hidden internal command of the X11 backend (the background
  /// selection owner), or returns nil when `arguments` are not one.
  static func runInternalCommand(_ arguments: [String]) -> Int32? { nil }

  /// Whether the display named by DISPLAY answers, within about a second,
  /// and a one-line reason for `pb info`.
  static func probe() -> (usable: Bool, reason: String) {
    guard let display = environmentValue("DISPLAY") else { return (false, "DISPLAY is unset") }
    return (false, "this build of pb has no X11 backend (DISPLAY is \(display))")
  }

  /// The X11 backend; `timeoutMilliseconds` bounds waits for an owner.
  static func makeBackend(timeoutMilliseconds: Int64?) throws -> PasteboardBackend {
    throw PasteboardError.unavailable("this build of pb has no X11 backend")
  }
}
