/// MIME type names pb uses, and the rules for comparing them.
public enum MIMEType {
  /// The canonical type of text: UTF-8 plain text.
  public static let utf8Text = "text/plain;charset=utf-8"
  public static let plainText = "text/plain"
  public static let uriList = "text/uri-list"
  public static let octetStream = "application/octet-stream"

  /// Text types in the order a paste prefers them when no type is asked
  /// for. X11 target names are included so the X11 backend can share it.
  public static let textPreference = [
    utf8Text, "UTF8_STRING", "text/plain;charset=UTF-8", plainText, "STRING", "TEXT",
  ]

  /// Whether two type names denote the same type: case-insensitive, and
  /// blind to spaces around parameters (`text/plain; charset=UTF-8`).
  public static func same(_ a: String, _ b: String) -> Bool {
    normalized(a) == normalized(b)
  }

  static func normalized(_ type: String) -> String {
    String(type.lowercased().filter { $0 != " " })
  }

  /// Whether `type` is plain text that pb treats as UTF-8.
  public static func isPlainText(_ type: String) -> Bool {
    let t = normalized(type)
    return t == "text/plain" || t == "text/plain;charset=utf-8" || t == "utf8_string"
      || t == "string" || t == "text"
  }

  /// Whether `type` is some kind of text (for `--append` and previews).
  public static func isText(_ type: String) -> Bool {
    isPlainText(type) || normalized(type).hasPrefix("text/")
  }

  /// Checks that `type` can be stored and named on the command line: a
  /// `type/subtype` of printable ASCII, no line breaks.
  public static func validate(_ type: String) throws {
    let ok = !type.isEmpty && type.utf8.count <= 255
      && type.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
      && (type.contains("/") || type.uppercased() == type)
    if !ok {
      throw PasteboardError.invalid("'\(type)' is not a MIME type (expected type/subtype)")
    }
  }
}
