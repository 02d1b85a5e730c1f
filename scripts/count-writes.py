#!/usr/bin/env python3
"""Runs a command with its standard output to a pipe (read and dropped) and its standard error
to ERRFILE, and prints how many `write` system calls it made, from its /proc/PID/io once it has
exited and before it is reaped (Linux; the way tests/output_targets.rs counts them). For
README's row on `inspect --json` to a pipe (scripts/bench-all.sh hostile).

    scripts/count-writes.py ERRFILE COMMAND [ARG...]
"""
import os
import subprocess
import sys
import threading
import time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1], "wb") as errors:
        child = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, stderr=errors)
    read = [0]

    def drain():
        while chunk := child.stdout.read(1 << 20):
            read[0] += len(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    # Wait for the exit without reaping (WNOWAIT), so that /proc/PID/io still holds its counts.
    while os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
        time.sleep(0.02)
    with open(f"/proc/{child.pid}/io") as io:
        calls = next(line.split(":")[1].strip() for line in io if line.startswith("syscw:"))
    status = child.wait()
    reader.join()
    print(f"{calls} write calls for {read[0]} bytes, exit {status}")
    return status


if __name__ == "__main__":
    sys.exit(main())
