#if canImport(Glibc)
  import Glibc
#endif

/// One change of a board (UIPasteboard's `changedNotification`): the board,
/// its content as it was when the change was noticed, and when that was.
public struct BoardChange {
  public let board: BoardName
  public let contents: BoardContents
  /// When the change was noticed, in milliseconds since the epoch.
  public let time: Int64

  public init(board: BoardName, contents: BoardContents, time: Int64) {
    self.board = board
    self.contents = contents
    self.time = time
  }

  public var changeCount: UInt64 { contents.changeCount }
  public var types: [String] { contents.types }
  public var sensitive: Bool { contents.sensitive }
}

/// A backend whose boards can be watched for changes without polling.
public protocol ChangeWatching: PasteboardBackend {
  /// Starts watching `boards`: the watch reports every change made after
  /// this call returns.
  func watchChanges(of boards: [BoardName]) throws -> BoardWatch
}

/// Changes of some boards, waited for on a descriptor that becomes
/// readable when one may have changed (inotify on the file store, the X
/// connection's selection notifications, a pipe in process).
///
/// A change is a change count that moved: each `next` compares every
/// watched board's count with the last one reported, so changes made while
/// the caller was busy are not lost but coalesce into one report of the
/// newest content (its count says how many happened), and a wake-up that
/// changed nothing (a paste counted down, a temporary file) reports
/// nothing.
public final class BoardWatch {
  public let boards: [BoardName]
  private let wake: Descriptor
  private let drain: () throws -> Void
  private let read: (BoardName) throws -> BoardContents
  private var counts: [BoardName: UInt64] = [:]

  /// - Parameters:
  ///   - wake: readable when a board may have changed.
  ///   - drain: consumes what made `wake` readable.
  ///   - read: a board's current content (without counting a paste).
  /// The current counts are taken now: only later changes are reported.
  public init(
    boards: [BoardName], wake: Descriptor, drain: @escaping () throws -> Void,
    read: @escaping (BoardName) throws -> BoardContents
  ) throws {
    self.boards = boards
    self.wake = wake
    self.drain = drain
    self.read = read
    for board in boards { counts[board] = try read(board).changeCount }
  }

  /// The changes since the last report, waiting for one until `deadline`
  /// (monotonic milliseconds; nil waits as long as it takes). Empty when
  /// the deadline passed with no change.
  public func next(deadline: Int64? = nil) throws -> [BoardChange] {
    while true {
      let changes = try collect()
      if !changes.isEmpty { return changes }
      guard try waitForWake(until: deadline) else { return [] }
      try drain()
    }
  }

  /// Waits until the backend says a board may have changed, without
  /// reading a board or consuming the notice; false when `deadline`
  /// passed. `next` also finds changes by comparing counts, which would
  /// hide a backend that never notifies: the conformance suite checks the
  /// notice itself with this.
  public func awaitNotice(until deadline: Int64) throws -> Bool {
    try waitForWake(until: deadline)
  }

  /// The descriptor that becomes readable when a board may have changed.
  public var noticeDescriptor: Int32 { wake.rawValue }

  /// Takes the notices now readable on `noticeDescriptor` without
  /// reporting: the work tied to them (a clipboard manager's answers)
  /// goes on while the caller is busy, and the changes are still reported
  /// by the next `next`, which compares counts.
  public func takeNotices() throws { try drain() }

  /// The boards whose count moved, read once each.
  private func collect() throws -> [BoardChange] {
    var changes: [BoardChange] = []
    for board in boards {
      let contents = try read(board)
      guard contents.changeCount != counts[board] else { continue }
      counts[board] = contents.changeCount
      changes.append(BoardChange(board: board, contents: contents, time: WallClock.nowMilliseconds()))
    }
    return changes
  }

  /// Waits for `wake` to become readable; false when `deadline` passed.
  private func waitForWake(until deadline: Int64?) throws -> Bool {
    switch awaitReadiness(wake.rawValue, for: Int16(POLLIN), until: deadline) {
    case .ready: return true
    case .timedOut: return false
    case .failed(let code): throw systemFailure("wait for a change", code: code)
    }
  }
}
