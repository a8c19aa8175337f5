import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// The clipboard of the terminal pb runs in, reached with OSC 52 through
/// the controlling terminal (never standard output, so pipelines and
/// `$(...)` stay clean).
///
/// Every wait has a deadline: a terminal that stops reading (Ctrl-S, a
/// stalled connection) or never answers a query ends in `.timedOut`, never
/// a hang; the terminal's mode is changed only while an answer is read and
/// is put back on every path.
public final class TerminalClipboard {
  let device: Descriptor
  public let multiplexer: Multiplexer

  /// The longest answer to a query that is read (64 MiB of base64).
  public static let answerLimit = 64 << 20

  /// Works through `device`, the controlling terminal (opened by the
  /// caller, from `/dev/tty`, for this alone: reading makes it
  /// non-blocking).
  public init(device: Descriptor, multiplexer: Multiplexer = .current()) {
    self.device = device
    self.multiplexer = multiplexer
  }

  /// The write `start` began.
  private var writing: TerminalWrite?

  /// Sets `selections` to `text`, in one write.
  /// - Throws: as `start` and `finish` do.
  public func set(_ selections: [TerminalSelection], to text: [UInt8], timeoutMilliseconds: Int64) throws {
    try start(selections, to: text)
    try finish(timeoutMilliseconds: timeoutMilliseconds)
  }

  /// Starts setting `selections` to `text`: the whole sequence in one
  /// write (see `TerminalWrite`), which goes on while the caller does
  /// other work (writing the board) until `finish`.
  /// - Throws: `.unavailable` when pb runs in the background of a terminal
  ///   that stops background writers, `.failed` when no write can start.
  public func start(_ selections: [TerminalSelection], to text: [UInt8]) throws {
    if isBackground {
      var mode = termios()
      if tcgetattr(device.rawValue, &mode) == 0 && mode.c_lflag & tcflag_t(TOSTOP) != 0 {
        throw PasteboardError.unavailable(
          "pb runs in the background and the terminal stops programs that write from there (stty tostop)")
      }
    }
    writing = try TerminalWrite(OSC52Sequence.setting(selections, to: text, through: multiplexer), to: device.rawValue)
  }

  /// Waits for the write `start` began to be taken in full.
  /// - Throws: `.timedOut` when the terminal has not taken it within
  ///   `timeoutMilliseconds` (output stopped with Ctrl-S), `.failed` on
  ///   I/O errors.
  public func finish(timeoutMilliseconds: Int64) throws {
    try writing?.wait(until: WallClock.monotonicMilliseconds() + timeoutMilliseconds) {
      PasteboardError.timedOut(
        "the terminal did not take the text within \(describeDuration(timeoutMilliseconds)) (output stopped with Ctrl-S?)")
    }
  }

  /// Asks the terminal for `selection` and returns its content.
  /// - Throws: `.timedOut` when no answer comes within
  ///   `timeoutMilliseconds` (many terminals ignore the query),
  ///   `.unavailable` when pb is not in the terminal's foreground (it
  ///   would be stopped), `.failed` for an answer that is not base64.
  ///   Ctrl-C while waiting interrupts pb as usual, the mode put back.
  public func read(_ selection: TerminalSelection, timeoutMilliseconds: Int64) throws -> [UInt8] {
    if isBackground {
      throw PasteboardError.unavailable(
        "pb is not in the terminal's foreground, so it cannot read the terminal's answer (under timeout(1), use timeout --foreground)")
    }
    var saved = termios()
    guard tcgetattr(device.rawValue, &saved) == 0 else {
      throw PasteboardError.unavailable("cannot use the terminal: \(errnoText())")
    }
    // No line editing, no echo (the answer must not appear on the screen),
    // and Ctrl-C read as a byte, so that pb puts the mode back itself.
    let flags = fcntl(device.rawValue, F_GETFL)
    if flags >= 0 { _ = fcntl(device.rawValue, F_SETFL, flags | O_NONBLOCK) }
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
    SignalCleanup.restoreOnInterruption(terminal: device.rawValue, mode: saved)
    guard tcsetattr(device.rawValue, TCSANOW, &quiet) == 0 else {
      SignalCleanup.forgetTerminal()
      throw PasteboardError.unavailable("cannot use the terminal: \(errnoText())")
    }
    defer {
      tcsetattr(device.rawValue, TCSANOW, &saved)
      SignalCleanup.forgetTerminal()
    }
    let deadline = WallClock.monotonicMilliseconds() + timeoutMilliseconds
    let late = {
      PasteboardError.timedOut(
        "the terminal did not answer the OSC 52 query within \(describeDuration(timeoutMilliseconds)) (many terminals never answer it; see pb-paste(1))"
      )
    }
    try write(OSC52Sequence.query(selection, through: multiplexer), deadline: deadline, late: late)
    let limit = multiplexer == .screen ? Multiplexer.screenAnswerLimit : Self.answerLimit
    var answer = OSC52Answer(limit: limit)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      try wait(for: Int16(POLLIN), until: deadline, late: late)
      let n = chunk.withUnsafeMutableBytes { Glibc.read(device.rawValue, $0.baseAddress, $0.count) }
      if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
      if n < 0 { throw PasteboardError.failed("cannot read the terminal: \(errnoText())") }
      if n == 0 { throw PasteboardError.failed("the terminal closed before it answered") }
      for byte in chunk[..<n] {
        switch answer.feed(byte) {
        case .waiting: continue
        case .interrupted(let signal):
          tcsetattr(device.rawValue, TCSANOW, &saved)
          SignalCleanup.forgetTerminal()
          raise(signal)
        case .cutOff:
          throw PasteboardError.failed("the terminal's answer was cut off by another sequence, so nothing is pasted")
        case .tooLong where multiplexer == .screen:
          throw PasteboardError.refused(
            "the terminal's answer is over \(limit) bytes of base64 (about \(limit / 4 * 3) bytes of text), more than GNU screen is sure to pass on whole (it can drop bytes of longer input), so nothing is pasted"
          )
        case .tooLong:
          throw PasteboardError.failed("the terminal's answer is longer than \(limit) bytes")
        case .complete(let encoded):
          guard let text = Base64.decode(encoded) else {
            throw PasteboardError.failed("the terminal's answer is not valid base64, so nothing is pasted")
          }
          return text
        }
      }
    }
  }

  /// Whether this process is outside the terminal's foreground process
  /// group (a background job, or under plain timeout(1)).
  var isBackground: Bool {
    let group = tcgetpgrp(device.rawValue)
    return group >= 0 && group != getpgrp()
  }

  /// Writes all of `bytes` to the non-blocking terminal by `deadline`.
  private func write(_ bytes: [UInt8], deadline: Int64, late: () -> PasteboardError) throws {
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes { Glibc.write(device.rawValue, $0.baseAddress! + done, $0.count - done) }
      if n >= 0 {
        done += n
      } else if errno == EAGAIN {
        try wait(for: Int16(POLLOUT), until: deadline, late: late)
      } else if errno != EINTR {
        throw PasteboardError.failed("cannot write to the terminal: \(errnoText())")
      }
    }
  }

  /// Waits until the terminal is ready for `events`, or throws `late()`.
  private func wait(for events: Int16, until deadline: Int64, late: () -> PasteboardError) throws {
    switch awaitReadiness(device.rawValue, for: events, until: deadline) {
    case .ready: return
    case .timedOut: throw late()
    case .failed(let code): throw PasteboardError.failed("cannot wait for the terminal: \(errnoText(code))")
    }
  }
}
