/// The edit actions of a table's menu (UIKit's standard edit actions:
/// cut:, copy:, paste:, delete:, select:, selectAll:, plus share), in the
/// order the menu shows them, each with its fixed shortcut letter.
public enum EditAction: String, CaseIterable, Comparable {
  case copy, cut, paste, delete, select
  case selectAll = "select-all"
  case share

  /// The letter that picks the action in the menu (never `q`).
  public var shortcut: Character {
    switch self {
    case .copy: return "c"
    case .cut: return "x"
    case .paste: return "v"
    case .delete: return "d"
    case .select: return "s"
    case .selectAll: return "a"
    case .share: return "h"
    }
  }

  public var title: String {
    switch self {
    case .copy: return "Copy"
    case .cut: return "Cut"
    case .paste: return "Paste after"
    case .delete: return "Delete"
    case .select: return "Select"
    case .selectAll: return "Select all"
    case .share: return "Share"
    }
  }

  /// Whether the action changes the table.
  public var edits: Bool { self == .cut || self == .paste || self == .delete }

  public static func < (a: EditAction, b: EditAction) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}
