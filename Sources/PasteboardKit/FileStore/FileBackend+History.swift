#if canImport(Glibc)
  import Glibc
#endif

/// One past content of a board.
public struct HistoryEntry {
  /// 1 is the newest.
  public let number: Int
  public let contents: BoardContents
}

extension FileBackend {
  private func historyFolder(_ board: BoardName) -> String { historyDirectory + "/" + board.rawValue }

  /// Links the board's new file into its history and drops the oldest
  /// entries beyond `historyLimit`. Best effort: history never fails a copy.
  func recordHistory(_ board: BoardName, changeCount: UInt64) {
    guard historyLimit > 0 else { return }
    let folder = historyFolder(board)
    guard (try? ensurePrivateDirectory(folder)) != nil else { return }
    let name = String(changeCount)
    let padded = String(repeating: "0", count: max(0, 20 - name.count)) + name
    link(boardPath(board), folder + "/" + padded)
    let entries = listDirectory(folder).sorted()
    for old in entries.dropLast(historyLimit) { unlink(folder + "/" + old) }
  }

  /// The board's kept contents, newest first; entry 1 is the current
  /// content whenever that was kept (it is not when it is sensitive,
  /// expiring or paste-limited).
  public func history(of board: BoardName) throws -> [HistoryEntry] {
    try prepare()
    let folder = historyFolder(board)
    var result: [HistoryEntry] = []
    for name in listDirectory(folder).sorted().reversed() {
      guard let (record, file) = try? BoardRecord.open(folder + "/" + name) else { continue }
      let contents = BoardContents(
        items: record.items(in: file), changeCount: record.changeCount, writtenAt: record.writtenAt)
      result.append(HistoryEntry(number: result.count + 1, contents: contents))
    }
    return result
  }

  /// Removes the board's history.
  public func clearHistory(of board: BoardName) throws {
    try prepare()
    let folder = historyFolder(board)
    for name in listDirectory(folder) { unlink(folder + "/" + name) }
  }
}
