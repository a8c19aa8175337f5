import PasteboardKit

/// `pb.open`: opens each URL and file with `xdg-open`, the desktop's
/// choice of program; offered only when `xdg-open` is on PATH.
///
/// A file is handed over by its full path (xdg-open runs in `/`, and a
/// name such as `-n.txt` or `mailto:x` must not pass for an option or a
/// URL); a URL must have a scheme (`https:`, `mailto:`).
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
      if item.kind == .file, let path = item.path { return ProgramRun.absolutePath(path) }
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
        leavesRunning: true, explain: OpenActivity.explain)
    }
    return []
  }

  /// What xdg-open's exit status means (xdg-open(1)).
  static func explain(_ ended: ChildProcess.Termination) -> String? {
    switch ended {
    case .exited(2): return "xdg-open found no such file"
    case .exited(3): return "xdg-open found no program to open it with"
    case .exited(4): return "the program xdg-open started for it failed"
    default: return nil
    }
  }

  private func isOpenable(_ item: ActivityItem) -> Bool {
    if item.kind == .file { return item.path != nil }
    guard item.kind == .url, let url = try? item.string() else { return false }
    return OpenActivity.hasScheme(url)
  }

  /// Whether `url` starts with a URI scheme and a colon (RFC 3986).
  static func hasScheme(_ url: String) -> Bool {
    guard let colon = url.utf8.firstIndex(of: 0x3A) else { return false }
    let scheme = url.utf8[..<colon]
    guard let first = scheme.first, (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A else { return false }
    return scheme.allSatisfy { ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
  }
}
