import PasteboardKit

/// `pb copy`: standard input or files onto the board, byte for byte.
enum CopyCommand {
  static let spec = CommandSpec(
    name: "copy",
    summary: "put standard input (or the files, concatenated) on the board",
    arguments: "[FILE...]",
    positionalRange: 0...Int.max,
    options: [
      OptionSpec("type", short: "t", value: "MIME", "the content's type (default: detected from its bytes and name)"),
      OptionSpec("also", value: "MIME=FILE", repeatable: true, "add FILE as another representation of the item"),
      OptionSpec("trim-newline", short: "n", "drop one trailing newline"),
      OptionSpec("append", "append to the board's text"),
      OptionSpec("allow-empty", "copy empty input (otherwise the board is kept, exit 1)"),
      OptionSpec("sensitive", "a secret: never in history or on disk; hinted to clipboard managers"),
      OptionSpec("expire", value: "DURATION", "clear the board after DURATION if it still holds this"),
      OptionSpec("paste-once", "serve one paste, then clear"),
      OptionSpec("pastes", value: "N", "serve N pastes, then clear"),
      OptionSpec("foreground", "on X11, keep serving in the foreground"),
    ],
    discussion: """
      With no FILE, or when FILE is -, standard input is read. Nothing is added
      or removed: no newline unless -n drops one. Empty input leaves the board
      unchanged and exits 1, so a failed command upstream cannot wipe it.
      """,
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let boards = try invocation.boards()
    let options = try writeOptions(invocation)
    let explicitType = try invocation.value("type").map { t in try MIMEType.validate(t); return t }
    let choice = try BackendChoice.resolve(invocation)
    let paths = invocation.positionals.isEmpty ? ["-"] : invocation.positionals
    let inputs = try paths.map(InputFiles.open)
    let extras = try invocation.all("also").map(extraRepresentation)
    if invocation.has("trim-newline") { inputs.last?.stream.trimsTrailingNewline = true }
    if isEmpty(inputs, trimming: invocation.has("trim-newline")) && !invocation.has("allow-empty") {
      throw PasteboardError.nothingThere(
        "nothing to copy: the input is empty, so the board is unchanged (--allow-empty copies it)")
    }
    let backend = try choice.open()
    var payload: Payload = inputs.count == 1 ? .stream(inputs[0].stream) : .concatenation(inputs.map { .stream($0.stream) })
    var types: [String]
    if let explicitType {
      types = [explicitType]
    } else {
      let first = inputs.first { !$0.stream.prefix.isEmpty } ?? inputs[0]
      let name = paths.count == 1 && paths[0] != "-" ? paths[0] : nil
      types = TypeDetection.types(of: first.stream.prefix, fileName: name, complete: first.complete)
    }
    if invocation.has("append") {
      let current = try backend.read(boards[0], purpose: .inspect)
      if let item = current.items.first {
        guard let text = item.representation(for: MIMEType.plainText) else {
          throw PasteboardError.typeNotOffered(requested: MIMEType.plainText, offered: item.types)
        }
        payload = .concatenation([text.payload, payload])
        types = [text.type]
      }
    }
    let item = PasteboardItem(types.map { Representation(type: $0, payload: payload) } + extras)
    try backend.write([item], to: boards, options: options)
    return 0
  }

  /// Whether the inputs hold nothing (or only the newline -n drops).
  static func isEmpty(_ inputs: [InputFiles.Opened], trimming: Bool) -> Bool {
    guard inputs.allSatisfy(\.complete) else { return false }
    let total = inputs.reduce(0) { $0 + $1.stream.prefix.count }
    return total == 0 || (trimming && total == 1 && inputs.contains { $0.stream.prefix == [0x0A] })
  }

  static func writeOptions(_ invocation: Invocation) throws -> WriteOptions {
    var options = WriteOptions(sensitive: invocation.has("sensitive"), foreground: invocation.has("foreground"))
    if let text = invocation.value("expire") {
      options.expiresAt = WallClock.nowMilliseconds() + (try usage { try DurationParser.milliseconds(text) })
    }
    if invocation.has("paste-once") { options.pasteLimit = 1 }
    if let text = invocation.value("pastes") {
      guard let n = Int(text), n > 0 else {
        throw UsageError("--pastes needs a positive whole number, not '\(text)'")
      }
      options.pasteLimit = n
    }
    return options
  }

  /// `--also MIME=FILE`: the whole file as another representation.
  static func extraRepresentation(_ text: String) throws -> Representation {
    guard let eq = text.firstIndex(of: "="), eq != text.startIndex, text.index(after: eq) != text.endIndex else {
      throw UsageError("--also needs MIME=FILE, not '\(text)'")
    }
    let type = String(text[..<eq])
    try usage { try MIMEType.validate(type) }
    let opened = try InputFiles.open(String(text[text.index(after: eq)...]))
    return Representation(type: type, payload: .stream(opened.stream))
  }
}
