import PasteboardKit

/// `pb boards`: every board with its types, size and change count.
enum BoardsCommand {
  static let spec = CommandSpec(
    name: "boards", summary: "list the boards with their types, sizes and change counts", arguments: "",
    positionalRange: 0...0, options: [],
    discussion: "Columns: name, change count, size in bytes of the first type, types (comma-separated).",
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let backend = try BackendChoice.resolve(invocation).open()
    var rows: [JSON] = []
    var lines = ""
    for name in try backend.boardNames() {
      let contents = try backend.read(name, purpose: .inspect)
      let size = contents.items.first?.representations.first?.payload.knownCount
      rows.append(.object([
        ("board", .string(name.rawValue)), ("count", .unsigned(contents.changeCount)),
        ("size", size.map(JSON.number) ?? .null), ("types", .array(contents.types.map(JSON.string))),
        ("sensitive", .bool(contents.sensitive)),
      ]))
      let types = contents.isEmpty ? "(empty)" : contents.types.joined(separator: ",")
      lines += "\(name)\t\(contents.changeCount)\t\(size.map(String.init) ?? "-")\t\(types)\n"
    }
    try Output.print(invocation.has("json") ? JSON.array(rows).text + "\n" : lines)
    return 0
  }
}
