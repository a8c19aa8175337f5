#!/usr/bin/env bash
# pb watch measured against its targets and a peer, in one run:
#
#   - latency on the file backend: from `pb copy` returning to pb watch's
#     report (target: median <= 5 ms), side by side with inotifywait
#     reporting a `cp` + `mv` of the same file (the floor inotify sets);
#   - latency on X11 (a private Xvfb): from `pb copy` returning to the
#     report (target: median <= 10 ms);
#   - CPU used by an idle watch over BENCH_IDLE_SECONDS (default 60; target
#     <= 0.1 % of one CPU), on each backend.
#
#   bench/watch.sh               build pb (scripts/build-release) and run it all
#   bench/watch.sh --quick       fewer runs and 5 idle seconds, for a smoke test
#   PB_BIN=path bench/watch.sh   measure an existing pb binary
#
# Settings: BENCH_RUNS (default 200, 30 with --quick) copies per latency
# case; BENCH_IDLE_SECONDS (60, 5 with --quick).
#
# The latency is measured by a small Python driver that starts the watch
# with its output on a pipe, runs each copy to completion, and times the
# arrival of the report (CLOCK_MONOTONIC). Everything runs in a private
# temporary directory and display, so your boards are untouched.
# Exits 0 when every target is met, 1 when one is missed, 2 on error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

RUNS=${BENCH_RUNS:-200}
IDLE=${BENCH_IDLE_SECONDS:-60}
if [ "${1:-}" = --quick ]; then
  RUNS=${BENCH_RUNS:-30}
  IDLE=${BENCH_IDLE_SECONDS:-5}
elif [ -n "${1:-}" ]; then
  case $1 in
    -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) bench_die "unknown argument '$1' (try --help)" ;;
  esac
fi
bench_whole_numbers RUNS IDLE

bench_need /usr/bin/python3 python3
bench_need inotifywait inotify-tools
bench_need Xvfb xvfb
bench_build
PB=$PB_BIN
bench_tmpdir work watch
export PB_DIR="$work/store" HOME="$work/home"
unset DISPLAY WAYLAND_DISPLAY PB_BACKEND
mkdir -p "$HOME"

# latency.py MODE RUNS: prints the median and the 90th percentile latency
# in ms from the change returning, and the median from its start. MODE pb-file, pb-x11: `pb watch` and `pb copy`; inotify: inotifywait
# on a directory and `cp` + `mv` into it.
cat >"$work/latency.py" <<'PYTHON'
import os, subprocess, sys, time
mode, runs, pb, work = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
if mode == "inotify":
    watched = os.path.join(work, "watched")
    os.makedirs(watched, exist_ok=True)
    watcher = subprocess.Popen(["inotifywait", "-m", "-q", "-e", "moved_to", watched], stdout=subprocess.PIPE)
    open(os.path.join(work, "src"), "w").write("0123456789abcdef")
    def change(i):
        subprocess.run(["cp", os.path.join(work, "src"), os.path.join(work, "tmp")], check=True)
        subprocess.run(["mv", os.path.join(work, "tmp"), os.path.join(watched, "f")], check=True)
else:
    backend = "file" if mode == "pb-file" else "x11"
    watcher = subprocess.Popen([pb, "watch", "--backend", backend], stdout=subprocess.PIPE)
    def change(i):
        subprocess.run([pb, "copy", "--backend", backend], input=b"copy %d" % i, check=True)
time.sleep(0.5)  # the watch is set up
# From the change's command returning, and from its start (which includes
# the copy itself); the report is often there before the copy has exited.
after, whole = [], []
for i in range(runs + 5):
    start = time.monotonic()
    change(i)
    done = time.monotonic()
    line = watcher.stdout.readline()
    if not line:
        sys.exit("the watcher ended")
    now = time.monotonic()
    if i >= 5:  # warm-up
        after.append((now - done) * 1000)
        whole.append((now - start) * 1000)
watcher.terminate()
after.sort()
whole.sort()
print("%.3f %.3f %.3f" % (after[len(after) // 2], after[int(len(after) * 0.9)], whole[len(whole) // 2]))
PYTHON

# idle_cpu BACKEND: the CPU time (percent of one CPU) of a watch idle for
# IDLE seconds.
idle_cpu() {
  "$PB" watch --backend "$1" >/dev/null &
  local pid=$! ticks1 ticks2
  sleep 1
  kill -0 "$pid" 2>/dev/null || { printf 'none'; return; }
  ticks1=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
  sleep "$IDLE"
  ticks2=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  awk -v t=$((ticks2 - ticks1)) -v hz="$(getconf CLK_TCK)" -v s="$IDLE" 'BEGIN { printf "%.3f", t / hz / s * 100 }'
}

# A private Xvfb for the X11 cases.
Xvfb -displayfd 3 -nolisten tcp -screen 0 640x480x24 3>"$work/display" 2>/dev/null &
xvfb=$!
stop_xvfb() { kill "$xvfb" 2>/dev/null || true; bench_cleanup; }
trap stop_xvfb EXIT
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.05; done
[ -s "$work/display" ] || bench_die "Xvfb did not start"
export DISPLAY=":$(head -n1 "$work/display")"

failures=0
row() {
  printf '%-44s %9s %9s %9s  %s\n' "$@"
  case "$5" in FAIL*) failures=$((failures + 1)) ;; esac
}

bench_facts
echo "display : $DISPLAY (private Xvfb); $RUNS copies per latency case; $IDLE idle seconds"
echo
row "case" "median" "p90" "ratio" "target"
read -r peer_med peer_p90 peer_whole < <(/usr/bin/python3 "$work/latency.py" inotify "$RUNS" "$PB" "$work")
read -r file_med file_p90 file_whole < <(/usr/bin/python3 "$work/latency.py" pb-file "$RUNS" "$PB" "$work")
row "file: pb copy returns -> report (ms)" "$file_med" "$file_p90" - "$(verdict "$file_med" 5) <= 5 ms"
row "  pb copy starts -> report (ms)" "$file_whole" - "$(ratio "$file_whole" "$peer_whole")" "(vs the peer's, below)"
row "  peer: cp+mv start -> inotifywait (ms)" "$peer_whole" - "1.00" "(the floor inotify sets)"
if read -r x11_med x11_p90 x11_whole < <(/usr/bin/python3 "$work/latency.py" pb-x11 "$RUNS" "$PB" "$work" 2>/dev/null); then
  row "x11: pb copy returns -> report (ms)" "$x11_med" "$x11_p90" - "$(verdict "$x11_med" 10) <= 10 ms"
  row "  pb copy starts -> report (ms)" "$x11_whole" - - ""
else
  row "x11: pb copy -> pb watch report (ms)" "-" "-" "-" "FAIL (pb watch on X11 did not run)"
fi
for backend in file x11; do
  cpu=$(idle_cpu "$backend")
  if [ "$cpu" = none ]; then
    row "$backend: idle watch, CPU over ${IDLE} s (%)" - - - "FAIL (pb watch did not run)"
  else
    row "$backend: idle watch, CPU over ${IDLE} s (%)" "$cpu" - - "$(verdict "$cpu" 0.1) <= 0.1 %"
  fi
done

echo
if [ "$failures" -gt 0 ]; then
  echo "overall: FAIL ($failures target(s) missed)"
  exit 1
fi
echo "overall: PASS (every target met)"
