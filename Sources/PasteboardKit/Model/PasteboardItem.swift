/// One representation of an item: a MIME type and its bytes.
public struct Representation {
  public let type: String
  public let payload: Payload

  public init(type: String, payload: Payload) {
    self.type = type
    self.payload = payload
  }

  public init(type: String, bytes: [UInt8]) {
    self.init(type: type, payload: .bytes(bytes))
  }
}

/// An item on a board, offered in one or more representations (after
/// UIPasteboard's item dictionaries), in the owner's order of preference.
public struct PasteboardItem {
  public var representations: [Representation]

  public init(_ representations: [Representation]) {
    self.representations = representations
  }

  /// The types of this item, in order.
  public var types: [String] { representations.map(\.type) }

  /// The representation for `type`, accepting the usual text aliases
  /// (`text/plain` finds `text/plain;charset=utf-8`, and so on).
  public func representation(for type: String) -> Representation? {
    if let exact = representations.first(where: { MIMEType.same($0.type, type) }) {
      return exact
    }
    guard MIMEType.isPlainText(type) else { return nil }
    return representations.first { MIMEType.isPlainText($0.type) }
  }
}

extension PasteboardItem {
  /// An item holding UTF-8 text.
  public static func text(_ string: String) -> PasteboardItem {
    PasteboardItem([Representation(type: MIMEType.utf8Text, bytes: Array(string.utf8))])
  }

  /// An item holding a URL, offered as `text/uri-list` and as text.
  public static func url(_ url: String) -> PasteboardItem {
    PasteboardItem([
      Representation(type: MIMEType.uriList, bytes: Array((url + "\r\n").utf8)),
      Representation(type: MIMEType.utf8Text, bytes: Array(url.utf8)),
    ])
  }

  /// An item holding an encoded image (PNG by default).
  public static func image(_ bytes: [UInt8], type: String = "image/png") -> PasteboardItem {
    PasteboardItem([Representation(type: type, bytes: bytes)])
  }
}
