import PasteboardKit

/// Which backend a command uses, and why: `--backend`, else `PB_BACKEND`,
/// else `auto` (X11 when DISPLAY names a server that answers, otherwise the
/// file backend).
struct BackendChoice {
  let name: String
  let reason: String

  static let names = ["x11", "file", "memory", "auto"]

  /// Resolves the choice; `auto` probes the display (about a second at most).
  static func resolve(_ invocation: Invocation) throws -> BackendChoice {
    let (requested, source) =
      invocation.value("backend").map { ($0, "--backend") }
      ?? environmentValue("PB_BACKEND").map { ($0, "PB_BACKEND") } ?? ("auto", "default")
    guard names.contains(requested) else {
      throw UsageError("unknown backend '\(requested)' from \(source) (use x11, file, memory or auto)")
    }
    guard requested == "auto" else { return BackendChoice(name: requested, reason: "chosen by \(source)") }
    let probe = X11Support.probe()
    return probe.usable
      ? BackendChoice(name: "x11", reason: "auto: \(probe.reason)")
      : BackendChoice(name: "file", reason: "auto: \(probe.reason)")
  }

  /// Opens the chosen backend.
  func open(timeoutMilliseconds: Int64? = nil) throws -> PasteboardBackend {
    switch name {
    case "x11": return try X11Support.makeBackend(timeoutMilliseconds: timeoutMilliseconds)
    case "memory": return MemoryBackend()
    default: return try FileBackendFactory.make()
    }
  }
}

/// Builds the file backend from the environment, with `pb`'s expiry sweeper.
enum FileBackendFactory {
  static func make() throws -> FileBackend {
    let backend = FileBackend(location: try StoreLocation.fromEnvironment(), historyLimit: try historyLimit())
    backend.onExpiringWrite = { board, count, deadline in
      ExpirySweeper.start(store: backend.location.directory, board: board, changeCount: count, deadline: deadline)
    }
    return backend
  }

  /// `PB_HISTORY_SIZE`, default 20; 0 keeps no history.
  static func historyLimit() throws -> Int {
    guard let text = environmentValue("PB_HISTORY_SIZE") else { return 20 }
    guard let n = Int(text), n >= 0 else {
      throw PasteboardError.invalid("PB_HISTORY_SIZE is '\(text)', not a whole number")
    }
    return n
  }
}
