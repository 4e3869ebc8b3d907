"""The names of the game's things on screen, in the player's language.

The engine and the files name difficulties, decks and filters by stable ids
("fellow", "tactical", "most buttons"); the screens show the words of the
rulebook the player holds (docs/LANGUAGES.md gives each one's source).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from companion.engine.automa import Deck, DifficultyLevel, Filter
from companion.text.language import Words, msg

DIFFICULTY_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "intern": msg("Intern"),
        "apprentice": msg("Apprentice"),
        "fellow": msg("Fellow"),
        "master": msg("Master"),
        "legend": msg("Legend"),
    }
)
DECK_NAMES: Mapping[Deck, str] = MappingProxyType(
    {Deck.NORMAL: msg("Normal"), Deck.TACTICAL: msg("Tactical")}
)
FILTER_NAMES: Mapping[Filter, str] = MappingProxyType(
    {
        Filter.NO_OVERTAKE: msg("no overtake"),
        Filter.LARGEST: msg("largest"),
        Filter.MOST_BUTTONS: msg("most buttons"),
        Filter.FARTHEST: msg("farthest"),
    }
)


def difficulty_name(difficulty: DifficultyLevel, words: Words) -> str:
    """A difficulty's name on screen, e.g. "Fellow"."""
    return words(DIFFICULTY_NAMES[difficulty.name])


def deck_name(deck: Deck, words: Words) -> str:
    return words(DECK_NAMES[deck])
