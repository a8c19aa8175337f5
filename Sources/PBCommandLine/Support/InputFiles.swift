import PasteboardKit

#if canImport(Glibc)
  import Glibc
#endif

/// The inputs of `pb copy`, opened one at a time: however many files are
/// named, at most one is open at once, and only the first bytes of the
/// first non-empty input are held in memory (for type detection).
enum InputFiles {
  /// How much is read ahead for type detection.
  static let detectionSize = 64 * 1024

  struct Gathered {
    /// The inputs, concatenated, as one payload.
    let payload: Payload
    /// The first bytes of the first non-empty input, and whether they are
    /// all of it.
    let head: [UInt8]
    let headIsComplete: Bool
    /// Whether there is nothing to copy (after `-n` drops a lone newline).
    let isEmpty: Bool
  }

  /// Checks every path first (missing, unreadable, a directory: exit 7
  /// before anything is read), then reads ahead in the inputs until one
  /// holds something; the inputs after it are opened when they are read.
  static func gather(_ paths: [String], standardInput: Descriptor, trimmingNewline: Bool) throws -> Gathered {
    for path in paths where path != "-" { try check(path) }
    var streams: [InputStream] = []
    var head: [UInt8] = []
    var complete = true
    var index = 0
    while index < paths.count {
      let (stream, atEnd) = try readAhead(paths[index], standardInput: standardInput)
      index += 1
      if stream.prefix.isEmpty && atEnd { continue }  // an empty input adds nothing
      streams.append(stream)
      head = stream.prefix
      complete = atEnd
      break
    }
    for path in paths[index...] {
      streams.append(path == "-" ? InputStream(source: standardInput, name: "standard input") : InputStream(path: path, name: path))
    }
    if trimmingNewline { streams.last?.trimsTrailingNewline = true }
    let onlyANewline = trimmingNewline && streams.count == 1 && complete && head == [0x0A]
    let payload: Payload = streams.count == 1 ? .stream(streams[0]) : .concatenation(streams.map { .stream($0) })
    return Gathered(
      payload: payload, head: head, headIsComplete: complete && streams.count <= 1,
      isEmpty: streams.isEmpty || onlyANewline)
  }

  /// `path` as one whole input, for `--also MIME=FILE`.
  static func whole(_ path: String, standardInput: Descriptor) throws -> InputStream {
    if path != "-" { try check(path) }
    return path == "-" ? InputStream(source: standardInput, name: "standard input") : InputStream(path: path, name: path)
  }

  /// Fails with exit 7 unless `path` names something readable that is not
  /// a directory.
  static func check(_ path: String) throws {
    var st = stat()
    guard ByteString.withCString(path, { stat($0, &st) }) == 0 else { throw PasteboardError.failed("cannot read \(path): \(errnoText())") }
    if st.st_mode & S_IFMT == S_IFDIR { throw PasteboardError.failed("cannot read \(path): it is a directory") }
    if st.st_mode & S_IFMT == S_IFREG && ByteString.withCString(path, { access($0, R_OK) }) != 0 {
      throw PasteboardError.failed("cannot read \(path): \(errnoText())")
    }
  }

  /// Opens `path` (`-` is standard input) and reads up to `detectionSize`
  /// bytes; returns the stream and whether that was all of it.
  private static func readAhead(_ path: String, standardInput: Descriptor) throws -> (InputStream, Bool) {
    let name = path == "-" ? "standard input" : path
    let descriptor: Descriptor
    if path == "-" {
      descriptor = standardInput
    } else {
      let fd = ByteString.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NOCTTY) }
      guard fd >= 0 else { throw PasteboardError.failed("cannot read \(path): \(errnoText())") }
      descriptor = Descriptor(fd)
    }
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
    return (InputStream(source: descriptor, prefix: prefix, prefixIsWhole: atEnd, name: name), atEnd)
  }
}
