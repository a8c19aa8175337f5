import Foundation
import PasteboardKit
import XCTest

/// A CUPS scheduler of the tests' own: Debian's cupsd with a private
/// configuration, spool and socket (clients reach it through
/// `CUPS_SERVER`), and one queue on Debian's cups-pdf backend, which
/// writes each job as a PDF file into a private folder.
///
/// cups-pdf reads its settings from `/etc/cups/cups-pdf-NAME.conf` for a
/// queue whose device is `cups-pdf:/NAME` (the directory is built in), so
/// that one file, named for this server alone, is the only thing written
/// outside the private folder; `stop()` removes it. The backend must run
/// as root, so the tests need root (CI runs as root).
final class PrivateCUPS {
  let root: String
  let socket: String
  /// The TCP port it also listens on, on 127.0.0.1.
  let port: UInt16
  /// The queue's name, also the name of its cups-pdf configuration.
  let queue: String
  /// Where cups-pdf writes the jobs: `job_N-TITLE.pdf`.
  let output: String
  let backendConfiguration: String
  private var daemon: ChildProcess?

  /// The environment a client of this server needs.
  var clientEnvironment: [String: String] { ["CUPS_SERVER": socket] }

  static let ppd = "/usr/share/ppd/cups-pdf/CUPS-PDF_noopt.ppd"

  /// Checks that everything is installed and starts the scheduler.
  init() throws {
    guard getuid() == 0 else {
      throw MissingTool(description: "the print tests start cupsd and its cups-pdf backend, which need root (CI runs as root)")
    }
    for (path, package) in [
      ("/usr/sbin/cupsd", "cups-daemon"), ("/usr/sbin/lpadmin", "cups-client"), ("/usr/bin/lp", "cups-client"),
      ("/usr/bin/lpstat", "cups-client"), ("/usr/lib/cups/backend/cups-pdf", "printer-driver-cups-pdf"),
      (PrivateCUPS.ppd, "printer-driver-cups-pdf"), ("/usr/lib/cups/filter/texttopdf", "cups-filters"),
      ("/usr/bin/pdftocairo", "poppler-utils"), ("/usr/bin/pdftotext", "poppler-utils"),
    ] where !FileManager.default.fileExists(atPath: path) {
      throw MissingTool(description: "\(path) is missing: install Debian's \(package) package (apt-get install \(package)); scripts/test installs it")
    }
    PrivateCUPS.removeLeftovers()
    let tag = String(UUID().uuidString.prefix(8)).lowercased()
    queue = "pbtest" + tag
    // Under /tmp (not a long TMPDIR): the socket's path must fit in
    // sun_path, and cups-pdf keeps paths short.
    root = "/tmp/pb-cups-" + tag
    socket = root + "/cups.sock"
    port = try PrivateCUPS.freePort()
    output = root + "/pdf"
    backendConfiguration = "/etc/cups/cups-pdf-\(queue).conf"
    let fm = FileManager.default
    for dir in ["etc", "spool", "tmp", "state", "cache", "log", "pdf", "cups-pdf-spool", "cups-pdf-log", "anonymous"] {
      try fm.createDirectory(atPath: root + "/" + dir, withIntermediateDirectories: true)
    }
    chmod(root, 0o755)
    // Filters run as lp and need the temporary folder (as /var/spool/cups/tmp).
    chown(root + "/tmp", 0, 7)
    chmod(root + "/tmp", 0o1770)
    try """
      ServerRoot \(root)/etc
      RequestRoot \(root)/spool
      TempDir \(root)/tmp
      StateDir \(root)/state
      CacheDir \(root)/cache
      ErrorLog \(root)/log/error_log
      AccessLog \(root)/log/access_log
      PageLog \(root)/log/page_log
      Printcap \(root)/state/printcap
      SystemGroup root

      """.write(toFile: root + "/etc/cups-files.conf", atomically: true, encoding: .utf8)
    try """
      LogLevel info
      ErrorPolicy abort-job
      Listen \(socket)
      Listen 127.0.0.1:\(port)
      Browsing No
      WebInterface No
      DefaultAuthType None
      <Location />
        Order allow,deny
        Allow all
      </Location>
      <Policy default>
        <Limit All>
          Order deny,allow
        </Limit>
      </Policy>

      """.write(toFile: root + "/etc/cupsd.conf", atomically: true, encoding: .utf8)
    // Label 1: files named job_N-TITLE.pdf, so each job's file is known.
    try """
      Out \(output)
      Spool \(root)/cups-pdf-spool
      AnonDirName \(root)/anonymous
      Log \(root)/cups-pdf-log
      Grp lp
      Label 1

      """.write(toFile: backendConfiguration, atomically: true, encoding: .utf8)
    let log = try Descriptor.open(root + "/log/cupsd.out", O_WRONLY | O_CREAT | O_TRUNC)
    daemon = try ChildProcess(
      ["/usr/sbin/cupsd", "-f", "-c", root + "/etc/cupsd.conf", "-s", root + "/etc/cups-files.conf"],
      input: .null, output: .descriptor(log), error: .descriptor(log))
    let deadline = Date().addingTimeInterval(15)
    while true {
      if fm.fileExists(atPath: socket), (try? lp(["/usr/bin/lpstat", "-r"]))?.stdout.contains("is running") == true { break }
      if Date() > deadline || daemon?.exit(before: WallClock.monotonicMilliseconds()) != nil {
        let why = (try? String(contentsOfFile: root + "/log/cupsd.out", encoding: .utf8)) ?? ""
        stop()
        throw MissingTool(description: "cupsd did not start within 15 s: \(why.prefix(500))")
      }
      usleep(20_000)
    }
    try addQueue()
  }

  /// Removes the cups-pdf files of servers whose folder is gone (a test
  /// run that was killed before it could stop its server).
  static func removeLeftovers() {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/etc/cups")) ?? []
    for name in names where name.hasPrefix("cups-pdf-pbtest") && name.hasSuffix(".conf") {
      let tag = name.dropFirst("cups-pdf-pbtest".count).dropLast(".conf".count)
      if !FileManager.default.fileExists(atPath: "/tmp/pb-cups-" + tag) {
        try? FileManager.default.removeItem(atPath: "/etc/cups/" + name)
      }
    }
  }

  /// A TCP port on 127.0.0.1 that nothing listens on now.
  static func freePort() throws -> UInt16 {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ok = withUnsafeMutablePointer(to: &addr) { p in
      p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0 }
    }
    guard ok else { throw MissingTool(description: "no free TCP port on 127.0.0.1") }
    return UInt16(bigEndian: addr.sin_port)
  }

  /// Runs a CUPS client program against this server.
  @discardableResult
  func lp(_ arguments: [String]) throws -> ToolRun {
    var env = ProcessInfo.processInfo.environment
    env["CUPS_SERVER"] = socket
    return try runTool(arguments, environment: env)
  }

  /// Adds the cups-pdf queue, enabled and accepting jobs, but not as the
  /// default destination. Text keeps its text: pdftops renders through
  /// Cairo, as Debian's cups-pdf README advises (Ghostscript's ps2write
  /// turns the glyphs into bitmaps that no tool reads back).
  func addQueue() throws {
    let run = try lp([
      "/usr/sbin/lpadmin", "-p", queue, "-E", "-v", "cups-pdf:/\(queue)", "-P", PrivateCUPS.ppd,
      "-o", "pdftops-renderer-default=pdftocairo",
    ])
    guard run.succeeded else { throw MissingTool(description: "lpadmin could not add the queue: \(run.stderr)") }
  }

  func makeDefault() throws {
    let run = try lp(["/usr/sbin/lpadmin", "-d", queue])
    guard run.succeeded else { throw MissingTool(description: "lpadmin -d failed: \(run.stderr)") }
  }

  /// Leaves the server with its queue but no default destination (a
  /// deleted default is not replaced).
  func removeDefault() throws {
    guard try lp(["/usr/sbin/lpadmin", "-x", queue]).succeeded else { throw MissingTool(description: "lpadmin -x failed") }
    try addQueue()
  }

  /// The PDF file of job `id` (from lp's "request id is QUEUE-ID"), once
  /// the job has completed; nil (and a failed test, with the scheduler's
  /// log) when it has not within `timeout` seconds.
  func pdf(ofJobIn lpAnswer: String, timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line) throws
    -> String?
  {
    guard let range = lpAnswer.range(of: #"request id is \S+-[0-9]+"#, options: .regularExpression),
      let id = lpAnswer[range].split(separator: "-").last.map(String.init)
    else {
      XCTFail("no request id in: \(lpAnswer)", file: file, line: line)
      return nil
    }
    // A job whose backend fails is aborted (ErrorPolicy abort-job), so it
    // is among the completed ones: completed without a file is a failure.
    // One whose filter fails is stopped, as the log says.
    let deadline = Date().addingTimeInterval(timeout)
    var why = "left no PDF within \(timeout) s"
    while Date() < deadline {
      let log = (try? String(contentsOfFile: root + "/log/error_log", encoding: .utf8)) ?? ""
      if log.contains("[Job \(id)] Job stopped") || log.contains("[Job \(id)] Job held") {
        why = "was stopped"
        break
      }
      let names = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
      let name = names.first { $0.hasPrefix("job_\(id)-") && $0.hasSuffix(".pdf") }
      if try lp(["/usr/bin/lpstat", "-W", "completed", "-o", queue]).stdout.contains("\(queue)-\(id) ") {
        if let name { return output + "/" + name }
        why = "ended without a PDF"
        break
      }
      usleep(50_000)
    }
    let log = (try? String(contentsOfFile: root + "/log/error_log", encoding: .utf8)) ?? ""
    let lines = log.split(separator: "\n").filter { $0.contains("[Job \(id)]") && !$0.contains("envp[") && !$0.contains("argv[") }
    XCTFail("job \(id) \(why); the scheduler says:\n\(lines.suffix(30).joined(separator: "\n"))", file: file, line: line)
    return nil
  }

  /// Stops the scheduler and removes everything it had.
  func stop() {
    if let daemon {
      _ = try? daemon.wait(until: WallClock.monotonicMilliseconds(), graceMilliseconds: 5000)
    }
    daemon = nil
    try? FileManager.default.removeItem(atPath: backendConfiguration)
    try? FileManager.default.removeItem(atPath: root)
  }
}
