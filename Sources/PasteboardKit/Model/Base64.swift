/// Base64 (RFC 4648, the standard alphabet, with padding): mail bodies and
/// header words, and the OSC 52 terminal sequences, which carry the
/// clipboard's bytes as base64.
///
/// Encoding appends to a buffer the caller owns, so a sequence is built in
/// one buffer without intermediate copies. Decoding is
/// strict: it accepts only what an encoder makes, so that a damaged or
/// hostile answer is refused rather than turned into different bytes.
public enum Base64 {
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The length of the encoding of `count` bytes.
  public static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

  /// `bytes`, encoded.
  public static func encode(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    append(bytes, to: &out)
    return out
  }

  /// Appends the encoding of `bytes` to `out`, in place: the output is
  /// sized once and filled through a pointer, a few milliseconds for the
  /// 100,000 bytes of a large OSC 52 copy.
  public static func append(_ bytes: [UInt8], to out: inout [UInt8]) {
    let start = out.count
    let count = encodedCount(bytes.count)
    out += repeatElement(0, count: count)
    bytes.withUnsafeBufferPointer { src in
      alphabet.withUnsafeBufferPointer { table in
        out.withUnsafeMutableBufferPointer { all in
          let dst = UnsafeMutableBufferPointer(rebasing: all[start...])
          var i = 0
          var o = 0
          while i + 3 <= src.count {
            let n = UInt32(src[i]) << 16 | UInt32(src[i + 1]) << 8 | UInt32(src[i + 2])
            dst[o] = table[Int(n >> 18 & 63)]
            dst[o + 1] = table[Int(n >> 12 & 63)]
            dst[o + 2] = table[Int(n >> 6 & 63)]
            dst[o + 3] = table[Int(n & 63)]
            i += 3
            o += 4
          }
          let left = src.count - i
          guard left > 0 else { return }
          let n = UInt32(src[i]) << 16 | (left == 2 ? UInt32(src[i + 1]) << 8 : 0)
          dst[o] = table[Int(n >> 18 & 63)]
          dst[o + 1] = table[Int(n >> 12 & 63)]
          dst[o + 2] = left == 2 ? table[Int(n >> 6 & 63)] : 0x3D
          dst[o + 3] = 0x3D
        }
      }
    }
  }

  /// The value of each alphabet byte; 255 for every other byte.
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 255, count: 256)
    for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
    return table
  }()

  /// Decodes `bytes`, or returns nil when it is not canonical base64: a
  /// length that is not a multiple of 4, a byte outside the alphabet
  /// (line breaks and spaces included), padding anywhere but at the end,
  /// or padding bits that are not zero.
  public static func decode(_ bytes: [UInt8]) -> [UInt8]? {
    guard bytes.count % 4 == 0 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count / 4 * 3)
    var i = 0
    while i < bytes.count {
      let last = i + 4 == bytes.count
      let pad = last ? (bytes[i + 3] == 0x3D ? (bytes[i + 2] == 0x3D ? 2 : 1) : 0) : 0
      var n: UInt32 = 0
      for j in 0..<(4 - pad) {
        let v = values[Int(bytes[i + j])]
        if v == 255 { return nil }
        n = n << 6 | UInt32(v)
      }
      n <<= UInt32(6 * pad)
      // The bits padding leaves over must be zero (RFC 4648 3.5).
      if pad == 1 && n & 0xFF != 0 || pad == 2 && n & 0xFFFF != 0 { return nil }
      out.append(UInt8(n >> 16 & 0xFF))
      if pad < 2 { out.append(UInt8(n >> 8 & 0xFF)) }
      if pad < 1 { out.append(UInt8(n & 0xFF)) }
      i += 4
    }
    return out
  }
}
