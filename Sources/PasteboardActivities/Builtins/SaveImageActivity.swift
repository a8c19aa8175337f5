import PasteboardKit

/// `pb.save-image`: each image into the user's pictures folder
/// (`xdg-user-dir PICTURES`), named `pb-image-DATE-TIME.EXT` (`-2`, `-3`,
/// ... when taken), never over an existing file. Returns the paths saved,
/// as text (each a line).
public final class SaveImageActivity: Activity {
  public let activityType = "pb.save-image"
  public let title = "Save image"
  public let category = ActivityCategory.action
  private let environment: ActivityEnvironment
  private var images: [ActivityItem] = []

  public init(environment: ActivityEnvironment) { self.environment = environment }

  public func canPerform(with items: [ActivityItem]) -> Bool { items.contains(where: isImage) }

  public func prepare(with items: [ActivityItem]) throws { images = items.filter(isImage) }

  public func perform() throws -> [ActivityItem] {
    let folder = environment.folders.pictures
    try SavedFiles.ensureFolder(folder)
    let base = "pb-image-" + SavedFiles.stamp(environment.clock())
    return try images.map { image in
      .text(try SavedFiles.save(image.payload, in: folder, base: base, extension: TypeDetection.fileExtension(for: image.type)) + "\n")
    }
  }

  private func isImage(_ item: ActivityItem) -> Bool { item.type.lowercased().hasPrefix("image/") }
}
