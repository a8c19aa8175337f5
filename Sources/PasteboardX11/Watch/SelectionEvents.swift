import CX11
import PasteboardKit

/// Ownership changes of some selections, as the XFixes extension reports
/// them on a connection of their own: the server tells pb the moment a
/// selection gets a new owner or loses its owner, so nobody polls.
///
/// The connection is used for nothing else, so its descriptor becomes
/// readable exactly when a notification (or the server's hangup) arrives.
final class SelectionEvents {
  /// One notification.
  struct Change {
    let selection: Atom
    /// The new owner; 0 when the selection was given to nobody, or when
    /// its owner went away (`ownerGone`).
    let owner: Window
    /// The owner's window was destroyed or its client disconnected (a
    /// killed xclip, an exiting program), rather than a new owner (or
    /// nobody) being set on purpose.
    let ownerGone: Bool
    /// The server time at which the selection last changed hands (the
    /// gone owner's time for `ownerGone`).
    let selectionTime: Time
  }

  let connection: XConnection
  private let eventBase: Int32

  /// Opens a connection to `displayName` and asks for the ownership
  /// changes of `selections` (atom names).
  /// - Throws: `.unavailable` when the display cannot be opened or its
  ///   server lacks the XFixes extension.
  init(displayName: String?, probeMilliseconds: Int64, selections: [String]) throws {
    let c = try XConnection(name: displayName, probeMilliseconds: probeMilliseconds)
    var eventBase: Int32 = 0
    var errorBase: Int32 = 0
    var major: Int32 = 0
    var minor: Int32 = 0
    // Selection notifications are XFixes 1.0; QueryVersion must come
    // before any other XFixes request.
    guard XFixesQueryExtension(c.display, &eventBase, &errorBase) != 0,
      XFixesQueryVersion(c.display, &major, &minor) != 0, major >= 1
    else {
      throw PasteboardError.unavailable(
        "cannot watch the X11 selections: the X server has no XFixes extension, which tells programs when a selection changes (DISPLAY is \(c.displayName))")
    }
    connection = c
    self.eventBase = eventBase
    for name in selections {
      XFixesSelectSelectionInput(c.display, pb_default_root(c.display), c.atom(name), pb_xfixes_selection_mask)
    }
    // Once the server has processed the selection requests, every later
    // change is reported.
    XSync(c.display, False)
    try c.checkAlive()
  }

  var descriptor: Int32 { connection.fd }

  /// The notifications that have arrived, without blocking. Any other
  /// event (a request to the clipboard manager, whose window is this
  /// connection's) goes to `others`, in order.
  /// - Throws: `.unavailable` when the connection to the server broke;
  ///   what `others` throws.
  func drain(others: (XEvent) throws -> Void = { _ in }) throws -> [Change] {
    let c = connection
    var changes: [Change] = []
    while XPending(c.display) > 0 {
      var event = XEvent()
      XNextEvent(c.display, &event)
      guard event.type == eventBase + pb_xfixes_selection_notify else {
        try others(event)
        continue
      }
      let n = withUnsafeBytes(of: &event) { $0.load(as: XFixesSelectionNotifyEvent.self) }
      changes.append(Change(
        selection: n.selection, owner: n.owner, ownerGone: n.subtype != pb_xfixes_set_owner,
        selectionTime: n.selection_timestamp))
    }
    try c.checkAlive()
    return changes
  }
}
