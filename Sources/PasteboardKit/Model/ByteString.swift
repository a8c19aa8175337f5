#if canImport(Glibc)
  import Glibc
#endif

/// Text that may hold bytes which are not UTF-8, as file names and
/// command-line arguments on Linux may: such a byte becomes one private-use
/// scalar (U+10FF80 to U+10FFFF, the last block of plane 16), so that the
/// exact bytes come back for the system call, and `VisibleText` shows the
/// byte as `<E9>`.
///
/// Swift strings hold only valid Unicode, so without this a Latin-1 name
/// such as `caf\xE9.txt` would reach `open(2)` as `caf\xEF\xBF\xBD.txt`, a
/// name that does not exist.
public enum ByteString {
  static let base: UInt32 = 0x10FF00

  /// The bytes as text: UTF-8 where they are UTF-8, each other byte as its
  /// private-use scalar.
  public static func decode(_ bytes: some Collection<UInt8>) -> String {
    var out = String.UnicodeScalarView()
    var rest = Array(bytes)[...]
    while let first = rest.first {
      if first < 0x80 {
        out.append(Unicode.Scalar(first))
        rest = rest.dropFirst()
        continue
      }
      var decoder = UTF8()
      var iterator = rest.makeIterator()
      if case .scalarValue(let scalar) = decoder.decode(&iterator), !isEscape(scalar) {
        out.append(scalar)
        rest = rest.dropFirst(UTF8.width(scalar))
      } else {
        out.append(Unicode.Scalar(base + UInt32(first))!)
        rest = rest.dropFirst()
      }
    }
    return String(out)
  }

  /// The text of a C string, its bytes kept.
  public static func decode(cString: UnsafePointer<CChar>) -> String {
    decode(UnsafeBufferPointer(start: cString, count: strlen(cString)).lazy.map { UInt8(bitPattern: $0) })
  }

  /// The bytes `text` stands for: its UTF-8, with each private-use scalar
  /// of `decode` turned back into its byte.
  public static func bytes(_ text: String) -> [UInt8] {
    guard text.unicodeScalars.contains(where: isEscape) else { return Array(text.utf8) }
    var out: [UInt8] = []
    for scalar in text.unicodeScalars {
      if isEscape(scalar) {
        out.append(UInt8(scalar.value - base))
      } else {
        out.append(contentsOf: String(scalar).utf8)
      }
    }
    return out
  }

  /// Calls `body` with the NUL-terminated bytes of `text`, for a system
  /// call that takes a path.
  public static func withCString<R>(_ text: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
    var raw = bytes(text).map { CChar(bitPattern: $0) }
    raw.append(0)
    return try raw.withUnsafeBufferPointer { try body($0.baseAddress!) }
  }

  /// Whether `text` holds a byte that is not UTF-8.
  public static func holdsRawBytes(_ text: String) -> Bool { text.unicodeScalars.contains(where: isEscape) }

  /// Whether `scalar` stands for a raw byte (0x80 to 0xFF).
  static func isEscape(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= base + 0x80 && scalar.value <= base + 0xFF
  }
}
