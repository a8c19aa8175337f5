/// The outcomes a pasteboard operation can end in, named for what the user
/// needs to know rather than for the system call that failed.
///
/// Each case has one exit status of the `pb` command (`exitStatus`, the
/// table in pb(1)); the library itself never exits, but every process that
/// reports an outcome (the command, the background X11 owner) maps it the
/// same way.
public enum PasteboardError: Error, Equatable, CustomStringConvertible {
  /// Nothing there: the board is empty, has no owner, or the input was empty.
  case nothingThere(String)
  /// A value given by the caller is malformed (a board name, a type, a duration).
  case invalid(String)
  /// A policy or a precondition (such as `--if-count`) refused the action.
  case refused(String)
  /// The backend cannot be used: no display, an unsafe or unusable store.
  case unavailable(String)
  /// A wait for a peer ran past its deadline.
  case timedOut(String)
  /// The requested type is not offered; `offered` lists what is.
  case typeNotOffered(requested: String, offered: [String])
  /// Any other failure: I/O errors, a full disk, an unreadable file.
  case failed(String)

  public var description: String {
    switch self {
    case .nothingThere(let m), .invalid(let m), .refused(let m), .unavailable(let m),
      .timedOut(let m), .failed(let m):
      return m
    case .typeNotOffered(let requested, let offered):
      let list = offered.isEmpty ? "nothing" : offered.joined(separator: ", ")
      return "type '\(requested)' is not offered (offered: \(list))"
    }
  }
}

/// The exit statuses of pb(1), the same for every command.
public enum ExitStatus {
  public static let success: Int32 = 0
  public static let nothingThere: Int32 = 1
  public static let usage: Int32 = 2
  public static let refused: Int32 = 3
  public static let unavailable: Int32 = 4
  public static let timedOut: Int32 = 5
  public static let typeNotOffered: Int32 = 6
  public static let failure: Int32 = 7
}

extension PasteboardError {
  /// The exit status that reports this outcome.
  public var exitStatus: Int32 {
    switch self {
    case .nothingThere: return ExitStatus.nothingThere
    case .invalid: return ExitStatus.usage
    case .refused: return ExitStatus.refused
    case .unavailable: return ExitStatus.unavailable
    case .timedOut: return ExitStatus.timedOut
    case .typeNotOffered: return ExitStatus.typeNotOffered
    case .failed: return ExitStatus.failure
    }
  }

  /// The outcome another process reported as `status` with `message` (the
  /// inverse of `exitStatus`, for outcomes passed between processes). A
  /// type not offered (6) cannot travel as one line, since its list of
  /// types would be lost, and comes back as `.failed`; pb's background
  /// processes never report it.
  public init(exitStatus status: Int32, message: String) {
    switch status {
    case ExitStatus.nothingThere: self = .nothingThere(message)
    case ExitStatus.usage: self = .invalid(message)
    case ExitStatus.refused: self = .refused(message)
    case ExitStatus.unavailable: self = .unavailable(message)
    case ExitStatus.timedOut: self = .timedOut(message)
    default: self = .failed(message)
    }
  }
}
