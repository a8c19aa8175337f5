/// Parses a DURATION: a number with a unit `ms`, `s`, `m` or `h`; a bare
/// number is seconds. Fractions are allowed (`1.5s`).
public enum DurationParser {
  /// The duration in milliseconds.
  /// - Throws: `.invalid` naming the text when it is not a duration.
  public static func milliseconds(_ text: String) throws -> Int64 {
    let units: [(String, Double)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
    var number = Substring(text)
    var scale = 1000.0
    for (suffix, factor) in units where text.hasSuffix(suffix) {
      number = text.dropLast(suffix.count)
      scale = factor
      break
    }
    guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      let value = Double(number), value.isFinite, value * scale < 1e15
    else {
      throw PasteboardError.invalid("'\(text)' is not a duration (use e.g. 500ms, 30s, 5m, 1h)")
    }
    return Int64((value * scale).rounded())
  }
}
