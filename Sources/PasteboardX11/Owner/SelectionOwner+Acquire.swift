import CX11
import PasteboardKit

/// Taking the selections, all or nothing.
extension SelectionOwner {
  /// Takes every selection with a real server time and checks that the
  /// server agrees (a stale time "succeeds" silently, ICCCM 2.1).
  ///
  /// All or nothing: when one selection cannot be owned (another program
  /// took it after pb's time), the ones taken are given up again, so no
  /// board is left with part of a failed copy, and the error says which
  /// boards that emptied.
  /// - Throws: `.failed` naming the selections refused and those emptied.
  func acquire() throws {
    let c = connection
    var stamp = [CLong(bitPattern: ownedAt)]
    stamp.withUnsafeMutableBytes {
      _ = XChangeProperty(c.display, c.window, c.atoms.ownedAtProperty, c.atoms.integer, 32, PropModeReplace, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
    }
    for s in owned { XSetSelectionOwner(c.display, s.atom, c.window, ownedAt) }
    let refused = owned.filter { XGetSelectionOwner(c.display, $0.atom) != c.window }
    try c.checkAlive()
    if !refused.isEmpty {
      let taken = owned.filter { s in !refused.contains { $0.atom == s.atom } }
      // With pb's time, so that a program that took one since keeps it.
      for s in taken { XSetSelectionOwner(c.display, s.atom, 0, ownedAt) }
      XSync(c.display, False)
      OwnerLog.note("cannot own \(refused.map(\.name).joined(separator: ",")); gave up \(taken.map(\.name).joined(separator: ","))")
      throw PasteboardError.failed(SelectionOwner.refusal(refused.map(\.name), emptied: taken.map(\.name), display: c.displayName))
    }
    OwnerLog.note("owns \(owned.map(\.name).joined(separator: ",")) at \(ownedAt), chunk sizes \(chunkSizes.pb) for pb, \(chunkSizes.others) for others")
  }

  /// The one-line message for a failed acquisition: "cannot own the work
  /// selection: another program took it in the meantime; nothing was
  /// copied, and CLIPBOARD (board general), which pb had taken, was given
  /// up and is now empty (DISPLAY is :5)".
  static func refusal(_ refused: [String], emptied: [String], display: String) -> String {
    func list(_ names: [String]) -> String {
      let shown = names.map { name -> String in
        let board = SelectionNames.boardName(for: name)
        return board == name ? name : "\(name) (board \(board))"
      }
      return shown.count == 1 ? shown[0] : shown.dropLast().joined(separator: ", ") + " and " + shown[shown.count - 1]
    }
    let what = refused.count == 1 ? "the \(list(refused)) selection: another program took it" : "the \(list(refused)) selections: other programs took them"
    var message = "cannot own \(what) in the meantime; nothing was copied"
    if !emptied.isEmpty {
      message += ", and \(list(emptied)), which pb had taken, \(emptied.count == 1 ? "was" : "were") given up and \(emptied.count == 1 ? "is" : "are") now empty"
    }
    return message + " (DISPLAY is \(display))"
  }
}
