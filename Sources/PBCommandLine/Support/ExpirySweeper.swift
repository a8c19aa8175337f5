import PasteboardKit

/// The file backend's expiry sweeper as a detached background process
/// (`pb __expire STORE`), so expired content (sensitive content in
/// particular) leaves the store even when nobody reads the board again.
/// One runs per store at most; it exits when nothing is left to expire.
enum ExpirySweeper {
  /// The hidden command the background process runs.
  static let command = "__expire"

  /// Starts a sweeper for `backend`'s store unless one is running.
  static func ensureRunning(for backend: FileBackend) {
    guard !backend.expirySweeperIsRunning() else { return }
    let arguments = ["pb", command, backend.location.directory]
    _ = try? DetachedProcess.spawn(DetachedProcess.selfExecutable, arguments: arguments)
  }

  /// Runs the sweeper if `arguments` ask for it; nil otherwise.
  static func runIfRequested(_ arguments: [String]) -> Int32? {
    guard arguments.count == 3, arguments[1] == command, arguments[2].hasPrefix("/") else { return nil }
    let location = StoreLocation(directory: arguments[2], source: "sweeper")
    let backend = FileBackend(location: location, history: HistoryLimits(entries: 0), creates: false)
    do {
      try backend.runExpirySweeper()
      return 0
    } catch {
      return 7
    }
  }
}
