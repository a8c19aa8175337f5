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

  /// Copies `prefix` then the rest of `source` to `sink`, holding back the
  /// last byte so that a final newline can be dropped (`pb copy -n`).
  static func copyToEnd(from source: Descriptor, after prefix: [UInt8], droppingFinalNewlineTo sink: Descriptor) throws
    -> Int64
  {
    var held: UInt8?
    var total: Int64 = 0
    func emit(_ bytes: UnsafeRawBufferPointer) throws {
      guard let last = bytes.last else { return }
      if let h = held { try sink.writeAll([h]); total += 1 }
      try sink.writeAll(UnsafeRawBufferPointer(rebasing: bytes.dropLast()))
      total += Int64(bytes.count - 1)
      held = last
    }
    try prefix.withUnsafeBytes { try emit($0) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = try source.read(into: buffer)
      if n == 0 { break }
      try emit(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }
    if let h = held, h != 0x0A {
      try sink.writeAll([h])
      total += 1
    }
    return total
  }
}
