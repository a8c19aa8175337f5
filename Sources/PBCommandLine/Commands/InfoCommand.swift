import PasteboardKit

/// `pb info`: which backend `auto` picks and why, the display, the store.
/// Answers at once: the display probe has a short deadline.
enum InfoCommand {
  static let spec = CommandSpec(
    name: "info", summary: "show which backend is used and why, the display and the store", arguments: "",
    positionalRange: 0...0, options: [], discussion: "", run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let choice = try BackendChoice.resolve(invocation)
    let history = try FileBackendFactory.historyLimits()
    var location: StoreLocation?
    var storeState: String
    do {
      let found = try StoreLocation.fromEnvironment()
      location = found
      try FileBackend(location: found).checkStore()
      storeState = "usable"
    } catch {
      storeState = "unusable: \(error)"
    }
    let runtime = environmentValue("XDG_RUNTIME_DIR")
    let sensitive =
      runtime == nil
      ? "(none: XDG_RUNTIME_DIR is unset)"
      : runtime!.hasPrefix("/") ? runtime! + "/pb" : "(none: XDG_RUNTIME_DIR is not an absolute path)"
    let fields: [(String, String)] = [
      ("backend", choice.name),
      ("reason", choice.reason),
      ("display", environmentValue("DISPLAY") ?? "(unset)"),
      ("store", location?.directory ?? "(none)"),
      ("store_source", location?.source ?? "(none)"),
      ("store_state", storeState),
      ("sensitive_dir", sensitive),
      ("history_size", String(history.entries)),
      ("history_entry_max", String(history.entryBytes)),
      ("history_total_max", String(history.totalBytes)),
      ("version", PB.version),
    ]
    if invocation.has("json") {
      try invocation.io.print(JSON.object(fields.map { ($0.0, .string($0.1)) }).text + "\n")
    } else {
      try invocation.io.print(fields.map { "\($0.0): \(VisibleText.escape($0.1))\n" }.joined())
    }
    return 0
  }
}
