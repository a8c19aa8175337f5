import CSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Where one store keeps its sensitive content: a directory of its own
/// under `$XDG_RUNTIME_DIR/pb`, which must be on a tmpfs so that the content
/// cannot outlive the session or reach a disk.
///
/// The directory is named after the store directory's device and inode, so
/// that stores sharing one runtime directory never see each other's files,
/// and a store can remove every file of its own that no board refers to.
/// A board file refers to its secret by a bare name (`general.7`), never a
/// path: pb only ever reads or deletes names inside this directory.
struct SensitiveStore {
  /// `$XDG_RUNTIME_DIR`.
  let runtime: String
  let directory: String

  /// The sensitive directory of the store at `storeDirectory`, or nil when
  /// `XDG_RUNTIME_DIR` is unset or relative (the XDG specification says to
  /// ignore a relative one) or the store does not exist.
  static func of(store storeDirectory: String) -> SensitiveStore? {
    guard let runtime = runtimeDirectory() else { return nil }
    var st = stat()
    guard lstat(storeDirectory, &st) == 0 else { return nil }
    return SensitiveStore(runtime: runtime, directory: runtime + "/pb/\(st.st_dev)-\(st.st_ino)")
  }

  /// `$XDG_RUNTIME_DIR` when it is set to an absolute path.
  static func runtimeDirectory() -> String? {
    guard let runtime = environmentValue("XDG_RUNTIME_DIR"), runtime.hasPrefix("/"), !ByteString.holdsRawBytes(runtime)
    else { return nil }
    return runtime
  }

  /// The sensitive directory of the store, created if needed, after
  /// checking that it is on a tmpfs.
  /// - Throws: `.unavailable` explaining what is missing.
  static func prepare(store storeDirectory: String) throws -> SensitiveStore {
    guard let store = of(store: storeDirectory) else {
      let reason: String
      switch environmentValue("XDG_RUNTIME_DIR") {
      case nil: reason = "XDG_RUNTIME_DIR is unset"
      case let value? where !value.hasPrefix("/"): reason = "XDG_RUNTIME_DIR is '\(value)', not an absolute path"
      case let value?: reason = "XDG_RUNTIME_DIR is '\(value)', not a UTF-8 path"
      }
      throw PasteboardError.unavailable("sensitive content needs a tmpfs to live in, and \(reason)")
    }
    try checkTmpfs(store.runtime, name: "XDG_RUNTIME_DIR \(store.runtime)")
    try ensurePrivateDirectory(store.runtime + "/pb")
    try ensurePrivateDirectory(store.directory)
    try checkTmpfs(store.directory, name: store.directory)
    return store
  }

  /// Refuses `path` unless the file system holding it (`statfs(2)` on the
  /// directory itself) is a tmpfs or ramfs.
  private static func checkTmpfs(_ path: String, name: String) throws {
    var info = statfs()
    guard statfs(path, &info) == 0 else {
      throw PasteboardError.unavailable("\(name) is unusable: \(errnoText())")
    }
    let type = UInt(bitPattern: Int(info.f_type))
    guard type == UInt(TMPFS_MAGIC) || type == UInt(RAMFS_MAGIC) else {
      throw PasteboardError.unavailable(
        "sensitive content is refused: \(name) is on \(fileSystemName(type)), not a tmpfs, so it could reach the disk")
    }
  }

  private static func fileSystemName(_ type: UInt) -> String {
    let known: [UInt: String] = [
      UInt(EXT4_SUPER_MAGIC): "ext2/3/4", UInt(BTRFS_SUPER_MAGIC): "btrfs", UInt(XFS_SUPER_MAGIC): "xfs",
      UInt(OVERLAYFS_SUPER_MAGIC): "overlayfs", 0x6969: "nfs",
    ]
    return known[type] ?? "a file system of type 0x" + String(type, radix: 16)
  }

  /// Whether `name` can be the name of a sensitive file: what pb writes
  /// (`BOARD.COUNT`), so never a path, never a dot file.
  static func isFileName(_ name: some StringProtocol) -> Bool {
    !name.isEmpty && name.utf8.count <= 128 && name.first != "."
      && name.utf8.allSatisfy { c in
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2E || c == 0x5F
          || c == 0x2D
      }
  }

  /// The path of the file `name` (checked with `isFileName`) in it.
  func path(of name: String) -> String? {
    SensitiveStore.isFileName(name) ? directory + "/" + name : nil
  }
}
