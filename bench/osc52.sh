#!/usr/bin/env bash
# pb copy with OSC 52 into tmux, against pb copy without it and against the
# usual shell recipe (printf of base64 to /dev/tty, as tmux-yank's and
# Chromium's osc52.sh do), in one run:
#
#   - a 16-byte text: pb copy --osc52 against pb copy --no-osc52 (target:
#     the median at most 1.5 times as long);
#   - a 100000-byte text (the default limit): the same pair (target: at most
#     5 ms more).
#
#   bench/osc52.sh               build pb (scripts/build-release) and run it all
#   bench/osc52.sh --quick       fewer runs, for a smoke test
#   PB_BIN=path bench/osc52.sh   measure an existing pb binary
#
# Settings: BENCH_RUNS (default 200, 30 with --quick) timed runs per case.
#
# Every command runs in a pane of a private tmux server (set-clipboard on),
# whose pane is its terminal, as it is for a user at a tmux prompt over SSH;
# times are hyperfine's medians (without a shell). Before timing, each
# text is copied once and tmux's buffer must hold it byte for byte. The
# store (PB_DIR) is private, so your boards are untouched.
# Exits 0 when every target is met, 1 when one is missed, 2 on error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

RUNS=${BENCH_RUNS:-200}
if [ "${1:-}" = --quick ]; then
  RUNS=${BENCH_RUNS:-30}
elif [ -n "${1:-}" ]; then
  case $1 in
    -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) bench_die "unknown argument '$1' (try --help)" ;;
  esac
fi
bench_whole_numbers RUNS

bench_need tmux tmux
bench_need hyperfine hyperfine
bench_need base64 coreutils
bench_build
PB=$PB_BIN
bench_tmpdir work osc52

export PB_DIR="$work/store" PB_BACKEND=file HOME="$work/home" SSH_TTY=/dev/pts/0
unset DISPLAY WAYLAND_DISPLAY PB_OSC52 PB_OSC52_MAX TMUX
mkdir -p "$HOME"
printf 0123456789abcdef >"$work/16"
/usr/bin/env python3 -c 'import sys; sys.stdout.write("".join(chr(65 + i % 26) for i in range(100000)))' >"$work/100000" ||
  head -c 100000 /dev/zero | tr '\0' 'x' >"$work/100000"
# The shell recipe the comparison row runs.
cat >"$work/recipe.sh" <<'EOF'
printf '\033]52;c;%s\a' "$(base64 -w0 < "$1")" > /dev/tty
EOF

socket="$work/tmux.sock"
printf 'set -g set-clipboard on\nset -g buffer-limit 5\n' >"$work/tmux.conf"
tmux_() { tmux -S "$socket" "$@"; }
tmux_ -f "$work/tmux.conf" new-session -d -x 120 -y 40 "exec /bin/sleep 100000" ||
  bench_die "cannot start tmux"
stop_tmux() { tmux_ kill-server >/dev/null 2>&1 || true; bench_cleanup; }
trap stop_tmux EXIT

# in_pane SCRIPT: runs SCRIPT (bash) in a new tmux window, whose terminal
# is tmux, and waits for it; its output goes to $work/pane.out.
in_pane() {
  printf '%s\n' "$1" >"$work/pane.sh"
  rm -f "$work/pane.done"
  tmux_ new-window -d "bash $work/pane.sh >$work/pane.out 2>&1; echo \$? >$work/pane.done"
  local waited=0
  while [ ! -e "$work/pane.done" ]; do
    sleep 0.05
    waited=$((waited + 1))
    [ "$waited" -lt 12000 ] || bench_die "the pane did not finish within 10 minutes"
  done
  [ "$(cat "$work/pane.done")" = 0 ] || bench_die "in the pane: $(cat "$work/pane.out")"
}

# The texts must reach tmux whole before anything is timed.
for f in 16 100000; do
  tmux_ delete-buffer >/dev/null 2>&1 || true
  in_pane "'$PB' copy --osc52 '$work/$f'"
  tmux_ show-buffer >"$work/got" 2>/dev/null || true
  cmp -s "$work/$f" "$work/got" || bench_die "tmux's buffer does not hold the $f-byte text after pb copy --osc52"
done

# median_ms COMMAND: the median wall time of COMMAND (no shell) in ms,
# run in the pane.
median_ms() {
  in_pane "hyperfine --style none -N --warmup 10 --runs $RUNS --export-csv '$work/h.csv' $(printf '%q' "$1")"
  awk -F, 'NR == 2 { printf "%.3f", $4 * 1000 }' "$work/h.csv"
}

failures=0
row() {
  printf '%-40s %9s %9s %9s  %s\n' "$@"
  case "$5" in FAIL*) failures=$((failures + 1)) ;; esac
}

bench_facts
echo "terminal: $(tmux -V) pane (set-clipboard on), $RUNS runs per case, hyperfine $(hyperfine --version | cut -d' ' -f2)"
echo
row "case (median ms)" "with" "without" "ratio" "target"
for f in 16 100000; do
  with=$(median_ms "$PB copy --osc52 $work/$f")
  without=$(median_ms "$PB copy --no-osc52 $work/$f")
  recipe=$(median_ms "bash $work/recipe.sh $work/$f")
  if [ "$f" = 16 ]; then
    r=$(ratio "$with" "$without")
    row "pb copy, 16 bytes" "$with" "$without" "$r" "$(verdict "$r" 1.5) <= 1.5 x without"
  else
    extra=$(awk -v a="$with" -v b="$without" 'BEGIN { printf "%.3f", a - b }')
    row "pb copy, 100000 bytes" "$with" "$without" "+$extra" "$(verdict "$extra" 5) <= 5 ms more"
  fi
  row "  shell recipe (printf + base64), $f B" "$recipe" - "$(ratio "$recipe" "$with")" "(pb with OSC 52 = 1.00)"
done

echo
if [ "$failures" -gt 0 ]; then
  echo "overall: FAIL ($failures target(s) missed)"
  exit 1
fi
echo "overall: PASS (every target met)"
