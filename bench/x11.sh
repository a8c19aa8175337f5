#!/usr/bin/env bash
# pb's X11 backend measured side by side with xclip and xsel, in one run, on
# a private Xvfb that this script starts (with -displayfd) and stops.
#
#   bench/x11.sh               build pb (scripts/build-release) and run it all
#   bench/x11.sh --quick       fewer runs, for a smoke test
#   PB_BIN=path bench/x11.sh   measure an existing pb binary
#
# Settings: BENCH_SMALL_RUNS (default 60, 15 with --quick) timed runs of each
# 16-byte case; BENCH_BIG_RUNS (5, 1) of each 16/128 MiB case.
#
# Times are medians, from hyperfine when it is installed, else from a loop of
# this script's own. Peak memory comes from GNU time (%M) for the pasting
# process and from VmHWM in /proc for the background owners.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SMALL_RUNS=${BENCH_SMALL_RUNS:-60}
BIG_RUNS=${BENCH_BIG_RUNS:-5}
if [ "${1:-}" = --quick ]; then
  SMALL_RUNS=${BENCH_SMALL_RUNS:-15}
  BIG_RUNS=${BENCH_BIG_RUNS:-1}
fi

bench_need Xvfb xvfb
bench_need xclip xclip
bench_need xsel xsel
bench_need /usr/bin/time time
bench_build
PB=$PB_BIN
bench_tmpdir work x11

exec 9>"$work/display"
Xvfb -displayfd 9 -nolisten tcp -noreset >/dev/null 2>&1 &
XVFB=$!
exec 9>&-
stop_xvfb() {
  kill "$XVFB" 2>/dev/null || true
  wait "$XVFB" 2>/dev/null || true
  bench_cleanup
}
trap stop_xvfb EXIT
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.05; done
[ -s "$work/display" ] || bench_die "Xvfb did not start"
export DISPLAY=":$(head -n1 "$work/display")"
export PB_BACKEND=x11
unset XAUTHORITY

# median_ms RUNS COMMAND [SETUP]: the median wall time of COMMAND in ms,
# SETUP run once before.
median_ms() {
  local runs=$1 cmd=$2 setup=${3:-true}
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --style none --warmup 3 --runs "$runs" --setup "$setup" \
      --export-csv "$work/h.csv" "$cmd" >/dev/null 2>&1
    awk -F, 'NR == 2 { printf "%.2f", $4 * 1000 }' "$work/h.csv"
  else
    eval "$setup" >/dev/null 2>&1
    local t=() s
    for _ in $(seq "$runs"); do
      s=$(date +%s%N)
      eval "$cmd"
      t+=($(($(date +%s%N) - s)))
    done
    printf '%s\n' "${t[@]}" | sort -n |
      awk '{ a[NR] = $1 } END { printf "%.2f", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) / 1e6 }'
  fi
}

lesser() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
failures=0
row() {
  printf '%-40s %9s %9s %9s %8s  %s\n' "$@"
  case "$6" in FAIL*) failures=$((failures + 1)) ;; esac
}

printf 0123456789abcdef >"$work/16"
head -c $((16 << 20)) /dev/urandom >"$work/16M"
head -c $((128 << 20)) /dev/urandom >"$work/128M"

bench_facts
echo "display : $DISPLAY (private Xvfb), $SMALL_RUNS runs per 16-byte case, $BIG_RUNS per large case"
echo
row "case (median ms; peak KiB)" pb xclip xsel ratio "target"

# 16-byte copy: each run replaces the previous owner.
a=$(median_ms "$SMALL_RUNS" "$PB copy < $work/16")
b=$(median_ms "$SMALL_RUNS" "xclip -selection clipboard < $work/16")
c=$(median_ms "$SMALL_RUNS" "xsel -b -i < $work/16")
r=$(ratio "$a" "$(lesser "$b" "$c")")
row "16-byte copy" "$a" "$b" "$c" "$r" "$(verdict "$r" 1.0) <= 1.0 x faster peer"

# 16-byte paste, each tool from an owner of its own kind, and pb from xclip.
a=$(median_ms "$SMALL_RUNS" "$PB paste > /dev/null" "$PB copy < $work/16")
b=$(median_ms "$SMALL_RUNS" "xclip -selection clipboard -o > /dev/null" "xclip -selection clipboard < $work/16")
c=$(median_ms "$SMALL_RUNS" "xsel -b -o > /dev/null" "xsel -b -i < $work/16")
r=$(ratio "$a" "$(lesser "$b" "$c")")
row "16-byte paste, from its own owner" "$a" "$b" "$c" "$r" "$(verdict "$r" 1.0) <= 1.0 x faster peer"
# From an xclip owner (the issue's "no slower than xclip pasting from it").
# xsel's figure is shown too: it asks for UTF8_STRING blindly, where pb asks
# for TARGETS first, one more round trip through the owner.
a=$(median_ms "$SMALL_RUNS" "$PB paste > /dev/null" "xclip -selection clipboard < $work/16")
c=$(median_ms "$SMALL_RUNS" "xsel -b -o > /dev/null" "xclip -selection clipboard < $work/16")
r=$(ratio "$a" "$b")
row "16-byte paste, from an xclip owner" "$a" "$b" "$c" "$r" "$(verdict "$r" 1.0) <= 1.0 x xclip"

OCT="-t application/octet-stream"
for size in 16M 128M; do
  a=$(median_ms "$BIG_RUNS" "$PB paste $OCT > /dev/null" "$PB copy $OCT < $work/$size")
  b=$(median_ms "$BIG_RUNS" "xclip -selection clipboard -o $OCT > /dev/null" "xclip -selection clipboard $OCT < $work/$size")
  r=$(ratio "$a" "$b")
  row "$size paste, pb->pb vs xclip->xclip" "$a" "$b" - "$r" "$(verdict "$r" 1.0) <= 1.0 x xclip"
  a=$(median_ms "$BIG_RUNS" "$PB paste $OCT > /dev/null" "xclip -selection clipboard $OCT < $work/$size")
  r=$(ratio "$a" "$b")
  row "$size paste from an xclip owner" "$a" "$b" - "$r" "$(verdict "$r" 1.0) <= 1.0 x xclip"
done

# Peak memory at 128 MiB: the pasting process writing to a pipe, and the
# owner after it has served one paste.
"$PB" copy $OCT <"$work/128M"
/usr/bin/time -o "$work/m" -f %M "$PB" paste $OCT | cat >/dev/null
a=$(tail -n 1 "$work/m")
owner=$(pgrep -n -x pb || true)
o=$(awk '/VmHWM/ { print $2 }' "/proc/$owner/status" 2>/dev/null || echo 0)
xclip -selection clipboard -quiet $OCT <"$work/128M" >/dev/null 2>&1 &
XCLIP_OWNER=$!
for _ in $(seq 100); do [ "$(xclip -selection clipboard -o -t TARGETS 2>/dev/null | head -c 7)" = TARGETS ] && break; sleep 0.05; done
/usr/bin/time -o "$work/m" -f %M xclip -selection clipboard -o $OCT | cat >/dev/null
b=$(tail -n 1 "$work/m")
ob=$(awk '/VmHWM/ { print $2 }' "/proc/$XCLIP_OWNER/status" 2>/dev/null || echo 0)
kill "$XCLIP_OWNER" 2>/dev/null || true
row "128M paste to a pipe, peak KiB" "$a" "$b" - "$(ratio "$a" "$b")" "$(verdict "$a" 49152) <= 49152 KiB"
row "128M owner after one paste, peak KiB" "$o" "$ob" - "$(ratio "$o" "$ob")" "$(verdict "$o" $((131072 + 16384))) <= payload + 16 MiB"

# Like bench/file.sh: exit 1 when a target is missed.
if [ "$failures" -gt 0 ]; then
  echo "overall: FAIL ($failures target(s) missed)"
  exit 1
fi
echo "overall: PASS (every target met)"
