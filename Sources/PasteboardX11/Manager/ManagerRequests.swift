import CX11
import PasteboardKit

/// Answering conversions of CLIPBOARD_MANAGER: `SAVE_TARGETS` (the
/// freedesktop.org side-effect target an exiting CLIPBOARD owner asks
/// for), and `TARGETS`, `TIMESTAMP` and `MULTIPLE`, which ICCCM asks of
/// every selection owner; everything else is refused.
extension ClipboardManager {
  /// Handles an event on the manager's window that is not an XFixes
  /// notification.
  func handle(_ e: XEvent) throws {
    switch e.type {
    case SelectionRequest: try answer(e.xselectionrequest)
    case SelectionClear: try lost(e.xselectionclear)
    default: break
    }
  }

  func answer(_ r: XSelectionRequestEvent) throws {
    let c = connection
    // An obsolete requestor names no property: use the target's name.
    let property = r.property == 0 ? r.target : r.property
    var result: Atom = 0
    if r.owner == c.window, r.selection == c.atoms.clipboardManager,
      r.time == 0 || !serverTime(r.time, isEarlierThan: ownedAt)
    {
      if r.target == c.atoms.multiple {
        result = r.property == 0 ? 0 : try multiple(r.requestor, property)
      } else {
        result = try convert(r.target, for: r.requestor, into: property) ? property : 0
      }
    }
    if result == 0 { OwnerLog.note("manager refuses \(c.name(of: r.target) ?? "?") to 0x\(String(r.requestor, radix: 16))") }
    c.notify(r, property: result)
  }

  private func convert(_ target: Atom, for requestor: Window, into property: Atom) throws -> Bool {
    let a = connection.atoms
    switch target {
    case a.targets:
      store([a.targets, a.multiple, a.timestamp, a.saveTargets].map { CLong(bitPattern: $0) }, type: a.atom, on: requestor, property)
    case a.timestamp:
      store([CLong(bitPattern: ownedAt)], type: a.integer, on: requestor, property)
    case a.saveTargets:
      guard try saveTargets(for: requestor, property) else { return false }
      // ICCCM 2.6.3: a side effect done is answered with an empty NULL.
      XChangeProperty(connection.display, requestor, property, a.null, 8, PropModeReplace, nil, 0)
    default:
      return false
    }
    return true
  }

  /// SAVE_TARGETS: fetches the targets the requestor lists in `property`
  /// (or all it offers when there is no list) from the CLIPBOARD owner,
  /// then takes CLIPBOARD over, all before the answer, which the exiting
  /// program waits for (GTK's `gtk_clipboard_store`, pb's owner on
  /// SIGTERM) and after which it may quit at once.
  private func saveTargets(for requestor: Window, _ property: Atom) throws -> Bool {
    let c = connection
    let owner = XGetSelectionOwner(c.display, c.atoms.clipboard)
    guard owner != 0 else { return false }
    // pb's own takeover owner ending on SIGTERM: its content is saved.
    if owner != servingWindow || saved == nil {
      let listed = c.atomList(property, of: requestor, types: [c.atoms.atom]).map { Set($0.map { Atom($0) }) }
      guard try save(wanted: listed) else { return false }
      OwnerLog.note("saved the clipboard for SAVE_TARGETS from 0x\(String(requestor, radix: 16))")
    }
    return try takeOver()
  }

  /// MULTIPLE: each (target, property) pair in order; a failed one has its
  /// property set to None in the list, as the owner does.
  private func multiple(_ requestor: Window, _ property: Atom) throws -> Atom {
    let c = connection
    guard var pairs = c.atomList(property, of: requestor, types: [c.atoms.atomPair, c.atoms.atom]), pairs.count % 2 == 0
    else { return 0 }
    var failed = false
    for i in stride(from: 0, to: pairs.count, by: 2) {
      let target = Atom(pairs[i]), into = Atom(pairs[i + 1])
      let done = target != c.atoms.multiple && into != 0 ? try convert(target, for: requestor, into: into) : false
      if !done {
        pairs[i + 1] = 0
        failed = true
      }
    }
    if failed { store(pairs.map { CLong(bitPattern: $0) }, type: c.atoms.atomPair, on: requestor, property) }
    return property
  }

  /// Stores a few format-32 items on a requestor's property (a window
  /// that went away earns a BadWindow, which the error trap records).
  private func store(_ items: [CLong], type: Atom, on window: Window, _ property: Atom) {
    var copy = items
    copy.withUnsafeMutableBytes {
      _ = XChangeProperty(
        connection.display, window, property, type, 32, PropModeReplace,
        $0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(items.count))
    }
  }
}
