/// A usage error: reported as one `pb:` line with exit status 2.
struct UsageError: Error {
  let message: String

  init(_ message: String) { self.message = message }
}

/// The second stage of parsing: tokens interpreted against a command's
/// option table and the global options.
struct Invocation {
  let command: CommandSpec?
  /// The streams and terminal the command works with.
  var io = CommandIO.process
  /// Values by long option name, in the order given.
  private(set) var values: [String: [String]] = [:]
  private(set) var positionals: [String] = []
  /// How many positionals came before `--`; nil when there was none.
  private(set) var positionalsBeforeTerminator: Int?

  /// Whether a flag (or any option) was given.
  func has(_ long: String) -> Bool { values[long] != nil }
  /// The last value given for an option.
  func value(_ long: String) -> String? { values[long]?.last }
  func all(_ long: String) -> [String] { values[long] ?? [] }

  /// Parses `arguments` (without the program name).
  ///
  /// The command is the first positional token, skipping the values of
  /// global options before it, so `pb -b work paste` is `pb paste -b work`.
  /// Unknown options are rejected; there are no abbreviations.
  static func parse(_ arguments: [String], commands: [CommandSpec]) throws -> Invocation {
    let tokens = Token.split(arguments)
    let commandIndex = findCommand(tokens)
    var command: CommandSpec?
    if let i = commandIndex, case .positional(let name) = tokens[i] {
      guard let found = commands.first(where: { $0.name == name }) else {
        let hint = closest(name, among: commands.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
        throw UsageError("unknown command '\(name)'\(hint) (see 'pb --help')")
      }
      command = found
    }
    var result = Invocation(command: command)
    let table = GlobalOptions.table + (command?.options ?? [])
    let context = command.map { "'pb \($0.name)'" } ?? "pb"
    var i = 0
    func unknown(_ option: String) -> UsageError {
      let names = table.map { "--" + $0.long }
      let hint = option.hasPrefix("--") ? closest(option, among: names).map { "; did you mean '\($0)'?" } ?? "" : ""
      return UsageError("unknown option '\(option)' for \(context)\(hint)")
    }
    func takeValue(for spec: OptionSpec, shown: String) throws -> String {
      i += 1
      guard i < tokens.count else {
        throw UsageError("option '\(shown)' needs a value (\(spec.valueName ?? "VALUE"))")
      }
      return tokens[i].text
    }
    while i < tokens.count {
      switch tokens[i] {
      case .terminator: result.positionalsBeforeTerminator = result.positionals.count
      case .positional(let text):
        if i != commandIndex { result.positionals.append(text) }
      case .long(let name, let inline):
        guard let spec = table.first(where: { $0.long == name }) else { throw unknown("--" + name) }
        if spec.valueName == nil {
          if inline != nil {
            throw UsageError("option '--\(name)' takes no value")
          }
          result.add(spec, "")
        } else {
          result.add(spec, try inline ?? takeValue(for: spec, shown: "--" + name))
        }
      case .shorts(let cluster):
        var rest = Substring(cluster)
        while let letter = rest.first {
          rest = rest.dropFirst()
          guard let spec = table.first(where: { $0.short == letter }) else { throw unknown("-\(letter)") }
          if spec.valueName == nil {
            result.add(spec, "")
          } else {
            result.add(spec, rest.isEmpty ? try takeValue(for: spec, shown: "-\(letter)") : String(rest))
            rest = ""
          }
        }
      }
      i += 1
    }
    if let command, !result.has("help"), !command.positionalRange.contains(result.positionals.count) {
      let extra = result.positionals.dropFirst(command.positionalRange.upperBound).map { "'\($0)'" }
      let message =
        extra.isEmpty
        ? "'pb \(command.name)' needs \(command.arguments)"
        : "unexpected argument\(extra.count > 1 ? "s" : "") \(extra.joined(separator: ", ")) for 'pb \(command.name)'"
      throw UsageError(message)
    }
    return result
  }

  private mutating func add(_ spec: OptionSpec, _ value: String) {
    if spec.repeatable {
      values[spec.long, default: []].append(value)
    } else {
      values[spec.long] = [value]
    }
  }

  /// The index of the command name: the first positional token that is not
  /// the value of a global option given before it.
  private static func findCommand(_ tokens: [Token]) -> Int? {
    var i = 0
    while i < tokens.count {
      switch tokens[i] {
      case .terminator: return nil
      case .positional: return i
      case .long(let name, let value):
        if value == nil, GlobalOptions.table.first(where: { $0.long == name })?.valueName != nil { i += 1 }
      case .shorts(let cluster):
        // `-qb work`: the first letter that takes a value ends the
        // cluster; its value is the rest, or the next token.
        for (offset, letter) in cluster.enumerated() {
          guard GlobalOptions.table.first(where: { $0.short == letter })?.valueName != nil else { continue }
          if offset == cluster.count - 1 { i += 1 }
          break
        }
      }
      i += 1
    }
    return nil
  }
}

/// The candidate nearest to `word` by edit distance, if it is near enough
/// to be a likely typo.
func closest(_ word: String, among candidates: [String]) -> String? {
  func distance(_ a: [Character], _ b: [Character]) -> Int {
    var row = Array(0...b.count)
    for (i, ca) in a.enumerated() {
      var previous = row[0]
      row[0] = i + 1
      for (j, cb) in b.enumerated() {
        let current = row[j + 1]
        row[j + 1] = min(row[j + 1] + 1, row[j] + 1, previous + (ca == cb ? 0 : 1))
        previous = current
      }
    }
    return row[b.count]
  }
  let scored = candidates.map { ($0, distance(Array(word), Array($0))) }
  guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, word.count / 3) else { return nil }
  return best.0
}
