import Foundation
import XCTest

/// File names are bytes: a name that is not UTF-8 (here Latin-1 "café",
/// `caf\xe9`) names the same file as it does for cat, cp and the shell.
final class NonUTF8NameTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws { pb = try PBRunner() }
  override func tearDown() { pb.cleanUp() }

  /// The names in the runner's directory, their bytes as od -c shows them.
  func namesInRoot() throws -> String {
    try pb.shell("ls | od -An -c | tr -s ' '").text
  }

  func testCopyReadsTheFileItIsGiven() throws {
    let result = try pb.shell(#"printf 'named in Latin-1' > $'caf\xe9.txt' && pb copy $'caf\xe9.txt' && pb paste"#)
    assertStatus(result, 0)
    XCTAssertEqual(result.text, "named in Latin-1")
    let also = try pb.shell(
      #"printf '<b>x</b>' > $'caf\xe9.html' && pb copy -t text/plain $'caf\xe9.txt' --also text/html=$'caf\xe9.html' && pb paste -t text/html"#)
    assertStatus(also, 0)
    XCTAssertEqual(also.text, "<b>x</b>")
  }

  func testPasteWritesTheFileItIsGiven() throws {
    assertStatus(try pb.run(["copy"], input: Data("pasted".utf8)), 0)
    let result = try pb.shell(#"pb paste -o $'caf\xe9.out' && cat $'caf\xe9.out'"#)
    assertStatus(result, 0)
    XCTAssertEqual(result.text, "pasted")
    let names = try namesInRoot()
    XCTAssertFalse(names.contains("357 277 275"), "no name with U+FFFD (EF BF BD) in it: \(names)")
  }

  /// A store path that is not UTF-8 is refused with the reason (pb(1)),
  /// never silently moved to another directory.
  func testAStorePathThatIsNotUTF8IsRefused() throws {
    let result = try pb.shell(#"export PB_DIR="$PWD/st"$'\xe9'"re" && printf 'x' | pb copy"#)
    assertStatus(result, 4)
    XCTAssertTrue(result.stderr.contains("/st<E9>re', which is not UTF-8"), result.stderr)
    let names = try namesInRoot()
    XCTAssertFalse(names.contains("357 277 275"), "no store with U+FFFD (EF BF BD) in its name: \(names)")
    XCTAssertFalse(names.contains("s t 351 r e"), "no store was made: \(names)")
  }

  /// A message naming such a file shows the byte, not U+FFFD.
  func testMessagesShowTheByte() throws {
    let result = try pb.shell(#"pb copy $'caf\xe9-missing.txt'"#)
    assertStatus(result, 7)
    XCTAssertTrue(result.stderr.contains("caf<E9>-missing.txt"), result.stderr)
  }
}
