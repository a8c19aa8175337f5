/// The name of a board. `general` is the default; on X11 it is the
/// CLIPBOARD selection, `primary` is PRIMARY and `secondary` SECONDARY.
public struct BoardName: Hashable, Comparable, CustomStringConvertible {
  public let rawValue: String

  public static let general = BoardName(unchecked: "general")
  public static let primary = BoardName(unchecked: "primary")
  public static let secondary = BoardName(unchecked: "secondary")

  private init(unchecked: String) { rawValue = unchecked }

  /// A board name is 1 to 64 of `A-Z a-z 0-9 . _ -`, not starting with a
  /// dot: it becomes a file name and an X11 atom, so nothing else is safe.
  public init(_ name: String) throws {
    let allowed = name.utf8.allSatisfy { c in
      (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
        || c == 0x2E || c == 0x5F || c == 0x2D
    }
    guard allowed, !name.isEmpty, name.utf8.count <= 64, !name.hasPrefix(".") else {
      throw PasteboardError.invalid(
        "'\(name)' is not a board name (use 1-64 of letters, digits, '.', '_', '-'; no leading '.')")
    }
    rawValue = name
  }

  /// Parses `general,primary` into distinct names, in order.
  public static func list(_ text: String) throws -> [BoardName] {
    var names: [BoardName] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = try BoardName(String(part))
      if !names.contains(name) { names.append(name) }
    }
    return names
  }

  public var description: String { rawValue }
  public static func < (a: BoardName, b: BoardName) -> Bool { a.rawValue < b.rawValue }
}
