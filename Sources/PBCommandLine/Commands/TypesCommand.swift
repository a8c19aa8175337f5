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
      try Output.print(JSON.array(items).text + "\n")
    } else {
      try Output.print(first.types.map { $0 + "\n" }.joined())
    }
    return 0
  }
}

/// `pb clear`: empty the board.
enum ClearCommand {
  static let spec = CommandSpec(
    name: "clear", summary: "empty the board", arguments: "", positionalRange: 0...0,
    options: [OptionSpec("if-count", value: "N", "clear only if the change count is still N (else exit 3)")],
    discussion: "Clearing is a write: the change count rises by one.",
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let expected = try invocation.value("if-count").map { text -> UInt64 in
      guard let n = UInt64(text) else {
        throw UsageError("--if-count needs a whole number, not '\(text)'")
      }
      return n
    }
    let backend = try BackendChoice.resolve(invocation).open()
    try backend.clear(try invocation.boards(), ifChangeCount: expected)
    return 0
  }
}

/// `pb count`: the board's change count.
enum CountCommand {
  static let spec = CommandSpec(
    name: "count", summary: "print the board's change count", arguments: "", positionalRange: 0...0,
    options: [], discussion: "A board never written has count 0.", run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let board = try invocation.singleBoard()
    let count = try BackendChoice.resolve(invocation).open().changeCount(of: board)
    try Output.print(invocation.has("json") ? JSON.object([("board", .string(board.rawValue)), ("count", .unsigned(count))]).text + "\n" : "\(count)\n")
    return 0
  }
}
