import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// `--backend auto` (the default): X11 when DISPLAY's server answers, the
/// file store when it does not answer within about a second.
final class AutoBackendTests: X11TestCase {
  /// A private store for the file backend, mode 0700.
  private func store() throws -> [String: String] {
    let dir = "\(Tools.scratch)/store-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    return ["PB_BACKEND": "auto", "PB_DIR": dir]
  }

  func testAutoUsesAReachableDisplay() throws {
    let env = try store()
    let info = try sh("$PB info", env: env)
    XCTAssertTrue(info.text.contains("backend: x11\n") && info.text.contains("answers"), info.text)
    XCTAssertEqual(try sh("printf auto | $PB copy", env: env).status, 0)
    XCTAssertEqual(try sh("xclip -selection clipboard -o").text, "auto", "the copy went to the X11 clipboard")
    XCTAssertEqual(try sh("$PB --backend file paste", env: env).status, 1, "and not to the file store")
  }

  /// A server that accepts connections but never answers (stopped) makes
  /// `auto` fall back to the file store after about a second.
  func testAutoFallsBackAfterAboutASecond() throws {
    let env = try store()
    kill(display.pid, SIGSTOP)
    defer { kill(display.pid, SIGCONT) }
    let copy = try sh("printf offline | $PB copy", env: env, limit: 10)
    XCTAssertEqual(copy.status, 0, copy.stderr)
    XCTAssertGreaterThanOrEqual(copy.milliseconds, 900, "gave up on the display too soon")
    XCTAssertLessThan(copy.milliseconds, 2500, "waited too long for the display")
    let info = try sh("$PB info", env: env, limit: 10)
    XCTAssertTrue(info.text.contains("backend: file\n") && info.text.contains("no answer within 1000 ms"), info.text)
    XCTAssertEqual(try sh("$PB --backend file paste", env: env).text, "offline", "the copy went to the file store")
  }
}
