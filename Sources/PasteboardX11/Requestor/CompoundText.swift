import CX11
import PasteboardKit

/// X's compound text (ISO 2022 with X's escape sequences), the
/// `COMPOUND_TEXT` target of old programs.
enum CompoundText {
  /// Passes `bytes` (compound text) to `sink` as UTF-8, converted by
  /// libX11, which knows the character sets whatever the locale.
  ///
  /// - Throws: `.failed` when libX11 cannot convert it.
  static func withUTF8(
    _ bytes: UnsafeRawBufferPointer, on c: XConnection, _ sink: (UnsafeRawBufferPointer) throws -> Void
  ) throws {
    guard !bytes.isEmpty else { return try sink(bytes) }
    var copy = Array(bytes)
    var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    var count: Int32 = 0
    let status = copy.withUnsafeMutableBufferPointer { buffer -> Int32 in
      var property = XTextProperty(value: buffer.baseAddress, encoding: c.atoms.compoundText, format: 8, nitems: UInt(buffer.count))
      return Xutf8TextPropertyToTextList(c.display, &property, &list, &count)
    }
    defer { if let list { XFreeStringList(list) } }
    guard status >= 0, let list else {
      throw PasteboardError.failed("cannot convert the owner's COMPOUND_TEXT to UTF-8 (DISPLAY is \(c.displayName))")
    }
    // The text's NUL separators split it into a list; they are kept.
    var out: [UInt8] = []
    for i in 0..<Int(count) {
      if i > 0 { out.append(0) }
      if let s = list[i] { out += Array(String(cString: s).utf8) }
    }
    try out.withUnsafeBytes(sink)
  }
}
