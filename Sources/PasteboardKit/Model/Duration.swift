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
    // DIGITS or DIGITS.DIGITS: no sign, no exponent, no bare dot.
    let parts = number.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }),
      let value = Double(number), value.isFinite
    else {
      throw PasteboardError.invalid("'\(text)' is not a duration (use e.g. 500ms, 30s, 5m, 1h)")
    }
    // About 31,000 years: enough for any real expiry, and far from Int64's
    // limit once added to the clock.
    guard value * scale < 1e15 else { throw PasteboardError.invalid("the duration '\(text)' is too large") }
    return Int64((value * scale).rounded())
  }
}

/// "5 s", "500 ms": a duration for messages.
public func describeDuration(_ milliseconds: Int64) -> String {
  milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
}
