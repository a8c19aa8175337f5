#!/usr/bin/env bash
# pb table on a 1,000,000-row listing (about 50 MB) against sed, in one run:
# a scripted copy of row 999999 from a file, from standard input redirected
# from the file and from a pipe, its peak memory, and the time until the
# interactive prompt's first page is on a terminal (a pseudo-terminal).
#
#   bench/table.sh            full run (9 timed runs of each case)
#   bench/table.sh --quick    smoke test (3 runs of each)
#
# Environment:
#   BENCH_ROWS=1000000        rows in the listing (the row copied is the
#                             next to last)
#   BENCH_RUNS=9              timed runs of each case
#   PB_BIN=/path/to/pb        use this binary instead of building one
#   TMPDIR                    where the listing and the store go (about
#                             60 MB)
#
# Exits 0 when every target is met, 1 when one is missed, 2 on error.
# See bench/README.md for what the figures mean.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

bench_quick_option "$@"

rows=${BENCH_ROWS:-1000000}
if [ "$quick" = 1 ]; then runs=${BENCH_RUNS:-3}; else runs=${BENCH_RUNS:-9}; fi
bench_whole_numbers rows runs
[ "$rows" -ge 2 ] || bench_die "BENCH_ROWS must be at least 2"

bench_need python3 python3
bench_need /usr/bin/time time
bench_need sed sed
bench_need cat coreutils

bench_build

bench_tmpdir work table
cd "$work"

echo "pb table benchmark$([ "$quick" = 1 ] && echo ' (quick mode: figures are only a smoke test)')"
echo
bench_facts
echo "work dir: $work ($(findmnt -no FSTYPE -T . 2>/dev/null || echo '?'))"
echo "sed     : $(sed --version | head -n 1)"
echo

cat >harness.py <<'PYTHON'
import fcntl, os, pty, select, shutil, signal, statistics, struct, sys, termios, time

PB = os.environ["PB_BIN"]
WORK = os.getcwd()
ROWS = int(os.environ["ROWS"])
RUNS = int(os.environ["RUNS"])
ROW = ROWS - 1
LISTING = os.path.join(WORK, "listing")
STORE = os.path.join(WORK, "store")
RSS_FILE = os.path.join(WORK, "rss")
TIME = "/usr/bin/time"
SED = shutil.which("sed")
CAT = shutil.which("cat")
SH = shutil.which("sh")
PROMPT = b"Row (number, S:R or /text"
failed = False

# The listing: ls -l style lines of about 50 bytes, written once (then in
# the page cache for every case).
with open(LISTING, "w") as f:
    for i in range(1, ROWS + 1):
        f.write("-rw-r--r-- 1 pb pb %7d Mar %2d %s.txt\n" % ((i * 7919) % 9999991, i % 28 + 1, "f%07d" % i))
size = os.path.getsize(LISTING)
with open(LISTING, "rb") as f:
    expected = f.read().split(b"\n")[ROW - 1]

env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
env.update(PB_DIR=STORE, PB_BACKEND="file")

def run(argv, stdin="/dev/null", stdout="/dev/null"):
    """Runs argv to completion; returns its wall time in seconds."""
    actions = [(os.POSIX_SPAWN_OPEN, 0, stdin, os.O_RDONLY, 0),
               (os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)]
    start = time.perf_counter_ns()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    elapsed = (time.perf_counter_ns() - start) / 1e9
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        sys.exit("bench: %s failed (status %d)" % (" ".join(argv), status))
    return elapsed

def peak_kib(argv, stdin="/dev/null"):
    """Peak RSS of argv (the last command of a pipeline: pb) from GNU time."""
    run([TIME, "-f", "%M", "-o", RSS_FILE] + argv, stdin=stdin)
    with open(RSS_FILE) as f:
        return int(f.read().split()[-1])

def board():
    out = os.path.join(WORK, "pasted")
    run([PB, "paste"], stdout=out)
    with open(out, "rb") as f:
        return f.read()

copy = [PB, "table", "--row", str(ROW), "--action", "copy"]
cases = [
    # name, argv, stdin, baseline name
    ("sed -n Np FILE", [SED, "-n", "%dp" % ROW, LISTING], "/dev/null", None),
    ("cat FILE | sed -n Np", [SH, "-c", '"$1" "$2" | "$3" -n "$4"p', "sh", CAT, LISTING, SED, str(ROW)], "/dev/null", None),
    ("pb table FILE", copy[:2] + [LISTING] + copy[2:], "/dev/null", "sed -n Np FILE"),
    ("pb table < FILE", copy, LISTING, "sed -n Np FILE"),
    # cat FILE | pb table ... (pb's arguments follow the shell's).
    ("cat FILE | pb table", [SH, "-c", 'c=$1 f=$2; shift 2; "$c" "$f" | "$@"', "sh", CAT, LISTING] + copy,
     "/dev/null", "cat FILE | sed -n Np"),
]

# Each pb case must leave exactly row ROW on the board.
for name, argv, stdin, base in cases:
    if base is None:
        continue
    shutil.rmtree(STORE, ignore_errors=True)
    run(argv, stdin=stdin)
    if board() != expected:
        sys.exit("bench: %s did not copy row %d" % (name, ROW))

print("bench: %d interleaved runs of each case" % RUNS, file=sys.stderr)
times = {c[0]: [] for c in cases}
for r in range(1 + RUNS):  # one warm-up round
    k = r % len(cases)
    for name, argv, stdin, base in cases[k:] + cases[:k]:
        t = run(argv, stdin=stdin)
        if r > 0:
            times[name].append(t)
rss = {}
for name, argv, stdin, base in cases:
    if base is not None:
        rss[name] = max(peak_kib(argv, stdin=stdin) for _ in range(2))

def first_page(stdin_kind):
    """Seconds from starting pb table on a pseudo-terminal (120 x 40) until
    its prompt is on it, the first page above."""
    pid, master = pty.fork()
    if pid == 0:
        try:
            if stdin_kind == "file":
                argv = [PB, "table", LISTING]
            else:
                argv = [PB, "table"]
                fd = os.open(LISTING, os.O_RDONLY)
                if stdin_kind == "pipe":
                    r, w = os.pipe()
                    if os.fork() == 0:
                        os.dup2(fd, 0)
                        os.dup2(w, 1)
                        os.execv(CAT, [CAT])
                    os.close(w)
                    fd = r
                os.dup2(fd, 0)
            os.execve(PB, argv, env)
        finally:
            os._exit(127)
    start = time.perf_counter_ns()
    fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    seen = b""
    deadline = time.monotonic() + 30
    while PROMPT not in seen:
        ready, _, _ = select.select([master], [], [], max(0, deadline - time.monotonic()))
        if not ready:
            os.kill(pid, signal.SIGKILL)
            sys.exit("bench: no prompt from pb table within 30 s; it showed: %r" % seen[-300:])
        try:
            seen += os.read(master, 65536)
        except OSError:
            break
    elapsed = (time.perf_counter_ns() - start) / 1e9
    if PROMPT not in seen or b"f0000001.txt" not in seen or b"(rows 1-" not in seen:
        sys.exit("bench: pb table's first page did not show row 1: %r" % seen[-300:])
    os.write(master, b"q\n")
    while True:
        try:
            if not os.read(master, 65536):
                break
        except OSError:
            break
    _, status = os.waitpid(pid, 0)
    os.close(master)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        sys.exit("bench: pb table at the terminal ended with status %d" % status)
    return elapsed

pages = {"file": [], "stdin": [], "pipe": []}
for r in range(1 + RUNS):
    for kind in pages:
        t = first_page(kind)
        if r > 0:
            pages[kind].append(t)

def verdict(ok):
    global failed
    if not ok:
        failed = True
    return "PASS" if ok else "FAIL"

def ms(s): return "%.0f ms" % (s * 1e3)
def mb(kib): return "%.1f MB" % (kib * 1024 / 1e6)

print("listing : %d rows, %d bytes (%.1f MB); row %d copied: %r" % (ROWS, size, size / 1e6, ROW, expected.decode()))
print("median of %d interleaved runs (plus a warm-up round); peak RSS: the larger of two more runs under %s -f %%M" % (RUNS, TIME))
print()
hdr = "  %-22s %8s %8s %8s %7s %-16s %9s %7s %-9s %s"
print(hdr % ("case", "median", "fastest", "baseline", "ratio", "target", "peak RSS", "/ size", "target", "result"))
for name, argv, stdin, base in cases:
    t = statistics.median(times[name])
    best = min(times[name])
    if base is None:
        print(hdr % (name, ms(t), ms(best), "-", "-", "-", "-", "-", "-", "baseline"))
        continue
    b = statistics.median(times[base])
    ratio = t / b
    mem = rss[name] * 1024 / size
    ok = t <= 1.0 and ratio <= 5.0 and mem <= 2.0
    print(hdr % (name, ms(t), ms(best), ms(b), "%.2fx" % ratio, "<= 1 s, <= 5x", mb(rss[name]), "%.2fx" % mem, "<= 2x", verdict(ok)))
print()
print("time until the first page and the prompt are on a 120 x 40 pseudo-terminal, median of %d runs:" % RUNS)
hdr2 = "  %-22s %8s %8s %8s  %s"
print(hdr2 % ("case", "median", "fastest", "target", "result"))
for kind, label in (("file", "pb table FILE"), ("stdin", "pb table < FILE"), ("pipe", "cat FILE | pb table")):
    t = statistics.median(pages[kind])
    print(hdr2 % (label, ms(t), ms(min(pages[kind])), "<= 300 ms", verdict(t <= 0.3)))
print()
print("  every run, in ms:")
for name in times:
    print("    %-22s %s" % (name, " ".join("%.0f" % (x * 1e3) for x in times[name])))
for kind in pages:
    print("    %-22s %s" % ("first page, " + kind, " ".join("%.0f" % (x * 1e3) for x in pages[kind])))
print()
print("overall: %s" % ("FAIL (a target was missed)" if failed else "PASS (every target met)"))
sys.exit(1 if failed else 0)
PYTHON

ROWS=$rows RUNS=$runs PB_BIN=$PB_BIN python3 harness.py
