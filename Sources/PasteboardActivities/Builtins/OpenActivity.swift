import PasteboardKit

/// `pb.open`: opens each URL and file with `xdg-open`, the desktop's
/// choice of program; offered only when `xdg-open` is on PATH.
///
/// `xdg-open` is waited for up to 5 seconds: when it exits, its status
/// decides; when it is still running then (it runs the viewer itself in
/// some desktops), it is left running and the item counts as opened.
public final class OpenActivity: Activity {
  public let activityType = "pb.open"
  public let title = "Open"
  public let category = ActivityCategory.share
  private let environment: ActivityEnvironment
  private var targets: [String] = []

  public init(environment: ActivityEnvironment) { self.environment = environment }

  public func canPerform(with items: [ActivityItem]) -> Bool {
    items.contains(where: isOpenable) && environment.programs.find("xdg-open") != nil
  }

  public func prepare(with items: [ActivityItem]) throws {
    targets = try items.filter(isOpenable).map { item in
      if item.kind == .file, let path = item.path { return path }
      return try item.string() ?? ""
    }
  }

  public func perform() throws -> [ActivityItem] {
    guard let program = environment.programs.find("xdg-open") else {
      throw PasteboardError.unavailable("xdg-open is not installed (Debian's xdg-utils)")
    }
    for target in targets {
      try ProgramRun.run(
        [program, target], timeout: min(environment.timeoutMilliseconds, 5000), what: "cannot open \(target)",
        leavesRunning: true)
    }
    return []
  }

  private func isOpenable(_ item: ActivityItem) -> Bool { item.kind == .url || (item.kind == .file && item.path != nil) }
}
