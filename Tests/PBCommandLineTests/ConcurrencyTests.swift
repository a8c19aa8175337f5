import Foundation
import XCTest

/// Many real writer and reader processes on one board at once.
final class ConcurrencyTests: XCTestCase {
  func testEightWritersAndEightReadersNeverSeeAMix() throws {
    let pb = try PBRunner()
    defer { pb.cleanUp() }
    // Each payload describes itself: "L:NNNNNNNNN:" then N copies of the
    // letter L. A torn or mixed read fails the header, size or letter check.
    let script = #"""
      set -u
      end=$(( $(date +%s) + 4 ))
      writer() {
        letter=$1; i=0
        while [ "$(date +%s)" -lt "$end" ]; do
          i=$((i + 1)); n=$(( (i * 7919 + ${#letter} * 31) % 200000 + 1 ))
          { printf '%s:%09d:' "$letter" "$n"; head -c "$n" /dev/zero | tr '\0' "$letter"; } | pb copy -b hammer \
            || { echo "copy failed" >&2; exit 1; }
        done
      }
      reader() {
        last=0; tmp=$(mktemp)
        while [ "$(date +%s)" -lt "$end" ]; do
          count=$(pb count -b hammer) || exit 1
          [ "$count" -ge "$last" ] || { echo "count went down: $last -> $count" >&2; exit 1; }
          last=$count
          pb paste -b hammer > "$tmp"; rc=$?
          [ $rc -eq 1 ] && continue   # not written yet
          [ $rc -eq 0 ] || { echo "paste failed: $rc" >&2; exit 1; }
          head=$(head -c 12 "$tmp"); letter=${head:0:1}; n=$((10#${head:2:9}))
          size=$(stat -c %s "$tmp")
          [ "$size" -eq $((n + 12)) ] || { echo "torn read: header $head, size $size" >&2; exit 1; }
          [ -z "$(tail -c +13 "$tmp" | tr -d "$letter")" ] || { echo "mixed read under $head" >&2; exit 1; }
        done
        rm -f "$tmp"
      }
      pids=()
      for l in a b c d e f g h; do writer "$l" & pids+=($!); done
      for r in 1 2 3 4 5 6 7 8; do reader & pids+=($!); done
      status=0
      for p in "${pids[@]}"; do wait "$p" || status=1; done
      leftovers=$(ls -A "$PB_DIR/boards" | grep -v '^hammer$' || true)
      [ -z "$leftovers" ] || { echo "left behind in the store: $leftovers" >&2; status=1; }
      echo "final count $(pb count -b hammer)"
      exit $status
      """#
    let result = try pb.shell(script)
    XCTAssertEqual(result.status, 0, result.stderr)
    let finalCount = Int(result.text.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    XCTAssertGreaterThan(finalCount, 16, "the writers should have made many writes: \(result.text)")
  }

  func testCountRisesByExactlyOnePerWriteUnderContention() throws {
    let pb = try PBRunner()
    defer { pb.cleanUp() }
    let result = try pb.shell("""
      for w in 1 2 3 4 5 6 7 8; do ( for i in $(seq 25); do echo "$w-$i" | pb copy -b counted || exit 1; done ) & done
      wait
      pb count -b counted
      """)
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertEqual(result.text, "200\n")
  }
}
