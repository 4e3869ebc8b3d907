"""Where the game in progress stands in the cards, as the session keeps it in memory.

The store keeps it as plain values (`Standing`); this is the same with the engine's
objects: actions, a set-up chosen. Its rows are written only by this program, in
one transaction with the actions they speak of, so reading one back needs no
guard of its own: a row that does not read is a database the store sets aside.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from companion.engine.actions import Action
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.game import Game
from companion.engine.gamelog import action_line, parse_action
from companion.engine.setup import Mode, SetupChoice, Side
from companion.engine.verdicts import levels_beaten
from companion.storage.store import Result, Standing


def result_of(game: Game) -> Result:
    """The result of `game`, which is over, as the store keeps it."""
    outcome = game.outcome()
    assert outcome is not None
    scores = {str(side): score for side, score in outcome.scores.items()}
    margin = None
    if game.setup.mode is Mode.SOLO:
        margin = scores[Side.PLAYER] - scores[Side.AUTOMA]
    return Result(True, scores, str(outcome.winner), margin, levels_beaten(game))


@dataclass(slots=True)
class Entering:
    """A circle being entered by the player: the set-up chosen so far and the patches placed."""

    choice: SetupChoice
    seed: int
    placed: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        choice = self.choice
        data: dict[str, object] = {"mode": choice.mode.value, "seed": self.seed}
        if choice.mode is Mode.SOLO:
            assert choice.difficulty is not None and choice.deck is not None
            data |= {"difficulty": choice.difficulty.name, "deck": choice.deck.value}
        else:
            data["start"] = choice.start
        return data | {"placed": list(self.placed)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entering:
        if data["mode"] == Mode.SOLO.value:
            difficulty = DIFFICULTY_BY_NAME[str(data["difficulty"])]
            choice = SetupChoice(Mode.SOLO, difficulty, Deck(data["deck"]))
        else:
            choice = SetupChoice(Mode.TWO_PLAYER, start=Side(data["start"]))
        return cls(choice, int(data["seed"]), [str(patch) for patch in data["placed"]])


@dataclass(slots=True)
class Progress:
    """Which screen of the game in progress was showing."""

    acknowledged: int = 0
    """Actions whose steps the table has confirmed."""
    asked_bonus: list[str] = field(default_factory=list)
    """The 7×7 questions already asked (the engine's `BonusQuestion.answers` keys)."""
    dealing: int | None = None
    """Place of the first patch shown while dealing the circle."""
    entering: Entering | None = None
    """A circle being entered."""
    undone: list[Action] = field(default_factory=list)
    """The actions the last undo took back, oldest first, while the table has not
    confirmed its reverse steps (they are worked out again from these); with those of
    the undos before it in a row whose reverse steps were still due."""
    undone_unconfirmed: int = 0
    """How many of `undone`, the newest, had steps the table had not confirmed when
    they were taken back: they have no reverse steps (it may not have done them)."""

    def standing(self) -> Standing:
        return Standing(
            self.acknowledged,
            tuple(self.asked_bonus),
            self.dealing,
            self.entering.to_json() if self.entering else None,
            tuple(action_line(action) for action in self.undone),
            self.undone_unconfirmed,
        )

    @classmethod
    def of(cls, standing: Standing) -> Progress:
        return cls(
            standing.acknowledged,
            list(standing.asked_bonus),
            standing.dealing,
            Entering.from_json(standing.entering) if standing.entering else None,
            [
                parse_action(json.loads(line), number)
                for number, line in enumerate(standing.undone, start=1)
            ],
            standing.undone_unconfirmed,
        )
