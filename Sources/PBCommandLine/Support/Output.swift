import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// The standard streams and the terminal a command works with: the
/// process's own in `pb`, pipes or a pseudo-terminal when a test runs a
/// command in process. Commands never write to fixed descriptors.
public struct CommandIO {
  public let input: Descriptor
  public let output: Descriptor
  public let error: Descriptor
  /// Opens the controlling terminal (for a prompt, an OSC 52 sequence).
  /// - Throws: `.unavailable` saying why there is none.
  public let openTerminal: () throws -> Descriptor

  public init(input: Descriptor, output: Descriptor, error: Descriptor, openTerminal: @escaping () throws -> Descriptor) {
    self.input = input
    self.output = output
    self.error = error
    self.openTerminal = openTerminal
  }

  /// This process's standard streams and `/dev/tty`.
  public static let process = CommandIO(
    input: Descriptor(STDIN_FILENO, owned: false), output: Descriptor(STDOUT_FILENO, owned: false),
    error: Descriptor(STDERR_FILENO, owned: false),
    openTerminal: {
      do {
        return try Descriptor.open("/dev/tty", O_RDWR | O_NOCTTY)
      } catch {
        throw PasteboardError.unavailable("no controlling terminal (\(error))")
      }
    })

  /// Writes `text` to standard output.
  func print(_ text: String) throws {
    do {
      try output.writeAll(Array(text.utf8))
    } catch {
      throw PasteboardError.failed("cannot write to standard output: \(errnoText())")
    }
  }

  /// Writes one `pb: ...` line to standard error, with every control
  /// character made visible (a message may quote a file name or a value).
  func complain(_ message: String) {
    try? error.writeAll(Array("pb: \(VisibleText.escape(message))\n".utf8))
  }

  /// Checks that standard output can be written before anything that
  /// cannot be undone (counting a limited paste) happens.
  func checkOutputIsWritable() throws {
    let flags = fcntl(output.rawValue, F_GETFL)
    guard flags >= 0, flags & O_ACCMODE != O_RDONLY else {
      throw PasteboardError.failed("cannot write to standard output: \(flags < 0 ? errnoText() : "it is open for reading only")")
    }
  }
}
