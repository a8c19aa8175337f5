import PasteboardKit

/// `pb info`: which backend `auto` picks and why, the display, the store.
/// Answers at once: the display probe has a short deadline.
enum InfoCommand {
  static let spec = CommandSpec(
    name: "info", summary: "show which backend is used and why, the display and the store", arguments: "",
    positionalRange: 0...0, options: [], discussion: "", run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let choice = try BackendChoice.resolve(invocation)
    let location = try? StoreLocation.fromEnvironment()
    var storeState = "not set (PB_DIR, XDG_STATE_HOME and HOME are unset)"
    if let location {
      do {
        try FileBackend(location: location).checkStore()
        storeState = "usable"
      } catch {
        storeState = "unusable: \(error)"
      }
    }
    let fields: [(String, String)] = [
      ("backend", choice.name),
      ("reason", choice.reason),
      ("display", environmentValue("DISPLAY") ?? "(unset)"),
      ("store", location?.directory ?? "(none)"),
      ("store_source", location?.source ?? "(none)"),
      ("store_state", storeState),
      ("sensitive_dir", environmentValue("XDG_RUNTIME_DIR").map { $0 + "/pb" } ?? "(none: XDG_RUNTIME_DIR is unset)"),
      ("history_size", String((try? FileBackendFactory.historyLimit()) ?? 20)),
      ("version", PB.version),
    ]
    if invocation.has("json") {
      try Output.print(JSON.object(fields.map { ($0.0, .string($0.1)) }).text + "\n")
    } else {
      try Output.print(fields.map { "\($0.0): \($0.1)\n" }.joined())
    }
    return 0
  }
}
