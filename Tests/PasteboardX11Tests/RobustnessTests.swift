import XCTest

/// Owners and readers that misbehave, vanish or compete; pipelines that
/// must not hang (checklist 17-23, 31, 32).
final class RobustnessTests: X11TestCase {
  func testConcurrentReadersOfOneOwner() throws {
    let script = """
      set -e
      f=\(Tools.scratch)/twenty-$$; head -c 20971520 /dev/urandom > $f
      $PB copy -t application/octet-stream < $f
      for i in 1 2; do xclip -selection clipboard -o -t application/octet-stream > $f.x$i & done
      for i in 1 2; do $PB paste -t application/octet-stream > $f.p$i & done
      wait
      for i in 1 2; do cmp $f $f.x$i; cmp $f $f.p$i; done
      echo ok; rm -f $f $f.*
      """
    let r = try sh(script, limit: 60)
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.text, "ok\n")
  }

  func testReaderKilledMidTransferLeavesTheOwnerServing() throws {
    let script = """
      f=\(Tools.scratch)/big-$$; head -c 134217728 /dev/urandom > $f
      $PB copy -t application/octet-stream < $f
      xclip -selection clipboard -o -t application/octet-stream > /dev/null &
      reader=$!; sleep 0.05; kill -9 $reader; wait $reader 2>/dev/null
      start=$(date +%s%N)
      $PB paste -t application/octet-stream | cmp - $f && echo ok
      echo $(( ($(date +%s%N) - start) / 1000000 ))
      rm -f $f
      """
    let r = try sh(script, env: ["PB_X11_IDLE_TIMEOUT": "2s"], limit: 60)
    let lines = r.text.split(separator: "\n")
    XCTAssertEqual(lines.first, "ok", r.stderr)
    XCTAssertLessThan(Int(lines.last ?? "") ?? .max, 10_000, "the next reader waited on the dead one")
  }

  func testRequestorWindowDestroyedRightAway() throws {
    try sh("printf survive | $PB copy")
    XCTAssertEqual(try sh("\(Peer.command) vanish").text, "done\n")
    XCTAssertEqual(try sh("$PB paste").text, "survive")
  }

  func testOwnerReplacedByXclipExits() throws {
    try sh("printf ours | $PB copy")
    let owners = Tools.owners(on: display)
    XCTAssertEqual(owners.count, 1)
    try sh("printf theirs | xclip -selection clipboard -i >/dev/null 2>&1")
    XCTAssertTrue(Tools.eventually(1000) { Tools.owners(on: display).isEmpty }, "our owner did not exit")
    XCTAssertEqual(try sh("$PB paste").text, "theirs")
  }

  /// Replaced in the middle of an INCR transfer, the owner finishes it
  /// before it exits.
  func testReplacedMidTransferFinishesTheTransfer() throws {
    let r = try sh("""
      f=\(Tools.scratch)/mid-$$; head -c 16777216 /dev/urandom > $f
      $PB copy -t application/octet-stream < $f
      $PB paste -t application/octet-stream > $f.out & p=$!
      sleep 0.05
      printf theirs | xclip -selection clipboard -i >/dev/null 2>&1
      wait $p && cmp $f $f.out && echo complete
      rm -f $f $f.out
      """, env: ["PB_X11_CHUNK_SIZE": "16384"], limit: 60)
    XCTAssertEqual(r.text, "complete\n", r.stderr)
    XCTAssertTrue(Tools.eventually(2000) { Tools.owners(on: display).isEmpty })
  }

  func testWeReplaceAForegroundXclip() throws {
    let r = try sh("""
      printf theirs | xclip -selection clipboard -i -quiet >/dev/null 2>&1 & x=$!
      sleep 0.2; printf ours | $PB copy
      for i in $(seq 50); do kill -0 $x 2>/dev/null || { echo gone; break; }; sleep 0.02; done
      """)
    XCTAssertEqual(r.text, "gone\n", r.stderr)
  }

  func testWeReplaceAForegroundXsel() throws {
    let r = try sh("""
      printf theirs | xsel -b -i -n >/dev/null 2>&1 & x=$!
      sleep 0.2; printf ours | $PB copy
      for i in $(seq 50); do kill -0 $x 2>/dev/null || { echo gone; break; }; sleep 0.02; done
      """)
    XCTAssertEqual(r.text, "gone\n", r.stderr)
    XCTAssertEqual(try sh("xsel -b -o").text, "ours")
  }

  func testXServerKilledEndsOwnerAndWaitingPaste() throws {
    try sh("printf x | $PB copy")
    let owners = Tools.owners(on: display)
    XCTAssertEqual(owners.count, 1)
    // A paste waiting on a mute owner, then the server dies.
    try startPeer("mute")
    let pasteOut = "\(Tools.scratch)/paste-\(UUID().uuidString)"
    try sh("($PB paste --timeout 20s > \(pasteOut) 2>&1; echo \"exit $?\" >> \(pasteOut)) & sleep 0.3")
    let start = Tools.now()
    display.stop(signal: SIGKILL)
    XCTAssertTrue(Tools.eventually(2000) { owners.allSatisfy { kill($0, 0) != 0 || isZombie($0) } }, "the owner outlived the server")
    XCTAssertTrue(Tools.eventually(2000) { ((try? String(contentsOfFile: pasteOut, encoding: .utf8)) ?? "").contains("exit") })
    XCTAssertLessThan(Tools.now() - start, 2500)
    let pasted = (try? String(contentsOfFile: pasteOut, encoding: .utf8)) ?? ""
    XCTAssertTrue(pasted.contains("exit 4"), pasted)
    XCTAssertTrue(pasted.contains("lost the connection to the X server"), pasted)
  }

  func testMuteOwnerTimesOut() throws {
    try startPeer("mute")
    let r = try sh("$PB paste --timeout 700ms")
    XCTAssertEqual(r.status, 5, r.stderr)
    XCTAssertTrue(r.stdout.isEmpty)
    XCTAssertTrue(r.stderr.contains("did not answer"), r.stderr)
    XCTAssertGreaterThanOrEqual(r.milliseconds, 650)
    XCTAssertLessThan(r.milliseconds, 2500)
  }

  func testOwnerStallingMidTransferTimesOut() throws {
    try startPeer("stall 100000")
    let out = "\(Tools.scratch)/stalled-\(UUID().uuidString)"
    let r = try sh("$PB paste --timeout 800ms -o \(out)")
    XCTAssertEqual(r.status, 5, r.stderr)
    XCTAssertTrue(r.stderr.contains("stopped sending"), r.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out), "a partial -o file was left")
  }

  func testPipelinesReturnAtOnceAndTheOwnerHoldsNothingOfTheCaller() throws {
    try checkPipelinesAndOwnerDescriptors()
  }

  /// The same with the owner re-executed rather than forked (what a
  /// multi-threaded library user gets).
  func testPipelinesWithAReExecutedOwner() throws {
    try checkPipelinesAndOwnerDescriptors(env: ["PB_X11_SPAWN": "exec"])
    XCTAssertEqual(try sh("xclip -selection clipboard -o").text, "hostname")
  }

  func testReExecutedOwnerReportsItsFailure() throws {
    let r = try sh("printf x | DISPLAY=:59999 $PB --backend x11 copy", env: ["PB_X11_SPAWN": "exec"])
    XCTAssertEqual(r.status, 4, r.stderr)
    XCTAssertTrue(r.stderr.contains("DISPLAY is :59999"), r.stderr)
  }

  private func checkPipelinesAndOwnerDescriptors(env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws {
    let r = try sh("""
      t() { s=$(date +%s%N); "$@"; echo $(( ($(date +%s%N) - s) / 1000000 )); }
      t eval 'out=$(printf x | $PB copy)'
      t eval 'printf x | $PB copy | cat'
      printf hostname > \(Tools.scratch)/hostname
      t eval '$PB copy < \(Tools.scratch)/hostname 2>&1 | cat'
      """, env: env, limit: 20)
    XCTAssertEqual(r.status, 0, r.stderr)
    for line in r.text.split(separator: "\n") {
      XCTAssertLessThan(Int(line) ?? .max, 1000, r.text)
    }
    let owners = Tools.owners(on: display)
    XCTAssertEqual(owners.count, 1)
    guard let pid = owners.first else { return }
    let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").sorted()
    let targets = fds.map { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) ?? "?" }
    XCTAssertEqual(targets.filter { $0 == "/dev/null" }.count, 3, "\(targets)")
    XCTAssertEqual(targets.count, 4, "only /dev/null x3 and the X socket: \(targets)")
    XCTAssertTrue(targets.contains { $0.hasPrefix("socket:") }, "\(targets)")
    XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"), "/")
    // Its own session: not the caller's.
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
    XCTAssertEqual(fields.count > 3 ? String(fields[3]) : "", String(pid), "session id is the owner's own pid")
  }

  func testTwoHundredCopyThenPasteCycles() throws {
    let r = try sh("""
      for i in $(seq 200); do
        printf "$i" | $PB copy || { echo "copy $i failed"; exit 1; }
        got=$($PB paste) || { echo "paste $i failed"; exit 1; }
        [ "$got" = "$i" ] || { echo "cycle $i read '$got'"; exit 1; }
      done
      echo ok
      """, limit: 120)
    XCTAssertEqual(r.text, "ok\n", r.stderr)
    XCTAssertTrue(Tools.eventually(1000) { Tools.owners(on: display).count == 1 }, "replaced owners linger")
  }
}

/// Whether `pid` is a zombie (exited, not yet reaped).
func isZombie(_ pid: pid_t) -> Bool {
  let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
  return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
}
