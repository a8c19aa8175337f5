import Foundation
import XCTest

/// `pb info` (plain and `--json`), where the store is, and the `--json`
/// output of every command that has one, parsed and checked field by field.
final class InfoAndJSONTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws { pb = try PBRunner() }
  override func tearDown() { pb.cleanUp() }

  static let infoFields = [
    "backend", "reason", "display", "store", "store_source", "store_state", "sensitive_dir", "history_size",
    "history_entry_max", "history_total_max", "redis", "redis_source", "redis_prefix", "redis_key_file", "osc52", "osc52_reason", "osc52_max", "multiplexer", "version",
  ]

  /// Checks that `result` printed one line of valid JSON (UTF-8, no raw
  /// control characters) and returns it parsed.
  func json(_ result: PBRunner.Result, file: StaticString = #filePath, line: UInt = #line) throws -> Any {
    XCTAssertEqual(result.status, 0, "stderr: \(result.stderr)", file: file, line: line)
    let bytes = [UInt8](result.stdout)
    XCTAssertEqual(bytes.last, 0x0A, "JSON output ends with one newline", file: file, line: line)
    let body = bytes.dropLast()
    XCTAssertNil(body.firstIndex { $0 < 0x20 }, "no raw control character (a newline included) in JSON: \(result.text)", file: file, line: line)
    XCTAssertNotNil(String(validating: body, as: UTF8.self), "JSON output is UTF-8", file: file, line: line)
    return try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
  }

  /// `pb info` as fields: the plain form, checked to be one `field: value`
  /// line per field in the documented order.
  func info(_ runner: PBRunner, _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line) throws
    -> [String: String]
  {
    let result = try runner.run(["info"] + arguments, file: file, line: line)
    assertStatus(result, 0, file: file, line: line)
    var fields: [String: String] = [:]
    var order: [String] = []
    for text in result.text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      guard let colon = text.range(of: ": ") else {
        XCTFail("not a 'field: value' line: \(text)", file: file, line: line)
        continue
      }
      order.append(String(text[..<colon.lowerBound]))
      fields[String(text[..<colon.lowerBound])] = String(text[colon.upperBound...])
    }
    XCTAssertEqual(order, InfoAndJSONTests.infoFields, file: file, line: line)
    return fields
  }

  /// `pb info --json`: one object whose keys are the fields, in order, and
  /// whose values are strings.
  func infoJSON(_ runner: PBRunner, _ arguments: [String] = [], file: StaticString = #filePath, line: UInt = #line)
    throws -> [String: String]
  {
    let result = try runner.run(["info", "--json"] + arguments, file: file, line: line)
    let object = try XCTUnwrap(try json(result, file: file, line: line) as? [String: Any], file: file, line: line)
    XCTAssertEqual(Set(object.keys), Set(InfoAndJSONTests.infoFields), file: file, line: line)
    let positions = InfoAndJSONTests.infoFields.map { result.text.range(of: "\"\($0)\":")?.lowerBound }
    XCTAssertEqual(positions.compactMap { $0 }, positions.compactMap { $0 }.sorted(), "keys in order", file: file, line: line)
    var fields: [String: String] = [:]
    for (key, value) in object {
      fields[key] = value as? String
      XCTAssertNotNil(value as? String, "\(key) is a string", file: file, line: line)
    }
    return fields
  }

  func version() throws -> String {
    let result = try pb.run(["--version"])
    XCTAssertTrue(result.text.hasPrefix("pb "), result.text)
    return String(result.text.dropFirst(3).dropLast())
  }

  // MARK: pb info

  func testInfoPrintsEveryFieldInPlainTextAndJSON() throws {
    let expected = [
      "backend": "file", "reason": "chosen by PB_BACKEND", "display": "(unset)", "store": pb.store,
      "store_source": "PB_DIR", "store_state": "usable", "sensitive_dir": "(none: XDG_RUNTIME_DIR is unset)",
      "history_size": "20", "history_entry_max": "16777216", "history_total_max": "67108864",
      "redis": "redis://127.0.0.1:6379", "redis_source": "default", "redis_prefix": "pb:",
      "redis_key_file": "(none: --sensitive is refused on Redis)", "osc52": "no", "osc52_reason": "auto: not an SSH session (SSH_TTY and SSH_CONNECTION are unset)",
      "osc52_max": "100000", "multiplexer": "none", "version": try version(),
    ]
    XCTAssertEqual(try info(pb), expected)
    XCTAssertEqual(try infoJSON(pb), expected)
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.store), "pb info creates nothing")
  }

  func testInfoFollowsTheEnvironment() throws {
    var env = pb!
    env.environment["PB_HISTORY_SIZE"] = "5"
    env.environment["PB_HISTORY_ENTRY_MAX"] = "1M"
    env.environment["PB_HISTORY_TOTAL_MAX"] = "2G"
    env.environment["XDG_RUNTIME_DIR"] = pb.root + "/runtime"
    for fields in [try info(env), try infoJSON(env)] {
      XCTAssertEqual(fields["history_size"], "5")
      XCTAssertEqual(fields["history_entry_max"], "1048576")
      XCTAssertEqual(fields["history_total_max"], "2147483648")
      XCTAssertEqual(fields["sensitive_dir"], pb.root + "/runtime/pb")
    }
    env.environment["XDG_RUNTIME_DIR"] = "runtime"
    XCTAssertEqual(try infoJSON(env)["sensitive_dir"], "(none: XDG_RUNTIME_DIR is not an absolute path)")

    // The backend: --backend, then PB_BACKEND, then auto.
    XCTAssertEqual(try infoJSON(pb, ["--backend", "memory"])["backend"], "memory")
    XCTAssertEqual(try infoJSON(pb, ["--backend", "memory"])["reason"], "chosen by --backend")
    var auto = pb!
    auto.environment["PB_BACKEND"] = nil
    XCTAssertEqual(try infoJSON(auto)["backend"], "file")
    XCTAssertEqual(try infoJSON(auto)["reason"], "auto: DISPLAY is unset")
    // A display that nobody serves: probed, reported, and the file backend used, at once.
    var number = 4321
    while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
      || ((try? String(contentsOfFile: "/proc/net/unix", encoding: .utf8))?.contains("/tmp/.X11-unix/X\(number)\n") ?? false)
    {
      number += 1
    }
    auto.environment["DISPLAY"] = ":\(number)"
    let started = Date()
    for fields in [try info(auto), try infoJSON(auto)] {
      XCTAssertEqual(fields["backend"], "file")
      XCTAssertEqual(fields["display"], ":\(number)")
      XCTAssertTrue(
        fields["reason"]?.hasPrefix("auto: the X server of DISPLAY :\(number) is not reachable") ?? false,
        fields["reason"] ?? "no reason")
    }
    XCTAssertLessThan(Date().timeIntervalSince(started), 4, "pb info answers at once (two runs)")

    var bad = pb!
    bad.environment["PB_BACKEND"] = "bogus"
    assertStatus(try bad.run(["info"]), 2)
  }

  func testInfoReportsAnUnusableStoreAndExitsZero() throws {
    try FileManager.default.createDirectory(atPath: pb.store, withIntermediateDirectories: true)
    XCTAssertEqual(chmod(pb.store, 0o777), 0)
    for fields in [try info(pb), try infoJSON(pb)] {
      XCTAssertEqual(fields["store"], pb.store)
      let state = fields["store_state"] ?? ""
      XCTAssertTrue(state.hasPrefix("unusable: ") && state.contains("writable by others"), state)
    }
  }

  // MARK: Where the store is

  func testStoreIsChosenFromPBDirThenXDGStateHomeThenHome() throws {
    let home = pb.root + "/home"
    let state = pb.root + "/state"
    let cases: [(pbDir: String?, xdg: String?, store: String, source: String)] = [
      (pb.root + "/explicit", state, pb.root + "/explicit", "PB_DIR"),
      (nil, state, state + "/pb", "XDG_STATE_HOME"),
      (nil, "relative-state", home + "/.local/state/pb", "HOME"),  // a relative XDG_STATE_HOME is ignored
      (nil, nil, home + "/.local/state/pb", "HOME"),
    ]
    for (index, c) in cases.enumerated() {
      var env = pb!
      env.environment["PB_DIR"] = c.pbDir
      env.environment["XDG_STATE_HOME"] = c.xdg
      env.environment["HOME"] = home
      for fields in [try info(env), try infoJSON(env)] {
        XCTAssertEqual(fields["store"], c.store, "case \(index)")
        XCTAssertEqual(fields["store_source"], c.source, "case \(index)")
        XCTAssertEqual(fields["store_state"], "usable", "case \(index)")
      }
      let content = "chosen by \(c.source) \(index)"
      assertStatus(try env.run(["copy"], input: Data(content.utf8)), 0)
      XCTAssertEqual(
        FileManager.default.contents(atPath: c.store + "/boards/general").map { $0.range(of: Data(content.utf8)) != nil },
        true, "case \(index): the board is written under \(c.store)")
      XCTAssertEqual(try env.run(["paste"]).text, content, "case \(index)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/relative-state"), "a relative XDG_STATE_HOME is not used")
  }

  func testNoAbsoluteHomeMeansNoStore() throws {
    for home in ["relative-home", nil] {
      var env = pb!
      env.environment["PB_DIR"] = nil
      env.environment["XDG_STATE_HOME"] = "relative-state"
      env.environment["HOME"] = home
      for fields in [try info(env), try infoJSON(env)] {
        XCTAssertEqual(fields["store"], "(none)")
        XCTAssertEqual(fields["store_source"], "(none)")
        XCTAssertTrue(fields["store_state"]?.hasPrefix("unusable: no store directory") ?? false, fields["store_state"] ?? "")
      }
      let copy = try env.run(["copy"], input: Data("x".utf8))
      assertStatus(copy, 4)
      XCTAssertTrue(copy.stderr.contains("HOME"), copy.stderr)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/relative-home"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/relative-state"))
  }

  func testRelativePBDirIsRefusedWithExitFour() throws {
    var env = pb!
    env.environment["PB_DIR"] = "relative/store"
    env.environment["XDG_STATE_HOME"] = pb.root + "/state"  // not a fallback for a bad PB_DIR
    let commands: [[String]] = [["copy"], ["paste"], ["types"], ["count"], ["boards"], ["history"], ["clear"], ["paste", "--history", "1"]]
    for command in commands {
      let result = try env.run(command, input: Data("x".utf8))
      assertStatus(result, 4)
      XCTAssertTrue(result.stderr.contains("PB_DIR is 'relative/store', a relative path"), "\(command): \(result.stderr)")
    }
    for fields in [try info(env), try infoJSON(env)] {
      XCTAssertEqual(fields["store"], "(none)")
      XCTAssertTrue(fields["store_state"]?.hasPrefix("unusable: PB_DIR is 'relative/store', a relative path") ?? false, fields["store_state"] ?? "")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/relative"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/state/pb"))
  }

  /// A store path with control characters, quotes and non-ASCII: JSON
  /// carries it exactly; the plain form shows it on one line, escaped.
  func testInfoAndErrorsKeepControlCharactersExactInJSON() throws {
    var env = pb!
    let store = pb.root + "/st\u{1}o\tr\ne\u{1B}[31m\"q\\\u{7F}\u{9B}\u{2028}é"
    env.environment["PB_DIR"] = store
    XCTAssertEqual(try infoJSON(env)["store"], store)
    XCTAssertEqual(try info(env)["store"], pb.root + "/st^Ao^Ir^Je^[[31m\"q\\^?<U+009B><U+2028>é")
    assertStatus(try env.run(["copy"], input: Data("x".utf8)), 0)
    XCTAssertTrue(FileManager.default.fileExists(atPath: store + "/boards/general"))
    // An unreadable board is listed with its reason, which names the path.
    assertStatus(try env.run(["copy", "-b", "work"], input: Data("y".utf8)), 0)
    try Data("damaged".utf8).write(to: URL(fileURLWithPath: store + "/boards/work"))
    let boards = try env.run(["boards", "--json"])
    assertStatus(boards, 7)
    let rows = try XCTUnwrap(try json(PBRunner.Result(status: 0, stdout: boards.stdout, stderr: "")) as? [[String: Any]])
    XCTAssertEqual(rows.count, 2)
    XCTAssertEqual(rows.last?["board"] as? String, "work")
    XCTAssertEqual(Set(rows.last?.keys.map { $0 } ?? []), ["board", "error"])
    let error = rows.last?["error"] as? String ?? ""
    XCTAssertTrue(error.hasPrefix(store + "/boards/work is damaged"), error)
  }

  // MARK: --json of boards, types, count

  func testBoardsTypesAndCountJSON() throws {
    XCTAssertEqual((try json(try pb.run(["boards", "--json"])) as? [Any])?.count, 0, "no boards: an empty array")
    XCTAssertEqual(
      try json(try pb.run(["count", "--json", "-b", "never"])) as? NSDictionary, ["board": "never", "count": 0] as NSDictionary)
    let neverTypes = try pb.run(["types", "--json", "-b", "never"])
    assertStatus(neverTypes, 1)
    XCTAssertEqual(neverTypes.stdout, Data())

    let html = "<p>two \"representations\"</p>\n"
    let plain = "two representations\n"
    try Data(html.utf8).write(to: URL(fileURLWithPath: pb.root + "/page.html"))
    try Data(plain.utf8).write(to: URL(fileURLWithPath: pb.root + "/page.txt"))
    assertStatus(try pb.run(["copy", "-t", "text/html", "page.html", "--also", "text/plain=page.txt"]), 0)
    assertStatus(try pb.run(["copy", "-b", "binary"], input: Data([0, 0xFF, 0xFE, 0x1B, 0x0A])), 0)
    let odd = #"application/x-"quoted"\back"#
    assertStatus(try pb.run(["copy", "-b", "odd", "-t", odd], input: Data("q".utf8)), 0)
    assertStatus(try pb.run(["copy", "-b", "odd", "-t", odd], input: Data("qq".utf8)), 0)
    assertStatus(try pb.run(["copy", "-b", "cleared"], input: Data("gone".utf8)), 0)
    assertStatus(try pb.run(["clear", "-b", "cleared"]), 0)
    let runtime = "/dev/shm/pb-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    var secret = pb!
    secret.environment["XDG_RUNTIME_DIR"] = runtime
    assertStatus(try secret.run(["copy", "-b", "secret", "--sensitive"], input: Data("hunter2".utf8)), 0)

    let types = try XCTUnwrap(try json(try pb.run(["types", "--json"])) as? [[[String: Any]]])
    XCTAssertEqual(types.count, 1, "one item")
    XCTAssertEqual(types.first?.map { $0["type"] as? String }, ["text/html", "text/plain"])
    XCTAssertEqual(types.first?.map { $0["size"] as? Int }, [html.utf8.count, plain.utf8.count])
    XCTAssertEqual(types.first?.map { Set($0.keys) }, [["type", "size"], ["type", "size"]])
    let oddTypes = try XCTUnwrap(try json(try pb.run(["types", "--json", "-b", "odd"])) as? [[[String: Any]]])
    XCTAssertEqual(oddTypes.first?.first?["type"] as? String, odd)
    XCTAssertEqual(oddTypes.first?.first?["size"] as? Int, 2)

    let boards = try XCTUnwrap(try json(try secret.run(["boards", "--json"])) as? [[String: Any]])
    XCTAssertEqual(boards.map { $0["board"] as? String }, ["binary", "cleared", "general", "odd", "secret"])
    for row in boards { XCTAssertEqual(Set(row.keys), ["board", "count", "size", "types", "sensitive"], "\(row)") }
    func row(_ name: String) -> [String: Any] { boards.first { $0["board"] as? String == name } ?? [:] }
    XCTAssertEqual(row("general")["count"] as? Int, 1)
    XCTAssertEqual(row("general")["size"] as? Int, html.utf8.count)
    XCTAssertEqual(row("general")["types"] as? [String], ["text/html", "text/plain"])
    XCTAssertEqual(row("general")["sensitive"] as? Bool, false)
    XCTAssertEqual(row("binary")["size"] as? Int, 5)
    XCTAssertEqual(row("binary")["types"] as? [String], ["application/octet-stream"])
    XCTAssertEqual(row("odd")["count"] as? Int, 2)
    XCTAssertEqual(row("odd")["types"] as? [String], [odd])
    XCTAssertEqual(row("cleared")["count"] as? Int, 2)
    XCTAssertTrue(row("cleared")["size"] is NSNull, "an empty board has no size: \(row("cleared"))")
    XCTAssertEqual(row("cleared")["types"] as? [String], [])
    XCTAssertEqual(row("secret")["sensitive"] as? Bool, true)
    XCTAssertEqual(row("secret")["size"] as? Int, 7)
    for name in ["binary", "cleared", "general", "odd"] {
      let count = try XCTUnwrap(try json(try pb.run(["count", "--json", "-b", name])) as? [String: Any])
      XCTAssertEqual(count["board"] as? String, name)
      XCTAssertEqual(count["count"] as? Int, row(name)["count"] as? Int, name)
      XCTAssertEqual(Set(count.keys), ["board", "count"])
    }
  }

  // MARK: --json of history

  func testHistoryJSON() throws {
    let started = Int64(Date().timeIntervalSince1970 * 1000)
    let controls = "a\u{0}b\u{1B}]52;c;eA==\u{7}c\td\ne\r\u{7F}f\u{9B}g\u{2028}h\u{202E}i \"q\" \\"
    let long = String(repeating: "0123456789", count: 30)
    let inputs: [(args: [String], bytes: [UInt8])] = [
      (["copy"], Array("first\n".utf8)),
      (["copy", "-t", "text/plain;charset=utf-8"], Array(controls.utf8)),
      (["copy", "-t", "text/plain"], [0x78, 0xFF, 0xFE, 0x79, 0xC3]),  // not UTF-8
      (["copy"], [0x00, 0x01, 0x02, 0xFF]),  // binary: no preview
      (["copy"], Array(long.utf8)),
    ]
    for input in inputs { assertStatus(try pb.run(input.args, input: Data(input.bytes)), 0) }
    let ended = Int64(Date().timeIntervalSince1970 * 1000)
    let entries = try XCTUnwrap(try json(try pb.run(["history", "--json"])) as? [[String: Any]])
    XCTAssertEqual(entries.count, inputs.count)
    for (index, entry) in entries.enumerated() {
      XCTAssertEqual(Set(entry.keys), ["number", "count", "time", "size", "types", "preview"], "\(entry)")
      XCTAssertEqual(entry["number"] as? Int, index + 1)
      XCTAssertEqual(entry["count"] as? Int, inputs.count - index, "newest first")
      XCTAssertEqual(entry["size"] as? Int, inputs[inputs.count - 1 - index].bytes.count)
      let time = Int64(entry["time"] as? Int ?? 0)
      XCTAssertTrue(time >= started - 1000 && time <= ended + 1000, "time \(time) is milliseconds since the epoch")
    }
    XCTAssertEqual(entries[4]["preview"] as? String, "first\n")
    XCTAssertEqual(entries[4]["types"] as? [String], ["text/plain;charset=utf-8"])
    XCTAssertEqual(entries[3]["preview"] as? String, controls, "control characters are exact in JSON")
    XCTAssertEqual(entries[3]["types"] as? [String], ["text/plain;charset=utf-8"])
    XCTAssertEqual(entries[2]["types"] as? [String], ["text/plain"])
    XCTAssertEqual(
      entries[2]["preview"] as? String, "x\u{FFFD}\u{FFFD}y\u{FFFD}", "bytes that are not UTF-8 become U+FFFD")
    XCTAssertEqual(entries[1]["types"] as? [String], ["application/octet-stream"])
    XCTAssertEqual(entries[1]["preview"] as? String, "", "no preview of binary content")
    XCTAssertEqual(entries[0]["preview"] as? String, String(long.prefix(240)))

    // A damaged entry is listed as such, and the listing fails.
    let folder = pb.store + "/history/general"
    let oldest = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().first)
    try FileManager.default.removeItem(atPath: folder + "/" + oldest)
    try Data("damaged".utf8).write(to: URL(fileURLWithPath: folder + "/" + oldest))
    let damaged = try pb.run(["history", "--json"])
    assertStatus(damaged, 7)
    let rows = try XCTUnwrap(try json(PBRunner.Result(status: 0, stdout: damaged.stdout, stderr: "")) as? [[String: Any]])
    XCTAssertEqual(rows.count, inputs.count)
    XCTAssertEqual(Set(rows.last?.keys.map { $0 } ?? []), ["number", "count", "damaged"])
    XCTAssertEqual(rows.last?["number"] as? Int, 5)
    XCTAssertEqual(rows.last?["count"] as? Int, 1)
  }
}

/// The history preview in JSON is cut at 240 bytes; a character that
/// straddles the cut must not become U+FFFD.
final class HistoryPreviewTests: XCTestCase {
  func testHistoryJSONPreviewDoesNotCutACharacterInHalf() throws {
    let pb = try PBRunner()
    defer { pb.cleanUp() }
    let text = "a" + String(repeating: "é", count: 200)  // é is 2 bytes: byte 240 is the first half of one
    assertStatus(try pb.run(["copy"], input: Data(text.utf8)), 0)
    let result = try pb.run(["history", "--json"])
    assertStatus(result, 0)
    let entries = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    let preview = try XCTUnwrap(entries.first?["preview"] as? String)
    XCTAssertFalse(preview.contains("\u{FFFD}"), "valid UTF-8 text previewed with U+FFFD: …\(preview.suffix(3))")
    XCTAssertTrue(text.hasPrefix(preview), "the preview is the start of the text")
  }
}
