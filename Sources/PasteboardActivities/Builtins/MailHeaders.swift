#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// Header lines of an Internet message: text as encoded words when it is
/// not ASCII (RFC 2047), addresses, parameters such as file names
/// (RFC 2045 and RFC 2231), folded (RFC 5322) so that no line is longer
/// than `MailEncoding.lineLimit`.
extension MailEncoding {
  /// `Name: value` for text (a subject), ending in CRLF: folded at spaces
  /// when it is printable ASCII, else (or when a word is too long to
  /// fold) as encoded words.
  static func textHeader(_ name: String, _ value: String) -> String {
    let used = name.count + 2
    if value.unicodeScalars.allSatisfy({ ($0.value >= 0x20 && $0.value < 0x7F) || $0 == "\t" }),
      let folded = foldedAtSpaces(value, firstLineUsed: used)
    {
      return name + ": " + folded + "\r\n"
    }
    return name + ": " + encodedWords(value, firstLineUsed: used) + "\r\n"
  }

  /// `Name: address, address` (From, To), one address a line, ending in
  /// CRLF. A display name that is not ASCII becomes encoded words.
  static func addressHeader(_ name: String, _ addresses: [String]) -> String {
    var lines: [String] = []
    for (i, address) in addresses.enumerated() {
      let used = i == 0 ? name.count + 2 : 1
      let separator = i + 1 < addresses.count ? "," : ""
      lines.append(encodedAddress(address, firstLineUsed: used, trailing: separator.count) + separator)
    }
    return name + ": " + lines.joined(separator: "\r\n ") + "\r\n"
  }

  /// An address as given (`Name <user@host>` or `user@host`), its display
  /// name's words that are not ASCII as encoded words, folded to fit.
  ///
  /// Each run of words that are not plain ASCII becomes one encoded word
  /// where it fits, with the ASCII words left as they are around it:
  /// decoders drop the white space between two encoded words (RFC 2047),
  /// but some (Python's address parser) keep it, so fewer word pairs
  /// means fewer names that decode differently.
  static func encodedAddress(_ value: String, firstLineUsed: Int, trailing: Int) -> String {
    guard value.utf8.contains(where: { $0 >= 0x80 }), let lt = value.lastIndex(of: "<") else { return value }
    var displayName = String(value[..<lt]).trimmingCharacters()
    if displayName.count >= 2, displayName.hasPrefix("\""), displayName.hasSuffix("\"") {
      displayName = String(displayName.dropFirst().dropLast())
    }
    var units: [String] = []
    var run: [Substring] = []
    func flush() {
      guard !run.isEmpty else { return }
      units += encodedWords(run.joined(separator: " "), firstLineUsed: 12).split(separator: "\r\n").map {
        String($0.drop { $0 == " " })
      }
      run = []
    }
    for word in displayName.split(separator: " ") {
      if word.utf8.allSatisfy(isAtomByte) {
        flush()
        units.append(String(word))
      } else {
        run.append(word)
      }
    }
    flush()
    units.append(String(value[lt...]))
    var out = ""
    var used = firstLineUsed
    for (i, unit) in units.enumerated() {
      let extra = i + 1 == units.count ? trailing : 0
      if i > 0 && used + 1 + unit.count + extra > lineLimit {
        out += "\r\n " + unit
        used = 1 + unit.count
      } else {
        out += (i > 0 ? " " : "") + unit
        used += (i > 0 ? 1 : 0) + unit.count
      }
    }
    return out
  }

  /// A byte that may stand in an atom (RFC 5322 atext).
  static func isAtomByte(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "!#$%&'*+-/=?^_`{|}~".utf8.contains(b)
  }

  /// The text as printable ASCII folded before spaces so that no line is
  /// longer than the limit; nil when a word is too long for that.
  static func foldedAtSpaces(_ value: String, firstLineUsed: Int) -> String? {
    let words = value.split(separator: " ", omittingEmptySubsequences: false)
    var out = String(words[0])
    var length = firstLineUsed + words[0].count
    for word in words.dropFirst() {
      if length + 1 + word.count > lineLimit && !word.isEmpty && length > 1 {
        out += "\r\n " + word
        length = 1 + word.count
      } else {
        out += " " + word
        length += 1 + word.count
      }
      if length > lineLimit { return nil }
    }
    return firstLineUsed + words[0].count > lineLimit ? nil : out
  }

  /// `=?UTF-8?B?…?=` words, each at most 75 characters and each line at
  /// most 76, never splitting a character's bytes, separated by folding
  /// white space (which decoders drop between encoded words).
  static func encodedWords(_ text: String, firstLineUsed: Int) -> String {
    var words: [String] = []
    var chunk: [UInt8] = []
    func budget() -> Int {
      // The line a word goes on: the header's first, or a folded one.
      let room = min(75, (words.isEmpty ? 76 - firstLineUsed : 75)) - 12
      return max(1, room / 4) * 3
    }
    for scalar in text.unicodeScalars {
      let bytes = Array(String(scalar).utf8)
      if !chunk.isEmpty && chunk.count + bytes.count > budget() {
        words.append("=?UTF-8?B?" + String(decoding: Base64.encode(chunk), as: UTF8.self) + "?=")
        chunk = []
      }
      chunk += bytes
    }
    if !chunk.isEmpty || words.isEmpty { words.append("=?UTF-8?B?" + String(decoding: Base64.encode(chunk), as: UTF8.self) + "?=") }
    return words.joined(separator: "\r\n ")
  }

  /// A header with parameters (`Content-Type: image/png; name="a.png"`),
  /// ending in CRLF: a parameter goes on a line of its own when it would
  /// make the line too long.
  static func parameterHeader(_ name: String, _ value: String, _ parameters: [String]) -> String {
    var out = name + ": " + value
    var length = out.count
    for p in parameters {
      if length + 2 + p.count + 1 <= lineLimit {
        out += "; " + p
        length += 2 + p.count
      } else {
        out += ";\r\n " + p
        length = 1 + p.count
      }
    }
    return out + "\r\n"
  }

  /// A parameter (`filename="a.png"`) in pieces that each fit on a line:
  /// a quoted string for printable ASCII, RFC 2231's
  /// `filename*=UTF-8''%C3%A9.png` for anything else (so a name cannot
  /// carry a line break into the header), and RFC 2231 continuations
  /// (`filename*0*=…; filename*1*=…`) for a long value.
  static func parameter(_ name: String, _ value: String) -> [String] {
    // The room for one piece: a line holds " piece;".
    let room = lineLimit - 2
    let bytes = Array(value.utf8)
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      let whole = name + "=" + quoted(value)
      if whole.count <= room { return [whole] }
      var pieces: [String] = []
      var chunk = ""
      for c in value {
        if (name + "*00=").count + quoted(chunk + String(c)).count > room {
          pieces.append(chunk)
          chunk = ""
        }
        chunk.append(c)
      }
      pieces.append(chunk)
      return pieces.enumerated().map { "\(name)*\($0.offset)=" + quoted($0.element) }
    }
    var encoded: [String] = []
    for b in bytes {
      let safe = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x2D || b == 0x5F
      encoded.append(safe ? String(UnicodeScalar(b)) : "%" + String(b, radix: 16, uppercase: true).leftPadded(2))
    }
    let whole = name + "*=UTF-8''" + encoded.joined()
    if whole.count <= room { return [whole] }
    var pieces: [String] = []
    var chunk = "UTF-8''"
    for e in encoded {
      if (name + "*00*=").count + chunk.count + e.count > room {
        pieces.append(chunk)
        chunk = ""
      }
      chunk += e
    }
    pieces.append(chunk)
    return pieces.enumerated().map { "\(name)*\($0.offset)*=" + $0.element }
  }

  static func quoted(_ s: String) -> String {
    var out = "\""
    for c in s {
      if c == "\\" || c == "\"" { out.append("\\") }
      out.append(c)
    }
    return out + "\""
  }

  /// `Tue, 01 Dec 2026 11:04:05 +0100`, in local time.
  static func date(_ milliseconds: Int64) -> String {
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    localtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    // %a and %b in the C locale (pb never calls setlocale for LC_TIME):
    // English names, as RFC 5322 wants.
    let n = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S ", &parts)
    let offset = parts.tm_gmtoff / 60
    let sign = offset < 0 ? "-" : "+"
    let zone = sign + String(abs(offset) / 60).leftPadded(2) + String(abs(offset) % 60).leftPadded(2)
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) + zone
  }

  static func randomHex(_ bytes: Int) -> String {
    var out = ""
    for _ in 0..<bytes { out += String(UInt8.random(in: 0...255), radix: 16).leftPadded(2) }
    return out
  }
}
