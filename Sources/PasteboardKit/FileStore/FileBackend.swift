#if canImport(Glibc)
  import Glibc
#endif

/// Boards kept as files: persistent, private and safe under concurrency.
///
/// Layout under the store directory (mode 0700, files 0600):
/// - `boards/NAME`: the board's current content (see `BoardRecord`);
/// - `history/NAME/COUNT`: hard links to earlier board files, so keeping
///   history costs no copy (bounded by `HistoryLimits`);
/// - `sweeper.lock`: held by the one expiry sweeper of the store.
/// Sensitive content lives in the store's `SensitiveStore` (a tmpfs), and
/// its board file only names it.
///
/// Writers stream content into a temporary file, then take an exclusive
/// `flock` on the `boards` directory only to read the current change count,
/// append the trailer and rename the file into place. Readers never lock:
/// `rename` replaces a board in one step, and a reader keeps reading the
/// file it opened.
///
/// Nothing in the store is trusted: files are opened without following
/// links or waiting on FIFOs, checked to be the user's regular files, and
/// parsed with every field checked. A damaged board is reported (exit 7)
/// naming its file, and a copy or a clear replaces it.
public final class FileBackend: PasteboardBackend {
  public let location: StoreLocation
  public let historyLimits: HistoryLimits
  /// Called after a write with an expiry (with the expiry time), so that
  /// the caller can make sure a sweeper will clear the board at that time
  /// even if nobody reads it (`pb` starts `runExpirySweeper` in the
  /// background). Reads treat expired content as gone regardless.
  public var onExpiringWrite: ((Int64) -> Void)?
  public var clock: () -> Int64 = WallClock.nowMilliseconds

  public let kind = "file"
  /// Whether using the store may create it (the expiry sweeper must not
  /// bring back a store that was deleted).
  private let creates: Bool
  private var prepared = false

  public init(location: StoreLocation, history: HistoryLimits = HistoryLimits(), creates: Bool = true) {
    self.location = location
    self.historyLimits = history
    self.creates = creates
  }

  var boardsDirectory: String { location.directory + "/boards" }
  var historyDirectory: String { location.directory + "/history" }
  func boardPath(_ board: BoardName) -> String { boardsDirectory + "/" + board.rawValue }

  /// Creates the store on first use and refuses an unsafe one.
  func prepare() throws {
    guard !prepared else { return }
    for dir in [location.directory, boardsDirectory, historyDirectory] {
      try ensurePrivateDirectory(dir, create: creates)
    }
    prepared = true
  }

  /// Checks the store directory without creating anything (for `pb info`).
  public func checkStore() throws {
    var st = stat()
    if lstat(location.directory, &st) != 0 && errno == ENOENT { return }
    try ensurePrivateDirectory(location.directory, create: false)
  }

  // MARK: Reading

  public func read(_ board: BoardName, purpose: ReadPurpose) throws -> BoardContents {
    try reporting {
      try prepare()
      let current = try snapshot(board)
      if purpose == .paste, current?.contents.pastesLeft != nil {
        return try withLock { try consumePaste(board) }
      }
      return current?.contents ?? BoardContents(items: [], changeCount: 0)
    }
  }

  /// The board's content as stored now, with expired or vanished content
  /// read as empty.
  func snapshot(_ board: BoardName) throws -> (record: BoardRecord, contents: BoardContents)? {
    guard let (record, file) = try BoardRecord.open(boardPath(board)) else { return nil }
    var contents = BoardContents(
      items: [], changeCount: record.changeCount, sensitive: record.sensitiveName != nil,
      expiresAt: record.expiresAt, pastesLeft: record.pastesLeft, writtenAt: record.writtenAt)
    if let expiry = record.expiresAt, clock() >= expiry { return (record, contents) }
    if let name = record.sensitiveName {
      // Gone with the session (or cleared): the board reads as empty.
      guard let path = SensitiveStore.of(store: location.directory)?.path(of: name),
        let (inner, innerFile) = try BoardRecord.open(path)
      else { return (record, contents) }
      contents.items = inner.items(in: innerFile)
    } else {
      contents.items = record.items(in: file)
    }
    return (record, contents)
  }

  /// Serves one paste of a paste-limited board: under the lock, counts it,
  /// and clears the board after the last one.
  private func consumePaste(_ board: BoardName) throws -> BoardContents {
    guard let (record, contents) = try snapshot(board), let left = record.pastesLeft, !contents.isEmpty else {
      return try snapshot(board)?.contents ?? BoardContents(items: [], changeCount: 0)
    }
    if left <= 1 {
      try replaceWithEmpty(board, previous: record)
    } else {
      var next = record
      next.pastesLeft = left - 1
      try rewriteTrailer(board, record: next)
    }
    return contents
  }

  public func changeCount(of board: BoardName) throws -> UInt64 {
    try reporting {
      try prepare()
      return try BoardRecord.open(boardPath(board))?.record.changeCount ?? 0
    }
  }

  public func boardNames() throws -> [BoardName] {
    try reporting {
      try prepare()
      return try StoreFile.names(inDirectoryAt: boardsDirectory).compactMap { try? BoardName($0) }.sorted()
    }
  }

  // MARK: Helpers (called with the lock held)

  private func replaceWithEmpty(_ board: BoardName, previous: BoardRecord) throws {
    let (_, file) = try emptyBoardFile(after: previous)
    try file.commit(to: boardPath(board))
    if let secret = previous.sensitiveName { removeSecret(secret) }
  }

  /// Rewrites a board with a changed trailer and the same payloads and
  /// change count (used to count down a paste limit).
  private func rewriteTrailer(_ board: BoardName, record: BoardRecord) throws {
    guard let (_, source) = try BoardRecord.open(boardPath(board)) else { return }
    let payloadEnd = record.entries.map { $0.offset + $0.length }.max() ?? 0
    let file = try temporaryFile(in: boardsDirectory)
    try ByteCopier.copy(from: source, offset: 0, length: payloadEnd, to: file.descriptor)
    try file.descriptor.writeAll(record.trailerBytes())
    try file.commit(to: boardPath(board))
  }

  /// A temporary file in the store; a store the user cannot write to is
  /// unusable (exit 4), not an I/O failure.
  func temporaryFile(in dir: String) throws -> TemporaryFile {
    try TemporaryFile(in: dir) { dir, code in
      if code == EACCES || code == EPERM || code == EROFS {
        return .unavailable("the store \(dir) is read-only for you: \(errnoText(code))")
      }
      return TemporaryFile.writeFailure(dir, code)
    }
  }

  /// Runs `body` holding the store's write lock.
  func withLock<T>(_ body: () throws -> T) throws -> T {
    let dir = try Descriptor.open(boardsDirectory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
    guard retryingOnInterrupt({ flock(dir.rawValue, LOCK_EX) }) == 0 else {
      throw systemFailure("lock", boardsDirectory)
    }
    defer { flock(dir.rawValue, LOCK_UN) }
    return try body()
  }

  /// Runs `body`, reporting a damaged store file as one failure that names
  /// the file and says how to recover.
  func reporting<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let damage as DamagedStoreFile {
      throw PasteboardError.failed("\(damage); \(recovery(for: damage.path))")
    }
  }

  private func recovery(for path: String) -> String {
    if path.hasPrefix(boardsDirectory + "/") {
      let name = String(path.dropFirst(boardsDirectory.count + 1))
      return "'pb clear -b \(name)' or a new copy replaces it"
    }
    if path.hasPrefix(historyDirectory + "/") { return "'pb history --clear' removes the board's history" }
    return "remove it to reset it"
  }
}
