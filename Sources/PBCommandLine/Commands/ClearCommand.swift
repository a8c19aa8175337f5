import PasteboardKit

/// `pb clear`: empty the board, or several boards at once (all or none).
enum ClearCommand {
  static let spec = CommandSpec(
    name: "clear", summary: "empty the board", arguments: "", positionalRange: 0...0,
    options: [OptionSpec("if-count", value: "N", "clear only if the change count is still N (else exit 3)")],
    discussion: """
      Clearing is a write: the change count rises by one. With several boards
      (-b a,b) and --if-count, every count is checked first: all are cleared
      or none.
      """,
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let expected: UInt64? = try invocation.number("if-count")
    let boards = try invocation.boards()
    let backend = try BackendChoice.resolve(invocation).open()
    try backend.clear(boards, ifChangeCount: expected)
    return 0
  }
}
