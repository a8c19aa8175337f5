import CX11
#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// Boards as X11 selections: reading asks the selection's owner, writing
/// makes pb the owner (from a background process unless `foreground`).
///
/// **Change count on X11.** X has no counter, so pb derives one from what
/// changes with every new owner: the owner's TIMESTAMP (the server time at
/// which it took the selection) in the high 32 bits and the owner's window
/// id in the low 32 bits. It is 0 when nobody owns the selection. A new
/// copy always changes it, and copies made later give larger numbers while
/// the server's 32-bit millisecond clock does not wrap (about 49.7 days).
/// When the owner does not offer TIMESTAMP (xclip 0.13), the count is the
/// window id alone. Clearing the board makes it 0. (pb's own owners also
/// keep their TIMESTAMP in a property of their window, `PB_OWNED_AT`, which
/// a reader gets from the server without a round trip through the owner.)
public final class X11Backend: PasteboardBackend {
  public let kind = "x11"
  let settings: X11Settings
  let displayName: String?
  /// The program that serves copies in the background; it must run
  /// `ServeCommand` for the `__x11-serve` arguments (pb does).
  public var ownerExecutable = "/proc/self/exe"
  private(set) var cachedConnection: XConnection?
  /// Boards this backend wrote, for `boardNames()`.
  private var written = Set<BoardName>()

  /// - Parameters:
  ///   - displayName: the display, or nil for DISPLAY.
  ///   - timeoutMilliseconds: how long an owner may take to answer
  ///     (default 5 s); also the INCR idle limit when given.
  public init(displayName: String? = nil, timeoutMilliseconds: Int64? = nil) {
    self.displayName = displayName
    var s = X11Settings.fromEnvironment(answerMilliseconds: timeoutMilliseconds)
    if let t = timeoutMilliseconds, environmentValue("PB_X11_IDLE_TIMEOUT") == nil { s.idleMilliseconds = max(t, 1) }
    settings = s
  }

  func connection() throws -> XConnection {
    if let c = cachedConnection { return c }
    let c = try XConnection(name: displayName, probeMilliseconds: settings.probeMilliseconds)
    cachedConnection = c
    return c
  }

  /// Forgets the connection after a conversion went unanswered: an owner
  /// that answers late must not answer the next request on it.
  func dropConnection() { cachedConnection = nil }

  func requestor(for board: BoardName) throws -> (SelectionRequestor, Atom) {
    let c = try connection()
    let name = SelectionNames.atomName(for: board)
    let r = SelectionRequestor(
      connection: c, answerMilliseconds: settings.answerMilliseconds,
      idleMilliseconds: settings.idleMilliseconds, selectionName: name)
    return (r, c.atom(name))
  }

  // MARK: reading

  public func read(_ board: BoardName, purpose: ReadPurpose) throws -> BoardContents {
    let (r, selection) = try requestor(for: board)
    // No owner is an empty board, as with every backend; the command line
    // turns that into "nothing there" (exit 1).
    guard let inspection = try OwnerInspection.inspect(selection, with: r) else {
      return BoardContents(items: [], changeCount: 0)
    }
    let reps = TargetFolding.representations(inspection.offered, requestor: r, selection: selection, keepAlive: self)
    return BoardContents(
      items: reps.isEmpty ? [] : [PasteboardItem(reps)], changeCount: inspection.changeCount,
      sensitive: inspection.sensitive)
  }

  /// Why `board` reads as empty, in X11's words, for the "nothing there"
  /// message: "no program owns the CLIPBOARD selection (DISPLAY is :5)".
  public func emptyReason(_ board: BoardName) -> String {
    let name = SelectionNames.atomName(for: board)
    let display = cachedConnection?.displayName ?? displayName ?? environmentValue("DISPLAY") ?? "unset"
    if let c = cachedConnection, XGetSelectionOwner(c.display, c.atom(name)) != 0 {
      return "the \(name) owner offers nothing pb can paste, only bare X targets (DISPLAY is \(display))"
    }
    return "no program owns the \(name) selection (DISPLAY is \(display))"
  }

  // MARK: writing

  public func write(_ items: [PasteboardItem], to boards: [BoardName], options: WriteOptions) throws {
    guard let item = items.first, !boards.isEmpty else {
      try clear(boards, ifChangeCount: nil)
      return
    }
    written.formUnion(boards)
    let (file, slices) = try SharedContent.store(item.representations)
    let selections = boards.map { SelectionNames.atomName(for: $0) }
    if options.foreground {
      try serveInForeground(file, slices: slices, selections: selections, options: options)
      return
    }
    try serveInBackground(file, slices: slices, selections: selections, options: options)
  }

  /// Leaves an owner of `selections` serving `file` in the background (a
  /// forked child, or pb re-executed) and returns once it owns them: a
  /// copy, and the clipboard manager's takeover.
  /// - Returns: the owner's process id, a child of this process.
  @discardableResult
  func serveInBackground(_ file: Descriptor, slices: [SharedContent.Slice], selections: [String], options: WriteOptions) throws -> pid_t {
    if OwnerFork.isAvailable {
      let c = try XConnection(name: displayName, probeMilliseconds: settings.probeMilliseconds)
      let owner = try makeOwner(c, file, slices: slices, selections: selections, options: options)
      try owner.acquire()
      return try OwnerFork.detach(owner)
    }
    let request = ServeRequest(selections: selections, slices: slices, options: options, displayName: displayName)
    let wait = settings.probeMilliseconds + settings.answerMilliseconds + 5000
    return try OwnerLauncher.launch(executable: ownerExecutable, request: request, content: file, waitMilliseconds: wait)
  }

  /// Owns and serves from this process until the content is replaced,
  /// expires, is pasted `pasteLimit` times, or SIGINT/SIGTERM arrives.
  func serveInForeground(_ file: Descriptor, slices: [SharedContent.Slice], selections: [String], options: WriteOptions) throws {
    let c = try XConnection(name: displayName, probeMilliseconds: settings.probeMilliseconds)
    let owner = try makeOwner(c, file, slices: slices, selections: selections, options: options)
    try owner.acquire()
    StopSignals.install()
    try owner.serve()
  }

  private func makeOwner(
    _ c: XConnection, _ file: Descriptor, slices: [SharedContent.Slice], selections: [String], options: WriteOptions
  ) throws -> SelectionOwner {
    let content = try SharedContent(fd: file.rawValue, slices: slices)
    return SelectionOwner(
      connection: c, content: content, selections: selections.map { SelectionNames.selection($0, on: c) },
      options: options, settings: settings)
  }

  // MARK: clearing and counting

  public func clear(_ boards: [BoardName], ifChangeCount: UInt64?) throws {
    if let expected = ifChangeCount {
      for board in boards {
        let now = try changeCount(of: board)
        if now != expected {
          throw PasteboardError.refused("board '\(board)' has changed (count \(now), expected \(expected)); nothing cleared")
        }
      }
    }
    for board in boards { try release(board) }
  }

  /// Gives the board's selection to nobody.
  private func release(_ board: BoardName) throws {
    let (r, selection) = try requestor(for: board)
    let c = r.connection
    guard r.owner(of: selection) != nil else { return }
    // Any client may give a selection to None; the owner then gets
    // SelectionClear (pb's owner exits).
    XSetSelectionOwner(c.display, selection, 0, try c.serverTime())
    XSync(c.display, False)
    try c.checkAlive()
  }

  /// The change count: the owner's TIMESTAMP in the high 32 bits, its
  /// window in the low 32 bits, 0 with no owner. A pb owner's published
  /// timestamp is read from the server, so counting never waits on (or
  /// wakes) a pb owner; other owners are asked as a read would.
  public func changeCount(of board: BoardName) throws -> UInt64 {
    let (r, selection) = try requestor(for: board)
    guard let owner = r.owner(of: selection) else { return 0 }
    if let ts = OwnerInspection.publishedTimestamp(of: owner, on: r.connection) {
      return OwnerInspection.changeCount(owner: owner, timestamp: ts)
    }
    return try read(board, purpose: .inspect).changeCount
  }

  /// The standard boards, and those this backend wrote, that have an
  /// owner now (X11 cannot list every selection in use).
  public func boardNames() throws -> [BoardName] {
    let c = try connection()
    return Set([BoardName.general, .primary, .secondary]).union(written).filter {
      XGetSelectionOwner(c.display, c.atom(SelectionNames.atomName(for: $0))) != 0
    }.sorted()
  }
}
