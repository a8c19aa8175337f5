/// One option a command accepts: the table that drives parsing, `--help`
/// and the check that every option is in the man page.
struct OptionSpec {
  let long: String
  let short: Character?
  /// The value's placeholder (`MIME`, `FILE`); nil for a flag.
  let valueName: String?
  /// Whether the option may be given several times (values accumulate).
  let repeatable: Bool
  let help: String

  init(_ long: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false, _ help: String) {
    self.long = long
    self.short = short
    self.valueName = value
    self.repeatable = repeatable
    self.help = help
  }

  /// `-t, --type MIME` as shown in help.
  var synopsis: String {
    let names = (short.map { "-\($0), " } ?? "    ") + "--" + long
    return names + (valueName.map { " " + $0 } ?? "")
  }
}

/// A command: its name, what it does, its options and arguments, and the
/// function that runs it.
struct CommandSpec {
  let name: String
  let summary: String
  /// The arguments part of the usage line (`[FILE...]`).
  let arguments: String
  /// How many positional arguments it takes.
  let positionalRange: ClosedRange<Int>
  let options: [OptionSpec]
  /// Extra paragraphs for `--help`.
  let discussion: String
  let run: (Invocation) throws -> Int32

  var usage: String { "pb \(name) [OPTIONS]" + (arguments.isEmpty ? "" : " " + arguments) }
}

/// Options every command accepts, before or after the command name.
enum GlobalOptions {
  static let table: [OptionSpec] = [
    OptionSpec("backend", value: "NAME", "x11, file, memory, redis or auto (default: auto, or PB_BACKEND)"),
    OptionSpec("board", short: "b", value: "NAME[,NAME]", "the board(s) to use (default: general)"),
    OptionSpec("json", "print listings as JSON"),
    OptionSpec("quiet", short: "q", "no message when there is nothing there (exit 1)"),
    OptionSpec("help", short: "h", "show help for the command"),
    OptionSpec("version", "show pb's version"),
  ]
}
