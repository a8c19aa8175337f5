#if canImport(Glibc)
  import Glibc
#endif

/// What killed writers leave behind: temporary files, and secrets that no
/// board refers to any more.
extension FileBackend {
  /// Removes the sensitive file `name` of this store (a bare name, checked;
  /// never a path read from a file).
  func removeSecret(_ name: String) {
    guard let path = SensitiveStore.of(store: location.directory)?.path(of: name) else { return }
    unlink(path)
  }

  /// Removes the files of this store's sensitive directory that no board
  /// refers to (left by a writer killed between its steps).
  func removeUnreferencedSecrets() {
    guard let sensitive = SensitiveStore.of(store: location.directory),
      let names = try? StoreFile.names(inDirectoryAt: sensitive.directory),
      let boards = try? StoreFile.names(inDirectoryAt: boardsDirectory)
    else { return }
    var referenced = Set<String>()
    for board in boards {
      guard let record = try? BoardRecord.open(boardsDirectory + "/" + board)?.record else { continue }
      if let name = record.sensitiveName { referenced.insert(name) }
    }
    for name in names where !referenced.contains(name) {
      if let path = sensitive.path(of: name) { unlink(path) }
    }
  }

  /// Removes temporary files that killed writers left in the store and in
  /// its sensitive directory.
  func sweepTemporaryFiles() {
    TemporaryFile.sweepStale(in: boardsDirectory)
    if let sensitive = SensitiveStore.of(store: location.directory) {
      TemporaryFile.sweepStale(in: sensitive.directory)
    }
  }
}
