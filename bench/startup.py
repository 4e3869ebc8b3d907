"""Start-up to the first frame against its budget, beside a bare import of the libraries.

    .venv/bin/python bench/startup.py [--runs N]
    .venv/bin/python bench/startup.py --breakdown

The budget: the daemon's first frame within 0.9 G instructions (x86-64, valgrind's
callgrind), fresh and with a game resumed (`instructions.START_UP_BUDGET`).

Compiles the companion's bytecode first, as pip does when it installs the
package on the device. Then starts the daemon as `run` starts it
(bench/device.py's DAEMON: the real luma driver on a recording bus, gpiozero
on mock pins) and, in turn in the same run, a bare
`import PIL.Image, luma.oled.device, gpiozero`, each timed from its start to
READY=1 on a real notify socket: the daemon sends it once its first frame is
on the bus, the bare imports right after them (so neither's interpreter exit
is counted). The daemon starts in two scenarios: fresh (nothing saved: its
first frame is the home menu) and with a solo game in progress to resume (its
first frame is that game's turn, which needs the engine and the game's
screens). Prints the median of N runs of each (default 15), wall-clock and
CPU (each thread's schedstat at READY=1, in nanoseconds), and their ratios:
the same figure 4 as bench/device.py, from the same code. These swing with
the machine's load; the budget is judged by the instructions callgrind counts
for each (bench/instructions.py's `daemon_instructions`), which do not. They
are of the whole process, exit included: the daemon's stdin is closed, so it
stops right after its first frame, drawing its "saved" screen, and the bare
imports exit after them.

With --breakdown, where the daemon's instructions go (the fresh start), each
part counted as the difference between two runs: Python alone; the bare
imports; the other modules of the standard library and gpiozero the daemon
imports; the companion's own modules; the daemon's work from the profile to
its first frame (the recording bus the bench drives instead of /dev/i2c-1 is
counted among the companion's modules, as in the budget's count). Within them,
the cost of building our dataclasses and our enums is the count of a run
that builds each of them twice less the count of the run that builds them
once, and of reading the Korean font (which an English start no longer does)
that of a run reading it once less the daemon's; what each dataclass option
costs, the count of the daemon less that of a run building our dataclasses
without it. Then how many dataclasses and enums each room builds. Eleven
callgrind runs: several minutes.

Not a test: it prints figures and never fails.
"""

from __future__ import annotations

import argparse
import subprocess
import sys

from device import BARE_IMPORT, DAEMON, compile_bytecode, print_start_up, run_count
from instructions import daemon_instructions, instructions, print_start_up_instructions

DAEMON_IMPORTS = "\n".join(
    line for line in DAEMON.splitlines() if line.startswith(("import ", "from "))
)
"""The daemon's imports alone: what `run` imports, without its work."""

LIBRARY_IMPORTS = f"""
import importlib, subprocess, sys
{BARE_IMPORT}
listed = [sys.executable, "-c", {DAEMON_IMPORTS!r} + "\\nprint(*sys.modules)"]
for name in subprocess.run(listed, capture_output=True, text=True, check=True).stdout.split():
    if name.split(".")[0] != "companion" and name != "__main__":
        importlib.import_module(name)
"""
"""The bare imports and every other module the daemon's imports load, but none of ours.
(The child that lists them is not counted: callgrind follows no children.)"""

OURS = """
def ours(module):
    return module.startswith("companion.") and not module.startswith("companion.testing.")
"""
"""Whether a class is the companion's own (the bench's recording bus, which the device
does not import, is left out), for the snippets below."""

BUILT_TWICE = {
    "dataclasses": OURS
    + """
import dataclasses
process = dataclasses._process_class
def process_twice(cls, *options):
    if ours(cls.__module__):
        namespace = {k: v for k, v in vars(cls).items() if k not in ("__dict__", "__weakref__")}
        process(type(cls)(cls.__name__, cls.__bases__, namespace), *options)
    return process(cls, *options)
dataclasses._process_class = process_twice
""",
    "enums": OURS
    + """
import enum
create = enum.EnumType.__new__
def create_twice(metaclass, name, bases, namespace, **options):
    if ours(namespace.get("__module__", "")):
        again = metaclass.__prepare__(name, bases, **options)
        for key, value in namespace.items():
            again[key] = value
        create(metaclass, name, bases, again, **options)
    return create(metaclass, name, bases, namespace, **options)
enum.EnumType.__new__ = create_twice
""",
    "the Korean font (read now only for Hangul)": """
import companion.text.hangul
companion.text.hangul._build_korean().has_glyph("\uac00")
""",
}
"""Code run before the daemon that builds each of these a second time, to count one (the
Korean font it reads once: the daemon, in English, never does)."""

WITHOUT = {
    option: OURS
    + f"""
import dataclasses
process = dataclasses._process_class
OPTIONS = ("init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args", "kw_only",
           "slots", "weakref_slot")
def process_without(cls, *options):
    chosen = dict(zip(OPTIONS, options))
    if ours(cls.__module__):
        chosen[{option!r}] = False
    return process(cls, **chosen)
dataclasses._process_class = process_without
"""
    for option in ("slots", "repr", "frozen")
}
"""Code run before the daemon that builds each of our dataclasses without one option: what
that option costs (the daemon still reaches its first frame; only the count is kept)."""

ROOMS = (
    OURS
    + f"""
import collections, dataclasses, enum, sys
{DAEMON_IMPORTS}
counts = collections.Counter()
for name, module in list(sys.modules.items()):
    if ours(name):
        room = name.split(".")[1]
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == name:
                if dataclasses.is_dataclass(value):
                    counts["dataclasses", room] += 1
                elif issubclass(value, enum.Enum):
                    counts["enums", room] += 1
for kind in ("dataclasses", "enums"):
    rooms = sorted(((n, room) for (k, room), n in counts.items() if k == kind), reverse=True)
    each = ", ".join(f"{{room}} {{n}}" for n, room in rooms)
    print(f"  {{sum(n for n, _ in rooms)}} {{kind}}: {{each}}")
"""
)
"""How many dataclasses and enums of ours the daemon's imports build, room by room."""


def breakdown() -> None:
    python, _ = instructions("pass")
    bare, _ = instructions(BARE_IMPORT)
    libraries, _ = instructions(LIBRARY_IMPORTS)
    imports, _ = instructions(DAEMON_IMPORTS)
    daemon = daemon_instructions()
    print("where the daemon's instructions to its first frame go (G):")
    for what, count in (
        ("Python alone", python),
        ("the bare imports (PIL, luma.oled, gpiozero)", bare - python),
        ("the other library modules the daemon imports", libraries - bare),
        ("the companion's own modules", imports - libraries),
        ("the daemon's work from the profile to the first frame", daemon - imports),
    ):
        print(f"  {count / 1e9:.3f}  {what}")
    print(
        f"  {daemon / 1e9:.3f}  in all (bare imports {bare / 1e9:.3f}, ratio {daemon / bare:.2f})"
    )
    print("within the companion's modules, building:")
    for what, twice in BUILT_TWICE.items():
        print(f"  {(daemon_instructions(twice) - daemon) / 1e9:.3f}  {what}")
    print("of the dataclasses, each option (the daemon's count less that without it):")
    for option, without in WITHOUT.items():
        print(f"  {(daemon - daemon_instructions(without)) / 1e9:.3f}  {option}")
    rooms = subprocess.run(
        [sys.executable, "-c", ROOMS], capture_output=True, text=True, check=True
    )
    print(rooms.stdout, end="")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=run_count, default=15, help="(default: 15)")
    parser.add_argument(
        "--breakdown", action="store_true", help="count where the instructions go, and stop"
    )
    args = parser.parse_args()
    print(compile_bytecode())
    if args.breakdown:
        breakdown()
        return
    print("start-up to the first frame:")
    print_start_up_instructions(indent="  ")
    print_start_up(args.runs, indent="  ")


if __name__ == "__main__":
    main()
