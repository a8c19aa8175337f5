/// Whole numbers as pb reads them from the command line, the environment
/// and its own files: ASCII digits only (no sign, no spaces, no `0x`), and
/// a number too large for its type is an error of its own.
public enum WholeNumber {
  /// The value of `text`, or nil when it is not all digits or too large.
  public static func value<T: FixedWidthInteger>(_ text: some StringProtocol, as type: T.Type = T.self) -> T? {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
    return T(text, radix: 10)
  }

  /// Parses `text`, the value of `what` (`--pastes`, `PB_HISTORY_SIZE`).
  /// - Throws: `.invalid`: "'+3' is not a whole number" or "… is too large".
  public static func parse<T: FixedWidthInteger>(
    _ text: String, as type: T.Type = T.self, for what: String, minimum: T = 0
  ) throws -> T {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      throw PasteboardError.invalid("\(what) needs a whole number, not '\(text)'")
    }
    guard let n = T(text, radix: 10) else {
      throw PasteboardError.invalid("\(what) '\(text)' is too large (at most \(T.max))")
    }
    guard n >= minimum else { throw PasteboardError.invalid("\(what) must be at least \(minimum), not \(text)") }
    return n
  }
}

/// A size in bytes with an optional binary unit: `4096`, `512K`, `16M`,
/// `1G` (KiB, MiB, GiB; `KiB` and `k` spellings are accepted too).
public enum ByteCount {
  /// - Throws: `.invalid` naming `what`.
  public static func parse(_ text: String, for what: String) throws -> Int64 {
    let units: [(String, Int64)] = [
      ("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("K", 1 << 10), ("k", 1 << 10), ("M", 1 << 20),
      ("G", 1 << 30),
    ]
    var digits = Substring(text)
    var scale: Int64 = 1
    for (suffix, factor) in units where text.hasSuffix(suffix) {
      digits = text.dropLast(suffix.count)
      scale = factor
      break
    }
    guard let n = WholeNumber.value(digits, as: Int64.self) else {
      if !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
        throw PasteboardError.invalid("\(what) '\(text)' is too large")
      }
      throw PasteboardError.invalid("\(what) needs a size in bytes (e.g. 4096, 512K, 16M, 1G), not '\(text)'")
    }
    let (product, overflow) = n.multipliedReportingOverflow(by: scale)
    guard !overflow else { throw PasteboardError.invalid("\(what) '\(text)' is too large") }
    return product
  }
}
