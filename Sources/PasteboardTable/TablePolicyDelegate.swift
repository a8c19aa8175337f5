import PasteboardKit

/// The standard table delegate: the policy decides among what the table can
/// do, and actions go through the `Pasteboard` front door.
///
/// What the table can do comes first and no rule changes it: cut and delete
/// need an editable table, paste an editable table and text on the board;
/// copy, select, select-all and share always can. Among those, the policy's
/// first matching rule decides, then its defaults (allowed, menu shown).
public final class TablePolicyDelegate: TableDelegate {
  public let document: TableDocument
  public let policy: Policy
  public let pasteboard: Pasteboard
  private var boardHoldsText: Bool?

  public init(document: TableDocument, policy: Policy, pasteboard: Pasteboard) {
    self.document = document
    self.policy = policy
    self.pasteboard = pasteboard
  }

  private func row(_ path: RowPath) -> Int? { document.table.row(at: path) }

  public func shouldShowMenu(forRowAt path: RowPath) -> Bool {
    guard let n = row(path) else { return false }
    return policy.showsMenu(row: n, path: path, content: document.table.content(n)).allowed
  }

  public func canPerform(_ action: EditAction, forRowAt path: RowPath) -> Bool {
    explain(action, forRowAt: path).allowed
  }

  /// Every action for the row, allowed or not, and what decided.
  public func explain(forRowAt path: RowPath) -> (menu: ActionExplanation?, actions: [ActionExplanation]) {
    guard let n = row(path) else { return (nil, []) }
    let menu = policy.showsMenu(row: n, path: path, content: document.table.content(n))
    let menuExplanation = menu.rule.map {
      ActionExplanation(action: .copy, allowed: menu.allowed, reason: "\($0.origin): \($0.text)")
    }
    return (menuExplanation, EditAction.allCases.map { explain($0, forRowAt: path) })
  }

  func explain(_ action: EditAction, forRowAt path: RowPath) -> ActionExplanation {
    guard let n = row(path) else { return ActionExplanation(action: action, allowed: false, reason: "no such row") }
    if action.edits && !document.isEditable {
      return ActionExplanation(action: action, allowed: false, reason: "the table is read-only (a listing; -o FILE makes it editable)")
    }
    if action == .paste && !holdsText() {
      return ActionExplanation(action: action, allowed: false, reason: "the board holds no text")
    }
    let decision = policy.decide(action, row: n, path: path, content: document.table.content(n))
    let reason = decision.rule.map { "\($0.origin): \($0.text)" } ?? "default"
    return ActionExplanation(action: action, allowed: decision.allowed, reason: reason)
  }

  /// Forgets whether the board holds text (asked once, then kept, so that
  /// an action on many rows asks the board once): the next question about
  /// paste asks the board again. A prompt calls it before each menu, since
  /// a copy or another program may have filled the board meanwhile.
  public func boardMayHaveChanged() { boardHoldsText = nil }

  private func holdsText() -> Bool {
    if let boardHoldsText { return boardHoldsText }
    let holds = (try? pasteboard.hasStrings()) ?? false
    boardHoldsText = holds
    return holds
  }

  public func perform(_ action: EditAction, forRowsAt paths: [RowPath]) throws -> TableOutcome {
    let table = document.table
    let rows = paths.compactMap { table.row(at: $0) }.sorted()
    guard !rows.isEmpty else { throw PasteboardError.invalid("no such row") }
    for path in paths where !canPerform(action, forRowAt: path) {
      let why = explain(action, forRowAt: path).reason
      throw PasteboardError.refused("\(action.rawValue) is not allowed on row \(describe(path)) (\(why)); nothing changed")
    }
    let what = rows.count == 1 ? "row \(rows[0] + 1)" : "\(rows.count) rows"
    switch action {
    case .copy:
      try copy(rows)
      document.selection = []
      return TableOutcome(message: "Copied \(what) to board '\(pasteboard.name)'.")
    case .cut:
      try copy(rows)
      document.replace(with: table.removing(Set(rows)))
      return TableOutcome(message: "Cut \(what) to board '\(pasteboard.name)'.", edited: true)
    case .delete:
      document.replace(with: table.removing(Set(rows)))
      return TableOutcome(message: "Deleted \(what); the board is unchanged.", edited: true)
    case .paste:
      let lines = try boardLines()
      document.replace(with: table.inserting(lines, after: rows.last!))
      boardHoldsText = nil
      let count = lines.count == 1 ? "1 row" : "\(lines.count) rows"
      return TableOutcome(message: "Pasted \(count) after row \(rows.last! + 1).", edited: true)
    case .select:
      document.selection.formUnion(rows)
      return TableOutcome(message: "Selected \(what) (\(document.selection.count) selected).")
    case .selectAll:
      document.selection = Set(0..<table.count)
      return TableOutcome(message: "Selected all \(table.count) rows.")
    case .share:
      return TableOutcome(message: "Sharing \(what).", shared: rows.map { Array(table.content($0)) })
    }
  }

  private func describe(_ path: RowPath) -> String {
    guard let n = document.table.row(at: path) else { return path.description }
    return document.table.sectionCount > 1 ? "\(n + 1) (\(path))" : "\(n + 1)"
  }

  /// Puts the rows' contents on the board, joined by newlines, with no
  /// trailing newline; UTF-8 text when they are, plain text otherwise.
  private func copy(_ rows: [Int]) throws {
    var bytes: [UInt8] = []
    for (i, n) in rows.enumerated() {
      if i > 0 { bytes.append(0x0A) }
      bytes += document.table.content(n)
    }
    let type = TypeDetection.looksLikeText(bytes) ? MIMEType.utf8Text : MIMEType.plainText
    try pasteboard.setItems([PasteboardItem([Representation(type: type, bytes: bytes)])])
  }

  /// The board's text as rows: split at LF (a CR before it goes too), and a
  /// final line break ends the last row rather than adding an empty one.
  private func boardLines() throws -> [[UInt8]] {
    guard let item = try pasteboard.items().first, let text = item.representation(for: MIMEType.plainText) else {
      throw PasteboardError.refused("the board holds no text to paste")
    }
    var bytes = try text.payload.loadBytes()
    if bytes.last == 0x0A { bytes.removeLast() }
    return bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
      Array(line.last == 0x0D ? line.dropLast() : line)
    }
  }
}
