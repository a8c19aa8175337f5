import XCTest

@testable import PasteboardX11

/// Base of the X11 tests: one private Xvfb per test, stopped afterwards
/// together with any pb owner left serving on it.
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
    if let display {
      for pid in Tools.owners(on: display) { kill(pid, SIGKILL) }
      display.stop()
    }
    display = nil
  }

  /// Runs a script on this test's display.
  @discardableResult
  func sh(_ script: String, input: [UInt8]? = nil, env: [String: String] = [:], limit: Int = 60) throws -> Tools.Result {
    try Tools.shell(script, display: display, input: input, environment: env, limit: limit)
  }

  /// Starts the python3-xlib peer (scripts/x11-peer.py) with `arguments`
  /// in the background and waits until it owns what it should.
  /// - Returns: the file that collects its output.
  @discardableResult
  func startPeer(_ arguments: String) throws -> String {
    let log = "\(Tools.scratch)/peer-\(UUID().uuidString)"
    try sh("(\(Peer.command) \(arguments) > \(log) 2>&1 &); for i in $(seq 300); do grep -q ready \(log) && break; sleep 0.1; done")
    let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    guard output.contains("ready") else {
      XCTFail("the python3-xlib peer '\(arguments)' did not start: \(output)")
      throw TestFailure("peer did not start")
    }
    return log
  }

  func backend(timeout: Int64? = nil) -> X11Backend {
    let b = X11Backend(displayName: display.name, timeoutMilliseconds: timeout)
    b.ownerExecutable = Tools.pb
    return b
  }
}
