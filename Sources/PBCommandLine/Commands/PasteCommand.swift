import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// `pb paste`: the board's content to standard output or a file.
enum PasteCommand {
  static let spec = CommandSpec(
    name: "paste",
    summary: "write the board's content to standard output or a file",
    arguments: "",
    positionalRange: 0...0,
    options: [
      OptionSpec("type", short: "t", value: "MIME", "the type to paste (default: the file name's, else text, else the first)"),
      OptionSpec("output", short: "o", value: "FILE", "write to FILE, atomically, instead of standard output"),
      OptionSpec("timeout", value: "DURATION", "how long to wait for an X11 owner (default 5s)"),
      OptionSpec("history", value: "N", "paste the N-th history entry (file backend; 1 is the newest)"),
    ],
    discussion: """
      Bytes pass through unchanged; no newline is added. With -o the file is
      replaced in one step, and nothing is left behind on failure.
      """,
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let board = try invocation.singleBoard()
    let requested = try invocation.value("type").map { t in try usage { try MIMEType.validate(t) }; return t }
    let timeout = try invocation.value("timeout").map { t in try usage { try DurationParser.milliseconds(t) } }
    let historyNumber = try invocation.value("history").map { text -> Int in
      guard let n = Int(text), n > 0 else {
        throw UsageError(message: "--history needs a positive whole number, not '\(text)'", command: "paste")
      }
      return n
    }
    let backend = try BackendChoice.resolve(invocation).open(timeoutMilliseconds: timeout)
    let contents: BoardContents
    if let historyNumber {
      contents = try HistoryCommand.entry(historyNumber, of: board, in: backend)
    } else {
      contents = try backend.read(board, purpose: .paste)
    }
    guard let item = contents.items.first else {
      throw PasteboardError.nothingThere("board '\(board)' is empty")
    }
    let output = invocation.value("output")
    let rep = try TypeChoice.choose(from: item, requested: requested, outputName: output)
    if let output {
      try AtomicOutput.write(rep.payload, to: output)
    } else {
      do {
        try rep.payload.write(to: Output.standardOutput)
      } catch PasteboardError.failed(let message) {
        throw PasteboardError.failed("paste failed part-way: \(message)")
      }
    }
    return 0
  }
}

/// Writes a file all or nothing: into a temporary file beside it, renamed
/// over it on success, removed on failure.
enum AtomicOutput {
  static func write(_ payload: Payload, to path: String) throws {
    let slash = path.lastIndex(of: "/")
    let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    // Keep an existing file's mode; a new file gets 0666 less the umask, as
    // a shell redirection would.
    var st = stat()
    let existing = stat(path, &st) == 0
    if existing && (st.st_mode & S_IFMT) == S_IFDIR {
      throw PasteboardError.failed("cannot write \(path): it is a directory")
    }
    let file = try TemporaryFile(in: dir, mode: existing ? st.st_mode & 0o7777 : 0o666)
    if existing { fchmod(file.descriptor.rawValue, st.st_mode & 0o7777) }
    do {
      try payload.write(to: file.descriptor)
    } catch PasteboardError.failed(let message) {
      throw PasteboardError.failed("cannot write \(path): \(message)")
    }
    try file.commit(to: path)
  }
}
