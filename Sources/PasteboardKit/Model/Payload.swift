#if canImport(Glibc)
  import Glibc
#endif

/// A region of an open file: how the file backend hands out content without
/// reading it into memory.
public struct FileRegion {
  public let file: Descriptor
  public let offset: Int64
  public let length: Int64

  public init(file: Descriptor, offset: Int64, length: Int64) {
    self.file = file
    self.offset = offset
    self.length = length
  }
}

/// A stream of input read once, front to back: standard input or a file
/// being copied. `prefix` holds bytes already read from it (for type
/// detection) that come before the rest of the descriptor.
///
/// A stream made from a path opens the file only when it is read and
/// closes it right after, so that a copy of many files holds one open at a
/// time.
public final class InputStream {
  public private(set) var prefix: [UInt8]
  public let name: String
  /// Drop one trailing newline from the stream (`pb copy -n`).
  public var trimsTrailingNewline = false
  public private(set) var consumed = false
  private var source: Descriptor?
  private let path: String?

  /// Whether `prefix` is the whole input (the source is at its end).
  private var prefixIsWhole: Bool

  /// A stream of `source`, of which `prefix` was already read (all of it
  /// when `prefixIsWhole`).
  public init(source: Descriptor, prefix: [UInt8] = [], prefixIsWhole: Bool = false, name: String) {
    self.source = source
    self.prefix = prefix
    self.prefixIsWhole = prefixIsWhole
    self.name = name
    path = nil
  }

  /// The file at `path`, opened when the stream is read.
  public init(path: String, name: String) {
    self.path = path
    self.name = name
    prefix = []
    prefixIsWhole = false
  }

  /// Marks the stream as read and returns what to read it from; a stream
  /// can be consumed only once.
  func consume() throws -> Descriptor {
    if consumed { throw PasteboardError.failed("input \(name) was already read") }
    consumed = true
    if let source { return source }
    guard let path else { throw PasteboardError.failed("input \(name) has nothing to read") }
    let fd = ByteString.withCString(path) { c in retryingOnInterrupt { open(c, O_RDONLY | O_CLOEXEC | O_NOCTTY) } }
    guard fd >= 0 else { throw PasteboardError.failed("cannot read \(path): \(errnoText())") }
    let opened = Descriptor(fd)
    source = opened
    return opened
  }

  /// Lets go of the descriptor once the stream has been read.
  func finish() { source = nil }

  /// Reads ahead until `prefix` holds `count` bytes or the input ends;
  /// returns whether it ended (then `prefix` is all of it, before `-n`
  /// drops its newline). The stream still reads from its start.
  func readAhead(to count: Int) throws -> Bool {
    if consumed { throw PasteboardError.failed("input \(name) was already read") }
    if prefixIsWhole { return true }
    if source == nil && path != nil {
      let fd = ByteString.withCString(path!) { c in retryingOnInterrupt { open(c, O_RDONLY | O_CLOEXEC | O_NOCTTY) } }
      guard fd >= 0 else { throw PasteboardError.failed("cannot read \(path!): \(errnoText())") }
      source = Descriptor(fd)
    }
    guard let source else { return true }
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while prefix.count < count {
      let want = min(chunk.count, count - prefix.count)
      let n: Int
      do {
        n = try chunk.withUnsafeMutableBytes { try source.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<want])) }
      } catch {
        throw PasteboardError.failed("cannot read \(name): \(errnoText())")
      }
      if n == 0 {
        prefixIsWhole = true
        return true
      }
      prefix += chunk[..<n]
    }
    return false
  }
}

/// The bytes of one representation, wherever they live.
///
/// Large content stays a file region or a stream so that copying and pasting
/// a gigabyte never holds a gigabyte in memory.
public indirect enum Payload {
  case bytes([UInt8])
  case region(FileRegion)
  case stream(InputStream)
  /// Several payloads one after the other (`pb copy --append`).
  case concatenation([Payload])
  /// Content fetched only when it is read (an X11 selection owner's data).
  case provider(ContentProvider)

  /// The size in bytes, when it is known without reading a stream.
  public var knownCount: Int64? {
    switch self {
    case .bytes(let b): return Int64(b.count)
    case .region(let r): return r.length
    case .stream: return nil
    case .concatenation(let parts):
      var total: Int64 = 0
      for part in parts {
        guard let n = part.knownCount else { return nil }
        total += n
      }
      return total
    case .provider(let p): return p.byteCount
    }
  }

  /// Reads the whole payload into memory. Meant for small content and for
  /// backends that must hold it (memory, X11 owner).
  public func loadBytes() throws -> [UInt8] {
    switch self {
    case .bytes(let b): return b
    case .region(let r): return try r.file.read(count: Int(r.length), at: r.offset)
    case .stream(let s):
      let source = try s.consume()
      defer { s.finish() }
      var all = s.prefix + (try source.readToEnd())
      if s.trimsTrailingNewline && all.last == 0x0A { all.removeLast() }
      return all
    case .concatenation(let parts):
      return try parts.reduce(into: []) { $0 += try $1.loadBytes() }
    case .provider(let p): return try p.load()
    }
  }

  /// The first `limit` bytes of the content and whether they are all of
  /// it, reading ahead in streams (their bytes stay in the stream's
  /// prefix, so the payload can still be written whole afterwards). Meant
  /// for a bounded look at content about to be stored: the OSC 52 copy
  /// of a text.
  public func head(_ limit: Int) throws -> (bytes: [UInt8], isWhole: Bool) {
    switch self {
    case .stream(let s):
      // One byte more than asked tells a newline that -n drops at the
      // very end apart from one that is followed by more.
      let ended = try s.readAhead(to: limit + 1)
      var bytes = s.prefix
      if ended && s.trimsTrailingNewline && bytes.last == 0x0A { bytes.removeLast() }
      return bytes.count > limit ? (Array(bytes[..<limit]), false) : (bytes, ended)
    case .concatenation(let parts):
      var out: [UInt8] = []
      for part in parts {
        let (bytes, whole) = try part.head(limit - out.count)
        out += bytes
        if !whole { return (out, false) }
      }
      return (out, true)
    case .provider(let p):
      let all = try p.load()
      return (Array(all.prefix(limit)), all.count <= limit)
    case .bytes, .region:
      return (try leadingBytes(limit), knownCount! <= Int64(limit))
    }
  }

  /// Up to `limit` bytes from the start, for previews and type detection.
  public func leadingBytes(_ limit: Int) throws -> [UInt8] {
    switch self {
    case .bytes(let b): return Array(b.prefix(limit))
    case .region(let r): return try r.file.read(count: Int(min(Int64(limit), r.length)), at: r.offset)
    case .stream(let s): return Array(s.prefix.prefix(limit))
    case .concatenation(let parts):
      var out: [UInt8] = []
      for part in parts where out.count < limit {
        out += try part.leadingBytes(limit - out.count)
      }
      return out
    case .provider(let p): return Array(try p.load().prefix(limit))
    }
  }

  /// Writes the payload to `sink`, streaming, and returns the bytes written.
  @discardableResult
  public func write(to sink: Descriptor) throws -> Int64 {
    switch self {
    case .bytes(let b):
      try sink.writeAll(b)
      return Int64(b.count)
    case .region(let r):
      try ByteCopier.copy(from: r.file, offset: r.offset, length: r.length, to: sink)
      return r.length
    case .stream(let s):
      let source = try s.consume()
      defer { s.finish() }
      if s.trimsTrailingNewline {
        return try ByteCopier.copyToEnd(from: source, after: s.prefix, droppingFinalNewlineTo: sink)
      }
      try sink.writeAll(s.prefix)
      return Int64(s.prefix.count) + (try ByteCopier.copyToEnd(from: source, to: sink))
    case .concatenation(let parts):
      return try parts.reduce(0) { $0 + (try $1.write(to: sink)) }
    case .provider(let p): return try p.write(to: sink)
    }
  }
}

extension Payload {
  /// Identifies a payload read from a stream, so that a backend writing the
  /// same stream under several types stores (and reads) it once.
  public var streamIdentity: ObjectIdentifier? {
    switch self {
    case .stream(let s): return ObjectIdentifier(s)
    case .concatenation(let parts): return parts.last?.streamIdentity
    default: return nil
    }
  }
}
