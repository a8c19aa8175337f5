import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// Clears a file-backend board when its `--expire` time comes, from a
/// detached background process, so expired content (sensitive content in
/// particular) leaves the store even when nobody reads the board again.
enum ExpirySweeper {
  /// The hidden command the background process runs.
  static let command = "__expire"

  static func start(store: String, board: BoardName, changeCount: UInt64, deadline: Int64) {
    let arguments = ["pb", command, store, board.rawValue, String(changeCount), String(deadline)]
    _ = try? DetachedProcess.spawn(DetachedProcess.selfExecutable, arguments: arguments)
  }

  /// Runs the sweeper if `arguments` ask for it; nil otherwise.
  static func runIfRequested(_ arguments: [String]) -> Int32? {
    guard arguments.count == 6, arguments[1] == command,
      let board = try? BoardName(arguments[3]), let count = UInt64(arguments[4]), let deadline = Int64(arguments[5])
    else { return nil }
    DetachedProcess.settleChild()
    let backend = FileBackend(location: StoreLocation(directory: arguments[2], source: "sweeper"), historyLimit: 0)
    backend.expire(board, changeCount: count, at: deadline)
    return 0
  }
}
