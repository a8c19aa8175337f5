/// ISO 8859-1, the encoding of the X11 `STRING` target.
enum Latin1 {
  /// Passes `bytes` (Latin-1) to `sink` as UTF-8.
  static func withUTF8(_ bytes: UnsafeRawBufferPointer, _ sink: (UnsafeRawBufferPointer) throws -> Void) throws {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 8)
    for b in bytes {
      if b < 0x80 {
        out.append(b)
      } else {
        out.append(0xC0 | (b >> 6))
        out.append(0x80 | (b & 0x3F))
      }
    }
    try out.withUnsafeBytes(sink)
  }

  /// UTF-8 as Latin-1, `?` for characters it cannot hold (what `STRING`
  /// requestors get from pb's owner).
  static func fromUTF8(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    let n = bytes.count
    while i < n {
      let b = bytes[i]
      if b < 0x80 {
        out.append(b)
        i += 1
        continue
      }
      var length = 1
      var scalar: UInt32 = 0
      if b & 0xE0 == 0xC0 {
        length = 2
        scalar = UInt32(b & 0x1F)
      } else if b & 0xF0 == 0xE0 {
        length = 3
        scalar = UInt32(b & 0x0F)
      } else if b & 0xF8 == 0xF0 {
        length = 4
        scalar = UInt32(b & 0x07)
      } else {
        out.append(0x3F)
        i += 1
        continue
      }
      var valid = i + length <= n
      if valid {
        for k in 1..<length {
          let c = bytes[i + k]
          if c & 0xC0 != 0x80 { valid = false; break }
          scalar = scalar << 6 | UInt32(c & 0x3F)
        }
      }
      if !valid {
        out.append(0x3F)
        i += 1
        continue
      }
      out.append(scalar <= 0xFF ? UInt8(scalar) : 0x3F)
      i += length
    }
    return out
  }
}
