import XCTest

/// The finer points of the owner's protocol, checked with a python3-xlib
/// requestor (checklist 25-28, 35).
final class ProtocolTests: X11TestCase {
  func testMultipleConvertsEachPairAndMarksFailures() throws {
    try sh("printf multi | $PB copy")
    let r = try sh("\(Peer.command) multiple")
    XCTAssertEqual(r.status, 0, r.stderr)
    let lines = r.text.split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.first, "notify target=MULTIPLE property=PB_MULTI")
    XCTAssertTrue(lines.contains("P1 UTF8_STRING \(Array("multi".utf8).map { String(format: "%02x", $0) }.joined())"), r.text)
    XCTAssertTrue(lines.contains("P2 none"), r.text)
    XCTAssertTrue(lines.contains { $0.hasPrefix("P3 ATOM TARGETS TIMESTAMP MULTIPLE") }, r.text)
  }

  func testStaleRequestsAreRefusedAndCurrentTimeServed() throws {
    try sh("printf fresh | $PB copy")
    let r = try sh("\(Peer.command) stale")
    XCTAssertEqual(r.text, "old refused\ncurrent served\n", r.stderr)
  }

  func testObsoleteRequestorGetsTheTargetAsProperty() throws {
    try sh("printf old | $PB copy")
    XCTAssertEqual(try sh("\(Peer.command) obsolete").text, "UTF8_STRING old\n")
  }

  func testTextTargetAnswersInTheNarrowestEncoding() throws {
    try sh("printf ascii | $PB copy")
    XCTAssertEqual(try sh("xclip -selection clipboard -o -t TEXT").text, "ascii")
    try sh("printf 'ünï' | $PB copy")
    XCTAssertEqual(try sh("xclip -selection clipboard -o -t TEXT").text, "ünï")
  }

  func testSensitiveContentCarriesThePasswordManagerHint() throws {
    try sh("printf secret | $PB copy --sensitive")
    let targets = try sh("xclip -selection clipboard -o -t TARGETS").text
    XCTAssertTrue(targets.contains("x-kde-passwordManagerHint"), targets)
    XCTAssertEqual(try sh("xclip -selection clipboard -o -t x-kde-passwordManagerHint").text, "secret")
    XCTAssertEqual(try sh("$PB types").text, "text/plain;charset=utf-8\ntext/plain\n", "the hint is no type")
  }

  func testPasteOnceCountsOnlyDataConversions() throws {
    try sh("printf once | $PB copy --paste-once")
    XCTAssertEqual(try sh("$PB types").status, 0)  // TARGETS and TIMESTAMP do not count
    XCTAssertEqual(try sh("xclip -selection clipboard -o -t TARGETS").status, 0)
    XCTAssertEqual(try sh("$PB paste").text, "once")
    XCTAssertTrue(Tools.eventually(1000) { Tools.owners(on: display).isEmpty })
    XCTAssertEqual(try sh("$PB paste").status, 1, "the selection is released after the last paste")
  }

  func testPastesNWithIncr() throws {
    let data = Tools.pattern(300_000)
    try sh("$PB copy --pastes 2 -t application/octet-stream < \(Tools.file(data))", env: ["PB_X11_CHUNK_SIZE": "65536"])
    XCTAssertTrue(try sh("xclip -selection clipboard -o -t application/octet-stream").stdout == data)
    XCTAssertEqual(Tools.owners(on: display).count, 1)
    XCTAssertTrue(try sh("$PB paste -t application/octet-stream").stdout == data)
    XCTAssertTrue(Tools.eventually(1000) { Tools.owners(on: display).isEmpty })
  }

  func testExpiryReleasesTheSelection() throws {
    try sh("printf soon | $PB copy --expire 400ms")
    XCTAssertEqual(try sh("$PB paste").text, "soon")
    XCTAssertTrue(Tools.eventually(2000) { Tools.owners(on: display).isEmpty })
    XCTAssertEqual(try sh("$PB paste").status, 1)
  }

  /// --foreground serves from the copying process itself (not from a
  /// child it leaves behind) and returns 0 when another program copies.
  func testForegroundServesFromTheCopyingProcessUntilReplaced() throws {
    let out = "\(Tools.scratch)/fg-\(UUID().uuidString)"
    try sh("(printf fg | $PB copy --foreground; echo \"exit $?\" > \(out)) & echo $! > \(out).shell")
    XCTAssertTrue(Tools.eventually(5000) { (try? sh("xclip -selection clipboard -o").text) == "fg" }, "nothing served")
    let shell = pid_t(Tools.contents(of: "\(out).shell").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    let owners = Tools.owners(on: display)
    XCTAssertEqual(owners.count, 1)
    XCTAssertEqual(owners.first.map(Tools.parent), shell, "the owner is pb copy itself, a child of the shell that ran it")
    XCTAssertEqual(Tools.contents(of: out), "", "pb copy --foreground returned while it owned the selection")
    try peerCopies("printf other | xclip -selection clipboard -i >/dev/null 2>&1")
    XCTAssertTrue(Tools.eventually(2000) { Tools.contents(of: out) == "exit 0\n" }, Tools.contents(of: out))
  }

  func testTerminatedOwnerReleasesWithoutManager() throws {
    try sh("printf bye | $PB copy")
    guard let pid = Tools.owners(on: display).first else { return XCTFail("no owner") }
    let start = Tools.now()
    kill(pid, SIGTERM)
    XCTAssertTrue(Tools.eventually(2000) { kill(pid, 0) != 0 || isZombie(pid) }, "SIGTERM did not end the owner")
    XCTAssertLessThan(Tools.now() - start, 1000, "with no manager there is nothing to wait for")
    XCTAssertEqual(try sh("$PB paste").status, 1)
  }

  func testTerminatedOwnerHandsOverToAClipboardManager() throws {
    try handOver(on: SIGTERM)
  }

  func testInterruptedOwnerHandsOverToAClipboardManager() throws {
    try handOver(on: SIGINT)
  }

  private func handOver(on signal: Int32, file: StaticString = #filePath, line: UInt = #line) throws {
    let manager = try startPeer("manager")
    try sh("printf keep-me | $PB copy")
    guard let pid = Tools.owners(on: display).first else { return XCTFail("no owner", file: file, line: line) }
    kill(pid, signal)
    XCTAssertTrue(Tools.eventually(3500) { kill(pid, 0) != 0 || isZombie(pid) }, "the owner did not exit after the hand-over", file: file, line: line)
    XCTAssertTrue(Tools.eventually(1000) { manager.output.contains("saved 7 bytes") }, manager.output, file: file, line: line)
    XCTAssertEqual(try sh("$PB paste").text, "keep-me", "the manager serves the clipboard now", file: file, line: line)
  }

  func testMuteManagerDelaysTheExitByAboutThreeSeconds() throws {
    try startPeer("mute-manager")
    try sh("printf x | $PB copy")
    guard let pid = Tools.owners(on: display).first else { return XCTFail("no owner") }
    let start = Tools.now()
    kill(pid, SIGTERM)
    XCTAssertTrue(Tools.eventually(5000) { kill(pid, 0) != 0 || isZombie(pid) })
    let waited = Tools.now() - start
    XCTAssertGreaterThan(waited, 2500)
    XCTAssertLessThan(waited, 4000)
  }

  func testBogusRequestorWindowLeavesTheOwnerServing() throws {
    try sh("printf steady | $PB copy")
    XCTAssertEqual(try sh("\(Peer.command) bogus").text, "sent\n")
    XCTAssertEqual(try sh("xclip -selection clipboard -o").text, "steady")
  }

  /// The owner ignores SIGHUP (the kernel then discards the signal as it
  /// is sent), so closing the terminal leaves it serving.
  func testHangupDoesNotEndTheOwner() throws {
    try sh("printf stays | $PB copy")
    guard let pid = Tools.owners(on: display).first else { return XCTFail("no owner") }
    // A paste served: the owner has set itself up and serves.
    XCTAssertEqual(try sh("$PB paste").text, "stays")
    XCTAssertTrue(Tools.ignoredSignals(of: pid).contains(SIGHUP), "SIGHUP is not ignored")
    kill(pid, SIGHUP)
    XCTAssertEqual(try sh("$PB paste").text, "stays")
    XCTAssertFalse(kill(pid, 0) != 0 || isZombie(pid), "SIGHUP ended the owner")
  }

  func testSensitiveContentIsNotHandedOver() throws {
    let manager = try startPeer("manager")
    try sh("printf hush | $PB copy --sensitive")
    guard let pid = Tools.owners(on: display).first else { return XCTFail("no owner") }
    kill(pid, SIGTERM)
    XCTAssertTrue(Tools.eventually(1000) { kill(pid, 0) != 0 || isZombie(pid) })
    XCTAssertFalse(manager.output.contains("saved"))
    XCTAssertEqual(try sh("$PB paste").status, 1, "released, not rescued")
  }

  func testClearAndCount() throws {
    XCTAssertEqual(try sh("$PB count").text, "0\n")
    try sh("printf a | $PB copy")
    let first = try sh("$PB count").text
    XCTAssertNotEqual(first, "0\n")
    XCTAssertEqual(try sh("$PB count").text, first, "stable while the owner stays")
    let stamp = UInt64(try sh("xclip -selection clipboard -o -t TIMESTAMP").text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    XCTAssertEqual((UInt64(first.dropLast()) ?? 0) >> 32, stamp, "the high half is the owner's TIMESTAMP")
    try sh("printf b | $PB copy")
    let second = try sh("$PB count").text
    XCTAssertNotEqual(second, first)
    XCTAssertGreaterThan(UInt64(second.dropLast()) ?? 0, UInt64(first.dropLast()) ?? 0)
    XCTAssertEqual(try sh("$PB clear").status, 0)
    XCTAssertTrue(Tools.eventually(1000) { Tools.owners(on: display).isEmpty })
    XCTAssertEqual(try sh("$PB paste").status, 1)
  }

  /// A bare Xvfb resets whenever its last client leaves; pb's reachability
  /// probe must not count as a client, or the connection that follows it
  /// would meet a server in the middle of a reset.
  func testServerThatResetsBetweenClients() throws {
    display.stop()
    display = try PrivateDisplay(resets: true)
    let r = try sh("for i in $(seq 20); do $PB paste > /dev/null 2>&1; echo $?; done")
    XCTAssertEqual(r.text, String(repeating: "1\n", count: 20))
    try sh("printf again | $PB copy")
    XCTAssertEqual(try sh("$PB paste").text, "again")
  }

  func testBackendUnavailableWhenNoServerAnswers() throws {
    let r = try sh("DISPLAY=:59999 $PB --backend x11 paste")
    XCTAssertEqual(r.status, 4, r.stderr)
    XCTAssertTrue(r.stderr.contains("DISPLAY is :59999"), r.stderr)
    // A stopped server accepts connections but never answers: no hang.
    kill(display.pid, SIGSTOP)
    defer { kill(display.pid, SIGCONT) }
    let stopped = try sh("$PB --backend x11 paste; echo \"exit $?\"; $PB info | grep -i reason", limit: 10)
    XCTAssertTrue(stopped.text.contains("exit 4"), stopped.text + stopped.stderr)
    XCTAssertLessThan(stopped.milliseconds, 4000)
  }
}
