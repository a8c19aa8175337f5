import CX11
import PasteboardKit

/// An exiting owner's offer of the clipboard to a clipboard manager
/// (freedesktop's SAVE_TARGETS), bounded in time.
///
/// The owner keeps serving while the manager fetches. It is done when the
/// manager confirms, when it takes the selection (which ends ownership),
/// after about 3 s, or 300 ms after a refusal with no further request
/// (KDE refuses first and may still fetch afterwards).
struct Handover {
  private let hardLimit: Int64
  private(set) var deadline: Int64
  private var refused = false
  private var done = false
  static let linger: Int64 = 300

  init(start: Int64, limit: Int64) {
    hardLimit = start + limit
    deadline = hardLimit
  }

  mutating func answered(saved: Bool) {
    if saved {
      done = true
    } else {
      refused = true
      deadline = min(hardLimit, WallClock.monotonicMilliseconds() + Handover.linger)
    }
  }

  mutating func noteActivity() {
    if refused { deadline = min(hardLimit, WallClock.monotonicMilliseconds() + Handover.linger) }
  }

  mutating func expire() { done = true }

  var isDone: Bool { done }
}
