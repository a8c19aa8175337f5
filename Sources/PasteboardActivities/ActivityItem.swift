#if canImport(Glibc)
  import Glibc
#endif

import PasteboardKit

/// One thing an activity can act on (after the items a
/// UIActivityViewController is given): text, an image, a URL, a file, or
/// other data, each with its MIME type and bytes.
///
/// Items come from the board's representations (`from(_:)`), from text
/// arguments, or from files; an activity reads them and never reaches
/// into a backend.
public struct ActivityItem {
  public enum Kind: String, CaseIterable {
    case text, image, url, file, data
  }

  public let kind: Kind
  /// The MIME type of the bytes.
  public let type: String
  public let payload: Payload
  /// For a file: its path. For others: nil.
  public let path: String?

  public init(kind: Kind, type: String, payload: Payload, path: String? = nil) {
    self.kind = kind
    self.type = type
    self.payload = payload
    self.path = path
  }

  /// UTF-8 text.
  public static func text(_ string: String) -> ActivityItem {
    ActivityItem(kind: .text, type: MIMEType.utf8Text, payload: .bytes(Array(string.utf8)))
  }

  /// Text given as bytes (kept exactly, whether or not they are UTF-8).
  public static func text(bytes: [UInt8], type: String = MIMEType.utf8Text) -> ActivityItem {
    ActivityItem(kind: .text, type: type, payload: .bytes(bytes))
  }

  /// A URL (one line of a `text/uri-list`).
  public static func url(_ url: String) -> ActivityItem {
    ActivityItem(kind: .url, type: MIMEType.uriList, payload: .bytes(Array(url.utf8)))
  }

  /// The file at `path`, its type detected from its first bytes and name.
  /// - Throws: `.failed` when it cannot be read.
  public static func file(_ path: String) throws -> ActivityItem {
    let file = try Descriptor.open(path, O_RDONLY)
    let st = try file.status()
    guard st.st_mode & S_IFMT == S_IFREG else {
      throw PasteboardError.failed("cannot share \(path): it is not a regular file")
    }
    var head = [UInt8](repeating: 0, count: Int(min(Int64(st.st_size), 64 * 1024)))
    if !head.isEmpty { head = try file.read(count: head.count, at: 0) }
    let type = TypeDetection.types(of: head, fileName: path, complete: Int64(head.count) == Int64(st.st_size)).first
      ?? MIMEType.octetStream
    let region = FileRegion(file: file, offset: 0, length: Int64(st.st_size))
    return ActivityItem(kind: .file, type: type, payload: .region(region), path: path)
  }

  /// The items a board's content offers: for each pasteboard item, its
  /// URLs (a `file:` URL as a file), else its image, else its text, else
  /// its first representation as data.
  public static func from(_ items: [PasteboardItem]) throws -> [ActivityItem] {
    var result: [ActivityItem] = []
    for item in items {
      if let list = item.representation(for: MIMEType.uriList) {
        let urls = String(decoding: try list.payload.loadBytes(), as: UTF8.self)
          .split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
          .map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
        for url in urls {
          if let path = FileURL.path(of: url), let file = try? ActivityItem.file(path) {
            result.append(file)
          } else {
            result.append(.url(url))
          }
        }
        if !urls.isEmpty { continue }
      }
      if let image = item.representations.first(where: { $0.type.lowercased().hasPrefix("image/") }) {
        result.append(ActivityItem(kind: .image, type: image.type, payload: image.payload))
      } else if let text = item.representation(for: MIMEType.plainText)
        ?? item.representations.first(where: { MIMEType.isText($0.type) })
      {
        result.append(ActivityItem(kind: .text, type: text.type, payload: text.payload))
      } else if let first = item.representations.first {
        result.append(ActivityItem(kind: .data, type: first.type, payload: first.payload))
      }
    }
    return result
  }

  /// Whether the item is text: a text item, or a file of a text type.
  public var isText: Bool { kind == .text || (kind == .file && MIMEType.isText(type)) }

  /// The bytes of the item.
  public func bytes() throws -> [UInt8] { try payload.loadBytes() }

  /// The item's text, when it is valid UTF-8 text (or a URL).
  public func string() throws -> String? {
    guard kind == .text || kind == .url || MIMEType.isText(type) else { return nil }
    let b = try bytes()
    return TypeDetection.looksLikeText(b) || b.isEmpty ? String(decoding: b, as: UTF8.self) : nil
  }

  /// Whether the item's type matches `pattern` (`image/*`, `text/plain`,
  /// `*/*`), case-insensitively and ignoring parameters unless the pattern
  /// names some.
  public func matches(_ pattern: String) -> Bool {
    MIMEPattern.matches(pattern, type)
  }
}

/// MIME type patterns: `type/subtype`, `type/*` or `*/*`.
public enum MIMEPattern {
  /// Whether `pattern` is well formed.
  public static func isValid(_ pattern: String) -> Bool {
    let parts = pattern.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
    if parts[0] == "*" && parts[1] != "*" { return false }
    return pattern.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
  }

  public static func matches(_ pattern: String, _ type: String) -> Bool {
    let p = pattern.lowercased()
    var t = type.lowercased()
    if !p.contains(";"), let semi = t.firstIndex(of: ";") { t = String(t[..<semi]) }
    if p == "*/*" { return true }
    if p.hasSuffix("/*") { return t.hasPrefix(String(p.dropLast())) }
    return MIMEType.same(p, t)
  }
}

/// `file:` URLs and paths.
enum FileURL {
  /// The path a `file://` URL names (percent-decoded), or nil.
  static func path(of url: String) -> String? {
    guard url.hasPrefix("file://") else { return nil }
    var rest = Substring(url.dropFirst("file://".count))
    if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
    guard rest.hasPrefix("/") else { return nil }
    var bytes: [UInt8] = []
    var i = rest.utf8.startIndex
    let u = rest.utf8
    while i < u.endIndex {
      let b = u[i]
      if b == 0x25, let h1 = u.index(i, offsetBy: 1, limitedBy: u.endIndex), h1 < u.endIndex,
        let h2 = u.index(h1, offsetBy: 1, limitedBy: u.endIndex), h2 < u.endIndex,
        let v = UInt8(String(decoding: [u[h1], u[h2]], as: UTF8.self), radix: 16)
      {
        bytes.append(v)
        i = u.index(after: h2)
      } else {
        bytes.append(b)
        i = u.index(after: i)
      }
    }
    return ByteString.decode(bytes)
  }
}
