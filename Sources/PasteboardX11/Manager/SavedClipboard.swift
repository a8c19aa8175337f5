import CX11
#if canImport(Glibc)
  import Glibc
#endif
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
  /// A representation that would pass the limit is left out and the next
  /// ones are still fetched, in the owner's order: a toolkit offers one
  /// image in many encodings (GTK: PNG, JPEG, BMP, TIFF, ICO, …), and the
  /// first that fit are worth keeping even when all of them together
  /// are not.
  ///
  /// - Parameter wanted: the targets a SAVE_TARGETS request named; nil
  ///   for every target offered.
  /// - Throws: `.unavailable` when the X server went away; `Skipped` for
  ///   everything else that left nothing saved (`.tooLarge` when nothing
  ///   fitted).
  static func fetch(with backend: X11Backend, limit: Int64, wanted: Set<Atom>? = nil) throws -> SavedClipboard {
    let fd = pb_memfd_create("pb-x11-saved")
    guard fd >= 0 else { throw Skipped.failed("cannot hold the content in memory: \(errnoText())") }
    let file = Descriptor(fd)
    var slices: [SharedContent.Slice] = []
    var leftOut: Set<String> = []
    var owner: Window?
    var offset: Int64 = 0
    do {
      // Once per representation left out at most: a transfer abandoned
      // midway leaves its connection unusable, so the rest is asked anew.
      fetching: while true {
        let (r, selection) = try backend.requestor(for: .general)
        guard let inspection = try OwnerInspection.inspect(selection, with: r) else { throw Skipped.noOwner }
        guard !inspection.sensitive else { throw Skipped.sensitive }
        if let owner, owner != inspection.owner { throw Skipped.failed("the owner changed while pb fetched its content") }
        owner = inspection.owner
        let offered = wanted.map { w in inspection.offered.filter { w.contains($0.atom) } } ?? inspection.offered
        let reps = TargetFolding.representations(offered, requestor: r, selection: selection, keepAlive: backend)
        for rep in reps where !leftOut.contains(rep.type) && !slices.contains(where: { $0.type == rep.type }) {
          guard case .provider(let provider) = rep.payload, let remote = provider as? RemoteContent else { continue }
          guard let length = try remote.write(to: file, limit: limit - offset) else {
            OwnerLog.note("leaves \(rep.type) out: over \(limit) bytes with the rest")
            leftOut.insert(rep.type)
            try rewind(file, to: offset)
            backend.dropConnection()
            continue fetching
          }
          slices.append(SharedContent.Slice(type: rep.type, offset: Int(offset), length: Int(length)))
          offset += length
        }
        break
      }
    } catch let error as PasteboardError {
      if case .unavailable = error { throw error }
      // An answer may still come late: it must not answer the next request.
      backend.dropConnection()
      throw Skipped.failed("\(error)")
    }
    guard let owner, !slices.isEmpty else { throw leftOut.isEmpty ? Skipped.nothingToKeep : Skipped.tooLarge }
    return SavedClipboard(file: file, slices: slices, owner: owner)
  }

  /// Cuts what a representation left out had written, so that the next
  /// is written where it began.
  private static func rewind(_ file: Descriptor, to offset: Int64) throws {
    guard ftruncate(file.rawValue, off_t(offset)) == 0, lseek(file.rawValue, off_t(offset), SEEK_SET) == off_t(offset) else {
      throw Skipped.failed("cannot hold the content in memory: \(errnoText())")
    }
  }
}
