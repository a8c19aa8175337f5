#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// A POSIX extended regular expression (`regcomp(3)` with REG_EXTENDED),
/// matched against a row's bytes as they are: the match may fall anywhere
/// in the row (anchor it with `^` and `$`), and a row holding NUL bytes or
/// bytes that are not UTF-8 is matched as it is (`.` never matches NUL).
public final class RowPattern {
  public let source: String
  private var compiled = regex_t()

  /// - Throws: `.invalid` with the regcomp error's text.
  public init(_ source: String) throws {
    self.source = source
    let status = ByteString.withCString(source) { regcomp(&compiled, $0, REG_EXTENDED | REG_NOSUB) }
    guard status == 0 else {
      var buffer = [CChar](repeating: 0, count: 256)
      regerror(status, &compiled, &buffer, buffer.count)
      throw PasteboardError.invalid("bad regular expression '\(source)': \(String(cString: buffer))")
    }
  }

  deinit { regfree(&compiled) }

  /// Whether the expression matches somewhere in `row`.
  public func matches(_ row: ArraySlice<UInt8>) -> Bool {
    var range = regmatch_t(rm_so: 0, rm_eo: regoff_t(row.count))
    // REG_STARTEND (glibc): the row is bounded by the range, not by a NUL.
    let startEnd: Int32 = 1 << 2
    if row.isEmpty {
      var nothing: CChar = 0
      return regexec(&compiled, &nothing, 1, &range, startEnd) == 0
    }
    return row.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: row.count) {
        regexec(&compiled, $0, 1, &range, startEnd) == 0
      }
    }
  }
}
