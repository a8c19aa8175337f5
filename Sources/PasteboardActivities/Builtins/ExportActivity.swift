import PasteboardKit

/// `pb.export`: writes the items into a new folder `--into DIR/NAME`
/// (`DIR` defaults to the user's documents folder), one file per part,
/// all or nothing.
///
/// Parts are named after their kind and type: `text.txt`, `text.html`,
/// `image.png`, `link.url` (the URL and a newline), a file under its own
/// name, `data.bin`; a second part of the same name becomes `text-2.txt`.
/// `--parts` chooses parts by kind (`text,image`; `image` also takes image
/// files) or number (`1,3`).
/// Without a name (and no terminal to ask for one), or with no part
/// chosen, it refuses (exit 2) and creates nothing; a folder that exists is
/// never touched.
public final class ExportActivity: Activity {
  public let activityType = "pb.export"
  public let title = "Export to a folder"
  public let category = ActivityCategory.share
  private let environment: ActivityEnvironment
  private var name = ""
  private var parts: [ActivityItem] = []

  public init(environment: ActivityEnvironment) { self.environment = environment }

  public func canPerform(with items: [ActivityItem]) -> Bool { !items.isEmpty }

  public func prepare(with items: [ActivityItem]) throws {
    parts = try ExportActivity.select(items, parts: environment.parts)
    guard !parts.isEmpty else {
      throw PasteboardError.invalid("pb.export needs at least one part: --parts \(environment.parts?.joined(separator: ",") ?? "") chose none")
    }
    var chosen = environment.name
    if chosen == nil, let ask = environment.ask {
      chosen = try ask("Name of the folder to export into: ")
    }
    guard let chosen, !chosen.isEmpty else {
      throw PasteboardError.invalid("pb.export needs a name for the folder (--name NAME)")
    }
    guard ExportActivity.isFolderName(chosen) else {
      throw PasteboardError.invalid("'\(chosen)' cannot be a folder name (no '/', not '.' or '..')")
    }
    name = chosen
  }

  public func perform() throws -> [ActivityItem] {
    let into = environment.into ?? environment.folders.documents
    if environment.into == nil { try SavedFiles.ensureFolder(into) }
    let folder = try AtomicDirectory(into + "/" + name)
    var used = Set<String>()
    for part in parts {
      try folder.write(part.kind == .url ? .bytes(try part.bytes() + [0x0A]) : part.payload, as: fileName(part, used: &used))
    }
    try folder.commit()
    return [.text(folder.destination + "\n")]
  }

  /// The parts `--parts` names: kinds (`text`, `image`, `url`, `file`,
  /// `data`) or 1-based numbers; all when nil.
  static func select(_ items: [ActivityItem], parts: [String]?) throws -> [ActivityItem] {
    guard let parts else { return items }
    var chosen: [Int] = []
    for part in parts {
      if let kind = ActivityItem.Kind(rawValue: part) {
        // An image given as a file is an image too.
        chosen += items.indices.filter { items[$0].kind == kind || (kind == .image && items[$0].type.lowercased().hasPrefix("image/")) }
      } else if let n = WholeNumber.value(part, as: Int.self), n >= 1 {
        guard n <= items.count else { throw PasteboardError.invalid("--parts \(n): there are \(items.count) items") }
        chosen.append(n - 1)
      } else {
        throw PasteboardError.invalid("--parts takes kinds (text, image, url, file, data) or numbers, not '\(part)'")
      }
    }
    return items.indices.filter(chosen.contains).map { items[$0] }
  }

  static func isFolderName(_ name: String) -> Bool {
    name != "." && name != ".." && !name.contains("/") && !name.utf8.contains(0) && name.utf8.count <= 255
  }

  private func fileName(_ part: ActivityItem, used: inout Set<String>) -> String {
    var base: String
    var ext: String?
    switch part.kind {
    case .file:
      let last = part.path.map { String($0.split(separator: "/").last ?? "file") } ?? "file"
      if let dot = last.lastIndex(of: "."), dot != last.startIndex {
        base = String(last[..<dot])
        ext = String(last[last.index(after: dot)...])
      } else {
        base = last
      }
    case .url:
      base = "link"
      ext = "url"
    case .text, .image, .data:
      base = part.kind.rawValue
      ext = TypeDetection.fileExtension(for: part.type) ?? (part.kind == .text ? "txt" : "bin")
    }
    let suffix = ext.map { "." + $0 } ?? ""
    var name = base + suffix
    var n = 2
    while used.contains(name) {
      name = "\(base)-\(n)\(suffix)"
      n += 1
    }
    used.insert(name)
    return name
  }
}
