#if canImport(Glibc)
  import Glibc
#endif

/// Where the file backend keeps its boards, and why there.
///
/// `PB_DIR` wins (it must be an absolute path); otherwise
/// `$XDG_STATE_HOME/pb` (a relative value is ignored, as the XDG base
/// directory specification says), with XDG's default `~/.local/state/pb`.
/// Clipboard content and its history are state in the XDG sense: worth
/// keeping across restarts, not worth backing up.
public struct StoreLocation: Equatable {
  public let directory: String
  /// Which variable chose the directory, for `pb info`.
  public let source: String

  public init(directory: String, source: String) {
    self.directory = directory
    self.source = source
  }

  /// Resolves the location from the environment.
  /// - Throws: `.unavailable` when `PB_DIR` is relative, or when neither
  ///   `PB_DIR`, an absolute `XDG_STATE_HOME` nor an absolute `HOME` is set.
  public static func fromEnvironment() throws -> StoreLocation {
    for name in ["PB_DIR", "XDG_STATE_HOME", "HOME"] {
      if let value = environmentValue(name), ByteString.holdsRawBytes(value) {
        throw PasteboardError.unavailable(
          "\(name) is '\(value)', which is not UTF-8; pb keeps its store under a UTF-8 path (set PB_DIR to one)")
      }
    }
    if let dir = environmentValue("PB_DIR") {
      guard dir.hasPrefix("/") else {
        throw PasteboardError.unavailable(
          "PB_DIR is '\(dir)', a relative path; set it to an absolute path (a store must not move with the working directory)")
      }
      return StoreLocation(directory: dir, source: "PB_DIR")
    }
    if let state = environmentValue("XDG_STATE_HOME"), state.hasPrefix("/") {
      return StoreLocation(directory: state + "/pb", source: "XDG_STATE_HOME")
    }
    if let home = environmentValue("HOME"), home.hasPrefix("/") {
      return StoreLocation(directory: home + "/.local/state/pb", source: "HOME")
    }
    throw PasteboardError.unavailable(
      "no store directory: PB_DIR, XDG_STATE_HOME and HOME are unset (or not absolute paths)")
  }
}

/// Checks that a directory is safe to keep clipboard content in: a real
/// directory (not a link), owned by the current user, and writable by no
/// one else. Creates it, mode 0700, when it is missing and `create` is set.
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

/// Creates a directory and any missing parents with mode 0700.
func makeDirectories(_ path: String) throws {
  var prefix = path.hasPrefix("/") ? "" : "."
  for component in path.split(separator: "/") {
    prefix += "/" + component
    if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
      let code = errno
      let reason = code == EROFS || code == EACCES ? "the file system or directory is read-only for you: " : ""
      throw PasteboardError.unavailable("cannot create directory \(prefix): \(reason)\(errnoText(code))")
    }
  }
}
