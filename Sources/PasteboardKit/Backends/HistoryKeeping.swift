/// A backend that keeps each board's past contents (the file store, a
/// Redis server), within the same `HistoryLimits`: `pb history` and
/// `pb paste --history N` read any of them.
public protocol HistoryKeeping: PasteboardBackend {
  /// The board's kept contents, newest first; entry 1 is the current
  /// content whenever that was kept.
  func history(of board: BoardName) throws -> [HistoryEntry]
  /// The contents of history entry `number` (1 is the newest).
  /// - Throws: `.nothingThere` when there is no such entry.
  func historyContents(of board: BoardName, number: Int) throws -> BoardContents
  /// Forgets the board's history.
  func clearHistory(of board: BoardName) throws
}
