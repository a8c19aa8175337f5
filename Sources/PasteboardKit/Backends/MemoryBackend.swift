import CSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Boards held in the memory of this process: the reference backend for the
/// protocol's semantics, and a store for library users and tests.
///
/// Content read from streams or files is loaded into memory at write time,
/// so later changes to the source do not show through.
public final class MemoryBackend: PasteboardBackend {
  private struct Board {
    var contents: BoardContents
  }

  private var boards: [BoardName: Board] = [:]
  /// The write ends of the watches' wake-up pipes.
  private var watchers: [Descriptor] = []
  /// Supplies "now" in milliseconds since the epoch; tests may move it.
  public var clock: () -> Int64

  public init(clock: @escaping () -> Int64 = WallClock.nowMilliseconds) {
    self.clock = clock
  }

  public let kind = "memory"

  public func read(_ board: BoardName, purpose: ReadPurpose) throws -> BoardContents {
    guard var stored = boards[board]?.contents else { return BoardContents(items: [], changeCount: 0) }
    if let expiry = stored.expiresAt, clock() >= expiry {
      try clear(board, ifChangeCount: stored.changeCount)
      return try read(board, purpose: .inspect)
    }
    if purpose == .paste, let left = stored.pastesLeft {
      if left <= 1 {
        try clear(board, ifChangeCount: stored.changeCount)
      } else {
        boards[board]?.contents.pastesLeft = left - 1
      }
      stored.pastesLeft = left - 1
    }
    return stored
  }

  public func write(_ items: [PasteboardItem], to targets: [BoardName], options: WriteOptions) throws {
    // One stream offered under several types is read once.
    var streamed: [ObjectIdentifier: [UInt8]] = [:]
    let loaded = try items.map { item in
      PasteboardItem(try item.representations.map { rep in
        if let id = rep.payload.streamIdentity, let bytes = streamed[id] {
          return Representation(type: rep.type, bytes: bytes)
        }
        let bytes = try rep.payload.loadBytes()
        if let id = rep.payload.streamIdentity { streamed[id] = bytes }
        return Representation(type: rep.type, bytes: bytes)
      })
    }
    let now = clock()
    for name in targets {
      let count = (boards[name]?.contents.changeCount ?? 0) + 1
      boards[name] = Board(contents: BoardContents(
        items: loaded, changeCount: count, sensitive: options.sensitive,
        expiresAt: options.expiresAt, pastesLeft: options.pasteLimit, writtenAt: now))
    }
    wakeWatchers()
  }

  public func clear(_ names: [BoardName], ifChangeCount: UInt64?) throws {
    for board in names {
      let current = boards[board]?.contents.changeCount ?? 0
      if let expected = ifChangeCount, expected != current {
        throw PasteboardError.refused("board '\(board)' has changed (count \(current), expected \(expected)); nothing cleared")
      }
    }
    for board in names {
      let current = boards[board]?.contents.changeCount ?? 0
      boards[board] = Board(contents: BoardContents(items: [], changeCount: current + 1, writtenAt: clock()))
    }
    wakeWatchers()
  }

  public func changeCount(of board: BoardName) throws -> UInt64 {
    boards[board]?.contents.changeCount ?? 0
  }

  public func boardNames() throws -> [BoardName] {
    boards.keys.sorted()
  }
}

extension MemoryBackend: ChangeWatching {
  /// Watches boards of this process: each write and clear wakes the watch
  /// through a pipe (another thread, or the same one between calls).
  public func watchChanges(of boards: [BoardName]) throws -> BoardWatch {
    var fds: [Int32] = [-1, -1]
    guard pipe2(&fds, O_CLOEXEC | O_NONBLOCK) == 0 else { throw systemFailure("create a pipe") }
    let readEnd = Descriptor(fds[0])
    watchers.append(Descriptor(fds[1]))
    return try BoardWatch(
      boards: boards, wake: readEnd,
      drain: {
        var buffer = [UInt8](repeating: 0, count: 256)
        while buffer.withUnsafeMutableBytes({ Glibc.read(readEnd.rawValue, $0.baseAddress, $0.count) }) > 0 {}
      },
      read: { board in try self.read(board, purpose: .inspect) })
  }

  fileprivate func wakeWatchers() {
    var one: UInt8 = 1
    // A full pipe already holds a wake-up.
    for w in watchers { _ = Glibc.write(w.rawValue, &one, 1) }
  }
}
