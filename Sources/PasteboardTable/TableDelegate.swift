import PasteboardKit

/// The three decisions of a table's edit menu, after UIKit's
/// UITableViewDelegate: whether a row gets a menu at all, which actions it
/// offers, and carrying one out.
public protocol TableDelegate: AnyObject {
  /// `tableView(_:shouldShowMenuForRowAt:)`.
  func shouldShowMenu(forRowAt path: RowPath) -> Bool
  /// `tableView(_:canPerformAction:forRowAt:withSender:)`.
  func canPerform(_ action: EditAction, forRowAt path: RowPath) -> Bool
  /// `tableView(_:performAction:forRowAt:withSender:)`, for the rows the
  /// action covers (the selection, or the chosen row).
  func perform(_ action: EditAction, forRowsAt paths: [RowPath]) throws -> TableOutcome
}

/// What an action did, for the line the user sees and for the caller.
public struct TableOutcome {
  /// "Copied row 3", "Cut 2 rows".
  public let message: String
  /// Whether the table's rows changed (it must be written back).
  public let edited: Bool
  /// For `share`: the rows' contents, to hand to the share activities.
  public let shared: [[UInt8]]

  public init(message: String, edited: Bool = false, shared: [[UInt8]] = []) {
    self.message = message
    self.edited = edited
    self.shared = shared
  }
}

/// Why an action is or is not offered for a row, for `pb table --explain`.
public struct ActionExplanation {
  public let action: EditAction
  public let allowed: Bool
  /// `FILE:LINE: RULE`, `--deny copy`, `default`, or what the table lacks.
  public let reason: String
}
