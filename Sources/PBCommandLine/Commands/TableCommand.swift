import PasteboardActivities
import PasteboardKit
import PasteboardTable

#if canImport(Glibc)
  import Glibc
#endif

/// `pb table [FILE]`: a listing or a file as a table of rows; pick a row
/// and an edit action from a menu the canPerform policy filters, or run one
/// from a script.
enum TableCommand {
  static let spec = CommandSpec(
    name: "table", summary: "pick a row of a listing or file and cut, copy, paste, delete or share it", arguments: "[FILE]",
    positionalRange: 0...1,
    options: [
      OptionSpec("row", value: "ROWS", "the rows to act on: N, S:R, lists and ranges (2,5-7)"),
      OptionSpec("action", value: "ACTION", "copy, cut, paste, delete, select, select-all or share"),
      OptionSpec("actions", value: "ROW", "print the actions the policy allows on ROW"),
      OptionSpec("explain", value: "ROW", "print every action for ROW, allowed or denied, and the rule that decided"),
      OptionSpec("policy", value: "FILE", "read canPerform rules from FILE (see pb-policy(5))"),
      OptionSpec("allow", value: "ACTION[,ACTION]", repeatable: true, "allow these actions on every row"),
      OptionSpec("deny", value: "ACTION[,ACTION]", repeatable: true, "deny these actions on every row"),
      OptionSpec("sections", value: "blank|REGEX", "split into sections at blank lines, or at lines that match REGEX"),
      OptionSpec("output", short: "o", value: "FILE", "make a listing from standard input editable into FILE"),
      OptionSpec("activity", value: "TYPE", "for share: the activity to run (see pb-share(1))"),
    ],
    discussion: """
      Rows come from FILE (edits are written back to it, atomically) or from
      standard input (read-only; -o FILE makes it editable into FILE, written
      only when an edit happens). With a terminal and none of --row, --actions
      or --explain, pb table shows the rows page by page and asks on the
      terminal. Exit status: 0 done, 2 usage error (a bad policy, a row out of
      range), 3 the policy denied the action (nothing changed), 7 a failure
      (the file changed on disk meanwhile, say).
      """,
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let io = invocation.io
    let board = try invocation.singleBoard()
    // The policy first: a malformed one stops everything before anything is read.
    var rules = try usage { try Policy.commandLine(deny: invocation.all("deny"), allow: invocation.all("allow")) }
    if let file = invocation.value("policy") {
      let bytes = try TableDocument.readAll(try Descriptor.open(file, O_RDONLY), name: file)
      rules += try usage { try Policy.parse(String(decoding: bytes, as: UTF8.self), file: file) }
    }
    let sectioning = try sections(invocation.value("sections"))
    let document: TableDocument
    if let path = invocation.positionals.first {
      if invocation.has("output") { throw UsageError("-o is for a listing from standard input; FILE is written back itself") }
      document = try TableDocument(file: path, sectioning: sectioning)
    } else {
      if isatty(io.input.rawValue) != 0 {
        throw UsageError("pb table needs a FILE, or a listing on standard input (such as ls -l | pb table)")
      }
      // Standard input redirected from a file says how big it is: reading
      // into storage of that size spares the copies (and the memory) of
      // growing it.
      let st = try? io.input.status()
      let size = st.map { $0.st_mode & S_IFMT == S_IFREG ? Int($0.st_size) : 0 } ?? 0
      let bytes = try TableDocument.readAll(io.input, size: size, name: "standard input")
      document = TableDocument(listing: bytes, sectioning: sectioning, output: invocation.value("output"))
    }
    let pasteboard = Pasteboard(name: board, backend: try BackendChoice.resolve(invocation).open())
    let delegate = TablePolicyDelegate(document: document, policy: Policy(rules: rules), pasteboard: pasteboard)

    if let text = invocation.value("explain") {
      try explain(text, delegate: delegate, io: io, json: invocation.has("json"))
      return 0
    }
    if let text = invocation.value("actions") {
      try listActions(text, delegate: delegate, io: io, json: invocation.has("json"))
      return 0
    }
    if let rowsText = invocation.value("row") {
      guard let actionName = invocation.value("action") else { throw UsageError("--row needs --action ACTION") }
      guard let action = EditAction(rawValue: actionName) else {
        throw UsageError("unknown action '\(actionName)' (use \(EditAction.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
      let rows = try usage { try RowAddress.rows(rowsText, in: document.table) }
      let paths = rows.map { document.table.indexPath(of: $0) }
      if let hidden = paths.first(where: { !delegate.shouldShowMenu(forRowAt: $0) }) {
        throw PasteboardError.refused("row \(document.table.row(at: hidden)! + 1) has no menu (the policy hides it); nothing changed")
      }
      let outcome = try delegate.perform(action, forRowsAt: paths)
      if outcome.edited { try document.save() }
      if action == .share { return try share(outcome.shared, invocation: invocation, pasteboard: pasteboard) }
      return 0
    }
    if invocation.has("action") { throw UsageError("--action needs --row ROWS") }
    guard let terminal = (try? io.openTerminal()).map(Terminal.init) else {
      throw UsageError("there is no terminal to ask on: use --row ROWS --action ACTION, or --actions ROW")
    }
    return try TablePrompt(document: document, delegate: delegate, terminal: terminal, invocation: invocation).run()
  }

  static func sections(_ text: String?) throws -> Table.Sectioning {
    guard let text else { return .none }
    if text == "blank" { return .blankLines }
    return .matching(try usage { try RowPattern(text) })
  }

  static func explain(_ text: String, delegate: TablePolicyDelegate, io: CommandIO, json: Bool) throws {
    let table = delegate.document.table
    let n = try usage { try RowAddress.row(text, in: table) }
    let (menu, actions) = delegate.explain(forRowAt: table.indexPath(of: n))
    if json {
      var rows = actions.map { a in
        JSON.object([("action", .string(a.action.rawValue)), ("allowed", .bool(a.allowed)), ("rule", .string(a.reason))])
      }
      rows.insert(.object([("action", .string("menu")), ("allowed", .bool(menu?.allowed ?? true)), ("rule", .string(menu?.reason ?? "default"))]), at: 0)
      try io.print(JSON.array(rows).text + "\n")
      return
    }
    var out = "menu\t\(menu?.allowed ?? true ? "shown" : "hidden")\t\(VisibleText.escape(menu?.reason ?? "default"))\n"
    for a in actions { out += "\(a.action.rawValue)\t\(a.allowed ? "allowed" : "denied")\t\(VisibleText.escape(a.reason))\n" }
    try io.print(out)
  }

  static func listActions(_ text: String, delegate: TablePolicyDelegate, io: CommandIO, json: Bool) throws {
    let table = delegate.document.table
    let path = table.indexPath(of: try usage { try RowAddress.row(text, in: table) })
    let shown = delegate.shouldShowMenu(forRowAt: path)
    let allowed = shown ? EditAction.allCases.filter { delegate.canPerform($0, forRowAt: path) } : []
    if json {
      let rows = allowed.map { a in
        JSON.object([("action", .string(a.rawValue)), ("title", .string(a.title)), ("shortcut", .string(String(a.shortcut)))])
      }
      try io.print(JSON.array(rows).text + "\n")
    } else {
      try io.print(allowed.map { $0.rawValue + "\n" }.joined())
    }
  }

  /// The share action: the rows' text to `pb share`'s activities.
  static func share(_ rows: [[UInt8]], invocation: Invocation, pasteboard: Pasteboard) throws -> Int32 {
    try ShareCommand.share(rows.map { ActivityItem.text(bytes: $0) }, invocation: invocation, pasteboard: pasteboard)
  }
}
