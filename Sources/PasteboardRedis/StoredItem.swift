import PasteboardKit

/// An item as the server describes it (the fields of `pb:item:ID`), turned
/// into pasteboard items whose representations stream their pieces only
/// when they are read.
struct StoredItem {
  let id: String
  let types: [String]
  let sizes: [Int64]
  /// The piece count of each blob (a blob holds the bytes of one or more
  /// representations: one stream offered under several types).
  let blobs: [Int]
  /// The blob of each representation.
  let source: [Int]
  /// How many representations each item has.
  let itemCounts: [Int]
  let sensitive: Bool
  let nonce: [UInt8]
  let writtenAt: Int64?
  let expiresAt: Int64?

  /// Parses the fields in the order of `RedisScripts.itemFields`.
  /// - Throws: `.failed` when they do not describe an item.
  init(id: String, fields: [RedisReply], address: RedisAddress) throws {
    func numbers(_ r: RedisReply) -> [Int64]? {
      let t = r.text ?? ""
      if t.isEmpty { return [] }
      let parts = t.split(separator: ",", omittingEmptySubsequences: false).map { Int64($0) }
      return parts.contains(nil) ? nil : parts.map { $0! }
    }
    guard fields.count == RedisScripts.itemFields.count,
      let sizes = numbers(fields[1]), let blobs = numbers(fields[2]), let source = numbers(fields[3]),
      let items = numbers(fields[4])
    else { throw PasteboardError.failed("item \(id) on the Redis server at \(address) is damaged") }
    let typeText = fields[0].text ?? ""
    self.id = id
    types = typeText.isEmpty && sizes.isEmpty ? [] : typeText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    self.sizes = sizes
    self.blobs = blobs.map(Int.init)
    self.source = source.map(Int.init)
    itemCounts = items.map(Int.init)
    sensitive = fields[5].text == "1"
    nonce = fields[6].bytes ?? []
    writtenAt = fields[7].integer
    expiresAt = fields[8].integer
    guard types.count == sizes.count, self.source.count == types.count, itemCounts.reduce(0, +) == types.count,
      self.source.allSatisfy({ $0 >= 0 && $0 < self.blobs.count }), !sensitive || nonce.count == SecretBox.itemNonceBytes
    else { throw PasteboardError.failed("item \(id) on the Redis server at \(address) is damaged") }
  }

  /// The items, each representation fetched from `backend` when read.
  func items(from backend: RedisBackend, board: BoardName) -> [PasteboardItem] {
    var next = 0
    return itemCounts.map { count in
      defer { next += count }
      return PasteboardItem((next..<next + count).map { i in
        let blob = RedisBlob(
          backend: backend, board: board, item: self, blob: source[i], pieces: blobs[source[i]], size: sizes[i])
        return Representation(type: types[i], payload: .provider(blob))
      })
    }
  }
}
