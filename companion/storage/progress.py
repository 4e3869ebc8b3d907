"""`progress.json`: where the game in progress stands beyond its journal.

The journal holds the game; this small file only remembers which screen of it
was showing (steps not yet confirmed at the table, an undo's reverse steps, the
circle being dealt or entered, the 7×7 question already asked), so that a
restart resumes on it.
Losing it loses no game: a missing file means "the turn screen". Like
`settings.json`, a file that is not exactly what the companion writes never
stops the device: `Progress.load` moves it aside (`progress-damaged-….json`)
with a one-line notice, and the game comes back from its journal, at worst
on the steps of its last action.

Why not fold this into the journal (one append instead of a temporary file
and its fsync per confirming press)? The game log is a format for people and
other programs (docs/game-log.md), archived as the history, and a circle
being entered is progress before any game, hence before any journal. A stale
progress.json costs at most a screen shown again, so `save` syncs the data
(a rename never exposes an empty file) but not the directory.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.engine.actions import Action
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.bonus import is_bonus_answer
from companion.engine.catalogue import PATCH_BY_ID, STARTING_PATCH_ID
from companion.engine.gamelog import LogError, action_record, parse_action
from companion.engine.json_limits import short_repr
from companion.engine.setup import Mode, SetupChoice, Side
from companion.storage.files import atomic_write_text, load_state_json

DAMAGED_STEM = "progress-damaged"
CIRCLE_PLACES = len(PATCH_BY_ID) - 1
"""Places clockwise after P00, which is laid first."""
MAX_ACTIONS = 100_000
MAX_UNDONE = 1_000
"""More actions than undos in a row take back in a real game: every buy, advance and
Automa turn moves a token on the 53-square track; only hundreds of corrections pass it."""
MAX_SEED = 2**64


class ProgressError(ValueError):
    """A progress file that is not what the companion writes; one line naming the key."""


class _Compared:
    """A plain class equal to another of its class with equal `KEYS` attributes, and shown
    by them (a failed comparison in a test names what differs, not an address)."""

    KEYS: tuple[str, ...]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, key) == getattr(other, key) for key in self.KEYS)

    def __repr__(self) -> str:
        state = ", ".join(f"{key}={getattr(self, key)!r}" for key in self.KEYS)
        return f"{type(self).__name__}({state})"


class Entering(_Compared):
    """A circle being entered by the player: the set-up chosen so far and the patches placed.
    Equal to another with the same set-up and patches (a save read back is equal to what was
    saved)."""

    KEYS = ("choice", "seed", "placed")

    def __init__(self, choice: SetupChoice, seed: int, placed: Sequence[str] = ()) -> None:
        self.choice = choice
        self.seed = seed
        self.placed = list(placed)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"mode": self.choice.mode.value}
        if self.choice.mode is Mode.SOLO:
            assert self.choice.difficulty is not None and self.choice.deck is not None
            data |= {"difficulty": self.choice.difficulty.name, "deck": self.choice.deck.value}
        else:
            data["start"] = self.choice.start
        return data | {"seed": self.seed, "placed": list(self.placed)}

    @classmethod
    def from_json(cls, data: Any) -> Entering:
        """What `to_json` wrote; `ProgressError` naming the first key that is not."""
        if not isinstance(data, dict):
            raise ProgressError(f"'entering' must be an object, not {short_repr(data)}")
        expected = {
            Mode.SOLO.value: {"mode", "difficulty", "deck", "seed", "placed"},
            Mode.TWO_PLAYER.value: {"mode", "start", "seed", "placed"},
        }
        mode = data.get("mode")
        if mode not in expected:
            shown = short_repr(mode)
            raise ProgressError(f"'entering.mode' must be solo or two-player, not {shown}")
        if set(data) != expected[mode]:
            raise ProgressError(f"'entering' must have exactly {', '.join(sorted(expected[mode]))}")
        if mode == Mode.SOLO.value:
            difficulty = data["difficulty"]
            if not isinstance(difficulty, str) or difficulty not in DIFFICULTY_BY_NAME:
                raise ProgressError(f"'entering.difficulty' is {short_repr(difficulty)}")
            if data["deck"] not in [deck.value for deck in Deck]:
                raise ProgressError(f"'entering.deck' is {short_repr(data['deck'])}")
            choice = SetupChoice(Mode.SOLO, DIFFICULTY_BY_NAME[difficulty], Deck(data["deck"]))
        else:
            if data["start"] not in (Side.P1, Side.P2):
                raise ProgressError(f"'entering.start' is {short_repr(data['start'])}")
            choice = SetupChoice(Mode.TWO_PLAYER, start=Side(data["start"]))
        _whole(data["seed"], "entering.seed", 0, MAX_SEED)
        placed = data["placed"]
        if (
            not isinstance(placed, list)
            or len(placed) > CIRCLE_PLACES
            or not all(isinstance(patch, str) for patch in placed)
            or not all(patch in PATCH_BY_ID and patch != STARTING_PATCH_ID for patch in placed)
            or len(set(placed)) != len(placed)
        ):
            raise ProgressError("'entering.placed' must list different patches, P00 left out")
        return cls(choice, data["seed"], placed)


class Progress(_Compared):
    """Which screen of the game in progress was showing. Equal to another in every saved
    attribute (a save read back is equal to what was saved)."""

    KEYS = ("acknowledged", "asked_bonus", "dealing", "entering", "undone", "undone_unconfirmed")
    """The attributes, each saved under its name: the keys a progress file may have."""

    def __init__(
        self,
        acknowledged: int = 0,
        asked_bonus: Sequence[str] = (),
        dealing: int | None = None,
        entering: Entering | None = None,
        undone: Sequence[Action] = (),
        undone_unconfirmed: int = 0,
    ) -> None:
        self.acknowledged = acknowledged
        """Actions whose steps the table has confirmed."""
        self.asked_bonus = list(asked_bonus)
        """The 7×7 questions already asked (the engine's `BonusQuestion.answers` keys)."""
        self.dealing = dealing
        """Place of the first patch shown while dealing the circle."""
        self.entering = entering
        """A circle being entered."""
        self.undone = list(undone)
        """The actions the last undo took back, oldest first, while the table has not
        confirmed its reverse steps (they are worked out again from these); with those of
        the undos before it in a row whose reverse steps were still due."""
        self.undone_unconfirmed = undone_unconfirmed
        """How many of `undone`, the newest, had steps the table had not confirmed when
        they were taken back: they have no reverse steps (it may not have done them)."""

    def copy(self) -> Progress:
        """The same progress in lists of its own, to put back if a change cannot be saved."""
        return Progress(*(getattr(self, key) for key in self.KEYS))

    @classmethod
    def load(cls, path: Path) -> tuple[Progress, str | None]:
        """The progress in `path` and None; or a fresh `Progress` and one line saying why.

        A missing file is a fresh start; a file that cannot be used is moved aside.
        """
        progress, message = load_state_json(path, cls.from_json, DAMAGED_STEM, "resuming the game")
        return progress or cls(), message

    @classmethod
    def from_json(cls, data: Any) -> Progress:
        """What `save` wrote; `ProgressError` naming the first key that is not."""
        if not isinstance(data, dict):
            raise ProgressError(f"expected a JSON object, not {short_repr(data)}")
        unknown = [key for key in data if key not in cls.KEYS]
        if unknown:
            raise ProgressError(f"unknown key {short_repr(unknown[0])}")
        acknowledged = data.get("acknowledged", 0)
        _whole(acknowledged, "acknowledged", 0, MAX_ACTIONS)
        asked = data.get("asked_bonus", [])
        if not isinstance(asked, list) or not all(is_bonus_answer(key) for key in asked):
            raise ProgressError(
                f"'asked_bonus' must list the 7×7 questions asked, not {short_repr(asked)}"
            )
        dealing = data.get("dealing")
        if dealing is not None:
            _whole(dealing, "dealing", 0, CIRCLE_PLACES - 1)
        entering = data.get("entering")
        undone = _undone(data.get("undone", []))
        undone_unconfirmed = data.get("undone_unconfirmed", 0)
        _whole(undone_unconfirmed, "undone_unconfirmed", 0, len(undone))
        return cls(
            acknowledged,
            asked,
            dealing,
            Entering.from_json(entering) if entering is not None else None,
            undone,
            undone_unconfirmed,
        )

    def save(self, path: Path, *, durable_name: bool = False) -> None:
        """Written atomically, its data fsynced; its name fsynced too only if `durable_name`
        (a stale progress.json usually costs a screen shown again, not worth a second
        fsync per press; after an undo it would bring back steps the undo took away)."""
        data = {
            "acknowledged": self.acknowledged,
            "asked_bonus": self.asked_bonus,
            "dealing": self.dealing,
            "entering": self.entering.to_json() if self.entering else None,
            "undone": [action_record(action) for action in self.undone],
            "undone_unconfirmed": self.undone_unconfirmed,
        }
        atomic_write_text(path, json.dumps(data), durable_name=durable_name)


def _undone(data: Any) -> list[Action]:
    """The game-log records of `Progress.undone`, read as the journal reads them."""
    if not isinstance(data, list):
        raise ProgressError(f"'undone' must be a list of actions, not {short_repr(data)}")
    if len(data) > MAX_UNDONE:
        raise ProgressError(f"'undone' lists {len(data)} actions; at most {MAX_UNDONE}")
    actions = []
    for number, record in enumerate(data, start=1):
        if not isinstance(record, dict):
            raise ProgressError(f"'undone' action {number} is {short_repr(record)}")
        try:
            actions.append(parse_action(record, number))
        except LogError as error:
            raise ProgressError(f"'undone' action {number}: {error.problem}") from None
    return actions


def _whole(value: Any, key: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProgressError(f"{key!r} must be a whole number {low}–{high}, not {short_repr(value)}")
