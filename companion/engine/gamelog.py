"""The game log: JSON Lines, a header then one action per line (docs/game-log.md).

Every random outcome is in the log (the circle, the deck order, each
reshuffle), so replaying never depends on the random generator; what a
hand-written log leaves out is drawn from its `seed`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from companion.engine.actions import (
    ADVANCE,
    Action,
    Adjust,
    Advance,
    AutomaTurn,
    Buy,
    ClaimBonus,
)
from companion.engine.automa import Deck
from companion.engine.errors import RulesError
from companion.engine.game import Game
from companion.engine.setup import Mode, Setup, solo_setup, two_player_setup

LOG_FORMAT = "patchwork-companion-log"
LOG_VERSION = 1


class LogError(ValueError):
    """A log line that cannot be read or replayed; names the line (1 = header)."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


# --- writing --------------------------------------------------------------------


def header_line(setup: Setup) -> str:
    header: dict[str, Any] = {"format": LOG_FORMAT, "version": LOG_VERSION, "mode": setup.mode}
    if setup.mode is Mode.SOLO:
        header |= {"difficulty": setup.difficulty, "deck": setup.deck}
    else:
        header["start"] = setup.start
    header |= {"seed": setup.seed, "circle": list(setup.circle)}
    if setup.deck_order is not None:
        header["deck_order"] = list(setup.deck_order)
    return json.dumps(header)


def action_line(action: Action) -> str:
    return json.dumps(action_record(action))


def action_record(action: Action) -> dict[str, Any]:
    match action:
        case Advance():
            return {"action": "advance"}
        case Buy(index):
            return {"action": "buy", "index": index}
        case AutomaTurn(None):
            return {"action": "automa"}
        case AutomaTurn(tuple(reshuffle)):
            return {"action": "automa", "reshuffle": list(reshuffle)}
        case ClaimBonus(side):
            return {"action": "claim_bonus", "side": side}
        case Adjust(side, delta):
            return {"action": "adjust", "side": side, "delta": delta}
    raise TypeError(f"not an action: {action!r}")


def log_lines(game: Game) -> list[str]:
    """The whole log of `game`, one string per line, without newlines."""
    return [header_line(game.setup), *(action_line(action) for action in game.move_stack)]


# --- reading --------------------------------------------------------------------


def read_log(lines: Iterable[str | bytes]) -> Game:
    """Replay a log into a game. Raises `LogError` naming the first bad line."""
    game: Game | None = None
    for number, raw in enumerate(lines, start=1):
        record = _decode(raw, number)
        if record is None:
            continue
        if game is None:
            game = Game(parse_header(record, number))
            continue
        action = parse_action(record, number)
        try:
            game.push(action)
        except RulesError as error:
            raise LogError(number, f"illegal {record['action']}: {error}") from None
    if game is None:
        raise LogError(1, "the log is empty: it needs at least its header line")
    return game


def _decode(raw: str | bytes, number: int) -> dict[str, Any] | None:
    """The JSON object on one line, or None for a blank line."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise LogError(number, "not UTF-8 text") from None
    if not raw.strip():
        return None
    try:
        record = json.loads(raw)
    except json.JSONDecodeError as error:
        raise LogError(number, f"not valid JSON ({error.msg})") from None
    if not isinstance(record, dict):
        raise LogError(number, "expected a JSON object")
    return record


def parse_header(header: dict[str, Any], number: int = 1) -> Setup:
    fields = _Fields(header, number)
    if header.get("format") != LOG_FORMAT:
        raise LogError(number, f"not a game log: the header's format is not {LOG_FORMAT!r}")
    version = fields.integer("version")
    if version != LOG_VERSION:
        raise LogError(
            number, f"log version {version} is not supported (this companion reads {LOG_VERSION})"
        )
    mode = fields.choice("mode", [mode.value for mode in Mode])
    seed = fields.integer("seed", required=False)
    circle = fields.list_of("circle", str)
    try:
        if mode == Mode.SOLO:
            return solo_setup(
                fields.string("difficulty"),
                fields.choice("deck", [deck.value for deck in Deck]),
                _seed_for(seed, number, circle, deck_order := fields.list_of("deck_order", int)),
                circle=circle,
                deck_order=deck_order,
            )
        return two_player_setup(fields.string("start"), _seed_for(seed, number, circle), circle)
    except RulesError as error:
        raise LogError(number, str(error)) from None


def _seed_for(seed: int | None, number: int, *given: tuple | None) -> int | None:
    """The header's seed, which must be there if anything is to be dealt from it."""
    if seed is None and any(value is None for value in given):
        raise LogError(number, "the header needs a seed to deal what it leaves out")
    return seed


def parse_action(record: dict[str, Any], number: int) -> Action:
    fields = _Fields(record, number)
    name = fields.choice("action", ["advance", "buy", "automa", "claim_bonus", "adjust"])
    if name == "advance":
        return ADVANCE
    if name == "buy":
        return Buy(fields.integer("index"))
    if name == "automa":
        return AutomaTurn(fields.list_of("reshuffle", int))
    if name == "claim_bonus":
        return ClaimBonus(fields.string("side"))
    return Adjust(fields.string("side"), fields.integer("delta"))


class _Fields:
    """Typed access to one line's keys, with errors that name the line and key."""

    def __init__(self, record: dict[str, Any], number: int) -> None:
        self.record, self.number = record, number

    def _get(self, key: str, required: bool) -> Any:
        if self.record.get(key) is None and required:
            raise LogError(self.number, f"missing {key!r}")
        return self.record.get(key)

    def integer(self, key: str, required: bool = True) -> Any:
        value = self._get(key, required)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise LogError(self.number, f"{key!r} must be a whole number, not {value!r}")
        return value

    def string(self, key: str) -> str:
        value = self._get(key, True)
        if not isinstance(value, str):
            raise LogError(self.number, f"{key!r} must be a string, not {value!r}")
        return value

    def choice(self, key: str, allowed: list[str]) -> str:
        value = self.string(key)
        if value not in allowed:
            raise LogError(
                self.number, f"{key!r} is {value!r}; expected one of {', '.join(allowed)}"
            )
        return value

    def list_of(self, key: str, item_type: type) -> tuple | None:
        value = self._get(key, False)
        if value is None:
            return None
        if not isinstance(value, list) or not all(
            isinstance(item, item_type) and not isinstance(item, bool) for item in value
        ):
            raise LogError(self.number, f"{key!r} must be a list of {item_type.__name__} values")
        return tuple(value)
