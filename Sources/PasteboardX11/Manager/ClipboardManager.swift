import CX11
#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// pb as the display's clipboard manager (ICCCM 2.8's manager selections,
/// freedesktop.org's Clipboard Manager specification): it owns
/// `CLIPBOARD_MANAGER`, keeps a copy of each new CLIPBOARD content, and
/// when the owner goes away with nobody in its place, takes CLIPBOARD
/// over with that copy, so pasting still works after the copying program
/// has exited or been killed.
///
/// It lives in the watch's loop: its window is that of the watch's XFixes
/// connection, so requests to it and the ownership changes it follows
/// wake the same `poll`, with no thread or process of its own. What it
/// takes over is served by a background owner, as `pb copy`'s content is,
/// which ends by itself when another program copies.
final class ClipboardManager {
  /// The watch's events connection, whose window owns CLIPBOARD_MANAGER.
  let connection: XConnection
  /// Fetches from owners and starts the owner of a takeover.
  let backend: X11Backend
  /// The most bytes one content may hold, all representations together.
  let limit: Int64
  /// Where the manager says what it did not keep (a content too large).
  let complain: (String) -> Void
  /// The server time of owning CLIPBOARD_MANAGER.
  let ownedAt: Time
  /// The copy of the current (or last) CLIPBOARD content; nil when it was
  /// sensitive, too large, cleared on purpose, or could not be fetched.
  var saved: SavedClipboard?
  /// The window of the background owner serving the last takeover, and
  /// the time it owns CLIPBOARD from: its content is `saved` already.
  /// (Both, since the server hands a gone client's window ids to the
  /// next client.)
  var servingWindow: Window = 0
  var servingSince: Time?
  /// The takeovers' owners, children of this long-running process: each
  /// is reaped once it has ended (replaced by a new copy), so that none
  /// lingers as a zombie.
  private var servers: [pid_t] = []

  /// Takes CLIPBOARD_MANAGER, then saves the clipboard as it is now.
  /// - Throws: `.refused` when another client is the manager already;
  ///   `.unavailable` when the server went away.
  init(connection c: XConnection, backend: X11Backend, limit: Int64, complain: @escaping (String) -> Void) throws {
    connection = c
    self.backend = backend
    self.limit = limit
    self.complain = complain
    ownedAt = c.openedAt
    try ClipboardManager.acquire(on: c, at: ownedAt)
    if XGetSelectionOwner(c.display, c.atoms.clipboard) != 0 { try save() }
  }

  /// Owns CLIPBOARD_MANAGER unless someone does, and announces it with
  /// the MANAGER message ICCCM 2.8 asks of a new manager.
  private static func acquire(on c: XConnection, at time: Time) throws {
    let a = c.atoms
    let other = XGetSelectionOwner(c.display, a.clipboardManager)
    if other != 0 {
      throw PasteboardError.refused(
        "another clipboard manager runs (window 0x\(String(other, radix: 16)) owns CLIPBOARD_MANAGER); pb does not manage beside it (DISPLAY is \(c.displayName))")
    }
    XSetSelectionOwner(c.display, a.clipboardManager, c.window, time)
    guard XGetSelectionOwner(c.display, a.clipboardManager) == c.window else {
      throw PasteboardError.refused(
        "another clipboard manager took CLIPBOARD_MANAGER as pb started (DISPLAY is \(c.displayName))")
    }
    let root = pb_default_root(c.display)
    var message = XEvent()
    message.xclient.type = ClientMessage
    message.xclient.window = root
    message.xclient.message_type = c.atom("MANAGER")
    message.xclient.format = 32
    message.xclient.data.l.0 = CLong(bitPattern: UInt(time))
    message.xclient.data.l.1 = CLong(bitPattern: a.clipboardManager)
    message.xclient.data.l.2 = CLong(bitPattern: c.window)
    XSendEvent(c.display, root, False, StructureNotifyMask, &message)
    XSync(c.display, False)
    try c.checkAlive()
    OwnerLog.note("owns CLIPBOARD_MANAGER at \(time)")
  }

  /// Follows one ownership change of CLIPBOARD: a new owner's content is
  /// saved, an owner gone with nobody in its place is replaced by pb, and
  /// a clipboard emptied on purpose (`pb clear`, an owner that expired,
  /// a password manager's timeout) stays empty.
  func follow(_ change: SelectionEvents.Change) throws {
    let c = connection
    guard change.selection == c.atoms.clipboard else { return }
    reapServers()
    if change.owner != 0 {
      guard !isServing(change) else { return }
      // Another program copied: pb's takeover is over, and the copy it
      // served is no longer the clipboard's.
      servingWindow = 0
      servingSince = nil
      saved = nil
      // An owner already gone (or replaced) when its notice is read is
      // not asked: the notices that follow say what happened next.
      if XGetSelectionOwner(c.display, c.atoms.clipboard) == change.owner { try save() }
    } else if change.ownerGone {
      try takeOverIfAbandoned()
    } else {
      saved = nil
    }
  }

  /// Saves the current CLIPBOARD content, forgetting the last one whatever
  /// happens: an older content never comes back in a newer one's place.
  /// - Returns: whether a content was saved.
  @discardableResult
  func save(wanted: Set<Atom>? = nil) throws -> Bool {
    saved = nil
    do {
      saved = try SavedClipboard.fetch(with: backend, limit: limit, wanted: wanted)
      OwnerLog.note("saved the clipboard of 0x\(String(saved!.owner, radix: 16))")
      return true
    } catch let skipped as SavedClipboard.Skipped {
      switch skipped {
      case .tooLarge:
        complain("the clipboard's content holds more than \(limit) bytes (--keep-max); the clipboard manager does not keep it")
      case .failed(let why):
        OwnerLog.note("cannot save the clipboard: \(why)")
      case .noOwner, .sensitive, .nothingToKeep:
        OwnerLog.note("saves nothing: \(skipped)")
      }
      return false
    }
  }

  /// Whether `change` is the takeover's owner taking CLIPBOARD.
  private func isServing(_ change: SelectionEvents.Change) -> Bool {
    servingWindow != 0 && change.owner == servingWindow && change.selectionTime == servingSince
  }

  /// Takes CLIPBOARD over with the saved content when nobody owns it.
  func takeOverIfAbandoned() throws {
    guard saved != nil, XGetSelectionOwner(connection.display, connection.atoms.clipboard) == 0 else { return }
    _ = try takeOver()
  }

  /// Serves the saved content on CLIPBOARD from a background owner.
  /// - Returns: false when there is nothing saved or another program
  ///   took CLIPBOARD first (it keeps it).
  func takeOver() throws -> Bool {
    guard let saved else { return false }
    do {
      servers.append(
        try backend.serveInBackground(saved.file, slices: saved.slices, selections: ["CLIPBOARD"], options: WriteOptions()))
    } catch let error as PasteboardError {
      if case .unavailable = error { throw error }
      OwnerLog.note("cannot take the clipboard over: \(error)")
      return false
    }
    servingWindow = XGetSelectionOwner(connection.display, connection.atoms.clipboard)
    servingSince = OwnerInspection.publishedTimestamp(of: servingWindow, on: connection)
    // Not pb's owner: another program copied in the meantime.
    if servingSince == nil { servingWindow = 0 }
    OwnerLog.note("took the clipboard over: 0x\(String(servingWindow, radix: 16)) serves it")
    return true
  }

  private func reapServers() {
    servers.removeAll { pid in
      var status: Int32 = 0
      return waitpid(pid, &status, WNOHANG) != 0
    }
  }

  /// Another client took CLIPBOARD_MANAGER from pb (a manager started
  /// with force): pb is no longer the manager, and the watch ends.
  func lost(_ e: XSelectionClearEvent) throws {
    let c = connection
    guard e.window == c.window, e.selection == c.atoms.clipboardManager,
      !serverTime(e.time, isEarlierThan: ownedAt)
    else { return }
    throw PasteboardError.refused("another program took CLIPBOARD_MANAGER: pb is no longer the clipboard manager (DISPLAY is \(c.displayName))")
  }
}
