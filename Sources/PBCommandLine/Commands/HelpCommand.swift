/// `pb help [COMMAND]` and `--help`: text rendered from the option tables,
/// so help and parsing cannot disagree.
enum HelpCommand {
  static let spec = CommandSpec(
    name: "help", summary: "show help for pb or for a command", arguments: "[COMMAND]",
    positionalRange: 0...1, options: [], discussion: "", run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    guard let name = invocation.positionals.first else {
      try invocation.io.print(overview())
      return 0
    }
    guard let command = PB.commands.first(where: { $0.name == name }) else {
      throw UsageError("no help for unknown command '\(name)' (see 'pb --help')")
    }
    try invocation.io.print(text(for: command))
    return 0
  }

  static func overview() -> String {
    var out = """
      pb - clipboard and pasteboard for the command line

      USAGE: pb [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGUMENTS]

      COMMANDS:

      """
    for command in PB.commands { out += pad("  " + command.name, 12) + command.summary + "\n" }
    out += "\nGLOBAL OPTIONS:\n" + optionLines(GlobalOptions.table)
    out += """

      EXIT STATUS: 0 success, 1 nothing there, 2 usage error, 3 refused,
      4 backend unavailable, 5 timed out, 6 type not offered, 7 other failure.

      See 'pb help COMMAND' and pb(1).

      """
    return out
  }

  static func text(for command: CommandSpec) -> String {
    var out = "pb \(command.name) - \(command.summary)\n\nUSAGE: \(command.usage)\n"
    if !command.options.isEmpty { out += "\nOPTIONS:\n" + optionLines(command.options) }
    out += "\nGLOBAL OPTIONS:\n" + optionLines(GlobalOptions.table)
    if !command.discussion.isEmpty { out += "\n" + command.discussion + "\n" }
    out += "\nSee pb-\(command.name)(1).\n"
    return out
  }

  static func optionLines(_ options: [OptionSpec]) -> String {
    options.map { pad("  " + $0.synopsis, 30) + $0.help + "\n" }.joined()
  }

  static func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s + "  " : s + String(repeating: " ", count: width - s.count)
  }
}
