#if canImport(Glibc)
  import Glibc
#endif

/// Reads a terminal's answer to an OSC 52 query out of the bytes that
/// arrive on the terminal, one at a time:
/// `ESC ] 52 ; SELECTION ; BASE64` ended by BEL or `ESC \` (the string
/// terminator). Anything before the answer (keys typed ahead, other
/// reports) is passed over; Ctrl-C and Ctrl-\ there interrupt, as they
/// would have without the terminal's signal keys turned off.
struct OSC52Answer {
  enum Progress: Equatable {
    case waiting
    case complete([UInt8])
    case interrupted(Int32)
    /// Another sequence began inside the answer: it was cut off.
    case cutOff
    /// The answer, read to its end, was longer than the limit.
    case tooLong
  }

  private enum State {
    /// Outside an answer; `matched` bytes of `ESC ] 5 2 ;` seen.
    case outside(matched: Int)
    /// In the selection letters, up to the second `;`.
    case selection
    /// In the base64, `escaped` when the last byte was ESC.
    case data(escaped: Bool)
  }

  private let limit: Int
  private var state = State.outside(matched: 0)
  private var data: [UInt8] = []
  /// Whether the base64 went over `limit`: the rest is read and dropped,
  /// so that none of it is left on the terminal for the shell to take as
  /// typed input.
  private var over = false

  init(limit: Int) { self.limit = limit }

  mutating func feed(_ byte: UInt8) -> Progress {
    switch state {
    case .outside(let matched):
      if byte == OSC52Sequence.introducer[matched] {
        state = matched + 1 == OSC52Sequence.introducer.count ? .selection : .outside(matched: matched + 1)
      } else {
        state = .outside(matched: byte == OSC52Sequence.escape ? 1 : 0)
        if byte == 0x03 { return .interrupted(SIGINT) }
        if byte == 0x1C { return .interrupted(SIGQUIT) }
      }
    case .selection:
      if byte == 0x3B {
        state = .data(escaped: false)
      } else if !(byte >= 0x61 && byte <= 0x7A || byte >= 0x30 && byte <= 0x39) {
        // Not an answer after all (selections are letters and digits).
        state = .outside(matched: byte == OSC52Sequence.escape ? 1 : 0)
      }
    case .data(let escaped):
      if escaped {
        if byte == 0x5C { return over ? .tooLong : .complete(data) }
        return .cutOff
      }
      if byte == OSC52Sequence.bell { return over ? .tooLong : .complete(data) }
      if byte == OSC52Sequence.escape {
        state = .data(escaped: true)
        return .waiting
      }
      if data.count >= limit {
        over = true
      } else {
        data.append(byte)
      }
    }
    return .waiting
  }
}
