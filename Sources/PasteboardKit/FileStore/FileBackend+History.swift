#if canImport(Glibc)
  import Glibc
#endif

/// How much history the file backend keeps per board: at most `entries`
/// past contents, none larger than `entryBytes`, and no more than
/// `totalBytes` together (the oldest go first). Content above `entryBytes`
/// is simply not kept, so copying a gigabyte costs no gigabyte of history.
public struct HistoryLimits: Equatable {
  public var entries: Int
  public var entryBytes: Int64
  public var totalBytes: Int64

  public static let defaultEntries = 20
  public static let defaultEntryBytes: Int64 = 16 << 20
  public static let defaultTotalBytes: Int64 = 64 << 20

  public init(
    entries: Int = defaultEntries, entryBytes: Int64 = defaultEntryBytes, totalBytes: Int64 = defaultTotalBytes
  ) {
    self.entries = entries
    self.entryBytes = entryBytes
    self.totalBytes = totalBytes
  }
}

/// One past content of a board, as `pb history` lists it. Reading the
/// list opens one entry at a time and keeps none open.
public struct HistoryEntry {
  /// 1 is the newest.
  public let number: Int
  public let changeCount: UInt64
  public let writtenAt: Int64
  public let types: [String]
  /// The size of the first representation.
  public let size: Int64
  /// The first bytes (up to 256) of the first representation.
  public let sample: [UInt8]
  /// Why the entry cannot be read, when it cannot.
  public let damage: String?

  public init(
    number: Int, changeCount: UInt64, writtenAt: Int64, types: [String], size: Int64, sample: [UInt8], damage: String?
  ) {
    self.number = number
    self.changeCount = changeCount
    self.writtenAt = writtenAt
    self.types = types
    self.size = size
    self.sample = sample
    self.damage = damage
  }
}

extension FileBackend: HistoryKeeping {
  private func historyFolder(_ board: BoardName) -> String { historyDirectory + "/" + board.rawValue }

  /// `COUNT` padded to 20 digits: names sort in the order of the counts.
  private static func entryName(_ count: UInt64) -> String {
    let name = String(count)
    return String(repeating: "0", count: max(0, 20 - name.count)) + name
  }

  /// Links the board's new file into its history and drops what goes past
  /// the limits. Best effort: history never fails a copy, and a history
  /// folder that is not a plain directory of the user's is left alone.
  func recordHistory(_ board: BoardName, changeCount: UInt64, size: Int64) {
    guard historyLimits.entries > 0, size <= historyLimits.entryBytes, size <= historyLimits.totalBytes else { return }
    let folder = historyFolder(board)
    if mkdir(folder, 0o700) != 0 && errno != EEXIST { return }
    guard let dir = try? StoreFile.openDirectory(folder) else { return }
    _ = linkat(AT_FDCWD, boardPath(board), dir.rawValue, FileBackend.entryName(changeCount), 0)
    prune(dir, folder: folder)
  }

  /// Drops the oldest entries beyond the count and the total size.
  private func prune(_ dir: Descriptor, folder: String) {
    guard let names = try? StoreFile.names(in: dir, path: folder) else { return }
    var entries = names.filter(FileBackend.isEntryName).sorted().map { name -> (String, Int64) in
      var st = stat()
      return (name, fstatat(dir.rawValue, name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? Int64(st.st_size) : 0)
    }
    var total = entries.reduce(0) { $0 + $1.1 }
    while let oldest = entries.first, entries.count > historyLimits.entries || total > historyLimits.totalBytes {
      unlinkat(dir.rawValue, oldest.0, 0)
      total -= oldest.1
      entries.removeFirst()
    }
  }

  private static func isEntryName(_ name: String) -> Bool {
    name.utf8.count == 20 && name.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
  }

  /// The names of the board's history entries, newest first.
  private func entryNames(_ board: BoardName) throws -> (dir: Descriptor, names: [String])? {
    let folder = historyFolder(board)
    guard let dir = try StoreFile.openDirectory(folder) else { return nil }
    return (dir, try StoreFile.names(in: dir, path: folder).filter(FileBackend.isEntryName).sorted().reversed())
  }

  /// The board's kept contents, newest first; entry 1 is the current
  /// content whenever that was kept (it is not when it is sensitive,
  /// expiring, paste-limited or over the size limits).
  /// - Throws: `.failed` when the history cannot be read in full (a
  ///   listing is never silently partial), naming a damaged history folder.
  public func history(of board: BoardName) throws -> [HistoryEntry] {
    try reporting {
      try prepare()
      guard let (dir, names) = try entryNames(board) else { return [] }
      var result: [HistoryEntry] = []
      for name in names {
        let number = result.count + 1
        let path = historyFolder(board) + "/" + name
        do {
          guard let file = try StoreFile.openRegular(name, at: dir.rawValue) else { continue }  // pruned meanwhile
          let record = try BoardRecord.read(from: file, size: Int64(try file.status().st_size), path: path)
          let first = record.items(in: file).first?.representations.first
          result.append(
            HistoryEntry(
              number: number, changeCount: record.changeCount, writtenAt: record.writtenAt,
              types: record.items(in: file).first?.types ?? [], size: first?.payload.knownCount ?? 0,
              sample: try first?.payload.leadingBytes(256) ?? [], damage: nil))
        } catch let damage as DamagedStoreFile {
          result.append(
            HistoryEntry(
              number: number, changeCount: UInt64(name) ?? 0, writtenAt: 0, types: [], size: 0, sample: [],
              damage: damage.reason))
        }
      }
      return result
    }
  }

  /// The contents of history entry `number` (1 is the newest).
  /// - Throws: `.nothingThere` when there is no such entry.
  public func historyContents(of board: BoardName, number: Int) throws -> BoardContents {
    try reporting {
      try prepare()
      guard let (dir, names) = try entryNames(board), number >= 1, number <= names.count else {
        let count = try entryNames(board)?.names.count ?? 0
        throw PasteboardError.nothingThere("board '\(board)' has \(count) history entries, not \(number)")
      }
      let name = names[number - 1]
      let path = historyFolder(board) + "/" + name
      guard let file = try StoreFile.openRegular(name, at: dir.rawValue) else {
        throw PasteboardError.nothingThere("history entry \(number) of board '\(board)' is gone")
      }
      let record = try BoardRecord.read(from: file, size: Int64(try file.status().st_size), path: path)
      return BoardContents(items: record.items(in: file), changeCount: record.changeCount, writtenAt: record.writtenAt)
    }
  }

  /// Removes the board's history. A history folder that is a link or not a
  /// directory is removed as a name; nothing is deleted through it.
  public func clearHistory(of board: BoardName) throws {
    try reporting {
      try prepare()
      let folder = historyFolder(board)
      var st = stat()
      guard lstat(folder, &st) == 0 else { return }
      if st.st_mode & S_IFMT != S_IFDIR {
        guard unlink(folder) == 0 else { throw systemFailure("remove", folder) }
        return
      }
      guard let dir = try StoreFile.openDirectory(folder) else { return }
      for name in try StoreFile.names(in: dir, path: folder) where unlinkat(dir.rawValue, name, 0) != 0 {
        throw systemFailure("remove", folder + "/" + name)
      }
    }
  }

  /// The highest change count the board's history remembers (0 if none):
  /// the count a damaged board is replaced from.
  func recoveredCount(_ board: BoardName) -> UInt64 {
    guard let names = try? entryNames(board)?.names else { return 0 }
    return names.compactMap { UInt64($0) }.max() ?? 0
  }
}
