import PasteboardKit

/// Uploads the bytes of an item's representations as staged pieces (keys
/// that expire unless a write script swaps them in), streaming: each piece
/// is sent as soon as it is read, a few await their acknowledgement, and
/// memory holds about one piece whatever the size.
struct ItemStager {
  let backend: RedisBackend
  /// Seals each piece when the content is sensitive.
  let box: SecretBox?

  /// What the write script needs: the item's id and its fields (types,
  /// sizes, blobs, src, items, nonce, total).
  struct Staged {
    let id: String
    let fields: [[UInt8]]
  }

  init(backend: RedisBackend, box: SecretBox?) throws {
    self.backend = backend
    self.box = box
  }

  /// Uploads the pieces; on failure the connection is dropped (replies
  /// may still be on their way) and the pieces sent expire.
  func stage(_ items: [PasteboardItem]) throws -> Staged {
    do {
      return try upload(items)
    } catch {
      backend.disconnect()
      throw error
    }
  }

  private func upload(_ items: [PasteboardItem]) throws -> Staged {
    let id = SecretBox.randomBytes(16).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    let nonce = box == nil ? [] : SecretBox.randomBytes(SecretBox.itemNonceBytes)
    let connection = try backend.connected()
    let ttl = Array(String(backend.stagingMilliseconds).utf8)
    var awaiting = 0
    func settle(leaving limit: Int) throws {
      while awaiting > limit {
        let reply = try connection.reply()
        awaiting -= 1
        if case .error(let message) = reply { throw backend.serverFailure(message, doing: "write") }
      }
    }
    var blobs: [Int] = []
    var blobSizes: [Int64] = []
    var blobOfStream: [ObjectIdentifier: Int] = [:]
    var types: [String] = []
    var sizes: [Int64] = []
    var source: [Int] = []
    for item in items {
      for rep in item.representations {
        types.append(rep.type)
        if let stream = rep.payload.streamIdentity, let j = blobOfStream[stream] {
          source.append(j)
          sizes.append(blobSizes[j])
          continue
        }
        let j = blobs.count
        var n = 0
        let size = try rep.payload.forEachPiece(size: RedisBackend.pieceSize) { piece, isLast in
          let bytes = box.map { $0.seal(piece, nonce: SecretBox.nonce(item: nonce, blob: j, piece: n, isLast: isLast)) } ?? piece
          try connection.append([Array("SET".utf8), Array(backend.key("piece:\(id):\(j):\(n)").utf8), bytes, Array("PX".utf8), ttl])
          try connection.flush()
          n += 1
          awaiting += 1
          try settle(leaving: RedisBackend.writeAhead)
        }
        if let stream = rep.payload.streamIdentity { blobOfStream[stream] = j }
        blobs.append(n)
        blobSizes.append(size)
        source.append(j)
        sizes.append(size)
      }
    }
    try settle(leaving: 0)
    func list<T>(_ values: [T]) -> [UInt8] { Array(values.map { "\($0)" }.joined(separator: ",").utf8) }
    let total = blobSizes.reduce(0, +)
    return Staged(
      id: id,
      fields: [Array(types.joined(separator: "\n").utf8), list(sizes), list(blobs), list(source),
               list(items.map(\.representations.count)), nonce, Array(String(total).utf8)])
  }
}

extension String {
  func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
