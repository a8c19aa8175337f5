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
///
/// The trailer is read as untrusted input: every field is checked, its
/// size and its number of lines are bounded, and anything out of place
/// makes the file damaged (`DamagedStoreFile`), never a crash or a large
/// allocation.
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
  /// For sensitive content: the name of the file in the store's runtime
  /// directory that holds it (a bare name, never a path).
  var sensitiveName: String?
  var entries: [Entry] = []

  static let magic = Array("PBBOARD1".utf8)
  /// Bounds on a trailer: far above what pb writes, far below what could
  /// hurt a reader.
  static let maxTrailerBytes = 1 << 20
  static let maxEntries = 1024
  static let maxLines = 4096

  /// The trailer text, without the 16-byte footer.
  func trailerBytes() -> [UInt8] {
    var text = "count \(changeCount)\nwritten \(writtenAt)\n"
    if let e = expiresAt { text += "expires \(e)\n" }
    if let p = pastesLeft { text += "pastes \(p)\n" }
    if let s = sensitiveName { text += "sensitive \(s)\n" }
    for e in entries { text += "rep \(e.item) \(e.offset) \(e.length) \(e.type)\n" }
    var bytes = Array(text.utf8)
    withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { bytes += $0 }
    return bytes + BoardRecord.magic
  }

  /// Parses the trailer at the end of `file` (of size `size`).
  /// - Throws: `DamagedStoreFile` naming `path` and what is wrong.
  static func read(from file: Descriptor, size: Int64, path: String) throws -> BoardRecord {
    func damaged(_ reason: String) -> DamagedStoreFile { DamagedStoreFile(path: path, reason: reason) }
    guard size >= 16 else { throw damaged("it is too short to be a pb board file") }
    let footer = try file.read(count: 16, at: size - 16)
    guard Array(footer[8..<16]) == magic else { throw damaged("it is not a pb board file (no PBBOARD1 mark)") }
    let length = footer[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    guard length <= UInt64(maxTrailerBytes), Int64(length) <= size - 16 else {
      throw damaged("its description is \(length) bytes long, which the file cannot hold")
    }
    let payloadEnd = size - 16 - Int64(length)
    let bytes = try file.read(count: Int(length), at: payloadEnd)
    var record = BoardRecord()
    var seen = Set<Substring>()
    var lines = 0
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
      lines += 1
      guard lines <= maxLines else { throw damaged("its description has more than \(maxLines) lines") }
      let fields = line.split(separator: " ", maxSplits: 4, omittingEmptySubsequences: false)
      let key = fields[0]
      if key != "rep" {
        guard seen.insert(key).inserted else { throw damaged("'\(key)' appears twice") }
      }
      func number<T: FixedWidthInteger>(_ i: Int, _ type: T.Type) throws -> T {
        guard i < fields.count, let n = WholeNumber.value(fields[i], as: T.self) else {
          throw damaged("bad value in line '\(line.prefix(80))'")
        }
        return n
      }
      switch key {
      case "count":
        guard fields.count == 2 else { throw damaged("bad line '\(line.prefix(80))'") }
        record.changeCount = try number(1, UInt64.self)
      case "written":
        guard fields.count == 2 else { throw damaged("bad line '\(line.prefix(80))'") }
        record.writtenAt = try number(1, Int64.self)
      case "expires":
        guard fields.count == 2 else { throw damaged("bad line '\(line.prefix(80))'") }
        record.expiresAt = try number(1, Int64.self)
      case "pastes":
        guard fields.count == 2 else { throw damaged("bad line '\(line.prefix(80))'") }
        let n = try number(1, Int.self)
        guard n >= 1 else { throw damaged("a paste limit of 0") }
        record.pastesLeft = n
      case "sensitive":
        guard fields.count == 2, SensitiveStore.isFileName(fields[1]) else {
          throw damaged("bad line '\(line.prefix(80))'")
        }
        record.sensitiveName = String(fields[1])
      case "rep":
        guard fields.count == 5 else { throw damaged("bad line '\(line.prefix(80))'") }
        guard record.entries.count < maxEntries else { throw damaged("more than \(maxEntries) representations") }
        let item = try number(1, Int.self)
        let offset = try number(2, Int64.self)
        let len = try number(3, Int64.self)
        let highest = record.entries.map(\.item).max() ?? -1
        guard item <= highest + 1 else { throw damaged("item \(item) follows item \(highest)") }
        guard offset <= payloadEnd, len <= payloadEnd - offset else {
          throw damaged("a representation lies outside the file (offset \(offset), length \(len))")
        }
        let type = String(fields[4])
        guard (try? MIMEType.validate(type)) != nil else { throw damaged("'\(type.prefix(80))' is not a MIME type") }
        record.entries.append(Entry(item: item, offset: offset, length: len, type: type))
      default:
        continue  // unknown lines are for later versions
      }
    }
    guard seen.contains("count") else { throw damaged("it has no change count") }
    return record
  }

  /// Opens and parses the board file at `path`.
  /// - Returns: nil when there is none.
  /// - Throws: `DamagedStoreFile` for anything but a sound board file of
  ///   the user's; `.failed` when it cannot be read.
  static func open(_ path: String) throws -> (record: BoardRecord, file: Descriptor)? {
    guard let file = try StoreFile.openRegular(path) else { return nil }
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
