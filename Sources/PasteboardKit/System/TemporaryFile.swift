#if canImport(Glibc)
  import Glibc
#endif

/// A file written under a temporary name beside its destination and renamed
/// over it when complete, so that the destination holds the old content or
/// the new, never a mix, and a failure leaves nothing behind.
///
/// While it exists its writer holds an exclusive `flock` on it: a sweep
/// (`sweepStale`) removes only temporary files that nobody holds, which
/// tells a killed writer from a live one even when the writer runs in
/// another PID namespace (containers sharing a home directory), where its
/// process id would mean nothing. Its path is also registered so that
/// SIGINT, SIGTERM and SIGHUP remove it (see `SignalCleanup`).
public final class TemporaryFile {
  public let path: String
  public let descriptor: Descriptor
  private var finished = false

  /// Names beginning with this are pb's temporary files.
  public static let prefix = ".pb-tmp-"
  private static var serial = 0

  /// What a failure to create the file in `dir` (with errno `code`)
  /// reports; by default a failure of the write (exit 7).
  public typealias Failure = (_ dir: String, _ code: Int32) -> PasteboardError

  public static let writeFailure: Failure = { dir, code in
    if code == ENOENT || code == ENOTDIR {
      return .failed("cannot write into \(dir): \(errnoText(code))")
    }
    return .failed("cannot create a file in \(dir): \(errnoText(code))")
  }

  /// Creates and locks `dir/.pb-tmp-…`, mode 0600 (or `mode`, less the
  /// umask).
  public init(in dir: String, mode: mode_t = 0o600, failure: Failure = TemporaryFile.writeFailure) throws {
    var attempt = 0
    while true {
      attempt += 1
      TemporaryFile.serial += 1
      let name = "\(TemporaryFile.prefix)\(getpid())-\(TemporaryFile.serial)-\(WallClock.monotonicMilliseconds() % 1_000_000)"
      let candidate = dir + "/" + name
      let fd = ByteString.withCString(candidate) { c in retryingOnInterrupt { open(c, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode) } }
      if fd < 0 {
        let code = errno
        if code == EEXIST && attempt < 100 { continue }
        throw failure(dir, code)
      }
      let file = Descriptor(fd)
      _ = retryingOnInterrupt { flock(fd, LOCK_EX) }
      // A sweep may have taken the file between the open and the lock: the
      // name must still be this file.
      var named = stat()
      let own = try file.status()
      if ByteString.withCString(candidate, { lstat($0, &named) }) == 0 && named.st_ino == own.st_ino && named.st_dev == own.st_dev {
        path = candidate
        descriptor = file
        break
      }
      if attempt >= 100 { throw failure(dir, EAGAIN) }
    }
    SignalCleanup.register(path)
  }

  deinit { discard() }

  /// Renames the file over `destination`, completing it.
  public func commit(to destination: String) throws {
    if ByteString.withCString(path, { old in ByteString.withCString(destination) { rename(old, $0) } }) != 0 {
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
    _ = ByteString.withCString(path) { unlink($0) }
    SignalCleanup.unregister(path)
  }

  /// Removes pb's temporary files in `dir` that no live writer holds.
  /// Never follows a link: a planted link or FIFO named like a temporary
  /// file is removed as a name, never opened through.
  static func sweepStale(in dir: String) {
    guard let handle = opendir(dir) else { return }
    defer { closedir(handle) }
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      guard name.hasPrefix(prefix) else { continue }
      let path = dir + "/" + name
      let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
      if fd < 0 {
        if errno == ELOOP { unlink(path) }
        continue
      }
      defer { close(fd) }
      var st = stat()
      guard fstat(fd, &st) == 0 else { continue }
      if st.st_mode & S_IFMT != S_IFREG || flock(fd, LOCK_EX | LOCK_NB) == 0 { unlink(path) }
    }
  }
}
