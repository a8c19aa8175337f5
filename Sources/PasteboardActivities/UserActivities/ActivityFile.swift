#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// A user-defined activity as its file describes it (pb-activity(5)): one
/// `KEY = VALUE` per line, `#` comments and blank lines ignored.
///
/// Every problem is reported with the file and line (`FILE:LINE: reason`),
/// all of a file's problems at once; a file with any problem is skipped,
/// and the other activities still load.
public struct ActivityDefinition: Equatable {
  public enum Input: String { case stdin, files, none }
  public enum Output: String { case items, none }

  public var type = ""
  public var title = ""
  public var category = ActivityCategory.action
  /// MIME patterns the activity accepts (`text/*`); every item must match
  /// one.
  public var accepts: [String] = ["*/*"]
  public var minimumItems = 1
  public var maximumItems: Int?
  public var input = Input.stdin
  /// The command, one argument per `arg` line, never given to a shell.
  public var arguments: [String] = []
  public var timeoutMilliseconds: Int64 = 60_000
  public var output = Output.none
  public var outputType = MIMEType.utf8Text
  /// Where it was read from, for messages.
  public var file = ""
}

/// Reads activity files.
public enum ActivityFileParser {
  /// The keys a file may use; each at most once but `arg`.
  static let keys = ["type", "title", "category", "accepts", "items", "input", "arg", "timeout", "output", "output-type"]

  /// Parses the text of `file`.
  /// - Returns: the definition, or the problems found (`FILE:LINE: …`).
  public static func parse(_ text: String, file: String) -> Result<ActivityDefinition, ActivityFileProblems> {
    var d = ActivityDefinition()
    d.file = file
    var problems: [String] = []
    var seen = Set<String>()
    for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let number = index + 1
      func problem(_ reason: String) { problems.append("\(file):\(number): \(reason)") }
      var line = Substring(rawLine)
      if line.hasSuffix("\r") { line = line.dropLast() }
      let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      guard let eq = trimmed.firstIndex(of: "=") else {
        problem("expected KEY = VALUE, got '\(trimmed.prefix(60))'")
        continue
      }
      let key = String(trimmed[..<eq]).trimmingCharacters()
      let raw = trimmed[trimmed.index(after: eq)...].drop(while: { $0 == " " || $0 == "\t" })
      guard keys.contains(key) else {
        problem("unknown key '\(key)' (known: \(keys.joined(separator: ", ")))")
        continue
      }
      if key != "arg" {
        guard seen.insert(key).inserted else {
          problem("'\(key)' is given twice")
          continue
        }
      }
      let value: String
      switch unescape(raw) {
      case .success(let v): value = v
      case .failure(let reason):
        problem(reason.message)
        continue
      }
      let plain = key == "arg" ? value : value.trimmingCharacters()
      switch key {
      case "type":
        if isActivityType(plain) { d.type = plain } else {
          problem("'\(plain)' is not an activity type (a reverse-DNS name such as com.example.upload, not starting with pb.)")
        }
      case "title":
        if plain.isEmpty { problem("the title is empty") } else { d.title = plain }
      case "category":
        if let c = ActivityCategory(rawValue: plain) { d.category = c } else { problem("category is action or share, not '\(plain)'") }
      case "accepts":
        let patterns = plain.split(separator: " ").map(String.init)
        if patterns.isEmpty { problem("accepts names no MIME pattern") }
        for p in patterns where !MIMEPattern.isValid(p) { problem("'\(p)' is not a MIME pattern (type/subtype, type/* or */*)") }
        d.accepts = patterns
      case "items":
        if let (low, high) = itemRange(plain) {
          d.minimumItems = low
          d.maximumItems = high
        } else {
          problem("items is N, MIN-MAX or MIN- (whole numbers, MIN at least 1), not '\(plain)'")
        }
      case "input":
        if let i = ActivityDefinition.Input(rawValue: plain) { d.input = i } else { problem("input is stdin, files or none, not '\(plain)'") }
      case "arg":
        d.arguments.append(value)
      case "timeout":
        if let ms = try? DurationParser.milliseconds(plain), ms > 0 { d.timeoutMilliseconds = ms } else {
          problem("'\(plain)' is not a duration (e.g. 30s, 2m)")
        }
      case "output":
        if let o = ActivityDefinition.Output(rawValue: plain) { d.output = o } else { problem("output is items or none, not '\(plain)'") }
      case "output-type":
        if (try? MIMEType.validate(plain)) != nil && plain.contains("/") { d.outputType = plain } else {
          problem("'\(plain)' is not a MIME type")
        }
      default:
        break
      }
    }
    if d.type.isEmpty && !problems.contains(where: { $0.contains("activity type") }) { problems.append("\(file): no 'type'") }
    if d.title.isEmpty && !problems.contains(where: { $0.contains("title") }) { problems.append("\(file): no 'title'") }
    if d.arguments.isEmpty { problems.append("\(file): no 'arg' line: the command to run") }
    if let high = d.maximumItems, high < d.minimumItems { problems.append("\(file): items: the maximum is below the minimum") }
    return problems.isEmpty ? .success(d) : .failure(ActivityFileProblems(problems: problems))
  }

  /// A value with its escapes turned into characters: `\\`, `\n`, `\t`,
  /// `\s` (a space, for one that must not be trimmed).
  static func unescape(_ raw: Substring) -> Result<String, ActivityFileProblem> {
    var out = ""
    var escaping = false
    for c in raw {
      if escaping {
        switch c {
        case "\\": out.append("\\")
        case "n": out.append("\n")
        case "t": out.append("\t")
        case "s": out.append(" ")
        default: return .failure(ActivityFileProblem(message: "unknown escape '\\\(c)' (use \\\\, \\n, \\t or \\s)"))
        }
        escaping = false
      } else if c == "\\" {
        escaping = true
      } else {
        out.append(c)
      }
    }
    if escaping { return .failure(ActivityFileProblem(message: "a value ends in a lone '\\'")) }
    return .success(out)
  }

  static func isActivityType(_ s: String) -> Bool {
    let parts = s.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[0] != "pb", s.utf8.count <= 200 else { return false }
    return parts.allSatisfy { part in
      !part.isEmpty && part.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D || $0 == 0x5F }
    }
  }

  static func itemRange(_ s: String) -> (Int, Int?)? {
    if let n = WholeNumber.value(s, as: Int.self) { return n >= 1 ? (n, n) : nil }
    guard let dash = s.firstIndex(of: "-") else { return nil }
    guard let low = WholeNumber.value(s[..<dash], as: Int.self), low >= 1 else { return nil }
    let rest = s[s.index(after: dash)...]
    if rest.isEmpty { return (low, nil) }
    guard let high = WholeNumber.value(rest, as: Int.self) else { return nil }
    return (low, high)
  }
}

/// One problem found in an activity file.
public struct ActivityFileProblem: Error {
  public let message: String
}

/// Every problem found in one activity file.
public struct ActivityFileProblems: Error, Equatable {
  public let problems: [String]
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs. (Found by index, not
  /// by rebuilding the string reversed, which cost a fifth of the time of
  /// a `pb share --list` with 20 activity files.)
  func trimmingCharacters() -> String {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
    return String(self[first...last])
  }
}
