import Foundation
import RedisTestSupport
import XCTest

/// "Machines" sharing boards through one Redis server: pb runners with
/// homes and stores of their own, all pointed at the same server.
extension PBRunner {
  static func machine(_ server: RedisServer, url: String? = nil) throws -> PBRunner {
    var runner = try PBRunner()
    runner.environment["PB_BACKEND"] = "redis"
    runner.environment["PB_REDIS_URL"] = url ?? server.url
    return runner
  }
}

/// A test case with a private redis-server and two machines using it.
class RedisTestCase: XCTestCase {
  var server: RedisServer!
  var laptop: PBRunner!
  var desktop: PBRunner!

  /// Whether the server keeps its data across a SIGKILL (fault tests).
  var persistent: Bool { false }
  var password: String? { nil }

  override func setUpWithError() throws {
    server = try RedisServer(password: password, persistent: persistent)
    laptop = try .machine(server)
    desktop = try .machine(server)
  }

  override func tearDown() {
    laptop?.cleanUp()
    desktop?.cleanUp()
    server = nil
  }

  /// Writes `bytes` to a file of the runner's and returns its path.
  func file(_ bytes: Data, in runner: PBRunner, named name: String = "input") -> String {
    let path = runner.root + "/" + name
    FileManager.default.createFile(atPath: path, contents: bytes)
    return path
  }

  /// The process's peak resident memory that GNU time wrote to `path`.
  func peak(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let kilobytes = try XCTUnwrap(Int(text.split(separator: "\n").last ?? ""), "GNU time wrote: \(text)", file: file, line: line)
    return kilobytes << 10
  }
}
