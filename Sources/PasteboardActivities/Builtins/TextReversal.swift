/// Text reversed by user-perceived characters (Unicode extended grapheme
/// clusters, which Swift's `Character` is): a letter with its combining
/// marks, an emoji with its skin-tone modifier, a ZWJ family and a flag
/// each stay whole, so `Привет 👍🏽` becomes `👍🏽 тевирП`.
///
/// Text with several lines keeps its lines in their order and reverses
/// each one: line breaks (LF, or CRLF kept as one) stay where they are, so
/// a trailing newline stays trailing and reversing twice gives the text
/// back. Only LF ends a line; other characters (form feed, U+2028) are
/// content.
public enum TextReversal {
  /// The reversal of UTF-8 `bytes`.
  public static func reverse(_ bytes: [UInt8]) -> [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(bytes.count)
    var start = 0
    while start <= bytes.count {
      let newline = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
      var end = newline
      if end > start && end < bytes.count && bytes[end - 1] == 0x0D { end -= 1 }  // CRLF
      reverseLine(bytes[start..<end], into: &out)
      out.append(contentsOf: bytes[end..<min(newline + 1, bytes.count)])
      start = newline + 1
    }
    return out
  }

  /// The reversal of `text`.
  public static func reverse(_ text: String) -> String {
    String(decoding: reverse(Array(text.utf8)), as: UTF8.self)
  }

  private static func reverseLine(_ line: ArraySlice<UInt8>, into out: inout [UInt8]) {
    // ASCII: every byte is a character of its own (CR LF never reaches
    // here: lines end before it).
    if line.allSatisfy({ $0 < 0x80 }) {
      out.append(contentsOf: line.reversed())
      return
    }
    let text = String(decoding: line, as: UTF8.self)
    for character in text.reversed() { out.append(contentsOf: character.utf8) }
  }
}
