#!/usr/bin/env bash
# pb share measured against its targets, in one run:
#
#   - `pb share --list` on a text board with 20 user activities installed,
#     against `pb paste` of the same board (start-up stays lean);
#   - `pb share --activity reverse` of 16 MiB of mixed-script text with
#     emoji on the board: time and peak memory. (A --file is a file item,
#     which pb.reverse does not take: it reverses text items.)
#
#   bench/share.sh               build pb (scripts/build-release) and run it all
#   bench/share.sh --quick       fewer runs, for a smoke test
#   PB_BIN=path bench/share.sh   measure an existing pb binary
#
# Settings: BENCH_LIST_RUNS (default 200, 30 with --quick) timed runs of
# `pb share --list` and of `pb paste`; BENCH_REVERSE_RUNS (5, 1) of each
# reverse; BENCH_TEXT_MIB (16) the size of the text.
#
# Times are medians, from hyperfine (without a shell) when it is installed,
# else from a loop of this script's own; peak memory is GNU time's %M.
# Everything runs in a private temporary directory: its own store (PB_DIR),
# HOME and XDG_CONFIG_HOME, so your boards and activities are untouched.
# Exits 0 when every target is met, 1 when one is missed, 2 on error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

LIST_RUNS=${BENCH_LIST_RUNS:-200}
REVERSE_RUNS=${BENCH_REVERSE_RUNS:-5}
if [ "${1:-}" = --quick ]; then
  LIST_RUNS=${BENCH_LIST_RUNS:-30}
  REVERSE_RUNS=${BENCH_REVERSE_RUNS:-1}
elif [ -n "${1:-}" ]; then
  case $1 in
    -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) bench_die "unknown argument '$1' (try --help)" ;;
  esac
fi
TEXT_MIB=${BENCH_TEXT_MIB:-16}
bench_whole_numbers LIST_RUNS REVERSE_RUNS TEXT_MIB

bench_need /usr/bin/time time
bench_need /usr/bin/python3 python3
bench_build
PB=$PB_BIN
bench_tmpdir work share

# A private user: store, home and configuration; the file backend.
export PB_DIR="$work/store" PB_BACKEND=file HOME="$work/home" XDG_CONFIG_HOME="$work/config"
unset DISPLAY WAYLAND_DISPLAY XDG_DATA_HOME
mkdir -p "$HOME" "$XDG_CONFIG_HOME/pb/activities"
for i in $(seq -w 1 20); do
  cat >"$XDG_CONFIG_HOME/pb/activities/a$i.activity" <<EOF
# A user activity of the benchmark: upper-cases text.
type = com.example.a$i
title = Example activity $i
category = action
accepts = text/*
items = 1-
input = stdin
arg = tr
arg = a-z
arg = A-Z
output = items
EOF
done
chmod 600 "$XDG_CONFIG_HOME"/pb/activities/*.activity

printf 'a few words on the board\n' | "$PB" copy
listed=$("$PB" share --list) || bench_die "pb share --list failed"
users=$(printf '%s\n' "$listed" | grep -c '^com\.example\.a' || true)
[ "$users" = 20 ] || bench_die "pb share --list shows $users of the 20 user activities: $(printf '%s' "$listed" | tr '\n' ' ')"
builtins=$(printf '%s\n' "$listed" | grep '^pb\.' | cut -f1 | tr '\n' ' ')

# The text: lines mixing Cyrillic, CJK, Arabic, combining marks, ZWJ emoji
# sequences, skin tones, flags and ASCII, exactly TEXT_MIB MiB of UTF-8.
/usr/bin/python3 - "$work/text" "$TEXT_MIB" <<'PYTHON'
import sys
path, mib = sys.argv[1], int(sys.argv[2])
pieces = [
    "Привет, мир! Съешь же ещё этих мягких французских булок",
    "日本語のテキストと漢字、かな、カナ",
    "مرحبا بالعالم، هذا نص عربي",
    "e\u0301 a\u0308 n\u0303 o\u0323\u0302 Z\u0335\u0336",
    "👨\u200d👩\u200d👧\u200d👦 👩🏽\u200d💻 🏳\ufe0f\u200d🌈 👍🏽",
    "🇯🇵🇺🇦🇧🇷🇪🇺",
    "The quick brown fox jumps over the lazy dog 0123456789",
]
size = mib << 20
out = bytearray()
i = 0
while len(out) < size:
    line = " ".join(pieces[(i + k) % len(pieces)] for k in range(3)) + "\n"
    out += line.encode()
    i += 1
# Cut back to the last whole line that fits, then pad with ASCII.
del out[out.rfind(b"\n", 0, size) + 1:]
out += b"x" * (size - len(out) - 1) + b"\n"
assert len(out) == size
open(path, "wb").write(out)
PYTHON
text_bytes=$(stat -c %s "$work/text")
text_kib=$((text_bytes / 1024))

# The reversal must be right before it is timed: valid UTF-8, and the
# reversal of the reversal is the text.
"$PB" copy "$work/text"
"$PB" share --activity reverse >"$work/reversed" || bench_die "pb share --activity reverse failed"
"$PB" copy "$work/reversed"
"$PB" share --activity reverse >"$work/back" || bench_die "the second reversal failed"
cmp -s "$work/text" "$work/back" || bench_die "reversing twice did not give the text back"
/usr/bin/python3 -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$work/reversed" ||
  bench_die "the reversed text is not UTF-8"
cmp -s "$work/text" "$work/reversed" && bench_die "the reversed text is the text"

# median_ms RUNS COMMAND...: the median wall time of COMMAND in ms.
median_ms() {
  local runs=$1
  shift
  if command -v hyperfine >/dev/null 2>&1; then
    local line
    printf -v line '%q ' "$@"
    hyperfine --style none -N --warmup 10 --runs "$runs" --export-csv "$work/h.csv" "$line" >/dev/null 2>&1 ||
      bench_die "hyperfine could not run: $*"
    awk -F, 'NR == 2 { printf "%.3f", $4 * 1000 }' "$work/h.csv"
  else
    local t=() s
    for _ in $(seq 10); do "$@" >/dev/null; done
    for _ in $(seq "$runs"); do
      s=$(date +%s%N)
      "$@" >/dev/null
      t+=($(($(date +%s%N) - s)))
    done
    printf '%s\n' "${t[@]}" | sort -n |
      awk '{ a[NR] = $1 } END { printf "%.3f", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) / 1e6 }'
  fi
}

# measured RUNS COMMAND...: "median-seconds max-peak-KiB" of RUNS runs
# under GNU time, output to /dev/null.
measured() {
  local runs=$1
  shift
  local times=() peak=0 e m
  for _ in $(seq "$runs"); do
    /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null || bench_die "failed: $*"
    read -r e m <"$work/time"
    times+=("$e")
    [ "$m" -gt "$peak" ] && peak=$m
  done
  printf '%s %s\n' "$(printf '%s\n' "${times[@]}" | sort -n |
    awk '{ a[NR] = $1 } END { printf "%.2f", (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }')" "$peak"
}

failures=0
row() {
  printf '%-44s %10s %10s %7s  %s\n' "$@"
  case "$5" in FAIL*) failures=$((failures + 1)) ;; esac
}

bench_facts
echo "timing  : $(command -v hyperfine >/dev/null 2>&1 && hyperfine --version || echo 'a shell loop (no hyperfine)'), $LIST_RUNS runs per --list case, $REVERSE_RUNS per reverse"
echo "offered : $builtins+ $users user activities"
echo "text    : $text_bytes bytes ($TEXT_MIB MiB) of mixed-script UTF-8"
echo
row "case" pb baseline ratio target

list=$(median_ms "$LIST_RUNS" "$PB" share --list)
paste=$(median_ms "$LIST_RUNS" "$PB" paste)
r=$(ratio "$list" "$paste")
row "share --list vs paste (median ms)" "$list" "$paste" "$r" "$(verdict "$r" 3.0) <= 3.0 x pb paste"

"$PB" copy "$work/text"
read -r secs peak < <(measured "$REVERSE_RUNS" "$PB" share --activity reverse)
row "reverse ${TEXT_MIB} MiB, board to stdout (median s)" "$secs" - - "$(verdict "$secs" 1.0) <= 1.0 s"
row "reverse ${TEXT_MIB} MiB, peak RSS (KiB; vs input)" "$peak" "$text_kib" "$(ratio "$peak" "$text_kib")" \
  "$(verdict "$peak" $((text_kib * 4))) <= 4 x the input"

echo
if [ "$failures" -gt 0 ]; then
  echo "overall: FAIL ($failures target(s) missed)"
  exit 1
fi
echo "overall: PASS (every target met)"
