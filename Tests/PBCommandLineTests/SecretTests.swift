import Foundation
import XCTest

/// Sensitive content on the file backend: only in the store's runtime
/// directory on a tmpfs, never in the store on disk or in history, gone
/// after clear, expiry or replacement, and protected through `--append`.
final class SecretTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws {
    pb = try PBRunner()
    try pb.useRuntimeDirectory()
  }

  override func tearDown() { pb.cleanUp() }

  var runtime: String { pb.environment["XDG_RUNTIME_DIR"]! }

  /// Every file under `dir` whose bytes contain `needle`.
  func files(under dir: String, containing needle: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: dir) else { return [] }
    var found: [String] = []
    for case let relative as String in walker {
      let path = dir + "/" + relative
      if let data = FileManager.default.contents(atPath: path), data.range(of: Data(needle.utf8)) != nil {
        found.append(relative)
      }
    }
    return found
  }

  func testAppendingToASecretKeepsItSecret() throws {
    assertStatus(try pb.run(["copy", "--sensitive"], input: Data("hunter2-".utf8)), 0)
    assertStatus(try pb.run(["copy", "--append"], input: Data("appended".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste"]).text, "hunter2-appended")
    XCTAssertEqual(files(under: pb.store, containing: "hunter2"), [], "the combined secret reached the store on disk")
    XCTAssertEqual(files(under: pb.store, containing: "appended"), [])
    XCTAssertTrue(try pb.run(["boards", "--json"]).text.contains(#""sensitive":true"#))
    assertStatus(try pb.run(["history"]), 1)
  }

  func testAppendingToALimitedOrExpiringBoardKeepsTheLimit() throws {
    assertStatus(try pb.run(["copy", "--paste-once", "-b", "once"], input: Data("one ".utf8)), 0)
    assertStatus(try pb.run(["copy", "--append", "-b", "once"], input: Data("two".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste", "-b", "once"]).text, "one two")
    assertStatus(try pb.run(["paste", "-b", "once"]), 1)
    XCTAssertEqual(files(under: pb.store + "/history", containing: "one two"), [], "paste-limited content in history")

    assertStatus(try pb.run(["copy", "--expire", "400ms", "-b", "brief"], input: Data("soon ".utf8)), 0)
    assertStatus(try pb.run(["copy", "--append", "-b", "brief"], input: Data("gone".utf8)), 0)
    XCTAssertEqual(try pb.run(["paste", "-b", "brief"]).text, "soon gone")
    XCTAssertTrue(eventually(5000) { (try? self.pb.run(["paste", "-b", "brief"]).status) == 1 }, "the appended content outlived the expiry")
    XCTAssertEqual(files(under: pb.store, containing: "soon gone"), [], "expired content left on disk")
    // A longer expiry given with the append does not lengthen the old one.
    assertStatus(try pb.run(["copy", "--expire", "400ms", "-b", "brief"], input: Data("again ".utf8)), 0)
    assertStatus(try pb.run(["copy", "--append", "--expire", "1h", "-b", "brief"], input: Data("more".utf8)), 0)
    XCTAssertTrue(eventually(5000) { (try? self.pb.run(["paste", "-b", "brief"]).status) == 1 }, "--expire 1h lengthened the expiry")
  }

  /// A copy killed while it streams a secret leaves a temporary file in
  /// the runtime directory; the next write sweeps it.
  func testAKilledSensitiveCopyLeavesNoSecretBehind() throws {
    let result = try pb.shell("""
      mkfifo input; pb copy --sensitive < input & pid=$!
      exec 3> input
      head -c 200000 /dev/zero | tr '\\0' s >&3; printf killed-secret >&3
      for i in $(seq 200); do
        [ -n "$(find "$XDG_RUNTIME_DIR/pb" -name '.pb-tmp-*' -size +100k 2>/dev/null)" ] && break; sleep 0.02
      done
      kill -KILL $pid; wait $pid; exec 3>&-
      find "$XDG_RUNTIME_DIR/pb" -name '.pb-tmp-*' | wc -l
      """)
    XCTAssertEqual(result.text, "1\n", "the test needs the killed copy's temporary file: \(result.stderr)")
    assertStatus(try pb.run(["copy", "--sensitive"], input: Data("next".utf8)), 0)
    XCTAssertEqual(try pb.shell("find \"$XDG_RUNTIME_DIR/pb\" -name '.pb-tmp-*' | wc -l").text, "0\n", "the stale secret was not swept")
    assertStatus(try pb.run(["copy"], input: Data("plain".utf8)), 0)
    XCTAssertEqual(files(under: runtime, containing: "sssss"), [])
  }

  /// The board file names its secret by a bare name, which a runtime
  /// directory whose path holds spaces cannot break.
  func testRuntimeDirectoryWithSpacesAndABareSecretName() throws {
    let spaced = runtime + "/session with spaces"
    try FileManager.default.createDirectory(atPath: spaced, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    var session = pb!
    session.environment["XDG_RUNTIME_DIR"] = spaced
    assertStatus(try session.run(["copy", "--sensitive"], input: Data("spaced-secret".utf8)), 0)
    XCTAssertEqual(try session.run(["paste"]).text, "spaced-secret")
    let board = String(decoding: FileManager.default.contents(atPath: pb.store + "/boards/general") ?? Data(), as: UTF8.self)
    let pointer = board.split(separator: "\n").first { $0.hasPrefix("sensitive ") } ?? ""
    XCTAssertEqual(pointer, "sensitive general.1", "a bare name, never a path: \(board)")
  }

  func testRelativeRuntimeDirectoryIsIgnoredAndRelativeStoreRefused() throws {
    var relative = pb!
    relative.environment["XDG_RUNTIME_DIR"] = "run/user"
    let refused = try relative.run(["copy", "--sensitive"], input: Data("s".utf8))
    assertStatus(refused, 4)
    XCTAssertTrue(refused.stderr.contains("not an absolute path"), refused.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/run"), "a relative runtime directory was used")
    relative.environment["PB_DIR"] = "relative-store"
    let store = try relative.run(["copy"], input: Data("x".utf8))
    assertStatus(store, 4)
    XCTAssertTrue(store.stderr.contains("PB_DIR is 'relative-store', a relative path"), store.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: pb.root + "/relative-store"))
  }

  /// A disk mounted at a path with a space inside a tmpfs: /proc/mounts
  /// spells the mount point `\040`, so reading it naively finds the tmpfs
  /// around it. statfs on the directory itself tells the truth.
  func testADiskMountedInsideATmpfsIsNotATmpfs() throws {
    guard getuid() == 0 else {
      return XCTFail("this case bind-mounts a disk directory, which needs root (CI runs as root)")
    }
    let disk = pb.root + "/disk"
    let mountPoint = runtime + "/disk here"
    try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    let mounted = try pb.shell("mount --bind '\(disk)' '\(mountPoint)' && chmod 700 '\(mountPoint)'")
    guard mounted.status == 0 else { return XCTFail("cannot bind-mount for the test: \(mounted.stderr)") }
    defer { _ = try? pb.shell("umount '\(mountPoint)'") }
    var session = pb!
    session.environment["XDG_RUNTIME_DIR"] = mountPoint
    let result = try session.run(["copy", "--sensitive"], input: Data("must-not-reach-disk".utf8))
    assertStatus(result, 4)
    XCTAssertTrue(result.stderr.contains("not a tmpfs"), result.stderr)
    XCTAssertEqual(files(under: disk, containing: "must-not-reach-disk"), [])
  }

  /// A board file naming some other file as its secret: clearing it must
  /// never delete that file.
  func testClearNeverDeletesAFileNamedInABoard() throws {
    let victim = pb.root + "/victim.txt"
    try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
    assertStatus(try pb.run(["copy"], input: Data("x".utf8)), 0)
    for pointer in [victim, "../../victim.txt", "../" + URL(fileURLWithPath: runtime).lastPathComponent] {
      try plantBoard("general", lines: ["count 5", "written 0", "sensitive \(pointer)"])
      let cleared = try pb.run(["clear"])
      assertStatus(cleared, 0)
      XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious", "pb clear deleted \(pointer)")
      XCTAssertTrue(FileManager.default.fileExists(atPath: runtime))
    }
  }

  /// Writes a board file with the given trailer lines and no payload.
  func plantBoard(_ name: String, lines: [String], payload: [UInt8] = []) throws {
    try BoardFiles.plant(at: pb.store + "/boards/" + name, lines: lines, payload: payload)
  }
}

/// Board files written by hand, as a damaged or hostile store holds them.
enum BoardFiles {
  static func plant(at path: String, lines: [String], payload: [UInt8] = []) throws {
    let trailer = Array(lines.map { $0 + "\n" }.joined().utf8)
    var length = UInt64(trailer.count).littleEndian
    let footer = withUnsafeBytes(of: &length) { Array($0) } + Array("PBBOARD1".utf8)
    try Data(payload + trailer + footer).write(to: URL(fileURLWithPath: path))
  }
}

/// Waits until `condition` holds, checking every 20 ms, for at most
/// `milliseconds`: for outcomes of other processes that have no event a
/// test could wait on.
func eventually(_ milliseconds: Int, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
  while Date() < deadline {
    if condition() { return true }
    usleep(20_000)
  }
  return condition()
}
