import CX11

/// One reply of `XGetWindowProperty`, valid only inside the closure that
/// receives it: Xlib's buffer is freed when the closure returns.
struct PropertyReply {
  /// The property's type; 0 (None) when the property does not exist.
  let type: Atom
  /// 8, 16 or 32 (0 when the property does not exist).
  let format: Int32
  /// Items in this reply: bytes, shorts or C longs, by format.
  let count: Int
  /// Bytes of the property after the end of this reply.
  let bytesAfter: Int
  let data: UnsafeMutablePointer<UInt8>?

  /// The items of a format-32 reply, which Xlib hands over as C longs (8
  /// bytes on LP64), each holding one 32-bit value.
  var longs: UnsafeBufferPointer<UInt> {
    guard format == 32, let data else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt.self), count: count)
  }
}

extension XConnection {
  /// Reads part of `property` of `window` and hands the reply to `body`:
  /// the one place pb calls `XGetWindowProperty`.
  ///
  /// - Parameters:
  ///   - offset: where to start, in 32-bit units (for every format).
  ///   - longs: how much to read at most, in 32-bit units.
  ///   - delete: delete the property once a read reaches its end (only
  ///     when the type matches).
  ///   - type: the type wanted; 0 (AnyPropertyType) takes any.
  /// - Returns: what `body` returns, or nil when the request fails (a
  ///   window that is gone, a reply libX11 refuses).
  func withProperty<R>(
    _ property: Atom, of window: Window, offset: Int = 0, longs: Int, delete: Bool = false, type: Atom = 0,
    _ body: (PropertyReply) throws -> R
  ) rethrows -> R? {
    var actualType: Atom = 0
    var format: Int32 = 0
    var items: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    let status = XGetWindowProperty(
      display, window, property, offset, longs, delete ? True : False, type,
      &actualType, &format, &items, &after, &data)
    defer { if let data { XFree(data) } }
    guard status == Success else { return nil }
    return try body(PropertyReply(type: actualType, format: format, count: Int(items), bytesAfter: Int(after), data: data))
  }
}
