import PasteboardKit
import PasteboardX11

/// The command line's only contact with the X11 backend.
enum X11Support {
  /// Runs a hidden internal command of the X11 backend (the background
  /// selection owner, `pb __x11-serve …`), or returns nil when `arguments`
  /// are not one.
  static func runInternalCommand(_ arguments: [String]) -> Int32? {
    ServeCommand.runIfRequested(arguments)
  }

  /// Whether the display named by DISPLAY answers, within about a second,
  /// and a one-line reason for `pb info`. Never waits longer on a server
  /// that accepts connections but does not answer.
  static func probe() -> (usable: Bool, reason: String) {
    X11Probe.check(milliseconds: 1000)
  }

  /// Why `board` is empty when `backend` is the X11 backend (for the
  /// "nothing there" message), else nil.
  static func emptyReason(_ backend: PasteboardBackend, board: BoardName) -> String? {
    (backend as? X11Backend)?.emptyReason(board)
  }

  /// A watch of `boards` during which pb is the X11 clipboard manager
  /// (`pb watch --manage`), keeping contents of at most `limit` bytes;
  /// `complain` hears of those it does not keep.
  static func managedWatch(
    _ backend: PasteboardBackend, boards: [BoardName], limit: Int64, complain: @escaping (String) -> Void
  ) throws -> BoardWatch {
    guard let x11 = backend as? X11Backend else {
      throw UsageError("--manage makes pb the X11 clipboard manager; the \(backend.kind) backend is not X11")
    }
    return try x11.watchChanges(of: boards, managingUpTo: limit, complain: complain)
  }

  /// The X11 backend; `timeoutMilliseconds` bounds waits for an owner.
  static func makeBackend(timeoutMilliseconds: Int64?) throws -> PasteboardBackend {
    X11Backend(timeoutMilliseconds: timeoutMilliseconds)
  }
}
