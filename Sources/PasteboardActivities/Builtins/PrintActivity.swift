#if canImport(Glibc)
  import Glibc
#endif
import PasteboardKit

/// `pb.print`: prints each printable item (text, PDF, PostScript, PNG,
/// JPEG, GIF, TIFF) with the system's `lp`, one job each, on the default
/// destination. Offered only when `lp` is on PATH and a destination is
/// configured; returns `lp`'s request lines ("request id is …").
///
/// Whether a destination is configured is read in process where it can be
/// (`PRINTER` or `LPDEST`, a `Default` line in `~/.cups/lpoptions` or
/// `/etc/cups/lpoptions`, `<DefaultPrinter>` in `/etc/cups/printers.conf`
/// when readable), so listing activities costs no process; otherwise
/// `lpstat -d` is asked.
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
        arguments.append(path)
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
    for name in ["PRINTER", "LPDEST"] { if let d = environmentValue(name) { return d } }
    for file in [environment.folders.home + "/.cups/lpoptions", "/etc/cups/lpoptions"] {
      if let d = firstWord(after: "Default ", in: file) { return d }
    }
    if let d = firstWord(after: "<DefaultPrinter ", in: "/etc/cups/printers.conf") {
      return String(d.prefix { $0 != ">" })
    }
    guard let lpstat = environment.programs.find("lpstat"),
      let answer = try? ProgramRun.run([lpstat, "-d"], timeout: 3000, what: "lpstat")
    else { return nil }
    // "system default destination: NAME"
    let text = String(decoding: answer, as: UTF8.self)
    guard let colon = text.firstIndex(of: ":"), text.hasPrefix("system default destination") else { return nil }
    let name = text[text.index(after: colon)...].trimmingSpaces()
    return name.isEmpty ? nil : name
  }

  private func firstWord(after prefix: String, in path: String) -> String? {
    guard let bytes = try? Descriptor.open(path, O_RDONLY).readToEnd() else { return nil }
    for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix(prefix) {
      let word = line.dropFirst(prefix.count).prefix { $0 != " " && $0 != "\t" }
      if !word.isEmpty { return String(word) }
    }
    return nil
  }
}

extension Substring {
  func trimmingSpaces() -> String {
    String(drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" }).reversed())
  }
}
