#if canImport(Glibc)
  import Glibc
#endif

/// Expiry on the file backend: one sweeper process per store clears each
/// board when its `--expire` time comes, even if nobody reads the board
/// again, and exits as soon as no board has an expiry left.
///
/// The sweeper holds an `flock` on `sweeper.lock` in the store while it
/// runs, so a writer knows whether one is there. It sleeps on a wall-clock
/// timer for the earliest expiry and on inotify for new writes (a later
/// copy may bring an earlier expiry, or replace the content), and never
/// creates the store: once the store is deleted it stops.
extension FileBackend {
  var sweeperLockPath: String { location.directory + "/sweeper.lock" }

  /// Whether an expiry sweeper is running for this store.
  public func expirySweeperIsRunning() -> Bool {
    guard let lock = openSweeperLock() else { return false }
    return flock(lock.rawValue, LOCK_EX | LOCK_NB) != 0
  }

  private func openSweeperLock() -> Descriptor? {
    let fd = open(sweeperLockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
    return fd >= 0 ? Descriptor(fd) : nil
  }

  /// Clears every board whose expiry has passed (if it still holds the
  /// expiring content) and returns the earliest expiry still to come.
  func clearExpired() throws -> Int64? {
    var next: Int64?
    for name in try boardNames() {
      guard let record = try? BoardRecord.open(boardPath(name))?.record, let expiry = record.expiresAt else { continue }
      if expiry <= clock() {
        try? clear([name], ifChangeCount: record.changeCount)
      } else {
        next = min(next ?? expiry, expiry)
      }
    }
    return next
  }

  /// Runs the store's expiry sweeper until no board has an expiry left,
  /// or returns at once when another sweeper runs or the store is gone.
  public func runExpirySweeper() throws {
    var st = stat()
    guard lstat(boardsDirectory, &st) == 0, let first = openSweeperLock(), flock(first.rawValue, LOCK_EX | LOCK_NB) == 0
    else { return }
    var lock: Descriptor? = first
    let watch = try DirectoryWatch(boardsDirectory)
    let alarm = try AlarmClock()
    while !watch.isGone {
      var next = try clearExpired()
      if next == nil {
        // Let go, then look once more: a writer that found the lock held
        // just now relies on this sweeper to see its board.
        lock = nil
        next = try clearExpired()
        guard next != nil, let again = openSweeperLock(), flock(again.rawValue, LOCK_EX | LOCK_NB) == 0 else { return }
        lock = again
      }
      try alarm.set(milliseconds: next!)
      _ = try waitReadable([watch.descriptor, alarm.descriptor])
      watch.drain()
      alarm.drain()
    }
    withExtendedLifetime(lock) {}
  }
}
