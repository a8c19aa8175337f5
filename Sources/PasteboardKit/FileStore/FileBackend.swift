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

  // MARK: Writing

  /// One board's new file, ready to be renamed into place.
  private struct Staged {
    let board: BoardName
    let record: BoardRecord
    let file: TemporaryFile
    /// The file holding sensitive content, and its name in the store's
    /// runtime directory.
    let secret: (name: String, file: TemporaryFile)?
    let previousSecret: String?
  }

  /// Writes all the boards or none: every board's file is prepared before
  /// any is renamed into place, and should a rename still fail, the error
  /// names the boards that changed and those that did not.
  public func write(_ items: [PasteboardItem], to boards: [BoardName], options: WriteOptions) throws {
    try reporting {
      try prepare()
      let sensitive = options.sensitive ? try SensitiveStore.prepare(store: location.directory) : nil
      sweepTemporaryFiles()
      let dataDirectory = sensitive?.directory ?? boardsDirectory
      let data = try temporaryFile(in: dataDirectory)
      var entries: [BoardRecord.Entry] = []
      var size: Int64 = 0
      do {
        try stream(items, into: data, entries: &entries, size: &size)
      } catch PasteboardError.failed(let reason) {
        throw PasteboardError.failed("\(reason) (storing into \(dataDirectory)); the board is unchanged")
      }
      try withLock {
        try checkReplaceable(boards)
        var staged: [Staged] = []
        for (i, board) in boards.enumerated() {
          let previous = try? BoardRecord.open(boardPath(board))?.record
          var record = BoardRecord(
            changeCount: try currentCount(board) + 1, writtenAt: clock(),
            expiresAt: options.expiresAt, pastesLeft: options.pasteLimit, entries: entries)
          // The first board takes the streamed file; others get a copy.
          let file = i == 0 ? data : try clone(data, bytes: size, in: dataDirectory)
          try file.descriptor.writeAll(record.trailerBytes())
          if sensitive != nil {
            let name = "\(board).\(record.changeCount)"
            record.entries = []
            record.sensitiveName = name
            let pointer = try temporaryFile(in: boardsDirectory)
            try pointer.descriptor.writeAll(record.trailerBytes())
            staged.append(Staged(board: board, record: record, file: pointer, secret: (name, file), previousSecret: previous?.sensitiveName))
          } else {
            staged.append(Staged(board: board, record: record, file: file, secret: nil, previousSecret: previous?.sensitiveName))
          }
        }
        // A killed or failed writer may leave secrets no board refers to.
        defer { if sensitive != nil || staged.contains(where: { $0.previousSecret != nil }) { removeUnreferencedSecrets() } }
        if let sensitive {
          // Secrets first: none is referred to until its board lands.
          for s in staged {
            if let secret = s.secret, let path = sensitive.path(of: secret.name) { try secret.file.commit(to: path) }
          }
        }
        try commit(staged, size: size, keepHistory: sensitive == nil && options.expiresAt == nil && options.pasteLimit == nil)
      }
      if let expiry = options.expiresAt { onExpiringWrite?(expiry) }
    }
  }

  /// Renames every staged file into place, then removes the secrets the
  /// boards no longer refer to and records history.
  private func commit(_ staged: [Staged], size: Int64, keepHistory: Bool) throws {
    var changed: [BoardName] = []
    for s in staged {
      do {
        try s.file.commit(to: boardPath(s.board))
      } catch PasteboardError.failed(let reason) {
        let unchanged = staged.map(\.board).filter { !changed.contains($0) }
        let summary =
          changed.isEmpty
          ? "no board changed"
          : "changed: \(changed.map(\.rawValue).joined(separator: ", ")); unchanged: \(unchanged.map(\.rawValue).joined(separator: ", "))"
        throw PasteboardError.failed("\(reason); \(summary)")
      }
      changed.append(s.board)
      if let old = s.previousSecret { removeSecret(old) }
      if keepHistory { recordHistory(s.board, changeCount: s.record.changeCount, size: size) }
    }
  }

  /// Writes every representation's bytes into `data`, recording where each
  /// lies. One stream offered under several types is stored once.
  private func stream(
    _ items: [PasteboardItem], into data: TemporaryFile, entries: inout [BoardRecord.Entry], size offset: inout Int64
  ) throws {
    var stored: [ObjectIdentifier: (offset: Int64, length: Int64)] = [:]
    for (index, item) in items.enumerated() {
      for rep in item.representations {
        if let id = rep.payload.streamIdentity, let place = stored[id] {
          entries.append(.init(item: index, offset: place.offset, length: place.length, type: rep.type))
          continue
        }
        let length = try rep.payload.write(to: data.descriptor)
        entries.append(.init(item: index, offset: offset, length: length, type: rep.type))
        if let id = rep.payload.streamIdentity { stored[id] = (offset, length) }
        offset += length
      }
    }
  }

  // MARK: Clearing

  public func clear(_ boards: [BoardName], ifChangeCount: UInt64?) throws {
    try reporting {
      try prepare()
      try withLock {
        try checkReplaceable(boards)
        var previous: [BoardRecord] = []
        for board in boards {
          var record = BoardRecord()
          do {
            record = try BoardRecord.open(boardPath(board))?.record ?? BoardRecord()
          } catch let damage as DamagedStoreFile {
            if ifChangeCount != nil {
              throw PasteboardError.refused(
                "board '\(board)' is damaged (\(damage.reason)), so its change count is unknown; nothing cleared (pb clear without --if-count replaces it)")
            }
            record.changeCount = recoveredCount(board)
          }
          if let expected = ifChangeCount, expected != record.changeCount {
            throw PasteboardError.refused(
              "board '\(board)' has changed since (count \(record.changeCount), expected \(expected)); nothing cleared")
          }
          previous.append(record)
        }
        let staged = try zip(boards, previous).map { board, record in
          let empty = BoardRecord(changeCount: record.changeCount + 1, writtenAt: clock())
          let file = try temporaryFile(in: boardsDirectory)
          try file.descriptor.writeAll(empty.trailerBytes())
          return Staged(board: board, record: empty, file: file, secret: nil, previousSecret: record.sensitiveName)
        }
        try commit(staged, size: 0, keepHistory: false)
      }
    }
  }

  // MARK: Helpers (called with the lock held)

  /// Refuses, before any board changes, a board whose place holds a
  /// directory, which no rename can replace.
  private func checkReplaceable(_ boards: [BoardName]) throws {
    for board in boards {
      var st = stat()
      if lstat(boardPath(board), &st) == 0 && st.st_mode & S_IFMT == S_IFDIR {
        throw PasteboardError.failed(
          "\(boardPath(board)) is a directory, not a board file; remove it to use board '\(board)'; no board changed")
      }
    }
  }

  /// The board's change count, or for a damaged board the highest count its
  /// history remembers, so that replacing it never lowers the count.
  private func currentCount(_ board: BoardName) throws -> UInt64 {
    do {
      return try BoardRecord.open(boardPath(board))?.record.changeCount ?? 0
    } catch is DamagedStoreFile {
      return recoveredCount(board)
    }
  }

  private func replaceWithEmpty(_ board: BoardName, previous: BoardRecord) throws {
    let empty = BoardRecord(changeCount: previous.changeCount + 1, writtenAt: clock())
    let file = try temporaryFile(in: boardsDirectory)
    try file.descriptor.writeAll(empty.trailerBytes())
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

  private func clone(_ data: TemporaryFile, bytes: Int64, in dir: String) throws -> TemporaryFile {
    let copy = try temporaryFile(in: dir)
    // The original may already be renamed into place; its descriptor still reads.
    try ByteCopier.copy(from: data.descriptor, offset: 0, length: bytes, to: copy.descriptor)
    return copy
  }

  /// Removes the sensitive file `name` of this store (a bare name, checked;
  /// never a path read from a file).
  private func removeSecret(_ name: String) {
    guard let path = SensitiveStore.of(store: location.directory)?.path(of: name) else { return }
    unlink(path)
  }

  /// Removes the files of this store's sensitive directory that no board
  /// refers to (left by a writer killed between its steps).
  private func removeUnreferencedSecrets() {
    guard let sensitive = SensitiveStore.of(store: location.directory),
      let names = try? StoreFile.names(inDirectoryAt: sensitive.directory),
      let boards = try? StoreFile.names(inDirectoryAt: boardsDirectory)
    else { return }
    var referenced = Set<String>()
    for board in boards {
      guard let record = try? BoardRecord.open(boardsDirectory + "/" + board)?.record else { continue }
      if let name = record.sensitiveName { referenced.insert(name) }
    }
    for name in names where !referenced.contains(name) {
      if let path = sensitive.path(of: name) { unlink(path) }
    }
  }

  /// Removes temporary files that killed writers left in the store and in
  /// its sensitive directory.
  private func sweepTemporaryFiles() {
    TemporaryFile.sweepStale(in: boardsDirectory)
    if let sensitive = SensitiveStore.of(store: location.directory) {
      TemporaryFile.sweepStale(in: sensitive.directory)
    }
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
