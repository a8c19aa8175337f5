import PasteboardKit

/// `pb watch --keep`: each change of a watched X11 board is written to the
/// file store's board of the same name, whose history then holds the
/// desktop clipboard's past contents (`pb history` and `pb paste --history
/// N` read it on X11).
///
/// What is kept: every MIME representation of the item (X11's own target
/// names are the same text again), fetched from the owner; never a secret
/// (pb's sensitive flag, an owner's `x-kde-passwordManagerHint`), never
/// content over `--keep-max`, and a content the same as the last one kept
/// is not kept twice.
final class HistoryKeeper {
  let store: FileBackend
  /// The most bytes one change may hold, all representations together.
  let limit: Int64

  static let defaultLimit: Int64 = 16 << 20

  init(store: FileBackend, limit: Int64) {
    self.store = store
    self.limit = limit
  }

  /// The keeper `--keep` asks for, or nil.
  static func resolve(_ invocation: Invocation, watching backend: PasteboardBackend) throws -> HistoryKeeper? {
    let limit = try givenLimit(invocation)
    guard invocation.has("keep") else {
      if limit != nil && !invocation.has("manage") { throw UsageError("--keep-max goes with --keep or --manage") }
      return nil
    }
    guard backend.kind == "x11" else {
      throw UsageError("--keep keeps the history of X11 boards; the \(backend.kind) backend is not X11")
    }
    return HistoryKeeper(store: try FileBackendFactory.make(), limit: limit ?? defaultLimit)
  }

  /// `--keep-max`, which bounds what `--keep` and `--manage` keep; nil
  /// when not given.
  static func givenLimit(_ invocation: Invocation) throws -> Int64? {
    try invocation.value("keep-max").map { t in try usage { try ByteCount.parse(t, for: "--keep-max") } }
  }

  /// Keeps `change` when it qualifies; a content too large is reported.
  func keep(_ change: BoardChange, io: CommandIO) throws {
    guard !change.sensitive, let item = change.contents.items.first else { return }
    var kept: [Representation] = []
    var total: Int64 = 0
    for rep in item.representations where rep.type.contains("/") {
      let bytes = try rep.payload.loadBytes()
      total += Int64(bytes.count)
      if total > limit {
        io.complain("change \(change.changeCount) of board '\(change.board)' holds more than \(limit) bytes (--keep-max); not kept")
        return
      }
      kept.append(Representation(type: rep.type, bytes: bytes))
    }
    if kept.isEmpty, let text = item.representation(for: MIMEType.utf8Text) {
      // An owner that offers only X11's text targets.
      kept = [Representation(type: MIMEType.utf8Text, bytes: try text.payload.loadBytes())]
    }
    guard !kept.isEmpty, try !isLastKept(kept, board: change.board) else { return }
    try store.write([PasteboardItem(kept)], to: [change.board], options: WriteOptions())
  }

  /// Whether the store's board already holds exactly `reps`.
  private func isLastKept(_ reps: [Representation], board: BoardName) throws -> Bool {
    guard let current = try store.read(board, purpose: .inspect).items.first, current.types == reps.map(\.type) else {
      return false
    }
    for (a, b) in zip(current.representations, reps) where try a.payload.loadBytes() != b.payload.loadBytes() {
      return false
    }
    return true
  }
}
