import PasteboardKit

/// The OSC 52 escape sequences: `ESC ] 52 ; SELECTION ; BASE64 BEL` sets a
/// selection of the terminal, `ESC ] 52 ; SELECTION ; ? BEL` asks for it.
public enum OSC52Sequence {
  static let escape: UInt8 = 0x1B
  static let bell: UInt8 = 0x07
  static let introducer: [UInt8] = [escape, 0x5D, 0x35, 0x32, 0x3B]  // ESC ] 5 2 ;

  /// The bytes that set each of `selections` to `text`, as `multiplexer`
  /// needs them; one buffer, so the terminal gets it in one write.
  public static func setting(_ selections: [TerminalSelection], to text: [UInt8], through multiplexer: Multiplexer) -> [UInt8] {
    var out: [UInt8] = []
    let encoded = Base64.encodedCount(text.count)
    out.reserveCapacity(selections.count * (encoded + encoded / Multiplexer.screenPiece * 4 + 16))
    for selection in selections {
      let start = out.count
      out += introducer
      out.append(selection.rawValue)
      out.append(0x3B)
      Base64.append(text, to: &out)
      out.append(bell)
      if multiplexer == .screen { wrapForScreen(&out, from: start) }
    }
    return out
  }

  /// The query for `selection`'s content.
  public static func query(_ selection: TerminalSelection, through multiplexer: Multiplexer) -> [UInt8] {
    var out = introducer + [selection.rawValue, 0x3B, 0x3F, bell]
    if multiplexer == .screen { wrapForScreen(&out, from: 0) }
    return out
  }

  /// Cuts `out[start...]` into DCS strings (`ESC P ... ESC \`) of at most
  /// `Multiplexer.screenPiece` bytes each.
  static func wrapForScreen(_ out: inout [UInt8], from start: Int) {
    let body = Array(out[start...])
    out.removeSubrange(start...)
    var i = 0
    while i < body.count {
      let end = min(i + Multiplexer.screenPiece, body.count)
      out += [escape, 0x50]
      out += body[i..<end]
      out += [escape, 0x5C]
      i = end
    }
  }
}
