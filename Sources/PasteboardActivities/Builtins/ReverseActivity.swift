import PasteboardKit

/// `pb.reverse`: each text item (and text file) reversed by user-perceived
/// characters, line by line (see `TextReversal`); returns the reversed text.
public final class ReverseActivity: Activity {
  public let activityType = "pb.reverse"
  public let title = "Reverse text"
  public let category = ActivityCategory.action
  private var texts: [[UInt8]] = []

  public init() {}

  /// Text items that are UTF-8 (reversing bytes that are not text would
  /// make no sense); other items are left alone.
  public func canPerform(with items: [ActivityItem]) -> Bool {
    items.contains(where: isReversible)
  }

  public func prepare(with items: [ActivityItem]) throws {
    texts = try items.filter(isReversible).map { try $0.bytes() }
    // Only the first bytes were looked at to offer the activity: bytes
    // that are not UTF-8 further on would be lost in the reversal.
    if let bad = texts.firstIndex(where: { !TypeDetection.looksLikeText($0) }) {
      throw PasteboardError.refused("text item \(bad + 1) is not UTF-8 throughout, so it cannot be reversed")
    }
  }

  public func perform() throws -> [ActivityItem] {
    texts.map { .text(bytes: TextReversal.reverse($0)) }
  }

  private func isReversible(_ item: ActivityItem) -> Bool {
    guard item.isText, MIMEType.isText(item.type) else { return false }
    guard let head = try? item.payload.leadingBytes(64 * 1024) else { return false }
    return TypeDetection.looksLikeText(head, complete: item.payload.knownCount.map { $0 <= 64 * 1024 } ?? false)
  }
}
