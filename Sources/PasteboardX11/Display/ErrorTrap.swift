import CX11

/// One X protocol error, as the server reported it.
struct XErrorRecord {
  let serial: UInt
  let code: UInt8
  let request: UInt8
  let resource: UInt
}

/// Records X protocol errors instead of letting Xlib print them and exit.
///
/// Xlib's error handler is process-global and is called with the display
/// locked, so it may not make Xlib calls: it only appends to a ring that
/// the owner and the requestor inspect after a fence (`XSync`). The
/// default handler would end the process on the first `BadWindow` from a
/// requestor that went away.
enum ErrorTrap {
  private static let capacity = 256
  nonisolated(unsafe) private static var ring = [XErrorRecord?](repeating: nil, count: 256)
  nonisolated(unsafe) private static var written = 0
  nonisolated(unsafe) private static var installed = false
  /// Displays whose connection broke (set by the I/O error handler).
  nonisolated(unsafe) static var lostDisplays: [OpaquePointer] = []

  /// Installs the handlers once per process.
  static func install() {
    guard !installed else { return }
    installed = true
    ring.reserveCapacity(capacity)
    lostDisplays.reserveCapacity(8)
    _ = XSetErrorHandler { _, event in
      guard let e = event?.pointee else { return 0 }
      ErrorTrap.ring[ErrorTrap.written % ErrorTrap.capacity] = XErrorRecord(
        serial: e.serial, code: e.error_code, request: e.request_code, resource: e.resourceid)
      ErrorTrap.written += 1
      return 0
    }
    // The default I/O handler prints "X connection broken"; pb reports the
    // loss itself, in its own words.
    _ = XSetIOErrorHandler { _ in 0 }
  }

  /// Forgets a display that was closed.
  static func forget(_ display: OpaquePointer) {
    lostDisplays.removeAll { $0 == display }
  }

  /// Errors still in the ring whose request serial is `serial` or later
  /// (the errors of a fence begun at `serial`).
  static func errors(since serial: UInt) -> [XErrorRecord] {
    let first = max(0, written - capacity)
    var result: [XErrorRecord] = []
    for i in first..<written {
      if let r = ring[i % capacity], r.serial >= serial { result.append(r) }
    }
    return result
  }

  /// Errors after `cursor` (a value of `cursorNow`), for asynchronous checks.
  static func errors(after cursor: Int) -> [XErrorRecord] {
    let first = max(cursor, written - capacity)
    guard first < written else { return [] }
    return (first..<written).compactMap { ring[$0 % capacity] }
  }

  static var cursorNow: Int { written }
}

/// X error codes pb tells apart.
enum XErrorCode {
  static let badWindow: UInt8 = 3
  static let badAtom: UInt8 = 5
  static let badAlloc: UInt8 = 11
  static let badLength: UInt8 = 16
}
