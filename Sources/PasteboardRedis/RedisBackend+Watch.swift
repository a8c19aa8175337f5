import PasteboardKit

/// Watching through pub/sub: every script that changes a board publishes
/// its new count on the board's channel (`PREFIX changes:BOARD`), so a
/// watch waits on a subscribed connection of its own and asks nothing of
/// the server's configuration (keyspace notifications stay as they are).
extension RedisBackend: ChangeWatching {
  public func watchChanges(of boards: [BoardName]) throws -> BoardWatch {
    let subscription = try RedisConnection(address: settings.address, timeoutMilliseconds: timeoutMilliseconds)
    let channels = boards.map { key("changes:\($0.rawValue)") }
    try subscription.append((["SUBSCRIBE"] + channels).map { Array($0.utf8) })
    for _ in channels {
      if case .error(let message) = try subscription.reply() { throw serverFailure(message, doing: "subscription") }
    }
    return try BoardWatch(
      boards: boards, wake: Descriptor(subscription.fileDescriptor, owned: false),
      drain: { _ = try subscription.availableReplies() },
      read: { board in try self.read(board, purpose: .inspect) })
  }
}
