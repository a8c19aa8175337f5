import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// How `pb watch` reports one change: a line, a JSON object, the content
/// and a NUL byte, or a run of the user's command with the content on its
/// standard input.
///
/// Sensitive content is never printed or handed to a command unless
/// `--include-sensitive` says so: the report says `sensitive`, and a
/// command gets no input.
struct WatchReport {
  enum Form {
    case line
    case json
    case print0
    case command([String])
  }

  let form: Form
  /// `-t`: the type the content is taken in (else as `pb paste` chooses).
  let type: String?
  let includesSensitive: Bool
  /// Whether lines name the board (several were watched).
  let namesBoard: Bool
  /// How long a command may run before its process group is ended.
  let commandTimeout: Int64
  let io: CommandIO

  /// The representation a change's content is taken in; nil for an empty
  /// board. A type `-t` names that the item does not offer is reported on
  /// standard error (the watch goes on).
  func content(of change: BoardChange) -> Representation? {
    guard let item = change.contents.items.first else { return nil }
    do {
      return try TypeChoice.choose(from: item, requested: type, outputName: nil)
    } catch {
      io.complain("change \(change.changeCount) of board '\(change.board)': \(error)")
      return nil
    }
  }

  /// Whether the content of `change` may be shown or handed on.
  func reveals(_ change: BoardChange) -> Bool { !change.sensitive || includesSensitive }

  /// - Parameter serving: a watch whose notices are taken while a command
  ///   runs (the clipboard manager's), or nil.
  func report(_ change: BoardChange, serving watch: BoardWatch? = nil) throws {
    let rep = content(of: change)
    switch form {
    case .line, .json:
      try io.print(line(change, size: size(of: rep, in: change)))
    case .print0:
      guard reveals(change) else { return }
      if let rep { try rep.payload.write(to: io.output) }
      try io.output.writeAll([0])
    case .command(let argv):
      try run(argv, for: change, content: reveals(change) ? rep : nil, chosen: rep?.type, serving: watch)
    }
  }

  /// The size of what a paste would give: 0 for an empty board; known
  /// at once on the file store, asked of an X11 owner otherwise, except
  /// for a secret, which the watch never fetches (nil, shown as `-`).
  func size(of rep: Representation?, in change: BoardChange) -> Int64? {
    guard let rep else { return 0 }
    if let known = rep.payload.knownCount { return known }
    guard reveals(change) else { return nil }
    return (try? rep.payload.loadBytes()).map { Int64($0.count) }
  }

  func line(_ change: BoardChange, size: Int64?) -> String {
    let sizeText = size.map(String.init) ?? "-"
    if case .json = form {
      return JSON.object([
        ("board", .string(change.board.rawValue)), ("count", .unsigned(change.changeCount)),
        ("types", .array(change.types.map(JSON.string))), ("size", size.map(JSON.number) ?? .null),
        ("sensitive", .bool(change.sensitive)), ("time", .number(change.time)),
      ]).text + "\n"
    }
    let fields = [String(change.changeCount), sizeText, change.types.joined(separator: ",")]
    return ((namesBoard ? [change.board.rawValue] : []) + fields).map(VisibleText.escape).joined(separator: "\t") + "\n"
  }

  /// Runs the user's command for one change, with the content on its
  /// standard input and the change in its environment; waits for it (one
  /// at a time), ending its process group past `commandTimeout`. A
  /// failure is reported on standard error; the watch goes on. The
  /// notices of `watch` are taken meanwhile; an error in taking them (the
  /// X server gone) ends the watch once the command is done.
  func run(_ argv: [String], for change: BoardChange, content: Representation?, chosen: String?, serving watch: BoardWatch?) throws {
    let environment = environmentStrings(setting: [
      "PB_BOARD": change.board.rawValue, "PB_COUNT": String(change.changeCount), "PB_TYPE": chosen ?? "",
      "PB_TYPES": change.types.joined(separator: ","), "PB_SENSITIVE": change.sensitive ? "1" : "0",
    ])
    let what = "'\(argv[0])' for change \(change.changeCount) of board '\(change.board)'"
    let child: ChildProcess
    do {
      child = try ChildProcess(
        argv, environment: environment, directory: currentDirectory(), input: .pipe, output: .descriptor(io.output),
        error: .descriptor(io.error))
    } catch {
      io.complain("\(what): \(error)")
      return
    }
    var failure: Error?
    if let watch {
      child.meanwhile = (watch.noticeDescriptor, {
        do { try watch.takeNotices() } catch { failure = error }
        return failure == nil
      })
    }
    defer { child.meanwhile = nil }
    let deadline = WallClock.monotonicMilliseconds() + commandTimeout
    do {
      if let content { try child.send(try content.payload.loadBytes(), until: deadline) }
      let ended = try child.wait(until: deadline)
      if !ended.succeeded { io.complain("\(what) failed (\(ended))") }
    } catch {
      // Past the deadline (or the content could not be read): the
      // command's process group is ended, and the watch goes on.
      _ = try? child.wait(until: WallClock.monotonicMilliseconds())
      io.complain("\(what): \(error)")
    }
    if let failure { throw failure }
  }

}
