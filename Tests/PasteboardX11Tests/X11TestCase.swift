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
