import Foundation
import PasteboardKit
import XCTest

@testable import PasteboardX11

/// `pb watch --manage`, pb as the X11 clipboard manager, with real peers:
/// GTK 3's gtk_clipboard_store hands the clipboard over and xclip
/// pastes it after GTK has exited; an xclip killed with SIGKILL is taken
/// over, text and PNG byte for byte; a second manager (pb or another) is
/// refused with exit 3; a secret is never taken over; a new copy replaces
/// the takeover and the manager goes on; SIGTERM and a dead server end it.
final class ManagerTests: X11TestCase {
  /// A `pb watch --manage` running in the background.
  struct Manager {
    let pid: pid_t
    let log: String
    let statusFile: String
    var output: String { Tools.contents(of: log) }
    /// The report lines so far (one per change the watch saw).
    var reports: Int { output.split(separator: "\n").filter { !$0.hasPrefix("pb:") }.count }
    /// The exit status, once it has ended.
    var status: Int32? { Int32(Tools.contents(of: statusFile).trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  private var managers: [pid_t] = []

  override func tearDown() {
    for pid in managers where display.map({ Tools.runs(pid, on: $0) }) ?? false { kill(pid, SIGTERM) }
    managers = []
    super.tearDown()
  }

  /// Starts `pb watch --manage` and waits until it owns CLIPBOARD_MANAGER.
  private func startManager(
    _ options: String = "", env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line
  ) throws -> Manager {
    let id = UUID().uuidString
    let m = Manager(pid: 0, log: "\(Tools.scratch)/manager-\(id)", statusFile: "\(Tools.scratch)/manager-\(id).status")
    let pidFile = "\(Tools.scratch)/manager-\(id).pid"
    // The shell waits for pb to record its status (a signal as 128+N).
    try background("$PB watch --manage \(options) > \(m.log) 2>&1 & echo $! > \(pidFile); wait $!; echo $? > \(m.statusFile)", env: env)
    guard Tools.eventually(5000, { pid_t(Tools.contents(of: pidFile).trimmingCharacters(in: .whitespacesAndNewlines)) != nil }),
      let pid = pid_t(Tools.contents(of: pidFile).trimmingCharacters(in: .whitespacesAndNewlines))
    else {
      XCTFail("pb watch --manage did not start", file: file, line: line)
      throw TestFailure("no manager")
    }
    managers.append(pid)
    let running = Manager(pid: pid, log: m.log, statusFile: m.statusFile)
    let ready = Tools.eventually(5000) { (try? owner(of: "CLIPBOARD_MANAGER")) != nil || running.status != nil }
    guard ready, running.status == nil else {
      XCTFail("pb watch --manage did not take CLIPBOARD_MANAGER: \(running.output)", file: file, line: line)
      throw TestFailure("no manager")
    }
    return running
  }

  /// Waits until the manager has reported `count` changes: by then it has
  /// saved the last one (it saves before the watch reports).
  private func awaitReports(_ m: Manager, _ count: Int, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertTrue(Tools.eventually(5000) { m.reports >= count }, "\(count) reports: \(m.output)", file: file, line: line)
  }

  /// Waits until a pb owner serves CLIPBOARD: the manager took it over.
  private func awaitTakeover(_ m: Manager, file: StaticString = #filePath, line: UInt = #line) {
    let taken = Tools.eventually(5000) {
      guard let w = try? owner(of: "CLIPBOARD") else { return false }
      return (try? isPBOwner(w)) == true
    }
    XCTAssertTrue(taken, "the manager took CLIPBOARD over: \(m.output)", file: file, line: line)
  }

  /// `xclip -quiet` owns CLIPBOARD in the foreground, so its pid is known.
  private func xclipOwns(_ path: String, type: String? = nil) throws -> pid_t {
    let before = try owner(of: "CLIPBOARD")
    let pid = try background("exec xclip -quiet -i -selection clipboard \(type.map { "-t \($0)" } ?? "") \(path) 2>/dev/null")
    XCTAssertTrue(Tools.eventually(5000) { (try? owner(of: "CLIPBOARD")).flatMap { $0 } != before }, "xclip owns CLIPBOARD")
    return pid
  }

  private func requireGTK() throws {
    let r = try sh("\(ToolkitPeer.command) gtk check")
    guard r.status == 0 else {
      XCTFail("the manager tests need GTK 3: \(r.stderr)")
      throw TestFailure("no GTK 3")
    }
  }

  /// A PNG signature and header, then bytes of every value (NULs
  /// included), past 256 KiB so that both transfers go by INCR.
  private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Tools.pattern(400_000, seed: 7)

  // MARK: (i) GTK's gtk_clipboard_store

  func testGTKStoreHandsTextToTheManager() throws {
    try requireGTK()
    let m = try startManager()
    let text = Array("GTK, gespeichert: é ✓ \u{1F600}\n".utf8)
    let gtk = try startPeer(command: "\(ToolkitPeer.command) gtk store text \(Tools.file(text))")
    awaitReports(m, 1)
    kill(gtk.pid, SIGUSR1)
    XCTAssertTrue(Tools.eventually(10_000) { hasEnded(gtk.pid) }, "GTK exits after storing: \(gtk.output)")
    XCTAssertTrue(gtk.output.contains("stored in"), gtk.output)
    let xclip = try sh("xclip -o -selection clipboard")
    XCTAssertEqual(xclip.status, 0, xclip.stderr)
    XCTAssertEqual(xclip.stdout, text, "xclip pastes GTK's text after GTK has gone")
    XCTAssertEqual(try sh("$PB paste").stdout, text, "and so does pb")
    XCTAssertTrue(try owner(of: "CLIPBOARD").map(isPBOwner) == true, "pb serves it")
  }

  /// A command run for a change does not hold the manager up: GTK's
  /// store, asked while the command still runs, is answered at once.
  func testGTKStoreIsAnsweredWhileACommandRuns() throws {
    try requireGTK()
    let marks = "\(Tools.scratch)/command-\(UUID().uuidString)"
    _ = try startManager("-- /bin/sh -c 'echo started >> \(marks); exec /bin/sleep 8'")
    let text = Array("stored during a command\n".utf8)
    let gtk = try startPeer(command: "\(ToolkitPeer.command) gtk store text \(Tools.file(text))")
    XCTAssertTrue(Tools.eventually(5000) { Tools.contents(of: marks).contains("started") }, "the command runs for GTK's copy")
    kill(gtk.pid, SIGUSR1)
    XCTAssertTrue(Tools.eventually(10_000) { hasEnded(gtk.pid) }, "GTK exits after storing: \(gtk.output)")
    let took = gtk.output.split(separator: "\n").first { $0.hasPrefix("stored in") }.flatMap { Int($0.split(separator: " ")[2]) }
    XCTAssertLessThan(took ?? .max, 2000, "the store was answered while the command ran: \(gtk.output)")
    XCTAssertEqual(Tools.contents(of: marks), "started\n", "the command is still the first one")
    XCTAssertEqual(try sh("xclip -o -selection clipboard").stdout, text, "xclip pastes GTK's text after GTK has gone")
  }

  func testGTKStoreHandsAnImageToTheManager() throws {
    try requireGTK()
    let m = try startManager()
    let source = Tools.file(pngImage(width: 40, height: 30))
    let gtk = try startPeer(command: "\(ToolkitPeer.command) gtk store image \(source)")
    awaitReports(m, 1)
    // What GTK itself serves (it encodes its pixbuf anew).
    let served = try sh("xclip -o -selection clipboard -t image/png")
    XCTAssertEqual(served.status, 0, served.stderr)
    XCTAssertEqual(Array(served.stdout.prefix(4)), [0x89, 0x50, 0x4E, 0x47], "GTK serves a PNG")
    kill(gtk.pid, SIGUSR1)
    XCTAssertTrue(Tools.eventually(10_000) { hasEnded(gtk.pid) }, "GTK exits after storing: \(gtk.output)")
    XCTAssertEqual(try sh("xclip -o -selection clipboard -t image/png").stdout, served.stdout, "xclip: GTK's PNG byte for byte")
    XCTAssertEqual(try sh("$PB paste -t image/png").stdout, served.stdout, "pb paste -t image/png: the same")
  }

  /// GTK offers one image in a dozen encodings: under a --keep-max that
  /// the PNG fits and all of them do not, the PNG is still kept, and
  /// the encodings that did not fit are not offered.
  func testWhatFitsInKeepMaxIsKept() throws {
    try requireGTK()
    let source = Tools.file(pngImage(width: 40, height: 30))
    let gtk = try startPeer(command: "\(ToolkitPeer.command) gtk store image \(source)")
    let served = try sh("xclip -o -selection clipboard -t image/png").stdout
    let bmp = try sh("xclip -o -selection clipboard -t image/bmp").stdout
    XCTAssertGreaterThan(bmp.count, served.count + 64, "a BMP is larger than the PNG")
    let m = try startManager("--keep-max \(served.count + 64)")
    kill(gtk.pid, SIGUSR1)
    XCTAssertTrue(Tools.eventually(10_000) { hasEnded(gtk.pid) }, "GTK exits after storing: \(gtk.output)")
    awaitTakeover(m)
    XCTAssertEqual(try sh("xclip -o -selection clipboard -t image/png").stdout, served, "the PNG, byte for byte")
    let targets = try sh("xclip -o -selection clipboard -t TARGETS").text.split(separator: "\n")
    XCTAssertFalse(targets.contains("image/bmp"), "the BMP did not fit: \(targets)")
    XCTAssertFalse(m.output.contains("pb: "), "something was kept: nothing to complain of: \(m.output)")
  }

  /// The contrast: with no manager, gtk_clipboard_store returns at once
  /// and the clipboard goes with GTK.
  func testWithoutAManagerGTKStoreReturnsAndTheClipboardIsGone() throws {
    try requireGTK()
    let gtk = try startPeer(command: "\(ToolkitPeer.command) gtk store text \(Tools.file(Array("gone".utf8)))")
    XCTAssertEqual(try sh("xclip -o -selection clipboard").text, "gone", "GTK serves it while it runs")
    kill(gtk.pid, SIGUSR1)
    XCTAssertTrue(Tools.eventually(10_000) { hasEnded(gtk.pid) }, "GTK exits: \(gtk.output)")
    let took = gtk.output.split(separator: "\n").first { $0.hasPrefix("stored in") }.flatMap { Int($0.split(separator: " ")[2]) }
    XCTAssertNotNil(took, gtk.output)
    XCTAssertLessThan(took ?? .max, 1000, "no manager: nothing to wait for")
    // (The server notices the closed connection a moment after the exit.)
    XCTAssertTrue(Tools.eventually(5000) { (try? owner(of: "CLIPBOARD")).flatMap { $0 } == nil }, "nobody owns CLIPBOARD")
    XCTAssertNotEqual(try sh("xclip -o -selection clipboard").status, 0, "the text is gone")
    XCTAssertEqual(try sh("$PB paste").status, 1, "nothing there")
  }

  /// The SAVE_TARGETS exchange itself, from a python3-xlib owner that
  /// stays alive: the manager keeps only the target listed, takes
  /// CLIPBOARD over before it answers, and answers with success.
  func testSaveTargetsFetchesTheListedTargetsThenTakesOverThenAnswers() throws {
    let m = try startManager()
    let peer = try startPeer("save-targets kept")
    XCTAssertTrue(Tools.eventually(5000) { peer.output.contains("answer") }, peer.output)
    let lines = peer.output.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines.contains("answer saved"), "the manager answered with success: \(lines)")
    let lost = lines.firstIndex(of: "lost"), answer = lines.firstIndex(of: "answer saved")
    XCTAssertNotNil(lost, "the manager took CLIPBOARD: \(lines)")
    XCTAssertLessThan(lost ?? .max, answer ?? 0, "before it answered")
    XCTAssertFalse(hasEnded(peer.pid), "the owner still runs: the takeover came from SAVE_TARGETS")
    XCTAssertTrue(try owner(of: "CLIPBOARD").map(isPBOwner) == true, m.output)
    XCTAssertEqual(try sh("xclip -o -selection clipboard").text, "kept")
    // (The copy saved when the owner took CLIPBOARD held text/html too.)
    XCTAssertEqual(try sh("xclip -o -selection clipboard -t TARGETS").text.contains("text/html"), false, "only the listed target was kept")
  }

  /// TARGETS, TIMESTAMP and MULTIPLE on CLIPBOARD_MANAGER, as ICCCM asks.
  func testTheManagerSelectionAnswersTargetsTimestampAndMultiple() throws {
    _ = try startManager()
    let r = try sh("\(Peer.command) ask-manager")
    let lines = r.text.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "targets TARGETS MULTIPLE TIMESTAMP SAVE_TARGETS", r.text + r.stderr)
    XCTAssertTrue(lines.count > 1 && lines[1].hasPrefix("timestamp ") && lines[1] != "timestamp 0" && lines[1] != "timestamp ", r.text)
    XCTAssertEqual(lines.last, "multiple PB_M1 PB_M2 None", "STRING is refused, the rest served: \(r.text)")
  }

  // MARK: (ii) an owner killed

  func testKilledXclipTextAndPNGAreTakenOver() throws {
    let m = try startManager()
    let text = Array("from xclip\0with a NUL\n".utf8)
    let textOwner = try xclipOwns(Tools.file(text))
    awaitReports(m, 1)
    kill(textOwner, SIGKILL)
    awaitTakeover(m)
    XCTAssertEqual(try sh("xclip -o -selection clipboard").stdout, text, "xclip -o: the killed xclip's text")
    XCTAssertEqual(try sh("$PB paste").stdout, text)

    let imageOwner = try xclipOwns(Tools.file(png), type: "image/png")
    awaitReports(m, 3)  // xclip's, and pb's takeover before it
    kill(imageOwner, SIGKILL)
    awaitTakeover(m)
    let pasted = try sh("xclip -o -selection clipboard -t image/png")
    XCTAssertEqual(pasted.stdout.count, png.count)
    XCTAssertTrue(pasted.stdout == png, "xclip -o -t image/png: the PNG byte for byte")
    XCTAssertTrue(try sh("$PB paste -t image/png").stdout == png, "pb paste -t image/png: the same")
    XCTAssertEqual(try sh("xclip -o -selection clipboard -t TARGETS").text.contains("UTF8_STRING"), false, "a PNG is not offered as text")
  }

  /// A clipboard emptied on purpose (`pb clear`, an owner that expires)
  /// stays empty: only an owner that went away is replaced.
  func testAClipboardClearedOnPurposeStaysEmpty() throws {
    let m = try startManager()
    _ = try xclipOwns(Tools.file(Array("cleared".utf8)))
    awaitReports(m, 1)
    XCTAssertEqual(try sh("$PB clear").status, 0)
    XCTAssertTrue(Tools.eventually(5000) { (try? owner(of: "CLIPBOARD")).flatMap { $0 } == nil })
    awaitReports(m, 2)
    XCTAssertFalse(Tools.eventually(1500) { (try? owner(of: "CLIPBOARD")).flatMap { $0 } != nil }, "not taken over: \(m.output)")
    XCTAssertEqual(try sh("$PB paste").status, 1)
  }

  /// `--keep-max` bounds what the manager keeps: a larger content is not
  /// kept, said in one line, and not taken over; a smaller one still is.
  func testKeepMaxBoundsWhatIsTakenOver() throws {
    let m = try startManager("--keep-max 100K")
    let big = try xclipOwns(Tools.file(png), type: "image/png")
    awaitReports(m, 1)
    kill(big, SIGKILL)
    XCTAssertTrue(Tools.eventually(5000) { (try? owner(of: "CLIPBOARD")).flatMap { $0 } == nil })
    XCTAssertFalse(Tools.eventually(1000) { (try? owner(of: "CLIPBOARD")).flatMap { $0 } != nil }, "not taken over")
    let complaints = m.output.split(separator: "\n").filter { $0.hasPrefix("pb: ") }
    XCTAssertEqual(complaints.count, 1, m.output)
    XCTAssertTrue(complaints.first?.contains("--keep-max") == true, m.output)
    let small = try xclipOwns(Tools.file(Array(png.prefix(90_000))), type: "image/png")
    awaitReports(m, 3)
    kill(small, SIGKILL)
    awaitTakeover(m)
    XCTAssertTrue(try sh("xclip -o -selection clipboard -t image/png").stdout == Array(png.prefix(90_000)))
  }

  /// --manage combines with the other options: --json reports each
  /// change (the takeover among them) and --keep keeps the history.
  func testManageCombinesWithJSONAndKeep() throws {
    let store = "\(Tools.scratch)/store-\(UUID().uuidString)"
    let m = try startManager("--json --keep", env: ["PB_DIR": store])
    let owner = try xclipOwns(Tools.file(Array("kept and managed".utf8)))
    awaitReports(m, 1)
    kill(owner, SIGKILL)
    awaitTakeover(m)
    awaitReports(m, 2)
    let reports = m.output.split(separator: "\n")
    XCTAssertEqual(reports.count, 2, m.output)
    XCTAssertTrue(reports.allSatisfy { $0.hasPrefix("{") && $0.contains("\"board\":\"general\"") }, m.output)
    XCTAssertEqual(try sh("$PB paste").text, "kept and managed")
    let history = try sh("$PB paste --backend file --history 1", env: ["PB_DIR": store])
    XCTAssertEqual(history.text, "kept and managed", history.stderr)
  }

  // MARK: (iii) one manager at a time

  func testASecondManagerIsRefused() throws {
    let first = try startManager()
    let second = try sh("$PB watch --manage", limit: 10)
    XCTAssertEqual(second.status, 3, second.stderr)
    XCTAssertEqual(second.stderr.split(separator: "\n").count, 1, second.stderr)
    XCTAssertTrue(second.stderr.hasPrefix("pb: another clipboard manager runs"), second.stderr)
    XCTAssertNil(first.status, "the first goes on")
  }

  func testAnotherProgramsManagerIsRefused() throws {
    try startPeer("mute-manager")
    let r = try sh("$PB watch --manage", limit: 10)
    XCTAssertEqual(r.status, 3, r.stderr)
    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    XCTAssertTrue(r.stderr.contains("CLIPBOARD_MANAGER"), r.stderr)
  }

  /// A working manager of another program (the python3-xlib peer that
  /// saves on SAVE_TARGETS) keeps its place too.
  func testAWorkingManagerOfAnotherProgramIsRefused() throws {
    try startPeer("manager")
    let r = try sh("$PB watch --manage", limit: 10)
    XCTAssertEqual(r.status, 3, r.stderr)
    XCTAssertTrue(r.stderr.hasPrefix("pb: another clipboard manager runs"), r.stderr)
  }

  // MARK: (iv) secrets

  /// A password manager's owner is not fetched, and after it dies the
  /// clipboard stays empty: neither the secret nor the content before it
  /// comes back.
  func testASecretIsNeverTakenOver() throws {
    let m = try startManager()
    _ = try xclipOwns(Tools.file(Array("before".utf8)))
    awaitReports(m, 1)
    let secret = try startPeer("secret hunter2")
    awaitReports(m, 2)
    let secretWindow = try owner(of: "CLIPBOARD")
    kill(secret.pid, SIGKILL)
    XCTAssertTrue(Tools.eventually(5000) { (try? owner(of: "CLIPBOARD")) != secretWindow }, "the server saw the secret's owner go")
    let takenOver = Tools.eventually(1500) { (try? owner(of: "CLIPBOARD")).flatMap { $0 } != nil }
    XCTAssertFalse(takenOver, "nobody takes the secret's place: \(m.output)")
    XCTAssertNotEqual(try sh("xclip -o -selection clipboard").status, 0)
    let requests = secret.output.split(separator: "\n").filter { $0.hasPrefix("request ") }
    XCTAssertEqual(Set(requests), ["request TARGETS"], "only TARGETS was asked of the secret's owner")
  }

  // MARK: (v) a new copy after a takeover

  func testANewCopyReplacesTheTakeoverAndTheManagerGoesOn() throws {
    let m = try startManager()
    let first = try xclipOwns(Tools.file(Array("one".utf8)))
    awaitReports(m, 1)
    kill(first, SIGKILL)
    awaitTakeover(m)
    XCTAssertEqual(try sh("xclip -o -selection clipboard").text, "one")

    let second = try xclipOwns(Tools.file(Array("two".utf8)))
    XCTAssertEqual(try sh("xclip -o -selection clipboard").text, "two", "the new copy is the clipboard")
    XCTAssertEqual(try owner(of: "CLIPBOARD").map(isPBOwner), false, "xclip owns it, not pb")
    XCTAssertTrue(Tools.eventually(5000) { pbProcesses() == [m.pid] }, "the takeover's owner has ended: \(pbProcesses())")
    awaitReports(m, 3)
    kill(second, SIGKILL)
    awaitTakeover(m)
    XCTAssertEqual(try sh("xclip -o -selection clipboard").text, "two", "the manager took the second over too")
    XCTAssertEqual(try sh("$PB paste").text, "two")
    XCTAssertEqual(zombies(of: m.pid), [], "the first takeover's owner was reaped")
  }

  /// pb's own owner ending on SIGTERM offers the clipboard (SAVE_TARGETS):
  /// the manager saves it, takes it over, and the owner ends at once.
  func testPBOwnersHandoverOnSIGTERM() throws {
    let m = try startManager()
    let owner = try background("exec $PB copy --foreground < \(Tools.file(Array("handed over".utf8)))")
    awaitReports(m, 1)
    let start = Tools.now()
    kill(owner, SIGTERM)
    XCTAssertTrue(Tools.eventually(5000) { hasEnded(owner) })
    XCTAssertLessThan(Tools.now() - start, 2500, "the manager answered; no 3 s wait")
    awaitTakeover(m)
    XCTAssertEqual(try sh("xclip -o -selection clipboard").text, "handed over")
  }

  // MARK: (vi) ending

  func testSIGTERMEndsTheManagerAndReleasesCLIPBOARD_MANAGER() throws {
    let m = try startManager()
    kill(m.pid, SIGTERM)
    XCTAssertTrue(Tools.eventually(5000) { m.status != nil }, m.output)
    XCTAssertEqual(m.status, 128 + SIGTERM, "it dies of the signal, as every watch does")
    XCTAssertNil(try owner(of: "CLIPBOARD_MANAGER"), "CLIPBOARD_MANAGER is free again")
    let next = try startManager()
    XCTAssertNil(next.status, "another manager can start")
  }

  func testADeadServerEndsTheManager() throws {
    let m = try startManager()
    display.stop(signal: SIGKILL)
    XCTAssertTrue(Tools.eventually(5000) { m.status != nil }, m.output)
    XCTAssertEqual(m.status, 4)
    let lines = m.output.split(separator: "\n")
    XCTAssertEqual(lines.count, 1, m.output)
    XCTAssertTrue(lines.first?.hasPrefix("pb: lost the connection to the X server") == true, m.output)
  }

  /// The manager waits in poll(2) like every watch: 3 idle seconds cost
  /// it (almost) no CPU time.
  func testAnIdleManagerUsesNoCPU() throws {
    let m = try startManager()
    _ = try xclipOwns(Tools.file(Array("idle".utf8)))
    awaitReports(m, 1)
    func ticks() -> Int {
      let stat = Tools.contents(of: "/proc/\(m.pid)/stat")
      guard let close = stat.lastIndex(of: ")") else { return -1 }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 13 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : -1
    }
    let before = ticks()
    usleep(3_000_000)  // the idle time being measured
    let used = ticks() - before
    XCTAssertGreaterThanOrEqual(before, 0)
    XCTAssertLessThanOrEqual(used, 2, "an idle manager must not poll (clock ticks of CPU in 3 s)")
  }

  // MARK: helpers

  /// pb processes on this display (the manager and takeover owners).
  private func pbProcesses() -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { pid in
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) == Tools.pbResolved
        && Tools.runs(pid, on: display)
    }.sorted()
  }

  /// Children of `pid` that have ended and were not reaped.
  private func zombies(of pid: pid_t) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { Int32($0) }.filter { child in
      let stat = Tools.contents(of: "/proc/\(child)/stat")
      guard let close = stat.lastIndex(of: ")") else { return false }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 1 && fields[0] == "Z" && fields[1] == "\(pid)"
    }
  }

  /// A small real PNG (RGB, every pixel different), for GdkPixbuf.
  private func pngImage(width: Int, height: Int) -> [UInt8] {
    let script = """
      import struct, sys, zlib
      w, h = \(width), \(height)
      def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
      raw = b''.join(b'\\0' + bytes((x * 7 + y * 3 + c * 50) % 256 for x in range(w) for c in range(3)) for y in range(h))
      sys.stdout.buffer.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
      """
    return (try? sh("/usr/bin/python3 -c \"$S\"", env: ["S": script]).stdout) ?? []
  }
}
