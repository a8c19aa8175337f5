import PasteboardKit

/// `pb history`: the board's past contents, newest first (file backend).
enum HistoryCommand {
  static let spec = CommandSpec(
    name: "history", summary: "list the board's past contents, newest first (file backend)", arguments: "",
    positionalRange: 0...0,
    options: [OptionSpec("clear", "forget the board's history")],
    discussion: """
      Columns: number (1 is the newest, and is the current content when it was
      kept), change count, time, size, type, and a preview of text. Sensitive,
      expiring and paste-limited content is never kept. PB_HISTORY_SIZE sets how
      many entries a board keeps (default 20; 0 keeps none).
      """,
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let board = try invocation.singleBoard()
    let store = try fileBackend(BackendChoice.resolve(invocation).open())
    if invocation.has("clear") {
      try store.clearHistory(of: board)
      return 0
    }
    let entries = try store.history(of: board)
    guard !entries.isEmpty else { throw PasteboardError.nothingThere("board '\(board)' has no history") }
    var rows: [JSON] = []
    var lines = ""
    for entry in entries {
      let rep = entry.contents.items.first?.representations.first
      let size = rep?.payload.knownCount ?? 0
      let preview = try rep.map(preview) ?? ""
      let time = WallClock.localTimestamp(milliseconds: entry.contents.writtenAt ?? 0)
      rows.append(.object([
        ("number", .number(Int64(entry.number))), ("count", .unsigned(entry.contents.changeCount)),
        ("time", .number(entry.contents.writtenAt ?? 0)), ("size", .number(size)),
        ("types", .array(entry.contents.types.map(JSON.string))), ("preview", .string(preview)),
      ]))
      lines += "\(entry.number)\t\(entry.contents.changeCount)\t\(time)\t\(size)\t\(rep?.type ?? "-")\t\(preview)\n"
    }
    try Output.print(invocation.has("json") ? JSON.array(rows).text + "\n" : lines)
    return 0
  }

  /// The N-th entry's contents, for `pb paste --history N`.
  static func entry(_ number: Int, of board: BoardName, in backend: PasteboardBackend) throws -> BoardContents {
    let entries = try fileBackend(backend).history(of: board)
    guard number <= entries.count else {
      throw PasteboardError.nothingThere("board '\(board)' has \(entries.count) history entries, not \(number)")
    }
    return entries[number - 1].contents
  }

  static func fileBackend(_ backend: PasteboardBackend) throws -> FileBackend {
    guard let file = backend as? FileBackend else {
      throw PasteboardError.unavailable("history is kept by the file backend only (this is the \(backend.kind) backend)")
    }
    return file
  }

  /// The first 60 characters of text, on one line; empty for other types.
  static func preview(_ rep: Representation) throws -> String {
    guard MIMEType.isText(rep.type) else { return "" }
    let head = String(decoding: try rep.payload.leadingBytes(240), as: UTF8.self)
    let flat = String(head.map { $0 == "\n" || $0 == "\t" || $0 == "\r\n" ? " " : $0 })
    return String(flat.prefix(60).reversed().drop(while: { $0 == " " }).reversed())
  }
}
