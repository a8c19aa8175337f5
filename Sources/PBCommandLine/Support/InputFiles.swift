import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// Opens the inputs of `pb copy` and reads the first bytes of each, which
/// are enough to detect the type and to tell empty input from content.
enum InputFiles {
  /// How much is read ahead for type detection.
  static let detectionSize = 64 * 1024

  struct Opened {
    let stream: InputStream
    /// Whether the prefix is the whole input.
    let complete: Bool
  }

  /// Opens `path` (`-` is standard input) and reads ahead.
  /// - Throws: `.failed` naming the file when it is missing or unreadable.
  static func open(_ path: String) throws -> Opened {
    let descriptor: Descriptor
    if path == "-" {
      descriptor = Descriptor(STDIN_FILENO, owned: false)
    } else {
      let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { throw PasteboardError.failed("cannot read \(path): \(errnoText())") }
      descriptor = Descriptor(fd)
      if let st = try? descriptor.status(), (st.st_mode & S_IFMT) == S_IFDIR {
        throw PasteboardError.failed("cannot read \(path): it is a directory")
      }
    }
    let name = path == "-" ? "standard input" : path
    var prefix = [UInt8](repeating: 0, count: detectionSize)
    var filled = 0
    var atEnd = false
    while filled < detectionSize {
      let n: Int
      do {
        n = try prefix.withUnsafeMutableBytes {
          try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
        }
      } catch {
        throw PasteboardError.failed("cannot read \(name): \(errnoText())")
      }
      if n == 0 {
        atEnd = true
        break
      }
      filled += n
    }
    prefix.removeSubrange(filled...)
    return Opened(stream: InputStream(source: descriptor, prefix: prefix, name: name), complete: atEnd)
  }
}
