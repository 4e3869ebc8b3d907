"""The game log: JSON Lines, a header then one action per line (docs/game-log.md).

Every random outcome is in the log (the circle, the deck order, each
reshuffle), so replaying never depends on the random generator; what a
hand-written log leaves out is drawn from its `seed`.

Logs kept by builds before the SQLite store (`journal.jsonl`) end each
line with a chained checksum (`"crc"`, the CRC-32 of the line without it,
started from the previous line's): such a log is checked as it is read, so
that a changed byte, or a line from another game, is found where it is. A
log whose header has no `"crc"` (the store's exports, hand-written ones) is
read without checking.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck, DifficultyLevel
from companion.engine.deal import deal_of
from companion.engine.errors import RulesError
from companion.engine.game import Game
from companion.engine.json_limits import loads, short_repr
from companion.engine.setup import Mode, Setup, Side, solo_setup, start_side, two_player_setup

LOG_FORMAT = "patchwork-companion-log"
LOG_VERSION = 1
CHECKSUM_KEY = "crc"
_CHECKSUM_TAIL = re.compile(rf', "{CHECKSUM_KEY}": "(?P<crc>[0-9a-f]{{8}})"\}}\s*$')


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
        assert setup.difficulty is not None
        header |= {"difficulty": setup.difficulty.name, "deck": setup.deck}
    else:
        header["start"] = setup.start
    header |= {"seed": setup.seed, "circle": list(setup.circle)}
    if setup.deck_order is not None:
        header["deck_order"] = list(setup.deck_order)
    if deal := deal_of(setup):
        header["deal"] = deal.code
    return json.dumps(header)


ABANDONED_LINE = json.dumps({"end": "abandoned"})
"""The last line of the log of a game set aside unfinished (the store's `games.finished`
false): a log otherwise reads the same as the game's while it was in progress."""


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
    return read_whole_log(lines).game


@dataclass(frozen=True, slots=True)
class WholeLog:
    """A log replayed to its end."""

    game: Game
    abandoned: bool
    """The log ends with `ABANDONED_LINE`: the game was set aside unfinished."""


def read_whole_log(lines: Iterable[str | bytes]) -> WholeLog:
    """Replay a log into a game and how it ended. Raises `LogError` naming the first bad
    line."""
    replayed = replay_log(lines)
    if replayed.error is not None:
        raise replayed.error
    assert replayed.game is not None
    return WholeLog(replayed.game, replayed.abandoned)


@dataclass(frozen=True, slots=True)
class PartialLog:
    """A log replayed as far as it could be."""

    game: Game | None
    """The game up to the line before the first bad one; None if the header is bad."""
    error: LogError | None
    """The first bad line, or None if the whole log replayed."""
    abandoned: bool = False
    """The log ends with `ABANDONED_LINE` (read up to it)."""


def replay_log(lines: Iterable[str | bytes]) -> PartialLog:
    """Replay a log up to its first bad line."""
    game: Game | None = None
    checksum: int | None = None
    checked = False
    abandoned_at: int | None = None
    try:
        for number, raw in enumerate(lines, start=1):
            text = _text(raw, number)
            if not text.strip():
                continue
            if abandoned_at is not None:
                raise LogError(number, f"the game was abandoned at line {abandoned_at}")
            record = _decode(text, number)
            if game is None or checked:
                checksum = _verify(text, checksum, number, required=checked)
            if game is None:
                game = Game(parse_header(record, number))
                checked = checksum is not None
                continue
            if "end" in record:
                if "action" in record:  # either reading would drop the other
                    raise LogError(number, "an action or the game's end, not both")
                _Fields(record, number).choice("end", ["abandoned"])
                abandoned_at = number
                continue
            action = parse_action(record, number)
            try:
                game.push(action)
            except RulesError as error:
                raise LogError(number, f"illegal {record['action']}: {error}") from None
    except LogError as error:
        return PartialLog(game, error)
    if game is None:
        return PartialLog(None, LogError(1, "the log is empty: it needs at least its header line"))
    return PartialLog(game, None, abandoned=abandoned_at is not None)


def _text(raw: str | bytes, number: int) -> str:
    if isinstance(raw, bytes):
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise LogError(number, "not UTF-8 text") from None
    return raw


def _verify(text: str, previous: int | None, number: int, required: bool) -> int | None:
    """The line's checksum after checking it against the chain; None if it has none (allowed
    only when not `required`)."""
    match = _CHECKSUM_TAIL.search(text)
    if match is None:
        if required:
            raise LogError(number, "no checksum, though the header has one")
        return None
    body = text[: match.start()] + "}"
    expected = zlib.crc32(body.encode("utf-8"), previous or 0)
    if int(match["crc"], 16) != expected:
        raise LogError(
            number, "checksum does not match: the line was changed or is from another game"
        )
    return expected


def _decode(text: str, number: int) -> dict[str, Any]:
    """The JSON object on one (non-blank) line."""
    try:
        record = loads(text)
    except json.JSONDecodeError as error:
        raise LogError(number, f"not valid JSON ({error.msg})") from None
    except ValueError as error:  # beyond untrusted's limits
        raise LogError(number, f"not usable JSON ({error})") from None
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
            setup = solo_setup(
                fields.difficulty("difficulty"),
                Deck(fields.choice("deck", list(Deck))),
                _seed_for(seed, number, circle, deck_order := fields.list_of("deck_order", int)),
                circle=circle,
                deck_order=deck_order,
            )
            _check_deal(fields.string("deal", required=False), setup, number)
            return setup
        start = start_side(fields.string("start"))
        return two_player_setup(start, _seed_for(seed, number, circle), circle)
    except RulesError as error:
        raise LogError(number, str(error)) from None


def _check_deal(code: str | None, setup: Setup, number: int) -> None:
    """A header's deal code, if it has one, must be the one its game was dealt by."""
    if code is None:
        return
    deal = deal_of(setup)
    if deal is None or deal.code != code:
        raise LogError(
            number, f"the deal code {short_repr(code)} is not the one this game was dealt by"
        )


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
        return ClaimBonus(fields.side("side"))
    return Adjust(fields.side("side"), fields.integer("delta"))


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
            raise LogError(self.number, f"{key!r} must be a whole number, not {short_repr(value)}")
        return value

    def string(self, key: str, required: bool = True) -> Any:
        value = self._get(key, required)
        if value is not None and not isinstance(value, str):
            raise LogError(self.number, f"{key!r} must be a string, not {short_repr(value)}")
        return value

    def choice(self, key: str, allowed: Sequence[str]) -> str:
        value = self.string(key)
        if value not in allowed:
            raise LogError(
                self.number, f"{key!r} is {short_repr(value)}; expected one of {', '.join(allowed)}"
            )
        return value

    def difficulty(self, key: str) -> DifficultyLevel:
        """A difficulty's name, as its level."""
        name = self.string(key)
        if name not in DIFFICULTY_BY_NAME:
            expected = ", ".join(DIFFICULTY_BY_NAME)
            raise LogError(
                self.number, f"unknown difficulty {short_repr(name)}; expected one of {expected}"
            )
        return DIFFICULTY_BY_NAME[name]

    def side(self, key: str) -> Side:
        """A side's name, as the side: one of the four, whatever the game's mode (the
        game refuses a side it does not have, as it refuses any other wrong action)."""
        return Side(self.choice(key, list(Side)))

    def list_of(self, key: str, item_type: type) -> tuple | None:
        value = self._get(key, False)
        if value is None:
            return None
        if not isinstance(value, list) or not all(
            isinstance(item, item_type) and not isinstance(item, bool) for item in value
        ):
            raise LogError(self.number, f"{key!r} must be a list of {item_type.__name__} values")
        return tuple(value)
