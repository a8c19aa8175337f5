import PasteboardKit

/// `pb.print`: prints each printable item (text, PDF, PostScript, PNG,
/// JPEG, GIF, TIFF) with the system's `lp`, one job each, on the default
/// destination. Offered only when `lp` is on PATH and a destination is
/// configured (see `PrintDestination`, which finds it in process, so
/// listing activities costs no process); returns `lp`'s request lines
/// ("request id is …").
///
/// A file goes to `lp` by its full path (lp reads it itself, and runs
/// in `/`); other items go on its standard input.
public final class PrintActivity: Activity {
  public let activityType = "pb.print"
  public let title = "Print"
  public let category = ActivityCategory.share
  private let environment: ActivityEnvironment
  private var jobs: [ActivityItem] = []

  public init(environment: ActivityEnvironment) { self.environment = environment }

  static let printable = [
    "text/*", "application/pdf", "application/postscript", "image/png", "image/jpeg", "image/gif", "image/tiff",
  ]

  public func canPerform(with items: [ActivityItem]) -> Bool {
    items.contains(where: isPrintable) && environment.programs.find("lp") != nil && destination() != nil
  }

  public func prepare(with items: [ActivityItem]) throws { jobs = items.filter(isPrintable) }

  public func perform() throws -> [ActivityItem] {
    guard let lp = environment.programs.find("lp"), let destination = destination() else {
      throw PasteboardError.unavailable("no printer: lp is not installed or no destination is configured")
    }
    var requests: [ActivityItem] = []
    for (i, job) in jobs.enumerated() {
      let title = job.path.map { String($0.split(separator: "/").last ?? "pb") } ?? "pb \(job.kind.rawValue) \(i + 1)"
      var arguments = [lp, "-d", destination, "-t", title]
      var input: [UInt8]?
      if job.kind == .file, let path = job.path {
        arguments.append(ProgramRun.absolutePath(path))
      } else {
        input = try job.bytes()
      }
      let answer = try ProgramRun.run(arguments, input: input, timeout: environment.timeoutMilliseconds, what: "cannot print")
      let line = String(decoding: answer, as: UTF8.self).split(separator: "\n").first.map(String.init)
      if let line { requests.append(.text(line + "\n")) }
    }
    return requests
  }

  private func isPrintable(_ item: ActivityItem) -> Bool {
    item.kind != .url && PrintActivity.printable.contains { item.matches($0) }
  }

  /// The default destination, or nil when none is configured.
  func destination() -> String? {
    PrintDestination(home: environment.folders.home, programs: environment.programs).find()
  }
}
