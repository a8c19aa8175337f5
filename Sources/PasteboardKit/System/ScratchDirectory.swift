#if canImport(Glibc)
  import Glibc
#endif

/// A private directory for temporary files (those a program pb runs gets):
/// mode 0700, its files 0600, everything in it removed by `remove()`, when
/// it goes away, or when pb is interrupted (SIGINT, SIGTERM, SIGHUP).
public final class ScratchDirectory {
  public let path: String
  private var files: [String] = []
  private var removed = false

  /// Makes `base/pb-scratch-…`.
  public init(in base: String) throws {
    path = try makeUniqueDirectory(in: base, prefix: "pb-scratch-", mode: 0o700)
    SignalCleanup.register(path)
  }

  deinit { remove() }

  /// Writes `payload` as the file `name`, mode 0600; returns its path.
  public func write(_ payload: Payload, as name: String) throws -> String {
    let full = path + "/" + name
    let file = try Descriptor.open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
    files.append(full)
    SignalCleanup.register(full)
    try payload.write(to: file)
    return full
  }

  /// Removes the directory and everything in it (what a program left there
  /// too), never following a link.
  public func remove() {
    guard !removed else { return }
    removed = true
    ScratchDirectory.removeTree(path)
    for file in files { SignalCleanup.unregister(file) }
    SignalCleanup.unregister(path)
  }

  static func removeTree(_ path: String) {
    var st = stat()
    guard ByteString.withCString(path, { lstat($0, &st) }) == 0 else { return }
    guard st.st_mode & S_IFMT == S_IFDIR, let handle = ByteString.withCString(path, { opendir($0) }) else {
      _ = ByteString.withCString(path) { unlink($0) }
      return
    }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { ByteString.decode(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
      if name != "." && name != ".." { names.append(name) }
    }
    closedir(handle)
    for name in names { removeTree(path + "/" + name) }
    _ = ByteString.withCString(path) { rmdir($0) }
  }
}

/// Makes a new directory `base/PREFIX…` with `mode` (less the umask) and
/// returns its path.
/// - Throws: `.failed` naming `base` when it cannot be written.
func makeUniqueDirectory(in base: String, prefix: String, mode: mode_t) throws -> String {
  for attempt in 0..<100 {
    let candidate = base + "/\(prefix)\(getpid())-\(attempt)-\(WallClock.monotonicMilliseconds() % 1_000_000)"
    if ByteString.withCString(candidate, { mkdir($0, mode) }) == 0 { return candidate }
    if errno != EEXIST { throw PasteboardError.failed("cannot write into \(base): \(errnoText())") }
  }
  throw PasteboardError.failed("cannot write into \(base): \(errnoText(EEXIST))")
}
