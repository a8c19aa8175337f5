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

  func backend(timeout: Int64? = nil) -> X11Backend {
    let b = X11Backend(displayName: display.name, timeoutMilliseconds: timeout)
    b.ownerExecutable = Tools.pb
    return b
  }
}
