import PasteboardKit

/// `pb.copy-to-pasteboard`: puts the items on the board, one pasteboard
/// item each (a URL as `text/uri-list` and text, a file as its content),
/// through the `Pasteboard` front door.
public final class CopyToPasteboardActivity: Activity {
  public let activityType = "pb.copy-to-pasteboard"
  public let title = "Copy to the pasteboard"
  public let category = ActivityCategory.action
  private let pasteboard: Pasteboard?
  private var items: [ActivityItem] = []

  public init(pasteboard: Pasteboard?) { self.pasteboard = pasteboard }

  public func canPerform(with items: [ActivityItem]) -> Bool { pasteboard != nil && !items.isEmpty }

  public func prepare(with items: [ActivityItem]) throws { self.items = items }

  public func perform() throws -> [ActivityItem] {
    guard let pasteboard else { throw PasteboardError.unavailable("no pasteboard to copy to") }
    try pasteboard.setItems(items.map(\.pasteboardItem))
    return []
  }
}

extension ActivityItem {
  /// The item as a pasteboard item.
  var pasteboardItem: PasteboardItem {
    switch kind {
    case .url:
      let url = (try? string()) ?? ""
      return PasteboardItem([
        Representation(type: MIMEType.uriList, bytes: Array((url + "\r\n").utf8)),
        Representation(type: MIMEType.utf8Text, bytes: Array(url.utf8)),
      ])
    default:
      return PasteboardItem([Representation(type: type, payload: payload)])
    }
  }
}
