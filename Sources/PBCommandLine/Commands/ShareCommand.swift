import PasteboardActivities
import PasteboardKit

/// `pb share`: offers the board's content (or TEXT arguments, or files) to
/// the activities that can perform on it, and runs the one named or picked.
enum ShareCommand {
  static let spec = CommandSpec(
    name: "share", summary: "hand the board's content (or TEXT, or files) to an activity", arguments: "[TEXT...]",
    positionalRange: 0...Int.max,
    options: [
      OptionSpec("list", "list the activities that can perform on the items"),
      OptionSpec("activity", value: "TYPE", "run this activity (its type, or the last part: reverse)"),
      OptionSpec("exclude", value: "TYPE[,TYPE]", repeatable: true, "never offer these activities"),
      OptionSpec("file", value: "PATH", repeatable: true, "share this file (instead of the board)"),
      OptionSpec("to-board", "put the items the activity returns on the board, not on standard output"),
      OptionSpec("name", value: "NAME", "pb.export: the folder to make"),
      OptionSpec("into", value: "PATH", "pb.export: the folder to make it in; pb.mail: the file to write"),
      OptionSpec("parts", value: "PARTS", "pb.export: which items (kinds or numbers, comma-separated)"),
      OptionSpec("to", value: "ADDRESS", repeatable: true, "pb.mail: a recipient"),
      OptionSpec("subject", value: "TEXT", "pb.mail: the subject"),
      OptionSpec("from", value: "ADDRESS", "pb.mail: the sender (default EMAIL, else user@host)"),
    ],
    discussion: """
      Items: the TEXT arguments and --file files when given, else the board's
      content. With a terminal and no --activity, a menu lets you pick (a number
      or a letter; q cancels). Returned items (pb.reverse's text) go to standard
      output, or to the board with --to-board. User activities are read from
      $XDG_CONFIG_HOME/pb/activities/*.activity (see pb-activity(5)).
      Exit status: 0 done, 1 nothing to share, 2 unknown activity or a missing
      option, 3 no activity can perform (or cancelled), 7 the activity failed.
      """,
    run: run)

  static func run(_ invocation: Invocation) throws -> Int32 {
    let board = try invocation.singleBoard()
    // The board is opened only when it is needed: for its content, for
    // pb.copy-to-pasteboard, or for --to-board.
    var opened: PasteboardBackend?
    func backend() throws -> PasteboardBackend {
      if let opened { return opened }
      let b = try BackendChoice.resolve(invocation).open()
      opened = b
      return b
    }
    let items = try gatherItems(invocation, board: board, backend: backend)
    guard !items.isEmpty else { throw PasteboardError.nothingThere("nothing to share: board '\(board)' is empty") }
    return try share(items, invocation: invocation, pasteboard: Pasteboard(name: board, backend: try backend()))
  }

  /// Offers `items` to the activities and runs the one `--activity` names
  /// (or the one picked on the terminal); also what `pb table`'s share
  /// action runs.
  static func share(_ items: [ActivityItem], invocation: Invocation, pasteboard: Pasteboard) throws -> Int32 {
    let io = invocation.io
    let listing = invocation.has("list") && invocation.command?.name == "share"
    let terminal = invocation.has("activity") || listing ? nil : (try? io.openTerminal()).map(Terminal.init)
    var environment = ActivityEnvironment()
    environment.name = invocation.value("name")
    environment.into = invocation.value("into")
    environment.parts = invocation.value("parts").map { $0.split(separator: ",").map(String.init) }
    environment.mailTo = invocation.all("to")
    environment.mailSubject = invocation.value("subject")
    environment.mailFrom = invocation.value("from")
    if let terminal { environment.ask = { question in terminal.ask(question) } }
    environment.pasteboard = pasteboard

    let library = ActivityLibrary.load(from: ActivityLibrary.folder(environment.folders))
    for problem in library.problems { io.complain(problem + " (that activity is skipped)") }
    let controller = ActivityController(items: items, activities: builtins(environment) + library.activities)
    controller.excludedTypes = Set(invocation.all("exclude").flatMap { $0.split(separator: ",").map(String.init) }.compactMap {
      controller.activity(named: $0)?.activityType ?? $0
    })
    let available = controller.available

    if listing {
      guard !available.isEmpty else { throw PasteboardError.refused("no activity can perform on these items") }
      if invocation.has("json") {
        let rows = available.map { a in
          JSON.object([("type", .string(a.activityType)), ("title", .string(a.title)), ("category", .string(a.category.rawValue))])
        }
        try io.print(JSON.array(rows).text + "\n")
      } else {
        try io.print(available.map { "\($0.activityType)\t\(VisibleText.escape($0.title))\n" }.joined())
      }
      return 0
    }

    let activity: Activity
    if let name = invocation.value("activity") {
      guard let found = controller.activity(named: name) else {
        let known = controller.activities.map(\.activityType).joined(separator: ", ")
        throw UsageError("unknown activity '\(name)' (known: \(known))")
      }
      guard available.contains(where: { $0 === found }) else {
        let why = controller.excludedTypes.contains(found.activityType) ? "is excluded" : "cannot perform on these items"
        throw PasteboardError.refused("\(found.activityType) \(why)")
      }
      activity = found
    } else if let terminal {
      guard !available.isEmpty else { throw PasteboardError.refused("no activity can perform on these items") }
      guard let picked = SharePicker.pick(from: available, on: terminal) else {
        throw PasteboardError.refused("cancelled: no activity was run")
      }
      activity = picked
    } else {
      throw UsageError("name an activity with --activity TYPE, or list them with --list (there is no terminal to ask on)")
    }

    let outcome = controller.perform(activity)
    if let error = outcome.error {
      switch error {
      case .invalid(let message): throw UsageError(message)
      case .refused, .nothingThere: throw error
      default: throw PasteboardError.failed("\(activity.activityType) failed: \(error.description)")
      }
    }
    try deliver(outcome.returnedItems, toBoard: invocation.has("to-board") ? pasteboard : nil, io: io)
    return 0
  }

  /// The TEXT arguments and --file files, or else the board's content.
  static func gatherItems(_ invocation: Invocation, board: BoardName, backend: () throws -> PasteboardBackend) throws
    -> [ActivityItem]
  {
    var items = invocation.positionals.map { ActivityItem.text(bytes: ByteString.bytes($0)) }
    for path in invocation.all("file") { items.append(try ActivityItem.file(path)) }
    if !items.isEmpty { return items }
    return try ActivityItem.from(try backend().read(board, purpose: .inspect).items)
  }

  /// The built-in activities, in the order they are offered.
  static func builtins(_ environment: ActivityEnvironment) -> [Activity] {
    [
      CopyToPasteboardActivity(pasteboard: environment.pasteboard), PrintActivity(environment: environment),
      MailActivity(environment: environment), SaveImageActivity(environment: environment),
      OpenActivity(environment: environment), ReverseActivity(), ExportActivity(environment: environment),
      ArchiveActivity(environment: environment),
    ]
  }

  /// Writes returned items to standard output, exactly, with a newline
  /// between two items when the first does not end in one (an activity
  /// that reports a path ends it with one); or puts them on the board.
  static func deliver(_ items: [ActivityItem], toBoard pasteboard: Pasteboard?, io: CommandIO) throws {
    guard !items.isEmpty else { return }
    if let pasteboard {
      try pasteboard.setItems(items.map { PasteboardItem([Representation(type: $0.type, payload: $0.payload)]) })
      return
    }
    var last: UInt8?
    for item in items {
      if let last, last != 0x0A { try io.output.writeAll([0x0A]) }
      let bytes = try item.bytes()
      try io.output.writeAll(bytes)
      last = bytes.last ?? last
    }
  }
}
