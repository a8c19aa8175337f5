import PasteboardKit

/// Whether an activity acts on the items (reverse, copy) or hands them to
/// someone or something (mail, print, open): UIActivity's categories.
public enum ActivityCategory: String {
  case action, share
}

/// A service that consumes items (after UIKit's UIActivity): it says
/// whether it can handle the items, prepares, performs, and finishes with
/// success or failure and the items it returns.
///
/// The controller calls, in this order and each once: `canPerform` (also
/// to list activities, so it must be cheap and free of side effects),
/// `prepare` once the activity is chosen (check options, read what is
/// needed: a failure here runs nothing), then `perform`, whose return is
/// UIKit's `activityDidFinish(true)` with the returned items and whose
/// error is `activityDidFinish(false)`.
public protocol Activity: AnyObject {
  /// A reverse-DNS name: `pb.reverse`, `com.example.upload`.
  var activityType: String { get }
  var title: String { get }
  var category: ActivityCategory { get }
  /// Whether the activity can act on `items` (UIKit's
  /// `canPerform(withActivityItems:)`).
  func canPerform(with items: [ActivityItem]) -> Bool
  /// Keeps the items and checks what performing will need
  /// (`prepare(withActivityItems:)`).
  /// - Throws: `.invalid` for a missing option (exit 2), `.refused` for a
  ///   choice the user declined (exit 3).
  func prepare(with items: [ActivityItem]) throws
  /// Performs the activity; returns the items it gives back (reverse gives
  /// the reversed text) or throws why it failed.
  func perform() throws -> [ActivityItem]
}

/// How an activity ended, as UIActivityViewController's completion
/// handler receives it: the activity's type, whether it completed, the
/// items it returned and the error when it did not.
public struct ActivityCompletion {
  public let activityType: String
  public let completed: Bool
  public let returnedItems: [ActivityItem]
  public let error: PasteboardError?
}
