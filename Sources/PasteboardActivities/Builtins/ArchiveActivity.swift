#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// `pb.archive`: appends each text item (a text file's text too), with the
/// time, to the archive
/// `$XDG_DATA_HOME/pb/archive` (default `~/.local/share/pb/archive`,
/// mode 0600 in a 0700 folder: clipboard text is private).
///
/// The format (pb-activity(5) gives it in full) is a sequence of records,
/// each a header line `pb-archive 1 TIME LENGTH`, where TIME is UTC
/// (`2026-12-01T11:04:05.123Z`) and LENGTH the text's size in bytes,
/// then exactly those bytes, then a newline: a reader needs no escaping
/// and text may hold anything, newlines included. Appends hold an
/// exclusive lock on the archive and use `O_APPEND`, so any number of
/// processes may archive at once without losing or tearing a record.
public final class ArchiveActivity: Activity {
  public let activityType = "pb.archive"
  public let title = "Add to the archive"
  public let category = ActivityCategory.action
  private let environment: ActivityEnvironment
  private var texts: [ActivityItem] = []

  public init(environment: ActivityEnvironment) { self.environment = environment }

  public var archivePath: String { environment.folders.dataHome + "/pb/archive" }

  public func canPerform(with items: [ActivityItem]) -> Bool { items.contains(where: isText) }

  public func prepare(with items: [ActivityItem]) throws { texts = items.filter(isText) }

  public func perform() throws -> [ActivityItem] {
    let folder = environment.folders.dataHome + "/pb"
    try SavedFiles.ensureFolder(environment.folders.dataHome)
    if ByteString.withCString(folder, { mkdir($0, 0o700) }) != 0 && errno != EEXIST {
      throw PasteboardError.failed("cannot create \(folder): \(errnoText())")
    }
    let archive = try Descriptor.open(archivePath, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, mode: 0o600)
    guard retryingOnInterrupt({ flock(archive.rawValue, LOCK_EX) }) == 0 else {
      throw PasteboardError.failed("cannot lock \(archivePath): \(errnoText())")
    }
    defer { flock(archive.rawValue, LOCK_UN) }
    let time = ArchiveActivity.isoTime(environment.clock())
    for text in texts {
      let bytes = try text.bytes()
      do {
        try archive.writeAll(Array("pb-archive 1 \(time) \(bytes.count)\n".utf8) + bytes + [0x0A])
      } catch PasteboardError.failed(let reason) {
        throw PasteboardError.failed("cannot append to \(archivePath): \(reason)")
      }
    }
    return []
  }

  private func isText(_ item: ActivityItem) -> Bool { item.isText || item.kind == .url }

  /// `2026-12-01T11:04:05.123Z`.
  static func isoTime(_ milliseconds: Int64) -> String {
    var seconds = time_t(milliseconds / 1000)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    var buffer = [CChar](repeating: 0, count: 32)
    let n = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S", &parts)
    let ms = String(milliseconds % 1000)
    return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) + "."
      + String(repeating: "0", count: 3 - ms.count) + ms + "Z"
  }
}
