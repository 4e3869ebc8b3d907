"""The `patchwork-companion` command.

Whatever goes wrong, the user sees one line on stderr, never a traceback:
each command turns the problems it expects into one line and exit status 2;
`main` catches Ctrl-C (exit 130) and, as a last resort, any other exception
(one line, exit 1; the traceback goes to the log).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from pathlib import Path

from companion import __version__
from companion.display import DISPLAY_NAMES
from companion.hardware.flags import add_display_arguments
from companion.logs import BoundedFormatter
from companion.output import PROGRAM, OutputLost, write_output
from companion.storage.files import one_line

log = logging.getLogger(__name__)

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130
"""What a shell reports for a command ended by SIGINT (128 + 2)."""
EXIT_UNEXPECTED = 1
EXIT_BROKEN_PIPE = 141
"""What a shell reports for a command ended by SIGPIPE (128 + 13)."""
LOG_LIMIT = 1 << 20
"""A game log takes a few kilobytes (a header of 600 bytes, under 40 bytes an action)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description="A companion for the board game Patchwork: track, buttons, solo Automa.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    replay = commands.add_parser("replay", help="replay a game log and print the resulting state")
    replay.add_argument(
        "log", type=Path, metavar="LOG", help="a game log (JSON Lines); - for standard input"
    )
    replay.add_argument("--json", action="store_true", help="print the state as one JSON object")
    replay.set_defaults(handler=_replay)

    export = commands.add_parser(
        "export", help="print a game the companion kept, as a game log (docs/game-log.md)"
    )
    export.add_argument("--state-dir", type=Path, help="where the companion keeps its games")
    export.add_argument(
        "--game",
        type=game_choice,
        default="current",
        metavar="current|last|N",
        help="the game in progress (the default), the last game that ended, or the Nth "
        "game that ended (1 is the first)",
    )
    export.set_defaults(handler=_export)

    simulate = commands.add_parser(
        "simulate", help="run the companion on this computer, drawn in the terminal"
    )
    _add_simulate_arguments(simulate)
    simulate.set_defaults(handler=_simulate)

    run = commands.add_parser("run", help="run the companion on its hardware (the daemon)")
    _add_hardware_arguments(run)
    run.set_defaults(handler=_run_daemon)

    check = commands.add_parser(
        "check-hardware", help="show a test pattern and every input, to check the wiring"
    )
    _add_hardware_arguments(check)
    check.set_defaults(handler=_check_hardware)
    return parser


def _add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--display",
        choices=DISPLAY_NAMES,
        help="where to draw: a pygame window (the default on a desktop), the terminal (the "
        "default elsewhere), PNG captures, an animated GIF, or nowhere (dummy; the default "
        "with --script)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        help="for capture, DIR/frame.png (frames numbered frame-000001.png...; or a template "
        "such as DIR/f{:04}.png); for gifanim, DIR/game.gif. DIR must exist",
    )
    parser.add_argument(
        "--script",
        type=Path,
        help="read inputs from FILE, one per line, and exit (in a fresh temporary state "
        "directory unless --state-dir is given)",
    )
    parser.add_argument("--seed", type=seed_number, help="deal and shuffle new games reproducibly")
    parser.add_argument(
        "--deal",
        metavar="CODE",
        help="deal every new game by this deal code (its circle, and a solo game's deck and "
        "its order), as shown at a solo game's set-up and end",
    )
    parser.add_argument(
        "--state-dir", type=Path, help="where the games (companion.db) and settings live"
    )
    parser.add_argument("--json", action="store_true", help="print the final state as JSON on exit")


def seed_number(text: str) -> int:
    """`--seed`: a whole number from 0 to 2**32 - 1, as the device draws them."""
    from companion.engine.setup import SEEDS  # not at the top: see `_simulate`

    # Leading zeros left out before the digits are counted: "000000000001" is 1, and a
    # long number after them is still refused.
    digits = text.lstrip("0") or "0"
    if not text.isascii() or not text.isdigit() or int(digits[:11]) not in SEEDS:
        shown = text if len(text) <= 12 else text[:11] + "…"
        raise argparse.ArgumentTypeError(
            f"{shown!r}: a seed is a whole number from 0 to {SEEDS.stop - 1}"
        )
    return int(digits)


def game_choice(text: str) -> str:
    """`--game`: current, last or a game's number."""
    if text in ("current", "last") or (text.isascii() and text.isdigit() and int(text) > 0):
        return text
    raise argparse.ArgumentTypeError(f"{text[:20]!r}: current, last or a number from 1")


def _add_hardware_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        help="a hardware profile: a shipped name (see hardware/README.md) or a TOML file; "
        "default: sh1106-encoder on a Raspberry Pi, simulation elsewhere",
    )
    parser.add_argument(
        "--state-dir", type=Path, help="where the games (companion.db) and settings live"
    )
    add_display_arguments(parser)


# Each command imports only what it runs: the device's start-up does not pay for the
# simulation's terminal and keyboard, nor for a replay's engine (its home menu is drawn
# without the engine), nor a replay for the whole application.


def _simulate(args: argparse.Namespace) -> int:
    from companion.simulate import run

    return run(args)


def _run_daemon(args: argparse.Namespace) -> int:
    from companion.daemon.service import run

    return run(args)


def _check_hardware(args: argparse.Namespace) -> int:
    from companion.daemon.check import run

    return run(args)


def _replay(args: argparse.Namespace) -> int:
    from companion.engine.gamelog import read_whole_log
    from companion.engine.summary import state_dict, text_summary
    from companion.untrusted import UnusableFileError, iter_lines, read_capped

    try:
        if str(args.log) == "-":  # `export | replay -`
            if sys.stdin is None:  # closed (`<&-`): Python made no stream of it
                raise UnusableFileError("cannot read: standard input is closed")
            data = sys.stdin.buffer.read(LOG_LIMIT + 1)
            if len(data) > LOG_LIMIT:
                raise UnusableFileError(f"more than {LOG_LIMIT:,} bytes, more than a log can take")
            size = len(data)
        else:
            data, size = read_capped(args.log, LOG_LIMIT)
        if size > len(data):
            raise UnusableFileError(f"{size:,} bytes, more than a game log can take")
        replayed = read_whole_log(iter_lines(data + b"\n"))
    except OSError as error:
        problem = f"cannot read: {error.strerror or error}"
    except ValueError as error:  # UnusableFileError, LogError
        problem = str(error)
    else:
        game, abandoned = replayed.game, replayed.abandoned
        if args.json:
            write_output(json.dumps(state_dict(game, abandoned)))
        else:
            write_output(text_summary(game, abandoned))
        return 0
    print(one_line(f"{PROGRAM} {args.command}: {args.log}: {problem}", 300), file=sys.stderr)
    return EXIT_BAD_INPUT


def _export(args: argparse.Namespace) -> int:
    from companion.storage.files import StorageError
    from companion.storage.paths import existing_state_dir
    from companion.storage.store import Store

    try:
        with Store(existing_state_dir(args.state_dir), writable=False) as store:
            if args.game == "current":
                log, missing = store.current_log(), "no game is in progress"
            elif args.game == "last":
                log, missing = store.ended_log(), "no game has ended yet"
            else:
                log, missing = store.ended_log(int(args.game)), f"no game {args.game} has ended"
    except StorageError as error:
        log, missing = None, str(error)
    if log is None:
        print(one_line(f"{PROGRAM} {args.command}: {missing}", 300), file=sys.stderr)
        return EXIT_BAD_INPUT
    write_output(log.rstrip("\n"))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if logging.lastResort is not None:
        # A record logged before the command sets up its logging (the state directory's
        # lock, taken first, on a read-only card) reaches stderr through logging's last
        # resort, bare: it names the program, as every other line the user sees does.
        prefix = f"{PROGRAM} {args.command}: "
        logging.lastResort.setFormatter(BoundedFormatter(prefix + "%(message)s"))
    try:
        status: int = args.handler(args)
        return _output_flushed(status)
    except OutputLost as error:
        return _output_lost(str(error))
    except KeyboardInterrupt:
        print(f"{PROGRAM}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`replay LOG | head`): nothing to say, as for `cat`.
        _discard_output()
        return EXIT_BROKEN_PIPE
    except Exception as error:
        if log.hasHandlers():  # with none, logging's last resort prints the traceback
            log.exception("%s %s failed", PROGRAM, args.command)
        print(one_line(f"{PROGRAM}: unexpected error: {error!r}", 300), file=sys.stderr)
        return EXIT_UNEXPECTED


def _output_flushed(status: int) -> int:
    """The command's status once its output is written out: a reader gone (BrokenPipeError,
    for `main`) or a full disk (`>/dev/full`) is found here, not in Python's exit."""
    if sys.stdout is None:  # closed (`>&-`): print() wrote nothing, and nothing can be flushed
        return status
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as error:
        if status == 0:  # else the command has said what went wrong, and its output is moot
            return _output_lost(error.strerror)
        _discard_output()
    return status


def _output_lost(reason: str | None) -> int:
    """Say in one line that standard output takes nothing; the status to exit with."""
    if sys.stdout is not None:
        _discard_output()
    print(f"{PROGRAM}: cannot write to standard output: {reason}", file=sys.stderr)
    return EXIT_UNEXPECTED


def _discard_output() -> None:
    """Send what is still buffered for standard output nowhere, or Python's exit would try
    again and complain."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
