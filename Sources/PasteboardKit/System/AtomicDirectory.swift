import CSystem

#if canImport(Glibc)
  import Glibc
#endif

/// A directory made all or nothing (an export folder): built under a
/// temporary name beside its destination, then renamed into place in one
/// step that never replaces anything already there. A failure, or an
/// interruption (SIGINT, SIGTERM, SIGHUP), leaves nothing behind.
public final class AtomicDirectory {
  public let destination: String
  /// The directory being built; files go in here.
  public let path: String
  private var files: [String] = []
  private var finished = false

  /// Creates the temporary directory beside `destination`.
  /// - Throws: `.failed` when `destination` exists or its parent cannot be
  ///   written.
  public init(_ destination: String) throws {
    self.destination = destination
    var st = stat()
    if ByteString.withCString(destination, { lstat($0, &st) }) == 0 {
      throw PasteboardError.failed("\(destination) already exists; nothing was written")
    }
    // 0777 less the umask, as mkdir(1) makes it.
    let made = try makeUniqueDirectory(in: OutputFile.directory(of: destination), prefix: TemporaryFile.prefix + "dir-", mode: 0o777)
    path = made
    SignalCleanup.register(path)
  }

  deinit { discard() }

  /// Writes `payload` as the file `name` in the directory, mode 0666 less
  /// the umask.
  public func write(_ payload: Payload, as name: String) throws {
    let full = path + "/" + name
    let file = try Descriptor.open(full, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o666)
    files.append(full)
    SignalCleanup.register(full)
    do {
      try payload.write(to: file)
    } catch PasteboardError.failed(let reason) {
      throw PasteboardError.failed("cannot write \(destination)/\(name): \(reason)")
    }
  }

  /// Renames the directory into place; refuses if something took the
  /// destination meanwhile.
  public func commit() throws {
    let status = ByteString.withCString(path) { old in
      ByteString.withCString(destination) { renameat2(AT_FDCWD, old, AT_FDCWD, $0, 1 /* RENAME_NOREPLACE */) }
    }
    guard status == 0 else {
      let code = errno
      discard()
      throw PasteboardError.failed(
        code == EEXIST ? "\(destination) already exists; nothing was written" : "cannot create \(destination): \(errnoText(code))")
    }
    finished = true
    for file in files { SignalCleanup.unregister(file) }
    SignalCleanup.unregister(path)
  }

  /// Removes the temporary directory and what was written in it.
  public func discard() {
    guard !finished else { return }
    finished = true
    for file in files {
      _ = ByteString.withCString(file) { unlink($0) }
      SignalCleanup.unregister(file)
    }
    _ = ByteString.withCString(path) { rmdir($0) }
    SignalCleanup.unregister(path)
  }
}
