import Foundation
import XCTest

/// The README's pb table examples, taken from README.md itself (so these
/// tests break when the README drifts) and run as written, in a folder
/// holding the files they name.
final class ReadmeTableRecipeTests: XCTestCase {
  var pb: PBRunner!
  var folder: String { pb.root + "/recipes" }

  override func setUpWithError() throws {
    pb = try PBRunner()
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  override func tearDown() { pb.cleanUp() }

  func readme() throws -> String { try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8) }

  func write(_ text: String, _ name: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
  func read(_ name: String) -> String { String(decoding: FileManager.default.contents(atPath: folder + "/" + name) ?? Data(), as: UTF8.self) }

  /// The README's line in `block` that starts with `command`, run as it
  /// is written (comment included) in the folder.
  func run(_ command: String, in block: String, file: StaticString = #filePath, line: UInt = #line) throws -> PBRunner.Result {
    let written = try XCTUnwrap(
      block.components(separatedBy: "\n").first { $0.hasPrefix(command) }, "the README has no '\(command)' line in:\n\(block)",
      file: file, line: line)
    return try pb.shell("cd recipes && " + written, file: file, line: line)
  }

  func testTheScriptedExamplesDoWhatTheirCommentsSay() throws {
    let block = try XCTUnwrap(fencedBlock(in: try readme(), after: "## Tables: pb table", language: "sh"))
    try write((1...8).map { "note \($0)\n" }.joined(), "notes.txt")
    try write("new item\n", "new-item.txt")
    try write("# Todo\n## Today\n- call\n## Later\n- write\n", "todo.md")
    let third = try pb.shell("cd recipes && ls -l | sed -n 3p").text
    XCTAssertTrue(third.hasPrefix("-rw") && third.hasSuffix(".txt\n"), "ls -l's third line is a file's: \(third)")
    assertStatus(try run("ls -l | pb table --row 3 --action copy", in: block), 0)
    XCTAssertEqual(try pb.run(["paste"]).text + "\n", third, "the third line onto the clipboard")
    assertStatus(try run("pb table notes.txt --row 2,5-7 --action cut", in: block), 0)
    XCTAssertEqual(read("notes.txt"), "note 1\nnote 3\nnote 4\nnote 8\n")
    XCTAssertEqual(try pb.run(["paste"]).text, "note 2\nnote 5\nnote 6\nnote 7")
    assertStatus(try run("pb copy < new-item.txt && pb table notes.txt --row 4 --action paste", in: block), 0)
    XCTAssertEqual(read("notes.txt"), "note 1\nnote 3\nnote 4\nnote 8\nnew item\n")
    assertStatus(try run("pb table todo.md --sections '^## ' --row 2:1 --action copy", in: block), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "## Today", "section 2, row 1: the heading that starts it")
  }

  func testThePolicyThatProtectsHeaderRows() throws {
    let block = try XCTUnwrap(
      fencedBlock(in: try readme(), after: "A policy that protects a file's header rows and hides the menu of comments:", language: "sh"))
    let hosts = "127.0.0.1 localhost\n::1 localhost\n# the lab\n10.0.0.7 box\n"
    try write(hosts, "hosts.txt")
    assertStatus(try pb.run(["copy"], input: Data("board".utf8)), 0)
    assertStatus(try run("printf ", in: block), 0)
    let explained = try run("pb table hosts.txt --policy protect.policy --explain 1", in: block)
    assertStatus(explained, 0)
    for line in ["menu\tshown\tdefault", "copy\tallowed\tdefault", "cut\tdenied\tprotect.policy:1: deny cut,delete,paste rows 1-2"] {
      XCTAssertTrue(explained.text.contains(line + "\n"), explained.text)
    }
    let cut = try run("pb table hosts.txt --policy protect.policy --row 1 --action cut", in: block)
    assertStatus(cut, 3)
    XCTAssertTrue(cut.stderr.contains("nothing changed"), cut.stderr)
    XCTAssertEqual(read("hosts.txt"), hosts)
    XCTAssertEqual(try pb.run(["paste"]).text, "board")
    // The rest of what the README says of it: comments have no menu, and
    // rows past the header can be cut.
    let comment = try pb.shell("cd recipes && pb table hosts.txt --policy protect.policy --explain 3")
    XCTAssertTrue(comment.text.hasPrefix("menu\thidden\tprotect.policy:2: deny menu match ^#\n"), comment.text)
    assertStatus(try pb.shell("cd recipes && pb table hosts.txt --policy protect.policy --row 4 --action cut"), 0)
    XCTAssertEqual(read("hosts.txt"), "127.0.0.1 localhost\n::1 localhost\n# the lab\n")
  }
}
