import PasteboardKit
import PasteboardTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// `pb copy`'s OSC 52 part: whether the text also goes to the clipboard of
/// the user's terminal, within the size guard, and what the user is told
/// when it does not. The board is written whatever happens here; a text
/// that is not sent is never sent in part.
///
/// Under `auto` (the SSH rule) a text that cannot be sent is reported on
/// one line and the copy still succeeds, since the board, its main job,
/// was written; when OSC 52 was asked for (`--osc52`, `PB_OSC52=always`),
/// the same line comes with the exit status of the cause.
struct TerminalCopy {
  let setting: OSC52Setting
  /// The longest text sent, in bytes.
  let limit: Int
  /// The terminal device to send to (`--terminal`), else `/dev/tty`.
  let device: String?

  static let defaultLimit = 100_000
  /// How long the terminal may take to accept the sequence (it may have
  /// stopped reading: Ctrl-S, a stalled connection).
  static let writeTimeout: Int64 = 5000

  static let options = [
    OptionSpec("osc52", "also send the text to the terminal's clipboard (OSC 52), in any session"),
    OptionSpec("no-osc52", "never send it to the terminal (the default sends it over SSH with no display)"),
    OptionSpec("osc52-max", value: "BYTES", "the longest text sent to the terminal (default 100000)"),
    OptionSpec("terminal", value: "DEVICE", "send OSC 52 to DEVICE, not /dev/tty (for programs run outside their terminal)"),
  ]

  /// What happened, told to the user once the board is written.
  enum Outcome {
    case sent
    /// Begun: the rest is written by `finish`.
    case sending(TerminalClipboard)
    /// Nothing to do or say: OSC 52 does not apply.
    case notApplicable
    /// Not sent, for the reason (and with the exit status) of `error`.
    case notSent(PasteboardError)
    /// Over the size guard; the size, when known now (a stream is
    /// measured once the board holds it).
    case tooLong(Int64?)
  }

  static func resolve(_ invocation: Invocation) throws -> TerminalCopy {
    if invocation.has("osc52") && invocation.has("no-osc52") {
      throw UsageError("--osc52 and --no-osc52 contradict each other")
    }
    let setting =
      invocation.has("osc52")
      ? OSC52Setting(mode: .always, source: "--osc52")
      : invocation.has("no-osc52") ? OSC52Setting(mode: .never, source: "--no-osc52") : try usage { try OSC52Setting.fromEnvironment() }
    let device = invocation.value("terminal")
    if device?.isEmpty == true { throw UsageError("--terminal needs a terminal device, such as /dev/pts/3") }
    return TerminalCopy(setting: setting, limit: try Self.limit(invocation.value("osc52-max")), device: device)
  }

  /// `--osc52-max` (`option`), else `PB_OSC52_MAX`, else 100000.
  static func limit(_ option: String?) throws -> Int {
    if let text = option { return Int(try usage { try ByteCount.parse(text, for: "--osc52-max") }) }
    if let text = environmentValue("PB_OSC52_MAX") { return Int(try usage { try ByteCount.parse(text, for: "PB_OSC52_MAX") }) }
    return defaultLimit
  }

  /// Starts sending the text of `item` to the terminal when the setting
  /// says so; `finish` completes it.
  func start(_ item: PasteboardItem, boards: [BoardName], sensitive: Bool, choice: BackendChoice, io: CommandIO) -> Outcome {
    guard setting.decide(display: choice.displayProbe).sends else { return .notApplicable }
    let explicit = setting.isExplicit
    let selections = boards.compactMap(TerminalSelection.init(board:))
    if selections.isEmpty {
      // Under auto, a board of pb's own simply has no terminal selection.
      guard explicit else { return .notApplicable }
      return .notSent(
        .refused(
          "board '\(boards[0])' has no terminal selection (OSC 52 has general, primary and secondary), so nothing was sent to the terminal"
        ))
    }
    let terminal: Descriptor
    if let device {
      do {
        terminal = try Self.open(device)
      } catch {
        return .notSent(.unavailable("cannot send OSC 52: \(error); the board was written"))
      }
    } else {
      do {
        terminal = try io.openTerminal()
      } catch {
        // Under auto, no terminal (a script over ssh) means nobody to tell.
        guard explicit else { return .notApplicable }
        return .notSent(.unavailable("cannot send OSC 52: \(error); the board was written"))
      }
    }
    if sensitive && !explicit {
      return .notSent(.refused("a sensitive text goes to the terminal only with --osc52 or PB_OSC52=always; the board has it"))
    }
    let reps = item.representations
    guard let text = reps.first(where: { MIMEType.isPlainText($0.type) }) ?? reps.first(where: { MIMEType.isText($0.type) }) else {
      return .notSent(
        .refused("\(item.types.first ?? "the content") is not text, so it was not sent to the terminal (OSC 52 carries text); the board has it"))
    }
    do {
      let (bytes, whole) = try text.payload.head(limit)
      guard whole else { return .tooLong(text.payload.knownCount) }
      let clipboard = TerminalClipboard(device: terminal)
      try clipboard.start(selections, to: bytes)
      return .sending(clipboard)
    } catch {
      return Self.failure(error)
    }
  }

  /// Opens the terminal `--terminal` names, for writing; anything but a
  /// terminal is refused.
  static func open(_ path: String) throws -> Descriptor {
    let device = try Descriptor.open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK)
    guard isatty(device.rawValue) == 1 else { throw PasteboardError.unavailable("\(path) is not a terminal") }
    // The write itself blocks (one write, see TerminalWrite).
    _ = fcntl(device.rawValue, F_SETFL, fcntl(device.rawValue, F_GETFL) & ~O_NONBLOCK)
    return device
  }

  /// Completes a sending `outcome`: waits for the terminal to take the rest
  /// (a slow terminal reads it while the board is written).
  func finish(_ outcome: Outcome) -> Outcome {
    guard case .sending(let clipboard) = outcome else { return outcome }
    do {
      try clipboard.finish(timeoutMilliseconds: Self.writeTimeout)
      return .sent
    } catch {
      return Self.failure(error)
    }
  }

  private static func failure(_ error: Error) -> Outcome {
    let cause = error as? PasteboardError ?? .failed("\(error)")
    return .notSent(PasteboardError(exitStatus: cause.exitStatus, message: "the text was not sent to the terminal: \(cause); the board has it"))
  }

  /// Tells the user about `outcome` once the board is written: one line,
  /// thrown (with its exit status) when OSC 52 was asked for. `size`
  /// measures the text the board now holds (a text read from a pipe is
  /// measured only once it is all read).
  func report(_ outcome: Outcome, io: CommandIO, size: () -> Int64?) throws {
    let problem: PasteboardError
    switch outcome {
    case .sent, .sending, .notApplicable: return
    case .notSent(let error): problem = error
    case .tooLong(let known):
      let what = (known ?? size()).map { "is \($0) bytes" } ?? "is more than \(limit) bytes"
      problem = .refused("the text \(what), over the OSC 52 limit of \(limit) (--osc52-max), so it was not sent to the terminal; the board has it")
    }
    if setting.isExplicit { throw problem }
    io.complain(problem.description)
  }
}
