import CX11
import PasteboardKit

/// The pasting side of the selection protocol: asks the owner of a
/// selection to convert it to a target and reads the answer, whole or by
/// INCR, streaming it to a sink.
struct SelectionRequestor {
  let connection: XConnection
  /// How long the owner may take to answer a conversion.
  let answerMilliseconds: Int64
  /// How long an INCR transfer may stay silent between chunks.
  let idleMilliseconds: Int64
  /// The selection's name in messages: "CLIPBOARD".
  let selectionName: String

  /// The window that owns `selection`, or nil.
  func owner(of selection: Atom) -> Window? {
    let w = XGetSelectionOwner(connection.display, selection)
    return w == 0 ? nil : w
  }

  /// Converts `selection` to `target` into `property` of pb's window and
  /// streams the data to `sink`.
  ///
  /// - Returns: nil when the owner refuses (or there is none), else what
  ///   the data was: for INCR, the type of the first chunk.
  /// - Throws: `.timedOut` when the owner does not answer in time or an
  ///   INCR transfer stalls; `.unavailable` when the server goes away.
  func convert(
    _ selection: Atom, to target: Atom, targetName: String, property: Atom,
    sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> PropertyInfo? {
    request(selection, to: target, property: property)
    return try awaitAnswer(selection, to: target, targetName: targetName, sink: sink)
  }

  /// Sends a conversion request without waiting (so that another request
  /// can share the round trip).
  func request(_ selection: Atom, to target: Atom, property: Atom) {
    let c = connection
    XDeleteProperty(c.display, c.window, property)
    XConvertSelection(c.display, selection, target, property, c.window, 0 /* CurrentTime */)
    XFlush(c.display)
  }

  /// Drops the answer to a request sent when the selection had no owner:
  /// the server sent it at once, so it is queued by now, and nothing else
  /// for pb's window is.
  func discardAnswer() {
    let c = connection
    while XPending(c.display) > 0 {
      var e = XEvent()
      XNextEvent(c.display, &e)
    }
  }

  /// Waits for the answer to the request sent by `request` and reads it.
  func awaitAnswer(
    _ selection: Atom, to target: Atom, targetName: String,
    sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> PropertyInfo? {
    let c = connection
    let deadline = WallClock.monotonicMilliseconds() + answerMilliseconds
    var answered: Atom?
    while answered == nil {
      switch try c.next(until: deadline) {
      case .event(let e):
        // One conversion is outstanding at a time, so a notify for pb's
        // window and this selection answers it even if an old owner
        // misreports the target.
        if e.type == SelectionNotify, e.xselection.requestor == c.window, e.xselection.selection == selection {
          answered = e.xselection.property
        }
      case .timedOut, .woken:
        throw PasteboardError.timedOut(
          "the \(selectionName) owner did not answer a request for '\(targetName)' within \(describeDuration(answerMilliseconds)) (DISPLAY is \(c.displayName))")
      }
    }
    guard let answer = answered, answer != 0 else { return nil }
    guard let first = try c.readProperty(answer, withhold: c.atoms.incr, sink: sink) else { return nil }
    if first.type == c.atoms.incr {
      return try receiveIncrementally(answer, targetName: targetName, sink: sink)
    }
    return first
  }

  /// Reads an INCR transfer: each new value of `property` is a chunk, and
  /// an empty one ends it. Deleting the INCR property (done by the read)
  /// started it.
  private func receiveIncrementally(
    _ property: Atom, targetName: String, sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> PropertyInfo {
    let c = connection
    XFlush(c.display)
    var type: Atom?
    var format: Int32 = 8
    var total: Int64 = 0
    var deadline = WallClock.monotonicMilliseconds() + idleMilliseconds
    while true {
      switch try c.next(until: deadline) {
      case .event(let e):
        guard e.type == PropertyNotify, e.xproperty.window == c.window, e.xproperty.atom == property,
          e.xproperty.state == PropertyNewValue
        else { continue }
        guard let chunk = try c.readProperty(property, sink: sink) else { continue }  // stale
        XFlush(c.display)  // the delete asks for the next chunk
        deadline = WallClock.monotonicMilliseconds() + idleMilliseconds
        if type == nil {
          type = chunk.type
          format = chunk.format
        }
        if chunk.byteCount == 0 {
          return PropertyInfo(type: type!, format: format, byteCount: total)
        }
        total += chunk.byteCount
      case .timedOut, .woken:
        throw PasteboardError.timedOut(
          "the \(selectionName) owner stopped sending '\(targetName)' after \(total) bytes (nothing for \(describeDuration(idleMilliseconds))) (DISPLAY is \(c.displayName))")
      }
    }
  }
}
