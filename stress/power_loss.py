#!/usr/bin/env python3
"""Power-loss harness: every state a power cut could leave on disk, booted and checked.

    .venv/bin/python stress/power_loss.py [--rounds 12] [--inputs 400] [--seed 1]
        [--mutant none|no-fsync|no-dir-fsync] [--json FILE]

A SIGKILL keeps the page cache, so it cannot show what an fsync is for. This
harness does what the ALICE crash explorer does (Pillai et al., OSDI 2014):

1. **Record.** A child process (this file with ``--child``) runs the real
   application (``Companion`` driven through its inputs by the stand-in player
   of ``companion.testing.autoplay``, with undos, twice in a row half the time)
   with the ``os`` calls that change files wrapped: ``open`` with
   ``O_CREAT``/``O_TRUNC``, ``write``, ``ftruncate``, ``fsync``,
   ``replace``/``rename``, ``unlink``, ``mkdir``. Each call on the
   state directory is written to a trace, with the bytes written and the
   file's identity (inode). After each input the child also writes what the
   screen now shows as done: the game's move count and a digest of
   ``Game.state()`` from the game in memory, and the games in ``history/``.
   That is the reference. It never comes from the program's loader.
2. **Check the trace.** Replaying the whole trace on a model of the directory
   must give exactly the files the child left; a write the recorder missed
   would show here, so the crash states below are complete.
3. **Crash.** After every call in the trace, the model builds the states a
   power cut allows: data written to a file survives only once that file is
   fsynced, and a name (create, rename, unlink, mkdir) only once its
   directory is fsynced. Until then either may or may not have reached the
   disk, in any order, and the last write may be torn. Per crash point:
   only the durable state; everything (what a SIGKILL leaves); the unsynced
   name changes without the unsynced data, and the reverse; and a random mix
   with one write cut at a random byte or zeroed.
4. **Boot.** Each distinct state is copied to a scratch directory and a fresh
   ``Companion`` started on it. The game it resumes must be a state the
   screen showed just before the crash point or just after it (an action
   fsynced but not yet shown), or a state between the two (an undo of several
   actions cut short; a game archived, the next not yet started); the
   finished games in ``history/`` likewise. It must
   start without an exception, on a usable screen, with no notice other than
   the torn-line one. An undo's reverse steps are checked too: a boot on the
   game an undo left (not the one before it) must still have them to show, and
   a boot on a game no press changed the same as the screen had.

Then the next round starts the child from one of the crash states (chosen
at random), so start-up repairs are recorded and crashed too. The same seed
gives the same figures (the child is single-threaded and seeded).

``--mutant no-fsync`` runs the child with ``os.fsync`` doing nothing, and
``--mutant no-dir-fsync`` with directory fsyncs skipped: both must fail
(confirmed actions lost), which shows the harness can see a missing fsync.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
from stress.common import hold_the_wall_clock, invocation, machine_line  # noqa: E402

MUTANTS = ("none", "no-fsync", "no-dir-fsync")


def digest(game) -> str | None:
    if game is None:
        return None
    # JSON, not repr: a side is the same as Side.P1 (from the app) or "p1" (from the log).
    text = json.dumps(game.state(), sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def reverse_steps_due(undone) -> str | None:
    """The actions (oldest first) whose reverse steps the table has yet to do, as game-log
    records; None if there are none."""
    from companion.engine.gamelog import action_record

    return json.dumps([action_record(action) for action in undone]) if undone else None


def history_count(state_dir: Path) -> int:
    history = state_dir / "history"
    return len([p for p in history.iterdir() if p.suffix == ".jsonl"]) if history.is_dir() else 0


# --- the child: the real application, its file calls recorded -----------------------------


class Recorder:
    """Wraps the `os` calls that change files and writes each one on `root` to `trace`."""

    def __init__(self, root: Path, trace) -> None:
        self.root = os.path.realpath(root)
        self.trace = trace
        self.fds: dict[int, tuple[str, object]] = {}
        self.generation = 0
        self.keys: dict[int, str] = {}
        self.real = {name: getattr(os, name) for name in self.WRAPPED}
        # Files already there are known by the name they have now, as in `Model.of_directory`.
        for path in Path(root).rglob("*"):
            if path.is_file() and not path.is_symlink():
                self.keys[path.stat().st_ino] = f"path:{path.relative_to(root)}"

    WRAPPED = (
        "open",
        "write",
        "ftruncate",
        "fsync",
        "close",
        "replace",
        "rename",
        "unlink",
        "mkdir",
    )

    def relative(self, path) -> str | None:
        if isinstance(path, int):
            return None
        full = os.path.abspath(os.fspath(path))
        parent = os.path.realpath(os.path.dirname(full))
        full = os.path.join(parent, os.path.basename(full))
        if full == self.root:
            return "."
        if not full.startswith(self.root + os.sep):
            return None
        return os.path.relpath(full, self.root)

    def emit(self, **record) -> None:
        self.trace.write(json.dumps(record) + "\n")

    def install(self) -> None:
        real = self.real

        def open_(path, flags, mode=0o777, *, dir_fd=None):
            relative = self.relative(path)
            existed = relative is not None and os.path.lexists(path)
            fd = real["open"](path, flags, mode, dir_fd=dir_fd)
            if relative is None:
                return fd
            if os.path.isdir(path) and not os.path.islink(path):
                self.fds[fd] = ("dir", relative)
                return fd
            if not existed:
                self.generation += 1
                self.keys[os.fstat(fd).st_ino] = f"i{self.generation}"
                self.emit(op="create", path=relative, key=self.keys[os.fstat(fd).st_ino])
            key = self.keys.get(os.fstat(fd).st_ino)
            if key is None:  # a file that was there before the recording began
                key = f"path:{relative}"
                self.keys[os.fstat(fd).st_ino] = key
            self.fds[fd] = ("file", key)
            if flags & os.O_TRUNC:
                self.emit(op="truncate", key=key, size=0)
            return fd

        def write(fd, data):
            entry = self.fds.get(fd)
            offset = os.lseek(fd, 0, os.SEEK_CUR) if entry else 0
            written = real["write"](fd, data)
            if entry:
                payload = base64.b64encode(bytes(data[:written])).decode()
                self.emit(op="write", key=entry[1], offset=offset, data=payload)
            return written

        def ftruncate(fd, length):
            real["ftruncate"](fd, length)
            if fd in self.fds:
                self.emit(op="truncate", key=self.fds[fd][1], size=length)

        def fsync(fd):
            real["fsync"](fd)
            if fd in self.fds:
                kind, what = self.fds[fd]
                self.emit(op="fsync" if kind == "file" else "fsyncdir", target=what)

        def close(fd):
            self.fds.pop(fd, None)
            real["close"](fd)

        def replace(source, target, **kwargs):
            real["replace"](source, target, **kwargs)
            self._renamed(source, target)

        def rename(source, target, **kwargs):
            real["rename"](source, target, **kwargs)
            self._renamed(source, target)

        def unlink(path, **kwargs):
            real["unlink"](path, **kwargs)
            if (relative := self.relative(path)) is not None:
                self.emit(op="unlink", path=relative)

        def mkdir(path, mode=0o777, **kwargs):
            real["mkdir"](path, mode, **kwargs)
            if (relative := self.relative(path)) is not None:
                self.emit(op="mkdir", path=relative)

        for name, wrapper in {
            "open": open_, "write": write, "ftruncate": ftruncate, "fsync": fsync,
            "close": close, "replace": replace, "rename": rename, "unlink": unlink,
            "mkdir": mkdir,
        }.items():  # fmt: skip
            setattr(os, name, wrapper)

    def _renamed(self, source, target) -> None:
        old, new = self.relative(source), self.relative(target)
        if old is not None and new is not None:
            self.emit(op="rename", source=old, target=new)


def child_main(args: argparse.Namespace) -> int:
    state_dir = Path(args.state_dir)
    trace = open(args.trace, "w", buffering=1 << 16)  # noqa: SIM115 (closed at exit)
    recorder = Recorder(state_dir, trace)
    recorder.install()
    if args.mutant == "no-fsync":
        os.fsync = lambda fd: None  # the mutant: nothing is ever synced
    import logging

    from companion.app.companion import Companion
    from companion.inputs.events import Input
    from companion.storage import files
    from companion.testing.autoplay import inputs_for, move_to, random_choice
    from companion.views import MenuView, QuestionView, ScreenKind, StepView, TurnView

    hold_the_wall_clock()
    if args.mutant == "no-dir-fsync":
        files.fsync_directory = lambda directory: None
        for module in list(sys.modules.values()):
            if getattr(module, "fsync_directory", None) is not None and module is not files:
                module.fsync_directory = files.fsync_directory

    logging.basicConfig(filename=args.log, level=logging.INFO)
    rng = random.Random(f"{args.seed}-{args.round}")
    seeds = random.Random(f"games-{args.seed}-{args.round}")
    app = Companion(state_dir, lambda: seeds.randrange(2**31))
    choose = random_choice(rng)
    undo_again = second_undo = False
    """`undo_again`: set when an undo is confirmed, half the time: the next press opens the
    game menu (from the undo's reverse steps, or the turn) and undoes again, so undos in a
    row, joined while the first's steps are due, are recorded and crashed too.
    `second_undo`: that undo was chosen, until it is confirmed."""
    undos_in_a_row = 0

    def frame() -> None:
        game = app.game
        n = len(game.move_stack) if game else None
        progress = app.session.progress
        due = progress.undone[: len(progress.undone) - progress.undone_unconfirmed]
        recorder.emit(
            op="frame",
            n=n,
            d=digest(game),
            f=history_count(state_dir),
            u=reverse_steps_due(due),
            r=undos_in_a_row,
        )

    def decide() -> list:
        nonlocal undo_again, second_undo, undos_in_a_row
        view = app.view()
        if undo_again and isinstance(view, TurnView | StepView):
            return [Input.HOLD]  # the game menu, for the second undo
        if isinstance(view, MenuView):
            labels = [item.label for item in view.items]
            if view.kind is ScreenKind.HOME:
                wanted = "Resume game" if "Resume game" in labels and rng.random() < 0.9 else None
                wanted = wanted or rng.choice(["New solo game", "New two-player game"])
                target = labels.index(wanted)
            elif view.kind is ScreenKind.GAME_MENU:
                undo = "Undo last action" in labels and (undo_again or rng.random() < 0.3)
                second_undo, undo_again = undo and undo_again, False
                target = labels.index("Undo last action" if undo else "Back to the game")
            else:  # difficulty, deck, start player, circle: anything but Back
                target = rng.randrange(len([label for label in labels if label != "Back"]))
            return [*move_to(view.selected, target, len(labels)), Input.SELECT]
        if isinstance(view, QuestionView) and view.kind in (
            ScreenKind.ABANDON_GAME,
            ScreenKind.CONFIRM_UNDO,
        ):
            if view.kind is ScreenKind.CONFIRM_UNDO:
                undos_in_a_row += second_undo
                second_undo = False
                undo_again = rng.random() < 0.5
            return [Input.NEXT, Input.SELECT]  # yes, abandon / yes, undo
        if isinstance(view, TurnView) and rng.random() < 0.05:
            return [Input.HOLD]  # the game menu
        return inputs_for(view, choose, rng)

    frame()
    pressed = 0
    while pressed < args.inputs:
        for item in decide():
            app.handle(item)
            pressed += 1
            frame()
    trace.close()
    return 0


# --- the model: a directory as a power cut leaves it ---------------------------------------


@dataclass
class Model:
    """Files by name (-> content key) and contents by key, as written or as durable."""

    names: dict[str, str] = field(default_factory=dict)
    dirs: set[str] = field(default_factory=set)
    contents: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def of_directory(cls, root: Path) -> Model:
        model = cls()
        for path in sorted(root.rglob("*")):
            relative = str(path.relative_to(root))
            if path.is_dir():
                model.dirs.add(relative)
            else:
                model.names[relative] = f"path:{relative}"
                model.contents[f"path:{relative}"] = path.read_bytes()
        return model

    def copy(self) -> Model:
        return Model(dict(self.names), set(self.dirs), dict(self.contents))

    def apply(self, op: dict, torn: tuple[str, int] | None = None) -> None:
        kind = op["op"]
        if kind == "create":
            self.names[op["path"]] = op["key"]
            self.contents.setdefault(op["key"], b"")
        elif kind == "write":
            data = base64.b64decode(op["data"])
            if torn is not None:
                how, cut = torn
                data = data[:cut] if how == "cut" else bytes(len(data))
            old = self.contents.get(op["key"], b"")
            offset = op["offset"]
            padded = old + bytes(max(0, offset - len(old)))
            self.contents[op["key"]] = padded[:offset] + data + padded[offset + len(data) :]
        elif kind == "truncate":
            old = self.contents.get(op["key"], b"")
            size = op["size"]
            self.contents[op["key"]] = old[:size] + bytes(max(0, size - len(old)))
        elif kind == "rename":
            if op["source"] in self.names:
                self.names[op["target"]] = self.names.pop(op["source"])
        elif kind == "unlink":
            self.names.pop(op["path"], None)
        elif kind == "mkdir":
            self.dirs.add(op["path"])

    def files(self) -> dict[str, bytes]:
        return {name: self.contents.get(key, b"") for name, key in self.names.items()}

    def fingerprint(self) -> str:
        h = hashlib.sha256()
        for name, data in sorted(self.files().items()):
            h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        for directory in sorted(self.dirs):
            h.update(b"d" + directory.encode())
        return h.hexdigest()

    def materialize(self, root: Path) -> None:
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        for directory in sorted(self.dirs):
            (root / directory).mkdir(parents=True, exist_ok=True)
        for name, data in self.files().items():
            path = root / name
            if path.parent.is_dir():  # a file whose directory's creation was lost is lost too
                path.write_bytes(data)


def directory_of(path: str) -> str:
    return os.path.dirname(path) or "."


def name_dirs(op: dict) -> tuple[str, ...]:
    if op["op"] == "rename":
        return (directory_of(op["source"]), directory_of(op["target"]))
    return (directory_of(op["path"]),)


def is_name_op(op: dict) -> bool:
    return op["op"] in ("create", "rename", "unlink", "mkdir")


class CrashExplorer:
    """Walks a trace, keeping the durable model and the operations not yet durable."""

    def __init__(self, start: Model) -> None:
        self.durable = start.copy()
        self.volatile = start.copy()
        self.pending: list[dict] = []

    def step(self, op: dict) -> None:
        kind = op["op"]
        self.volatile.apply(op)
        if kind in ("fsync", "fsyncdir"):
            self._persist(op)
        elif kind != "frame":
            self.pending.append(op)

    def _persist(self, sync: dict) -> None:
        target = sync["target"]
        kept = []
        for op in self.pending:
            if sync["op"] == "fsync":
                synced = not is_name_op(op) and op["key"] == target
            else:
                synced = is_name_op(op) and target in name_dirs(op)
            if synced:
                self.durable.apply(op)
            else:
                kept.append(op)
        self.pending = kept

    def crash_states(self, rng: random.Random) -> list[tuple[str, Model]]:
        states = [("durable only", self.durable.copy()), ("everything", self.volatile.copy())]
        if not self.pending:
            return states
        for label, wanted in (
            ("names only", is_name_op),
            ("data only", lambda o: not is_name_op(o)),
        ):
            model = self.durable.copy()
            for op in self.pending:
                if wanted(op):
                    model.apply(op)
            states.append((label, model))
        writes = [i for i, op in enumerate(self.pending) if op["op"] == "write"]
        torn_at = rng.choice(writes) if writes else None
        model = self.durable.copy()
        for i, op in enumerate(self.pending):
            if i == torn_at:
                size = len(base64.b64decode(op["data"]))
                how = rng.choice(["cut", "zeroed"])
                model.apply(op, (how, rng.randrange(size + 1)))
            elif rng.random() < 0.5:
                model.apply(op)
        states.append(("random mix, one write torn", model))
        return states


# --- booting a crash state -----------------------------------------------------------------


@dataclass(frozen=True)
class Boot:
    n: int | None
    d: str | None
    f: int
    notices: tuple[str, ...]
    usable: bool
    error: str | None = None
    u: str | None = None
    """The reverse steps the boot has to show (`reverse_steps_due`)."""


def boot(model: Model, scratch: Path) -> Boot:
    from companion.app.companion import Companion
    from companion.render.screens import render
    from companion.views import MenuView, ScreenKind, TextView

    model.materialize(scratch)
    finished = history_count(scratch)
    notices: list[str] = []
    try:
        app = Companion(scratch)
        view = app.view()
        render(view)
        while isinstance(view, TextView) and view.kind is ScreenKind.NOTICE:
            notices.append(" ".join(view.lines))
            from companion.inputs.events import Input

            app.handle(Input.SELECT)
            view = app.view()
            render(view)
    except Exception as error:  # the worst failure: a boot that raises
        return Boot(None, None, finished, tuple(notices), False, repr(error)[:200])
    game = app.game
    usable = not (isinstance(view, MenuView) and not view.items)
    n = len(game.move_stack) if game else None
    plan = app.session.unconfirmed_undo() if game else None
    due = reverse_steps_due([step.action for step in reversed(plan.undone)] if plan else [])
    return Boot(n, digest(game), finished, tuple(notices), usable, u=due)


# --- the parent ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Shown:
    n: int | None
    d: str | None
    f: int
    u: str | None = None


def reverse_steps_expected(before: Shown, after: Shown, found: Boot) -> str | bool | None:
    """The reverse steps a boot that found `found`'s game must show at a crash between
    two frames; False where either answer will do (or the game is neither frame's)."""
    game = (found.d, found.f)
    if game == (after.d, after.f) != (before.d, before.f):
        return after.u  # the press changed the game (an undo): its reverse steps with it
    if game == (before.d, before.f) == (after.d, after.f) and before.u == after.u:
        return before.u  # a press that changed neither
    return False


def allowed(before: Shown, after: Shown, seen: dict[str | None, int | None]) -> set:
    """The (digest, history count) pairs a boot may find at a crash between two frames."""
    ok = {(before.d, before.f), (after.d, after.f)}
    if after.f == before.f + 1:
        # A game went to the history and the next one is not journalled yet (abandoned
        # for a new game, or finished): no game, the archived one counted.
        ok.add((None, after.f))
    if before.n is not None and after.n is not None and after.n < before.n:
        # An undo of several actions, cut short: any state shown before in between.
        ok |= {
            (d, f)
            for d, n in seen.items()
            if n is not None and after.n < n < before.n
            for f in (before.f, after.f)
        }
    return ok


def run_child(state_dir: Path, trace: Path, log: Path, args, round_number: int) -> None:
    command = [
        sys.executable, __file__, "--child", "--state-dir", str(state_dir),
        "--trace", str(trace), "--log", str(log), "--seed", str(args.seed),
        "--round", str(round_number), "--inputs", str(args.inputs), "--mutant", args.mutant,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"the child failed: {done.stderr.strip().splitlines()[-1:]}")


def run_harness(args) -> dict:
    import logging

    from companion.storage.journal import TORN_NOTICE

    rng = random.Random(args.seed)
    started = time.monotonic()
    figures: Counter[str] = Counter()
    state_kinds: Counter[str] = Counter()
    notices: Counter[str] = Counter()
    failures: list[str] = []
    root = Path(tempfile.mkdtemp(prefix="stress-power-loss-"))
    state_dir, scratch = root / "state", root / "scratch"
    state_dir.mkdir()
    logging.basicConfig(filename=root / "parent.log", level=logging.INFO, force=True)
    reference: set = {(None, 0)}
    last_shown = Shown(None, None, 0)
    seen: dict[str | None, int | None] = {}
    booted: dict[str, Boot] = {}
    try:
        for round_number in range(args.rounds):
            if time.monotonic() - started > args.time_limit:
                failures.append(f"time limit reached after {round_number} rounds")
                break
            start = Model.of_directory(state_dir)
            trace = root / "trace.jsonl"
            run_child(state_dir, trace, root / "child.log", args, round_number)
            ops = [json.loads(line) for line in trace.read_text().splitlines()]
            figures["file operations recorded"] += sum(op["op"] != "frame" for op in ops)
            figures["fsyncs recorded"] += sum(op["op"] in ("fsync", "fsyncdir") for op in ops)
            figures["undos confirmed right after an undo"] += max(
                (op["r"] for op in ops if op["op"] == "frame"), default=0
            )
            explorer = CrashExplorer(start)
            frames = [i for i, op in enumerate(ops) if op["op"] == "frame"]
            first = ops[frames[0]] if frames else None
            if first is None or (first["d"], first["f"]) not in reference:
                figures["boots resumed on a state never shown"] += 1
                failures.append(f"round {round_number}: the child resumed on {first}")
            before_ref = reference  # states allowed until the child's first frame
            before = last_shown
            chosen: tuple[Model, set, Shown] | None = None
            candidates = []
            next_frame = 0
            for i, op in enumerate(ops):
                explorer.step(op)
                if op["op"] == "frame":
                    before = Shown(op["n"], op["d"], op["f"], op["u"])
                    seen.setdefault(op["d"], op["n"])
                    before_ref = {(before.d, before.f)}
                    next_frame += 1
                    continue
                following = ops[frames[next_frame]] if next_frame < len(frames) else None
                after = (
                    Shown(following["n"], following["d"], following["f"], following["u"])
                    if following
                    else before
                )
                ok = before_ref | allowed(before, after, seen)
                figures["crash points"] += 1
                for label, model in explorer.crash_states(rng):
                    state_kinds[label] += 1
                    key = model.fingerprint()
                    if key not in booted:
                        booted[key] = boot(model, scratch)
                        figures["distinct crash states booted"] += 1
                    result = booted[key]
                    figures["crash states checked"] += 1
                    if result.error:
                        figures["boots that raised"] += 1
                        failures.append(f"round {round_number} op {i} ({label}): {result.error}")
                    elif not result.usable:
                        figures["boots without a usable screen"] += 1
                    for notice in result.notices:
                        notices[re.sub(r"\d[\d -]*\d", "N", notice)] += 1
                        if notice != TORN_NOTICE:
                            figures["boots with a notice other than the torn line"] += 1
                    if (result.d, result.f) not in ok:
                        figures["confirmed state lost or changed"] += 1
                        if len(failures) < 30:
                            failures.append(
                                f"round {round_number} op {i} {op['op']} ({label}): shown "
                                f"n={before.n} f={before.f}, next n={after.n} f={after.f}; "
                                f"boot found n={result.n} f={result.f}"
                            )
                    expected = reverse_steps_expected(before, after, result)
                    if next_frame and expected is not False and result.u != expected:
                        figures["undo reverse steps lost or changed"] += 1
                        if len(failures) < 30:
                            failures.append(
                                f"round {round_number} op {i} {op['op']} ({label}): the undo's "
                                f"reverse steps were {expected}, the boot has {result.u}"
                            )
                    candidates.append((model, ok))
            final = Model.of_directory(state_dir)
            if explorer.volatile.files() != final.files():
                figures["traces that missed a write"] += 1
                failures.append(f"round {round_number}: the trace does not rebuild the directory")
            last_shown = before
            if candidates:
                model, ok = rng.choice(candidates)
                model.materialize(state_dir)
                reference = ok
                chosen = (model, ok, before)
            else:
                reference = {(before.d, before.f)}
            del chosen
        figures["games finished, in history at the end"] = history_count(state_dir)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return {
        "rounds": args.rounds,
        "inputs_per_round": args.inputs,
        "mutant": args.mutant,
        "figures": dict(figures),
        "crash_states_by_kind": dict(sorted(state_kinds.items())),
        "notices": dict(notices),
        "failures": failures,
        "seconds": round(time.monotonic() - started, 1),
    }


TARGETS = (
    "confirmed state lost or changed",
    "undo reverse steps lost or changed",
    "boots that raised",
    "boots without a usable screen",
    "boots with a notice other than the torn line",
    "boots resumed on a state never shown",
    "traces that missed a write",
)


def passed(result: dict) -> bool:
    return not result["failures"] and not any(result["figures"].get(t, 0) for t in TARGETS)


def report(result: dict, seed: int) -> str:
    figures = result["figures"]
    lines = [
        "power_loss: every crash state of a recorded run (ALICE-style), booted and checked",
        f"command: {invocation()}",
        f"machine: {machine_line()}",
        f"seed: {seed}",
        f"mutant: {result['mutant']}",
        f"rounds: {result['rounds']} of {result['inputs_per_round']} inputs",
    ]
    for name in (
        "file operations recorded",
        "fsyncs recorded",
        "crash points",
        "crash states checked",
        "distinct crash states booted",
        "undos confirmed right after an undo",
        "games finished, in history at the end",
    ):
        lines.append(f"{name}: {figures.get(name, 0)}")
    kinds = ", ".join(f"{k} {v}" for k, v in result["crash_states_by_kind"].items())
    lines.append(f"crash states by kind: {kinds}")
    for name in TARGETS:
        lines.append(f"{name} (target 0): {figures.get(name, 0)}")
    lines.append("notices shown at boot:")
    lines += [f"    {count} x {text}" for text, count in result["notices"].items()] or ["    none"]
    lines.append(f"total time: {result['seconds']} s")
    if result["failures"]:
        lines.append("FAILURES (first 30):")
        lines += [f"    {failure}" for failure in result["failures"][:30]]
    lines.append(f"result: {'all targets met' if passed(result) else 'TARGET MISSED'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--inputs", type=int, default=400, help="inputs per round")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mutant", choices=MUTANTS, default="none")
    parser.add_argument("--time-limit", type=float, default=1800.0, help="seconds")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--state-dir", help=argparse.SUPPRESS)
    parser.add_argument("--trace", help=argparse.SUPPRESS)
    parser.add_argument("--round", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--log", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child_main(args)
    result = run_harness(args)
    print(report(result, args.seed))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0 if passed(result) else 1


if __name__ == "__main__":
    sys.exit(main())
