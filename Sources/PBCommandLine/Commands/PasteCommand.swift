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
      OptionSpec("output", short: "o", value: "FILE", "write to FILE, atomically (- is standard output)"),
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
        throw UsageError("--history needs a positive whole number, not '\(text)'")
      }
      return n
    }
    let backend = try BackendChoice.resolve(invocation).open(timeoutMilliseconds: timeout)
    let output = invocation.value("output").flatMap { $0 == "-" ? nil : $0 }
    func choose(_ contents: BoardContents) throws -> Representation {
      guard let item = contents.items.first else { throw emptyBoard(board, on: backend) }
      return try TypeChoice.choose(from: item, requested: requested, outputName: output)
    }
    if let historyNumber {
      let contents = try HistoryCommand.entry(historyNumber, of: board, in: backend)
      try deliver(try choose(contents).payload, to: output)
      return 0
    }
    // Look first, so that a paste which cannot succeed (no such type, no
    // such directory) does not use up one of a limited number of pastes.
    var contents = try backend.read(board, purpose: .inspect)
    var rep = try choose(contents)
    let file = try output.map(OutputFile.init)
    if contents.pastesLeft != nil {
      contents = try backend.read(board, purpose: .paste)
      rep = try choose(contents)
    }
    if let file {
      try file.write(rep.payload)
    } else {
      try deliver(rep.payload, to: nil)
    }
    return 0
  }

  /// Writes `payload` to the file at `path` (atomically) or to standard output.
  static func deliver(_ payload: Payload, to path: String?) throws {
    if let path {
      try OutputFile(path).write(payload)
      return
    }
    do {
      try payload.write(to: Output.standardOutput)
    } catch PasteboardError.failed(let message) {
      throw PasteboardError.failed("paste failed part-way: \(message)")
    }
  }
}

/// The file `pb paste -o` writes. A regular file (or a new one) is written
/// all or nothing: into a temporary file beside it, renamed over it on
/// success, removed on failure; a symbolic link is written through (its
/// target is replaced, the link stays). A device, FIFO or socket
/// (`-o /dev/null`) cannot be replaced, so it is opened and written directly.
struct OutputFile {
  private enum Sink {
    case atomic(TemporaryFile, destination: String)
    case direct(Descriptor)
  }

  let path: String
  private let sink: Sink

  /// Opens the output at once, so a missing directory fails before
  /// anything is read.
  init(_ requested: String) throws {
    path = requested
    var st = stat()
    var target = requested
    if lstat(requested, &st) == 0, (st.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(requested, nil) {
      target = String(cString: resolved)
      free(resolved)
    }
    let existing = stat(target, &st) == 0
    let kind = st.st_mode & S_IFMT
    if existing && kind == S_IFDIR {
      throw PasteboardError.failed("cannot write \(requested): it is a directory")
    }
    if existing && kind != S_IFREG {
      let fd = open(target, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { throw PasteboardError.failed("cannot write \(requested): \(errnoText())") }
      sink = .direct(Descriptor(fd))
      return
    }
    let slash = target.lastIndex(of: "/")
    let dir = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
    // Keep an existing file's mode; a new file gets 0666 less the umask, as
    // a shell redirection would.
    let file = try TemporaryFile(in: dir, mode: existing ? st.st_mode & 0o7777 : 0o666)
    if existing { fchmod(file.descriptor.rawValue, st.st_mode & 0o7777) }
    sink = .atomic(file, destination: target)
  }

  func write(_ payload: Payload) throws {
    do {
      switch sink {
      case .atomic(let file, _): try payload.write(to: file.descriptor)
      case .direct(let descriptor): try payload.write(to: descriptor)
      }
    } catch PasteboardError.failed(let message) {
      throw PasteboardError.failed("cannot write \(path): \(message)")
    }
    if case .atomic(let file, let destination) = sink { try file.commit(to: destination) }
  }
}

/// The "nothing there" error for an empty board, in the backend's words
/// (on X11: no program owns the selection).
func emptyBoard(_ board: BoardName, on backend: PasteboardBackend) -> PasteboardError {
  .nothingThere(X11Support.emptyReason(backend, board: board) ?? "board '\(board)' is empty")
}
