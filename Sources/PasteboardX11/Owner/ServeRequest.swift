import PasteboardKit

/// What the background owner is asked to serve, as it travels on the
/// command line of `pb __x11-serve` (the content itself travels in a
/// memfd on descriptor 3, never in arguments).
struct ServeRequest: Equatable {
  static let command = "__x11-serve"
  static let contentFD: Int32 = 3
  static let statusFD: Int32 = 4

  var selections: [String]
  var slices: [SharedContent.Slice]
  var sensitive = false
  var expiresAt: Int64?
  var pasteLimit: Int?
  var displayName: String?

  var arguments: [String] {
    var a = [ServeRequest.command]
    for s in selections { a += ["--selection", s] }
    for s in slices { a += ["--slice", s.type, String(s.offset), String(s.length)] }
    if sensitive { a.append("--sensitive") }
    if let e = expiresAt { a += ["--expire-at", String(e)] }
    if let p = pasteLimit { a += ["--pastes", String(p)] }
    if let d = displayName { a += ["--display", d] }
    return a
  }

  /// Parses the arguments after `__x11-serve`; nil when malformed.
  init?(arguments: ArraySlice<String>) {
    selections = []
    slices = []
    var rest = arguments
    func take() -> String? { rest.popFirst() }
    while let flag = take() {
      switch flag {
      case "--selection":
        guard let s = take() else { return nil }
        selections.append(s)
      case "--slice":
        guard let t = take(), let o = take().flatMap({ Int($0) }), let l = take().flatMap({ Int($0) }) else { return nil }
        slices.append(SharedContent.Slice(type: t, offset: o, length: l))
      case "--sensitive": sensitive = true
      case "--expire-at":
        guard let v = take().flatMap({ Int64($0) }) else { return nil }
        expiresAt = v
      case "--pastes":
        guard let v = take().flatMap({ Int($0) }) else { return nil }
        pasteLimit = v
      case "--display":
        guard let v = take() else { return nil }
        displayName = v
      default: return nil
      }
    }
    if selections.isEmpty { return nil }
  }

  init(selections: [String], slices: [SharedContent.Slice], options: WriteOptions, displayName: String?) {
    self.selections = selections
    self.slices = slices
    sensitive = options.sensitive
    expiresAt = options.expiresAt
    pasteLimit = options.pasteLimit
    self.displayName = displayName
  }

  var options: WriteOptions {
    WriteOptions(sensitive: sensitive, expiresAt: expiresAt, pasteLimit: pasteLimit)
  }
}

/// How the background owner reports the outcome of taking ownership on
/// its status pipe: `ok`, or an error as `CODE message` where CODE is
/// pb's exit status for it.
enum OwnerStatus {
  static func encode(_ error: PasteboardError) -> String {
    "\(error.exitStatus) \(error.description)\n"
  }

  static func decode(_ line: String) -> PasteboardError? {
    if line == "ok" { return nil }
    let code = line.prefix { $0 != " " }
    let message = String(line.dropFirst(code.count + 1))
    return PasteboardError(
      exitStatus: Int32(code) ?? ExitStatus.failure, message: message.isEmpty ? "the background owner failed" : message)
  }
}
