#if canImport(Glibc)
  import Glibc
#endif

/// A file that pb writes for the user (`pb paste -o`, and exports): all or
/// nothing, with the rules a shell redirection or `cp` keeps.
///
/// - A regular file (or a new one) is written into a temporary file beside
///   it and renamed over it only when complete; a failure leaves the old
///   file as it was and nothing behind. The name then holds a new file:
///   other hard links to the old one keep the old content.
/// - An existing file keeps its permission bits, except set-user-ID,
///   set-group-ID and sticky, which are never carried over, and keeps its
///   owner and group; a file pb could not open for writing is refused, as
///   `>` would refuse it, and so is one whose owner or group pb cannot give
///   the new file (another user's file that you may write to): write into
///   such a file with `pb paste > FILE`.
/// - A new file gets mode 0666 less the umask, as a redirection gives it.
/// - A symbolic link is written through: its final target is replaced (or
///   created, for a dangling link) and the link stays.
/// - A device, FIFO or socket (`-o /dev/null`) cannot be replaced, so it is
///   opened and written directly.
public final class OutputFile {
  private enum Sink {
    case atomic(TemporaryFile, destination: String)
    case direct(Descriptor)
  }

  /// The name as the caller gave it, for messages.
  public let path: String
  private let sink: Sink

  /// Checks the destination and opens the temporary file at once, so that
  /// a missing directory or a refused file fails before anything is read.
  /// - Throws: `.invalid` for an empty name; `.failed` for a destination
  ///   that cannot be written.
  public init(_ requested: String) throws {
    guard !requested.isEmpty else { throw PasteboardError.invalid("the output file name is empty") }
    path = requested
    let target = try OutputFile.finalTarget(of: requested)
    var st = stat()
    guard ByteString.withCString(target, { stat($0, &st) }) == 0 else {
      guard errno == ENOENT else { throw PasteboardError.failed("cannot write \(requested): \(errnoText())") }
      sink = .atomic(try OutputFile.temporary(beside: target, for: requested, mode: 0o666), destination: target)
      return
    }
    switch st.st_mode & S_IFMT {
    case S_IFDIR:
      throw PasteboardError.failed("cannot write \(requested): it is a directory")
    case S_IFREG:
      // The permission a redirection would meet, without truncating.
      let probe = ByteString.withCString(target) { open($0, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
      guard probe >= 0 else { throw PasteboardError.failed("cannot write \(requested): \(errnoText())") }
      close(probe)
      let file = try OutputFile.temporary(beside: target, for: requested, mode: 0o600)
      if st.st_uid != geteuid() || st.st_gid != getegid() {
        guard fchown(file.descriptor.rawValue, st.st_uid, st.st_gid) == 0 else {
          throw PasteboardError.failed(
            "cannot replace \(requested): it belongs to uid \(st.st_uid) (group \(st.st_gid)), and the new file would be yours; write into it with 'pb paste > \(requested)'")
        }
      }
      fchmod(file.descriptor.rawValue, st.st_mode & 0o777)
      sink = .atomic(file, destination: target)
    default:
      let fd = ByteString.withCString(target) { open($0, O_WRONLY | O_CLOEXEC | O_NOCTTY) }
      guard fd >= 0 else { throw PasteboardError.failed("cannot write \(requested): \(errnoText())") }
      sink = .direct(Descriptor(fd))
    }
  }

  /// Writes `payload` (more than once appends), without completing the file.
  public func write(_ payload: Payload) throws {
    do {
      switch sink {
      case .atomic(let file, _): try payload.write(to: file.descriptor)
      case .direct(let descriptor): try payload.write(to: descriptor)
      }
    } catch PasteboardError.failed(let message) {
      throw PasteboardError.failed("cannot write \(path): \(message)")
    }
  }

  /// Empties what was written so far (to write something else instead);
  /// for a device or FIFO this is impossible and does nothing.
  public func restart() throws {
    guard case .atomic(let file, _) = sink else { return }
    guard ftruncate(file.descriptor.rawValue, 0) == 0, lseek(file.descriptor.rawValue, 0, SEEK_SET) == 0 else {
      throw PasteboardError.failed("cannot write \(path): \(errnoText())")
    }
  }

  /// Completes the file: renames it into place.
  public func commit() throws {
    if case .atomic(let file, let destination) = sink {
      do {
        try file.commit(to: destination)
      } catch PasteboardError.failed(let message) {
        throw PasteboardError.failed("cannot write \(path): \(message)")
      }
    }
  }

  /// Follows symbolic links from `path` to the file they end at, which may
  /// not exist (a dangling link is written through).
  static func finalTarget(of path: String) throws -> String {
    var current = path
    for _ in 0..<40 {
      var st = stat()
      guard ByteString.withCString(current, { lstat($0, &st) }) == 0, st.st_mode & S_IFMT == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let n = ByteString.withCString(current) { readlink($0, &buffer, buffer.count - 1) }
      guard n > 0 else { throw PasteboardError.failed("cannot write \(path): \(errnoText())") }
      let link = ByteString.decode(buffer[0..<n].map { UInt8(bitPattern: $0) })
      current = link.hasPrefix("/") ? link : directory(of: current) + "/" + link
    }
    throw PasteboardError.failed("cannot write \(path): \(errnoText(ELOOP))")
  }

  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func temporary(beside target: String, for requested: String, mode: mode_t) throws -> TemporaryFile {
    try TemporaryFile(in: directory(of: target), mode: mode) { dir, code in
      .failed(
        code == ENOENT || code == ENOTDIR
          ? "cannot write \(requested): \(dir) does not exist"
          : "cannot write \(requested): cannot create a file in \(dir): \(errnoText(code))")
    }
  }
}
