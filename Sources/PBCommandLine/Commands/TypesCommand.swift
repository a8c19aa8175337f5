import PasteboardKit

/// `pb types`: the types on the board, one per line.
enum TypesCommand {
  static let spec = CommandSpec(
    name: "types", summary: "list the types on the board, one per line", arguments: "",
    positionalRange: 0...0, options: [],
    discussion: "With --json: an array of items, each an array of {type, size} (size null when unknown).",
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let board = try invocation.singleBoard()
    let backend = try BackendChoice.resolve(invocation).open()
    let contents = try backend.read(board, purpose: .inspect)
    guard let first = contents.items.first else { throw emptyBoard(board, on: backend) }
    if invocation.has("json") {
      let items = contents.items.map { item in
        JSON.array(item.representations.map { rep in
          .object([("type", .string(rep.type)), ("size", rep.payload.knownCount.map(JSON.number) ?? .null)])
        })
      }
      try invocation.io.print(JSON.array(items).text + "\n")
    } else {
      // An X11 owner may name a target anything: shown safely.
      try invocation.io.print(first.types.map { VisibleText.escape($0) + "\n" }.joined())
    }
    return 0
  }
}
