import PasteboardKit

/// Which backend a command uses, and why: `--backend`, else `PB_BACKEND`,
/// else `auto` (X11 when DISPLAY names a server that answers, otherwise the
/// file backend; never Redis, which is shared and must be asked for).
struct BackendChoice {
  let name: String
  let reason: String
  /// What the display probe found, when `auto` asked it.
  var display: (usable: Bool, reason: String)?

  static let names = ["x11", "file", "memory", "redis", "auto"]

  /// Resolves the choice; `auto` probes the display (about a second at most).
  static func resolve(_ invocation: Invocation) throws -> BackendChoice {
    let (requested, source) =
      invocation.value("backend").map { ($0, "--backend") }
      ?? environmentValue("PB_BACKEND").map { ($0, "PB_BACKEND") } ?? ("auto", "default")
    guard names.contains(requested) else {
      throw UsageError("unknown backend '\(requested)' from \(source) (use x11, file, memory, redis or auto)")
    }
    guard requested == "auto" else { return BackendChoice(name: requested, reason: "chosen by \(source)", display: nil) }
    let probe = X11Support.probe()
    return BackendChoice(name: probe.usable ? "x11" : "file", reason: "auto: \(probe.reason)", display: probe)
  }

  /// Whether an X11 display answers, probing it unless `auto` already did.
  func displayProbe() -> (usable: Bool, reason: String) { display ?? X11Support.probe() }

  /// Opens the chosen backend; `timeoutMilliseconds` bounds waits for an
  /// X11 owner or a Redis server.
  func open(timeoutMilliseconds: Int64? = nil) throws -> PasteboardBackend {
    switch name {
    case "x11": return try X11Support.makeBackend(timeoutMilliseconds: timeoutMilliseconds)
    case "redis": return try RedisSupport.makeBackend(timeoutMilliseconds: timeoutMilliseconds)
    case "memory": return MemoryBackend()
    default: return try FileBackendFactory.make()
    }
  }
}

/// Builds the file backend from the environment, with `pb`'s expiry sweeper.
enum FileBackendFactory {
  static func make() throws -> FileBackend {
    let backend = FileBackend(location: try StoreLocation.fromEnvironment(), history: try historyLimits())
    backend.onExpiringWrite = { [weak backend] _ in
      if let backend { ExpirySweeper.ensureRunning(for: backend) }
    }
    return backend
  }

  /// The history limits: `PB_HISTORY_SIZE` entries (default 20; 0 keeps
  /// none), none larger than `PB_HISTORY_ENTRY_MAX` (default 16M), at most
  /// `PB_HISTORY_TOTAL_MAX` per board (default 64M).
  /// - Throws: `.invalid` naming the variable and its bad value.
  static func historyLimits() throws -> HistoryLimits {
    var limits = HistoryLimits()
    if let text = environmentValue("PB_HISTORY_SIZE") {
      limits.entries = try WholeNumber.parse(text, as: Int.self, for: "PB_HISTORY_SIZE")
    }
    if let text = environmentValue("PB_HISTORY_ENTRY_MAX") {
      limits.entryBytes = try ByteCount.parse(text, for: "PB_HISTORY_ENTRY_MAX")
    }
    if let text = environmentValue("PB_HISTORY_TOTAL_MAX") {
      limits.totalBytes = try ByteCount.parse(text, for: "PB_HISTORY_TOTAL_MAX")
    }
    return limits
  }
}
