import PasteboardActivities
import PasteboardKit
import XCTest

/// The activity controller's contract (UIActivityViewController's): what is
/// offered, the life cycle it runs, and what its completion handler gets.
final class ActivityControllerTests: XCTestCase {
  /// A test activity that writes each call into a shared log, takes text
  /// only (or anything), and can fail in prepare or perform.
  final class Probe: Activity {
    enum Failure { case none, prepare, perform, foreign }
    struct Foreign: Error {}

    let activityType: String
    let title = "Probe"
    let category = ActivityCategory.action
    let textOnly: Bool
    let failure: Failure
    let log: Log
    private var prepared: [ActivityItem] = []

    init(_ type: String, textOnly: Bool = false, failure: Failure = .none, log: Log) {
      activityType = type
      self.textOnly = textOnly
      self.failure = failure
      self.log = log
    }

    func canPerform(with items: [ActivityItem]) -> Bool { !textOnly || items.allSatisfy { $0.kind == .text } }

    func prepare(with items: [ActivityItem]) throws {
      log.events.append("prepare \(activityType) \(items.count)")
      if failure == .prepare { throw PasteboardError.invalid("no name given") }
      prepared = items
    }

    func perform() throws -> [ActivityItem] {
      log.events.append("perform \(activityType)")
      switch failure {
      case .perform: throw PasteboardError.failed("the printer is on fire")
      case .foreign: throw Foreign()
      default: return [.text("done with \(prepared.count)")]
      }
    }
  }

  final class Log { var events: [String] = [] }

  let log = Log()
  let items: [ActivityItem] = [.text("one"), .text("two")]

  func controller(_ activities: [Activity]) -> ActivityController {
    let controller = ActivityController(items: items, activities: activities)
    controller.completion = { [log] in
      log.events.append("finish \($0.activityType) \($0.completed) \($0.returnedItems.count) \($0.error.map { "\($0)" } ?? "-")")
    }
    return controller
  }

  func testExcludedAndIncapableActivitiesAreNotOffered() {
    let all = [Probe("t.a", log: log), Probe("t.text", textOnly: true, log: log), Probe("t.b", log: log)]
    let c = controller(all)
    XCTAssertEqual(c.available.map(\.activityType), ["t.a", "t.text", "t.b"], "in the order given")
    c.excludedTypes = ["t.b"]
    XCTAssertEqual(c.available.map(\.activityType), ["t.a", "t.text"])
    let withURL = ActivityController(items: items + [.url("https://example.org/")], activities: all)
    XCTAssertEqual(withURL.available.map(\.activityType), ["t.a", "t.b"], "canPerform: t.text takes text only")
    XCTAssertEqual(log.events, [], "listing runs nothing")
  }

  func testPreparePerformThenFinishWithTheReturnedItems() throws {
    let c = controller([Probe("t.a", log: log), Probe("t.b", log: log)])
    var received: [ActivityCompletion] = []
    let logging = c.completion!
    c.completion = { logging($0); received.append($0) }
    let outcome = c.perform(try XCTUnwrap(c.activity(named: "b")))
    XCTAssertEqual(log.events, ["prepare t.b 2", "perform t.b", "finish t.b true 1 -"])
    XCTAssertEqual(received.count, 1, "the completion is called once")
    for completion in received + [outcome] {
      XCTAssertEqual(completion.activityType, "t.b")
      XCTAssertTrue(completion.completed)
      XCTAssertNil(completion.error)
      XCTAssertEqual(try completion.returnedItems.map { String(decoding: try $0.bytes(), as: UTF8.self) }, ["done with 2"])
    }
  }

  func testAFailingActivityReportsNotCompletedWithItsError() {
    let c = controller([
      Probe("t.perform", failure: .perform, log: log), Probe("t.prepare", failure: .prepare, log: log),
      Probe("t.foreign", failure: .foreign, log: log),
    ])
    let failed = c.perform(c.activities[0])
    XCTAssertEqual(failed.activityType, "t.perform")
    XCTAssertFalse(failed.completed)
    XCTAssertEqual(failed.error, .failed("the printer is on fire"))
    XCTAssertEqual(failed.returnedItems.count, 0)
    // A failure in prepare runs nothing.
    let unprepared = c.perform(c.activities[1])
    XCTAssertEqual(unprepared.error, .invalid("no name given"))
    XCTAssertFalse(unprepared.completed)
    // Any other error is reported as a failure.
    let foreign = c.perform(c.activities[2])
    XCTAssertFalse(foreign.completed)
    guard case .failed = foreign.error else { return XCTFail("\(String(describing: foreign.error))") }
    XCTAssertEqual(log.events, [
      "prepare t.perform 2", "perform t.perform", "finish t.perform false 0 the printer is on fire",
      "prepare t.prepare 2", "finish t.prepare false 0 no name given",
      "prepare t.foreign 2", "perform t.foreign", "finish t.foreign false 0 \(foreign.error!)",
    ])
  }

  func testActivitiesAreNamedByTypeOrByAnUnambiguousLastPart() {
    let c = controller([Probe("t.a", log: log), Probe("u.a", log: log), Probe("t.b", log: log)])
    XCTAssertEqual(c.activity(named: "u.a")?.activityType, "u.a")
    XCTAssertEqual(c.activity(named: "b")?.activityType, "t.b")
    XCTAssertNil(c.activity(named: "a"), "two activities end in .a")
    XCTAssertNil(c.activity(named: "c"))
  }
}
