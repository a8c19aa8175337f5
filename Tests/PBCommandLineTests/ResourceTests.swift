import Foundation
import XCTest

/// Descriptors and memory: many inputs are opened one at a time, a low
/// descriptor limit never yields a silently partial listing, and memory
/// does not grow with the payload. Peak memory is GNU time's maximum
/// resident set size (%M).
final class ResourceTests: XCTestCase {
  var pb: PBRunner!

  override func setUpWithError() throws { pb = try PBRunner() }
  override func tearDown() { pb.cleanUp() }

  /// A generous bound on pb's peak resident memory, far below the 1 GiB
  /// payloads (pb itself needs about 12 MiB).
  static let peakBound = 64 << 20

  static let gibibyte = 1 << 30

  /// Runs `script` in the runner's directory; every `PEAK name ...` in it
  /// runs the rest of that command line under GNU time, which writes the
  /// peak memory to `peak.name`.
  func shell(_ script: String, file: StaticString = #filePath, line: UInt = #line) throws -> PBRunner.Result {
    let time = try requireTool("time", package: "time", file: file, line: line)
    let prelude = "set -e -o pipefail\nPEAK() { local name=$1; shift; \(shellQuoted(time)) -f %M -o \"peak.$name\" \"$@\"; }\n"
    let result = try pb.shell(prelude + script)
    XCTAssertEqual(result.status, 0, "stdout: \(result.text)\nstderr: \(result.stderr)", file: file, line: line)
    return result
  }

  /// The peak resident memory, in bytes, that GNU time recorded as `name`.
  func peak(_ name: String, in folder: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws -> Int {
    let text = try String(contentsOfFile: (folder ?? pb.root) + "/peak." + name, encoding: .utf8)
    // The last line is %M (kilobytes); a line before it may say how the command ended.
    let kilobytes = try XCTUnwrap(Int(text.split(separator: "\n").last ?? ""), "GNU time wrote: \(text)", file: file, line: line)
    return kilobytes << 10
  }

  func assertBounded(_ name: String, in folder: String? = nil, file: StaticString = #filePath, line: UInt = #line) throws {
    let bytes = try peak(name, in: folder, file: file, line: line)
    XCTAssertGreaterThan(bytes, 0, file: file, line: line)
    XCTAssertLessThan(bytes, ResourceTests.peakBound, "peak memory of \(name): \(bytes >> 20) MiB", file: file, line: line)
  }

  func testThreeThousandFilesAreCopiedUnderALowDescriptorLimitInOrder() throws {
    // Thousands of small files are made (and removed) at once on a tmpfs
    // when there is one: on a disk that costs seconds.
    let scratch = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm/pb-test-" + UUID().uuidString : pb.root + "/scratch"
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let folder = scratch + "/many"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    var expected = Data()
    for i in 1...3000 {
      // Most end in a newline; some are empty, some do not end in one.
      let content = i % 7 == 0 ? "" : i % 11 == 0 ? "no newline \(i)" : "file \(i)\n"
      expected.append(Data(content.utf8))
      let name = String(format: "%@/f%04d.txt", folder, i)
      XCTAssertTrue(FileManager.default.createFile(atPath: name, contents: Data(content.utf8)))
    }
    // Each copy is checked on its own: one failing does not hide the other.
    let result = try shell(
      """
      cd \(shellQuoted(scratch))
      ( ulimit -n 64; ulimit -n; PEAK limited pb copy many/*.txt ) || echo "the copy under ulimit -n 64 failed: $?"
      pb paste > pasted-limited || true
      PEAK unlimited pb copy many/*.txt || echo "the copy failed: $?"
      pb paste > pasted
      pb types
      """)
    XCTAssertEqual(result.text, "64\ntext/plain;charset=utf-8\n", "the copy ran under ulimit -n 64; stderr: \(result.stderr)")
    XCTAssertEqual(FileManager.default.contents(atPath: scratch + "/pasted-limited"), expected, "concatenated in order")
    XCTAssertEqual(FileManager.default.contents(atPath: scratch + "/pasted"), expected)
    try assertBounded("limited", in: scratch)
    try assertBounded("unlimited", in: scratch)
  }

  func testHistoryUnderALowDescriptorLimitIsCompleteOrFails() throws {
    let entries = 40
    pb.environment["PB_HISTORY_SIZE"] = String(entries)
    _ = try shell("for i in $(seq \(entries)); do printf 'entry %d\\n' $i | pb copy; done")
    let full = try pb.run(["history"])
    assertStatus(full, 0)
    XCTAssertEqual(full.text.split(separator: "\n").count, entries)
    let fullJSON = try pb.run(["history", "--json"])
    assertStatus(fullJSON, 0)
    // From a limit too low for pb to start up to one that is ample.
    let limits = Array(4...48)
    _ = try shell(
      """
      # Only standard input, output and error are open when the limit is set.
      close_inherited() { for fd in /proc/$BASHPID/fd/*; do fd=${fd##*/}; [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done 2>/dev/null; }
      for n in \(limits.map(String.init).joined(separator: " ")); do
        for form in plain json; do
          flag=; [ $form = json ] && flag=--json
          set +e
          ( close_inherited; ulimit -n $n; pb history $flag > out.$form.$n 2> err.$form.$n )
          echo $? > status.$form.$n
          set -e
        done
      done
      """)
    var complete = 0
    for n in limits {
      for (form, whole) in [("plain", full.stdout), ("json", fullJSON.stdout)] {
        let status = try String(contentsOfFile: pb.root + "/status.\(form).\(n)", encoding: .utf8)
        let out = FileManager.default.contents(atPath: pb.root + "/out.\(form).\(n)") ?? Data()
        let err = try String(contentsOfFile: pb.root + "/err.\(form).\(n)", encoding: .utf8)
        if status == "0\n" {
          complete += 1
          XCTAssertEqual(out, whole, "ulimit -n \(n), \(form): exit 0 with a partial listing")
          XCTAssertEqual(err, "", "ulimit -n \(n), \(form)")
        } else {
          XCTAssertTrue(err.hasPrefix("pb: ") && err.split(separator: "\n").count == 1, "ulimit -n \(n), \(form), status \(status): \(err)")
        }
      }
    }
    XCTAssertGreaterThan(complete, 0, "no limit up to \(limits.last!) descriptors let pb history list its \(entries) entries")
  }

  func testOneGibibyteCopyAndPasteHaveBoundedPeakMemory() throws {
    _ = try shell(
      """
      head -c 1048576 /dev/urandom > big
      truncate -s \(ResourceTests.gibibyte) big
      PEAK copy pb copy big
      # The files: their size and first mebibyte (the rest is zeros).
      PEAK output pb paste -o out
      [ "$(stat -c %s out)" = \(ResourceTests.gibibyte) ] && cmp -n 1048576 big out
      rm out
      PEAK stdout pb paste > out
      [ "$(stat -c %s out)" = \(ResourceTests.gibibyte) ] && cmp -n 1048576 big out
      rm out
      PEAK pipe pb paste | cmp - big
      """)
    for name in ["copy", "output", "stdout", "pipe"] { try assertBounded(name) }
  }

  func testOneGibibyteCopyFromAPipeHasBoundedPeakMemory() throws {
    _ = try shell("head -c \(ResourceTests.gibibyte) /dev/zero | PEAK pipe pb copy")
    let types = try XCTUnwrap(try JSONSerialization.jsonObject(with: try pb.run(["types", "--json"]).stdout) as? [[[String: Any]]])
    XCTAssertEqual(types.first?.first?["size"] as? Int, ResourceTests.gibibyte)
    try assertBounded("pipe")
  }
}
