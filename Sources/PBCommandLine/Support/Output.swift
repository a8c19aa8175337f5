import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// Standard output and error for commands, written straight to the file
/// descriptors (no Foundation, no stdio buffering surprises).
struct Output {
  static let standardOutput = Descriptor(STDOUT_FILENO, owned: false)
  static let standardError = Descriptor(STDERR_FILENO, owned: false)

  /// Writes `text` to standard output.
  static func print(_ text: String) throws {
    do {
      try standardOutput.writeAll(Array(text.utf8))
    } catch {
      throw PasteboardError.failed("cannot write to standard output: \(errnoText())")
    }
  }

  /// Writes one `pb: ...` line to standard error.
  static func complain(_ message: String) {
    try? standardError.writeAll(Array("pb: \(message)\n".utf8))
  }
}
