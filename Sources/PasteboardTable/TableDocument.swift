#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// A table and where it goes back to: the file it was read from (written
/// back atomically, keeping its mode, owner and final-newline convention,
/// and never over a file that changed on disk since it was read), a file
/// given for a listing read from standard input (written only when an edit
/// happens), or nowhere (a read-only listing).
public final class TableDocument {
  public private(set) var table: Table
  public let sectioning: Table.Sectioning
  /// The file edits are written to; nil for a read-only listing.
  public let destination: String?
  /// The rows marked for the next copy or cut (0-based).
  public var selection: Set<Int> = []
  public private(set) var isEdited = false
  /// The file's identity when it was read, to notice a change behind pb's
  /// back.
  private let readState: FileState?

  struct FileState: Equatable {
    let device: UInt
    let inode: UInt
    let size: Int64
    let modified: Int
    let modifiedNanoseconds: Int
  }

  public var isEditable: Bool { destination != nil }

  /// Reads the file at `path` (editable: edits are written back to it).
  /// - Throws: `.failed` naming the file when it cannot be read.
  public init(file path: String, sectioning: Table.Sectioning) throws {
    let descriptor = try Descriptor.open(path, O_RDONLY)
    let st = try descriptor.status()
    guard st.st_mode & S_IFMT == S_IFREG else {
      throw PasteboardError.failed("cannot edit \(path): it is not a regular file")
    }
    let bytes = try TableDocument.readAll(descriptor, size: Int(st.st_size), name: path)
    readState = FileState(st)
    self.sectioning = sectioning
    destination = path
    table = Table(bytes: bytes, sectioning: sectioning)
  }

  /// A listing (read from standard input): read-only, or editable into
  /// `output`, which is written only when an edit happens.
  public init(listing bytes: [UInt8], sectioning: Table.Sectioning, output: String?) {
    self.sectioning = sectioning
    destination = output
    readState = nil
    table = Table(bytes: bytes, sectioning: sectioning)
  }

  /// Reads all of `descriptor` (standard input or a file).
  public static func readAll(_ descriptor: Descriptor, size hint: Int = 0, name: String) throws -> [UInt8] {
    do {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(max(hint, 64 * 1024))
      var chunk = [UInt8](repeating: 0, count: 1 << 20)
      while true {
        let n = try chunk.withUnsafeMutableBytes { try descriptor.read(into: $0) }
        if n == 0 { return bytes }
        bytes.append(contentsOf: chunk[0..<n])
      }
    } catch PasteboardError.failed(let reason) {
      throw PasteboardError.failed("cannot read \(name): \(reason)")
    }
  }

  /// Replaces the rows with `bytes` (an edit).
  public func replace(with bytes: [UInt8]) {
    table = Table(bytes: bytes, sectioning: sectioning)
    selection = []
    isEdited = true
  }

  /// Writes the edited rows to the destination, atomically (see
  /// `OutputFile`); does nothing when nothing was edited.
  /// - Throws: `.failed` when the file changed on disk since it was read
  ///   (nothing is written then) or cannot be written.
  public func save() throws {
    guard isEdited, let destination else { return }
    if let readState {
      var st = stat()
      let now = ByteString.withCString(destination) { stat($0, &st) } == 0 ? FileState(st) : nil
      guard now == readState else {
        throw PasteboardError.failed(
          "\(destination) changed on disk since pb read it; nothing was written (your edits are lost, the file is as the other program left it)")
      }
    }
    let file = try OutputFile(destination)
    try file.write(.bytes(table.bytes))
    try file.commit()
  }
}

extension TableDocument.FileState {
  init(_ st: stat) {
    self.init(
      device: UInt(st.st_dev), inode: UInt(st.st_ino), size: Int64(st.st_size), modified: st.st_mtim.tv_sec,
      modifiedNanoseconds: st.st_mtim.tv_nsec)
  }
}
