#!/usr/bin/env python3
"""Damaged-journal harness: boot the companion on 1,000 journals damaged in random ways.

    .venv/bin/python stress/damaged_journals.py [--count 1000] [--seed S]

Each journal is a real game (the engine plays random legal actions, Automa turns
included, for a random number of moves) written with ``gamelog.log_lines``, then
damaged in one of these ways (equally often):

- ``truncated``: cut at a random byte;
- ``flipped``: 1 to 8 random bytes replaced by random values (half the time printable ASCII);
- ``empty``: zero bytes;
- ``not-utf8``: invalid UTF-8 bytes put in at a random place, or the file in UTF-16;
- ``future-version``: the header says format version 2;
- ``spliced``: another game's lines inserted at a random line, or its whole log appended;
- ``foreign-json``: another program's JSON (a package.json, a JSON array, a GeoJSON…)
  instead of the file, or as one of its lines;
- ``header-only``: just the header (a game just started: must load, no notice);
- ``garbage``: random bytes;
- ``zeroed-tail``: the last line's blocks zeroed (what a crash can leave).

For each one a ``Companion`` is started on a fresh state directory (in a
temporary directory) holding it, and checked:

- it starts without an exception;
- what became of the file: loaded as is; loaded with the torn (or garbled) last
  line dropped and the rest byte-identical; or moved aside as
  ``journal-damaged-*.jsonl``, byte-identical, with no ``journal.jsonl`` left;
  never anything else (nothing deleted, nothing rewritten);
- what the player is told (the distinct notice texts, counted), and that the
  notice fits on the 128x64 screen;
- the screen is usable: after the notice (one press) the home menu, or the
  resumed game's screen.

A damage that still parses as a legal game (a flipped digit can turn
"buy 2nd patch" into "buy 1st patch") cannot be told from a real journal
without a checksum; those are counted apart ("loaded a different game, no notice").
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
from companion.app import companion as companion_module  # noqa: E402
from companion.app.companion import Companion  # noqa: E402
from companion.engine.actions import Adjust, ClaimBonus  # noqa: E402
from companion.engine.automa import DIFFICULTIES, Deck  # noqa: E402
from companion.engine.game import Game  # noqa: E402
from companion.engine.gamelog import log_lines, read_log  # noqa: E402
from companion.engine.setup import Side, solo_setup, two_player_setup  # noqa: E402
from companion.inputs.events import Input  # noqa: E402
from companion.render.screens import render_canvas  # noqa: E402
from companion.views import MenuView, ScreenKind, TextView  # noqa: E402
from stress.common import invocation, machine_line  # noqa: E402

KINDS = (
    "truncated",
    "flipped",
    "empty",
    "not-utf8",
    "future-version",
    "spliced",
    "foreign-json",
    "header-only",
    "garbage",
    "zeroed-tail",
)
FOREIGN_JSON = (
    '{"name": "my-app", "version": "1.0.0", "dependencies": {"left-pad": "^1.3.0"}}',
    '[1, 2, 3, {"action": "advance"}]',
    '{"type": "FeatureCollection", "features": []}',
    '{"level": "info", "msg": "listening on :8080", "time": "2026-01-01T00:00:00Z"}',
    '"just a string"',
    "null",
    '{"action": "teleport", "to": 53}',
    '{"format": "some-other-log", "version": 1}',
)


# --- real games -----------------------------------------------------------------------------


def random_game(rng: random.Random) -> Game:
    seed = rng.randrange(2**31)
    if rng.random() < 0.6:
        level = rng.choice(DIFFICULTIES).name
        setup = solo_setup(level, rng.choice(list(Deck)).value, seed=seed)
    else:
        setup = two_player_setup(rng.choice((Side.P1, Side.P2)), seed=seed)
    game = Game(setup)
    moves = rng.choice((rng.randrange(0, 8), rng.randrange(0, 200)))
    while len(game.move_stack) < moves and not game.is_over:
        actions = game.legal_actions()
        if rng.random() < 0.03:
            side = rng.choice([name for name in game.sides if name != "automa"])
            delta = rng.choice((-1, 1, 2)) if game.sides[side].buttons else 1
            actions = [*actions, Adjust(side, delta)]
        action = rng.choice(actions)
        if isinstance(action, ClaimBonus) or rng.random() < 0.9:
            game.push(action)
    return game


def journal_bytes(game: Game) -> bytes:
    return "".join(line + "\n" for line in log_lines(game)).encode("utf-8")


# --- damage ---------------------------------------------------------------------------------


def damage(kind: str, data: bytes, other: bytes, rng: random.Random) -> bytes:
    lines = data.splitlines(keepends=True)
    if kind == "truncated":
        return data[: rng.randrange(len(data))]
    if kind == "flipped":
        buffer = bytearray(data)
        printable = rng.random() < 0.5  # half the time ASCII only, so it stays UTF-8
        for _ in range(rng.randint(1, 8)):
            buffer[rng.randrange(len(buffer))] = (
                rng.randrange(32, 127) if printable else rng.randrange(256)
            )
        return bytes(buffer)
    if kind == "empty":
        return b""
    if kind == "not-utf8":
        if rng.random() < 0.25:
            return data.decode("utf-8").encode("utf-16")
        at = rng.randrange(len(data))
        return data[:at] + rng.choice((b"\xff", b"\xc3\x28", b"\xe2\x82", b"\x80\x80")) + data[at:]
    if kind == "future-version":
        header = json.loads(lines[0])
        header["version"] = rng.choice((2, 3, 10))
        return (json.dumps(header) + "\n").encode() + b"".join(lines[1:])
    if kind == "spliced":
        other_lines = other.splitlines(keepends=True)
        if rng.random() < 0.5:
            return data + other
        at = rng.randrange(1, len(lines) + 1)
        start = rng.randrange(1, len(other_lines)) if len(other_lines) > 1 else 0
        return b"".join([*lines[:at], *other_lines[start : start + rng.randint(1, 5)], *lines[at:]])
    if kind == "foreign-json":
        foreign = rng.choice(FOREIGN_JSON).encode()
        if rng.random() < 0.5:
            return foreign + b"\n"
        at = rng.randrange(0, len(lines) + 1)
        return b"".join([*lines[:at], foreign + b"\n", *lines[at:]])
    if kind == "header-only":
        return lines[0]
    if kind == "garbage":
        return rng.randbytes(rng.randrange(1, 4096))
    if kind == "zeroed-tail":
        last = len(lines[-1])
        keep_newline = rng.random() < 0.5
        return b"".join(lines[:-1]) + b"\0" * (last - keep_newline) + b"\n" * keep_newline
    raise ValueError(kind)


# --- one boot ---------------------------------------------------------------------------------


def what_became(state_dir: Path, damaged: bytes) -> str:
    """What the boot did with the file, or a failure starting with 'BAD'."""
    journal = state_dir / "journal.jsonl"
    aside = sorted(state_dir.glob("journal-damaged-*.jsonl"))
    if aside:
        if len(aside) > 1:
            return "BAD: more than one damaged copy"
        if aside[0].read_bytes() != damaged:
            return "BAD: the damaged copy differs from the file"
        if journal.exists():
            return "BAD: moved aside but journal.jsonl still there"
        return "moved aside"
    if not journal.exists():
        return "BAD: the journal is gone and no copy was kept"
    kept = journal.read_bytes()
    if kept == damaged:
        return "loaded as is"
    if not damaged.startswith(kept):
        return "BAD: the journal was rewritten"
    dropped = damaged[len(kept) :]
    if b"\n" in dropped.rstrip(b"\n") or dropped.count(b"\n") > 1:
        return "BAD: more than the last line was dropped"
    if not dropped.strip():
        return "loaded, trailing blank dropped"
    return "loaded, last line dropped"


def normalise(notice: str) -> str:
    notice = re.sub(r"journal-damaged-[0-9-]+\.jsonl", "journal-damaged-<time>.jsonl", notice)
    return re.sub(r"(?<!UTF-)\d+", "N", notice)


TOLD: list[str] = []


class RecordingNotice(companion_module.Notice):
    """The app's Notice, remembering the texts it was given (what the player is told)."""

    def __init__(self, title, texts, on_done):
        TOLD.extend(texts)
        super().__init__(title, texts, on_done)


companion_module.Notice = RecordingNotice


def boot(state_dir: Path, damaged: bytes, original: Game) -> dict:
    state_dir.mkdir()
    (state_dir / "journal.jsonl").write_bytes(damaged)
    outcome: dict = {}
    TOLD.clear()
    try:
        app = Companion(state_dir)
    except Exception as error:
        return {"error": f"{type(error).__name__}: {error}"}
    outcome["fate"] = what_became(state_dir, damaged)
    view = app.view()
    outcome["notice"] = None
    if isinstance(view, TextView) and view.title == "Note":
        outcome["notice"] = " / ".join(TOLD)
        outcome["notice_fits"] = all(
            not render_canvas(TextView(view.title, page, number, len(app.screen.pages))).overflows
            for number, page in enumerate(app.screen.pages, start=1)
        )
        outcome["notice_pages"] = len(app.screen.pages)
        app.handle(Input.SELECT)
        view = app.view()
    canvas = render_canvas(view)
    if app.game is None:
        outcome["usable"] = isinstance(view, MenuView) and view.kind is ScreenKind.HOME
    else:
        outcome["usable"] = not (isinstance(view, MenuView) and view.kind is ScreenKind.HOME)
    outcome["usable"] = outcome["usable"] and not canvas.overflows
    outcome["screen"] = type(view).__name__
    if app.game is not None:
        outcome["game"] = "resumed"
        resumed = read_log((state_dir / "journal.jsonl").read_bytes().splitlines())
        outcome["same_as_disk"] = resumed.state() == app.game.state()
        moves = len(app.game.move_stack)
        prefix = Game(original.setup)
        for action in original.move_stack[:moves]:
            prefix.push(action)
        outcome["prefix_of_original"] = (
            app.game.setup == original.setup
            and app.game.move_stack == original.move_stack[:moves]
            and app.game.state() == prefix.state()
        )
    else:
        outcome["game"] = "none"
    return outcome


# --- the run ------------------------------------------------------------------------------------


def run_harness(count: int, seed: int) -> dict:
    import logging

    rng = random.Random(seed)
    started = time.monotonic()
    root = Path(tempfile.mkdtemp(prefix="stress-damaged-journals-"))
    logging.basicConfig(filename=root / "companion.log", level=logging.INFO, force=True)
    kinds: Counter[str] = Counter()
    fates: Counter[tuple[str, str]] = Counter()
    notices: Counter[str] = Counter()
    exact_notices: set[str] = set()
    failures: list[str] = []
    figures: Counter[str] = Counter()
    sizes: list[int] = []
    try:
        games = [random_game(rng) for _ in range(min(count, 50) + 1)]
        for number in range(count):
            kind = KINDS[number % len(KINDS)]
            original = random_game(rng) if number >= 50 else games[number]
            other = journal_bytes(rng.choice(games))
            data = journal_bytes(original)
            damaged = damage(kind, data, other, rng)
            sizes.append(len(original.move_stack))
            kinds[kind] += 1
            state_dir = root / f"j{number}"
            outcome = boot(state_dir, damaged, original)
            shutil.rmtree(state_dir, ignore_errors=True)
            if "error" in outcome:
                figures["starts that failed"] += 1
                failures.append(f"#{number} {kind}: {outcome['error']}")
                continue
            fates[(kind, outcome["fate"])] += 1
            if outcome["fate"].startswith("BAD"):
                figures["files not kept as they should"] += 1
                failures.append(f"#{number} {kind}: {outcome['fate']}")
            if outcome["notice"]:
                notices[normalise(outcome["notice"])] += 1
                exact_notices.add(outcome["notice"])
                if not outcome["notice_fits"]:
                    figures["notices that do not fit the screen"] += 1
                    failures.append(f"#{number} {kind}: notice overflows: {outcome['notice']}")
            else:
                figures["boots with no notice"] += 1
                if outcome["fate"] in ("moved aside", "loaded, last line dropped"):
                    figures["repairs the player was not told of"] += 1
                    failures.append(f"#{number} {kind}: {outcome['fate']} without a notice")
            if not outcome["usable"]:
                figures["boots without a usable screen"] += 1
                failures.append(f"#{number} {kind}: screen {outcome['screen']} not usable")
            if outcome["game"] == "resumed":
                figures["games resumed"] += 1
                if not outcome["same_as_disk"]:
                    failures.append(f"#{number} {kind}: resumed game differs from the file")
                if not outcome["prefix_of_original"]:
                    figures["loaded a different game, no notice"] += 1
            else:
                figures["started clean"] += 1
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return {
        "journals": count,
        "starts_failed": figures["starts that failed"],
        "files_mishandled": figures["files not kept as they should"],
        "unusable_screens": figures["boots without a usable screen"],
        "notices_overflowing": figures["notices that do not fit the screen"],
        "silent_repairs": figures["repairs the player was not told of"],
        "games_resumed": figures["games resumed"],
        "started_clean": figures["started clean"],
        "loaded_different_game": figures["loaded a different game, no notice"],
        "boots_without_notice": figures["boots with no notice"],
        "kinds": dict(kinds),
        "fates": {f"{kind}: {fate}": n for (kind, fate), n in sorted(fates.items())},
        "notices": dict(notices.most_common()),
        "distinct_exact_notices": len(exact_notices),
        "moves_per_game": {"min": min(sizes), "max": max(sizes), "mean": sum(sizes) / len(sizes)}
        if sizes
        else {},
        "failures": failures,
        "seconds": round(time.monotonic() - started, 1),
    }


def report(result: dict, seed: int) -> str:
    moves = result["moves_per_game"]
    lines = [
        "damaged_journals: boot the companion on damaged journals of real games",
        f"command: {invocation()}",
        f"machine: {machine_line()}",
        f"seed: {seed}",
        f"journals: {result['journals']} (moves per game {moves.get('min')}-{moves.get('max')}, "
        f"mean {moves.get('mean', 0):.1f})",
        f"starts that failed (target 0): {result['starts_failed']}",
        f"files not kept as they should be (target 0): {result['files_mishandled']}",
        f"boots without a usable screen (target 0): {result['unusable_screens']}",
        f"notices that do not fit the screen (target 0): {result['notices_overflowing']}",
        f"repairs the player was not told of (target 0): {result['silent_repairs']}",
        f"games resumed: {result['games_resumed']}, started clean: {result['started_clean']}",
        f"loaded a different game than written, no notice (no checksum to tell): "
        f"{result['loaded_different_game']}",
        "what became of each kind of damage:",
    ]
    lines += [f"    {what}: {n}" for what, n in result["fates"].items()]
    lines.append(
        f"what the player was told ({len(result['notices'])} texts with numbers as N; "
        f"{result['distinct_exact_notices']} distinct exact texts; "
        f"{result['boots_without_notice']} boots with no notice):"
    )
    lines += [f"    {n} x {text}" for text, n in result["notices"].items()]
    lines.append(f"total time: {result['seconds']} s")
    if result["failures"]:
        lines.append("FAILURES:")
        lines += [f"    {failure}" for failure in result["failures"][:30]]
    return "\n".join(lines)


def passed(result: dict) -> bool:
    return not result["failures"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    result = run_harness(args.count, seed)
    print(report(result, seed))
    if args.json:
        print(json.dumps(result))
    return 0 if passed(result) else 1


if __name__ == "__main__":
    sys.exit(main())
