#if canImport(Glibc)
  import Glibc
#endif

/// A file written under a temporary name beside its destination and renamed
/// over it when complete, so that the destination holds the old content or
/// the new, never a mix, and a failure leaves nothing behind.
///
/// While it exists its path is registered so that SIGINT, SIGTERM and
/// SIGHUP remove it (see `SignalCleanup`).
public final class TemporaryFile {
  public let path: String
  public let descriptor: Descriptor
  private var finished = false

  /// Names beginning with this are pb's temporary files; a store sweep
  /// removes the ones whose process is gone.
  public static let prefix = ".pb-tmp-"
  private static var serial = 0

  /// Creates `dir/.pb-tmp-PID-N`, mode 0600 (or `mode`).
  public init(in dir: String, mode: mode_t = 0o600) throws {
    TemporaryFile.serial += 1
    let name = "\(TemporaryFile.prefix)\(getpid())-\(TemporaryFile.serial)-\(WallClock.monotonicMilliseconds() % 100_000)"
    let path = dir + "/" + name
    self.path = path
    let fd = retryingOnInterrupt { open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode) }
    if fd < 0 {
      let code = errno
      if code == ENOENT || code == ENOTDIR {
        throw PasteboardError.failed("cannot write into \(dir): \(errnoText(code))")
      }
      throw systemFailure("create a file in", dir, code: code)
    }
    descriptor = Descriptor(fd)
    SignalCleanup.register(path)
  }

  deinit { discard() }

  /// Renames the file over `destination`, completing it.
  public func commit(to destination: String) throws {
    if rename(path, destination) != 0 {
      let code = errno
      discard()
      throw systemFailure("replace", destination, code: code)
    }
    finished = true
    SignalCleanup.unregister(path)
  }

  /// Removes the file if it was not committed.
  public func discard() {
    guard !finished else { return }
    finished = true
    unlink(path)
    SignalCleanup.unregister(path)
  }

  /// Removes temporary files in `dir` left by processes that no longer run.
  static func sweepStale(in dir: String) {
    guard let handle = opendir(dir) else { return }
    defer { closedir(handle) }
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      guard name.hasPrefix(prefix) else { continue }
      let pidText = name.dropFirst(prefix.count).prefix { $0 != "-" }
      if let pid = Int32(pidText), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH {
        unlink(dir + "/" + name)
      }
    }
  }
}

/// Removes registered temporary files when the process is interrupted, then
/// dies of the same signal, so an interrupted copy leaves nothing behind.
public enum SignalCleanup {
  // A fixed C buffer: a signal handler may only touch memory that needs no
  // allocation or locking.
  private static let capacity = 4
  private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
    let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
    p.initialize(repeating: nil, count: capacity)
    return p
  }()

  /// Installs the handlers for SIGINT, SIGTERM and SIGHUP.
  public static func install() {
    _ = slots
    for sig in [SIGINT, SIGTERM, SIGHUP] {
      signal(sig) { received in
        for i in 0..<SignalCleanup.capacity {
          if let path = SignalCleanup.slots[i] { unlink(path) }
        }
        signal(received, SIG_DFL)
        raise(received)
      }
    }
  }

  static func register(_ path: String) {
    for i in 0..<capacity where slots[i] == nil {
      slots[i] = strdup(path)
      return
    }
  }

  static func unregister(_ path: String) {
    for i in 0..<capacity {
      if let p = slots[i], String(cString: p) == path {
        slots[i] = nil
        free(p)
      }
    }
  }
}
