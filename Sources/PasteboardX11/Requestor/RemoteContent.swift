import CX11
import PasteboardKit

/// One representation offered by a selection owner, fetched only when it
/// is written or loaded (UIKit's item providers, on X11).
///
/// Text stands for all the owner's text targets: it asks for them in pb's
/// order of preference and turns Latin-1 (`STRING`) into UTF-8 on the way.
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

  func load() throws -> [UInt8] {
    var all: [UInt8] = []
    try fetch { all.append(contentsOf: $0) }
    return all
  }

  private func fetch(_ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
    let atoms = requestor.connection.atoms
    for candidate in candidates {
      let answered: PropertyInfo?
      if isText && candidate.atom == atoms.string {
        answered = try convert(candidate) { try Latin1.withUTF8($0, sink) }
      } else if isText && candidate.atom == atoms.text {
        // TEXT is answered in an encoding the reply's type names: hold it
        // (a legacy target, used only when nothing better is offered).
        var held: [UInt8] = []
        answered = try convert(candidate) { held.append(contentsOf: $0) }
        if let answered {
          try held.withUnsafeBytes {
            try answered.type == atoms.string ? Latin1.withUTF8($0, sink) : sink($0)
          }
        }
      } else {
        answered = try convert(candidate, sink)
      }
      if answered != nil { return }
    }
    throw PasteboardError.failed(
      "the \(requestor.selectionName) owner refused to hand over '\(shownType)' although it offers it (DISPLAY is \(requestor.connection.displayName))")
  }

  private func convert(
    _ candidate: (atom: Atom, name: String), _ sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> PropertyInfo? {
    try requestor.convert(
      selection, to: candidate.atom, targetName: candidate.name,
      property: requestor.connection.atoms.transfer, sink: sink)
  }
}
