#!/usr/bin/python3
"""A scripted terminal for pb's tests: runs a command whose controlling
terminal is a fresh pseudo-terminal, records every byte the command writes
to the terminal, and answers an OSC 52 query the way a test asks.

    pty-terminal.py RECORD REPORT [--answer FILE] [--split N] [--interrupt]
                    [--terminate] -- COMMAND ARG...

The command keeps this script's standard input, output and error (so a
test sees that its standard output stays clean); only /dev/tty is the
pseudo-terminal. RECORD receives what the command wrote to the terminal.
When the command sends a query (ESC ] 52 ; ... ; ? BEL), the script writes
the bytes of FILE to the terminal as the answer (nothing without
--answer: a terminal that ignores queries); with --split N it writes the
first N bytes, waits 200 ms, then the rest; with --interrupt it types
Ctrl-C instead, with --terminate it sends the command SIGTERM. REPORT receives one line: the command's exit status (128 +
signal when killed) and whether the terminal's mode after the command is
the mode it had before ("mode-same" or "mode-changed").
"""

import os
import pty
import select
import signal
import sys
import termios
import time

QUERY_END = b";?\x07"


def main():
    args = sys.argv[1:]
    record_path, report_path = args[0], args[1]
    answer, split, interrupt, terminate = None, None, False, False
    i = 2
    while args[i] != "--":
        if args[i] == "--answer":
            with open(args[i + 1], "rb") as f:
                answer = f.read()
            i += 2
        elif args[i] == "--split":
            split = int(args[i + 1])
            i += 2
        elif args[i] == "--interrupt":
            interrupt = True
            i += 1
        elif args[i] == "--terminate":
            terminate = True
            i += 1
        else:
            sys.exit("pty-terminal.py: unknown option " + args[i])
    command = args[i + 1:]

    master, slave = pty.openpty()
    before = termios.tcgetattr(master)
    pid = os.fork()
    if pid == 0:
        os.close(master)
        os.setsid()
        # Opening the terminal without O_NOCTTY makes it the session's
        # controlling terminal; the standard streams stay as they are.
        fd = os.open(os.ttyname(slave), os.O_RDWR)
        os.close(fd)
        os.close(slave)
        os.execvp(command[0], command)
    # The script keeps the terminal's other side open too, so that reading
    # never fails before the command has opened it or after it has ended.

    seen = b""
    answered = False
    status = None
    deadline = time.monotonic() + 60
    with open(record_path, "wb") as record:
        while time.monotonic() < deadline:
            ready = select.select([master], [], [], 0.05)[0]
            if ready:
                data = os.read(master, 65536)
                record.write(data)
                seen += data
                if not answered and b"\x1b]52;" in seen and QUERY_END in seen:
                    answered = True
                    if interrupt:
                        os.write(master, b"\x03")
                    elif terminate:
                        os.kill(pid, signal.SIGTERM)
                    elif answer is not None and split is not None:
                        os.write(master, answer[:split])
                        time.sleep(0.2)
                        os.write(master, answer[split:])
                    elif answer is not None:
                        os.write(master, answer)
            if status is None:
                done, raw = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = raw
            if status is not None and not ready:
                break
    if status is None:
        os.kill(pid, 9)
        _, status = os.waitpid(pid, 0)
    after = termios.tcgetattr(master)
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
    with open(report_path, "w") as report:
        report.write("%d %s\n" % (code, "mode-same" if after == before else "mode-changed"))


main()
