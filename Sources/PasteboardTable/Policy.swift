import PasteboardKit

/// The canPerform policy: ordered rules, each allowing or denying some
/// actions (or the menu) on some rows; the first rule that names the
/// action and selects the row decides, and the built-in defaults apply
/// after the last rule (every action allowed, the menu shown; what the
/// table can do at all is decided apart, see `TablePolicyDelegate`).
///
/// Rules come from the command line first (`--deny`, then `--allow`, each
/// for every row), then from the policy file in its order (pb-policy(5)).
public struct Policy {
  public private(set) var rules: [PolicyRule] = []

  public init(rules: [PolicyRule] = []) { self.rules = rules }

  /// What decided an action for a row: a rule, or the defaults (nil).
  public struct Decision {
    public let allowed: Bool
    public let rule: PolicyRule?
  }

  /// Whether `action` is allowed on row `row` (0-based across the table),
  /// at `path`, holding `content`.
  public func decide(_ action: EditAction, row: Int, path: RowPath, content: ArraySlice<UInt8>) -> Decision {
    decide(.action(action), row: row, path: path, content: content)
  }

  /// Whether row `row`'s menu is shown at all (`menu` rules).
  public func showsMenu(row: Int, path: RowPath, content: ArraySlice<UInt8>) -> Decision {
    decide(.menu, row: row, path: path, content: content)
  }

  private func decide(_ target: PolicyRule.Target, row: Int, path: RowPath, content: ArraySlice<UInt8>) -> Decision {
    for rule in rules where rule.names(target) && rule.selector.selects(row: row, section: path.section, content: content) {
      return Decision(allowed: rule.verdict == .allow, rule: rule)
    }
    return Decision(allowed: true, rule: nil)
  }

  /// Rules from `--deny` and `--allow` values (`ACTION[,ACTION]`).
  /// - Throws: `.invalid` naming the bad action.
  public static func commandLine(deny: [String], allow: [String]) throws -> [PolicyRule] {
    var rules: [PolicyRule] = []
    for (verdict, values, option) in [(PolicyRule.Verdict.deny, deny, "--deny"), (.allow, allow, "--allow")] {
      for value in values {
        let targets: Set<PolicyRule.Target>
        switch PolicyParser.targets(value) {
        case .success(let t): targets = t
        case .failure(let problem): throw PasteboardError.invalid("\(option) \(value): \(problem.message)")
        }
        rules.append(PolicyRule(verdict: verdict, targets: targets, selector: .all, origin: option, text: "\(option) \(value)"))
      }
    }
    return rules
  }

  /// Parses the policy file `text`, read from `file`.
  /// - Throws: `.invalid` listing every problem as `FILE:LINE: reason`.
  public static func parse(_ text: String, file: String) throws -> [PolicyRule] {
    try PolicyParser.parse(text, file: file)
  }
}

/// One rule of a policy, with where it came from.
public struct PolicyRule {
  public enum Verdict: String { case allow, deny }

  public enum Target: Hashable {
    case action(EditAction)
    case menu
  }

  /// Which rows a rule selects.
  public enum Selector {
    case all
    /// Row numbers (1-based across the table), as closed ranges.
    case rows([ClosedRange<Int>])
    /// Section numbers (1-based).
    case sections([ClosedRange<Int>])
    /// Rows whose content matches.
    case match(RowPattern)

    func selects(row: Int, section: Int, content: ArraySlice<UInt8>) -> Bool {
      switch self {
      case .all: return true
      case .rows(let ranges): return ranges.contains { $0.contains(row + 1) }
      case .sections(let ranges): return ranges.contains { $0.contains(section + 1) }
      case .match(let pattern): return pattern.matches(content)
      }
    }
  }

  public let verdict: Verdict
  public let targets: Set<Target>
  public let selector: Selector
  /// `FILE:LINE`, or the command-line option.
  public let origin: String
  /// The rule as written.
  public let text: String

  public init(verdict: Verdict, targets: Set<Target>, selector: Selector, origin: String, text: String) {
    self.verdict = verdict
    self.targets = targets
    self.selector = selector
    self.origin = origin
    self.text = text
  }

  func names(_ target: Target) -> Bool { targets.contains(target) }
}

/// The grammar of pb-policy(5):
///
///     rule     = verdict " " actions [ " " selector ]
///     verdict  = "allow" | "deny"
///     actions  = "*" | name *( "," name )
///     name     = "copy" | "cut" | "paste" | "delete" | "select"
///              | "select-all" | "share" | "menu"
///     selector = "all" | "rows " list | "sections " list | "match " ERE
///     list     = range *( "," range ); range = N | N "-" M | N "-"
///
/// Words are separated by one or more blanks; `#` starts a comment line;
/// blank lines are ignored; `*` is every action but `menu`.
enum PolicyParser {
  static func parse(_ text: String, file: String) throws -> [PolicyRule] {
    var rules: [PolicyRule] = []
    var problems: [String] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = Substring(raw)
      if line.hasSuffix("\r") { line = line.dropLast() }
      let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      let origin = "\(file):\(index + 1)"
      switch rule(String(trimmed), origin: origin) {
      case .success(let r): rules.append(r)
      case .failure(let problem): problems.append("\(origin): \(problem.message)")
      }
    }
    guard problems.isEmpty else { throw PasteboardError.invalid(problems.joined(separator: "; ")) }
    return rules
  }

  static func rule(_ text: String, origin: String) -> Result<PolicyRule, PolicyProblem> {
    var words = words(text, limit: 3)
    guard let first = words.first, let verdict = PolicyRule.Verdict(rawValue: first) else {
      return .failure(PolicyProblem("a rule starts with allow or deny, not '\(words.first ?? "")'"))
    }
    words.removeFirst()
    guard let actionWord = words.first else { return .failure(PolicyProblem("'\(first)' names no action")) }
    words.removeFirst()
    let targets: Set<PolicyRule.Target>
    switch self.targets(actionWord) {
    case .success(let t): targets = t
    case .failure(let p): return .failure(p)
    }
    let selector: PolicyRule.Selector
    switch self.selector(words.first ?? "all") {
    case .success(let s): selector = s
    case .failure(let p): return .failure(p)
    }
    return .success(PolicyRule(verdict: verdict, targets: targets, selector: selector, origin: origin, text: text))
  }

  /// `copy,cut`, `menu` or `*`.
  static func targets(_ word: String) -> Result<Set<PolicyRule.Target>, PolicyProblem> {
    if word == "*" { return .success(Set(EditAction.allCases.map { .action($0) })) }
    var result = Set<PolicyRule.Target>()
    for name in word.split(separator: ",", omittingEmptySubsequences: false) {
      if name == "menu" {
        result.insert(.menu)
      } else if let action = EditAction(rawValue: String(name)) {
        result.insert(.action(action))
      } else {
        let known = EditAction.allCases.map(\.rawValue) + ["menu"]
        return .failure(PolicyProblem("unknown action '\(name)' (known: \(known.joined(separator: ", ")), or *)"))
      }
    }
    return .success(result)
  }

  /// `all`, `rows LIST`, `sections LIST` or `match ERE`.
  static func selector(_ text: String) -> Result<PolicyRule.Selector, PolicyProblem> {
    let parts = words(text, limit: 2)
    guard let kind = parts.first else { return .success(.all) }
    switch kind {
    case "all":
      return parts.count == 1 ? .success(.all) : .failure(PolicyProblem("'all' takes nothing after it, not '\(parts[1])'"))
    case "rows", "sections":
      guard parts.count == 2 else { return .failure(PolicyProblem("'\(kind)' needs a list such as 1-3,7")) }
      guard let list = ranges(parts[1]) else {
        return .failure(PolicyProblem("'\(parts[1])' is not a list of numbers and ranges (such as 1-3,7,10-)"))
      }
      return .success(kind == "rows" ? .rows(list) : .sections(list))
    case "match":
      guard parts.count == 2 else { return .failure(PolicyProblem("'match' needs a regular expression")) }
      do {
        return .success(.match(try RowPattern(parts[1])))
      } catch {
        return .failure(PolicyProblem("\(error)"))
      }
    default:
      return .failure(PolicyProblem("rows are selected by all, rows, sections or match, not '\(kind)'"))
    }
  }

  /// `1-3,7,10-`: 1-based numbers and ranges; nil when malformed.
  static func ranges(_ text: String) -> [ClosedRange<Int>]? {
    var result: [ClosedRange<Int>] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      if let n = WholeNumber.value(part, as: Int.self) {
        guard n >= 1 else { return nil }
        result.append(n...n)
      } else if let dash = part.firstIndex(of: "-"), let low = WholeNumber.value(part[..<dash], as: Int.self), low >= 1 {
        let rest = part[part.index(after: dash)...]
        if rest.isEmpty {
          result.append(low...Int.max)
        } else {
          guard let high = WholeNumber.value(rest, as: Int.self), high >= low else { return nil }
          result.append(low...high)
        }
      } else {
        return nil
      }
    }
    return result
  }

  /// Splits off at most `limit - 1` blank-separated words; the last part is
  /// the rest of the text as it is (a regular expression keeps its blanks).
  static func words(_ text: String, limit: Int) -> [String] {
    var parts: [String] = []
    var rest = Substring(text)
    while parts.count < limit - 1 {
      rest = rest.drop(while: { $0 == " " || $0 == "\t" })
      guard !rest.isEmpty else { return parts }
      let word = rest.prefix { $0 != " " && $0 != "\t" }
      parts.append(String(word))
      rest = rest.dropFirst(word.count)
    }
    let last = rest.drop(while: { $0 == " " || $0 == "\t" })
    if !last.isEmpty { parts.append(String(last)) }
    return parts
  }
}

struct PolicyProblem: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
