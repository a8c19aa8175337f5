/// Detects a MIME type from content and file name, in process (no helper
/// program is ever run, so detection cannot hang).
///
/// Order: a known magic signature wins; then valid UTF-8 text without NUL
/// bytes is text, with the file name refining it (`.html`, `.json`);
/// otherwise the file name's type; otherwise `application/octet-stream`.
public enum TypeDetection {
  /// The primary type of `content` (the first bytes suffice: pass up to
  /// 64 KiB) and any further types the same bytes can be offered as.
  ///
  /// Text gets `text/plain;charset=utf-8` first so that every text target
  /// works; an HTML file is then offered as `text/html` too.
  public static func types(of content: [UInt8], fileName: String? = nil, complete: Bool = true) -> [String] {
    if let magic = magicType(content) { return [magic] }
    let byName = fileName.flatMap(typeForFileName)
    if looksLikeText(content, complete: complete) {
      if let refined = byName, refined.hasPrefix("text/") || textualApplicationTypes.contains(refined),
        !MIMEType.isPlainText(refined)
      {
        return [MIMEType.utf8Text, refined]
      }
      return [MIMEType.utf8Text]
    }
    return [byName ?? MIMEType.octetStream]
  }

  static let textualApplicationTypes: Set<String> = ["application/json", "application/xml", "image/svg+xml"]

  /// The type a file name's extension suggests, if pb knows it.
  public static func typeForFileName(_ name: String) -> String? {
    guard let dot = name.lastIndex(of: "."), !name[dot...].contains("/") else { return nil }
    return extensions[name[name.index(after: dot)...].lowercased()]
  }

  /// The usual file name extension for `type` (`png` for `image/png`,
  /// `txt` for plain text), or nil when pb knows none.
  public static func fileExtension(for type: String) -> String? {
    if MIMEType.isPlainText(type) { return "txt" }
    let preferred = ["image/jpeg": "jpg", "text/html": "html", "image/tiff": "tiff", MIMEType.uriList: "uri"]
    let base = String(type.lowercased().prefix { $0 != ";" }).filter { $0 != " " }
    if let e = preferred[base] { return e }
    return extensions.first { $0.value == base }?.key
  }

  static let extensions: [String: String] = [
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
    "webp": "image/webp", "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff",
    "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon", "pdf": "application/pdf",
    "html": "text/html", "htm": "text/html", "txt": MIMEType.utf8Text, "md": "text/markdown",
    "csv": "text/csv", "json": "application/json", "xml": "application/xml",
    "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
    "uri": MIMEType.uriList, "uris": MIMEType.uriList,
  ]

  /// Types recognised by their first bytes.
  static func magicType(_ b: [UInt8]) -> String? {
    func starts(_ sig: [UInt8], at offset: Int = 0) -> Bool {
      b.count >= offset + sig.count && Array(b[offset..<offset + sig.count]) == sig
    }
    if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
    if starts([0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "image/gif" }
    if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "image/webp" }
    if starts(Array("%PDF-".utf8)) { return "application/pdf" }
    if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "image/tiff" }
    if starts(Array("BM".utf8)) && b.count > 14 && b[6...9].allSatisfy({ $0 == 0 }) { return "image/bmp" }
    if starts([0x50, 0x4B, 0x03, 0x04]) { return "application/zip" }
    if starts([0x1F, 0x8B]) { return "application/gzip" }
    return nil
  }

  /// Valid UTF-8 without NUL bytes. When `complete` is false the content is
  /// a prefix, so a sequence cut at the end is forgiven.
  public static func looksLikeText(_ b: [UInt8], complete: Bool = true) -> Bool {
    if b.contains(0) { return false }
    var slice = b[...]
    if !complete {
      // Drop an incomplete trailing sequence (at most 3 bytes).
      var back = 0
      while back < 3, back < slice.count, slice[slice.endIndex - 1 - back] & 0xC0 == 0x80 { back += 1 }
      if back < slice.count {
        let lead = slice[slice.endIndex - 1 - back]
        let need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        if need > back + 1 { slice = slice.dropLast(back + 1) }
      }
    }
    var decoder = UTF8()
    var iterator = slice.makeIterator()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue: continue
      case .emptyInput: return true
      case .error: return false
      }
    }
  }
}
