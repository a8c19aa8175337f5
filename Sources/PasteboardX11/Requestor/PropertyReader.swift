import CX11
import PasteboardKit

/// What a property held: its type, its format, and how many bytes of data.
struct PropertyInfo {
  let type: Atom
  let format: Int32
  let byteCount: Int64
}

extension XConnection {
  /// Bytes asked for per `XGetWindowProperty` call. libX11 refuses replies
  /// of 134,217,727 items or more, and a bounded read keeps the reader's
  /// memory bounded whatever the owner sends in one property.
  static let readChunkBytes = 4 << 20

  /// Reads `property` of pb's window in bounded chunks, hands each to
  /// `sink` as bytes (format-32 items narrowed from C longs to 4 bytes,
  /// little-endian), and deletes it (the ICCCM acknowledgement).
  ///
  /// - Returns: nil when the property does not exist (type None), which is
  ///   not the same as an empty one.
  /// - Parameter withhold: a type whose data is read and deleted but not
  ///   passed on (INCR, whose only item is a size hint).
  func readProperty(
    _ property: Atom, withhold: Atom? = nil, sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws -> PropertyInfo? {
    var offset = 0
    var total: Int64 = 0
    var first: (type: Atom, format: Int32)?
    while true {
      // delete=True removes the property once a read reaches its end.
      let read = try withProperty(property, of: window, offset: offset, longs: XConnection.readChunkBytes / 4, delete: true) {
        reply in
        if reply.count > 0, reply.type != withhold { try XConnection.pass(reply, to: sink) }
        return (type: reply.type, format: reply.format, count: reply.count, bytesAfter: reply.bytesAfter)
      }
      try checkAlive()
      guard let reply = read else {
        throw PasteboardError.failed("cannot read the selection data from the X server (DISPLAY is \(displayName))")
      }
      if reply.type == 0 { return first.map { PropertyInfo(type: $0.type, format: $0.format, byteCount: total) } }
      if first == nil { first = (reply.type, reply.format) }
      let wireBytes = reply.count * Int(max(reply.format, 8)) / 8
      total += Int64(wireBytes)
      if reply.bytesAfter == 0 { return PropertyInfo(type: first!.type, format: first!.format, byteCount: total) }
      offset += wireBytes / 4
    }
  }

  /// Hands a reply's items to `sink` as bytes: format-32 items narrowed
  /// from C longs to 4 bytes each, little-endian.
  private static func pass(_ reply: PropertyReply, to sink: (UnsafeRawBufferPointer) throws -> Void) throws {
    switch reply.format {
    case 32:
      var narrow = [UInt8](repeating: 0, count: reply.count * 4)
      for (i, long) in reply.longs.enumerated() {
        let v = UInt32(truncatingIfNeeded: long)
        narrow[4 * i] = UInt8(v & 0xFF)
        narrow[4 * i + 1] = UInt8((v >> 8) & 0xFF)
        narrow[4 * i + 2] = UInt8((v >> 16) & 0xFF)
        narrow[4 * i + 3] = UInt8(v >> 24)
      }
      try narrow.withUnsafeBytes(sink)
    case 16:
      try sink(UnsafeRawBufferPointer(start: reply.data, count: reply.count * 2))
    default:
      try sink(UnsafeRawBufferPointer(start: reply.data, count: reply.count))
    }
  }
}

/// Little-endian 32-bit values from narrowed format-32 bytes.
func words(_ bytes: [UInt8]) -> [UInt] {
  var result: [UInt] = []
  result.reserveCapacity(bytes.count / 4)
  var i = 0
  while i + 4 <= bytes.count {
    var v = UInt(bytes[i])
    v |= UInt(bytes[i + 1]) << 8
    v |= UInt(bytes[i + 2]) << 16
    v |= UInt(bytes[i + 3]) << 24
    result.append(v)
    i += 4
  }
  return result
}
