import PasteboardKit

extension Invocation {
  /// The boards named by `-b`, default `general`.
  func boards() throws -> [BoardName] {
    guard let text = value("board") else { return [.general] }
    return try usage { try BoardName.list(text) }
  }

  /// The one board a reading command works on.
  func singleBoard() throws -> BoardName {
    let names = try boards()
    guard names.count == 1 else {
      throw UsageError("'pb \(command?.name ?? "")' works on one board at a time")
    }
    return names[0]
  }

  /// The value of option `long` as a whole number of at least `minimum`
  /// (usage error otherwise), or nil when the option was not given.
  func number<T: FixedWidthInteger>(_ long: String, minimum: T = 0) throws -> T? {
    guard let text = value(long) else { return nil }
    return try usage { try WholeNumber.parse(text, as: T.self, for: "--" + long, minimum: minimum) }
  }
}

/// Runs `body`, turning an `.invalid` value error into a usage error (exit 2).
func usage<T>(_ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch PasteboardError.invalid(let message) {
    throw UsageError(message)
  }
}
