#!/usr/bin/env bash
# pb on the Redis backend against redis-cli, side by side, in one run,
# on a private redis-server started in a temporary directory.
#
#   bench/redis.sh           full run (128 MiB payload)
#   bench/redis.sh --quick   smoke test (small payload, few runs)
#
# Environment:
#   BENCH_BIG_MIB=128        size of the large payload, in MiB
#   BENCH_SMALL_RUNS=200     timed runs of each small case
#   BENCH_BIG_RUNS=5         timed runs of each large case
#   BENCH_QUICK=1            same as --quick
#   PB_BIN=/path/to/pb       use this binary instead of building one
#
# Exits 0 when every target is met, 1 when one is missed, 2 on error.
# See bench/README.md for what the figures mean.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_quick_option "$@"

if [ "$quick" = 1 ]; then
  big_mib=${BENCH_BIG_MIB:-16}
  small_runs=${BENCH_SMALL_RUNS:-20}
  big_runs=${BENCH_BIG_RUNS:-1}
else
  big_mib=${BENCH_BIG_MIB:-128}
  small_runs=${BENCH_SMALL_RUNS:-200}
  big_runs=${BENCH_BIG_RUNS:-5}
fi
bench_whole_numbers big_mib small_runs big_runs

bench_need python3 python3
bench_need redis-server redis-server
bench_need redis-cli redis-tools
bench_need /usr/bin/time time

bench_build

bench_tmpdir work redis
cd "$work"

echo "pb Redis backend benchmark$([ "$quick" = 1 ] && echo ' (quick mode: figures are only a smoke test)')"
echo
bench_facts
echo "redis   : $(redis-server --version | head -n 1)"
echo

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
redis-server --port "$port" --bind 127.0.0.1 --unixsocket "$work/redis.sock" --unixsocketperm 700 \
  --save '' --appendonly no --dir "$work" --daemonize yes --pidfile "$work/redis.pid" --logfile "$work/redis.log"
stop_server() { [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null; bench_cleanup; }
trap stop_server EXIT
for _ in $(seq 100); do redis-cli -s "$work/redis.sock" PING >/dev/null 2>&1 && break; sleep 0.05; done

bench_say "bench: writing the ${big_mib} MiB payload"
head -c "$((big_mib * 1024 * 1024))" /dev/urandom >big

cat >harness.py <<'PYTHON'
import os, shutil, statistics, sys, time

PB = os.environ["PB_BIN"]
CLI = shutil.which("redis-cli")
PORT = os.environ["PORT"]
SOCK = os.path.join(os.getcwd(), "redis.sock")
SMALL_RUNS = int(os.environ["SMALL_RUNS"])
BIG_RUNS = int(os.environ["BIG_RUNS"])
BIG_MIB = int(os.environ["BIG_MIB"])
RSS_LIMIT_KIB = 16 * 1024
TIME = "/usr/bin/time"
RSS_FILE = os.path.join(os.getcwd(), "rss")
failed = False

def environment(url):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(PB_BACKEND="redis", PB_REDIS_URL=url, PB_DIR=os.path.join(os.getcwd(), "store"))
    return env

def run(argv, env=None, stdin="/dev/null", stdout="/dev/null"):
    """Runs argv to completion; returns (seconds, peak RSS in KiB)."""
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, stdin, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
    ]
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env or os.environ, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    elapsed = (time.perf_counter_ns() - start) / 1e9
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        sys.exit("bench: %s failed (status %d)" % (" ".join(argv), status))
    return elapsed, usage.ru_maxrss

def run_measured(argv, env, **redirect):
    """Runs argv under /usr/bin/time; returns (seconds, peak RSS in KiB from
    time -f %M: wait4's figure for a posix_spawn child is this script's)."""
    elapsed, _ = run([TIME, "-f", "%M", "-o", RSS_FILE] + argv, env, **redirect)
    with open(RSS_FILE) as f:
        return elapsed, int(f.read().split()[-1])

def report(name, pb, peer, peer_name, limit, rss=None):
    global failed
    r = pb / peer if peer > 0 else 0
    ok = r <= limit and (rss is None or rss <= RSS_LIMIT_KIB)
    failed |= not ok
    extra = "" if rss is None else ", pb peak %.1f MiB (limit 16)" % (rss / 1024)
    print("%-44s pb %9.2f ms  %-22s %9.2f ms  ratio %.2f (target <= %.0f)%s  %s"
          % (name, pb * 1e3, peer_name, peer * 1e3, r, limit, extra, "PASS" if ok else "FAIL"))

tcp = environment("redis://127.0.0.1:%s" % PORT)
unix = environment("unix://%s" % SOCK)
cli_tcp = [CLI, "-h", "127.0.0.1", "-p", PORT]
cli_unix = [CLI, "-s", SOCK]

# 16 bytes over loopback: the two alternate, so drift hits both alike.
with open("small16", "wb") as f: f.write(b"0123456789abcdef")
run([PB, "copy"], tcp, stdin="small16")
run(cli_tcp + ["-x", "SET", "bench:small"], stdin="small16")
pb_times, cli_times = [], []
for _ in range(SMALL_RUNS):
    pb_times.append(run([PB, "paste"], tcp)[0])
    cli_times.append(run(cli_tcp + ["GET", "bench:small"])[0])
report("paste 16 bytes (loopback, median)", statistics.median(pb_times), statistics.median(cli_times), "redis-cli GET", 2)

# The large payload over the unix socket, emptied between runs (untimed)
# so the server never holds many copies. GNU time's own start-up is in
# pb's figures here, and not in redis-cli's: it favours the peer.
copies, sets, pastes, gets, copy_rss, paste_rss = [], [], [], [], 0, 0
for _ in range(BIG_RUNS):
    run(cli_unix + ["FLUSHALL"])
    t, rss = run_measured([PB, "copy"], unix, stdin="big")
    copies.append(t); copy_rss = max(copy_rss, rss)
    sets.append(run(cli_unix + ["-x", "SET", "bench:big"], stdin="big")[0])
    t, rss = run_measured([PB, "paste"], unix, stdout="out")
    pastes.append(t); paste_rss = max(paste_rss, rss)
    if os.path.getsize("out") != BIG_MIB << 20: sys.exit("bench: pb paste gave %d bytes" % os.path.getsize("out"))
    gets.append(run(cli_unix + ["--raw", "GET", "bench:big"], stdout="out")[0])
report("copy %d MiB (unix socket, median)" % BIG_MIB, statistics.median(copies), statistics.median(sets), "redis-cli -x SET", 2, copy_rss)
report("paste %d MiB (unix socket, median)" % BIG_MIB, statistics.median(pastes), statistics.median(gets), "redis-cli --raw GET", 2, paste_rss)
sys.exit(1 if failed else 0)
PYTHON

PB_BIN=$PB_BIN PORT=$port SMALL_RUNS=$small_runs BIG_RUNS=$big_runs BIG_MIB=$big_mib python3 harness.py
