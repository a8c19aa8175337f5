import Foundation
import XCTest

/// `pb share` with the built-in activities that need no outside program:
/// what is offered for which items, exclusions, reverse, export, archive,
/// save image and copy, through real pb processes.
final class ShareTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws {
    pb = try PBRunner()
    try pb.useRuntimeDirectory()
    let home = pb.root + "/home"
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    // No lp, xdg-open or sendmail unless a test puts them there: PATH
    // holds only the tools the test scripts use.
    let bin = pb.root + "/bin"
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    for tool in ["sh", "bash", "head", "tr", "seq", "cat", "ls", "find", "wc", "env"] {
      try FileManager.default.createSymbolicLink(atPath: bin + "/" + tool, withDestinationPath: try requireTool(tool, package: "coreutils"))
    }
    pb.environment["PATH"] = bin
    pb.environment["PB_SENDMAIL"] = "/nonexistent/sendmail"
  }

  override func tearDown() { pb.cleanUp() }

  var home: String { pb.root + "/home" }

  func listed(_ arguments: [String], input: Data = Data()) throws -> [String] {
    let result = try pb.run(["share", "--list"] + arguments, input: input)
    assertStatus(result, 0)
    return result.text.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
  }

  static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array(repeating: 7, count: 40)

  func testWhatIsOfferedForTextImagesURLsAndSeveralItems() throws {
    XCTAssertEqual(
      try listed(["some text"]),
      ["pb.copy-to-pasteboard", "pb.mail", "pb.reverse", "pb.export", "pb.archive"])
    try Data(Self.png).write(to: URL(fileURLWithPath: pb.root + "/pic.png"))
    assertStatus(try pb.run(["copy", pb.root + "/pic.png"]), 0)
    XCTAssertEqual(try listed([]), ["pb.copy-to-pasteboard", "pb.mail", "pb.save-image", "pb.export"], "an image from the board")
    assertStatus(try pb.run(["copy", "-t", "text/uri-list"], input: Data("https://example.org/a\r\n".utf8)), 0)
    XCTAssertEqual(try listed([]), ["pb.copy-to-pasteboard", "pb.mail", "pb.export", "pb.archive"], "a URL (pb.open needs xdg-open)")
    XCTAssertEqual(
      try listed(["text", "--file", pb.root + "/pic.png"]),
      ["pb.copy-to-pasteboard", "pb.mail", "pb.save-image", "pb.reverse", "pb.export", "pb.archive"], "text and an image")
    let json = try pb.run(["share", "--list", "--json", "x"])
    let rows = try XCTUnwrap(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: String]])
    XCTAssertEqual(rows.first, ["type": "pb.copy-to-pasteboard", "title": "Copy to the pasteboard", "category": "action"])
    XCTAssertEqual(rows.first { $0["type"] == "pb.mail" }?["category"], "share")
  }

  func testExclusionsAndNames() throws {
    XCTAssertEqual(try listed(["x", "--exclude", "pb.mail,reverse", "--exclude", "pb.archive"]), ["pb.copy-to-pasteboard", "pb.export"])
    let excluded = try pb.run(["share", "--activity", "reverse", "--exclude", "reverse", "x"])
    assertStatus(excluded, 3)
    XCTAssertTrue(excluded.stderr.contains("pb.reverse is excluded"), excluded.stderr)
    let unknown = try pb.run(["share", "--activity", "frobnicate", "x"])
    assertStatus(unknown, 2)
    XCTAssertTrue(unknown.stderr.contains("unknown activity 'frobnicate'"), unknown.stderr)
    let cannot = try pb.run(["share", "--activity", "save-image", "just text"])
    assertStatus(cannot, 3)
    XCTAssertTrue(cannot.stderr.contains("pb.save-image cannot perform"), cannot.stderr)
    XCTAssertEqual(try pb.run(["share", "--activity", "pb.reverse", "abc"]).text, "cba", "the whole type works too")
    let nothing = try pb.run(["share", "--list"])
    assertStatus(nothing, 1)
    let noTerminal = try pb.run(["share", "x"])
    assertStatus(noTerminal, 2)
    XCTAssertTrue(noTerminal.stderr.contains("--activity"), noTerminal.stderr)
  }

  func testReverseKeepsCharactersWhole() throws {
    for (text, reversed) in [
      ("Привет 👍🏽", "👍🏽 тевирП"), ("e\u{301}te\u{301}", "e\u{301}te\u{301}"), ("ab\u{308}c", "cb\u{308}a"),
      ("👨‍👩‍👧‍👦x👩🏽‍🚀", "👩🏽‍🚀x👨‍👩‍👧‍👦"), ("🇫🇷🇯🇵🇧🇷", "🇧🇷🇯🇵🇫🇷"), ("one\ntwo\r\nthree\n", "eno\nowt\r\neerht\n"),
    ] {
      let result = try pb.run(["share", "--activity", "reverse", text])
      assertStatus(result, 0)
      XCTAssertEqual(result.text, reversed, "reverse of \(text.debugDescription)")
    }
    assertStatus(try pb.run(["copy"], input: Data("from the board\n".utf8)), 0)
    XCTAssertEqual(try pb.run(["share", "--activity", "reverse"]).text, "draob eht morf\n")
    assertStatus(try pb.run(["share", "--activity", "reverse", "--to-board"]), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "draob eht morf\n", "--to-board puts the reversal on the board")
    XCTAssertEqual(try pb.run(["share", "--activity", "reverse", "ab", "cd"]).text, "ba\ndc", "a newline between two items")
    try Data("a text file\n".utf8).write(to: URL(fileURLWithPath: pb.root + "/notes.txt"))
    XCTAssertEqual(try pb.run(["share", "--activity", "reverse", "--file", pb.root + "/notes.txt"]).text, "elif txet a\n")
  }

  func testReverseRefusesTextThatIsNotUTF8Throughout() throws {
    let bytes = Data(repeating: UInt8(ascii: "a"), count: 70_000) + Data([0xFF])
    assertStatus(try pb.run(["copy", "-t", "text/plain"], input: bytes), 0)
    let result = try pb.run(["share", "--activity", "reverse"])
    assertStatus(result, 3)
    XCTAssertTrue(result.stderr.contains("not UTF-8"), result.stderr)
  }

  func mode(_ path: String) -> mode_t {
    var st = stat()
    lstat(path, &st)
    return st.st_mode & 0o7777
  }

  func testExportWritesExactlyTheParts() throws {
    try Data(Self.png).write(to: URL(fileURLWithPath: pb.root + "/pic.png"))
    try Data([0, 1, 2, 255]).write(to: URL(fileURLWithPath: pb.root + "/blob.bin"))
    let into = pb.root + "/out"
    try FileManager.default.createDirectory(atPath: into, withIntermediateDirectories: true)
    let result = try pb.shell(
      "umask 022; pb share --activity export --name bundle --into out 'first text' 'second' --file pic.png --file blob.bin")
    assertStatus(result, 0)
    XCTAssertEqual(result.text, "out/bundle\n")
    let folder = into + "/bundle"
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["blob.bin", "pic.png", "text-2.txt", "text.txt"])
    XCTAssertEqual(try String(contentsOfFile: folder + "/text.txt", encoding: .utf8), "first text")
    XCTAssertEqual(try String(contentsOfFile: folder + "/text-2.txt", encoding: .utf8), "second")
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/pic.png").map { [UInt8]($0) }, Self.png)
    XCTAssertEqual(FileManager.default.contents(atPath: folder + "/blob.bin").map { [UInt8]($0) }, [0, 1, 2, 255])
    XCTAssertEqual(mode(folder), 0o755, "0777 less the umask, as mkdir makes it")
    XCTAssertEqual(mode(folder + "/text.txt"), 0o644)
    // Choosing parts by kind and number.
    assertStatus(try pb.shell("pb share --activity export --name images --into out --parts image,1 a b --file pic.png"), 0)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: into + "/images").sorted(), ["pic.png", "text.txt"])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: into).filter { $0.hasPrefix(".") }, [], "nothing temporary is left")
  }

  func testExportRefusesAndCreatesNothing() throws {
    let into = pb.root + "/out"
    try FileManager.default.createDirectory(atPath: into, withIntermediateDirectories: true)
    for (arguments, status, message) in [
      (["--into", into, "x"], Int32(2), "needs a name"),
      (["--name", "n", "--into", into, "--parts", "image", "x"], 2, "at least one part"),
      (["--name", "../up", "--into", into, "x"], 2, "cannot be a folder name"),
      (["--name", "n", "--into", into + "/missing", "x"], 7, "cannot write into"),
      (["--name", "n", "--into", into, "--parts", "9", "x"], 2, "there are 1 items"),
    ] {
      let result = try pb.run(["share", "--activity", "export"] + arguments)
      assertStatus(result, status)
      XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: into), [], "\(arguments) created something")
    }
    try FileManager.default.createDirectory(atPath: into + "/taken", withIntermediateDirectories: true)
    try Data("mine".utf8).write(to: URL(fileURLWithPath: into + "/taken/keep.txt"))
    let taken = try pb.run(["share", "--activity", "export", "--name", "taken", "--into", into, "new"])
    assertStatus(taken, 7)
    XCTAssertTrue(taken.stderr.contains("already exists"), taken.stderr)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: into + "/taken"), ["keep.txt"])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: into).sorted(), ["taken"])
  }

  func testExportGoesToTheDocumentsFolderByDefault() throws {
    try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
    try Data("XDG_DOCUMENTS_DIR=\"$HOME/My Docs\"\n".utf8).write(to: URL(fileURLWithPath: home + "/.config/user-dirs.dirs"))
    let result = try pb.run(["share", "--activity", "export", "--name", "notes", "text"])
    assertStatus(result, 0)
    XCTAssertEqual(result.text, home + "/My Docs/notes\n")
    XCTAssertEqual(try String(contentsOfFile: home + "/My Docs/notes/text.txt", encoding: .utf8), "text")
  }

  /// The archive's records, parsed by its documented format.
  func archiveRecords() throws -> [(time: String, text: [UInt8])] {
    let data = [UInt8](FileManager.default.contents(atPath: home + "/.local/share/pb/archive") ?? Data())
    var records: [(String, [UInt8])] = []
    var i = 0
    while i < data.count {
      guard let newline = data[i...].firstIndex(of: 0x0A) else { XCTFail("a header without a newline"); break }
      let header = String(decoding: data[i..<newline], as: UTF8.self).split(separator: " ")
      guard header.count == 4, header[0] == "pb-archive", header[1] == "1", let length = Int(header[3]) else {
        XCTFail("bad header: \(header)")
        break
      }
      let start = newline + 1
      guard start + length < data.count, data[start + length] == 0x0A else { XCTFail("a torn record"); break }
      records.append((String(header[2]), Array(data[start..<start + length])))
      i = start + length + 1
    }
    return records
  }

  func testArchiveUnderEightConcurrentAppendersLosesAndTearsNothing() throws {
    let script = """
      for w in 1 2 3 4 5 6 7 8; do
        ( for i in $(seq 25); do
            text="writer $w item $i $(head -c $(( (w * 997 + i * 31) % 5000 )) /dev/zero | tr '\\0' x)"
            pb share --activity archive "$text" || exit 1
          done ) &
      done
      wait
      """
    assertStatus(try pb.shell(script, limit: 120), 0)
    let records = try archiveRecords()
    XCTAssertEqual(records.count, 200)
    var seen = Set<String>()
    for record in records {
      let text = String(decoding: record.text, as: UTF8.self)
      let words = text.split(separator: " ")
      XCTAssertEqual(words.count, 5, "a mixed record: \(text.prefix(40))")
      guard words.count == 5, let w = Int(words[1]), let i = Int(words[3]) else { continue }
      XCTAssertEqual(words[4].count, (w * 997 + i * 31) % 5000, "a torn record")
      seen.insert("\(w)/\(i)")
      XCTAssertTrue(record.time.hasSuffix("Z") && record.time.count == 24, record.time)
    }
    XCTAssertEqual(seen.count, 200, "every record once")
    XCTAssertEqual(mode(home + "/.local/share/pb/archive"), 0o600)
    XCTAssertEqual(mode(home + "/.local/share/pb"), 0o700)
  }

  func testArchiveKeepsAnyTextExactly() throws {
    let text = "line one\nline two\r\n\u{1B}[31m pb-archive 1 fake 3\n"
    assertStatus(try pb.run(["share", "--activity", "archive", text]), 0)
    assertStatus(try pb.run(["share", "--activity", "archive", ""]), 0)
    let records = try archiveRecords()
    XCTAssertEqual(records.map { String(decoding: $0.text, as: UTF8.self) }, [text, ""])
  }

  func testSaveImageNeverOverwrites() throws {
    try Data(Self.png).write(to: URL(fileURLWithPath: pb.root + "/pic.png"))
    try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
    try Data("XDG_PICTURES_DIR=\"$HOME/Bilder\"\n".utf8).write(to: URL(fileURLWithPath: home + "/.config/user-dirs.dirs"))
    assertStatus(try pb.run(["copy", pb.root + "/pic.png"]), 0)
    var saved: [String] = []
    for _ in 0..<3 {
      let result = try pb.run(["share", "--activity", "save-image"])
      assertStatus(result, 0)
      saved.append(result.text.trimmingCharacters(in: .newlines))
    }
    XCTAssertEqual(Set(saved).count, 3, "three saves, three names: \(saved)")
    for path in saved {
      XCTAssertTrue(path.hasPrefix(home + "/Bilder/pb-image-") && path.hasSuffix(".png"), path)
      XCTAssertEqual(FileManager.default.contents(atPath: path).map { [UInt8]($0) }, Self.png)
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: home + "/Bilder").filter { $0.hasPrefix(".") }, [])
  }

  /// The names the save would pick (`pb-image-STAMP.png`, then `-2`), for
  /// every second the run may fall in, are taken beforehand: the save
  /// leaves each of them byte for byte and uses `-3`.
  func testSaveImageLeavesAFileUnderItsNextNameAlone() throws {
    try Data(Self.png).write(to: URL(fileURLWithPath: pb.root + "/pic.png"))
    pb.environment["TZ"] = "UTC"
    let pictures = home + "/Pictures"
    try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: home + "/.config", withIntermediateDirectories: true)
    try Data("XDG_PICTURES_DIR=\"$HOME/Pictures\"\n".utf8).write(to: URL(fileURLWithPath: home + "/.config/user-dirs.dirs"))
    let stamp = DateFormatter()
    stamp.dateFormat = "yyyy-MM-dd-HHmmss"
    stamp.timeZone = TimeZone(identifier: "UTC")
    stamp.locale = Locale(identifier: "en_US_POSIX")
    let now = Date()
    var planted: [String: [UInt8]] = [:]
    for second in -1...30 {
      let base = "pb-image-" + stamp.string(from: now.addingTimeInterval(Double(second)))
      for name in [base + ".png", base + "-2.png"] {
        planted[name] = Array("someone else's \(name)\n".utf8)
        try Data(planted[name]!).write(to: URL(fileURLWithPath: pictures + "/" + name))
      }
    }
    let result = try pb.run(["share", "--activity", "save-image", "--file", pb.root + "/pic.png"])
    assertStatus(result, 0)
    let path = result.text.trimmingCharacters(in: .newlines)
    let name = URL(fileURLWithPath: path).lastPathComponent
    XCTAssertEqual(path, pictures + "/" + name)
    XCTAssertTrue(name.hasSuffix("-3.png") && planted[String(name.dropLast(6)) + ".png"] != nil, "not the next free name: \(name)")
    XCTAssertEqual(FileManager.default.contents(atPath: path).map { [UInt8]($0) }, Self.png)
    for (planted, bytes) in planted {
      XCTAssertEqual(FileManager.default.contents(atPath: pictures + "/" + planted).map { [UInt8]($0) }, bytes, "\(planted) was touched")
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: pictures).count, planted.count + 1, "one new file, no temporary left")
  }

  func testSaveImageFallsBackToHome() throws {
    try Data(Self.png).write(to: URL(fileURLWithPath: pb.root + "/pic.png"))
    let result = try pb.run(["share", "--activity", "save-image", "--file", pb.root + "/pic.png"])
    assertStatus(result, 0)
    XCTAssertTrue(result.text.hasPrefix(home + "/pb-image-"), "xdg-user-dir PICTURES is $HOME when unset: \(result.text)")
  }

  func testCopyToPasteboard() throws {
    assertStatus(try pb.run(["share", "--activity", "copy-to-pasteboard", "shared text", "-b", "work"]), 0)
    XCTAssertEqual(try pb.run(["paste", "-b", "work"]).text, "shared text")
    try Data(Self.png).write(to: URL(fileURLWithPath: pb.root + "/pic.png"))
    assertStatus(try pb.run(["share", "--activity", "copy-to-pasteboard", "--file", pb.root + "/pic.png"]), 0)
    XCTAssertEqual(try pb.run(["types"]).text, "image/png\n")
  }
}
