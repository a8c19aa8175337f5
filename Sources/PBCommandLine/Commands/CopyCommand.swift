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
      OptionSpec("append", "append to the board's text (keeping its protection)"),
      OptionSpec("allow-empty", "copy empty input (otherwise the board is kept, exit 1)"),
      OptionSpec("sensitive", "a secret: never in history or on disk; hinted to clipboard managers"),
      OptionSpec("expire", value: "DURATION", "clear the board after DURATION if it still holds this"),
      OptionSpec("paste-once", "serve one paste, then clear"),
      OptionSpec("pastes", value: "N", "serve N pastes, then clear"),
      OptionSpec("foreground", "on X11, keep serving in the foreground"),
      OptionSpec("timeout", value: "DURATION", "how long to wait for a Redis server's answers (default 5s)"),
    ] + TerminalCopy.options,
    discussion: """
      With no FILE, or when FILE is -, standard input is read. Nothing is added
      or removed: no newline unless -n drops one. Empty input leaves the board
      unchanged and exits 1, so a failed command upstream cannot wipe it.
      --append keeps the strictest protection of what it extends: sensitive
      stays sensitive, the earlier expiry and the fewer pastes left apply.
      Over SSH with no X11 display, the text also goes to the terminal's
      clipboard with OSC 52 (through /dev/tty, never standard output);
      PB_OSC52=auto|always|never and PB_OSC52_MAX set the defaults.
      """,
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let boards = try invocation.boards()
    var options = try writeOptions(invocation)
    let explicitType = try invocation.value("type").map { t in try usage { try MIMEType.validate(t) }; return t }
    if invocation.has("append") && boards.count > 1 {
      throw UsageError("--append works on one board at a time (each board's text is its own)")
    }
    let choice = try BackendChoice.resolve(invocation)
    let terminal = try TerminalCopy.resolve(invocation)
    let paths = invocation.positionals.isEmpty ? ["-"] : invocation.positionals
    let stdin = invocation.io.input
    let extras = try invocation.all("also").map { try extraRepresentation($0, standardInput: stdin) }
    let input = try InputFiles.gather(paths, standardInput: stdin, trimmingNewline: invocation.has("trim-newline"))
    if input.isEmpty && !invocation.has("allow-empty") {
      throw PasteboardError.nothingThere(
        "nothing to copy: the input is empty, so the board is unchanged (--allow-empty copies it)")
    }
    let timeout = try invocation.value("timeout").map { t in try usage { try DurationParser.milliseconds(t) } }
    let backend = try choice.open(timeoutMilliseconds: timeout)
    var payload = input.payload
    var types: [String]
    if let explicitType {
      types = [explicitType]
    } else {
      let name = paths.count == 1 && paths[0] != "-" ? paths[0] : nil
      types = TypeDetection.types(of: input.head, fileName: name, complete: input.headIsComplete)
    }
    if invocation.has("append") {
      let current = try backend.read(boards[0], purpose: .inspect)
      if let item = current.items.first {
        guard let text = item.representation(for: MIMEType.plainText) else {
          throw PasteboardError.typeNotOffered(requested: MIMEType.plainText, offered: item.types)
        }
        payload = .concatenation([text.payload, payload])
        types = [text.type]
        options = options.keepingProtection(of: current)
      }
    }
    let item = PasteboardItem(types.map { Representation(type: $0, payload: payload) } + extras)
    // The terminal reads the sequence while the board is written; all of
    // it is written before pb goes on (a sequence cut short would swallow
    // the terminal's next output), and before `--foreground` serves.
    var sent = terminal.start(item, boards: boards, sensitive: options.sensitive, choice: choice, io: invocation.io)
    if options.foreground { sent = terminal.finish(sent) }
    do {
      try backend.write([item], to: boards, options: options)
    } catch {
      _ = terminal.finish(sent)
      throw error
    }
    try terminal.report(terminal.finish(sent), io: invocation.io) {
      let text = try? backend.read(boards[0], purpose: .inspect).items.first?.representations.first { MIMEType.isText($0.type) }
      return text?.payload.knownCount ?? nil
    }
    return 0
  }

  static func writeOptions(_ invocation: Invocation) throws -> WriteOptions {
    var options = WriteOptions(sensitive: invocation.has("sensitive"), foreground: invocation.has("foreground"))
    if let text = invocation.value("expire") {
      options.expiresAt = WallClock.nowMilliseconds() + (try usage { try DurationParser.milliseconds(text) })
    }
    if invocation.has("paste-once") { options.pasteLimit = 1 }
    if let n: Int = try invocation.number("pastes", minimum: 1) { options.pasteLimit = n }
    return options
  }

  /// `--also MIME=FILE`: the whole file as another representation.
  static func extraRepresentation(_ text: String, standardInput: Descriptor) throws -> Representation {
    guard let eq = text.firstIndex(of: "="), eq != text.startIndex, text.index(after: eq) != text.endIndex else {
      throw UsageError("--also needs MIME=FILE, not '\(text)'")
    }
    let type = String(text[..<eq])
    try usage { try MIMEType.validate(type) }
    let stream = try InputFiles.whole(String(text[text.index(after: eq)...]), standardInput: standardInput)
    return Representation(type: type, payload: .stream(stream))
  }
}

extension WriteOptions {
  /// These options, made at least as strict as the content they extend
  /// (`--append`): sensitive if it was, the earlier expiry, the fewer
  /// pastes left.
  func keepingProtection(of current: BoardContents) -> WriteOptions {
    var options = self
    options.sensitive = sensitive || current.sensitive
    if let expiry = current.expiresAt { options.expiresAt = min(expiresAt ?? expiry, expiry) }
    if let left = current.pastesLeft { options.pasteLimit = min(pasteLimit ?? left, left) }
    return options
  }
}
