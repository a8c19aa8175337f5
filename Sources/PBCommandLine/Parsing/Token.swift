/// The first stage of parsing: argv split into tokens, with no knowledge of
/// which options exist.
enum Token: Equatable {
  /// `--name` or `--name=value`.
  case long(name: String, value: String?)
  /// `-abc`: one or more packed short options (a value may be packed in too;
  /// only the option table can tell).
  case shorts(String)
  /// Anything else, including a lone `-` (standard input).
  case positional(String)
  /// `--`: everything after it is positional.
  case terminator

  /// Splits `arguments` (without the program name) into tokens.
  static func split(_ arguments: [String]) -> [Token] {
    var tokens: [Token] = []
    var afterTerminator = false
    for argument in arguments {
      if afterTerminator {
        tokens.append(.positional(argument))
      } else if argument == "--" {
        tokens.append(.terminator)
        afterTerminator = true
      } else if argument.hasPrefix("--") {
        let body = argument.dropFirst(2)
        if let eq = body.firstIndex(of: "=") {
          tokens.append(.long(name: String(body[..<eq]), value: String(body[body.index(after: eq)...])))
        } else {
          tokens.append(.long(name: String(body), value: nil))
        }
      } else if argument.hasPrefix("-") && argument.count > 1 {
        tokens.append(.shorts(String(argument.dropFirst())))
      } else {
        tokens.append(.positional(argument))
      }
    }
    return tokens
  }

  /// The token as the user typed it, for messages and for option values.
  var text: String {
    switch self {
    case .long(let name, let value): return "--" + name + (value.map { "=" + $0 } ?? "")
    case .shorts(let s): return "-" + s
    case .positional(let s): return s
    case .terminator: return "--"
    }
  }
}
