import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// The user's terminal, for questions asked while standard input and
/// output carry data: prompts are written to it and answers read from it,
/// a line at a time (the terminal's own line editing applies). Text shown
/// on it is made visible first (`VisibleText`).
final class Terminal {
  private let device: Descriptor

  init(_ device: Descriptor) { self.device = device }

  /// The terminal's size in rows and columns, asked each time (the user
  /// may resize it); 24 by 80 when it does not say.
  func size() -> (rows: Int, columns: Int) {
    var ws = winsize()
    guard ioctl(device.rawValue, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_row > 0, ws.ws_col > 0 else { return (24, 80) }
    return (Int(ws.ws_row), Int(ws.ws_col))
  }

  /// Writes `text`, as it is (pb's own text).
  func show(_ text: String) {
    try? device.writeAll(Array(text.utf8))
  }

  /// Asks `question` and returns the answer without its line break; nil
  /// at end of input (Ctrl-D).
  func ask(_ question: String) -> String? {
    show(question)
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let n = read(device.rawValue, &byte, 1)
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { return line.isEmpty ? nil : ByteString.decode(line) }
      if byte == 0x0A { return ByteString.decode(line.last == 0x0D ? line.dropLast() : line[...]) }
      line.append(byte)
    }
  }
}
