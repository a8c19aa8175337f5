import CX11
#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// The copying side of the selection protocol: owns one or more
/// selections with pb's window and serves their requests from one loop
/// until it loses them all, the content expires, the paste limit is
/// reached, or it is told to stop.
final class SelectionOwner {
  /// Why serving ended.
  enum Ending: Equatable {
    /// Another program took the selection(s).
    case replaced
    case expired
    case pasteLimitReached
    /// SIGTERM or SIGINT.
    case stopped
  }

  struct Selection {
    let atom: Atom
    let name: String
  }

  let connection: XConnection
  let offers: OfferedTargets
  let settings: X11Settings
  let sensitive: Bool
  /// The INCR threshold and chunk size for pb's own requestor and for
  /// every other (see `X11Settings.chunkSize(maxRequestBytes:forPB:)`).
  let chunkSizes: (pb: Int, others: Int)
  /// Replies at least this large are fenced (XSync, then a look at the
  /// errors) before the requestor is told: ICCCM 2.5's BadAlloc check.
  static let fenceThreshold = 64 * 1024
  /// The selections still owned.
  var owned: [Selection]
  /// The server time of ownership (the connection's): requests older
  /// than it are refused.
  let ownedAt: Time
  let expiresAt: Int64?
  let pasteLimit: Int?
  var pastesDone = 0
  var pastesInFlight = 0
  var transfers: [IncrTransfer.Key: IncrTransfer] = [:]
  var interest = WindowInterest()
  var ending: Ending?
  var handover: Handover?
  private var errorCursor = ErrorTrap.cursorNow

  init(
    connection: XConnection, content: SharedContent, selections: [Selection],
    options: WriteOptions, settings: X11Settings
  ) {
    self.connection = connection
    self.settings = settings
    sensitive = options.sensitive
    expiresAt = options.expiresAt
    pasteLimit = options.pasteLimit
    owned = selections
    ownedAt = connection.openedAt
    chunkSizes = (
      settings.chunkSize(maxRequestBytes: connection.maxRequestBytes, forPB: true),
      settings.chunkSize(maxRequestBytes: connection.maxRequestBytes, forPB: false)
    )
    offers = OfferedTargets(content: content, sensitive: options.sensitive, connection: connection)
  }

  /// Serves until the end. SIGTERM and SIGINT (once `StopSignals` is
  /// installed) ask for a voluntary exit.
  @discardableResult
  func serve() throws -> Ending {
    let c = connection
    let expiryDeadline = expiresAt.map { WallClock.monotonicMilliseconds() + ($0 - WallClock.nowMilliseconds()) }
    while true {
      if let ending, transfers.isEmpty, handover?.isDone ?? true {
        finish()
        OwnerLog.note("ends: \(ending)")
        return ending
      }
      var deadline = transfers.values.map(\.deadline).min()
      if ending == nil, let e = expiryDeadline { deadline = min(deadline ?? e, e) }
      if let h = handover?.deadline { deadline = min(deadline ?? h, h) }
      let woke = try c.next(until: deadline)
      switch woke {
      case .event(let e):
        handle(e)
      case .woken:
        StopSignals.received = 0
        stopVoluntarily()
      case .timedOut:
        break
      }
      let now = WallClock.monotonicMilliseconds()
      if ending == nil, let e = expiryDeadline, now >= e {
        OwnerLog.note("content expired")
        ending = .expired
      }
      for t in transfers.values where t.deadline <= now {
        OwnerLog.note("gives up INCR to 0x\(String(t.key.window, radix: 16)): idle")
        endTransfer(t.key, completed: false)
      }
      if let h = handover, h.deadline <= now { handover?.expire() }
      checkAsynchronousErrors()
    }
  }

  private func handle(_ e: XEvent) {
    switch e.type {
    case SelectionRequest:
      handover?.noteActivity()
      answer(e.xselectionrequest)
    case SelectionClear:
      lose(e.xselectionclear)
    case PropertyNotify:
      if e.xproperty.state == PropertyDelete {
        continueTransfer(IncrTransfer.Key(window: e.xproperty.window, property: e.xproperty.atom))
      }
    case DestroyNotify:
      let w = e.xdestroywindow.window
      for key in transfers.keys where key.window == w {
        OwnerLog.note("requestor 0x\(String(w, radix: 16)) went away mid-INCR")
        endTransfer(key, completed: false)
      }
    case SelectionNotify:
      if e.xselection.selection == connection.atoms.clipboardManager {
        handover?.answered(saved: e.xselection.property != 0)
      }
    default:
      break
    }
  }

  private func lose(_ e: XSelectionClearEvent) {
    guard e.window == connection.window, owned.contains(where: { $0.atom == e.selection }) else { return }
    if serverTime(e.time, isEarlierThan: ownedAt) { return }
    owned.removeAll { $0.atom == e.selection }
    OwnerLog.note("lost a selection; \(owned.count) left")
    if owned.isEmpty {
      ending = ending ?? .replaced
      handover = nil
    }
  }

  /// SIGTERM/SIGINT: finish what is in flight, offer the clipboard to a
  /// manager (unless sensitive), then exit.
  private func stopVoluntarily() {
    guard ending == nil else { return }
    ending = .stopped
    let c = connection
    // With no manager running there is nobody to wait for.
    if !sensitive, owned.contains(where: { $0.atom == c.atoms.clipboard }),
      XGetSelectionOwner(c.display, c.atoms.clipboardManager) != 0
    {
      handover = Handover(start: WallClock.monotonicMilliseconds(), limit: settings.handoverMilliseconds)
      XDeleteProperty(c.display, c.window, c.atoms.transfer)
      XConvertSelection(c.display, c.atoms.clipboardManager, c.atoms.saveTargets, c.atoms.transfer, c.window, ownedAt)
      XFlush(c.display)
      OwnerLog.note("asks the clipboard manager to save the clipboard")
    }
  }

  /// Gives up every selection still owned, so that an expired or
  /// exhausted clipboard is empty rather than stale.
  private func finish() {
    let c = connection
    for s in owned where XGetSelectionOwner(c.display, s.atom) == c.window {
      XSetSelectionOwner(c.display, s.atom, 0, ownedAt)
    }
    XSync(c.display, False)
  }

  /// Ends transfers whose requestor turned out to be gone (a BadWindow
  /// recorded without a fence, from an INCR chunk). An error from before
  /// a transfer began is not its own: clearing the event mask of a
  /// requestor that had just exited earns a BadWindow that arrives while
  /// the next client, given the same window id, is being served.
  private func checkAsynchronousErrors() {
    let errors = ErrorTrap.errors(after: errorCursor)
    errorCursor = ErrorTrap.cursorNow
    for error in errors {
      OwnerLog.note("X error \(error.code) on request \(error.request) for 0x\(String(error.resource, radix: 16))")
      for (key, t) in transfers where t.isEnded(by: error) {
        endTransfer(key, completed: false)
      }
    }
  }

  /// The chunk size for a requestor that asked for `property`: pb's
  /// requestor always names pb's transfer property, other programs their
  /// own (xclip `XCLIP_OUT`, GTK `GDK_SELECTION`, Qt `_QT_SELECTION`).
  func chunkSize(for property: Atom) -> Int {
    property == connection.atoms.transfer ? chunkSizes.pb : chunkSizes.others
  }

  var pasteLimitReached: Bool {
    guard let limit = pasteLimit else { return false }
    return pastesDone + pastesInFlight >= limit
  }

  /// Gives the selections up just before the last allowed paste is
  /// delivered, so that a reader who got the last paste and asks again
  /// finds no owner rather than a dying one.
  func releaseBeforeLastPaste() {
    guard let limit = pasteLimit, pastesDone + 1 >= limit else { return }
    for s in owned { XSetSelectionOwner(connection.display, s.atom, 0, ownedAt) }
  }

  func notePasteDone() {
    pastesDone += 1
    if let limit = pasteLimit, pastesDone >= limit, ending == nil {
      OwnerLog.note("served \(pastesDone) pastes: the limit")
      ending = .pasteLimitReached
    }
  }
}
