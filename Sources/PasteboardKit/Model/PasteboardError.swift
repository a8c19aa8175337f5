/// The outcomes a pasteboard operation can end in, named for what the user
/// needs to know rather than for the system call that failed.
///
/// Each case corresponds to one exit status of the `pb` command (see
/// `pb(1)`); the library itself never exits.
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
