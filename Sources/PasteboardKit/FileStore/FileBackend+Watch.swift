extension FileBackend: ChangeWatching {
  /// Watches the store's `boards` directory with inotify: every write and
  /// clear ends in a rename or a new file there, so the watch wakes for
  /// each change, from any process, and costs nothing while idle.
  /// - Throws: `.unavailable` for an unusable store, and from `next` when
  ///   the store is removed while it is watched.
  public func watchChanges(of boards: [BoardName]) throws -> BoardWatch {
    let watch = try reporting { () throws -> DirectoryWatch in
      try prepare()
      return try DirectoryWatch(boardsDirectory)
    }
    return try BoardWatch(
      boards: boards, wake: watch.descriptor,
      drain: { [boardsDirectory] in
        watch.drain()
        if watch.isGone {
          throw PasteboardError.unavailable("the store's boards directory \(boardsDirectory) was removed while pb watched it")
        }
      },
      read: { board in try self.read(board, purpose: .inspect) })
  }
}
