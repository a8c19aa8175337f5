/// What a board holds at one moment: its items, its change count, and how
/// it was written.
public struct BoardContents {
  public var items: [PasteboardItem]
  /// The board's change count; 0 for a board never written.
  public var changeCount: UInt64
  public var sensitive: Bool
  /// When the content expires, in milliseconds since the epoch.
  public var expiresAt: Int64?
  /// Pastes left before the board clears itself, when limited.
  public var pastesLeft: Int?
  /// When the content was written, in milliseconds since the epoch.
  public var writtenAt: Int64?

  public init(
    items: [PasteboardItem], changeCount: UInt64, sensitive: Bool = false,
    expiresAt: Int64? = nil, pastesLeft: Int? = nil, writtenAt: Int64? = nil
  ) {
    self.items = items
    self.changeCount = changeCount
    self.sensitive = sensitive
    self.expiresAt = expiresAt
    self.pastesLeft = pastesLeft
    self.writtenAt = writtenAt
  }

  public var isEmpty: Bool { items.isEmpty }

  /// The types of the first item (UIPasteboard's `types`).
  public var types: [String] { items.first?.types ?? [] }
}

/// How a write should treat its content (UIPasteboard's options, plus pb's
/// paste limit).
public struct WriteOptions {
  /// Never persisted to disk nor kept in history; on X11 also marked with
  /// `x-kde-passwordManagerHint: secret`.
  public var sensitive = false
  /// Clear the board at this time (milliseconds since the epoch) if it
  /// still holds this content.
  public var expiresAt: Int64?
  /// Serve this many pastes, then clear.
  public var pasteLimit: Int?
  /// For backends that serve content from a live process (X11): serve it
  /// from the calling process, returning only when the content is replaced,
  /// expires or has been pasted `pasteLimit` times. Other backends ignore it.
  public var foreground = false

  public init(sensitive: Bool = false, expiresAt: Int64? = nil, pasteLimit: Int? = nil, foreground: Bool = false) {
    self.sensitive = sensitive
    self.expiresAt = expiresAt
    self.pasteLimit = pasteLimit
    self.foreground = foreground
  }
}

/// Why a board is being read: a paste counts against a paste limit, a look
/// (types, boards, count) does not.
public enum ReadPurpose {
  case inspect
  case paste
}
