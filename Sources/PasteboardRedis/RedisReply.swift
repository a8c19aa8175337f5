import CHiredis

/// One reply of the server, copied out of hiredis's reply object.
enum RedisReply {
  case string([UInt8])
  case integer(Int64)
  case array([RedisReply])
  case null
  case status(String)
  case error(String)

  init(_ r: UnsafePointer<redisReply>) {
    let reply = r.pointee
    switch reply.type {
    case REDIS_REPLY_STRING:
      self = .string(reply.len == 0 ? [] : Array(UnsafeRawBufferPointer(start: reply.str, count: reply.len)))
    case REDIS_REPLY_INTEGER: self = .integer(Int64(reply.integer))
    case REDIS_REPLY_ARRAY:
      self = .array((0..<reply.elements).map { RedisReply(UnsafePointer(reply.element[$0]!)) })
    case REDIS_REPLY_STATUS: self = .status(String(cString: reply.str))
    case REDIS_REPLY_ERROR: self = .error(String(cString: reply.str))
    default: self = .null
    }
  }

  var bytes: [UInt8]? {
    if case .string(let b) = self { return b }
    return nil
  }

  var text: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

  var integer: Int64? {
    switch self {
    case .integer(let n): return n
    case .string(let b): return Int64(String(decoding: b, as: UTF8.self))
    default: return nil
    }
  }

  var elements: [RedisReply] {
    if case .array(let a) = self { return a }
    return []
  }
}

/// An error reply of the server, for the backend to put into words.
struct RedisServerError: Error {
  let message: String
}
