import CX11
import PasteboardKit

/// The clipboard manager's copy of one CLIPBOARD content: each MIME
/// representation the owner offers, in an in-memory file (memfd) that a
/// takeover hands to a background owner as it is, so the manager holds
/// it once and never on disk.
struct SavedClipboard {
  let file: Descriptor
  let slices: [SharedContent.Slice]
  /// The window that offered it.
  let owner: Window

  /// Why nothing was saved, for the manager to say so.
  enum Skipped: Error {
    case noOwner
    /// The owner offers `x-kde-passwordManagerHint` (a password manager's
    /// secret, pb's `--sensitive`): never fetched, never kept.
    case sensitive
    case nothingToKeep
    case tooLarge
    /// The owner did not answer, or went away midway.
    case failed(String)
  }

  /// Fetches the CLIPBOARD owner's content, as a read for inspection
  /// would show it (the same targets folded into the same types), within
  /// `limit` bytes for all representations together.
  ///
  /// - Parameter wanted: the targets a SAVE_TARGETS request named; nil
  ///   for every target offered.
  /// - Throws: `.unavailable` when the X server went away; `Skipped` for
  ///   everything else that left nothing saved.
  static func fetch(with backend: X11Backend, limit: Int64, wanted: Set<Atom>? = nil) throws -> SavedClipboard {
    let (r, selection) = try backend.requestor(for: .general)
    do {
      guard let inspection = try OwnerInspection.inspect(selection, with: r) else { throw Skipped.noOwner }
      guard !inspection.sensitive else { throw Skipped.sensitive }
      let offered = wanted.map { w in inspection.offered.filter { w.contains($0.atom) } } ?? inspection.offered
      let reps = TargetFolding.representations(offered, requestor: r, selection: selection, keepAlive: backend)
      let fd = pb_memfd_create("pb-x11-saved")
      guard fd >= 0 else { throw Skipped.failed("cannot hold the content in memory: \(errnoText())") }
      let file = Descriptor(fd)
      var slices: [SharedContent.Slice] = []
      var offset: Int64 = 0
      for rep in reps {
        guard case .provider(let provider) = rep.payload, let remote = provider as? RemoteContent else { continue }
        guard let length = try remote.write(to: file, limit: limit - offset) else {
          // The owner is left mid-transfer: a new connection for the next.
          backend.dropConnection()
          throw Skipped.tooLarge
        }
        slices.append(SharedContent.Slice(type: rep.type, offset: Int(offset), length: Int(length)))
        offset += length
      }
      guard !slices.isEmpty else { throw Skipped.nothingToKeep }
      return SavedClipboard(file: file, slices: slices, owner: inspection.owner)
    } catch let error as PasteboardError {
      if case .unavailable = error { throw error }
      // An answer may still come late: it must not answer the next request.
      backend.dropConnection()
      throw Skipped.failed("\(error)")
    }
  }
}
