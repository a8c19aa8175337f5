import CSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Changes in one directory, from inotify: a descriptor that becomes
/// readable when a file is created, renamed, written or removed there, or
/// when the directory itself goes away. Waiting on it costs nothing; no
/// polling.
public final class DirectoryWatch {
  public let descriptor: Descriptor
  public let path: String
  /// Set once the directory itself was deleted or moved away.
  public private(set) var isGone = false

  /// - Throws: `.failed` when inotify cannot watch `path`.
  public init(_ path: String) throws {
    let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard fd >= 0 else { throw systemFailure("watch", path) }
    descriptor = Descriptor(fd)
    self.path = path
    let mask = UInt32(IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE | IN_DELETE)
      | UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)
    guard inotify_add_watch(fd, path, mask) >= 0 else { throw systemFailure("watch", path) }
  }

  /// Reads the pending events; returns whether any arrived.
  @discardableResult
  public func drain() -> Bool {
    var any = false
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = buffer.withUnsafeMutableBytes { read(descriptor.rawValue, $0.baseAddress, $0.count) }
      if n <= 0 { return any }
      any = true
      var offset = 0
      while offset + MemoryLayout<inotify_event>.size <= n {
        let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
        if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 { isGone = true }
        offset += MemoryLayout<inotify_event>.size + Int(event.len)
      }
    }
  }
}

/// A wall-clock alarm on a descriptor (timerfd, CLOCK_REALTIME, absolute):
/// readable when the clock reaches the time set, also after the clock is
/// moved past it, and woken when the clock is set at all, so an expiry
/// never waits on a stale sleep.
public final class AlarmClock {
  public let descriptor: Descriptor

  public init() throws {
    let fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
    guard fd >= 0 else { throw systemFailure("create a timer") }
    descriptor = Descriptor(fd)
  }

  /// Rings at `milliseconds` since the epoch (at once if that is past).
  public func set(milliseconds: Int64) throws {
    let at = max(milliseconds, 1)
    var spec = itimerspec()
    spec.it_value = timespec(tv_sec: Int(at / 1000), tv_nsec: Int(at % 1000) * 1_000_000)
    let flags = Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET)
    guard timerfd_settime(descriptor.rawValue, flags, &spec, nil) == 0 else { throw systemFailure("set a timer") }
  }

  /// Clears a ring (or a clock change) that was reported.
  public func drain() {
    var count: UInt64 = 0
    _ = read(descriptor.rawValue, &count, 8)
  }
}

/// Waits until one of `descriptors` is readable (no time limit); returns
/// the indexes of those that are.
func waitReadable(_ descriptors: [Descriptor]) throws -> [Int] {
  var fds = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
  while true {
    let n = poll(&fds, nfds_t(fds.count), -1)
    if n > 0 { return fds.indices.filter { fds[$0].revents != 0 } }
    if n < 0 && errno != EINTR { throw systemFailure("wait") }
  }
}
