#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// Where a row is: its section and its row in the section, both 0-based
/// (UIKit's IndexPath, named apart from Foundation's); pb shows them
/// 1-based, as `S:R`.
public struct RowPath: Hashable, Comparable, CustomStringConvertible {
  public let section: Int
  public let row: Int

  public init(section: Int, row: Int) {
    self.section = section
    self.row = row
  }

  public var description: String { "\(section + 1):\(row + 1)" }

  public static func < (a: RowPath, b: RowPath) -> Bool { (a.section, a.row) < (b.section, b.row) }
}

/// A table of rows made from a listing or a file: the bytes kept as they
/// were read, each row a range of them, so that any row (invalid UTF-8,
/// NUL bytes and all) and its line ending survive an edit byte for byte.
///
/// Rows are numbered 1 to `count` across the whole table; sections group
/// consecutive rows. Blank lines that separate sections (`--sections
/// blank`) are not rows, but stay in the bytes.
public struct Table {
  /// How a listing is cut into sections.
  public enum Sectioning {
    /// One section.
    case none
    /// Blank lines separate sections and are not rows.
    case blankLines
    /// A line that matches starts a section (and is its first row).
    case matching(RowPattern)
  }

  /// The bytes of the listing.
  public private(set) var bytes: [UInt8]
  /// For each row: where its content starts and ends, and where its line
  /// ending ends (`end == next` for a last line without one).
  private var starts: [Int] = []
  private var ends: [Int] = []
  private var nexts: [Int] = []
  /// For each row, its section; sections are numbered from 0.
  private var sections: [Int32] = []
  /// The first row of each section.
  private var sectionStarts: [Int] = []

  /// The line ending this table's new rows get: CRLF when its first line
  /// ends in CRLF, else LF.
  public let lineEnding: [UInt8]
  /// Whether the listing ends in a line ending (kept as it was).
  public let endsInNewline: Bool

  public init(bytes: [UInt8], sectioning: Sectioning = .none) {
    self.bytes = bytes
    var i = 0
    var crlf: Bool?
    var section: Int32 = 0
    var sectionHasRows = false
    // As many entries as there are lines, allocated once: growing four
    // arrays of a million entries copies and faults in twice the memory.
    var lines = 0
    while i < bytes.count {
      i = Table.newline(in: bytes, from: i) + 1
      lines += 1
    }
    starts.reserveCapacity(lines)
    ends.reserveCapacity(lines)
    nexts.reserveCapacity(lines)
    sections.reserveCapacity(lines)
    i = 0
    while i < bytes.count {
      let newline = Table.newline(in: bytes, from: i)
      var end = newline
      if end > i && end < bytes.count && bytes[end - 1] == 0x0D { end -= 1 }
      if crlf == nil && newline < bytes.count { crlf = end < newline }
      let next = min(newline + 1, bytes.count)
      switch sectioning {
      case .none:
        break
      case .blankLines:
        // A blank line (nothing, or only spaces and tabs) separates.
        if bytes[i..<end].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
          if sectionHasRows { section += 1 }
          sectionHasRows = false
          i = next
          continue
        }
      case .matching(let pattern):
        if pattern.matches(bytes[i..<end]) && !starts.isEmpty { section += 1 }
      }
      sectionHasRows = true
      if sectionStarts.count <= Int(section) { sectionStarts.append(starts.count) }
      starts.append(i)
      ends.append(end)
      nexts.append(next)
      sections.append(section)
      i = next
    }
    lineEnding = crlf == true ? [0x0D, 0x0A] : [0x0A]
    endsInNewline = bytes.last == 0x0A
  }

  /// Where the first LF at or after `i` is (`bytes.count` when there is
  /// none), found with memchr, which looks at many bytes at a time: a
  /// byte-by-byte search made indexing most of the cost of an action on a
  /// 1,000,000-row listing.
  static func newline(in bytes: [UInt8], from i: Int) -> Int {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress, i < buffer.count, let found = memchr(base + i, 0x0A, buffer.count - i) else {
        return buffer.count
      }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  /// How many rows.
  public var count: Int { starts.count }
  /// How many sections (0 for an empty table).
  public var sectionCount: Int { sectionStarts.count }

  /// The content of row `n` (0-based), without its line ending.
  public func content(_ n: Int) -> ArraySlice<UInt8> { bytes[starts[n]..<ends[n]] }

  /// Row `n` with its line ending, as it is in the bytes.
  public func line(_ n: Int) -> ArraySlice<UInt8> { bytes[starts[n]..<nexts[n]] }

  /// The index path of row `n` (0-based across the table).
  public func indexPath(of n: Int) -> RowPath {
    let s = Int(sections[n])
    return RowPath(section: s, row: n - sectionStarts[s])
  }

  /// The row (0-based across the table) at `path`, if there is one.
  public func row(at path: RowPath) -> Int? {
    guard path.section >= 0, path.section < sectionStarts.count, path.row >= 0 else { return nil }
    let n = sectionStarts[path.section] + path.row
    let sectionEnd = path.section + 1 < sectionStarts.count ? sectionStarts[path.section + 1] : count
    return n < sectionEnd ? n : nil
  }

  /// The rows of section `s` (0-based).
  public func rows(inSection s: Int) -> Range<Int> {
    let end = s + 1 < sectionStarts.count ? sectionStarts[s + 1] : count
    return sectionStarts[s]..<end
  }

  // MARK: Editing

  /// The bytes with rows `rows` (0-based) removed, their line endings with
  /// them; when the last row goes and the row before it ends the file, the
  /// file's missing final newline is kept missing.
  public func removing(_ rows: Set<Int>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var position = 0
    let last = count - 1
    for n in rows.sorted() where n >= 0 && n < count {
      out += bytes[position..<starts[n]]
      position = nexts[n]
      if n == last && !endsInNewline && out.last == 0x0A {
        // "a\nb" without b is "a": the file still ends without a newline.
        out.removeLast()
        if out.last == 0x0D && lineEnding.count == 2 { out.removeLast() }
      }
    }
    out += bytes[position...]
    return out
  }

  /// The bytes with `lines` (each without a line ending) inserted after
  /// row `n` (0-based; -1 is before the first), each ending in the table's
  /// line ending, keeping a missing final newline missing.
  public func inserting(_ lines: [[UInt8]], after n: Int) -> [UInt8] {
    guard !lines.isEmpty else { return bytes }
    let at = n < 0 ? (starts.first ?? 0) : nexts[n]
    var insert: [UInt8] = []
    for line in lines { insert += line + lineEnding }
    var out = Array(bytes[..<at])
    if n == count - 1 && !endsInNewline && n >= 0 {
      // After a last line with no line ending: it gets one, and the
      // inserted rows end the file without one, as the file did.
      out += lineEnding
      insert.removeLast(lineEnding.count)
    }
    out += insert
    out += bytes[at...]
    return out
  }
}
