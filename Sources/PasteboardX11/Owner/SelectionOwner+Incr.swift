import CX11
import PasteboardKit

/// Sending data larger than the chunk size by INCR (ICCCM 2.7.2).
extension SelectionOwner {
  /// Announces an INCR transfer on the requestor's property; the chunks go
  /// out as the requestor deletes the property.
  func startTransfer(
    type: Atom, bytes: UnsafeRawBufferPointer, chunkSize: Int, isPaste: Bool, to window: Window, _ property: Atom
  ) -> Bool {
    let c = connection
    let key = IncrTransfer.Key(window: window, property: property)
    if transfers[key] != nil { endTransfer(key, completed: false) }
    let selectNow = interest.add(window)
    let firstSerial = pb_next_request(c.display)
    var size = [CLong(bytes.count)]
    let ok = fenced({
      if selectNow { XSelectInput(c.display, window, PropertyChangeMask | StructureNotifyMask) }
      size.withUnsafeMutableBytes {
        _ = XChangeProperty(c.display, window, property, c.atoms.incr, 32, PropModeReplace, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
      }
    }, window, property)
    guard ok else {
      releaseInterest(window)
      return false
    }
    transfers[key] = IncrTransfer(
      key: key, type: type, bytes: bytes, chunkSize: chunkSize,
      deadline: WallClock.monotonicMilliseconds() + settings.ownerIdleMilliseconds, isPaste: isPaste,
      firstSerial: firstSerial)
    if isPaste { pastesInFlight += 1 }
    OwnerLog.note("starts INCR of \(bytes.count) bytes to 0x\(String(window, radix: 16)) in chunks of \(chunkSize)")
    return true
  }

  /// The requestor deleted the property: send the next chunk, or the
  /// empty property that ends the transfer.
  func continueTransfer(_ key: IncrTransfer.Key) {
    guard var t = transfers[key] else { return }
    let c = connection
    let left = t.bytes.count - t.sent
    let n = min(left, t.chunkSize)
    let start = t.bytes.baseAddress.map { $0 + t.sent }?.assumingMemoryBound(to: UInt8.self)
    if n == 0 && t.isPaste { releaseBeforeLastPaste() }
    XChangeProperty(c.display, key.window, key.property, t.type, 8, PropModeReplace, n > 0 ? start : nil, Int32(n))
    XFlush(c.display)
    if n == 0 {
      OwnerLog.note("ends INCR to 0x\(String(key.window, radix: 16)) after \(t.sent) bytes")
      endTransfer(key, completed: true)
      return
    }
    t.sent += n
    t.deadline = WallClock.monotonicMilliseconds() + settings.ownerIdleMilliseconds
    transfers[key] = t
  }

  func endTransfer(_ key: IncrTransfer.Key, completed: Bool) {
    guard let t = transfers.removeValue(forKey: key) else { return }
    if t.isPaste {
      pastesInFlight -= 1
      if completed { notePasteDone() }
    }
    releaseInterest(key.window)
  }

  private func releaseInterest(_ window: Window) {
    if interest.remove(window) {
      XSelectInput(connection.display, window, NoEventMask)
      XFlush(connection.display)
    }
  }
}
