#if canImport(Glibc)
  import Glibc
#endif

/// An owned file descriptor, closed when the last reference goes away.
///
/// Reading and writing retry on `EINTR` and loop over short transfers, so
/// callers see either the whole transfer or an error.
public final class Descriptor {
  public let rawValue: Int32
  private let owned: Bool

  /// Wraps `rawValue`; when `owned` is true it is closed on deinit.
  public init(_ rawValue: Int32, owned: Bool = true) {
    self.rawValue = rawValue
    self.owned = owned
  }

  deinit {
    if owned && rawValue >= 0 { close(rawValue) }
  }

  /// Opens `path` (the C function is `open`).
  public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws -> Descriptor {
    let fd = ByteString.withCString(path) { c in retryingOnInterrupt { Glibc.open(c, flags | O_CLOEXEC, mode) } }
    if fd < 0 { throw systemFailure("open", path) }
    return Descriptor(fd)
  }

  /// Reads up to `count` bytes into `buffer`; 0 means end of file.
  public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
    let n = retryingOnInterrupt { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
    if n < 0 { throw systemFailure("read") }
    return n
  }

  /// Reads up to `count` bytes at `offset` without moving the file offset.
  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws -> Int {
    let n = retryingOnInterrupt { pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
    if n < 0 { throw systemFailure("read") }
    return n
  }

  /// Writes all of `bytes`, looping over short writes.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
    var done = 0
    while done < bytes.count {
      let n = retryingOnInterrupt {
        Glibc.write(rawValue, bytes.baseAddress! + done, bytes.count - done)
      }
      if n < 0 { throw systemFailure("write") }
      done += n
    }
  }

  public func writeAll(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { try writeAll($0) }
  }

  /// Reads everything from the current offset to end of file.
  public func readToEnd() throws -> [UInt8] {
    var result: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let n = try chunk.withUnsafeMutableBytes { try read(into: $0) }
      if n == 0 { return result }
      result.append(contentsOf: chunk[0..<n])
    }
  }

  /// Reads exactly `count` bytes at `offset`, failing on a short file.
  public func read(count: Int, at offset: Int64) throws -> [UInt8] {
    var result = [UInt8](repeating: 0, count: count)
    var done = 0
    while done < count {
      let n = try result.withUnsafeMutableBytes {
        try read(into: UnsafeMutableRawBufferPointer(rebasing: $0[done...]), at: offset + Int64(done))
      }
      if n == 0 { throw PasteboardError.failed("unexpected end of file") }
      done += n
    }
    return result
  }

  /// The file's status (the C function is `fstat`).
  public func status() throws -> stat {
    var st = stat()
    if fstat(rawValue, &st) != 0 { throw systemFailure("stat") }
    return st
  }
}
