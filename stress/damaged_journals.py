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
- ``zeroed-tail``: the last line's blocks zeroed (what a crash can leave);
- ``deep-nesting``: a line of 100,000 ``[`` put in (last line, or in the middle);
- ``huge-number``: an action's number replaced by one of 5,000 digits;
- ``fifo``: a FIFO in place of the file (a read would wait for ever);
- ``symlink``: a symbolic link to a journal outside the state directory.

The other files the device reads get the same treatment, beside an intact
journal (``--count`` cases of each): ``progress.json`` and ``settings.json``
(deep nesting, a huge number, wrong types, garbage, a FIFO, a symbolic link)
and a finished game in ``history/`` (the same, and a damaged log). There the
game must come back from the journal, the file must be moved aside with a
notice (progress, settings) or skipped by the statistics (history), and a
symbolic link's target outside the state directory must be left as it was.

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

Journals are written as the device writes them, with a chained checksum
per line, so a damage that still parses as a legal game (a flipped digit
turning "buy 2nd patch" into "buy 1st patch", another game's line spliced
in) is found. A different game loaded with no notice is a failure. When the
companion offers the actions before the damage ("Resume from action 23 of
31?"), the harness accepts, and the game resumed must be that prefix of the
game written.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
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
from companion.engine.gamelog import log_lines, read_log, with_checksums  # noqa: E402
from companion.engine.setup import Side, solo_setup, two_player_setup  # noqa: E402
from companion.inputs.events import Input  # noqa: E402
from companion.render.screens import render_canvas  # noqa: E402
from companion.views import MenuView, QuestionView, ScreenKind, TextView  # noqa: E402
from stress.common import hold_the_wall_clock, invocation, machine_line  # noqa: E402

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
    "deep-nesting",
    "huge-number",
    "fifo",
    "symlink",
)
OTHER_FILES = ("progress.json", "settings.json", "history")
OTHER_KINDS = ("deep-nesting", "huge-number", "wrong-types", "garbage", "fifo", "symlink")
DEEP = b"[" * 100_000
HUGE = b"1" * 5_000
BOOT_SECONDS = 20
"""A boot that takes longer is stuck (reading a FIFO, say): counted as a failed start."""
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
        setup = solo_setup(rng.choice(DIFFICULTIES), rng.choice(list(Deck)), seed=seed)
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
    return "".join(line + "\n" for line in with_checksums(log_lines(game))).encode("utf-8")


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
    if kind == "deep-nesting":
        at = rng.choice((len(lines), rng.randrange(1, len(lines) + 1)))
        return b"".join([*lines[:at], DEEP + b"\n", *lines[at:]])
    if kind == "huge-number":
        return (
            re.sub(rb"\d+", HUGE, data, count=1) if rng.random() < 0.3 else _huge_action(lines, rng)
        )
    if kind in ("fifo", "symlink"):
        return data  # made special by `place`
    raise ValueError(kind)


def _huge_action(lines: list[bytes], rng: random.Random) -> bytes:
    at = rng.randrange(1, len(lines) + 1)
    line = b'{"action": "adjust", "side": "p1", "delta": ' + HUGE + b"}\n"
    return b"".join([*lines[:at], line, *lines[at:]])


def other_damage(kind: str, rng: random.Random) -> bytes:
    """Bad content for progress.json, settings.json or a history log."""
    if kind == "deep-nesting":
        return rng.choice((DEEP, b'{"a": ' * 50_000))
    if kind == "huge-number":
        return rng.choice((b'{"acknowledged": ', b'{"contrast": ', b'{"version": ')) + HUGE + b"}"
    if kind == "wrong-types":
        return rng.choice(
            (b'{"acknowledged": "5"}', b"null", b'{"dealing": 100000}', b'{"entering": "x"}',
             b'{"contrast": [1]}', b'{"rotation": 90}', b"[]", b'{"asked_bonus": {}}')
        )  # fmt: skip
    if kind in ("fifo", "symlink"):
        return b""
    return rng.randbytes(rng.randrange(1, 2048))


def place(path: Path, kind: str, content: bytes, outside: Path) -> None:
    """Put `content` at `path`, or a FIFO, or a link to `outside` holding `content`."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        outside.write_bytes(content)
        path.symlink_to(outside)
    else:
        path.write_bytes(content)


# --- one boot ---------------------------------------------------------------------------------


def what_became(state_dir: Path, damaged: bytes, kind: str = "") -> str:
    """What the boot did with the file, or a failure starting with 'BAD'."""
    journal = state_dir / "journal.jsonl"
    aside = sorted(state_dir.glob("journal-damaged-*.jsonl"))
    if aside:
        if len(aside) > 1:
            return "BAD: more than one damaged copy"
        if kind == "fifo" and not aside[0].is_fifo():
            return "BAD: the FIFO was not kept"
        if kind == "symlink" and not aside[0].is_symlink():
            return "BAD: the link was not kept"
        if kind not in ("fifo", "symlink") and aside[0].read_bytes() != damaged:
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

    def __init__(self, title, texts, on_done, words):
        TOLD.extend(texts)
        super().__init__(title, texts, on_done, words)


companion_module.Notice = RecordingNotice


class Stuck(Exception):
    """The boot took longer than BOOT_SECONDS."""


def _stuck(signum, frame):
    raise Stuck(f"no screen after {BOOT_SECONDS} s")


def start(state_dir: Path) -> Companion:
    """A Companion on `state_dir`, or `Stuck` if it does not come back in time."""
    previous = signal.signal(signal.SIGALRM, _stuck)
    signal.alarm(BOOT_SECONDS)
    try:
        return Companion(state_dir)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def through_notices(app: Companion, outcome: dict) -> object:
    """Read the notices (and accept an offer to resume the valid part); the view after them."""
    view = app.view()
    told = []
    while isinstance(view, TextView) and view.kind is ScreenKind.NOTICE:
        told.append(" / ".join(TOLD))
        outcome["notice_fits"] = outcome.get("notice_fits", True) and all(
            not render_canvas(TextView(view.title, page, number, len(app.screen.pages))).overflows
            for number, page in enumerate(app.screen.pages, start=1)
        )
        TOLD.clear()
        app.handle(Input.SELECT)
        view = app.view()
    if isinstance(view, QuestionView) and view.kind is ScreenKind.RESUME_DAMAGED:
        outcome["prefix_offered"] = True
        told.append(" / ".join(view.lines))
        app.handle(Input.SELECT)  # the first answer: resume
        view = app.view()
    outcome["notice"] = " // ".join(told) or None
    return view


def boot(state_dir: Path, damaged: bytes, original: Game, kind: str, outside: Path) -> dict:
    state_dir.mkdir()
    place(state_dir / "journal.jsonl", kind, damaged, outside)
    outcome: dict = {}
    TOLD.clear()
    try:
        app = start(state_dir)
        outcome["fate"] = what_became(state_dir, damaged, kind)
        view = through_notices(app, outcome)
    except Exception as error:
        return {"error": f"{type(error).__name__}: {str(error)[:200]}"}
    if kind == "symlink" and outside.read_bytes() != damaged:
        outcome["fate"] = "BAD: the file outside the state directory was changed"
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


def boot_other(
    state_dir: Path, target: str, kind: str, content: bytes, game: Game, outside: Path
) -> dict:
    """A Companion on an intact journal of `game` beside a damaged `target` file."""
    state_dir.mkdir()
    (state_dir / "journal.jsonl").write_bytes(journal_bytes(game))
    path = state_dir / target
    if target == "history":
        path.mkdir()
        path = path / "2026-01-01T10-00-00-solo.jsonl"
    place(path, kind, content, outside)
    outcome: dict = {}
    TOLD.clear()
    try:
        app = start(state_dir)
        view = through_notices(app, outcome)
        if target == "history":
            outcome["history_games"] = app.history.statistics().solo_overall
    except Exception as error:
        return {"error": f"{type(error).__name__}: {str(error)[:200]}"}
    outcome["screen"] = type(view).__name__
    outcome["usable"] = not render_canvas(view).overflows and not (
        isinstance(view, MenuView) and not view.items
    )
    outcome["same_game"] = app.game is not None and app.game.state() == game.state()
    if kind == "symlink" and outside.read_bytes() != content:
        outcome["fate"] = "BAD: the file outside the state directory was changed"
    elif target == "history":
        outcome["fate"] = (
            "skipped by the statistics"
            if outcome["history_games"] is None
            else "BAD: counted in the statistics"
        )
    elif path.exists() or path.is_symlink():
        outcome["fate"] = "BAD: left in place"
    else:
        stem = target.split(".")[0]
        kept = sorted(state_dir.glob(f"{stem}-damaged-*"))
        if len(kept) != 1:
            outcome["fate"] = "BAD: not kept aside"
        elif kind not in ("fifo", "symlink") and kept[0].read_bytes() != content:
            outcome["fate"] = "BAD: the copy kept aside differs"
        else:
            outcome["fate"] = "moved aside"
    return outcome


# --- the run ------------------------------------------------------------------------------------


def run_harness(count: int, seed: int) -> dict:
    import logging

    rng = random.Random(seed)
    started = time.monotonic()
    # The names of files moved aside are in the notices, whose distinct texts are counted.
    hold_the_wall_clock()
    root = Path(tempfile.mkdtemp(prefix="stress-damaged-journals-"))
    logging.basicConfig(filename=root / "companion.log", level=logging.INFO, force=True)
    kinds: Counter[str] = Counter()
    fates: Counter[tuple[str, str]] = Counter()
    notices: Counter[str] = Counter()
    exact_notices: set[str] = set()
    failures: list[str] = []
    figures: Counter[str] = Counter()
    sizes: list[int] = []
    others: Counter[tuple[str, str]] = Counter()
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
            outcome = boot(state_dir, damaged, original, kind, root / f"outside-{number}")
            shutil.rmtree(state_dir, ignore_errors=True)
            if "error" in outcome:
                figures["starts that failed"] += 1
                failures.append(f"#{number} {kind}: {outcome['error']}")
                continue
            fates[(kind, outcome["fate"])] += 1
            if outcome["fate"].startswith("BAD"):
                figures["files not kept as they should"] += 1
                failures.append(f"#{number} {kind}: {outcome['fate']}")
            if outcome.get("prefix_offered"):
                figures["valid prefix offered and taken"] += 1
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
                    figures["loaded a different game"] += 1
                    if not outcome["notice"]:
                        figures["loaded a different game, no notice"] += 1
                        failures.append(f"#{number} {kind}: a different game, no notice")
            else:
                figures["started clean"] += 1
        for target in OTHER_FILES:
            for number in range(count):
                kind = OTHER_KINDS[number % len(OTHER_KINDS)]
                case = f"{target} #{number} {kind}"
                content = other_damage(kind, rng)
                if target == "history" and kind in ("garbage", "wrong-types"):
                    content = damage("flipped", journal_bytes(rng.choice(games)), b"", rng)
                state_dir = root / f"o{number}"
                outside = root / f"outside-{target}-{number}"
                outcome = boot_other(state_dir, target, kind, content, games[0], outside)
                shutil.rmtree(state_dir, ignore_errors=True)
                others[(target, outcome.get("fate", "start failed"))] += 1
                if "error" in outcome:
                    figures["starts that failed"] += 1
                    failures.append(f"{case}: {outcome['error']}")
                    continue
                if outcome["fate"].startswith("BAD"):
                    figures["files not kept as they should"] += 1
                    failures.append(f"{case}: {outcome['fate']}")
                if not outcome["same_game"]:
                    figures["other files: game not back from its journal"] += 1
                    failures.append(f"{case}: the game did not come back from the journal")
                if not outcome["usable"]:
                    figures["boots without a usable screen"] += 1
                    failures.append(f"{case}: screen {outcome['screen']} not usable")
                if target != "history" and not outcome["notice"]:
                    figures["repairs the player was not told of"] += 1
                    failures.append(f"{case}: moved aside without a notice")
                if outcome["notice"]:
                    notices[normalise(outcome["notice"])] += 1
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
        "loaded_different_game": figures["loaded a different game"],
        "loaded_different_game_silently": figures["loaded a different game, no notice"],
        "prefix_offered": figures["valid prefix offered and taken"],
        "other_files": {f"{target}: {fate}": n for (target, fate), n in sorted(others.items())},
        "other_files_game_lost": figures["other files: game not back from its journal"],
        "boots_without_notice": figures["boots with no notice"],
        "kinds": dict(kinds),
        "fates": {f"{kind}: {fate}": n for (kind, fate), n in sorted(fates.items())},
        "notices": dict(notices.most_common()),
        "distinct_exact_notices": len(exact_notices),
        "exact_notices": sorted(exact_notices),
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
        f"loaded a different game than written, with no notice (target 0): "
        f"{result['loaded_different_game_silently']}",
        f"resumed on the valid part of a damaged journal (offered, accepted): "
        f"{result['prefix_offered']}",
        f"other files: game not back from its journal (target 0): "
        f"{result['other_files_game_lost']}",
        "what became of each kind of damage:",
    ]
    lines += [f"    {what}: {n}" for what, n in result["fates"].items()]
    lines.append("what became of the other files:")
    lines += [f"    {what}: {n}" for what, n in result["other_files"].items()]
    lines.append(
        f"what the player was told ({len(result['notices'])} texts with numbers as N; "
        f"{result['distinct_exact_notices']} distinct exact texts; "
        f"{result['boots_without_notice']} boots with no notice):"
    )
    lines += [f"    {n} x {text}" for text, n in result["notices"].items()]
    lines.append(f"total time: {result['seconds']} s")
    if result["failures"]:
        lines.append("FAILURES:")
        lines += [f"    {failure}" for failure in result["failures"][:60]]
    return "\n".join(lines)


def passed(result: dict) -> bool:
    return not result["failures"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    seed = args.seed
    result = run_harness(args.count, seed)
    print(report(result, seed))
    if args.json:
        print(json.dumps(result))
    return 0 if passed(result) else 1


if __name__ == "__main__":
    sys.exit(main())
