/// The one protocol every storage backend implements: memory (the
/// reference), file, and X11 selections.
///
/// Semantics every backend keeps, checked by the shared conformance suite:
/// - a write replaces all items of each board it names and raises each
///   board's change count; the count never goes down;
/// - reading a board never written gives no items and change count 0;
/// - `clear(_:ifChangeCount:)` refuses with `.refused` when the count of
///   any board it names has moved on, clearing none of them, and otherwise
///   empties them all (a write: each count rises);
/// - boards are independent namespaces.
public protocol PasteboardBackend: AnyObject {
  /// A short name for messages and `pb info`: "memory", "file", "x11".
  var kind: String { get }

  /// The board's current content. With `.paste`, one paste is counted
  /// against a paste limit (and the board clears after the last one).
  func read(_ board: BoardName, purpose: ReadPurpose) throws -> BoardContents

  /// Replaces the items of every board in `boards`.
  /// - Throws: `.unavailable` when the store cannot be used,
  ///   `.failed` on I/O errors; no board changes then.
  func write(_ items: [PasteboardItem], to boards: [BoardName], options: WriteOptions) throws

  /// Empties every board in `boards`, only if each one's change count is
  /// still `ifChangeCount` when that is given: all of them or none.
  /// - Throws: `.refused` naming the first board whose count moved on.
  func clear(_ boards: [BoardName], ifChangeCount: UInt64?) throws

  /// The board's change count (UIPasteboard's `changeCount`).
  func changeCount(of board: BoardName) throws -> UInt64

  /// The boards that exist, sorted by name.
  func boardNames() throws -> [BoardName]
}

extension PasteboardBackend {
  /// Empties one board (see `clear(_:ifChangeCount:)` for several).
  public func clear(_ board: BoardName, ifChangeCount: UInt64?) throws {
    try clear([board], ifChangeCount: ifChangeCount)
  }
}

/// Lazily fetched content (after UIKit's item providers): the X11 backend
/// offers a representation without transferring it until it is asked for.
public protocol ContentProvider: AnyObject {
  /// Streams the content to `sink`; returns the byte count.
  func write(to sink: Descriptor) throws -> Int64
  /// The whole content in memory.
  func load() throws -> [UInt8]
  /// The size, when the provider knows it without fetching the content
  /// (a Redis server records it); nil otherwise.
  var byteCount: Int64? { get }
}

extension ContentProvider {
  public var byteCount: Int64? { nil }
}
