import PasteboardKit

/// `pb count`: the board's change count (UIPasteboard's changeCount).
enum CountCommand {
  static let spec = CommandSpec(
    name: "count", summary: "print the board's change count", arguments: "", positionalRange: 0...0,
    options: [], discussion: "A board never written has count 0.", run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let board = try invocation.singleBoard()
    let count = try BackendChoice.resolve(invocation).open().changeCount(of: board)
    let json = JSON.object([("board", .string(board.rawValue)), ("count", .unsigned(count))])
    try invocation.io.print(invocation.has("json") ? json.text + "\n" : "\(count)\n")
    return 0
  }
}
