import XCTest

@testable import PasteboardX11

/// Base of the X11 tests: one private Xvfb per test, stopped afterwards
/// together with any pb owner left serving on it and the peers the test
/// started.
class X11TestCase: XCTestCase {
  var display: PrivateDisplay!

  override func setUpWithError() throws {
    guard PrivateDisplay.checkTools() else { throw TestFailure("missing tools") }
    guard FileManager.default.isExecutableFile(atPath: Tools.pb) else {
      XCTFail("pb is not built beside the tests (\(Tools.pb)): run swift build first")
      throw TestFailure("no pb")
    }
    // The protocol edge cases use a python3-xlib peer (scripts/x11-peer.py).
    if Tools.shellStatus("/usr/bin/python3 -c 'import Xlib'") != 0 {
      XCTFail("the X11 tests need python3-xlib: install it with: apt-get install python3-xlib")
      throw TestFailure("no python3-xlib")
    }
    display = try PrivateDisplay()
  }

  override class func tearDown() {
    Tools.removeScratch()
    super.tearDown()
  }

  override func tearDown() {
    // Only what still runs on this test's display (a pid may be reused).
    for pid in peers where display.map({ Tools.runs(pid, on: $0) }) ?? false { kill(pid, SIGKILL) }
    peers = []
    probe = nil
    if let display {
      for pid in Tools.owners(on: display) { kill(pid, SIGKILL) }
      display.stop()
    }
    display = nil
  }

  /// Processes started by `background` (peers among them), stopped after
  /// the test.
  private var peers: [pid_t] = []
  /// A connection of the test's own, for looking at selections.
  private var probe: XConnection?

  /// Runs a script on this test's display.
  @discardableResult
  func sh(_ script: String, input: [UInt8]? = nil, env: [String: String] = [:], limit: Int = 60) throws -> Tools.Result {
    try Tools.shell(script, display: display, input: input, environment: env, limit: limit)
  }

  /// A peer started by `startPeer`.
  struct RunningPeer {
    let pid: pid_t
    /// The file that collects its standard output and error.
    let log: String
    var output: String { Tools.contents(of: log) }
  }

  /// Starts the python3-xlib peer (scripts/x11-peer.py) with `arguments`
  /// in the background and waits until it owns what it should.
  @discardableResult
  func startPeer(_ arguments: String) throws -> RunningPeer {
    try startPeer(command: "\(Peer.command) \(arguments)")
  }

  /// Starts `command` in the background on this display, to be killed
  /// after the test, and waits until it prints "ready" (or ends).
  @discardableResult
  func startPeer(command: String, file: StaticString = #filePath, line: UInt = #line) throws -> RunningPeer {
    let log = "\(Tools.scratch)/peer-\(UUID().uuidString)"
    let pid = try background("\(command) > \(log) 2>&1", file: file, line: line)
    let ready = Tools.eventually(10_000) { Tools.contents(of: log).contains("ready") || hasEnded(pid) }
    guard ready, Tools.contents(of: log).contains("ready") else {
      XCTFail("the peer '\(command)' did not get ready: \(Tools.contents(of: log))", file: file, line: line)
      throw TestFailure("peer did not get ready")
    }
    return RunningPeer(pid: pid, log: log)
  }

  /// Starts `command` (a shell command list) in the background on this
  /// display, to be killed after the test.
  /// - Returns: its process id (that of the command itself when it is one
  ///   simple command, which the subshell runs in its place).
  @discardableResult
  func background(_ command: String, env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) throws -> pid_t {
    let pidFile = "\(Tools.scratch)/pid-\(UUID().uuidString)"
    try sh("(\(command)) & echo $! > \(pidFile)", env: env)
    guard let pid = pid_t(Tools.contents(of: pidFile).trimmingCharacters(in: .whitespacesAndNewlines)) else {
      XCTFail("'\(command)' did not start", file: file, line: line)
      throw TestFailure("did not start")
    }
    peers.append(pid)
    return pid
  }

  /// Whether `pid` has exited.
  func hasEnded(_ pid: pid_t) -> Bool { kill(pid, 0) != 0 || isZombie(pid) }

  /// The window that owns `selection` now, or nil.
  func owner(of selection: String = "CLIPBOARD") throws -> UInt? {
    let c = try probeConnection()
    return SelectionRequestor(connection: c, answerMilliseconds: 1000, idleMilliseconds: 1000, selectionName: selection)
      .owner(of: c.atom(selection))
  }

  /// Whether `window` is a pb owner's (it publishes its TIMESTAMP).
  func isPBOwner(_ window: UInt) throws -> Bool {
    OwnerInspection.publishedTimestamp(of: window, on: try probeConnection()) != nil
  }

  private func probeConnection() throws -> XConnection {
    if let probe { return probe }
    let c = try XConnection(name: display.name)
    probe = c
    return c
  }

  /// Runs a peer's copy (`xclip -i`, `xsel -i`), checks that it succeeded,
  /// and waits until a program other than pb owns `selection` anew and,
  /// unless `pbOwnersLeft`, no pb owner is left: the state from which a
  /// paste shows that the peer handed the data to pb.
  func peerCopies(
    _ script: String, selection: String = "CLIPBOARD", pbOwnersLeft: Bool = false,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let before = try owner(of: selection)
    let r = try sh(script)
    XCTAssertEqual(r.status, 0, "\(script): \(r.stderr)", file: file, line: line)
    let taken = Tools.eventually(5000) {
      guard let now = try? owner(of: selection), now != before, (try? isPBOwner(now)) == false else { return false }
      return pbOwnersLeft || Tools.owners(on: display).isEmpty
    }
    XCTAssertTrue(taken, "'\(script)' did not leave the \(selection) selection to a peer", file: file, line: line)
  }

  func backend(timeout: Int64? = nil) -> X11Backend {
    let b = X11Backend(displayName: display.name, timeoutMilliseconds: timeout)
    b.ownerExecutable = Tools.pb
    return b
  }
}
