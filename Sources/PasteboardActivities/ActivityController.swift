import PasteboardKit

/// Offers items to activities, after UIKit's UIActivityViewController:
/// it lists the activities that can perform on the items and are not
/// excluded, runs the chosen one through its life cycle, and reports the
/// outcome to the completion handler.
public final class ActivityController {
  public let items: [ActivityItem]
  /// Every activity known, built-in and user-defined, in the order shown.
  public let activities: [Activity]
  /// Types never offered (UIKit's `excludedActivityTypes`).
  public var excludedTypes: Set<String> = []
  /// Called once, when the chosen activity has finished.
  public var completion: ((ActivityCompletion) -> Void)?

  public init(items: [ActivityItem], activities: [Activity]) {
    self.items = items
    self.activities = activities
  }

  /// The activities offered for the items: those that can perform on them
  /// and are not excluded.
  public var available: [Activity] {
    activities.filter { !excludedTypes.contains($0.activityType) && $0.canPerform(with: items) }
  }

  /// The activity named `name`: its whole type, or the last part of it
  /// (`reverse` for `pb.reverse`) when that names one activity.
  public func activity(named name: String) -> Activity? {
    if let exact = activities.first(where: { $0.activityType == name }) { return exact }
    let matches = activities.filter { $0.activityType.split(separator: ".").last.map(String.init) == name }
    return matches.count == 1 ? matches[0] : nil
  }

  /// Prepares and performs `activity` on the items, and reports the
  /// outcome (to `completion` too).
  @discardableResult
  public func perform(_ activity: Activity) -> ActivityCompletion {
    let outcome: ActivityCompletion
    do {
      try activity.prepare(with: items)
      let returned = try activity.perform()
      outcome = ActivityCompletion(activityType: activity.activityType, completed: true, returnedItems: returned, error: nil)
    } catch let error as PasteboardError {
      outcome = ActivityCompletion(activityType: activity.activityType, completed: false, returnedItems: [], error: error)
    } catch {
      outcome = ActivityCompletion(
        activityType: activity.activityType, completed: false, returnedItems: [], error: .failed("\(error)"))
    }
    completion?(outcome)
    return outcome
  }
}
