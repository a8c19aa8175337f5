import PasteboardKit

/// Rows as the user names them: `N` (1-based across the table), `S:R`
/// (section and row in it, 1-based), and for `--row` lists of them and
/// ranges of numbers (`2,5-7`, `1:2,3:1`).
public enum RowAddress {
  /// The rows `text` names, 0-based across the table, in the order given
  /// and without repeats.
  /// - Throws: `.invalid`: a malformed address, or a row the table does not
  ///   have (a usage error: exit 2).
  public static func rows(_ text: String, in table: Table) throws -> [Int] {
    var result: [Int] = []
    // Repeats are found in a set: searching the result for each row made
    // --row 1-1000000 take minutes.
    var seen = Set<Int>()
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      for n in try rows(part: part, in: table) where seen.insert(n).inserted { result.append(n) }
    }
    return result
  }

  /// The one row `text` names.
  public static func row(_ text: String, in table: Table) throws -> Int {
    let rows = try rows(text, in: table)
    guard rows.count == 1 else { throw PasteboardError.invalid("'\(text)' names \(rows.count) rows, not one") }
    return rows[0]
  }

  private static func rows(part: Substring, in table: Table) throws -> [Int] {
    func outOfRange(_ what: String) -> PasteboardError {
      .invalid("there is no row \(what) (the table has \(table.count) row\(table.count == 1 ? "" : "s")\(table.sectionCount > 1 ? " in \(table.sectionCount) sections" : ""))")
    }
    if let colon = part.firstIndex(of: ":") {
      guard let s = WholeNumber.value(part[..<colon], as: Int.self), let r = WholeNumber.value(part[part.index(after: colon)...], as: Int.self),
        s >= 1, r >= 1
      else { throw PasteboardError.invalid("'\(part)' is not a row address (N or S:R, 1-based)") }
      guard let n = table.row(at: RowPath(section: s - 1, row: r - 1)) else { throw outOfRange(String(part)) }
      return [n]
    }
    if let n = WholeNumber.value(part, as: Int.self) {
      guard n >= 1, n <= table.count else { throw outOfRange(String(part)) }
      return [n - 1]
    }
    if let dash = part.firstIndex(of: "-"), let low = WholeNumber.value(part[..<dash], as: Int.self),
      let high = WholeNumber.value(part[part.index(after: dash)...], as: Int.self), low >= 1, low <= high
    {
      guard high <= table.count else { throw outOfRange(String(high)) }
      return Array((low - 1)..<high)
    }
    throw PasteboardError.invalid("'\(part)' is not a row, a range or S:R (such as 3, 2-5 or 1:2)")
  }
}
