"""The statistics of the games that ended, worked out by SQL in the store.

Each figure is one aggregate over the `games` table: opening the screen costs
the same few queries with 10 games or 10,000, and no game is read into memory.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from companion.engine.automa import DIFFICULTIES, DIFFICULTY_BY_NAME, Deck, DifficultyLevel
from companion.engine.setup import Mode
from companion.engine.verdicts import SUGGESTION_GAMES, suggest_level
from companion.storage.store import ENDED_FORMAT, Store

RECENT_RESULTS = 5
SOLO_FIGURES = "count(*), sum(winner = 'player'), max(margin), avg(margin), max({score})"
SCORE = "score"
SCORE_OF_SCHEMA_1 = "json_extract(scores, '$.player')"
"""The player's score in an earlier build's database that could not be upgraded (a
read-only card): read from the scores, row by row."""
FINISHED_SOLO = "FROM games WHERE finished AND mode = 'solo'"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game, as the list of last results shows it."""

    date: datetime
    """When it ended."""
    mode: Mode
    difficulty: DifficultyLevel | None
    """Solo only, like `deck`."""
    deck: Deck | None
    scores: Mapping[str, int]
    """Each side's score, in the game's order of sides (the player's or P1's first)."""


@dataclass(frozen=True, slots=True)
class SoloStatistics:
    """Solo results for one (difficulty, deck), or for all solo games."""

    games: int
    wins: int
    best_margin: int
    average_margin: float
    best_score: int
    """The player's best score."""


@dataclass(frozen=True, slots=True)
class LevelVerdicts:
    """Every finished solo game judged against one level (docs/SOLO.md)."""

    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class Statistics:
    """What the statistics screens show."""

    solo: Mapping[tuple[DifficultyLevel, Deck], SoloStatistics]
    """By (difficulty, deck), easiest first, normal before tactical; only those played."""
    solo_overall: SoloStatistics | None
    """All solo games together; None if there are none."""
    two_player_games: int
    recent: tuple[GameRecord, ...]
    """The last results, newest first."""
    verdicts: Mapping[DifficultyLevel, LevelVerdicts] = field(default_factory=dict)
    """Each level, easiest first, against every finished solo game judged; empty if none."""
    suggested: DifficultyLevel | None = None
    """The level to offer first in a new solo game, if the last games suggest one."""


def statistics(store: Store, recent: int = RECENT_RESULTS) -> Statistics:
    """The statistics of every game played to its end (games given up are left out)."""
    figures = SOLO_FIGURES.format(score=SCORE if _has_verdicts(store) else SCORE_OF_SCHEMA_1)
    solo = {
        (DIFFICULTY_BY_NAME[difficulty], Deck(deck)): SoloStatistics(*figures)
        for difficulty, deck, *figures in store.query(
            f"SELECT difficulty, deck, {figures} {FINISHED_SOLO} GROUP BY difficulty, deck"
        )
    }
    ordered = sorted(
        solo, key=lambda kind: (DIFFICULTIES.index(kind[0]), list(Deck).index(kind[1]))
    )
    (overall,) = store.query(f"SELECT {figures} {FINISHED_SOLO}")
    ((two_player,),) = store.query(
        "SELECT count(*) FROM games WHERE finished AND mode = 'two-player'"
    )
    rows = store.query(
        "SELECT ended, mode, difficulty, deck, scores FROM games WHERE finished"
        " ORDER BY id DESC LIMIT ?",
        (recent,),
    )
    return Statistics(
        verdicts=level_verdicts(store),
        suggested=suggested_level(store),
        solo={kind: solo[kind] for kind in ordered},
        solo_overall=SoloStatistics(*overall) if overall[0] else None,
        two_player_games=two_player,
        recent=tuple(
            GameRecord(
                datetime.strptime(ended, ENDED_FORMAT),
                Mode(mode),
                DIFFICULTY_BY_NAME[difficulty] if difficulty else None,
                Deck(deck) if deck else None,
                json.loads(scores),
            )
            for ended, mode, difficulty, deck, scores in rows
        ),
    )


JUDGED_SOLO = f"{FINISHED_SOLO} AND beaten IS NOT NULL"


def level_verdicts(store: Store) -> dict[DifficultyLevel, LevelVerdicts]:
    """Each level's wins against every finished solo game judged, easiest first: a game
    won against a level is one that beat it and every easier one (docs/SOLO.md)."""
    if not _has_verdicts(store):
        return {}
    wins = ", ".join(f"sum(beaten >= {level.level})" for level in DIFFICULTIES)
    ((games, *won),) = store.query(f"SELECT count(*), {wins} {JUDGED_SOLO}")
    if not games:
        return {}
    return {
        level: LevelVerdicts(games, wins) for level, wins in zip(DIFFICULTIES, won, strict=True)
    }


def suggested_level(store: Store) -> DifficultyLevel | None:
    """The level the verdicts of the last solo games suggest (`suggest_level`)."""
    if not _has_verdicts(store):
        return None
    rows = store.query(f"SELECT beaten {JUDGED_SOLO} ORDER BY id DESC LIMIT ?", (SUGGESTION_GAMES,))
    return suggest_level(
        [{level.name: beaten >= level.level for level in DIFFICULTIES} for (beaten,) in rows]
    )


def _has_verdicts(store: Store) -> bool:
    """Whether the games keep the levels they beat and the player's score: an earlier
    build's database on a card that could not be upgraded (read-only) does not."""
    return any(column == "beaten" for _, column, *_ in store.query("PRAGMA table_info(games)"))
