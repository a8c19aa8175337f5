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
}

/// Runs `body`, turning an `.invalid` value error into a usage error (exit 2).
func usage<T>(_ body: () throws -> T) throws -> T {
  do {
    return try body()
  } catch PasteboardError.invalid(let message) {
    throw UsageError(message)
  }
}
