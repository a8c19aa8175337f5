#if canImport(Glibc)
  import Glibc
#endif

/// Replacing boards: a write or a clear stages every board's new file,
/// then renames them into place under the store's lock, all or nothing.
extension FileBackend {
  /// One board's new file, ready to be renamed into place.
  struct Staged {
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
          let previous = try previousRecord(board)
          var record = BoardRecord(
            changeCount: previous.changeCount + 1, writtenAt: clock(),
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
            staged.append(Staged(board: board, record: record, file: pointer, secret: (name, file), previousSecret: previous.sensitiveName))
          } else {
            staged.append(Staged(board: board, record: record, file: file, secret: nil, previousSecret: previous.sensitiveName))
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
  func commit(_ staged: [Staged], size: Int64, keepHistory: Bool) throws {
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
  func stream(
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

  func clone(_ data: TemporaryFile, bytes: Int64, in dir: String) throws -> TemporaryFile {
    let copy = try temporaryFile(in: dir)
    // The original may already be renamed into place; its descriptor still reads.
    try ByteCopier.copy(from: data.descriptor, offset: 0, length: bytes, to: copy.descriptor)
    return copy
  }

  /// Refuses, before any board changes, a board whose place holds a
  /// directory, which no rename can replace.
  func checkReplaceable(_ boards: [BoardName]) throws {
    for board in boards {
      var st = stat()
      if lstat(boardPath(board), &st) == 0 && st.st_mode & S_IFMT == S_IFDIR {
        throw PasteboardError.failed(
          "\(boardPath(board)) is a directory, not a board file; remove it to use board '\(board)'; no board changed")
      }
    }
  }

  /// The board's record (read once), or for a damaged board an empty
  /// record with the highest count its history remembers, so that
  /// replacing it never lowers the count.
  func previousRecord(_ board: BoardName) throws -> BoardRecord {
    do {
      return try BoardRecord.open(boardPath(board))?.record ?? BoardRecord()
    } catch is DamagedStoreFile {
      return BoardRecord(changeCount: recoveredCount(board))
    }
  }

  /// A staged empty board that follows `previous`.
  func emptyBoardFile(after previous: BoardRecord) throws -> (record: BoardRecord, file: TemporaryFile) {
    let empty = BoardRecord(changeCount: previous.changeCount + 1, writtenAt: clock())
    let file = try temporaryFile(in: boardsDirectory)
    try file.descriptor.writeAll(empty.trailerBytes())
    return (empty, file)
  }


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
          let (empty, file) = try emptyBoardFile(after: record)
          return Staged(board: board, record: empty, file: file, secret: nil, previousSecret: record.sensitiveName)
        }
        try commit(staged, size: 0, keepHistory: false)
      }
    }
  }
}
