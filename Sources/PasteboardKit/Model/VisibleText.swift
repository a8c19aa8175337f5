/// Text made safe to show on a terminal: every byte that could act on the
/// terminal instead of being shown becomes a visible form, and the result
/// is one line.
///
/// - Printable ASCII and well-formed UTF-8 pass through.
/// - C0 controls and DEL become caret notation: ESC is `^[`, CR `^M`,
///   newline `^J`, tab `^I`, DEL `^?`.
/// - C1 controls (U+0080 to U+009F, which some terminals obey even when
///   encoded in UTF-8), bidirectional controls (U+061C, U+200E, U+200F,
///   U+202A to U+202E, U+2066 to U+2069) and the line and paragraph
///   separators U+2028 and U+2029 become `<U+009B>`.
/// - Bytes that are not UTF-8 become `<FF>`.
///
/// For example the hostile string `"a\u{1B}]52;c;eA==\u{07}\r\u{9B}b\u{202E}"`
/// followed by the byte 0xFF shows as `a^[]52;c;eA==^G^M<U+009B>b<U+202E><FF>`.
/// `--json` output never goes through this: JSON escapes are exact.
public enum VisibleText {
  /// The visible form of `bytes`.
  public static func escape(_ bytes: some Collection<UInt8>) -> String {
    var out = ""
    out.reserveCapacity(bytes.count)
    var rest = Array(bytes)[...]
    while let first = rest.first {
      if first < 0x80 {
        append(Unicode.Scalar(first), to: &out)
        rest = rest.dropFirst()
        continue
      }
      var decoder = UTF8()
      var iterator = rest.makeIterator()
      if case .scalarValue(let scalar) = decoder.decode(&iterator) {
        append(scalar, to: &out)
        rest = rest.dropFirst(UTF8.width(scalar))
      } else {
        out += "<" + hex(UInt32(first), digits: 2) + ">"
        rest = rest.dropFirst()
      }
    }
    return out
  }

  /// The visible form of `text` (a byte kept by `ByteString` shows as
  /// `<E9>`, as an undecodable byte does).
  public static func escape(_ text: String) -> String {
    guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 >= 0x80 }) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      if ByteString.isEscape(scalar) {
        out += "<" + hex(scalar.value - ByteString.base, digits: 2) + ">"
      } else {
        append(scalar, to: &out)
      }
    }
    return out
  }

  /// A preview of text content on one line: each run of line breaks
  /// (LF or CRLF) and tabs becomes one space, everything else shows as
  /// `escape` shows it (a lone CR as `^M`), at most `limit` characters
  /// (user-perceived, so none is cut in half), with no space at either end.
  public static func preview(_ bytes: [UInt8], limit: Int) -> String {
    var flat: [UInt8] = []
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      let crlf = b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A
      if b == 0x0A || b == 0x09 || crlf {
        if !flat.isEmpty && flat.last != 0x20 { flat.append(0x20) }
        i += crlf ? 2 : 1
      } else {
        flat.append(b)
        i += 1
      }
    }
    let cut = String(escape(flat).prefix(limit))
    return String(cut.reversed().drop(while: { $0 == " " }).reversed())
  }

  private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
    let v = scalar.value
    switch v {
    case 0x00..<0x20: out += "^" + String(UnicodeScalar(UInt8(v + 0x40)))
    case 0x7F: out += "^?"
    case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
      out += "<U+" + hex(v, digits: 4) + ">"
    default: out.unicodeScalars.append(scalar)
    }
  }

  private static func hex(_ v: UInt32, digits: Int) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - s.count)) + s
  }
}
