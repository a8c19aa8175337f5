#if canImport(Glibc)
  import Glibc
#endif

/// What waiting for one descriptor came to.
public enum Readiness: Equatable {
  case ready
  case timedOut
  /// `poll` failed with this errno.
  case failed(Int32)
}

/// Waits in `poll(2)` until `fd` is ready for `events` or `deadline`
/// (monotonic ms; nil: no limit) passes, through interruptions by signals:
/// the one wait every deadline-bound read, write and connect uses, so none
/// sleeps and none waits past its deadline.
public func awaitReadiness(_ fd: Int32, for events: Int16, until deadline: Int64?) -> Readiness {
  while true {
    var timeout: Int32 = -1
    if let deadline {
      let left = deadline - WallClock.monotonicMilliseconds()
      if left <= 0 { return .timedOut }
      timeout = Int32(min(left, Int64(Int32.max)))
    }
    var entry = pollfd(fd: fd, events: events, revents: 0)
    let n = poll(&entry, 1, timeout)
    if n > 0 { return .ready }
    if n < 0 && errno != EINTR { return .failed(errno) }
  }
}
