import PasteboardKit

/// `pb boards`: every board with its types, size and change count.
enum BoardsCommand {
  static let spec = CommandSpec(
    name: "boards", summary: "list the boards with their types, sizes and change counts", arguments: "",
    positionalRange: 0...0, options: [],
    discussion: """
      Columns: name, change count, size in bytes of the first type, types
      (comma-separated). A board that cannot be read is listed with the reason,
      and the listing then exits with that failure's status (7 for a damaged
      board file).
      """,
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let backend = try BackendChoice.resolve(invocation).open()
    var rows: [JSON] = []
    var lines = ""
    var unreadable: [(BoardName, PasteboardError)] = []
    for name in try backend.boardNames() {
      let contents: BoardContents
      do {
        contents = try backend.read(name, purpose: .inspect)
      } catch let error as PasteboardError {
        unreadable.append((name, error))
        rows.append(.object([("board", .string(name.rawValue)), ("error", .string(error.description))]))
        lines += "\(name)\t-\t-\t(unreadable: \(VisibleText.escape(error.description)))\n"
        continue
      }
      let size = contents.items.first?.representations.first?.payload.knownCount
      rows.append(.object([
        ("board", .string(name.rawValue)), ("count", .unsigned(contents.changeCount)),
        ("size", size.map(JSON.number) ?? .null), ("types", .array(contents.types.map(JSON.string))),
        ("sensitive", .bool(contents.sensitive)),
      ]))
      let types = contents.isEmpty ? "(empty)" : VisibleText.escape(contents.types.joined(separator: ","))
      lines += "\(name)\t\(contents.changeCount)\t\(size.map(String.init) ?? "-")\t\(types)\n"
    }
    try invocation.io.print(invocation.has("json") ? JSON.array(rows).text + "\n" : lines)
    // The listing is printed, then the first board that could not be read
    // is reported with its own status (7 for a damaged board file).
    if let (_, error) = unreadable.first { throw error }
    return 0
  }
}
