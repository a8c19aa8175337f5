#if canImport(Glibc)
  import Glibc
#endif

/// Boards kept as files: persistent, private and safe under concurrency.
///
/// Layout under the store directory (mode 0700, files 0600):
/// - `boards/NAME`: the board's current content (see `BoardRecord`);
/// - `history/NAME/COUNT`: hard links to earlier board files, so keeping
///   history costs no copy.
///
/// Writers stream content into a temporary file, then take an exclusive
/// `flock` on the `boards` directory only to read the current change count,
/// append the trailer and rename the file into place. Readers never lock:
/// `rename` replaces a board in one step, and a reader keeps reading the
/// file it opened.
public final class FileBackend: PasteboardBackend {
  public let location: StoreLocation
  /// How many past contents to keep per board; 0 keeps none.
  public let historyLimit: Int
  /// Called after a write with an expiry, so that the caller can arrange a
  /// clear at that time even if nobody reads the board (`pb` starts a
  /// background sweeper). Reads treat expired content as gone regardless.
  public var onExpiringWrite: ((BoardName, UInt64, Int64) -> Void)?
  public var clock: () -> Int64 = WallClock.nowMilliseconds

  public let kind = "file"
  private var prepared = false

  public init(location: StoreLocation, historyLimit: Int = 20) {
    self.location = location
    self.historyLimit = historyLimit
  }

  var boardsDirectory: String { location.directory + "/boards" }
  var historyDirectory: String { location.directory + "/history" }
  func boardPath(_ board: BoardName) -> String { boardsDirectory + "/" + board.rawValue }

  /// Creates the store on first use and refuses an unsafe one.
  func prepare() throws {
    guard !prepared else { return }
    try ensurePrivateDirectory(location.directory)
    try ensurePrivateDirectory(boardsDirectory)
    try ensurePrivateDirectory(historyDirectory)
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
    try prepare()
    let current = try snapshot(board)
    if purpose == .paste, current?.contents.pastesLeft != nil {
      return try withLock { try consumePaste(board) }
    }
    return current?.contents ?? BoardContents(items: [], changeCount: 0)
  }

  /// The board's content as stored now, with expired or vanished content
  /// read as empty.
  func snapshot(_ board: BoardName) throws -> (record: BoardRecord, contents: BoardContents)? {
    guard let (record, file) = try BoardRecord.open(boardPath(board)) else { return nil }
    var contents = BoardContents(
      items: [], changeCount: record.changeCount, sensitive: record.sensitiveFile != nil,
      expiresAt: record.expiresAt, pastesLeft: record.pastesLeft, writtenAt: record.writtenAt)
    if let expiry = record.expiresAt, clock() >= expiry { return (record, contents) }
    if let secret = record.sensitiveFile {
      // Gone with the session (or cleared): the board reads as empty.
      guard let (inner, innerFile) = try BoardRecord.open(secret) else { return (record, contents) }
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
      try replaceWithEmpty(board, record: record)
    } else {
      var next = record
      next.pastesLeft = left - 1
      try rewriteTrailer(board, record: next)
    }
    return contents
  }

  public func changeCount(of board: BoardName) throws -> UInt64 {
    try prepare()
    return try BoardRecord.open(boardPath(board))?.record.changeCount ?? 0
  }

  public func boardNames() throws -> [BoardName] {
    try prepare()
    return listDirectory(boardsDirectory).compactMap { try? BoardName($0) }.sorted()
  }

  // MARK: Writing

  public func write(_ items: [PasteboardItem], to boards: [BoardName], options: WriteOptions) throws {
    try prepare()
    let dataDirectory = options.sensitive ? try sensitiveDirectory() : boardsDirectory
    TemporaryFile.sweepStale(in: boardsDirectory)
    let data = try TemporaryFile(in: dataDirectory)
    var entries: [BoardRecord.Entry] = []
    var offset: Int64 = 0
    do {
      try stream(items, into: data, entries: &entries, size: &offset)
    } catch PasteboardError.failed(let reason) {
      throw PasteboardError.failed("\(reason) (storing into \(dataDirectory)); the board is unchanged")
    }
    try withLock {
      for (i, board) in boards.enumerated() {
        let previous = try BoardRecord.open(boardPath(board))?.record
        var record = BoardRecord(
          changeCount: (previous?.changeCount ?? 0) + 1, writtenAt: clock(),
          expiresAt: options.expiresAt, pastesLeft: options.pasteLimit, entries: entries)
        // The first board takes the streamed file; others get a copy.
        let file = i == 0 ? data : try clone(data, bytes: offset, in: dataDirectory)
        if options.sensitive {
          let secretPath = dataDirectory + "/" + board.rawValue + ".\(record.changeCount).\(getpid())"
          try file.descriptor.writeAll(record.trailerBytes())
          try file.commit(to: secretPath)
          record.entries = []
          record.sensitiveFile = secretPath
          let pointer = try TemporaryFile(in: boardsDirectory)
          try pointer.descriptor.writeAll(record.trailerBytes())
          try pointer.commit(to: boardPath(board))
        } else {
          try file.descriptor.writeAll(record.trailerBytes())
          try file.commit(to: boardPath(board))
        }
        if let old = previous?.sensitiveFile { unlink(old) }
        if !options.sensitive && options.expiresAt == nil && options.pasteLimit == nil {
          recordHistory(board, changeCount: record.changeCount)
        }
        if let expiry = options.expiresAt { onExpiringWrite?(board, record.changeCount, expiry) }
      }
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

  public func clear(_ boards: [BoardName], ifChangeCount: UInt64?) throws {
    try prepare()
    try withLock {
      let previous = try boards.map { try BoardRecord.open(boardPath($0))?.record ?? BoardRecord() }
      for (board, record) in zip(boards, previous) {
        if let expected = ifChangeCount, expected != record.changeCount {
          throw PasteboardError.refused(
            "board '\(board)' has changed since (count \(record.changeCount), expected \(expected)); nothing cleared")
        }
      }
      for (board, record) in zip(boards, previous) { try replaceWithEmpty(board, record: record) }
    }
  }

  /// Waits until `deadline`, then clears the board if it still holds the
  /// content written as change `count` (what `pb`'s sweeper runs).
  public func expire(_ board: BoardName, changeCount count: UInt64, at deadline: Int64) {
    WallClock.sleep(untilMilliseconds: deadline)
    try? clear(board, ifChangeCount: count)
  }

  // MARK: Helpers (called with the lock held)

  private func replaceWithEmpty(_ board: BoardName, record previous: BoardRecord) throws {
    let empty = BoardRecord(changeCount: previous.changeCount + 1, writtenAt: clock())
    let file = try TemporaryFile(in: boardsDirectory)
    try file.descriptor.writeAll(empty.trailerBytes())
    try file.commit(to: boardPath(board))
    if let secret = previous.sensitiveFile { unlink(secret) }
  }

  /// Rewrites a board with a changed trailer and the same payloads and
  /// change count (used to count down a paste limit).
  private func rewriteTrailer(_ board: BoardName, record: BoardRecord) throws {
    guard let (_, source) = try BoardRecord.open(boardPath(board)) else { return }
    let payloadEnd = record.entries.map { $0.offset + $0.length }.max() ?? 0
    let file = try TemporaryFile(in: boardsDirectory)
    try ByteCopier.copy(from: source, offset: 0, length: payloadEnd, to: file.descriptor)
    try file.descriptor.writeAll(record.trailerBytes())
    try file.commit(to: boardPath(board))
  }

  private func clone(_ data: TemporaryFile, bytes: Int64, in dir: String) throws -> TemporaryFile {
    let copy = try TemporaryFile(in: dir)
    // The original may already be renamed into place; its descriptor still reads.
    try ByteCopier.copy(from: data.descriptor, offset: 0, length: bytes, to: copy.descriptor)
    return copy
  }

  /// Runs `body` holding the store's write lock.
  private func withLock<T>(_ body: () throws -> T) throws -> T {
    let dir = try Descriptor.open(boardsDirectory, O_RDONLY | O_DIRECTORY)
    guard retryingOnInterrupt({ flock(dir.rawValue, LOCK_EX) }) == 0 else {
      throw systemFailure("lock", boardsDirectory)
    }
    defer { flock(dir.rawValue, LOCK_UN) }
    return try body()
  }
}

/// The names in `dir`, without dot files.
func listDirectory(_ dir: String) -> [String] {
  guard let handle = opendir(dir) else { return [] }
  defer { closedir(handle) }
  var names: [String] = []
  while let entry = readdir(handle) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) {
      String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
    }
    if !name.hasPrefix(".") { names.append(name) }
  }
  return names
}
