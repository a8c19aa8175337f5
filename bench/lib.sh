# Shared helpers for the bench/ scripts. Source it; do not run it.
#
#   . "$(dirname "$0")/lib.sh"
#
# Provides:
#   BENCH_ROOT             the repository root (found from this file's place)
#   bench_need CMD [PKG]   make sure CMD exists, installing Debian package PKG
#                          with apt-get when running as root; fails otherwise
#   bench_build            build pb in release mode as one static executable
#                          (scripts/build-release) and set PB_BIN to the binary
#                          (skipped when PB_BIN is already set)
#   bench_facts            print the machine facts and pb's version
#   bench_tmpdir VAR NAME  make a temporary directory (removed on exit, with
#                          everything in it) and store its path in VAR
#   ratio A B              A / B with two decimals (0 when B is 0)
#   verdict VALUE LIMIT    PASS when VALUE <= LIMIT, else FAIL

BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH_TMPDIRS=()

bench_cleanup() {
  local d
  for d in "${BENCH_TMPDIRS[@]}"; do
    [ -n "$d" ] && [ -d "$d" ] && rm -rf -- "$d"
  done
  return 0
}
trap bench_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

bench_say() { printf '%s\n' "$*" >&2; }
bench_die() {
  printf 'bench: %s\n' "$*" >&2
  exit 2
}

bench_need() {
  local cmd=$1 pkg=${2:-$1}
  if [ "${cmd#/}" != "$cmd" ]; then
    [ -x "$cmd" ] && return 0
  else
    command -v "$cmd" >/dev/null 2>&1 && return 0
  fi
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    bench_say "bench: installing $pkg (for $cmd)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null 2>&1; } ||
      bench_die "could not install $pkg; install it and run again"
    return 0
  fi
  bench_die "$cmd is missing; install the '$pkg' package and run again"
}

bench_build() {
  if [ -n "${PB_BIN:-}" ]; then
    [ -x "$PB_BIN" ] || bench_die "PB_BIN=$PB_BIN is not an executable"
    PB_BIN=$(cd "$(dirname "$PB_BIN")" && pwd)/$(basename "$PB_BIN")
    return 0
  fi
  bench_need swift swift
  bench_say "bench: building pb (scripts/build-release: one static executable)"
  PB_BIN=$("$BENCH_ROOT/scripts/build-release") || bench_die "the release build failed"
  [ -x "$PB_BIN" ] || bench_die "no pb binary at $PB_BIN"
}

bench_facts() {
  local cpu
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
  echo "machine : $(nproc) CPU(s)${cpu:+, $cpu}, $(awk '/MemTotal/ {printf "%.1f GiB RAM", $2/1048576}' /proc/meminfo)"
  echo "kernel  : $(uname -srm)"
  echo "pb      : $("$PB_BIN" --version 2>&1 | head -n 1) ($PB_BIN)"
  echo "date    : $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
}

bench_tmpdir() {
  local d
  d=$(mktemp -d "${TMPDIR:-/tmp}/pb-bench-$2.XXXXXX") || bench_die "cannot make a temporary directory"
  BENCH_TMPDIRS+=("$d")
  printf -v "$1" '%s' "$d"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
verdict() { awk -v v="$1" -v limit="$2" 'BEGIN { print (v <= limit ? "PASS" : "FAIL") }'; }

# The options of a bench script that has only --quick: sets quick (1 with
# --quick or BENCH_QUICK=1, else 0); --help prints the script's leading
# comment.
bench_quick_option() {
  quick=${BENCH_QUICK:-0}
  local arg
  for arg in "$@"; do
    case $arg in
      --quick) quick=1 ;;
      -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'
        exit 0
        ;;
      *) bench_die "unknown argument '$arg' (try --help)" ;;
    esac
  done
}

# Stops unless each variable named holds a positive whole number.
bench_whole_numbers() {
  local v
  for v in "$@"; do
    case ${!v} in '' | *[!0-9]* | 0) bench_die "$v must be a positive whole number, not '${!v}'" ;; esac
  done
}
