import Foundation
import XCTest

/// Many machines at once on one server: a reader sees one of the written
/// contents, never a mix, and counts that never go down; a paste limit is
/// used up exactly, however many machines race for it.
final class RedisConcurrencyTests: RedisTestCase {
  func testEightWritersAndEightReaders() throws {
    // Each writer copies its own numbered payloads (some large enough to
    // take several pieces); each reader records "COUNT PAYLOAD-DIGEST".
    let script = """
      set -u
      stop=$((SECONDS + 3))
      for w in 1 2 3 4 5 6 7 8; do
        ( n=0; while [ $SECONDS -lt $stop ]; do n=$((n + 1))
            if [ $((n % 5)) = 0 ]; then head -c 1200000 /dev/zero | tr '\\0' "$w" > w$w; else printf 'writer %s copy %s' $w $n > w$w; fi
            PB_DIR=$PWD/m$w pb copy < w$w || echo "writer $w failed" >> errors
            sha1sum < w$w | cut -c1-40 >> written.$w
          done ) &
      done
      for r in 1 2 3 4 5 6 7 8; do
        ( while [ $SECONDS -lt $stop ]; do
            c=$(PB_DIR=$PWD/r$r pb count) || echo "reader $r count failed" >> errors
            d=$(PB_DIR=$PWD/r$r pb paste 2>/dev/null | sha1sum | cut -c1-40)
            echo "$c $d" >> read.$r
          done ) &
      done
      wait
      cat written.* > written
      """
    assertStatus(try laptop.shell(script, limit: 60), 0)
    let root = laptop.root
    XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/errors"), (try? String(contentsOfFile: root + "/errors")) ?? "")
    // A paste on the empty board before the first write is the empty digest.
    let empty = "da39a3ee5e6b4b0d3255bfef95601890afd80709"
    let lines = try String(contentsOfFile: root + "/written").split(separator: "\n").map(String.init)
    let written = Set(lines + [empty])
    XCTAssertGreaterThan(written.count, 16, "the writers wrote")
    var reads = 0
    for r in 1...8 {
      var last = 0
      for line in try String(contentsOfFile: root + "/read.\(r)").split(separator: "\n") {
        let parts = line.split(separator: " ")
        guard parts.count == 2, let count = Int(parts[0]) else { XCTFail("reader \(r): \(line)"); continue }
        XCTAssertGreaterThanOrEqual(count, last, "reader \(r): the count went down")
        last = count
        XCTAssertTrue(written.contains(String(parts[1])), "reader \(r) read something never written: \(line)")
        reads += 1
      }
    }
    XCTAssertGreaterThan(reads, 16)
    XCTAssertEqual(try laptop.run(["count"]).text, "\(lines.count)\n", "exactly one count per write")
  }

  func testThreePastesAmongSixRacingMachines() throws {
    assertStatus(try laptop.run(["copy", "--pastes", "3"], input: Data("limited".utf8)), 0)
    let script = """
      for p in 1 2 3 4 5 6; do ( PB_DIR=$PWD/p$p pb paste > out.$p 2> err.$p; echo $? > status.$p ) & done
      wait
      cat status.*
      """
    let result = try desktop.shell(script)
    assertStatus(result, 0)
    let statuses = result.text.split(separator: "\n").sorted()
    XCTAssertEqual(statuses, ["0", "0", "0", "1", "1", "1"], result.text)
    for p in 1...6 {
      let out = try String(contentsOfFile: desktop.root + "/out.\(p)")
      XCTAssertTrue(out == "limited" || out == "", "paster \(p) got '\(out)'")
    }
    XCTAssertEqual(try laptop.run(["paste", "-q"]).status, 1, "used up")
  }
}
