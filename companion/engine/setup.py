"""How a game starts: mode, sides, the patch circle and the Automa deck.

Every random outcome of a game is decided here from a seed, or given
explicitly, so that a game log can be replayed without the random generator.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from companion.engine.automa import DECK_CARDS, Deck, DifficultyLevel
from companion.engine.catalogue import PATCH_BY_ID, PATCHES, STARTING_PATCH_ID
from companion.engine.errors import SetupError


class Mode(StrEnum):
    SOLO = "solo"
    TWO_PLAYER = "two-player"


class Side(StrEnum):
    """Who sits at the table: the player and the Automa in solo, P1 and P2 in two-player.

    A `str`, so the game log and the JSON state keep their plain names.
    """

    PLAYER = "player"
    AUTOMA = "automa"
    P1 = "p1"
    P2 = "p2"


SIDES: dict[Mode, tuple[Side, Side]] = {
    Mode.SOLO: (Side.PLAYER, Side.AUTOMA),
    Mode.TWO_PLAYER: (Side.P1, Side.P2),
}


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything needed to start a game; the header line of a game log."""

    mode: Mode
    circle: tuple[str, ...]
    """All 33 patch ids from the one directly clockwise of the neutral token; P00 last."""
    seed: int | None = None
    difficulty: DifficultyLevel | None = None
    """Solo only, like `deck` and `deck_order`."""
    deck: Deck | None = None
    deck_order: tuple[int, ...] | None = None
    """The 12 cards of the deck, top first; the first two are set aside."""
    start: Side | None = None
    """Two-player only: whose token is on top at the start."""

    def __post_init__(self) -> None:
        _check_circle(self.circle)
        if self.mode is Mode.SOLO:
            if self.difficulty is None or self.deck is None or self.deck_order is None:
                raise SetupError("a solo game needs a difficulty, a deck and its order")
            check_deck_order(self.deck, self.deck_order)
        else:
            start_side(self.start)

    @property
    def sides(self) -> tuple[Side, Side]:
        return SIDES[self.mode]

    @property
    def first_side(self) -> Side:
        """The side whose token is on top at the start (the player, in solo)."""
        if self.mode is Mode.SOLO:
            return Side.PLAYER
        return start_side(self.start)


def start_side(name: str | None) -> Side:
    """The side that starts a two-player game, named by a game log or given by a set-up:
    p1 or p2, else a `SetupError`."""
    for side in SIDES[Mode.TWO_PLAYER]:
        if name == side:
            return side
    shown = name.value if isinstance(name, Side) else name
    raise SetupError(f"unknown start player {shown!r}; expected p1 or p2")


def _check_circle(circle: tuple[str, ...]) -> None:
    unknown = [patch_id for patch_id in circle if patch_id not in PATCH_BY_ID]
    if unknown:
        raise SetupError(f"unknown patch id {unknown[0]!r} in the circle")
    if len(circle) != len(PATCHES) or len(set(circle)) != len(PATCHES):
        raise SetupError(f"the circle must hold each of the {len(PATCHES)} patches exactly once")
    if circle[-1] != STARTING_PATCH_ID:
        raise SetupError(
            f"the circle must end with {STARTING_PATCH_ID}: "
            "the neutral token starts directly clockwise of it"
        )


def check_deck_order(deck: Deck, order: tuple[int, ...]) -> None:
    """Refuse an order that is not exactly the 12 cards of `deck`."""
    expected = DECK_CARDS[deck]
    if sorted(order) != sorted(expected):
        raise SetupError(
            f"the {deck} deck order must hold cards {expected[0]}–{expected[-1]} once each"
        )


def deal_circle(rng: random.Random) -> tuple[str, ...]:
    """A random circle: the other 32 patches shuffled, then P00 (docs/RULES.md §3 set-up)."""
    others = [patch.id for patch in PATCHES if patch.id != STARTING_PATCH_ID]
    rng.shuffle(others)
    return (*others, STARTING_PATCH_ID)


def shuffle_deck(deck: Deck, rng: random.Random) -> tuple[int, ...]:
    cards = list(DECK_CARDS[deck])
    rng.shuffle(cards)
    return tuple(cards)


def reshuffle_order(seed: int | None, deck: Deck, reshuffle_number: int) -> tuple[int, ...]:
    """The seed's draw pile after its `reshuffle_number`-th reshuffle (1 = the first).

    A pure function of the seed and the count, so undoing and redoing an
    Automa turn gives the same cards, and no generator state needs saving.
    """
    if seed is None:
        raise SetupError("a reshuffle is due but the game has no seed to draw it from")
    return shuffle_deck(deck, random.Random(f"{seed}:reshuffle:{reshuffle_number}"))


SEEDS = range(2**32)
"""The seeds the device draws, and the ones a command line may give."""


def new_seed() -> int:
    return random.SystemRandom().randrange(SEEDS.stop)


def solo_setup(
    difficulty: DifficultyLevel,
    deck: Deck,
    seed: int | None = None,
    circle: tuple[str, ...] | None = None,
    deck_order: tuple[int, ...] | None = None,
) -> Setup:
    """A solo set-up; what is not given is drawn from `seed` (a fresh one if None)."""
    if circle is None or deck_order is None:
        seed = new_seed() if seed is None else seed
        rng = random.Random(seed)
        # Always draw both, in this order, so a seed means the same game whatever is given.
        dealt_circle, dealt_order = deal_circle(rng), shuffle_deck(deck, rng)
        circle = dealt_circle if circle is None else circle
        deck_order = dealt_order if deck_order is None else deck_order
    return Setup(Mode.SOLO, circle, seed, difficulty=difficulty, deck=deck, deck_order=deck_order)


@dataclass(frozen=True, slots=True)
class SetupChoice:
    """What the player chose on the new-game menus, before the circle is dealt or entered."""

    mode: Mode
    difficulty: DifficultyLevel | None = None
    """Solo only."""
    deck: Deck | None = None
    """Solo only."""
    start: Side | None = None
    """Two-player only: who starts."""

    def setup(self, seed: int, circle: tuple[str, ...] | None = None) -> Setup:
        """The set-up: the circle given (entered by the player) or dealt from `seed`."""
        if self.mode is Mode.SOLO:
            assert self.difficulty is not None and self.deck is not None
            return solo_setup(self.difficulty, self.deck, seed=seed, circle=circle)
        assert self.start is not None
        return two_player_setup(self.start, seed=seed, circle=circle)


def two_player_setup(
    start: Side = Side.P1, seed: int | None = None, circle: tuple[str, ...] | None = None
) -> Setup:
    """A two-player set-up; the circle is dealt from `seed` (a fresh one if None) if not given."""
    if circle is None:
        seed = new_seed() if seed is None else seed
        circle = deal_circle(random.Random(seed))
    return Setup(Mode.TWO_PLAYER, circle, seed, start=start)
