import Foundation
import XCTest

/// The README's commands as CI runs them: `scripts/test` (and the summary
/// it prints) and `.ci/run`, which runs `scripts/test` and `scripts/try`.
///
/// The scripts run for real; only `swift` is replaced, by a stand-in that
/// plays back a recorded XCTest log (a test run inside a test run would
/// take minutes) and, for `scripts/build-release`, names the directory of
/// the pb under test, so `scripts/try` copies and pastes with the real pb.
final class ScriptTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws { pb = try PBRunner() }
  override func tearDown() { pb.cleanUp() }

  // XCTest's output, as swift-corelibs-xctest prints it.
  static let threeAssertionsInOneTest = """
    Test Suite 'All tests' started at 2026-12-01 10:00:00.000
    Test Suite 'pbPackageTests.xctest' started at 2026-12-01 10:00:00.000
    Test Suite 'SomeTests' started at 2026-12-01 10:00:00.000
    Test Case 'SomeTests.testOne' started at 2026-12-01 10:00:00.000
    Test Case 'SomeTests.testOne' passed (0.001 seconds)
    Test Case 'SomeTests.testThreeAssertions' started at 2026-12-01 10:00:00.001
    SomeTests.swift:4: error: SomeTests.testThreeAssertions : XCTAssertEqual failed: ("1") is not equal to ("2") -
    SomeTests.swift:5: error: SomeTests.testThreeAssertions : XCTAssertTrue failed -
    SomeTests.swift:6: error: SomeTests.testThreeAssertions : failed - x
    Test Case 'SomeTests.testThreeAssertions' failed (0.0 seconds)
    Test Case 'SomeTests.testTwo' started at 2026-12-01 10:00:00.002
    Test Case 'SomeTests.testTwo' passed (0.0 seconds)
    Test Suite 'SomeTests' failed at 2026-12-01 10:00:00.003
    \t Executed 3 tests, with 3 failures (0 unexpected) in 0.002 (0.002) seconds
    Test Suite 'pbPackageTests.xctest' failed at 2026-12-01 10:00:00.003
    \t Executed 3 tests, with 3 failures (0 unexpected) in 0.002 (0.002) seconds
    Test Suite 'All tests' failed at 2026-12-01 10:00:00.003
    \t Executed 3 tests, with 3 failures (0 unexpected) in 0.002 (0.002) seconds

    """

  /// The same with a skipped test: XCTest words its closing line differently.
  static let withASkippedTest = """
    Test Suite 'All tests' started at 2026-12-01 10:00:00.000
    Test Suite 'pbPackageTests.xctest' started at 2026-12-01 10:00:00.000
    Test Suite 'SomeTests' started at 2026-12-01 10:00:00.000
    Test Case 'SomeTests.testOne' started at 2026-12-01 10:00:00.000
    Test Case 'SomeTests.testOne' passed (0.001 seconds)
    Test Case 'SomeTests.testThreeAssertions' started at 2026-12-01 10:00:00.001
    SomeTests.swift:4: error: SomeTests.testThreeAssertions : XCTAssertEqual failed: ("1") is not equal to ("2") -
    SomeTests.swift:5: error: SomeTests.testThreeAssertions : XCTAssertTrue failed -
    SomeTests.swift:6: error: SomeTests.testThreeAssertions : failed - x
    Test Case 'SomeTests.testThreeAssertions' failed (0.0 seconds)
    Test Case 'SomeTests.testSkipped' started at 2026-12-01 10:00:00.002
    SomeTests.swift:8: SomeTests.testSkipped : Test skipped - no reason
    Test Case 'SomeTests.testSkipped' skipped (0.0 seconds)
    Test Case 'SomeTests.testTwo' started at 2026-12-01 10:00:00.002
    Test Case 'SomeTests.testTwo' passed (0.0 seconds)
    Test Suite 'SomeTests' failed at 2026-12-01 10:00:00.003
    \t Executed 4 tests, with 1 test skipped and 3 failures (0 unexpected) in 0.002 (0.002) seconds
    Test Suite 'pbPackageTests.xctest' failed at 2026-12-01 10:00:00.003
    \t Executed 4 tests, with 1 test skipped and 3 failures (0 unexpected) in 0.002 (0.002) seconds
    Test Suite 'All tests' failed at 2026-12-01 10:00:00.003
    \t Executed 4 tests, with 1 test skipped and 3 failures (0 unexpected) in 0.002 (0.002) seconds

    """

  static let allPassed = """
    Test Suite 'All tests' started at 2026-12-01 10:00:00.000
    Test Suite 'pbPackageTests.xctest' started at 2026-12-01 10:00:00.000
    Test Suite 'SomeTests' started at 2026-12-01 10:00:00.000
    Test Case 'SomeTests.testOne' started at 2026-12-01 10:00:00.000
    Test Case 'SomeTests.testOne' passed (0.001 seconds)
    Test Case 'SomeTests.testTwo' started at 2026-12-01 10:00:00.001
    pb: a line that a test printed
    Test Case 'SomeTests.testTwo' passed (0.0 seconds)
    Test Case 'SomeTests.testThree' started at 2026-12-01 10:00:00.001
    Test Case 'SomeTests.testThree' passed (0.0 seconds)
    Test Suite 'SomeTests' passed at 2026-12-01 10:00:00.002
    \t Executed 3 tests, with 0 failures (0 unexpected) in 0.002 (0.002) seconds
    Test Suite 'pbPackageTests.xctest' passed at 2026-12-01 10:00:00.002
    \t Executed 3 tests, with 0 failures (0 unexpected) in 0.002 (0.002) seconds
    Test Suite 'All tests' passed at 2026-12-01 10:00:00.002
    \t Executed 3 tests, with 0 failures (0 unexpected) in 0.002 (0.002) seconds

    """

  /// A run that crashed in its second test: no closing lines.
  static let crashed = """
    Test Suite 'All tests' started at 2026-12-01 10:00:00.000
    Test Suite 'pbPackageTests.xctest' started at 2026-12-01 10:00:00.000
    Test Suite 'SomeTests' started at 2026-12-01 10:00:00.000
    Test Case 'SomeTests.testOne' started at 2026-12-01 10:00:00.000
    Test Case 'SomeTests.testOne' passed (0.001 seconds)
    Test Case 'SomeTests.testCrashes' started at 2026-12-01 10:00:00.001
    Fatal error: boom
    error: Exited with unexpected signal code 4

    """

  static let noTestRan = """
    Test Suite 'Selected tests' started at 2026-12-01 10:00:00.000
    Test Suite 'Selected tests' passed at 2026-12-01 10:00:00.000
    \t Executed 0 tests, with 0 failures (0 unexpected) in 0.0 (0.0) seconds

    """

  /// Runs scripts/test-summary on `log`.
  func summary(_ log: String) throws -> PBRunner.Result {
    let path = pb.root + "/xctest-\(UUID().uuidString).log"
    try Data(log.utf8).write(to: URL(fileURLWithPath: path))
    return try pb.shell("\(shellQuoted(repositoryRoot + "/scripts/test-summary")) < \(shellQuoted(path))")
  }

  func testSummaryCountsTestCasesNotAssertions() throws {
    let failed = try summary(ScriptTests.threeAssertionsInOneTest)
    XCTAssertEqual(failed.status, 1)
    XCTAssertEqual(failed.text, "tests: failed: SomeTests.testThreeAssertions\ntests: 2 passed, 1 failed\n")
    let skipped = try summary(ScriptTests.withASkippedTest)
    XCTAssertEqual(skipped.status, 1)
    XCTAssertEqual(
      skipped.text, "tests: failed: SomeTests.testThreeAssertions\ntests: 2 passed, 1 failed, 1 skipped\n")
    let passed = try summary(ScriptTests.allPassed)
    XCTAssertEqual(passed.status, 0, passed.text)
    XCTAssertEqual(passed.text, "tests: 3 passed, 0 failed\n")
  }

  func testSummaryFailsARunThatDidNotComplete() throws {
    let crashed = try summary(ScriptTests.crashed)
    XCTAssertEqual(crashed.status, 1)
    XCTAssertEqual(
      crashed.text,
      "tests: 1 passed, 0 failed; the run did not complete: SomeTests.testCrashes started and never finished\n")
    // Cut off between two tests: a suite never closes.
    let cut = ScriptTests.allPassed.components(separatedBy: "\n").prefix(5).joined(separator: "\n") + "\n"
    let cutOff = try summary(cut)
    XCTAssertEqual(cutOff.status, 1)
    XCTAssertEqual(cutOff.text, "tests: 1 passed, 0 failed; the run did not complete: a test suite never finished\n")
    let nothing = try summary("error: could not build\n")
    XCTAssertEqual(nothing.status, 1)
    XCTAssertEqual(nothing.text, "tests: 0 passed, 0 failed; the run did not complete: no XCTest output\n")
    let none = try summary(ScriptTests.noTestRan)
    XCTAssertEqual(none.status, 1)
    XCTAssertEqual(none.text, "tests: no test ran\n")
  }

  /// A directory holding a stand-in `swift` that plays back `log` for
  /// `swift test` (exiting `status`), and for `swift build --show-bin-path`
  /// names `binDirectory`.
  func standInSwift(log: String, status: Int32, binDirectory: String) throws -> String {
    let dir = pb.root + "/stand-in-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try Data(log.utf8).write(to: URL(fileURLWithPath: dir + "/xctest.log"))
    let script = """
      #!/bin/sh
      case "$1 $*" in
        test*) cat \(shellQuoted(dir + "/xctest.log")); exit \(status) ;;
        *--show-bin-path*) echo \(shellQuoted(binDirectory)); exit 0 ;;
        build*) exit 0 ;;
      esac
      echo "stand-in swift: unexpected arguments: $*" >&2
      exit 64

      """
    try Data(script.utf8).write(to: URL(fileURLWithPath: dir + "/swift"))
    XCTAssertEqual(chmod(dir + "/swift", 0o755), 0)
    return dir
  }

  var pbDirectory: String { URL(fileURLWithPath: PBRunner.executable).deletingLastPathComponent().path }

  /// Runs a repository script with the stand-in `swift` first on PATH.
  func runScript(_ script: String, swift: String) throws -> PBRunner.Result {
    try pb.shell("PATH=\(shellQuoted(swift)):$PATH \(shellQuoted(repositoryRoot + "/" + script)) 2>&1", limit: 120)
  }

  func lastLine(_ result: PBRunner.Result) -> String {
    String(result.text.split(separator: "\n").last ?? "")
  }

  func testScriptsTestPrintsTheRealCountsAndFailsWhenATestFailed() throws {
    let failing = try runScript(
      "scripts/test", swift: try standInSwift(log: ScriptTests.threeAssertionsInOneTest, status: 1, binDirectory: pbDirectory))
    XCTAssertNotEqual(failing.status, 0, failing.text)
    XCTAssertEqual(lastLine(failing), "tests: 2 passed, 1 failed", failing.text)
    XCTAssertTrue(failing.text.contains("tests: failed: SomeTests.testThreeAssertions\n"), failing.text)

    let skipped = try runScript(
      "scripts/test", swift: try standInSwift(log: ScriptTests.withASkippedTest, status: 1, binDirectory: pbDirectory))
    XCTAssertNotEqual(skipped.status, 0, skipped.text)
    XCTAssertEqual(lastLine(skipped), "tests: 2 passed, 1 failed, 1 skipped", skipped.text)

    let passing = try runScript(
      "scripts/test", swift: try standInSwift(log: ScriptTests.allPassed, status: 0, binDirectory: pbDirectory))
    XCTAssertEqual(passing.status, 0, passing.text)
    XCTAssertEqual(lastLine(passing), "tests: 3 passed, 0 failed", passing.text)
  }

  func testScriptsTestFailsWhenTheRunDidNotComplete() throws {
    let crashed = try runScript(
      "scripts/test", swift: try standInSwift(log: ScriptTests.crashed, status: 1, binDirectory: pbDirectory))
    XCTAssertNotEqual(crashed.status, 0, crashed.text)
    XCTAssertTrue(lastLine(crashed).hasPrefix("tests: 1 passed, 0 failed; the run did not complete"), crashed.text)
    // A summary that looks complete does not hide a failed swift test.
    let status = try runScript(
      "scripts/test", swift: try standInSwift(log: ScriptTests.allPassed, status: 1, binDirectory: pbDirectory))
    XCTAssertEqual(status.status, 1, status.text)
    XCTAssertEqual(lastLine(status), "tests: swift test exited with status 1", status.text)
    // swift test succeeding with no test run is no success either.
    let none = try runScript(
      "scripts/test", swift: try standInSwift(log: ScriptTests.noTestRan, status: 0, binDirectory: pbDirectory))
    XCTAssertNotEqual(none.status, 0, none.text)
    XCTAssertEqual(lastLine(none), "tests: no test ran", none.text)
  }

  func testCIRunsTheTestsAndScriptsTry() throws {
    let good = try runScript(
      ".ci/run", swift: try standInSwift(log: ScriptTests.allPassed, status: 0, binDirectory: pbDirectory))
    XCTAssertEqual(good.status, 0, good.text)
    XCTAssertTrue(good.text.contains("tests: 3 passed, 0 failed\n"), good.text)
    XCTAssertTrue(good.text.contains("pb copied README.md and pasted it back byte for byte"), good.text)

    // A scripts/try that fails fails CI, even when every test passed.
    let broken = pb.root + "/broken-bin"
    try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
    try Data("#!/bin/sh\necho 'pb: broken on purpose' >&2\nexit 7\n".utf8).write(to: URL(fileURLWithPath: broken + "/pb"))
    XCTAssertEqual(chmod(broken + "/pb", 0o755), 0)
    let tryFails = try runScript(
      ".ci/run", swift: try standInSwift(log: ScriptTests.allPassed, status: 0, binDirectory: broken))
    XCTAssertNotEqual(tryFails.status, 0, tryFails.text)
    XCTAssertTrue(tryFails.text.contains("tests: 3 passed, 0 failed\n"), tryFails.text)
    XCTAssertTrue(tryFails.text.contains("pb: broken on purpose"), tryFails.text)

    // Failed tests fail CI, and scripts/try still runs and reports.
    let testsFail = try runScript(
      ".ci/run", swift: try standInSwift(log: ScriptTests.threeAssertionsInOneTest, status: 1, binDirectory: pbDirectory))
    XCTAssertNotEqual(testsFail.status, 0, testsFail.text)
    XCTAssertTrue(testsFail.text.contains("tests: 2 passed, 1 failed\n"), testsFail.text)
    XCTAssertTrue(testsFail.text.contains("pb copied README.md and pasted it back byte for byte"), testsFail.text)
  }
}
