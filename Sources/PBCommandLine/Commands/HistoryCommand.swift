import PasteboardKit

/// `pb history`: the board's past contents, newest first (file backend).
enum HistoryCommand {
  static let spec = CommandSpec(
    name: "history", summary: "list the board's past contents, newest first (file, Redis; X11 through pb watch --keep)", arguments: "",
    positionalRange: 0...0,
    options: [OptionSpec("clear", "forget the board's history")],
    discussion: """
      Columns: number (1 is the newest, and is the current content when it was
      kept), change count, time, size, type, and a preview of text (control
      characters shown as ^[ and the like). Sensitive, expiring and
      paste-limited content is never kept. PB_HISTORY_SIZE sets how many
      entries a board keeps (default 20; 0 keeps none), PB_HISTORY_ENTRY_MAX
      the largest content kept (default 16M), PB_HISTORY_TOTAL_MAX the most a
      board's history holds (default 64M).
      """,
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let board = try invocation.singleBoard()
    let store = try historyBackend(BackendChoice.resolve(invocation).open())
    if invocation.has("clear") {
      try store.clearHistory(of: board)
      return 0
    }
    let entries = try store.history(of: board)
    guard !entries.isEmpty else { throw PasteboardError.nothingThere("board '\(board)' has no history") }
    var rows: [JSON] = []
    var lines = ""
    for entry in entries {
      if let damage = entry.damage {
        rows.append(.object([("number", .number(Int64(entry.number))), ("count", .unsigned(entry.changeCount)), ("damaged", .string(damage))]))
        lines += "\(entry.number)\t\(entry.changeCount)\t-\t-\t-\t(damaged: \(VisibleText.escape(damage)))\n"
        continue
      }
      let type = entry.types.first
      let text = type.map(MIMEType.isText) ?? false
      let time = WallClock.localTimestamp(milliseconds: entry.writtenAt)
      rows.append(.object([
        ("number", .number(Int64(entry.number))), ("count", .unsigned(entry.changeCount)),
        ("time", .number(entry.writtenAt)), ("size", .number(entry.size)),
        ("types", .array(entry.types.map(JSON.string))),
        ("preview", .string(text ? String(decoding: head(entry.sample, bytes: 240), as: UTF8.self) : "")),
      ]))
      let preview = text ? VisibleText.preview(head(entry.sample, bytes: 240), limit: 60) : ""
      lines += "\(entry.number)\t\(entry.changeCount)\t\(time)\t\(entry.size)\t\(VisibleText.escape(type ?? "-"))\t\(preview)\n"
    }
    try invocation.io.print(invocation.has("json") ? JSON.array(rows).text + "\n" : lines)
    return entries.contains { $0.damage != nil } ? try damagedEntries(board, entries) : 0
  }

  /// Reports damaged entries after listing the rest: a listing with a hole
  /// in it is not a success.
  private static func damagedEntries(_ board: BoardName, _ entries: [HistoryEntry]) throws -> Int32 {
    let numbers = entries.filter { $0.damage != nil }.map { String($0.number) }
    throw PasteboardError.failed(
      "history entr\(numbers.count == 1 ? "y" : "ies") \(numbers.joined(separator: ", ")) of board '\(board)' cannot be read; 'pb history --clear' removes the board's history")
  }

  /// At most `count` bytes from the start of `sample`, never ending in the
  /// middle of a UTF-8 character (the preview must not invent a U+FFFD).
  static func head(_ sample: [UInt8], bytes count: Int) -> [UInt8] {
    var cut = min(count, sample.count)
    if cut < sample.count {
      while cut > 0 && sample[cut] & 0xC0 == 0x80 { cut -= 1 }
    }
    return Array(sample[..<cut])
  }

  /// The store whose history the command reads: the backend itself when
  /// it keeps history (file, Redis), or, on X11, the file store, where
  /// `pb watch --keep` keeps the desktop clipboard's history.
  static func historyBackend(_ backend: PasteboardBackend) throws -> HistoryKeeping {
    if let keeping = backend as? HistoryKeeping { return keeping }
    guard backend.kind == "x11" else {
      throw PasteboardError.unavailable("history is kept by the file and Redis backends only (this is the \(backend.kind) backend)")
    }
    return try FileBackendFactory.make()
  }
}
