#if canImport(Glibc)
  import Glibc
#endif

/// The on-disk form of a board: the payloads back to back, then a text
/// trailer describing them, then 16 bytes: the trailer's length (little
/// endian) and the magic `PBBOARD1`.
///
/// Putting the description last lets a writer stream a payload of unknown
/// length straight into the file and describe it afterwards. Files are
/// never changed once renamed into place, so a reader that has opened one
/// sees a consistent snapshot however many writers follow.
struct BoardRecord: Equatable {
  struct Entry: Equatable {
    var item: Int
    var offset: Int64
    var length: Int64
    var type: String
  }

  var changeCount: UInt64 = 0
  var writtenAt: Int64 = 0
  var expiresAt: Int64?
  var pastesLeft: Int?
  /// For sensitive content: the file in the runtime directory that holds it.
  var sensitiveFile: String?
  var entries: [Entry] = []

  static let magic = Array("PBBOARD1".utf8)

  /// The trailer text, without the 16-byte footer.
  func trailerBytes() -> [UInt8] {
    var text = "count \(changeCount)\nwritten \(writtenAt)\n"
    if let e = expiresAt { text += "expires \(e)\n" }
    if let p = pastesLeft { text += "pastes \(p)\n" }
    if let s = sensitiveFile { text += "sensitive \(s)\n" }
    for e in entries { text += "rep \(e.item) \(e.offset) \(e.length) \(e.type)\n" }
    var bytes = Array(text.utf8)
    withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { bytes += $0 }
    return bytes + BoardRecord.magic
  }

  /// Parses the trailer at the end of `file` (of size `size`).
  /// - Throws: `.failed` when the file is not a board file.
  static func read(from file: Descriptor, size: Int64, path: String) throws -> BoardRecord {
    let corrupt = PasteboardError.failed("\(path) is not a pb board file (damaged?); remove it to reset the board")
    guard size >= 16 else { throw corrupt }
    let footer = try file.read(count: 16, at: size - 16)
    guard Array(footer[8..<16]) == magic else { throw corrupt }
    let length = footer[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    guard length <= 1 << 20, Int64(length) <= size - 16 else { throw corrupt }
    let text = String(decoding: try file.read(count: Int(length), at: size - 16 - Int64(length)), as: UTF8.self)
    var record = BoardRecord()
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
      switch (fields.first, fields.count) {
      case ("count", 2): record.changeCount = UInt64(fields[1]) ?? 0
      case ("written", 2): record.writtenAt = Int64(fields[1]) ?? 0
      case ("expires", 2): record.expiresAt = Int64(fields[1])
      case ("pastes", 2): record.pastesLeft = Int(fields[1])
      case ("sensitive", 2): record.sensitiveFile = String(fields[1])
      case ("rep", 5):
        guard let item = Int(fields[1]), let offset = Int64(fields[2]), let len = Int64(fields[3]),
          offset >= 0, len >= 0, offset + len <= size
        else { throw corrupt }
        record.entries.append(Entry(item: item, offset: offset, length: len, type: String(fields[4])))
      default: continue  // unknown lines are for later versions
      }
    }
    return record
  }

  /// Opens and parses the board file at `path`; nil when there is none.
  static func open(_ path: String) throws -> (record: BoardRecord, file: Descriptor)? {
    let fd = retryingOnInterrupt { Glibc.open(path, O_RDONLY | O_CLOEXEC) }
    if fd < 0 {
      if errno == ENOENT { return nil }
      throw PasteboardError.unavailable("cannot read \(path): \(errnoText())")
    }
    let file = Descriptor(fd)
    let size = Int64(try file.status().st_size)
    return (try read(from: file, size: size, path: path), file)
  }

  /// The items described by the record, as regions of `file`.
  func items(in file: Descriptor) -> [PasteboardItem] {
    var items: [PasteboardItem] = []
    for entry in entries {
      while items.count <= entry.item { items.append(PasteboardItem([])) }
      let region = FileRegion(file: file, offset: entry.offset, length: entry.length)
      items[entry.item].representations.append(Representation(type: entry.type, payload: .region(region)))
    }
    return items.filter { !$0.representations.isEmpty }
  }
}
