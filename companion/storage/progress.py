"""`progress.json`: where the game in progress stands beyond its journal.

The journal holds the game; this small file only remembers which screen of it
was showing (steps not yet confirmed at the table, the circle being dealt or
entered, the 7×7 question already asked), so that a restart resumes on it.
Losing it loses no game: a missing or unreadable file means "the turn screen".
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.engine.automa import Deck
from companion.engine.setup import Mode, SetupChoice
from companion.storage.files import atomic_write_text, read_json_file

PROGRESS_NAME = "progress.json"


@dataclass
class Entering:
    """A circle being entered by the player: the set-up chosen so far and the patches placed."""

    choice: SetupChoice
    seed: int
    placed: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"mode": self.choice.mode.value}
        if self.choice.mode is Mode.SOLO:
            assert self.choice.deck is not None
            data |= {"difficulty": self.choice.difficulty, "deck": self.choice.deck.value}
        else:
            data["start"] = self.choice.start
        return data | {"seed": self.seed, "placed": list(self.placed)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entering:
        """Raises KeyError, TypeError or ValueError on anything but what `to_json` wrote."""
        mode = Mode(data["mode"])
        if mode is Mode.SOLO:
            choice = SetupChoice(mode, difficulty=data["difficulty"], deck=Deck(data["deck"]))
        else:
            choice = SetupChoice(mode, start=data["start"])
        return cls(choice, data["seed"], list(data["placed"]))


@dataclass
class Progress:
    """Which screen of the game in progress was showing."""

    acknowledged: int = 0
    """Actions whose steps the table has confirmed."""
    asked_bonus: list[str] = field(default_factory=list)
    """The 7×7 questions already asked (the engine's `BonusQuestion.answers` keys)."""
    dealing: int | None = None
    """Place of the patch being shown while dealing the circle."""
    entering: Entering | None = None
    """A circle being entered."""

    @classmethod
    def load(cls, path: Path) -> Progress:
        try:
            data = read_json_file(path)
            if not isinstance(data, dict):
                return cls()
            entering = data.get("entering")
            if entering is not None:
                data = data | {"entering": Entering.from_json(entering)}
            return cls(**data)
        except (OSError, ValueError, TypeError, KeyError):
            # Progress is only about which screen to show; the journal holds the game.
            return cls()

    def save(self, path: Path) -> None:
        data = {
            "acknowledged": self.acknowledged,
            "asked_bonus": self.asked_bonus,
            "dealing": self.dealing,
            "entering": self.entering.to_json() if self.entering else None,
        }
        atomic_write_text(path, json.dumps(data))
