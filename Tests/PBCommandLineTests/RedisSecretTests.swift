import Foundation
import XCTest

/// Sensitive content on a shared server: sealed on the client with the
/// user's key, so the server holds only ciphertext; another machine with
/// the key pastes it, one without is refused, and history never has it.
final class RedisSecretTests: RedisTestCase {
  let secret = "correct horse battery staple"

  func key(for runner: inout PBRunner, _ bytes: Data) -> String {
    let path = file(bytes, in: runner, named: "redis.key")
    chmod(path, 0o600)
    runner.environment["PB_REDIS_KEY_FILE"] = path
    return path
  }

  func testTheServerHoldsOnlyCiphertext() throws {
    let shared = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
    _ = key(for: &laptop, shared)
    _ = key(for: &desktop, shared)
    assertStatus(try laptop.run(["copy"], input: Data("plain before".utf8)), 0)
    assertStatus(try laptop.run(["copy", "--sensitive"], input: Data(secret.utf8)), 0)
    var stored = Data()
    for key in try server.keys() {
      let type = try server.cli(["TYPE", key]).trimmingCharacters(in: .whitespacesAndNewlines)
      let dump: [String] = type == "string" ? ["GET", key] : type == "hash" ? ["HGETALL", key] : type == "list" ? ["LRANGE", key, "0", "-1"] : ["SMEMBERS", key]
      stored.append(try server.cliData(dump))
    }
    XCTAssertNotNil(stored.range(of: Data("plain before".utf8)), "the dump sees stored content")
    XCTAssertNil(stored.range(of: Data(secret.utf8)), "the secret is on the server in the clear")
    XCTAssertNil(stored.range(of: Data("horse".utf8)))
    XCTAssertEqual(try desktop.run(["paste"]).text, secret, "another machine with the key pastes it")
    XCTAssertFalse(try desktop.run(["history"]).text.contains("horse"), "never in history")
    XCTAssertEqual(try laptop.run(["history"]).text.split(separator: "\n").count, 1, "only the plain content was kept")
    let item = try XCTUnwrap(try server.keys("pb:item:").first { try server.cli(["HGET", $0, "sensitive"]).hasPrefix("1") })
    let ttl = try server.ttl(item)
    XCTAssertGreaterThan(ttl, 9 * 60_000, "sensitive content expires in 10 minutes by default")
    XCTAssertLessThanOrEqual(ttl, 10 * 60_000)
  }

  func testWithoutTheRightKeyItIsRefused() throws {
    _ = key(for: &laptop, Data(repeating: 7, count: 32))
    assertStatus(try laptop.run(["copy", "--sensitive", "--expire", "1m"], input: Data(secret.utf8)), 0)
    let keyless = try desktop.run(["paste"])
    assertStatus(keyless, 4)
    XCTAssertTrue(keyless.stderr.contains("PB_REDIS_KEY_FILE"), keyless.stderr)
    XCTAssertEqual(keyless.stdout, Data())
    _ = key(for: &desktop, Data(repeating: 8, count: 32))
    let wrong = try desktop.run(["paste"])
    assertStatus(wrong, 4)
    XCTAssertTrue(wrong.stderr.contains("does not open"), wrong.stderr)
    XCTAssertEqual(wrong.stdout, Data(), "never garbage")
    XCTAssertEqual(try desktop.run(["types"]).text, "text/plain;charset=utf-8\n", "types need no key")
    var bare = try PBRunner.machine(server)
    defer { bare.cleanUp() }
    let refused = try bare.run(["copy", "--sensitive"], input: Data(secret.utf8))
    assertStatus(refused, 4)
    XCTAssertTrue(refused.stderr.contains("PB_REDIS_KEY_FILE"), refused.stderr)
    bare.environment["PB_REDIS_KEY_FILE"] = file(Data(repeating: 1, count: 32), in: bare, named: "open.key")
    chmod(bare.environment["PB_REDIS_KEY_FILE"]!, 0o644)
    assertStatus(try bare.run(["copy", "--sensitive"], input: Data(secret.utf8)), 4)
    XCTAssertEqual(try laptop.run(["paste"]).text, secret, "refused writes changed nothing")
  }

  /// A secret of several pieces: each sealed apart, and a piece moved
  /// or removed on the server does not open.
  func testPiecesCannotBeReorderedOrDropped() throws {
    _ = key(for: &laptop, Data(repeating: 3, count: 32))
    let size = (256 << 10) * 3 + 100
    assertStatus(try laptop.shell("head -c \(size) /dev/urandom > s && pb copy --sensitive < s && pb paste | cmp - s"), 0)
    let pieces = try server.keys("pb:piece:")
    XCTAssertEqual(pieces.count, 4)
    let id = pieces[0].split(separator: ":")[2]
    let p = { (n: Int) in "pb:piece:\(id):0:\(n)" }
    try server.cli(["RENAME", p(1), "pb:swap"])
    try server.cli(["RENAME", p(2), p(1)])
    try server.cli(["RENAME", "pb:swap", p(2)])
    assertStatus(try laptop.run(["paste", "-o", laptop.root + "/out"]), 4)
    try server.cli(["DEL", p(3)])
    try server.cli(["HSET", "pb:item:\(id)", "blobs", "3"])
    try server.cli(["RENAME", p(1), "pb:swap"])
    try server.cli(["RENAME", p(2), p(1)])
    try server.cli(["RENAME", "pb:swap", p(2)])
    let cut = try laptop.run(["paste", "-o", laptop.root + "/out"])
    assertStatus(cut, 4)
    XCTAssertFalse(FileManager.default.fileExists(atPath: laptop.root + "/out"))
  }
}
