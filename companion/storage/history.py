"""Finished games kept in `history/`, and the statistics computed from them.

The files are the single source of truth: statistics are replayed from them
every time, so there is no second record to go
out of step with them, and a log copied in by hand counts like any other.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from companion.engine.automa import DIFFICULTIES, Deck, DifficultyLevel
from companion.engine.gamelog import LogError, read_log
from companion.engine.setup import Mode, Side
from companion.storage.files import one_line
from companion.storage.journal import (
    ABANDONED_MARK,
    ARCHIVE_TIME_FORMAT,
    JOURNAL_LIMIT,
    LOG_SUFFIX,
)
from companion.untrusted import UnusableFileError, iter_lines, read_capped

logger = logging.getLogger(__name__)

RECENT_RESULTS = 5

_ARCHIVE_NAME = re.compile(
    r"(?P<stamp>\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d)-(?:solo|two-player|game)"
    rf"(?P<abandoned>-{ABANDONED_MARK})?(?:-(?P<number>\d+))?{re.escape(LOG_SUFFIX)}"
)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game, as a statistics screen needs it."""

    path: Path
    date: datetime
    """When it was archived (from the file name; the file's time if the name has none)."""
    mode: Mode
    difficulty: DifficultyLevel | None
    """Solo only, like `deck`."""
    deck: Deck | None
    scores: Mapping[Side, int]
    winner: Side
    tie: bool
    """Equal scores: the winner reached 53 first."""
    margin: int | None
    """Solo only: the player's score minus the Automa's (negative for a loss)."""

    @property
    def player_won(self) -> bool | None:
        """Solo only: whether the player beat the Automa."""
        return self.winner == Side.PLAYER if self.mode is Mode.SOLO else None

    @property
    def label(self) -> str:
        """e.g. "fellow, tactical" or "two-player"."""
        if self.difficulty is not None:
            return f"{self.difficulty.name}, {self.deck}"
        return Mode.TWO_PLAYER.value


@dataclass(frozen=True, slots=True)
class SoloStatistics:
    """Solo results for one (difficulty, deck), or for all solo games."""

    games: int
    wins: int
    best_margin: int
    average_margin: float


@dataclass(frozen=True, slots=True)
class Statistics:
    """What the statistics screens show, worked out from the finished games."""

    solo: Mapping[tuple[DifficultyLevel, Deck], SoloStatistics]
    """By (difficulty, deck), easiest first, normal before tactical; only those played."""
    solo_overall: SoloStatistics | None
    """All solo games together; None if there are none."""
    two_player_games: int
    recent: tuple[GameRecord, ...]
    """The last results, newest first."""


class History:
    """The finished games in `directory` (the state directory's `history/`)."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def entries(self, keepalive: Callable[[], None] = lambda: None) -> list[GameRecord]:
        """Every finished game, oldest first.

        Abandoned games are left out; a file that cannot be replayed, or whose
        game is not over, is skipped and logged, never fatal. `keepalive` is
        called after each file: a large history takes seconds, and the
        daemon's watchdog must hear from it meanwhile.
        """
        if not self.directory.is_dir():
            return []
        dated = []
        for path in self.directory.glob(f"*{LOG_SUFFIX}"):
            if path.name.startswith(".") or _is_abandoned(path.name):
                continue
            record = _read_record(path)
            keepalive()
            if record is not None:
                dated.append((_sort_key(path, record.date), record))
        return [record for _, record in sorted(dated, key=lambda pair: pair[0])]

    def statistics(
        self, recent: int = RECENT_RESULTS, keepalive: Callable[[], None] = lambda: None
    ) -> Statistics:
        records = self.entries(keepalive)
        solo = [record for record in records if record.mode is Mode.SOLO]
        by_kind: dict[tuple[DifficultyLevel, Deck], list[GameRecord]] = {}
        for game in sorted(solo, key=_kind_order):
            by_kind.setdefault((game.difficulty, game.deck), []).append(game)  # type: ignore[arg-type]
        return Statistics(
            solo={kind: _summarise(games) for kind, games in by_kind.items()},
            solo_overall=_summarise(solo) if solo else None,
            two_player_games=sum(1 for record in records if record.mode is Mode.TWO_PLAYER),
            recent=tuple(reversed(records[-recent:])) if recent > 0 else (),
        )


def _read_record(path: Path) -> GameRecord | None:
    try:
        size = path.lstat().st_size
        if size > JOURNAL_LIMIT:  # not even read: a 100 MB file costs nothing
            raise UnusableFileError(f"{size:,} bytes, more than a game can take")
        data, size = read_capped(path, JOURNAL_LIMIT)
        if size > len(data):
            raise UnusableFileError(f"{size:,} bytes, more than a game can take")
        game = read_log(iter_lines(data + b"\n"))
        modified = path.stat().st_mtime
    except (OSError, UnusableFileError, LogError) as error:
        logger.warning("history: skipping %s: %s", path.name, one_line(str(error)))
        return None
    except Exception:
        # An engine bug on an odd file must not take the statistics screen down.
        logger.exception("history: skipping %s: replay failed", path.name)
        return None
    outcome = game.outcome()
    if outcome is None:
        logger.warning("history: skipping %s: the game is not over", path.name)
        return None
    setup = game.setup
    solo = setup.mode is Mode.SOLO
    return GameRecord(
        path=path,
        date=_date_from_name(path.name) or datetime.fromtimestamp(modified),
        mode=setup.mode,
        difficulty=setup.difficulty,
        deck=setup.deck,
        scores=dict(outcome.scores),
        winner=outcome.winner,
        tie=outcome.tie,
        margin=outcome.scores[Side.PLAYER] - outcome.scores[Side.AUTOMA] if solo else None,
    )


def _summarise(records: Sequence[GameRecord]) -> SoloStatistics:
    margins = [record.margin for record in records if record.margin is not None]
    wins = sum(1 for record in records if record.player_won)
    return SoloStatistics(
        games=len(margins),
        wins=wins,
        best_margin=max(margins),
        average_margin=sum(margins) / len(margins),
    )


def _kind_order(record: GameRecord) -> tuple[int, int]:
    return DIFFICULTIES.index(record.difficulty), list(Deck).index(record.deck)  # type: ignore[arg-type]


def _is_abandoned(name: str) -> bool:
    match = _ARCHIVE_NAME.fullmatch(name)
    if match is not None:
        return match["abandoned"] is not None
    return f"-{ABANDONED_MARK}" in name


def _date_from_name(name: str) -> datetime | None:
    match = _ARCHIVE_NAME.fullmatch(name)
    if match is None:
        return None
    try:
        return datetime.strptime(match["stamp"], ARCHIVE_TIME_FORMAT)
    except ValueError:
        return None


def _sort_key(path: Path, date: datetime) -> tuple[datetime, int, str]:
    # Two games archived in the same second are told apart by the -2, -3 … suffix.
    match = _ARCHIVE_NAME.fullmatch(path.name)
    number = int(match["number"]) if match is not None and match["number"] else 1
    return date, number, path.name
