/// A named board on a backend, with UIPasteboard's conveniences: the
/// library's front door.
///
/// ```swift
/// let board = try Pasteboard(name: "general", backend: FileBackend(location: .fromEnvironment()))
/// try board.setString("hello")
/// let text = try board.string()          // "hello"
/// let changed = try board.changeCount()  // rises with every write
/// ```
///
/// Every setter replaces all items (UIPasteboard semantics); reads return
/// nil or an empty list when the board holds nothing of that kind.
public final class Pasteboard {
  public let name: BoardName
  public let backend: PasteboardBackend

  public init(name: BoardName = .general, backend: PasteboardBackend) {
    self.name = name
    self.backend = backend
  }

  public convenience init(name: String, backend: PasteboardBackend) throws {
    self.init(name: try BoardName(name), backend: backend)
  }

  // MARK: Items

  /// The board's items, each in its representations.
  public func items() throws -> [PasteboardItem] {
    try backend.read(name, purpose: .inspect).items
  }

  /// Replaces the board's items (UIPasteboard's `setItems(_:options:)`).
  public func setItems(_ items: [PasteboardItem], options: WriteOptions = WriteOptions()) throws {
    try backend.write(items, to: [name], options: options)
  }

  /// The types of the first item (UIPasteboard's `types`).
  public func types() throws -> [String] {
    try backend.read(name, purpose: .inspect).types
  }

  /// The bytes of the first item's representation of `type`, if offered.
  public func data(forType type: String) throws -> [UInt8]? {
    try items().first?.representation(for: type)?.payload.loadBytes()
  }

  /// The change count (UIPasteboard's `changeCount`).
  public func changeCount() throws -> UInt64 {
    try backend.changeCount(of: name)
  }

  /// Empties the board.
  public func clear() throws {
    try backend.clear(name, ifChangeCount: nil)
  }

  // MARK: Strings

  /// The first item's text, if it has any.
  public func string() throws -> String? {
    try strings().first
  }

  /// The text of every item that has text.
  public func strings() throws -> [String] {
    try items().compactMap { item in
      try item.representation(for: MIMEType.plainText).map { String(decoding: try $0.payload.loadBytes(), as: UTF8.self) }
    }
  }

  public func setString(_ string: String, options: WriteOptions = WriteOptions()) throws {
    try setItems([.text(string)], options: options)
  }

  public func setStrings(_ strings: [String], options: WriteOptions = WriteOptions()) throws {
    try setItems(strings.map(PasteboardItem.text), options: options)
  }

  /// Whether any item has text, without reading the text.
  public func hasStrings() throws -> Bool {
    try items().contains { $0.representation(for: MIMEType.plainText) != nil }
  }

  // MARK: URLs

  /// The URLs of every item offering `text/uri-list` (comments and blank
  /// lines skipped; CRLF and LF both end a line).
  public func urls() throws -> [String] {
    try items().flatMap { item -> [String] in
      guard let list = item.representation(for: MIMEType.uriList) else { return [] }
      let text = String(decoding: try list.payload.loadBytes(), as: UTF8.self)
      return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        .map(String.init).filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
  }

  public func url() throws -> String? { try urls().first }

  public func setURLs(_ urls: [String], options: WriteOptions = WriteOptions()) throws {
    try setItems(urls.map(PasteboardItem.url), options: options)
  }

  public func hasURLs() throws -> Bool {
    try items().contains { $0.representation(for: MIMEType.uriList) != nil }
  }

  // MARK: Images

  /// The encoded bytes and type of every item offering an image.
  public func images() throws -> [(type: String, bytes: [UInt8])] {
    try items().compactMap { item in
      guard let rep = item.representations.first(where: { $0.type.lowercased().hasPrefix("image/") }) else {
        return nil
      }
      return (rep.type, try rep.payload.loadBytes())
    }
  }

  public func image() throws -> (type: String, bytes: [UInt8])? { try images().first }

  public func setImage(_ bytes: [UInt8], type: String = "image/png", options: WriteOptions = WriteOptions()) throws {
    try setItems([.image(bytes, type: type)], options: options)
  }

  public func hasImages() throws -> Bool {
    try items().contains { $0.types.contains { $0.lowercased().hasPrefix("image/") } }
  }
}
