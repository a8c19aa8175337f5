import PasteboardKit

extension X11Backend {
  /// Watches `boards` as `watchChanges(of:)` does while pb is the
  /// display's clipboard manager (see `ClipboardManager`): it owns
  /// CLIPBOARD_MANAGER for as long as the watch runs (the server gives it
  /// up when the process ends), answers SAVE_TARGETS, keeps each new
  /// CLIPBOARD content of at most `limit` bytes (secrets never), and takes
  /// CLIPBOARD over when its owner goes away.
  ///
  /// - Parameter complain: told, in one line, of a content not kept
  ///   because it is larger than `limit`.
  /// - Throws: `.refused` when another clipboard manager runs;
  ///   `.unavailable` as `watchChanges(of:)`. From `next`, also
  ///   `.refused` when another program takes CLIPBOARD_MANAGER.
  public func watchChanges(
    of boards: [BoardName], managingUpTo limit: Int64, complain: @escaping (String) -> Void
  ) throws -> BoardWatch {
    try watch(boards) { connection in
      try ClipboardManager(connection: connection, backend: self, limit: limit, complain: complain)
    }
  }
}
