import CX11

/// Pieces of answering a selection request that the owner and the
/// clipboard manager share.
extension XConnection {
  /// Sends the SelectionNotify that answers `r`, echoing it exactly
  /// (Chromium rejected answers that did not, kfish/xsel#16).
  func notify(_ r: XSelectionRequestEvent, property: Atom) {
    var reply = XEvent()
    reply.xselection = XSelectionEvent(
      type: SelectionNotify, serial: 0, send_event: True, display: display,
      requestor: r.requestor, selection: r.selection, target: r.target, property: property, time: r.time)
    XSendEvent(display, r.requestor, False, 0, &reply)
    XFlush(display)
  }

  /// A format-32 list of atoms (a MULTIPLE request's pairs, the targets a
  /// SAVE_TARGETS request names) of one of `types`, or nil when the window
  /// or property is gone or has another type.
  func atomList(_ property: Atom, of window: Window, types: [Atom]) -> [UInt]? {
    withProperty(property, of: window, longs: 4096) { p -> [UInt]? in
      guard p.format == 32, types.contains(p.type) else { return nil }
      return p.longs.map { $0 & 0xFFFF_FFFF }
    } ?? nil
  }
}
