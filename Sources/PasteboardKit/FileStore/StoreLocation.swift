#if canImport(Glibc)
  import Glibc
#endif

/// Where the file backend keeps its boards, and why there.
///
/// `PB_DIR` wins; otherwise `$XDG_STATE_HOME/pb`, with XDG's default
/// `~/.local/state/pb`. Clipboard content and its history are state in the
/// XDG sense: worth keeping across restarts, not worth backing up.
public struct StoreLocation: Equatable {
  public let directory: String
  /// Which variable chose the directory, for `pb info`.
  public let source: String

  public init(directory: String, source: String) {
    self.directory = directory
    self.source = source
  }

  /// Resolves the location from the environment.
  /// - Throws: `.unavailable` when neither `PB_DIR`, `XDG_STATE_HOME` nor
  ///   `HOME` is set.
  public static func fromEnvironment() throws -> StoreLocation {
    if let dir = environmentValue("PB_DIR") {
      return StoreLocation(directory: dir, source: "PB_DIR")
    }
    if let state = environmentValue("XDG_STATE_HOME"), state.hasPrefix("/") {
      return StoreLocation(directory: state + "/pb", source: "XDG_STATE_HOME")
    }
    if let home = environmentValue("HOME") {
      return StoreLocation(directory: home + "/.local/state/pb", source: "HOME")
    }
    throw PasteboardError.unavailable("no store directory: PB_DIR, XDG_STATE_HOME and HOME are unset")
  }
}

/// Checks that a directory is safe to keep clipboard content in: a real
/// directory (not a link), owned by the current user, and writable by no
/// one else. Creates it, mode 0700, when it is missing.
/// - Throws: `.unavailable` naming the directory and the problem.
func ensurePrivateDirectory(_ path: String, create: Bool = true) throws {
  var st = stat()
  if lstat(path, &st) != 0 {
    guard errno == ENOENT, create else {
      throw PasteboardError.unavailable("store directory \(path) is unusable: \(errnoText())")
    }
    try makeDirectories(path)
    guard lstat(path, &st) == 0 else {
      throw PasteboardError.unavailable("store directory \(path) is unusable: \(errnoText())")
    }
  }
  guard (st.st_mode & S_IFMT) == S_IFDIR else {
    throw PasteboardError.unavailable("store directory \(path) is not a directory")
  }
  guard st.st_uid == geteuid() else {
    throw PasteboardError.unavailable(
      "store directory \(path) is owned by uid \(st.st_uid), not by you (uid \(geteuid())); refusing to use it")
  }
  guard st.st_mode & 0o022 == 0 else {
    let mode = String(st.st_mode & 0o777, radix: 8)
    throw PasteboardError.unavailable(
      "store directory \(path) is writable by others (mode \(mode)); refusing to use it (chmod 700 it)")
  }
}

/// The directory for sensitive content: `$XDG_RUNTIME_DIR/pb`, which must be
/// on a tmpfs so the content cannot outlive the session or reach a disk.
/// - Throws: `.unavailable` explaining what is missing.
func sensitiveDirectory() throws -> String {
  guard let runtime = environmentValue("XDG_RUNTIME_DIR") else {
    throw PasteboardError.unavailable(
      "sensitive content needs a tmpfs to live in, and XDG_RUNTIME_DIR is unset")
  }
  guard let fsType = fileSystemType(of: runtime) else {
    throw PasteboardError.unavailable("XDG_RUNTIME_DIR \(runtime) is unusable: \(errnoText())")
  }
  guard fsType == "tmpfs" || fsType == "ramfs" else {
    throw PasteboardError.unavailable(
      "sensitive content is refused: XDG_RUNTIME_DIR \(runtime) is on \(fsType), not a tmpfs, so it could reach the disk")
  }
  let dir = runtime + "/pb"
  try ensurePrivateDirectory(dir)
  return dir
}

/// The type of the file system holding `path` (`tmpfs`, `ext4`, ...), from
/// the longest matching mount point in `/proc/self/mounts`.
func fileSystemType(of path: String) -> String? {
  guard let resolved = realpath(path, nil) else { return nil }
  let real = String(cString: resolved)
  free(resolved)
  guard let mounts = try? Descriptor.open("/proc/self/mounts", O_RDONLY).readToEnd() else { return nil }
  var best: (point: String, type: String)?
  for line in String(decoding: mounts, as: UTF8.self).split(separator: "\n") {
    let fields = line.split(separator: " ")
    guard fields.count >= 3 else { continue }
    let point = String(fields[1])  // octal escapes (\040) only matter for odd mount points
    let inside = point == "/" || real == point || real.hasPrefix(point + "/")
    if inside && point.count >= (best?.point.count ?? -1) { best = (point, String(fields[2])) }
  }
  return best?.type
}
