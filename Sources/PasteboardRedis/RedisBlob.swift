import PasteboardKit

/// The bytes of one representation on the server, read piece by piece
/// when they are pasted: a few pieces are asked for ahead (pipelined), so
/// a large paste runs at the connection's speed while memory holds a few
/// pieces, whatever the size.
///
/// Pieces of a replaced or cleared item live on for a grace period, so a
/// paste that began before the change finishes with the content it
/// began with; a piece that is gone (the content expired meanwhile) fails
/// the paste rather than cutting it short.
final class RedisBlob: ContentProvider {
  let backend: RedisBackend
  let board: BoardName
  let item: StoredItem
  let blob: Int
  let pieces: Int
  let size: Int64

  /// How many pieces are asked for before the first one is taken.
  static let readAhead = 4

  init(backend: RedisBackend, board: BoardName, item: StoredItem, blob: Int, pieces: Int, size: Int64) {
    self.backend = backend
    self.board = board
    self.item = item
    self.blob = blob
    self.pieces = pieces
    self.size = size
  }

  var byteCount: Int64? { size }

  func write(to sink: Descriptor) throws -> Int64 {
    var written: Int64 = 0
    try forEachPiece { piece in
      try sink.writeAll(piece)
      written += Int64(piece.count)
    }
    return written
  }

  func load() throws -> [UInt8] {
    var all: [UInt8] = []
    try forEachPiece { all += $0 }
    return all
  }

  /// Fetches the pieces in order, opening each when the item is sealed,
  /// and checks that they add up to the size the item records. On
  /// failure the connection is dropped: pieces asked for ahead may still
  /// be on their way.
  private func forEachPiece(_ body: ([UInt8]) throws -> Void) throws {
    do {
      try fetchPieces(body)
    } catch {
      backend.disconnect()
      throw error
    }
  }

  private func fetchPieces(_ body: ([UInt8]) throws -> Void) throws {
    let box = item.sensitive ? try backend.secretBox(reading: board) : nil
    let connection = try backend.connected()
    var asked = 0
    var total: Int64 = 0
    for n in 0..<pieces {
      while asked < pieces && asked < n + RedisBlob.readAhead {
        try connection.append(["GET", backend.key("piece:\(item.id):\(blob):\(asked)")].map { Array($0.utf8) })
        asked += 1
      }
      let reply = try connection.reply()
      guard var bytes = reply.bytes else {
        if case .error(let message) = reply { throw backend.serverFailure(message, doing: "paste") }
        throw PasteboardError.failed("the content of board '\(board)' expired or was removed on the server during the paste")
      }
      if let box {
        let nonce = SecretBox.nonce(item: item.nonce, blob: blob, piece: n, isLast: n == pieces - 1)
        guard let plain = box.open(bytes, nonce: nonce) else {
          throw PasteboardError.unavailable(
            "the sensitive content of board '\(board)' does not open with the key in PB_REDIS_KEY_FILE (another key sealed it, or it was altered)")
        }
        bytes = plain
      }
      total += Int64(bytes.count)
      try body(bytes)
    }
    guard total == size else {
      throw PasteboardError.failed("the content of board '\(board)' on the server holds \(total) bytes, not \(size): it is damaged")
    }
  }
}
