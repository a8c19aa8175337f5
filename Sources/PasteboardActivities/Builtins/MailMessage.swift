import PasteboardKit

/// An Internet message (RFC 5322) with MIME parts (RFC 2045–2049): what
/// `pb.mail` writes or hands to `sendmail`.
///
/// - Lines end in CRLF and keep within 78 characters; header values that
///   are not ASCII are encoded words (RFC 2047), and file names that are
///   not printable ASCII use RFC 2231 (see `MailEncoding`).
/// - A text item is an inline part: `text/plain; charset=utf-8` (or its
///   own text type) when it is UTF-8, sent as 7bit when it is short-lined
///   ASCII and as quoted-printable otherwise, its line breaks as CRLF
///   (text's canonical form, RFC 2046).
/// - A file, an image or other data is an attachment under its name, in
///   base64: the recipient gets the very bytes, text files included.
/// - One text item alone is the whole body; otherwise the body is
///   `multipart/mixed`, in the items' order.
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

  /// Refuses an address whose mailbox (the part in `<…>`, or all of it)
  /// is not ASCII: without SMTPUTF8 it has no form in a header.
  static func checkAddress(_ value: String, _ what: String) throws {
    try checkHeader(value, what)
    let mailbox = value.lastIndex(of: "<").map { value[$0...] } ?? value[...]
    if mailbox.utf8.contains(where: { $0 >= 0x80 || $0 < 0x20 }) {
      throw PasteboardError.invalid("the mail's \(what) '\(value)' is not ASCII (a name may be: Name <user@example.com>)")
    }
  }

  func bytes() -> [UInt8] {
    var head = MailEncoding.addressHeader("From", [from])
    if !to.isEmpty { head += MailEncoding.addressHeader("To", to) }
    head += MailEncoding.textHeader("Subject", subject)
    head += "Date: " + MailEncoding.date(date) + "\r\n"
    head += "Message-ID: <\(date).\(MailEncoding.randomHex(8))@\(MailMessage.idDomain(host))>\r\n"
    head += "MIME-Version: 1.0\r\n"
    head += "User-Agent: pb\r\n"
    if parts.count == 1, parts[0].fileName == nil {
      let (headers, encoded) = MailMessage.encode(parts[0])
      return Array((head + headers + "\r\n").utf8) + encoded
    }
    let encodedParts = parts.map(MailMessage.encode)
    var boundary = "pb-" + MailEncoding.randomHex(12)
    while encodedParts.contains(where: { $0.body.contains(subsequence: Array(boundary.utf8)) }) {
      boundary = "pb-" + MailEncoding.randomHex(12)
    }
    head += MailEncoding.parameterHeader("Content-Type", "multipart/mixed", ["boundary=\"\(boundary)\""])
    var body = Array("\r\nThis is a message in MIME format.\r\n".utf8)
    for (headers, encoded) in encodedParts {
      body += Array("\r\n--\(boundary)\r\n\(headers)\r\n".utf8) + encoded
    }
    body += Array("\r\n--\(boundary)--\r\n".utf8)
    return Array(head.utf8) + body
  }

  /// The part's headers (each ending in CRLF) and its encoded body.
  static func encode(_ part: Part) -> (headers: String, body: [UInt8]) {
    let base = String(part.type.prefix { $0 != ";" }).trimmingCharacters()
    if let name = part.fileName {
      let shown = displayName(name)
      let type = MailEncoding.parameterHeader("Content-Type", part.type, MailEncoding.parameter("name", shown))
      let disposition = MailEncoding.parameterHeader("Content-Disposition", "attachment", MailEncoding.parameter("filename", shown))
      return (type + disposition + "Content-Transfer-Encoding: base64\r\n", MailEncoding.base64Lines(part.bytes))
    }
    guard base.lowercased().hasPrefix("text/"), TypeDetection.looksLikeText(part.bytes) else {
      // Text that is not UTF-8: its bytes, under the charset it declares
      // (or none known).
      var type = part.type
      if MailMessage.charset(of: part.type).map({ $0 == "utf-8" || $0 == "utf8" }) ?? true {
        type = base + "; charset=unknown-8bit"
      }
      let headers = MailEncoding.parameterHeader("Content-Type", type, []) + "Content-Transfer-Encoding: base64\r\n"
      return (headers, MailEncoding.base64Lines(part.bytes))
    }
    var headers = "Content-Type: \(base); charset=utf-8\r\nContent-Disposition: inline\r\n"
    let lines = part.bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    if part.bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D && $0 != 0 }) && lines.allSatisfy({ $0.count <= 76 }) {
      headers += "Content-Transfer-Encoding: 7bit\r\n"
      return (headers, Array(lines.map { Array($0) }.joined(separator: [0x0D, 0x0A])))
    }
    headers += "Content-Transfer-Encoding: quoted-printable\r\n"
    return (headers, MailEncoding.quotedPrintable(part.bytes))
  }

  /// The `charset` parameter of a MIME type, lowercased, if any.
  static func charset(of type: String) -> String? {
    for parameter in type.split(separator: ";").dropFirst() {
      let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters() }
      if pair.count == 2, pair[0].lowercased() == "charset" {
        return pair[1].trimmingCharacters().replacingQuotes().lowercased()
      }
    }
    return nil
  }

  /// A file name as a recipient should see it: bytes of the name that
  /// are not UTF-8 (kept by `ByteString` as private-use characters) show
  /// as U+FFFD.
  static func displayName(_ name: String) -> String {
    String(String.UnicodeScalarView(name.unicodeScalars.map { $0.value >= 0x10FF80 ? "\u{FFFD}" : $0 }))
  }

  /// The host name as a Message-ID's domain: letters, digits, dots and
  /// hyphens only.
  static func idDomain(_ host: String) -> String {
    let ok = !host.isEmpty && host.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x2E || $0 == 0x2D }
    return ok ? host : "localhost"
  }
}

extension String {
  func replacingQuotes() -> String { String(filter { $0 != "\"" }) }
}
