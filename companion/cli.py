"""The `patchwork-companion` command."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion import __version__
from companion.daemon.check import run as check_hardware
from companion.daemon.service import add_arguments as add_daemon_arguments
from companion.daemon.service import run as run_daemon
from companion.engine.gamelog import LogError, read_log
from companion.engine.summary import state_dict, text_summary
from companion.simulate import add_arguments as add_simulate_arguments
from companion.simulate import run as run_simulation

EXIT_BAD_INPUT = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="patchwork-companion",
        description="A companion for the board game Patchwork: track, buttons, solo Automa.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    replay = commands.add_parser("replay", help="replay a game log and print the resulting state")
    replay.add_argument("log", type=Path, metavar="LOG", help="a game log (JSON Lines)")
    replay.add_argument("--json", action="store_true", help="print the state as one JSON object")
    replay.set_defaults(handler=_replay)

    simulate = commands.add_parser(
        "simulate", help="run the companion on this computer, drawn in the terminal"
    )
    add_simulate_arguments(simulate)
    simulate.set_defaults(handler=run_simulation)

    run = commands.add_parser("run", help="run the companion on its hardware (the daemon)")
    add_daemon_arguments(run)
    run.set_defaults(handler=run_daemon)

    check = commands.add_parser(
        "check-hardware", help="show a test pattern and every input, to check the wiring"
    )
    add_daemon_arguments(check)
    check.set_defaults(handler=check_hardware)
    return parser


def _replay(args: argparse.Namespace) -> int:
    try:
        with args.log.open("rb") as log:
            game = read_log(log)
    except OSError as error:
        print(f"{args.log}: cannot read: {error.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except LogError as error:
        print(f"{args.log}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(state_dict(game)) if args.json else text_summary(game))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.handler(args)
