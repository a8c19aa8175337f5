import PasteboardKit

/// The selections an OSC 52 sequence can name (xterm's control sequences):
/// `c` the clipboard, `p` the primary selection, `q` the secondary one.
public enum TerminalSelection: UInt8 {
  case clipboard = 0x63  // c
  case primary = 0x70  // p
  case secondary = 0x71  // q

  /// The selection that `board` stands for (`general` is the clipboard,
  /// as on X11); nil for a board of pb's own, which no terminal has.
  public init?(board: BoardName) {
    switch board {
    case .general: self = .clipboard
    case .primary: self = .primary
    case .secondary: self = .secondary
    default: return nil
    }
  }

  /// The letter in the sequence, for messages.
  public var letter: String { String(UnicodeScalar(rawValue)) }
}
