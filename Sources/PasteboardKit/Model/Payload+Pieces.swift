/// A payload read front to back in pieces of a bounded size: how a backend
/// that stores content in pieces (Redis) copies a gigabyte holding one
/// piece in memory.
extension Payload {
  /// Hands the content to `body` in pieces of at most `size` bytes, each
  /// full but the last, and says which is the last. An empty payload is
  /// one empty piece, so `body` always sees a last piece (which is also
  /// empty when `-n` dropped the newline that was all of it). Returns the
  /// byte count.
  /// - Throws: `.failed` when a stream or file cannot be read.
  @discardableResult
  public func forEachPiece(size: Int, _ body: (_ piece: [UInt8], _ isLast: Bool) throws -> Void) throws -> Int64 {
    try withoutActuallyEscaping(body) { body in
      var pieces = PieceBuffer(size: size, body: body)
      try feed(into: &pieces)
      try pieces.finish()
      return pieces.total
    }
  }

  private func feed(into pieces: inout PieceBuffer) throws {
    switch self {
    case .bytes(let b): try b.withUnsafeBytes { try pieces.append($0) }
    case .region(let r):
      var offset: Int64 = 0
      while offset < r.length {
        let chunk = try r.file.read(count: Int(min(Int64(pieces.size), r.length - offset)), at: r.offset + offset)
        if chunk.isEmpty { throw PasteboardError.failed("the stored content ended early") }
        try chunk.withUnsafeBytes { try pieces.append($0) }
        offset += Int64(chunk.count)
      }
    case .stream(let s):
      let source = try s.consume()
      defer { s.finish() }
      let start = pieces.total
      try s.prefix.withUnsafeBytes { try pieces.append($0) }
      var chunk = [UInt8](repeating: 0, count: 64 * 1024)
      while true {
        let n: Int
        do {
          n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
        } catch {
          throw PasteboardError.failed("cannot read \(s.name): \(errnoText())")
        }
        if n == 0 { break }
        try chunk.withUnsafeBytes { try pieces.append(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
      }
      if s.trimsTrailingNewline && pieces.total > start { pieces.dropFinalNewline() }
    case .concatenation(let parts):
      for part in parts { try part.feed(into: &pieces) }
    case .provider(let p): try p.load().withUnsafeBytes { try pieces.append($0) }
    }
  }
}

/// Collects bytes into pieces, handing a full piece on only when more
/// bytes follow: the bytes at the end stay held until `finish`, so a
/// trailing newline can still be dropped and the last piece is known.
private struct PieceBuffer {
  let size: Int
  let body: ([UInt8], Bool) throws -> Void
  var held: [UInt8] = []
  var total: Int64 = 0

  init(size: Int, body: @escaping ([UInt8], Bool) throws -> Void) {
    self.size = size
    self.body = body
    held.reserveCapacity(size)
  }

  mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
    var from = 0
    while from < bytes.count {
      if held.count == size {
        try body(held, false)
        held.removeAll(keepingCapacity: true)
      }
      let take = min(size - held.count, bytes.count - from)
      held.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[from..<from + take]))
      from += take
    }
    total += Int64(bytes.count)
  }

  /// Drops the held last byte when it is a newline (`pb copy -n`).
  mutating func dropFinalNewline() {
    if held.last == 0x0A {
      held.removeLast()
      total -= 1
    }
  }

  func finish() throws { try body(held, true) }
}
