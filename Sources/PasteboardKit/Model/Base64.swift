/// Base64 (RFC 4648, the standard alphabet, with padding): mail bodies and
/// header words, and the OSC 52 terminal sequences, which carry the
/// clipboard's bytes as base64.
///
/// Encoding appends to a buffer the caller owns, so a long text is encoded
/// piece by piece into one output without intermediate copies. Decoding is
/// strict: it accepts only what an encoder makes, so that a damaged or
/// hostile answer is refused rather than turned into different bytes.
public enum Base64 {
  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// The length of the encoding of `count` bytes.
  public static func encodedCount(_ count: Int) -> Int { (count + 2) / 3 * 4 }

  /// `bytes`, encoded.
  public static func encode(_ bytes: some Collection<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(encodedCount(bytes.count))
    append(bytes, to: &out)
    return out
  }

  /// Appends the encoding of `bytes` to `out`. Only the last piece of a
  /// longer text may have a length that is not a multiple of 3 (it gets
  /// the padding).
  public static func append(_ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
    var it = bytes.makeIterator()
    while let a = it.next() {
      let b = it.next()
      let c = b == nil ? nil : it.next()
      let n = UInt32(a) << 16 | UInt32(b ?? 0) << 8 | UInt32(c ?? 0)
      out.append(alphabet[Int(n >> 18 & 63)])
      out.append(alphabet[Int(n >> 12 & 63)])
      out.append(b == nil ? 0x3D : alphabet[Int(n >> 6 & 63)])
      out.append(c == nil ? 0x3D : alphabet[Int(n & 63)])
    }
  }

  /// The value of each alphabet byte; 255 for every other byte.
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 255, count: 256)
    for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
    return table
  }()

  /// Decodes `text`, or returns nil when it is not canonical base64: a
  /// length that is not a multiple of 4, a byte outside the alphabet
  /// (line breaks and spaces included), padding anywhere but at the end,
  /// or padding bits that are not zero.
  public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
    let bytes = Array(text)
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
