import CX11

/// One INCR transfer in progress, keyed by the requestor's window and
/// property so that any number of readers (and several targets of one
/// MULTIPLE request) proceed side by side.
struct IncrTransfer {
  struct Key: Hashable {
    let window: Window
    let property: Atom
  }

  let key: Key
  let type: Atom
  let bytes: UnsafeRawBufferPointer
  /// Bytes per chunk, chosen for this requestor.
  let chunkSize: Int
  var sent = 0
  /// Monotonic ms after which a silent requestor is given up.
  var deadline: Int64
  let isPaste: Bool
  /// The serial of the transfer's first request: an error on its window
  /// from an earlier request belongs to an earlier window of the same id
  /// (X gives a gone client's ids to the next one), not to this transfer.
  let firstSerial: UInt

  /// Whether `error` says this transfer's requestor is gone: an error on
  /// its window from one of the transfer's own requests.
  func isEnded(by error: XErrorRecord) -> Bool {
    error.resource == key.window && error.serial >= firstSerial
  }
}

/// Event masks pb has selected on requestors' windows, counted per window:
/// masks are per client and window, so the last transfer to end resets it.
struct WindowInterest {
  private var counts: [Window: Int] = [:]

  /// Returns true when the mask must be selected now (first interest).
  mutating func add(_ window: Window) -> Bool {
    counts[window, default: 0] += 1
    return counts[window] == 1
  }

  /// Returns true when the mask must be cleared now (last interest gone).
  mutating func remove(_ window: Window) -> Bool {
    guard let n = counts[window] else { return false }
    if n <= 1 {
      counts[window] = nil
      return true
    }
    counts[window] = n - 1
    return false
  }
}
