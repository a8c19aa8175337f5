import PasteboardConformance
import PasteboardKit
import RedisTestSupport
import XCTest

@testable import PasteboardRedis

/// The shared backend conformance suite against a real redis-server,
/// on a unix socket and on a loopback port with a password; every case
/// gets a prefix of its own, as separate users of one server would.
final class RedisConformanceTests: XCTestCase {
  func testConformanceOnUnixSocket() throws {
    let server = try RedisServer(unixSocket: true)
    try check(server)
  }

  func testConformanceOnLoopbackWithPassword() throws {
    let server = try RedisServer(password: "s3cret-pw")
    try check(server)
  }

  private func check(_ server: RedisServer) throws {
    let address = try RedisAddress.parse(server.url, from: "test")
    var n = 0
    BackendConformance.checkAll {
      n += 1
      return RedisBackend(settings: RedisSettings(address: address, prefix: "pbtest\(n):"), timeoutMilliseconds: 5000)
    }
  }
}
