#!/usr/bin/env bash
# pb's X11 backend measured side by side with xclip and xsel, in one run,
# on a private Xvfb that this script starts and stops.
#
#   bench/x11.sh                 build pb (release) and run every phase
#   PB_BIN=path bench/x11.sh     use an existing pb binary
#   PB_BENCH_BUILD=static-stdlib build with -static-stdlib only (pb then
#                                loads libX11 and the C++ runtime dynamically)
#   PB_BENCH_RUNS=N              runs per small phase (default 40)
#
# Uses hyperfine when present (medians from its CSV), else a loop of its own.
# Peak memory comes from /usr/bin/time -f %M (Debian package `time`) and, for
# background owners, from VmHWM in /proc.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${PB_BENCH_RUNS:-40}
BIG_RUNS=${PB_BENCH_BIG_RUNS:-5}
BUILD=${PB_BENCH_BUILD:-static}

need() { command -v "$1" >/dev/null 2>&1 || { echo "bench/x11.sh needs $1: apt-get install $2" >&2; exit 2; }; }
need Xvfb xvfb; need xclip xclip; need xsel xsel
[ -x /usr/bin/time ] || { echo "bench/x11.sh needs /usr/bin/time: apt-get install time" >&2; exit 2; }

if [ -z "${PB_BIN:-}" ]; then
  if [ "$BUILD" = static ]; then
    # A fully static pb starts in well under a millisecond; with only the
    # Swift runtime static, loading libX11 and libstdc++ costs about 1 ms.
    # The static X libraries come from libx11-dev, libxcb1-dev,
    # libxau-dev, libxdmcp-dev, libbsd-dev and libmd-dev.
    swift build -c release -Xswiftc -static-executable \
      -Xlinker -lxcb -Xlinker -lXau -Xlinker -lXdmcp -Xlinker -lbsd -Xlinker -lmd \
      --scratch-path .build/bench-static >&2
    PB_BIN=$PWD/.build/bench-static/release/pb
  else
    swift build -c release -Xswiftc -static-stdlib --scratch-path .build/bench-static-stdlib >&2
    PB_BIN=$PWD/.build/bench-static-stdlib/release/pb
  fi
fi
PB=$PB_BIN

work=$(mktemp -d)
exec 9>"$work/display"
Xvfb -displayfd 9 -nolisten tcp -noreset >/dev/null 2>&1 &
XVFB=$!
exec 9>&-
cleanup() {
  kill "$XVFB" 2>/dev/null || true
  wait "$XVFB" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.05; done
export DISPLAY=":$(head -n1 "$work/display")"
export PB_BACKEND=x11
unset XAUTHORITY

# median_ms NAME COMMAND [SETUP]: median wall time of COMMAND in ms.
median_ms() {
  local runs=$1 cmd=$2 setup=${3:-true}
  if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --style none --warmup 3 --runs "$runs" --setup "$setup" \
      --export-csv "$work/h.csv" "$cmd" >/dev/null 2>&1
    awk -F, 'NR==2 { printf "%.2f", $4 * 1000 }' "$work/h.csv"
  else
    eval "$setup"
    local t=()
    for _ in $(seq "$runs"); do
      local s; s=$(date +%s%N); eval "$cmd"; t+=($(( $(date +%s%N) - s )))
    done
    printf '%s\n' "${t[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%.2f", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) / 1e6 }'
  fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
min2() { awk -v a="$1" -v b="$2" 'BEGIN { print (a < b ? a : b) }'; }
row() { printf '%-44s %10s %10s %10s %8s\n' "$@"; }

printf 0123456789abcdef > "$work/16"
head -c $((16 << 20)) /dev/urandom > "$work/16M"
head -c $((128 << 20)) /dev/urandom > "$work/128M"

echo "pb: $PB ($BUILD build), display $DISPLAY, $RUNS runs per small phase"
echo
row "phase (median ms, or peak KiB)" pb xclip xsel "pb/best"

# 16-byte copy: each run replaces the previous owner.
c_pb=$(median_ms "$RUNS" "$PB copy < $work/16")
c_xc=$(median_ms "$RUNS" "xclip -selection clipboard < $work/16")
c_xs=$(median_ms "$RUNS" "xsel -b -i < $work/16")
row "16-byte copy" "$c_pb" "$c_xc" "$c_xs" "$(ratio "$c_pb" "$(min2 "$c_xc" "$c_xs")")"

# 16-byte paste, each tool from an owner of its own kind.
p_pb=$(median_ms "$RUNS" "$PB paste > /dev/null" "$PB copy < $work/16")
p_xc=$(median_ms "$RUNS" "xclip -selection clipboard -o > /dev/null" "xclip -selection clipboard < $work/16")
p_xs=$(median_ms "$RUNS" "xsel -b -o > /dev/null" "xsel -b -i < $work/16")
row "16-byte paste (from its own owner)" "$p_pb" "$p_xc" "$p_xs" "$(ratio "$p_pb" "$(min2 "$p_xc" "$p_xs")")"
q_pb=$(median_ms "$RUNS" "$PB paste > /dev/null" "xclip -selection clipboard < $work/16")
row "16-byte paste (from xclip)" "$q_pb" "$p_xc" "-" "$(ratio "$q_pb" "$p_xc")"

OCT="-t application/octet-stream"
for size in 16M 128M; do
  b_pb=$(median_ms "$BIG_RUNS" "$PB paste $OCT > /dev/null" "$PB copy $OCT < $work/$size")
  b_xc=$(median_ms "$BIG_RUNS" "xclip -selection clipboard -o $OCT > /dev/null" "xclip -selection clipboard $OCT < $work/$size")
  row "$size paste, pb->pb vs xclip->xclip" "$b_pb" "$b_xc" "-" "$(ratio "$b_pb" "$b_xc")"
  x_pb=$(median_ms "$BIG_RUNS" "$PB paste $OCT > /dev/null" "xclip -selection clipboard $OCT < $work/$size")
  row "$size paste from an xclip owner" "$x_pb" "$b_xc" "-" "$(ratio "$x_pb" "$b_xc")"
done

# Peak memory at 128 MiB: the pasting process writing to a pipe, and the
# owner after serving one paste.
$PB copy $OCT < "$work/128M"
/usr/bin/time -o "$work/m" -f %M "$PB" paste $OCT | cat > /dev/null; m_pb=$(tail -n1 "$work/m")
o_pb=$(awk '/VmHWM/ { print $2 }' "/proc/$(pgrep -n -x pb)/status")
xclip -selection clipboard -quiet $OCT < "$work/128M" >/dev/null 2>&1 &
XC_OWNER=$!
sleep 1
/usr/bin/time -o "$work/m" -f %M xclip -selection clipboard -o $OCT | cat > /dev/null; m_xc=$(tail -n1 "$work/m")
o_xc=$(awk '/VmHWM/ { print $2 }' "/proc/$XC_OWNER/status")
kill "$XC_OWNER" 2>/dev/null || true
row "128M paste to a pipe, peak KiB" "$m_pb" "$m_xc" "-" "$(ratio "$m_pb" "$m_xc")"
row "128M owner after one paste, peak KiB" "$o_pb" "$o_xc" "-" "$(ratio "$o_pb" "$o_xc")"
echo
echo "targets: 16-byte phases <= 1.00 x the faster peer; large pastes <= 1.00 x xclip;"
echo "         pasting process <= 49152 KiB; owner <= 131072 + 16384 = 147456 KiB"
