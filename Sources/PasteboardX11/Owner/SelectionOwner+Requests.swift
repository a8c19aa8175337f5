import CX11
import PasteboardKit

/// Answering `SelectionRequest`s: TARGETS, TIMESTAMP, MULTIPLE and the
/// offered data targets; everything else is refused.
extension SelectionOwner {
  func answer(_ r: XSelectionRequestEvent) {
    let c = connection
    let a = c.atoms
    // An obsolete requestor names no property: use the target's name.
    let property = r.property == 0 ? r.target : r.property
    var result: Atom = 0
    let acceptable = r.owner == c.window && owned.contains { $0.atom == r.selection }
      && (r.time == 0 || !serverTime(r.time, isEarlierThan: ownedAt))
      && !(ending != nil && ending != .stopped)
    if acceptable {
      if r.target == a.multiple {
        result = r.property == 0 ? 0 : multiple(r.requestor, property)
      } else {
        result = convert(r.target, for: r.requestor, into: property) ? property : 0
      }
    }
    if result == 0 {
      OwnerLog.note("refuses \(c.name(of: r.target) ?? "?") to 0x\(String(r.requestor, radix: 16))")
    }
    connection.notify(r, property: result)
  }

  /// Converts one target into `property` of `requestor`; false when it is
  /// refused or cannot be stored.
  func convert(_ target: Atom, for requestor: Window, into property: Atom) -> Bool {
    let a = connection.atoms
    switch target {
    case a.targets:
      let list = [a.targets, a.timestamp, a.multiple, a.saveTargets] + offers.offers.map(\.target)
      return store(list.map { CLong(bitPattern: $0) }, type: a.atom, on: requestor, property)
    case a.timestamp:
      return store([CLong(bitPattern: ownedAt)], type: a.integer, on: requestor, property)
    default:
      guard let offer = offers.offer(for: target) else { return false }
      if offer.isPaste && pasteLimitReached { return false }
      let (type, bytes) = offers.data(for: offer)
      let chunk = chunkSize(for: property)
      if bytes.count > chunk {
        return startTransfer(type: type, bytes: bytes, chunkSize: chunk, isPaste: offer.isPaste, to: requestor, property)
      }
      guard fenced({ XChangeProperty(connection.display, requestor, property, type, 8, PropModeReplace, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(bytes.count)) }, requestor, property, bytes: bytes.count) else {
        return false
      }
      OwnerLog.note("sends \(offer.name) in one piece (\(bytes.count) bytes)")
      if offer.isPaste {
        releaseBeforeLastPaste()
        notePasteDone()
      }
      return true
    }
  }

  /// Stores format-32 items on a requestor's property.
  private func store(_ items: [CLong], type: Atom, on window: Window, _ property: Atom) -> Bool {
    var copy = items
    return fenced({
      copy.withUnsafeMutableBytes {
        _ = XChangeProperty(connection.display, window, property, type, 32, PropModeReplace, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(items.count))
      }
    }, window, property)
  }

  /// Issues requests, then waits for the server to process them and
  /// checks for errors (ICCCM 2.5: no notify before the data is known to
  /// be stored). A requestor that vanished or could not take the data gets
  /// nothing; the owner carries on.
  func fenced(_ requests: () -> Void, _ window: Window, _ property: Atom, bytes: Int = 0) -> Bool {
    let display = connection.display
    let start = pb_next_request(display)
    requests()
    // Small replies cannot run out of server memory, and a requestor that
    // vanished only earns a BadWindow, caught later: no round trip for them.
    if bytes < SelectionOwner.fenceThreshold { return true }
    XSync(display, False)
    let errors = ErrorTrap.errors(since: start)
    guard errors.isEmpty else {
      for e in errors { OwnerLog.note("X error \(e.code) on request \(e.request) for 0x\(String(e.resource, radix: 16))") }
      if !errors.contains(where: { $0.code == XErrorCode.badWindow }) {
        XDeleteProperty(display, window, property)
      }
      return false
    }
    return true
  }

  /// MULTIPLE: converts each (target, property) pair in order, marks the
  /// failed ones by setting their property to None, and answers once.
  private func multiple(_ requestor: Window, _ property: Atom) -> Atom {
    let c = connection
    guard var pairs = readPairs(requestor, property), pairs.count % 2 == 0 else { return 0 }
    var failed = false
    for i in stride(from: 0, to: pairs.count, by: 2) {
      let target = Atom(pairs[i]), into = Atom(pairs[i + 1])
      if target == c.atoms.multiple || into == 0 || !convert(target, for: requestor, into: into) {
        pairs[i + 1] = 0
        failed = true
      }
    }
    if failed {
      let items = pairs.map { CLong(bitPattern: $0) }
      guard store(items, type: c.atoms.atomPair, on: requestor, property) else { return 0 }
    }
    return property
  }

  private func readPairs(_ window: Window, _ property: Atom) -> [UInt]? {
    connection.atomList(property, of: window, types: [connection.atoms.atomPair, connection.atoms.atom])
  }
}
