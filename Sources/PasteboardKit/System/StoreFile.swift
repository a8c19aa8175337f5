#if canImport(Glibc)
  import Glibc
#endif

/// A file or directory inside pb's store that is not what pb wrote there:
/// a link, a FIFO, someone else's file, or a file whose content does not
/// parse. pb reports it (exit 7) and never follows, waits on or deletes
/// anything through it.
public struct DamagedStoreFile: Error, CustomStringConvertible {
  public let path: String
  public let reason: String

  public var description: String { "\(path) is damaged: \(reason)" }
}

/// Opens files and directories inside the store without trusting what is
/// there: no symbolic link is followed, a FIFO or device is never waited
/// on (`O_NONBLOCK`), and only regular files (or directories) owned by the
/// current user are accepted.
enum StoreFile {
  /// Opens the regular file at `path` for reading.
  /// - Returns: nil when there is no such file.
  /// - Throws: `DamagedStoreFile` for a link, a non-regular file or a file
  ///   of another user; `.failed` for other errors (too many open files).
  static func openRegular(_ path: String, at directory: Int32 = AT_FDCWD) throws -> Descriptor? {
    let fd = retryingOnInterrupt { openat(directory, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY) }
    if fd < 0 {
      let code = errno
      if code == ENOENT { return nil }
      if code == ELOOP { throw DamagedStoreFile(path: path, reason: "it is a symbolic link") }
      throw systemFailure("open", path, code: code)
    }
    let file = Descriptor(fd)
    let st = try file.status()
    try check(st, path: path, kind: S_IFREG, kindName: "a regular file")
    return file
  }

  /// Opens the directory at `path` for listing and for the `*at` calls.
  /// - Returns: nil when there is no such directory.
  /// - Throws: `DamagedStoreFile` for a link or anything but a directory
  ///   of the current user.
  static func openDirectory(_ path: String) throws -> Descriptor? {
    let fd = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY | O_NONBLOCK) }
    if fd < 0 {
      let code = errno
      if code == ENOENT { return nil }
      if code == ELOOP || code == ENOTDIR {
        throw DamagedStoreFile(path: path, reason: code == ELOOP ? "it is a symbolic link" : "it is not a directory")
      }
      throw systemFailure("open", path, code: code)
    }
    let dir = Descriptor(fd)
    try check(try dir.status(), path: path, kind: S_IFDIR, kindName: "a directory")
    return dir
  }

  private static func check(_ st: stat, path: String, kind: mode_t, kindName: String) throws {
    guard st.st_mode & S_IFMT == kind else { throw DamagedStoreFile(path: path, reason: "it is not \(kindName)") }
    guard st.st_uid == geteuid() else {
      throw DamagedStoreFile(path: path, reason: "it belongs to uid \(st.st_uid), not to you")
    }
  }

  /// The names in the directory `dir` (opened by `openDirectory`), without
  /// dot files.
  /// - Throws: `.failed` when it cannot be read; a listing is never
  ///   silently partial.
  static func names(in dir: Descriptor, path: String) throws -> [String] {
    let copy = fcntl(dir.rawValue, F_DUPFD_CLOEXEC, 0)
    guard copy >= 0, let handle = fdopendir(copy) else {
      let code = errno
      if copy >= 0 { close(copy) }
      throw systemFailure("list", path, code: code)
    }
    defer { closedir(handle) }
    rewinddir(handle)
    var names: [String] = []
    errno = 0
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
      }
      if !name.hasPrefix(".") { names.append(name) }
      errno = 0
    }
    if errno != 0 { throw systemFailure("list", path) }
    return names
  }

  /// The names in the directory at `path`; empty when it does not exist.
  static func names(inDirectoryAt path: String) throws -> [String] {
    guard let dir = try openDirectory(path) else { return [] }
    return try names(in: dir, path: path)
  }
}
