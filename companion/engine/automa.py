"""The solo Automa: its two decks, its filters and the five difficulties.

docs/RULES.md §4. The companion replaces the physical cards: `choose_patch` is the
decision a player would make by reading a revealed card, and it explains itself
so the screen can say *why* the Automa took what it took.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from companion.engine.catalogue import FINAL_POSITION, Patch


class Filter(StrEnum):
    NO_OVERTAKE = "no overtake"
    LARGEST = "largest"
    MOST_BUTTONS = "most buttons"
    FARTHEST = "farthest"


class Deck(StrEnum):
    NORMAL = "normal"
    TACTICAL = "tactical"


@dataclass(frozen=True, slots=True)
class AutomaCard:
    """One card of the Automa's deck (RULES.md §4): its virtual buttons, the filters
    it applies in order, and the income it takes at each income mark."""

    number: int
    virtual_buttons: int
    filters: tuple[Filter, ...]
    """Empty only for card 12, whose 0 virtual buttons never leave a choice."""
    income: int


@dataclass(frozen=True, slots=True)
class DeckTable:
    """One of the Automa's two decks (RULES.md §4, the two decks)."""

    backs_show_virtual_buttons: bool
    """Whether the players see the next card's virtual buttons on its back, so the
    screens show them."""
    cards: tuple[AutomaCard, ...]


_N, _L, _B, _F = Filter.NO_OVERTAKE, Filter.LARGEST, Filter.MOST_BUTTONS, Filter.FARTHEST

DECKS: Mapping[Deck, DeckTable] = MappingProxyType(
    {
        Deck.NORMAL: DeckTable(
            backs_show_virtual_buttons=False,
            cards=(
                AutomaCard(1, 1, (_N, _B, _F), 4),
                AutomaCard(2, 2, (_N, _B, _F), 4),
                AutomaCard(3, 3, (_N, _L, _F), 3),
                AutomaCard(4, 4, (_N, _L, _F), 1),
                AutomaCard(5, 5, (_N, _B, _F), 1),
                AutomaCard(6, 6, (_N, _L, _F), 0),
                AutomaCard(7, 7, (_B, _L, _F), 0),
                AutomaCard(8, 8, (_L, _B, _F), 0),
                AutomaCard(9, 8, (_B, _N, _F), 0),
                AutomaCard(10, 10, (_B, _L, _F), 0),
                AutomaCard(11, 10, (_B, _L, _F), 0),
                AutomaCard(12, 0, (), 5),
            ),
        ),
        Deck.TACTICAL: DeckTable(
            backs_show_virtual_buttons=True,
            cards=(
                AutomaCard(13, 1, (_N, _B, _F), 5),
                AutomaCard(14, 1, (_N, _L, _F), 4),
                AutomaCard(15, 3, (_N, _B, _F), 4),
                AutomaCard(16, 3, (_N, _L, _F), 3),
                AutomaCard(17, 4, (_N, _B, _F), 1),
                AutomaCard(18, 4, (_N, _L, _F), 1),
                AutomaCard(19, 6, (_N, _L, _F), 0),
                AutomaCard(20, 6, (_B, _L, _F), 0),
                AutomaCard(21, 8, (_L, _B, _F), 0),
                AutomaCard(22, 8, (_B, _L, _F), 0),
                AutomaCard(23, 10, (_B, _N, _F), 0),
                AutomaCard(24, 10, (_L, _B, _F), 0),
            ),
        ),
    }
)

CARD_BY_NUMBER: Mapping[int, AutomaCard] = MappingProxyType(
    {card.number: card for table in DECKS.values() for card in table.cards}
)

DECK_CARDS: Mapping[Deck, tuple[int, ...]] = MappingProxyType(
    {deck: tuple(card.number for card in table.cards) for deck, table in DECKS.items()}
)

CARDS_SET_ASIDE = 2
"""Set-up puts the top two cards face down as the start of the discard pile."""


@dataclass(frozen=True, slots=True)
class DifficultyLevel:
    """One Automa difficulty (RULES.md §4): where it takes the 7×7 tile and what it
    counts at the end."""

    name: str
    level: int
    squares_before_end: int
    counts_own_buttons: bool
    counts_patches_with_buttons: bool
    counts_buttons_on_patches: bool

    @property
    def bonus_mark(self) -> int:
        """Where the Automa takes the 7×7 bonus tile on the time track."""
        return FINAL_POSITION - self.squares_before_end


DIFFICULTIES: tuple[DifficultyLevel, ...] = (
    DifficultyLevel("intern", 1, 1, False, False, False),
    DifficultyLevel("apprentice", 2, 9, True, False, False),
    DifficultyLevel("fellow", 3, 12, True, True, False),
    DifficultyLevel("master", 4, 15, True, False, True),
    DifficultyLevel("legend", 5, 18, True, True, True),
)

DIFFICULTY_BY_NAME: dict[str, DifficultyLevel] = {level.name: level for level in DIFFICULTIES}


@dataclass(frozen=True, slots=True)
class FilterStep:
    """One filter of the card applied to the remaining candidates."""

    filter: Filter
    kept: tuple[int, ...]
    """Circle indices left after the filter (the candidates before it if skipped)."""
    skipped: bool
    """True when no candidate satisfied it (only possible for no overtake)."""


class FilterEffect(StrEnum):
    """What one filter of the card did to the patches still in the running."""

    NARROWED = "narrowed"
    """It kept some and dropped the others."""
    ALL_KEPT = "all kept"
    """Every patch satisfied it: it changed nothing."""
    SKIPPED = "skipped"
    """No patch satisfied it (only no overtake can): it was skipped, all kept."""
    NOT_NEEDED = "not needed"
    """One patch or none was left before it: it was not looked at."""


@dataclass(frozen=True, slots=True)
class FilterOutcome:
    """One filter printed on the card, and what it did."""

    filter: Filter
    effect: FilterEffect
    kept: int
    """How many patches were left after it (before it, if it was not needed)."""


@dataclass(frozen=True, slots=True)
class AutomaDecision:
    """What the revealed card made the Automa do, and why."""

    card: AutomaCard
    affordable: tuple[int, ...]
    """Circle indices (0 = directly clockwise of the neutral token) it could pay for."""
    steps: tuple[FilterStep, ...]
    """The filters applied, in order, until one patch was left."""
    chosen: int | None
    """The circle index taken, or None when it passes."""

    @property
    def card_filters(self) -> tuple[FilterOutcome, ...]:
        """Every filter printed on the card, in its order, with what it did: the card
        as a player holding it would check it."""
        outcomes = []
        before = self.affordable
        for index, card_filter in enumerate(self.card.filters):
            if index >= len(self.steps):
                outcomes.append(FilterOutcome(card_filter, FilterEffect.NOT_NEEDED, len(before)))
                continue
            step = self.steps[index]
            if step.skipped:
                effect = FilterEffect.SKIPPED
            elif len(step.kept) < len(before):
                effect = FilterEffect.NARROWED
            else:
                effect = FilterEffect.ALL_KEPT
            outcomes.append(FilterOutcome(card_filter, effect, len(step.kept)))
            before = step.kept
        return tuple(outcomes)


def choose_patch(
    card: AutomaCard, offer: tuple[Patch, ...], automa_position: int, player_position: int
) -> AutomaDecision:
    """Decide which of the (up to three) offered patches the Automa takes.

    `offer[i]` is the patch `i` places clockwise of the neutral token.
    """
    candidates = tuple(i for i, patch in enumerate(offer) if patch.cost <= card.virtual_buttons)
    steps: list[FilterStep] = []
    remaining = candidates
    for card_filter in card.filters:
        if len(remaining) <= 1:
            break
        kept = _apply_filter(card_filter, remaining, offer, automa_position, player_position)
        steps.append(FilterStep(card_filter, kept or remaining, skipped=not kept))
        remaining = kept or remaining
    chosen = remaining[0] if remaining else None
    return AutomaDecision(card, candidates, tuple(steps), chosen)


def _apply_filter(
    card_filter: Filter,
    candidates: tuple[int, ...],
    offer: tuple[Patch, ...],
    automa_position: int,
    player_position: int,
) -> tuple[int, ...]:
    if card_filter is Filter.NO_OVERTAKE:
        # Landing on the player's square is not overtaking.
        return tuple(
            i
            for i in candidates
            if min(FINAL_POSITION, automa_position + offer[i].time) <= player_position
        )
    if card_filter is Filter.LARGEST:
        most = max(offer[i].squares for i in candidates)
        return tuple(i for i in candidates if offer[i].squares == most)
    if card_filter is Filter.MOST_BUTTONS:
        most = max(offer[i].buttons for i in candidates)
        return tuple(i for i in candidates if offer[i].buttons == most)
    return (max(candidates),)
