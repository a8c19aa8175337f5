import Foundation
import RedisTestSupport
import XCTest

/// A server killed mid-transfer: the old content survives, the staged
/// pieces expire, and pb says what happened and exits non-zero.
final class RedisKillTests: RedisTestCase {
  override var persistent: Bool { true }

  /// Piece keys of no item (staged by a write that never completed) that
  /// would live for ever.
  func lastingStagedPieces() throws -> [String] {
    let items = Set(try server.keys("pb:item:").map { $0.dropFirst("pb:item:".count) })
    return try server.keys("pb:piece:").filter { key in
      let id = key.dropFirst("pb:piece:".count).split(separator: ":").first ?? ""
      let lasting = try server.ttl(key) == -1
      return lasting && !items.contains(id)
    }
  }

  func testServerKilledMidCopy() throws {
    assertStatus(try laptop.run(["copy"], input: Data("old content".utf8)), 0)
    let result = try laptop.shell("""
      { head -c 3000000 /dev/urandom; sleep 1.5; head -c 3000000 /dev/urandom; } | pb copy 2> err &
      sleep 0.7; kill -9 \(server.pid); wait $!; echo $?; cat err
      """)
    let lines = result.text.split(separator: "\n")
    XCTAssertNotEqual(lines.first, "0", result.text)
    XCTAssertEqual(lines.count, 2, "one line: \(result.text)")
    XCTAssertTrue(lines.last?.hasPrefix("pb: ") == true && lines.last?.contains("127.0.0.1:\(server.port)") == true, result.text)
    try server.restart()
    XCTAssertGreaterThan(try server.keys("pb:piece:").count, 1, "pieces were staged before the kill")
    XCTAssertEqual(try desktop.run(["paste"]).text, "old content")
    XCTAssertEqual(try desktop.run(["count"]).text, "1\n")
    XCTAssertEqual(try lastingStagedPieces(), [], "staged pieces expire")
  }

  func testServerKilledMidPaste() throws {
    assertStatus(try laptop.shell("head -c \(48 << 20) /dev/urandom > big && pb copy < big"), 0)
    let big = laptop.root + "/big"
    let result = try desktop.shell("""
      { pb paste 2> err; echo $? > status; } | { head -c 1000000 > /dev/null; sleep 1.5; cat > /dev/null; } &
      sleep 0.7; kill -9 \(server.pid); wait
      """)
    try server.restart()
    assertStatus(result, 0)
    let status = try String(contentsOfFile: desktop.root + "/status")
    XCTAssertEqual(status, "4\n", "a paste cut short by the server's death")
    let errors = try String(contentsOfFile: desktop.root + "/err")
    XCTAssertEqual(errors.split(separator: "\n").count, 1, errors)
    XCTAssertTrue(errors.hasPrefix("pb: ") && errors.contains("127.0.0.1:\(server.port)"), errors)
    assertStatus(try desktop.shell("pb paste > again && cmp again \(big)"), 0)
  }
}

/// A server that refuses the password, one that never answers, and no
/// server at all: exit 4 with the address, never the password, in time.
final class RedisRefusalTests: RedisTestCase {
  override var password: String? { "right-password" }

  func testWrongPasswordIsRefusedWithoutShowingIt() throws {
    var wrong = laptop!
    wrong.environment["PB_REDIS_URL"] = "redis://:wrong-password-42@127.0.0.1:\(server.port)"
    for args in [["paste"], ["count"], ["types"]] {
      let result = try wrong.run(args)
      assertStatus(result, 4)
      XCTAssertFalse(result.stderr.contains("wrong-password-42"), result.stderr)
      XCTAssertTrue(result.stderr.contains("127.0.0.1:\(server.port)"), result.stderr)
    }
    let copy = try wrong.run(["copy"], input: Data("x".utf8))
    assertStatus(copy, 4)
    XCTAssertFalse(copy.stderr.contains("wrong-password-42"))
    var none = laptop!
    none.environment["PB_REDIS_URL"] = "redis://127.0.0.1:\(server.port)"
    let missing = try none.run(["paste"])
    assertStatus(missing, 4)
    XCTAssertTrue(missing.stderr.contains("needs a password"), missing.stderr)
  }

  func testURLFileMustBePrivate() throws {
    var runner = laptop!
    runner.environment["PB_REDIS_URL"] = nil
    let path = file(Data((server.url + "\n").utf8), in: runner, named: "redis-url")
    runner.environment["PB_REDIS_URL_FILE"] = path
    chmod(path, 0o644)
    let open = try runner.run(["copy"], input: Data("x".utf8))
    assertStatus(open, 4)
    XCTAssertTrue(open.stderr.contains("0600"), open.stderr)
    XCTAssertFalse(open.stderr.contains("right-password"))
    chmod(path, 0o600)
    assertStatus(try runner.run(["copy"], input: Data("via file".utf8)), 0)
    XCTAssertEqual(try desktop.run(["paste"]).text, "via file")
    XCTAssertFalse(try runner.run(["info"]).text.contains("right-password"))
  }

  func testServerThatNeverAnswersTimesOut() throws {
    let python = try requireTool("python3", package: "python3")
    let listener = Process()
    listener.executableURL = URL(fileURLWithPath: python)
    listener.arguments = ["-c", """
      import socket, time
      s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16)
      print(s.getsockname()[1], flush=True)
      held = []
      while True:
          c, _ = s.accept(); held.append(c)
      """]
    let out = Pipe()
    listener.standardOutput = out
    try listener.run()
    defer {
      listener.terminate()
      listener.waitUntilExit()
    }
    let port = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    var silent = laptop!
    silent.environment["PB_REDIS_URL"] = "redis://127.0.0.1:\(port)"
    for args in [["paste", "--timeout", "1s"], ["copy", "--timeout", "1s"]] {
      let start = Date()
      let result = try silent.run(args, input: Data("x".utf8), limit: 10)
      let elapsed = Date().timeIntervalSince(start)
      assertStatus(result, 4)
      XCTAssertTrue(result.stderr.contains("did not answer within 1 s"), result.stderr)
      XCTAssertLessThan(elapsed, 3, "\(args) took \(elapsed) s")
    }
    silent.environment["PB_REDIS_URL"] = "redis://:a-password@127.0.0.1:\(port)"
    let auth = try silent.run(["paste", "--timeout", "1s"], limit: 10)
    assertStatus(auth, 4)
    XCTAssertFalse(auth.stderr.contains("a-password"))
  }

  func testNoServerAtAll() throws {
    var nowhere = laptop!
    let port = RedisServer.freePort()
    nowhere.environment["PB_REDIS_URL"] = "redis://127.0.0.1:\(port)"
    let result = try nowhere.run(["paste"])
    assertStatus(result, 4)
    XCTAssertTrue(result.stderr.contains("127.0.0.1:\(port)") && result.stderr.contains("refused"), result.stderr)
    nowhere.environment["PB_REDIS_URL"] = "unix:///nonexistent/redis.sock"
    assertStatus(try nowhere.run(["count"]), 4)
    nowhere.environment["PB_REDIS_URL"] = "http://example"
    assertStatus(try nowhere.run(["count"]), 4)
  }
}
