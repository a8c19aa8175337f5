#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// An Internet message (RFC 5322) with MIME parts (RFC 2045–2049): what
/// `pb.mail` writes or hands to `sendmail`.
///
/// - Lines end in CRLF; header values that are not ASCII are encoded words
///   (RFC 2047), and file names that are not ASCII use RFC 2231.
/// - Text that is UTF-8 is a `text/plain; charset=utf-8` (or its own text
///   type) part, sent as 7bit when it is short-lined ASCII and as
///   quoted-printable otherwise, its line breaks as CRLF; anything else is
///   an attachment in base64, byte for byte.
/// - One text item alone is the whole body; otherwise the body is
///   `multipart/mixed`, text parts inline and the rest attachments.
struct MailMessage {
  struct Part {
    var type: String
    var bytes: [UInt8]
    /// Shown as an attachment under this name.
    var fileName: String?
  }

  var from: String
  var to: [String]
  var subject: String
  var date: Int64
  var host: String
  var parts: [Part]

  /// Refuses a header value that could add a header of its own.
  static func checkHeader(_ value: String, _ what: String) throws {
    if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
      throw PasteboardError.invalid("the mail's \(what) must be one line")
    }
  }

  func bytes() -> [UInt8] {
    var out = ""
    func header(_ name: String, _ value: String) { out += name + ": " + value + "\r\n" }
    header("From", MailMessage.encodeWords(from, isAddress: true))
    if !to.isEmpty { header("To", to.map { MailMessage.encodeWords($0, isAddress: true) }.joined(separator: ",\r\n ")) }
    header("Subject", MailMessage.encodeWords(subject, isAddress: false))
    header("Date", MailMessage.rfc5322Date(date))
    header("Message-ID", "<\(date).\(MailMessage.randomHex(8))@\(host)>")
    header("MIME-Version", "1.0")
    header("User-Agent", "pb")
    var body: [UInt8] = []
    if parts.count == 1, parts[0].fileName == nil {
      let (headers, encoded) = MailMessage.encode(parts[0])
      out += headers
      body = encoded
    } else {
      var boundary = "pb-" + MailMessage.randomHex(12)
      let encodedParts = parts.map(MailMessage.encode)
      while encodedParts.contains(where: { $0.body.contains(subsequence: Array(boundary.utf8)) }) {
        boundary = "pb-" + MailMessage.randomHex(12)
      }
      header("Content-Type", "multipart/mixed; boundary=\"\(boundary)\"")
      body = Array("\r\nThis is a message in MIME format.\r\n".utf8)
      for (headers, encoded) in encodedParts {
        body += Array("\r\n--\(boundary)\r\n\(headers)\r\n".utf8) + encoded
      }
      body += Array("\r\n--\(boundary)--\r\n".utf8)
      return Array(out.utf8) + body
    }
    return Array((out + "\r\n").utf8) + body
  }

  /// The part's headers (each ending in CRLF) and its encoded body.
  static func encode(_ part: Part) -> (headers: String, body: [UInt8]) {
    var headers = ""
    let isText = part.type.lowercased().hasPrefix("text/") && TypeDetection.looksLikeText(part.bytes)
    if isText {
      let base = String(part.type.prefix { $0 != ";" })
      headers += "Content-Type: \(base); charset=utf-8\r\n"
    } else {
      headers += "Content-Type: \(part.type)\(part.fileName.map { "; name=" + quoted(asciiName($0)) } ?? "")\r\n"
    }
    if let name = part.fileName {
      headers += "Content-Disposition: attachment; " + dispositionName(name) + "\r\n"
    } else if isText {
      headers += "Content-Disposition: inline\r\n"
    }
    if isText {
      let lines = part.bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
      if part.bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D && $0 != 0 }) && lines.allSatisfy({ $0.count <= 76 }) {
        headers += "Content-Transfer-Encoding: 7bit\r\n"
        return (headers, Array(lines.map { Array($0) }.joined(separator: [0x0D, 0x0A])))
      }
      headers += "Content-Transfer-Encoding: quoted-printable\r\n"
      return (headers, quotedPrintable(part.bytes))
    }
    headers += "Content-Transfer-Encoding: base64\r\n"
    return (headers, base64Lines(part.bytes))
  }

  // MARK: Encodings

  static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  static func base64(_ bytes: some Collection<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var it = bytes.makeIterator()
    while let a = it.next() {
      let b = it.next()
      let c = it.next()
      let n = UInt32(a) << 16 | UInt32(b ?? 0) << 8 | UInt32(c ?? 0)
      out.append(base64Alphabet[Int(n >> 18 & 63)])
      out.append(base64Alphabet[Int(n >> 12 & 63)])
      out.append(b == nil ? 0x3D : base64Alphabet[Int(n >> 6 & 63)])
      out.append(c == nil ? 0x3D : base64Alphabet[Int(n & 63)])
    }
    return out
  }

  /// Base64 in lines of 76 characters, each ending in CRLF.
  static func base64Lines(_ bytes: [UInt8]) -> [UInt8] {
    let encoded = base64(bytes)
    var out: [UInt8] = []
    out.reserveCapacity(encoded.count + encoded.count / 76 * 2 + 2)
    var i = 0
    while i < encoded.count {
      out += encoded[i..<min(i + 76, encoded.count)]
      out += [0x0D, 0x0A]
      i += 76
    }
    return out
  }

  /// Quoted-printable (RFC 2045 6.7): line breaks as CRLF, soft breaks
  /// before 76 characters, `=` and other bytes outside printable ASCII as
  /// `=XX`, and a space or tab at the end of a line encoded.
  static func quotedPrintable(_ bytes: [UInt8]) -> [UInt8] {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    var lineLength = 0
    func emit(_ chunk: [UInt8]) {
      if lineLength + chunk.count > 75 {
        out += [0x3D, 0x0D, 0x0A]
        lineLength = 0
      }
      out += chunk
      lineLength += chunk.count
    }
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      let atLineEnd = i + 1 == bytes.count || bytes[i + 1] == 0x0A || (bytes[i + 1] == 0x0D && i + 2 < bytes.count && bytes[i + 2] == 0x0A)
      if b == 0x0A {
        out += [0x0D, 0x0A]
        lineLength = 0
      } else if b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A {
        // CRLF: the LF that follows makes the break.
      } else if (b >= 0x21 && b <= 0x7E && b != 0x3D) || ((b == 0x20 || b == 0x09) && !atLineEnd) {
        emit([b])
      } else {
        emit([0x3D, hex[Int(b >> 4)], hex[Int(b & 15)]])
      }
      i += 1
    }
    return out
  }

  /// A header value as RFC 2047 encoded words when it is not ASCII. For an
  /// address, only a display name before `<` is encoded.
  static func encodeWords(_ value: String, isAddress: Bool) -> String {
    guard value.utf8.contains(where: { $0 >= 0x80 }) else { return value }
    if isAddress, let lt = value.lastIndex(of: "<") {
      let name = value[..<lt].trimmingSpaces()
      return encodedWords(name) + " " + String(value[lt...])
    }
    return encodedWords(value)
  }

  /// `=?UTF-8?B?…?=` words of at most 75 characters, never splitting a
  /// character, separated by folding white space.
  static func encodedWords(_ text: String) -> String {
    var words: [String] = []
    var chunk: [UInt8] = []
    for character in text {
      let bytes = Array(character.utf8)
      if chunk.count + bytes.count > 45 {
        words.append("=?UTF-8?B?" + String(decoding: base64(chunk), as: UTF8.self) + "?=")
        chunk = []
      }
      chunk += bytes
    }
    if !chunk.isEmpty { words.append("=?UTF-8?B?" + String(decoding: base64(chunk), as: UTF8.self) + "?=") }
    return words.joined(separator: "\r\n ")
  }

  /// `filename="x.png"`, or for a name that is not ASCII, RFC 2231's
  /// `filename*=UTF-8''%C3%A9.png` with an ASCII `filename` beside it.
  static func dispositionName(_ name: String) -> String {
    guard name.utf8.contains(where: { $0 >= 0x80 }) else { return "filename=" + quoted(name) }
    var encoded = ""
    for b in name.utf8 {
      let safe = (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x2D || b == 0x5F
      encoded += safe ? String(UnicodeScalar(b)) : "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
    }
    return "filename=" + quoted(asciiName(name)) + "; filename*=UTF-8''" + encoded
  }

  static func asciiName(_ name: String) -> String {
    String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "_" })
  }

  static func quoted(_ s: String) -> String {
    "\"" + s.replacingBackslashesAndQuotes() + "\""
  }

  /// `Tue, 01 Dec 2026 11:04:05 +0100`, in local time.
  static func rfc5322Date(_ milliseconds: Int64) -> String {
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    localtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 64)
    // %a and %b in the C locale: English names, as RFC 5322 wants.
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

extension String {
  func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }

  func replacingBackslashesAndQuotes() -> String {
    var out = ""
    for c in self {
      if c == "\\" || c == "\"" { out.append("\\") }
      out.append(c)
    }
    return out
  }
}

extension Array where Element == UInt8 {
  func contains(subsequence needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, needle.count <= count else { return false }
    for i in 0...(count - needle.count) where self[i] == needle[0] && Array(self[i..<i + needle.count]) == needle {
      return true
    }
    return false
  }
}
