import PasteboardKit

/// `pb watch`: each change of the board, as it happens (UIPasteboard's
/// changedNotification, wl-paste --watch), as a line, JSON, the content,
/// or a run of a command.
enum WatchCommand {
  static let spec = CommandSpec(
    name: "watch",
    summary: "report each change of the board, or run a command for each",
    arguments: "[-- COMMAND [ARG...]]",
    positionalRange: 0...Int.max,
    options: [
      OptionSpec("print0", "print each change's content followed by a NUL byte"),
      OptionSpec("type", short: "t", value: "MIME", "the type the content is taken in (default: as pb paste chooses)"),
      OptionSpec("once", "exit after the first change"),
      OptionSpec("timeout", value: "DURATION", "end the watch after DURATION (exit 5 when nothing changed)"),
      OptionSpec("include-sensitive", "print or hand on sensitive content too"),
      OptionSpec("exec-timeout", value: "DURATION", "end a COMMAND still running after DURATION (default 60s)"),
      OptionSpec("keep", "keep the history of the watched X11 boards in the file store"),
      OptionSpec("keep-max", value: "BYTES", "the largest content --keep keeps (default 16M)"),
      OptionSpec("manage", "be the X11 clipboard manager: the clipboard outlives its owner"),
    ],
    discussion: """
      Each change prints COUNT<TAB>SIZE<TAB>TYPES (with several boards,
      BOARD<TAB> first), or with --json an object with board, count, types,
      size, sensitive and time. After --, COMMAND runs once per change, one
      at a time, with the content on its standard input and PB_BOARD,
      PB_COUNT, PB_TYPE, PB_TYPES and PB_SENSITIVE set. Changes made while
      a command runs are reported after it, the newest content once.
      Nothing is polled: inotify on the file store, XFixes on X11.
      With --manage, pb is also the X11 clipboard manager: it owns
      CLIPBOARD_MANAGER, answers SAVE_TARGETS, and takes CLIPBOARD over
      with the last content when its owner goes away (never a secret);
      while another manager runs it refuses to start (exit 3).
      """,
    run: run)

  static let defaultCommandTimeout: Int64 = 60_000

  static func run(_ invocation: Invocation) throws -> Int32 {
    let boards = try invocation.boards()
    let argv = try command(invocation)
    let forms = [invocation.has("json"), invocation.has("print0"), argv != nil].filter { $0 }.count
    if forms > 1 { throw UsageError("--json, --print0 and a COMMAND are different ways to report; give one") }
    let type = try invocation.value("type").map { t in try usage { try MIMEType.validate(t) }; return t }
    let timeout = try invocation.value("timeout").map { t in try usage { try DurationParser.milliseconds(t) } }
    let commandTimeout =
      try invocation.value("exec-timeout").map { t in try usage { try DurationParser.milliseconds(t) } } ?? defaultCommandTimeout
    let choice = try BackendChoice.resolve(invocation)
    let backend = try choice.open()
    guard let watching = backend as? ChangeWatching else {
      throw PasteboardError.unavailable("the \(backend.kind) backend cannot be watched")
    }
    let report = WatchReport(
      form: argv.map(WatchReport.Form.command) ?? (invocation.has("json") ? .json : invocation.has("print0") ? .print0 : .line),
      type: type, includesSensitive: invocation.has("include-sensitive"), namesBoard: boards.count > 1,
      commandTimeout: commandTimeout, io: invocation.io)
    if invocation.has("manage") && backend.kind != "x11" {
      throw UsageError("--manage makes pb the X11 clipboard manager; the \(backend.kind) backend is not X11")
    }
    let keeper = try HistoryKeeper.resolve(invocation, watching: backend)
    let io = invocation.io
    let watch =
      invocation.has("manage")
      ? try X11Support.managedWatch(
        backend, boards: boards, limit: try HistoryKeeper.givenLimit(invocation) ?? HistoryKeeper.defaultLimit,
        complain: { io.complain($0) })
      : try watching.watchChanges(of: boards)
    let end = timeout.map { WallClock.monotonicMilliseconds() + $0 }
    var reported = false
    while true {
      let changes = try watch.next(deadline: end)
      if changes.isEmpty {
        if reported { return 0 }
        let names = boards.map { "'\($0)'" }.joined(separator: ", ")
        throw PasteboardError.timedOut("no change of board \(names) within \(describeDuration(timeout ?? 0))")
      }
      for change in changes {
        try keeper?.keep(change, io: invocation.io)
        try report.report(change, serving: invocation.has("manage") ? watch : nil)
        reported = true
        if invocation.has("once") { return 0 }
      }
    }
  }

  /// The COMMAND after `--`, if any; operands before `--` are refused (a
  /// command's options would be taken for pb's).
  static func command(_ invocation: Invocation) throws -> [String]? {
    let before = invocation.positionalsBeforeTerminator ?? invocation.positionals.count
    if before > 0 {
      throw UsageError("put the command after --: pb watch [OPTIONS] -- \(invocation.positionals.joined(separator: " "))")
    }
    if invocation.positionalsBeforeTerminator != nil && invocation.positionals.isEmpty {
      throw UsageError("no command after --")
    }
    return invocation.positionals.isEmpty ? nil : invocation.positionals
  }
}
