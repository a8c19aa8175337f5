import CX11
import PasteboardKit

extension X11Backend: ChangeWatching {
  /// Watches the boards' selections through XFixes notifications on a
  /// connection of the watch's own: the watch wakes when an owner changes,
  /// whoever made the change (xclip, a toolkit, pb), and costs nothing
  /// while idle.
  ///
  /// Each report is a read for inspection: the owner's TARGETS (and
  /// TIMESTAMP), never its content, which is fetched only when the caller
  /// loads a representation. So a secret (an owner offering
  /// `x-kde-passwordManagerHint`) is reported `sensitive` without being
  /// transferred. A board is read again only after a notification for its
  /// selection.
  /// - Throws: `.unavailable` when the display cannot be opened or has no
  ///   XFixes extension; from `next`, `.unavailable` when the connection
  ///   to the X server breaks.
  public func watchChanges(of boards: [BoardName]) throws -> BoardWatch {
    try watch(boards, manager: nil)
  }

  /// The watch, with the clipboard manager in its loop when `manager`
  /// makes one on the events connection (which then also follows
  /// CLIPBOARD, watched or not).
  func watch(
    _ boards: [BoardName], manager makeManager: ((XConnection) throws -> ClipboardManager)?
  ) throws -> BoardWatch {
    var selections = boards.map { SelectionNames.atomName(for: $0) }
    if makeManager != nil, !selections.contains("CLIPBOARD") { selections.append("CLIPBOARD") }
    let events = try SelectionEvents(
      displayName: displayName, probeMilliseconds: settings.probeMilliseconds, selections: selections)
    let watched = WatchedBoards(backend: self, boards: boards, on: events.connection)
    // Whatever is queued already happened before the first reads.
    _ = try events.drain()
    let manager = try makeManager?(events.connection)
    return try BoardWatch(
      boards: boards, wake: Descriptor(events.descriptor, owned: false),
      drain: {
        let changes = try events.drain(others: { try manager?.handle($0) })
        // The manager first: a takeover is then what the watch reads.
        for change in changes { try manager?.follow(change) }
        watched.note(changes)
      },
      read: { try watched.read($0) })
  }

  /// A read that survives the owner's going away: when the conversion
  /// fails and the owner changed meanwhile (an owner killed while it was
  /// asked), the new state is read; an owner that is there but does not
  /// answer reads as no content, with the count of its window, so that a
  /// broken program does not end the watch.
  func readForWatch(_ board: BoardName) throws -> BoardContents {
    var attempt = 0
    while true {
      attempt += 1
      let (r, selection) = try requestor(for: board)
      let before = r.owner(of: selection)
      do {
        return try read(board, purpose: .inspect)
      } catch let error as PasteboardError {
        if case .unavailable = error { throw error }
        dropConnection()
        let (now, _) = try requestor(for: board)
        let owner = now.owner(of: selection)
        if owner != before, attempt < 3 { continue }
        return BoardContents(items: [], changeCount: owner.map { OwnerInspection.changeCount(owner: $0, timestamp: nil) } ?? 0)
      }
    }
  }
}

/// The watch's last reading of each board, read again only after a
/// notification for its selection: a change of PRIMARY does not ask the
/// CLIPBOARD owner anything.
final class WatchedBoards {
  private let backend: X11Backend
  private let selections: [BoardName: Atom]
  private var stale: Set<BoardName>
  private var last: [BoardName: BoardContents] = [:]

  init(backend: X11Backend, boards: [BoardName], on c: XConnection) {
    self.backend = backend
    selections = Dictionary(boards.map { ($0, c.atom(SelectionNames.atomName(for: $0))) }, uniquingKeysWith: { a, _ in a })
    stale = Set(boards)
  }

  func note(_ changes: [SelectionEvents.Change]) {
    for change in changes {
      for (board, atom) in selections where atom == change.selection { stale.insert(board) }
    }
  }

  func read(_ board: BoardName) throws -> BoardContents {
    if let contents = last[board], !stale.contains(board) { return contents }
    stale.remove(board)
    let contents = try backend.readForWatch(board)
    last[board] = contents
    return contents
  }
}
