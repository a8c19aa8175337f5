import CHiredis
import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// One connection to the server through hiredis, authenticated and on its
/// database, with every wait bounded by `timeoutMilliseconds`: a server
/// that is unreachable, refuses the password or stops answering is
/// `.unavailable`, with the address (never the password) and the cause.
final class RedisConnection {
  let address: RedisAddress
  let timeoutMilliseconds: Int64
  fileprivate let context: UnsafeMutablePointer<redisContext>

  /// Connects, authenticates and selects the database.
  init(address: RedisAddress, timeoutMilliseconds: Int64) throws {
    self.address = address
    self.timeoutMilliseconds = timeoutMilliseconds
    let tv = timeval(tv_sec: Int(timeoutMilliseconds / 1000), tv_usec: Int(timeoutMilliseconds % 1000) * 1000)
    let made: UnsafeMutablePointer<redisContext>?
    switch address.endpoint {
    case .tcp(let host, let port): made = redisConnectWithTimeout(host, port, tv)
    case .unix(let path): made = redisConnectUnixWithTimeout(path, tv)
    }
    guard let made else { throw PasteboardError.unavailable("cannot reach the Redis server at \(address): out of memory") }
    context = made
    if made.pointee.err != 0 {
      let cause = String(cString: pb_redis_errstr(made))
      throw PasteboardError.unavailable("cannot reach the Redis server at \(address): \(cause)")
    }
    redisSetTimeout(made, tv)
    if let password = address.password {
      let args = (address.user.map { ["AUTH", $0] } ?? ["AUTH"]) + [password]
      if case .error(let message) = try command(args.map { Array($0.utf8) }) {
        throw PasteboardError.unavailable("the Redis server at \(address) refused the password: \(message)")
      }
    }
    if address.database != 0, case .error(let message) = try command(["SELECT", String(address.database)].map { Array($0.utf8) }) {
      throw PasteboardError.unavailable("the Redis server at \(address) refused database \(address.database): \(message)")
    }
  }

  deinit { redisFree(context) }

  /// The socket, for waiting on published messages.
  var fileDescriptor: Int32 { context.pointee.fd }

  /// Sends one command and waits for its reply (an error reply is a reply).
  func command(_ args: [[UInt8]]) throws -> RedisReply {
    try append(args)
    return try reply()
  }

  /// Queues a command without waiting (pipelining); `reply()` takes the
  /// replies in order.
  func append(_ args: [[UInt8]]) throws {
    let status = RedisConnection.withArgv(args) { argv, lengths in
      redisAppendCommandArgv(context, Int32(args.count), argv, lengths)
    }
    if status != REDIS_OK { throw connectionError() }
  }

  /// The next reply, sending what is queued first.
  func reply() throws -> RedisReply {
    var raw: UnsafeMutableRawPointer?
    guard RedisConnection.withoutBrokenPipeSignal({ redisGetReply(context, &raw) }) == REDIS_OK, let raw else {
      throw connectionError()
    }
    defer { freeReplyObject(raw) }
    return RedisReply(UnsafePointer(raw.assumingMemoryBound(to: redisReply.self)))
  }

  /// The replies that have arrived, reading the socket once (it must be
  /// readable, or this waits up to the timeout).
  func availableReplies() throws -> [RedisReply] {
    guard redisBufferRead(context) == REDIS_OK else { throw connectionError() }
    var replies: [RedisReply] = []
    while true {
      var raw: UnsafeMutableRawPointer?
      guard redisGetReplyFromReader(context, &raw) == REDIS_OK else { throw connectionError() }
      guard let raw else { return replies }
      replies.append(RedisReply(UnsafePointer(raw.assumingMemoryBound(to: redisReply.self))))
      freeReplyObject(raw)
    }
  }

  /// What went wrong with the connection, in the user's words.
  fileprivate func connectionError() -> PasteboardError {
    let cause = String(cString: pb_redis_errstr(context))
    if context.pointee.err == REDIS_ERR_IO && (errno == EAGAIN || errno == EWOULDBLOCK) {
      return .unavailable("the Redis server at \(address) did not answer within \(describeDuration(timeoutMilliseconds))")
    }
    if context.pointee.err == REDIS_ERR_EOF {
      return .unavailable("the Redis server at \(address) closed the connection")
    }
    return .unavailable("lost the Redis server at \(address): \(cause)")
  }

  /// Calls `body` with C pointers to the arguments and their lengths
  /// (binary safe: NULs and any byte pass through).
  private static func withArgv<R>(
    _ args: [[UInt8]], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> R
  ) -> R {
    var pointers: [UnsafePointer<CChar>?] = []
    var lengths: [Int] = []
    pointers.reserveCapacity(args.count)
    func nest(_ i: Int) -> R {
      guard i < args.count else {
        return pointers.withUnsafeMutableBufferPointer { p in lengths.withUnsafeBufferPointer { body(p.baseAddress!, $0.baseAddress!) } }
      }
      return args[i].withUnsafeBytes { b in
        pointers.append((b.baseAddress ?? UnsafeRawPointer(emptyArgument)).assumingMemoryBound(to: CChar.self))
        lengths.append(b.count)
        return nest(i + 1)
      }
    }
    return nest(0)
  }

  /// Where an empty argument points (hiredis copies zero bytes from it).
  private static let emptyArgument = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
}

extension RedisConnection {
  /// Sends what is queued without waiting for replies, so that a
  /// pipelined upload never holds more than one command in memory.
  func flush() throws {
    var done: Int32 = 0
    while done == 0 {
      guard RedisConnection.withoutBrokenPipeSignal({ redisBufferWrite(context, &done) }) == REDIS_OK else {
        throw connectionError()
      }
    }
  }

  /// Runs `body` with SIGPIPE ignored: a server gone mid-transfer is an
  /// error to report (hiredis writes with write(2), which would raise the
  /// signal and end pb without a word). pb's own output keeps the usual
  /// SIGPIPE outside.
  static func withoutBrokenPipeSignal<R>(_ body: () -> R) -> R {
    let previous = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, previous) }
    return body()
  }
}
