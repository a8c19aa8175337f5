import PasteboardKit
import PasteboardTerminal

/// `pb paste`: the board's content to standard output or a file.
enum PasteCommand {
  static let spec = CommandSpec(
    name: "paste",
    summary: "write the board's content to standard output or a file",
    arguments: "",
    positionalRange: 0...0,
    options: [
      OptionSpec("type", short: "t", value: "MIME", "the type to paste (default: the file name's, else text, else the first)"),
      OptionSpec("output", short: "o", value: "FILE", "write to FILE, atomically (- is standard output)"),
      OptionSpec("timeout", value: "DURATION", "how long to wait for an X11 owner, a Redis server or the terminal (default 5s)"),
      OptionSpec("history", value: "N", "paste the N-th history entry (file and Redis backends, X11 through --keep; 1 is the newest)"),
      OptionSpec("from-terminal", "paste the terminal's clipboard, asked for with OSC 52 (many terminals refuse)"),
    ],
    discussion: """
      Bytes pass through unchanged; no newline is added. With -o the file is
      replaced in one step, and nothing is left behind on failure.
      --from-terminal asks the terminal (through /dev/tty) and waits up to
      --timeout for its answer: exit 5 when none comes, never an empty paste.
      """,
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let board = try invocation.singleBoard()
    let requested = try invocation.value("type").map { t in try usage { try MIMEType.validate(t) }; return t }
    let timeout = try invocation.value("timeout").map { t in try usage { try DurationParser.milliseconds(t) } }
    let historyNumber: Int? = try invocation.number("history", minimum: 1)
    let outputName = invocation.value("output").flatMap { $0 == "-" ? nil : $0 }
    if outputName?.isEmpty == true { throw UsageError("-o needs a file name (or - for standard output), not ''") }
    if invocation.has("from-terminal") {
      if historyNumber != nil { throw UsageError("--history and --from-terminal name different sources; give one") }
      let text = try fromTerminal(board, timeout: timeout ?? 5000, io: invocation.io)
      let rep = try TypeChoice.choose(from: PasteboardItem([Representation(type: MIMEType.utf8Text, bytes: text)]), requested: requested, outputName: outputName)
      try deliver(rep.payload, to: outputName, io: invocation.io)
      return 0
    }
    let backend = try BackendChoice.resolve(invocation).open(timeoutMilliseconds: timeout)
    func choose(_ contents: BoardContents) throws -> Representation {
      guard let item = contents.items.first else { throw emptyBoard(board, on: backend) }
      return try TypeChoice.choose(from: item, requested: requested, outputName: outputName)
    }
    if let historyNumber {
      let contents = try HistoryCommand.historyBackend(backend).historyContents(of: board, number: historyNumber)
      try deliver(try choose(contents).payload, to: outputName, io: invocation.io)
      return 0
    }
    // Look first, so that a paste which cannot succeed (no such type, no
    // such directory) does not use up one of a limited number of pastes.
    let contents = try backend.read(board, purpose: .inspect)
    let rep = try choose(contents)
    let output = try outputName.map(OutputFile.init)
    guard contents.pastesLeft != nil else {
      try write(rep.payload, to: output, io: invocation.io)
      return 0
    }
    // A limited paste is counted only when nothing else can fail before
    // the content is delivered: a file is written first and completed
    // after the count; standard output is checked first.
    if let output {
      try output.write(rep.payload)
      let pasted = try backend.read(board, purpose: .paste)
      if pasted.changeCount != contents.changeCount || pasted.isEmpty {
        // Replaced (or used up) in between: deliver what was counted.
        let fresh = try choose(pasted)
        try output.restart()
        try output.write(fresh.payload)
      }
      try output.commit()
    } else {
      try invocation.io.checkOutputIsWritable()
      try write(try choose(try backend.read(board, purpose: .paste)).payload, to: nil, io: invocation.io)
    }
    return 0
  }

  /// The terminal's clipboard (or primary selection, for `-b primary`).
  static func fromTerminal(_ board: BoardName, timeout: Int64, io: CommandIO) throws -> [UInt8] {
    guard let selection = TerminalSelection(board: board) else {
      throw UsageError("--from-terminal reads general, primary or secondary; a terminal has no board '\(board)'")
    }
    let device: Descriptor
    do {
      device = try io.openTerminal()
    } catch {
      throw PasteboardError.unavailable("cannot ask the terminal: \(error)")
    }
    let text = try TerminalClipboard(device: device).read(selection, timeoutMilliseconds: timeout)
    if text.isEmpty { throw PasteboardError.nothingThere("the terminal's \(board == .general ? "clipboard" : board.rawValue) is empty") }
    return text
  }

  /// Writes `payload` to the file at `path` (atomically) or to standard output.
  static func deliver(_ payload: Payload, to path: String?, io: CommandIO) throws {
    try write(payload, to: try path.map(OutputFile.init), io: io)
  }

  private static func write(_ payload: Payload, to output: OutputFile?, io: CommandIO) throws {
    if let output {
      try output.write(payload)
      try output.commit()
      return
    }
    do {
      try payload.write(to: io.output)
    } catch PasteboardError.failed(let message) {
      throw PasteboardError.failed("paste failed part-way: \(message)")
    }
  }
}

/// The "nothing there" error for an empty board, in the backend's words
/// (on X11: no program owns the selection).
func emptyBoard(_ board: BoardName, on backend: PasteboardBackend) -> PasteboardError {
  .nothingThere(X11Support.emptyReason(backend, board: board) ?? "board '\(board)' is empty")
}
