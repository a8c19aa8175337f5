import PasteboardKit
import XCTest

@testable import PasteboardRedis

/// PB_REDIS_URL's forms, and the one promise about passwords: no
/// description of an address, and no error about one, ever holds it.
final class RedisAddressTests: XCTestCase {
  func testTheFormsOfTheURL() throws {
    XCTAssertEqual(
      try RedisAddress.parse("redis://db.example:6380/3", from: "t"),
      RedisAddress(endpoint: .tcp(host: "db.example", port: 6380), database: 3))
    XCTAssertEqual(try RedisAddress.parse("redis://host", from: "t").endpoint, .tcp(host: "host", port: 6379))
    XCTAssertEqual(try RedisAddress.parse("redis://[::1]:7000", from: "t").endpoint, .tcp(host: "::1", port: 7000))
    let full = try RedisAddress.parse("redis://ann:p%40ss:w@127.0.0.1:6379/0\n", from: "t")
    XCTAssertEqual(full.user, "ann")
    XCTAssertEqual(full.password, "p@ss:w")
    let secret = try RedisAddress.parse("redis://:only-pw@h", from: "t")
    XCTAssertNil(secret.user)
    XCTAssertEqual(secret.password, "only-pw")
    let unix = try RedisAddress.parse("unix:///run/redis.sock?db=2", from: "t")
    XCTAssertEqual(unix.endpoint, .unix(path: "/run/redis.sock"))
    XCTAssertEqual(unix.database, 2)
    XCTAssertEqual(try RedisAddress.parse("unix://:pw@/tmp/s", from: "t").password, "pw")
    XCTAssertEqual(try RedisAddress.parse("redis://[::1]", from: "t").endpoint, .tcp(host: "::1", port: 6379))
  }

  /// A malformed URL is refused with its reason, never read as some
  /// other address.
  func testMalformedURLsAreRefused() {
    for (url, reason) in [
      ("redis://", "names no host"), ("redis://h:99999", "port must be a number"), ("redis://h:x", "port must be a number"),
      ("http://h", "neither redis:// nor unix://"), ("unix://", "absolute path"), ("unix:///s?db=x", "only ?db=N"),
      ("redis://a:b@[::1", "closing ]"), ("redis://[::1]x", "only :PORT"), ("redis://h/x", "database must be a number"),
    ] {
      XCTAssertThrowsError(try RedisAddress.parse(url, from: "t"), url) { error in
        XCTAssertTrue("\(error)".contains(reason), "\(url): \(error)")
      }
    }
  }

  func testPasswordsAreNeverShown() throws {
    for url in ["redis://ann:hunter2@h:1/2", "redis://:hunter2@h", "unix://:hunter2@/s?db=1"] {
      XCTAssertFalse(try RedisAddress.parse(url, from: "t").description.contains("hunter2"), url)
    }
    XCTAssertEqual(try RedisAddress.parse("redis://ann:hunter2@h:1/2", from: "t").description, "redis://ann@h:1/2")
    for bad in ["http://:hunter2@h", "redis://:hunter2@h:port", "redis://:hunter2@", "unix://:hunter2@rel", "redis://:hunter2@h/x"] {
      XCTAssertThrowsError(try RedisAddress.parse(bad, from: "PB_REDIS_URL"), bad) { error in
        XCTAssertEqual((error as? PasteboardError)?.exitStatus, 4, bad)
        XCTAssertFalse("\(error)".contains("hunter2"), "\(error)")
      }
    }
  }
}
