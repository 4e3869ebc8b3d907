"""Start-up to the first frame, against a bare import of the libraries it needs.

    .venv/bin/python bench/startup.py [--runs N] [--instructions]

Starts the daemon as `run` starts it (bench/device.py's DAEMON: the real luma
driver on a recording bus, gpiozero on mock pins) until READY=1 arrives on a
real notify socket, and, alternately in the same run, a bare
`import PIL.Image, luma.oled.device, gpiozero`. Prints the median of N runs of
each, wall-clock and CPU (user + system), and their ratios: on a shared
machine the wall-clock figures swing with the load, the CPU ones much less.
With --instructions, also the instructions valgrind's callgrind counts for
each, which do not depend on the load at all (the daemon's stdin is closed,
so it stops right after its first frame, drawing its "saved" screen).

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import os
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from device import BARE_IMPORT, DAEMON, PROFILE, cpu_seconds, start_daemon
from instructions import instructions


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def bare_import() -> tuple[float, float]:
    """Wall and CPU seconds of `python -c BARE_IMPORT`."""
    cpu, started = children_cpu(), time.perf_counter()
    subprocess.run([sys.executable, "-c", BARE_IMPORT], check=True)
    return time.perf_counter() - started, children_cpu() - cpu


def daemon_to_ready() -> tuple[float, float]:
    """Wall and CPU seconds from starting the daemon to its READY=1."""
    with (
        tempfile.TemporaryDirectory() as scratch,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener,
    ):
        process, wall = start_daemon(scratch, listener)
        cpu = cpu_seconds(process.pid)
        process.communicate(b"")
    return wall, cpu


def daemon_instructions() -> int:
    with (
        tempfile.TemporaryDirectory() as scratch,
        socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener,
    ):
        notify_path = os.path.join(scratch, "notify")
        listener.bind(notify_path)
        count, _ = instructions(DAEMON, PROFILE, notify_path, os.path.join(scratch, "state"))
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--instructions", action="store_true", help="also count (needs valgrind)")
    args = parser.parse_args()
    bare, daemon = [], []
    for _ in range(args.runs):
        bare.append(bare_import())
        daemon.append(daemon_to_ready())
    print(
        f"start-up, median of {args.runs} runs of each, alternating; load {os.getloadavg()[0]:.1f}"
    )
    for index, what in enumerate(("wall-clock", "CPU")):
        ours = statistics.median(run[index] for run in daemon)
        base = statistics.median(run[index] for run in bare)
        print(
            f"  {what}: to the first frame {ours:.3f} s, bare import {base:.3f} s,"
            f" ratio {ours / base:.2f} (target <= 1.5)"
        )

    if args.instructions:
        ours, (base, _) = daemon_instructions(), instructions(BARE_IMPORT)
        print(
            f"  instructions: to the first frame {ours / 1e9:.3f} G, bare import"
            f" {base / 1e9:.3f} G, ratio {ours / base:.2f}"
        )


if __name__ == "__main__":
    main()
