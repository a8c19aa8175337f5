import PasteboardKit

/// Boards kept in a Redis server (Redis 6 or later, or Valkey), shared by
/// every machine pointed at it. pb-redis(7) documents the keys.
///
/// Semantics are the file backend's, held by the server: a write stages
/// its pieces under keys that expire, then one script swaps them in and
/// raises the count, so a client killed mid-transfer leaves the old
/// content and garbage that expires; paste limits are counted by a
/// script; `--expire` is the server's own expiry. Nothing connects until
/// the first operation, so choosing the backend costs nothing.
public final class RedisBackend: PasteboardBackend {
  public let kind = "redis"
  public let settings: RedisSettings
  public let historyLimits: HistoryLimits
  /// Bounds every wait on the server: connecting, each reply.
  public let timeoutMilliseconds: Int64

  /// The size of a stored piece: large enough that a transfer runs at the
  /// connection's speed, small enough that memory holds a few.
  public static let pieceSize = 256 << 10
  /// How long staged pieces live unless a write swaps them in (a
  /// variable so that tests can see a write outlive its pieces).
  var stagingMilliseconds: Int64 = 10 * 60_000
  /// How long a replaced item lives on for readers still streaming it.
  static let graceMilliseconds: Int64 = 60_000
  /// How long sensitive content lives without `--expire`.
  public static let sensitiveMilliseconds: Int64 = 10 * 60_000
  /// How many staged pieces may await their acknowledgement.
  static let writeAhead = 8

  private var connection: RedisConnection?
  private var box: SecretBox?

  public init(settings: RedisSettings, history: HistoryLimits = HistoryLimits(), timeoutMilliseconds: Int64 = 5000) {
    self.settings = settings
    historyLimits = history
    self.timeoutMilliseconds = max(1, timeoutMilliseconds)
  }

  /// The connection, made on first use.
  func connected() throws -> RedisConnection {
    if let connection { return connection }
    let made = try RedisConnection(address: settings.address, timeoutMilliseconds: timeoutMilliseconds)
    connection = made
    return made
  }

  /// Drops the connection after a transfer failed part-way, with replies
  /// still on their way: the next operation starts on a fresh one.
  func disconnect() { connection = nil }

  func key(_ suffix: String) -> String { settings.prefix + suffix }

  /// The key for sensitive content; `action` says what needs it.
  func secretBox(for action: String) throws -> SecretBox {
    if let box { return box }
    guard let path = settings.keyFile else {
      throw PasteboardError.unavailable(
        "\(action) on the Redis backend needs a key: set PB_REDIS_KEY_FILE to a file of 32 random bytes, mode 0600 (head -c 32 /dev/urandom > FILE)")
    }
    let loaded = try SecretBox.load(path: path)
    box = loaded
    return loaded
  }

  func secretBox(reading board: BoardName) throws -> SecretBox {
    try secretBox(for: "pasting the sensitive content of board '\(board)'")
  }

  /// Runs a script (EVAL) with `args` after the key prefix.
  func run(_ script: String, _ args: [[UInt8]], doing action: String) throws -> RedisReply {
    let reply = try evaluate(script, args)
    if case .error(let message) = reply { throw serverFailure(message, doing: action) }
    return reply
  }

  /// The script's reply, an error reply included.
  func evaluate(_ script: String, _ args: [[UInt8]]) throws -> RedisReply {
    try connected().command([Array("EVAL".utf8), Array(script.utf8), Array("0".utf8), Array(settings.prefix.utf8)] + args)
  }

  func run(_ script: String, _ args: [String], doing action: String) throws -> RedisReply {
    try run(script, args.map { Array($0.utf8) }, doing: action)
  }

  /// An error reply in the user's words: authentication and permission
  /// are the backend being unavailable (exit 4), the rest a failure.
  func serverFailure(_ message: String, doing action: String) -> PasteboardError {
    let address = settings.address
    if message.hasPrefix("NOAUTH") {
      return .unavailable("the Redis server at \(address) needs a password, and the URL gives none")
    }
    if message.hasPrefix("WRONGPASS") || message.hasPrefix("NOPERM") {
      return .unavailable("the Redis server at \(address) refused the \(action): \(message)")
    }
    return .failed("the Redis server at \(address) refused the \(action): \(message)")
  }

  public func read(_ board: BoardName, purpose: ReadPurpose) throws -> BoardContents {
    let reply = try run(
      RedisScripts.read, [board.rawValue, purpose == .paste ? "1" : "0", String(RedisBackend.graceMilliseconds)], doing: "read")
    let fields = reply.elements
    let count = UInt64(fields.first?.integer ?? 0)
    guard fields.count == 3 + RedisScripts.itemFields.count, let id = fields[1].text else {
      return BoardContents(items: [], changeCount: count)
    }
    let item = try StoredItem(id: id, fields: Array(fields[3...]), address: settings.address)
    let left = fields[2].integer ?? -1
    return BoardContents(
      items: item.items(from: self, board: board), changeCount: count, sensitive: item.sensitive,
      expiresAt: item.expiresAt, pastesLeft: left >= 0 ? Int(left) : nil, writtenAt: item.writtenAt)
  }

  public func write(_ items: [PasteboardItem], to boards: [BoardName], options: WriteOptions) throws {
    let box = options.sensitive ? try secretBox(for: "--sensitive") : nil
    let staged = try ItemStager(backend: self, box: box).stage(items)
    var ttl: Int64 = 0
    if let expiresAt = options.expiresAt {
      ttl = max(1, expiresAt - WallClock.nowMilliseconds())
    } else if options.sensitive {
      ttl = RedisBackend.sensitiveMilliseconds
    }
    let h = historyLimits
    let args: [[UInt8]] =
      [staged.id, String(ttl), options.pasteLimit.map(String.init) ?? "", options.sensitive ? "1" : "0",
       String(h.entries), String(h.entryBytes), String(h.totalBytes), String(RedisBackend.graceMilliseconds)].map { Array($0.utf8) }
      + staged.fields + boards.map { Array($0.rawValue.utf8) }
    _ = try run(RedisScripts.write, args, doing: "write")
  }

  public func clear(_ boards: [BoardName], ifChangeCount: UInt64?) throws {
    let args = [ifChangeCount.map(String.init) ?? "", String(RedisBackend.graceMilliseconds)] + boards.map(\.rawValue)
    let reply = try evaluate(RedisScripts.clear, args.map { Array($0.utf8) })
    guard case .error(let message) = reply else { return }
    let words = message.split(separator: " ", maxSplits: 2)
    guard words.count == 3, words[0] == "PBREFUSED" else { throw serverFailure(message, doing: "clear") }
    throw PasteboardError.refused("board '\(words[2])' has changed (count \(words[1]), expected \(ifChangeCount ?? 0)); nothing cleared")
  }

  public func changeCount(of board: BoardName) throws -> UInt64 {
    let reply = try connected().command([Array("GET".utf8), Array(key("count:\(board.rawValue)").utf8)])
    if case .error(let message) = reply { throw serverFailure(message, doing: "read") }
    return UInt64(reply.integer ?? 0)
  }

  public func boardNames() throws -> [BoardName] {
    let reply = try connected().command([Array("SMEMBERS".utf8), Array(key("boards").utf8)])
    if case .error(let message) = reply { throw serverFailure(message, doing: "read") }
    return reply.elements.compactMap { $0.text.flatMap { try? BoardName($0) } }.sorted()
  }
}
