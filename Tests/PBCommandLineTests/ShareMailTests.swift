import Foundation
import XCTest

/// `pb share --activity mail`: the message pb writes (`--into FILE`) or
/// hands to sendmail, read back by Python's `email` package with its
/// modern policy, the way a mail program would see it: headers decoded,
/// parts with their types, names and exactly their bytes.
final class ShareMailTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws { pb = try PBRunner() }
  override func tearDown() { pb.cleanUp() }

  /// Parses a message file and prints what a mail program sees, as JSON.
  static let reader = #"""
    import base64, email, email.policy, json, sys
    data = open(sys.argv[1], "rb").read()
    msg = email.message_from_bytes(data, policy=email.policy.default)
    def describe(part):
        d = {
            "type": part.get_content_type(),
            "charset": part.get_content_charset(),
            "filename": part.get_filename(),
            "disposition": part.get_content_disposition(),
            "encoding": (part.get("Content-Transfer-Encoding") or "").lower(),
            "headers": [[k, str(v)] for k, v in part.items()],
        }
        if not part.is_multipart():
            d["bytes"] = base64.b64encode(part.get_payload(decode=True) or b"").decode()
            if part.get_content_maintype() == "text":
                d["text"] = part.get_content()
        return d
    head, _, _ = data.partition(b"\r\n\r\n")
    lines = data.split(b"\n")
    date = msg["Date"]
    print(json.dumps({
        "headers": [[k, str(v)] for k, v in msg.items()],
        "date": date.datetime.isoformat() if date is not None and date.datetime is not None else None,
        "multipart": msg.is_multipart(),
        "type": msg.get_content_type(),
        "body": describe(msg),
        "parts": [describe(p) for p in msg.iter_parts()] if msg.is_multipart() else [],
        "defects": [type(x).__name__ for p in msg.walk() for x in p.defects],
        "longest": max(len(l.rstrip(b"\r")) for l in lines),
        "bareLF": any(not l.endswith(b"\r") for l in lines[:-1]),
        "rawHeaderBytes": any(b >= 0x80 for b in head),
    }))
    """#

  struct Parsed {
    let json: [String: Any]
    var headers: [(String, String)] {
      (json["headers"] as? [[String]] ?? []).map { ($0[0], $0[1]) }
    }
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var parts: [[String: Any]] { json["parts"] as? [[String: Any]] ?? [] }
    var body: [String: Any] { json["body"] as? [String: Any] ?? [:] }
  }

  /// Reads the message in `path` with Python's email package, and checks
  /// what every message pb makes must satisfy: no parse defects, CRLF line
  /// ends, lines of at most 78 characters (RFC 5322's limit for headers;
  /// pb's encoded bodies keep to 76), headers in ASCII (RFC 2047 words).
  func parse(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> Parsed {
    let python = try requirePython(file: file, line: line)
    let run = try runTool([python, "-c", ShareMailTests.reader, path], file: file, line: line)
    XCTAssertTrue(run.succeeded, "python could not read the message: \(run.stderr)", file: file, line: line)
    let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
    let parsed = Parsed(json: try XCTUnwrap(object as? [String: Any], file: file, line: line))
    XCTAssertEqual(parsed.json["defects"] as? [String], [], "the parser found defects", file: file, line: line)
    XCTAssertEqual(parsed.json["bareLF"] as? Bool, false, "every line must end in CRLF", file: file, line: line)
    XCTAssertLessThanOrEqual(parsed.json["longest"] as? Int ?? 999, 78, "a line is too long", file: file, line: line)
    XCTAssertEqual(parsed.json["rawHeaderBytes"] as? Bool, false, "headers must be ASCII", file: file, line: line)
    XCTAssertNotNil(parsed.json["date"] as? String, "Date must parse: \(parsed.header("Date") ?? "none")", file: file, line: line)
    XCTAssertEqual(parsed.header("MIME-Version"), "1.0", file: file, line: line)
    let id = parsed.header("Message-ID") ?? ""
    XCTAssertNotNil(id.range(of: #"^<[^<>@\s]+@[^<>@\s]+>$"#, options: .regularExpression), "Message-ID: \(id)", file: file, line: line)
    return parsed
  }

  func bytes(_ part: [String: Any]) -> Data { Data(base64Encoded: part["bytes"] as? String ?? "") ?? Data() }

  /// Text parts carry their line breaks as CRLF (RFC 2046's canonical
  /// form for text); everything else in them is the text's own.
  func lf(_ s: String?) -> String? { s?.replacingOccurrences(of: "\r\n", with: "\n") }

  static let subject = "Grüße aus Köln — 日本語のテキスト 👍🏽 and a subject long enough that it must be folded over lines"

  /// A display name with words that are not ASCII, long enough to fold.
  static let longName = "Zoë Ëxämple-Ünïcødé Person With A Rather Long Name Indeed <zoe.example@example.com>"

  func testOneTextItemIsTheWholeBodyWithEveryHeader() throws {
    let text = "Hello from pb — ünïcödé, Привет 👋\nsecond line\n"
    let r = try pb.run([
      "share", "--activity", "mail", "--into", "note.eml", "--to", ShareMailTests.longName,
      "--to", "bob@example.com", "--from", "Pb Tester <pb@example.org>", "--subject", ShareMailTests.subject, text,
    ])
    assertStatus(r, 0)
    XCTAssertEqual(r.text, "note.eml\n")
    let m = try parse(pb.root + "/note.eml")
    XCTAssertEqual(m.header("From"), "Pb Tester <pb@example.org>")
    XCTAssertEqual(m.header("To"), ShareMailTests.longName + ", bob@example.com")
    XCTAssertEqual(m.header("Subject"), ShareMailTests.subject)
    XCTAssertEqual(m.json["multipart"] as? Bool, false)
    XCTAssertEqual(m.json["type"] as? String, "text/plain")
    XCTAssertEqual(m.body["charset"] as? String, "utf-8")
    XCTAssertEqual(lf(m.body["text"] as? String), text)
  }

  func testSubjectDefaultsToTheFirstLineOfText() throws {
    // CRLF text, as a Windows program would put it on the board.
    try pb.run(["copy"], input: Data("First line of the note\r\nsecond line\r\n".utf8))
    let r = try pb.run(["share", "--activity", "mail", "--into", "m.eml"])
    assertStatus(r, 0)
    let m = try parse(pb.root + "/m.eml")
    XCTAssertEqual(m.header("Subject"), "First line of the note")
    XCTAssertEqual(lf(m.body["text"] as? String), "First line of the note\nsecond line\n")
  }

  func testSeveralItemsAreAMultipartMessageWithExactParts() throws {
    // Text with what each encoding must take care of: non-ASCII, a line
    // far over 76 characters, '=' signs, a tab, trailing spaces, a line
    // that is a lone dot and one that starts with "From ".
    let long = String(repeating: "Zwölf Boxkämpfer jagen Viktor = quer über den Sylter Deich. ", count: 6)
    let text = "Привет, мир! 日本語 👍🏽\n\(long)\nend with spaces   \n.\nFrom here on\ttabbed\n"
    let png = try makePNG(width: 16, height: 8)
    try png.write(to: URL(fileURLWithPath: pb.root + "/pic.png"))
    var binary = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) })
    binary.append(contentsOf: [0, 0, 0xFF, 0x0D, 0x0A, 0x0D])
    try binary.write(to: URL(fileURLWithPath: pb.root + "/data.bin"))
    let nonASCIIName = "Ünïcødé naïve résumé 日本.txt"
    let notes = Data("résumé\nline two, no trailing newline".utf8)
    try notes.write(to: URL(fileURLWithPath: pb.root + "/" + nonASCIIName))

    let r = try pb.run([
      "share", "--activity", "mail", "--into", "out.eml", "--to", "ann@example.com", "--from", "pb@example.org",
      "--subject", "Files", text, "--file", "pic.png", "--file", "data.bin", "--file", nonASCIIName,
    ])
    assertStatus(r, 0)
    let m = try parse(pb.root + "/out.eml")
    XCTAssertEqual(m.json["type"] as? String, "multipart/mixed")
    let parts = m.parts
    XCTAssertEqual(parts.count, 4, "parts: \(parts.map { $0["type"] ?? "?" })")
    guard parts.count == 4 else { return }

    XCTAssertEqual(parts[0]["type"] as? String, "text/plain")
    XCTAssertEqual(parts[0]["charset"] as? String, "utf-8")
    XCTAssertNil(parts[0]["filename"] as? String)
    XCTAssertNotEqual(parts[0]["disposition"] as? String, "attachment")
    XCTAssertEqual(lf(parts[0]["text"] as? String), text)

    XCTAssertEqual(parts[1]["type"] as? String, "image/png")
    XCTAssertEqual(parts[1]["filename"] as? String, "pic.png")
    XCTAssertEqual(parts[1]["disposition"] as? String, "attachment")
    XCTAssertEqual(bytes(parts[1]), png)

    XCTAssertEqual(parts[2]["type"] as? String, "application/octet-stream")
    XCTAssertEqual(parts[2]["filename"] as? String, "data.bin")
    XCTAssertEqual(bytes(parts[2]), binary)

    // A file attachment arrives as the same file, byte for byte, even
    // when it is text (its line breaks are not the mail's business).
    XCTAssertEqual(parts[3]["type"] as? String, "text/plain")
    XCTAssertEqual(parts[3]["filename"] as? String, nonASCIIName)
    XCTAssertEqual(parts[3]["disposition"] as? String, "attachment")
    XCTAssertEqual(bytes(parts[3]), notes)
  }

  func testAnImageOnTheBoardIsAttachedUnderAName() throws {
    let png = try makePNG(width: 4, height: 4)
    try pb.run(["copy", "-t", "image/png"], input: png)
    let r = try pb.run(["share", "--activity", "mail", "--into", "img.eml", "--subject", "A picture"])
    assertStatus(r, 0)
    let m = try parse(pb.root + "/img.eml")
    XCTAssertEqual(m.parts.count, 1)
    XCTAssertEqual(m.parts.first?["type"] as? String, "image/png")
    XCTAssertEqual(m.parts.first?["filename"] as? String, "image.png")
    XCTAssertEqual(m.parts.first.map(bytes), png)
  }

  func testAFileNameCannotAddHeaders() throws {
    let name = "report\r\nBcc: eve@example.com\r\n.txt"
    try Data("data".utf8).write(to: URL(fileURLWithPath: pb.root + "/" + name))
    let r = try pb.run(["share", "--activity", "mail", "--into", "n.eml", "--subject", "x", "--file", name, "--file", name])
    assertStatus(r, 0)
    let m = try parse(pb.root + "/n.eml")
    XCTAssertNil(m.header("Bcc"))
    for part in m.parts {
      XCTAssertEqual(part["filename"] as? String, name)
      let names = (part["headers"] as? [[String]] ?? []).map { $0[0].lowercased() }
      XCTAssertFalse(names.contains("bcc"), "headers: \(names)")
    }
  }

  func testHeaderValuesWithALineBreakAreRefused() throws {
    for option in ["--to", "--subject", "--from"] {
      for value in ["ann@example.com\r\nBcc: eve@example.com", "ann@example.com\nBcc: eve@example.com"] {
        let r = try pb.run(["share", "--activity", "mail", "--into", "x.eml", "--to", "a@example.com", option, value, "hi"])
        assertStatus(r, 2)
        XCTAssertTrue(r.stderr.contains("one line"), "\(option): \(r.stderr)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/x.eml"), "\(option) wrote a message")
      }
    }
  }

  /// A stand-in for sendmail that keeps its arguments and the message.
  func installSendmail(failing: Bool = false) throws -> String {
    let path = pb.root + "/fake-sendmail"
    try writeScript(
      path,
      """
      #!/bin/sh
      printf '%s\\n' "$@" > "$0.args"
      cat > "$0.msg.part" && mv "$0.msg.part" "$0.msg"
      \(failing ? "echo 'fake-sendmail: relay refused the message' >&2; exit 75" : "exit 0")

      """)
    return path
  }

  func testHandsTheMessageToSendmail() throws {
    let sendmail = try installSendmail()
    pb.environment["PB_SENDMAIL"] = sendmail
    let r = try pb.run(["share", "--activity", "mail", "--to", "Ann <ann@example.com>", "--from", "pb@example.org", "Sent by pb\n"])
    assertStatus(r, 0)
    XCTAssertEqual(try String(contentsOfFile: sendmail + ".args", encoding: .utf8), "-t\n-i\n")
    let m = try parse(sendmail + ".msg")
    XCTAssertEqual(m.header("To"), "Ann <ann@example.com>")
    XCTAssertEqual(lf(m.body["text"] as? String), "Sent by pb\n")
  }

  func testAFailingSendmailFailsTheActivity() throws {
    pb.environment["PB_SENDMAIL"] = try installSendmail(failing: true)
    let r = try pb.run(["share", "--activity", "mail", "--to", "ann@example.com", "hello"])
    assertStatus(r, 7)
    XCTAssertTrue(r.stderr.contains("pb.mail"), r.stderr)
    XCTAssertTrue(r.stderr.contains("relay refused"), r.stderr)
  }

  func testWithNowhereToSendTheMessageItIsAUsageError() throws {
    pb.environment["PATH"] = try pathWithout(["sendmail"], in: pb.root + "/bin")
    // Neither --into nor --to (and no PB_SENDMAIL): whether or not this
    // machine has a sendmail, pb cannot know where the message goes.
    var r = try pb.run(["share", "--activity", "mail", "hello"])
    assertStatus(r, 2)
    XCTAssertTrue(r.stderr.contains("--into") && r.stderr.contains("--to"), r.stderr)

    // A sendmail, but no recipient: it is not run.
    let sendmail = try installSendmail()
    pb.environment["PB_SENDMAIL"] = sendmail
    r = try pb.run(["share", "--activity", "mail", "hello"])
    assertStatus(r, 2)
    XCTAssertTrue(r.stderr.contains("--to"), r.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: sendmail + ".args"), "sendmail was run")

    // PB_SENDMAIL naming no program is a mistake to report, not to run.
    pb.environment["PB_SENDMAIL"] = pb.root + "/no-such-sendmail"
    r = try pb.run(["share", "--activity", "mail", "--to", "ann@example.com", "hello"])
    assertStatus(r, 2)
    XCTAssertTrue(r.stderr.contains("PB_SENDMAIL"), r.stderr)
  }
}
