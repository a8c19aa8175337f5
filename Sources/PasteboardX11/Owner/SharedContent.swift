import CX11
#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// The bytes an owner serves, held in an anonymous in-memory file (memfd)
/// that is mapped read-only.
///
/// The copying process streams its input into the memfd with a fixed
/// buffer and hands the descriptor to the background owner, so neither
/// process ever holds the content twice, the owner's memory is the
/// content plus a small constant, and nothing reaches a disk (which
/// matters for `--sensitive`).
final class SharedContent {
  /// One representation's place in the file.
  struct Slice: Equatable {
    let type: String
    let offset: Int
    let length: Int
  }

  let slices: [Slice]
  private let base: UnsafeMutableRawPointer?
  private let size: Int

  /// Maps `fd` (left open by the caller, who may close it afterwards).
  init(fd: Int32, slices: [Slice]) throws {
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      throw PasteboardError.failed("cannot read the content to serve: \(errnoText())")
    }
    size = Int(st.st_size)
    for s in slices where s.offset < 0 || s.length < 0 || s.offset + s.length > size {
      throw PasteboardError.failed("the content to serve is shorter than announced (\(s.type))")
    }
    self.slices = slices
    if size == 0 {
      base = nil
    } else {
      guard let p = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), p != MAP_FAILED else {
        throw PasteboardError.failed("cannot map the content to serve: \(errnoText())")
      }
      base = p
    }
  }

  deinit { if let base { munmap(base, size) } }

  /// The bytes of slice `index`.
  func bytes(_ index: Int) -> UnsafeRawBufferPointer {
    let s = slices[index]
    guard let base, s.length > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: base + s.offset, count: s.length)
  }

  /// Writes the first item's representations into a new memfd, streaming.
  ///
  /// - Returns: the descriptor (close-on-exec) and where each
  ///   representation lies in it.
  static func store(_ representations: [Representation]) throws -> (Descriptor, [Slice]) {
    let fd = pb_memfd_create("pb-x11-content")
    guard fd >= 0 else {
      throw PasteboardError.failed("cannot hold the content in memory: \(errnoText())")
    }
    let file = Descriptor(fd)
    var slices: [Slice] = []
    var offset = 0
    for rep in representations {
      let written = Int(try rep.payload.write(to: file))
      slices.append(Slice(type: rep.type, offset: offset, length: written))
      offset += written
    }
    return (file, slices)
  }
}
