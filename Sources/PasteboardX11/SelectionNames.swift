import CX11
import PasteboardKit

/// Which X11 selection holds a board: `general` is CLIPBOARD, `primary`
/// PRIMARY, `secondary` SECONDARY, and any other board the selection of
/// the same name (a private selection, ICCCM 2.6.1).
enum SelectionNames {
  static func atomName(for board: BoardName) -> String {
    switch board {
    case .general: return "CLIPBOARD"
    case .primary: return "PRIMARY"
    case .secondary: return "SECONDARY"
    default: return board.rawValue
    }
  }

  /// The board a selection holds, for messages: CLIPBOARD is `general`.
  static func boardName(for selection: String) -> String {
    switch selection {
    case "CLIPBOARD": return BoardName.general.rawValue
    case "PRIMARY": return BoardName.primary.rawValue
    case "SECONDARY": return BoardName.secondary.rawValue
    default: return selection
    }
  }

  static func selection(_ name: String, on connection: XConnection) -> SelectionOwner.Selection {
    SelectionOwner.Selection(atom: connection.atom(name), name: name)
  }
}
