import PasteboardKit

/// History on the server: a list per board of the items kept (newest
/// first), pruned by the write script to the file backend's limits.
extension RedisBackend: HistoryKeeping {
  public func history(of board: BoardName) throws -> [HistoryEntry] {
    let reply = try run(RedisScripts.history, [board.rawValue], doing: "history read")
    return reply.elements.enumerated().map { index, entry in
      let f = entry.elements
      let count = UInt64(f.first?.integer ?? 0)
      guard f.count == 7 else {
        return HistoryEntry(
          number: index + 1, changeCount: count, writtenAt: 0, types: [], size: 0, sample: [],
          damage: "its content is gone from the server")
      }
      let types = (f[2].text ?? "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let firstCount = (f[4].text ?? "").split(separator: ",").first.flatMap { Int($0) } ?? types.count
      let size = (f[3].text ?? "").split(separator: ",").first.flatMap { Int64($0) } ?? 0
      return HistoryEntry(
        number: index + 1, changeCount: count, writtenAt: f[5].integer ?? 0, types: Array(types.prefix(firstCount)),
        size: size, sample: Array((f[6].bytes ?? []).prefix(Int(size))), damage: nil)
    }
  }

  public func historyContents(of board: BoardName, number: Int) throws -> BoardContents {
    let c = try connected()
    let list = key("history:\(board.rawValue)")
    let entry = try c.command(["LINDEX", list, String(number - 1)].map { Array($0.utf8) })
    guard let text = entry.text else {
      if case .error(let message) = entry { throw serverFailure(message, doing: "history read") }
      let length = try c.command(["LLEN", list].map { Array($0.utf8) }).integer ?? 0
      throw PasteboardError.nothingThere("board '\(board)' has \(length) history entries, not \(number)")
    }
    let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2, let count = UInt64(parts[0]) else {
      throw PasteboardError.failed("history entry \(number) of board '\(board)' is damaged")
    }
    let fields = try c.command((["HMGET", key("item:\(parts[1])")] + RedisScripts.itemFields).map { Array($0.utf8) })
    guard fields.elements.first?.text != nil else {
      throw PasteboardError.nothingThere("history entry \(number) of board '\(board)' is gone")
    }
    let item = try StoredItem(id: parts[1], fields: fields.elements, address: settings.address)
    return BoardContents(items: item.items(from: self, board: board), changeCount: count, writtenAt: item.writtenAt)
  }

  public func clearHistory(of board: BoardName) throws {
    _ = try run(RedisScripts.clearHistory, [board.rawValue, String(RedisBackend.graceMilliseconds)], doing: "history clear")
  }
}
