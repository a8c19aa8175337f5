#if canImport(Glibc)
  import Glibc
#endif

/// Moves bytes between descriptors in the kernel where it can
/// (`sendfile`) and through a fixed buffer where
/// it cannot, so memory use never depends on the size of the data.
enum ByteCopier {
  static let bufferSize = 256 * 1024

  /// Copies `length` bytes starting at `offset` of `source` to `sink`.
  static func copy(from source: Descriptor, offset: Int64, length: Int64, to sink: Descriptor) throws {
    var position = off_t(offset)
    var remaining = length
    // sendfile works to any descriptor (files, pipes, sockets) on current
    // kernels; fall back to pread/write when it is refused.
    while remaining > 0 {
      let chunk = Int(min(remaining, 1 << 30))
      let n = retryingOnInterrupt { sendfile(sink.rawValue, source.rawValue, &position, chunk) }
      if n < 0 {
        if errno == EINVAL || errno == ENOSYS {
          try bufferedCopy(from: source, offset: Int64(position), length: remaining, to: sink)
          return
        }
        throw systemFailure("write")
      }
      if n == 0 { throw PasteboardError.failed("the stored content ended early") }
      remaining -= Int64(n)
    }
  }

  private static func bufferedCopy(from source: Descriptor, offset: Int64, length: Int64, to sink: Descriptor) throws {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
    defer { buffer.deallocate() }
    var position = offset
    var remaining = length
    while remaining > 0 {
      let want = Int(min(Int64(bufferSize), remaining))
      let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: position)
      if n == 0 { throw PasteboardError.failed("the stored content ended early") }
      try sink.writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
      position += Int64(n)
      remaining -= Int64(n)
    }
  }

  /// Copies from the current offset of `source` to its end; returns the count.
  static func copyToEnd(from source: Descriptor, to sink: Descriptor) throws -> Int64 {
    var total: Int64 = 0
    // A regular file can be copied in the kernel.
    if let st = try? source.status(), (st.st_mode & S_IFMT) == S_IFREG {
      while true {
        // sendfile with no offset reads from, and advances, the file offset.
        let n = retryingOnInterrupt { sendfile(sink.rawValue, source.rawValue, nil, 1 << 30) }
        if n < 0 {
          if errno == EINVAL || errno == ENOSYS { break }
          throw systemFailure("write")
        }
        if n == 0 { return total }
        total += Int64(n)
      }
    }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = try source.read(into: buffer)
      if n == 0 { return total }
      try sink.writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
      total += Int64(n)
    }
  }
}
