import CX11
import PasteboardKit

/// One representation offered by a selection owner, fetched only when it
/// is written or loaded (UIKit's item providers, on X11).
///
/// UTF-8 text stands for all the owner's X text targets (see
/// `TargetFolding`): it asks for them in pb's order of preference and turns
/// Latin-1 (`STRING`) and compound text into UTF-8 on the way.
final class RemoteContent: ContentProvider {
  private let requestor: SelectionRequestor
  private let selection: Atom
  /// The owner's targets to try, best first.
  private let candidates: [(atom: Atom, name: String)]
  private let isText: Bool
  /// The type pb shows for it, for messages.
  private let shownType: String
  /// Keeps the connection open while the content may still be read.
  private let backend: AnyObject

  init(
    requestor: SelectionRequestor, selection: Atom, candidates: [(atom: Atom, name: String)],
    isText: Bool, shownType: String, keepAlive backend: AnyObject
  ) {
    self.requestor = requestor
    self.selection = selection
    self.candidates = candidates
    self.isText = isText
    self.shownType = shownType
    self.backend = backend
  }

  func write(to sink: Descriptor) throws -> Int64 {
    pb_keep_freed_memory()
    var count: Int64 = 0
    try fetch { bytes in
      try sink.writeAll(bytes)
      count += Int64(bytes.count)
    }
    return count
  }

  /// Streams into `sink` as `write(to:)` does, but gives up as soon as
  /// more than `limit` bytes have come (the clipboard manager's
  /// `--keep-max`), rather than after the owner has sent them all.
  /// - Returns: the byte count, or nil when the content is larger; the
  ///   transfer is then abandoned midway, so the caller must not use the
  ///   connection for another conversion.
  func write(to sink: Descriptor, limit: Int64) throws -> Int64? {
    struct OverLimit: Error {}
    var count: Int64 = 0
    do {
      try fetch { bytes in
        count += Int64(bytes.count)
        if count > limit { throw OverLimit() }
        try sink.writeAll(bytes)
      }
    } catch is OverLimit {
      return nil
    }
    return count
  }

  func load() throws -> [UInt8] {
    var all: [UInt8] = []
    try fetch { all.append(contentsOf: $0) }
    return all
  }

  private func fetch(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
    let c = requestor.connection
    for candidate in candidates {
      let answered: PropertyInfo?
      if isText && candidate.atom == c.atoms.string {
        answered = try convert(candidate) { try Latin1.withUTF8($0, sink) }
      } else if isText && (candidate.atom == c.atoms.text || candidate.atom == c.atoms.compoundText) {
        // Answered in an encoding the reply's type names: held, then
        // decoded (legacy targets, used only when nothing better is
        // offered).
        var held: [UInt8] = []
        answered = try convert(candidate) { held.append(contentsOf: $0) }
        if let answered {
          try held.withUnsafeBytes { bytes in
            switch answered.type {
            case c.atoms.string: try Latin1.withUTF8(bytes, sink)
            case c.atoms.compoundText: try CompoundText.withUTF8(bytes, on: c, sink)
            default: try sink(bytes)
            }
          }
        }
      } else {
        answered = try convert(candidate, sink)
      }
      if answered != nil { return }
    }
    throw PasteboardError.failed(
      "the \(requestor.selectionName) owner refused to hand over '\(shownType)' although it offers it (DISPLAY is \(c.displayName))")
  }

  private func convert(
    _ candidate: (atom: Atom, name: String), _ sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> PropertyInfo? {
    try requestor.convert(
      selection, to: candidate.atom, targetName: candidate.name,
      property: requestor.connection.atoms.transfer, sink: sink)
  }
}
