import PasteboardKit
import PasteboardTable

/// `pb table` at a terminal: the rows page by page (as many as the
/// terminal holds, asked again at every page, so a resize is followed),
/// numbered, shown safely (control characters visible, cut to the width by
/// display columns); the user names a row (`N`, `S:R`) or searches
/// (`/text`), then picks one of the actions the policy allows from a menu,
/// and sees a line saying what happened.
///
/// Edits are written back when the user quits (`q` or end of input, at
/// either question); Ctrl-C ends pb at once and leaves the file as it was.
/// The terminal is used in its own line mode throughout, so nothing is
/// left to restore.
final class TablePrompt {
  let document: TableDocument
  let delegate: TablePolicyDelegate
  let terminal: Terminal
  let invocation: Invocation
  /// The first row of the page, and the row after its last: Enter goes on
  /// from there, whatever the terminal's size is now.
  private var top = 0
  private var pageEnd = 0
  private var lastSearch: [UInt8] = []
  /// The row the last search found: `/` alone goes on after it.
  private var lastFound: Int?

  init(document: TableDocument, delegate: TablePolicyDelegate, terminal: Terminal, invocation: Invocation) {
    self.document = document
    self.delegate = delegate
    self.terminal = terminal
    self.invocation = invocation
  }

  var table: Table { document.table }

  func run() throws -> Int32 {
    showPage()
    asking: while true {
      let question = fitting("Row (number, S:R or /text; Enter: next page, p: previous, q: quit): ", or: "Row (N, /text, Enter, p, q): ")
      guard let answer = terminal.ask(question) else { break }
      let text = answer.trimmingSpaces()
      switch text {
      case "q":
        break asking
      case "", "n":
        if pageEnd >= table.count {
          terminal.show("(the last page)\n")
        } else {
          top = pageEnd
        }
        showPage()
      case "p":
        top = pageStart(before: top)
        showPage()
      default:
        if text.hasPrefix("/") {
          guard try search(ByteString.bytes(String(text.dropFirst()))) else { break asking }
        } else if let n = try? RowAddress.row(text, in: table) {
          guard try choose(n) else { break asking }
        } else {
          terminal.show("'\(VisibleText.escape(text))' is not a row of this table (1-\(table.count), or S:R).\n")
        }
      }
    }
    if document.isEdited {
      try document.save()
      terminal.show("Wrote \(VisibleText.escape(document.destination ?? "")).\n")
    }
    return 0
  }

  /// `long` when it leaves room for an answer on the terminal's line, else
  /// `short`: a question that wraps pushes the top of the page away.
  private func fitting(_ long: String, or short: String) -> String {
    long.count + 6 <= terminal.size().columns ? long : short
  }

  /// Lines a page may take (leaving room for the "(rows ...)" line, the
  /// prompt and a message) and columns.
  private func pageSize() -> (lines: Int, columns: Int) {
    let size = terminal.size()
    return (max(1, size.rows - 3), size.columns)
  }

  /// Whether row `n` starts a section that gets a header line.
  private func hasHeader(_ n: Int) -> Bool { table.sectionCount > 1 && table.indexPath(of: n).row == 0 }

  /// The first row of the page that ends just before row `end`.
  private func pageStart(before end: Int) -> Int {
    let lines = pageSize().lines
    var n = min(end, table.count)
    var used = 0
    while n > 0 {
      let needed = hasHeader(n - 1) ? 2 : 1
      if used + needed > lines { break }
      used += needed
      n -= 1
    }
    return n == end ? max(0, end - 1) : n
  }

  /// The rows from `top`, as many as the terminal holds now, section
  /// headers counted.
  private func showPage() {
    let (lines, columns) = pageSize()
    guard table.count > 0 else {
      pageEnd = 0
      terminal.show("(no rows)\n")
      return
    }
    top = min(top, table.count - 1)
    var out = ""
    let numberWidth = String(table.count).count
    var used = 0
    var n = top
    while n < table.count {
      let header = hasHeader(n)
      let needed = header ? 2 : 1
      // At least one row, however small the terminal.
      if used + needed > lines && n > top { break }
      if header { out += "── section \(table.indexPath(of: n).section + 1) ──\n" }
      out += line(n, numberWidth: numberWidth, columns: columns) + "\n"
      used += needed
      n += 1
    }
    pageEnd = n
    out += "(rows \(top + 1)-\(n) of \(table.count)\(document.selection.isEmpty ? "" : ", \(document.selection.count) selected"))\n"
    terminal.show(out)
  }

  /// `  12 * text`, the row's text made visible and cut to the width.
  private func line(_ n: Int, numberWidth: Int, columns: Int) -> String {
    let number = String(n + 1)
    let mark = document.selection.contains(n) ? "*" : " "
    let lead = String(repeating: " ", count: max(0, numberWidth - number.count)) + number + " " + mark + " "
    return lead + visible(n, room: columns - lead.count - 1)
  }

  /// Row `n`'s text made visible, at most `room` columns of it (the last
  /// one `…` when it is cut).
  private func visible(_ n: Int, room: Int) -> String {
    let room = max(1, room)
    // Only the start of a long row is needed: a bounded amount is escaped.
    let shown = VisibleText.escape(table.content(n).prefix(room * 4))
    let (fitting, width) = DisplayWidth.prefix(shown, fitting: room)
    let cut = fitting.count < shown.count || table.content(n).count > room * 4
    guard cut else { return fitting }
    return width >= room ? DisplayWidth.prefix(shown, fitting: room - 1).text + "…" : fitting + "…"
  }

  /// Finds the next row that holds `query` (any case when it has no
  /// capital letter) from the top of the page, or for `/` alone the next
  /// row after the last one found that holds the last query, round to the
  /// first; offers its menu. Returns false when the user quits there.
  private func search(_ query: [UInt8]) throws -> Bool {
    let repeating = query.isEmpty
    let text = repeating ? lastSearch : query
    guard !text.isEmpty, table.count > 0 else {
      terminal.show("Search for what? (/text)\n")
      return true
    }
    lastSearch = text
    let start = repeating ? (lastFound ?? top - 1) + 1 : top
    let finder = RowFinder(text)
    for step in 0..<table.count {
      let n = (start + step) % table.count
      if finder.matches(table.content(n)) {
        lastFound = n
        top = n
        showPage()
        return try choose(n)
      }
    }
    lastFound = nil
    terminal.show("No row holds '\(VisibleText.escape(text))'.\n")
    return true
  }

  /// The menu of row `n`: the allowed actions, numbered, with their
  /// letters. Returns false when the user quits at it (q or end of input).
  private func choose(_ n: Int) throws -> Bool {
    let path = table.indexPath(of: n)
    guard delegate.shouldShowMenu(forRowAt: path) else {
      terminal.show("Row \(n + 1) has no menu: the policy hides it.\n")
      return true
    }
    // The board may have changed since the last menu (a copy, or another
    // program's): paste is offered on what it holds now.
    delegate.boardMayHaveChanged()
    let actions = EditAction.allCases.filter { delegate.canPerform($0, forRowAt: path) }
    guard !actions.isEmpty else {
      terminal.show("No action is allowed on row \(n + 1).\n")
      return true
    }
    let title = "Row \(n + 1): "
    var menu = title + visible(n, room: pageSize().columns - title.count - 1) + "\n"
    for (i, action) in actions.enumerated() { menu += "  \(i + 1)) [\(action.shortcut)] \(action.title)\n" }
    terminal.show(menu)
    guard let reply = terminal.ask(fitting("Action (number or letter; Enter: back, q: quit): ", or: "Action (N or letter, q): ")) else {
      return false
    }
    let answer = reply.trimmingSpaces()
    if answer.isEmpty { return true }
    if answer == "q" { return false }
    let picked: EditAction?
    if let k = WholeNumber.value(answer, as: Int.self), k >= 1, k <= actions.count {
      picked = actions[k - 1]
    } else {
      picked = actions.first { String($0.shortcut) == answer.lowercased() }
    }
    guard let action = picked else {
      terminal.show("'\(VisibleText.escape(answer))' is not in the menu.\n")
      return true
    }
    // Copy and cut take the selected rows, when there are some.
    var rows = [n]
    if (action == .copy || action == .cut) && !document.selection.isEmpty {
      rows = document.selection.union([n]).sorted()
    }
    do {
      let outcome = try delegate.perform(action, forRowsAt: rows.map { table.indexPath(of: $0) })
      terminal.show(outcome.message + (outcome.edited ? " (written to \(VisibleText.escape(document.destination ?? "")) when you quit)" : "") + "\n")
      if action == .share {
        _ = try TableCommand.share(outcome.shared, invocation: invocation, pasteboard: delegate.pasteboard)
      }
    } catch let error as PasteboardError {
      terminal.show("\(VisibleText.escape(error.description))\n")
    }
    return true
  }
}

/// Whether a row holds a search's text: as it is, or, when the text has
/// no capital letter, in any case (ASCII letters are folded byte by byte;
/// text with other letters is compared lowercased as Unicode).
struct RowFinder {
  let needle: [UInt8]
  let folded: Bool
  let unicode: Bool

  init(_ text: [UInt8]) {
    let string = String(decoding: text, as: UTF8.self)
    folded = string == string.lowercased()
    unicode = folded && text.contains { $0 >= 0x80 }
    needle = text
  }

  func matches(_ row: ArraySlice<UInt8>) -> Bool {
    if unicode { return RowFinder.find(Array(String(decoding: row, as: UTF8.self).lowercased().utf8)[...], needle) }
    if folded && row.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) {
      return RowFinder.find(ArraySlice(row.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }), needle)
    }
    return RowFinder.find(row, needle)
  }

  /// Whether `needle` occurs in `hay`.
  static func find(_ hay: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, needle.count <= hay.count else { return needle.isEmpty }
    var i = hay.startIndex
    let last = hay.endIndex - needle.count
    while i <= last {
      guard let at = hay[i...last].firstIndex(of: first) else { return false }
      if hay[at..<at + needle.count].elementsEqual(needle) { return true }
      i = at + 1
    }
    return false
  }
}
