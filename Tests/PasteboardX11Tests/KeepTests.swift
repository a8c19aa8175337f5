import XCTest

/// `pb watch --keep` on a private Xvfb: what xclip and a password manager
/// copy goes into the file store's history, which `pb history` and `pb
/// paste --history N` read on X11; secrets, repeats and content over
/// `--keep-max` are not kept.
final class KeepTests: X11TestCase {
  /// The store the keeper writes and the readers read.
  private var store: [String: String] = [:]
  private var log = ""

  /// Starts `pb watch --keep ARGUMENTS` and waits until it reports: xclip
  /// copies "warm-up" until the first report line shows the watch is on.
  private func startKeeper(_ arguments: String = "") throws {
    store = ["PB_DIR": "\(Tools.scratch)/keep-\(UUID().uuidString)"]
    log = "\(Tools.scratch)/keep-\(UUID().uuidString).log"
    try background("exec $PB watch --keep \(arguments) > \(log) 2>&1", env: store)
    let on = Tools.eventually(10_000) {
      _ = try? sh("printf warm-up | xclip -i -selection clipboard")
      return Tools.eventually(300) { reports() >= 1 }
    }
    XCTAssertTrue(on, "pb watch --keep reported nothing: \(Tools.contents(of: log))")
  }

  /// The change lines the watch printed so far.
  private func reports() -> Int {
    Tools.contents(of: log).split(separator: "\n").filter { $0.first?.isNumber == true }.count
  }

  /// Runs a copy and waits until the watch has reported it.
  private func copies(_ script: String, file: StaticString = #filePath, line: UInt = #line) throws {
    let before = reports()
    XCTAssertEqual(try sh(script).status, 0, script, file: file, line: line)
    XCTAssertTrue(
      Tools.eventually(10_000) { reports() > before }, "no report for \(script): \(Tools.contents(of: log))",
      file: file, line: line)
  }

  /// The type and preview columns of `pb history`, newest first.
  private func history() throws -> [String] {
    let r = try sh("$PB history", env: store)
    XCTAssertEqual(r.status, 0, r.stderr)
    return String(decoding: r.stdout, as: UTF8.self).split(separator: "\n").map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).suffix(2).joined(separator: "\t")
    }
  }

  func testXclipsTextsAndPNGAreKeptNewestFirstAndASecretIsNot() throws {
    try startKeeper()
    let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0xFF, 0]
    try copies("printf 'first text' | xclip -i -selection clipboard")
    try copies("printf 'second\\ttext \\xc3\\xa9\\n' | xclip -i -selection clipboard")
    let secret = try startPeer("secret hunter2")
    XCTAssertTrue(Tools.eventually(10_000) { reports() >= 4 }, "the secret's change is reported")
    kill(secret.pid, SIGKILL)
    try copies("printf 'third text' | xclip -i -selection clipboard")
    try copies("xclip -i -selection clipboard -t image/png \(Tools.file(png))")
    XCTAssertEqual(
      try history(),
      ["image/png\t", "text/plain;charset=utf-8\tthird text", "text/plain;charset=utf-8\tsecond text é",
       "text/plain;charset=utf-8\tfirst text", "text/plain;charset=utf-8\twarm-up"],
      "newest first, the secret absent")
    XCTAssertEqual(try sh("$PB paste --history 2", env: store).stdout, Array("third text".utf8))
    XCTAssertEqual(try sh("$PB paste --history 3", env: store).stdout, Array("second\ttext é\n".utf8))
    XCTAssertEqual(try sh("$PB paste --history 1 -t image/png", env: store).stdout, png, "the PNG byte for byte")
    let grep = try sh("grep -r -l hunter2 \(store["PB_DIR"]!)")
    XCTAssertEqual(grep.stdout, [], "the secret is nowhere in the store")
  }

  func testRepeatsAreKeptOnceAndContentOverTheLimitIsNotKept() throws {
    try startKeeper("--keep-max 1K")
    try copies("printf same | xclip -i -selection clipboard")
    try copies("printf same | xclip -i -selection clipboard")
    try copies("head -c 2048 /dev/zero | tr '\\0' x | xclip -i -selection clipboard")
    try copies("printf last | xclip -i -selection clipboard")
    XCTAssertEqual(
      try history(),
      ["text/plain;charset=utf-8\tlast", "text/plain;charset=utf-8\tsame", "text/plain;charset=utf-8\twarm-up"])
    XCTAssertTrue(
      Tools.contents(of: log).contains("holds more than 1024 bytes (--keep-max); not kept"), Tools.contents(of: log))
  }
}
