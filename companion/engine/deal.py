"""Deal codes: a short code for a solo game's circle and Automa deck (docs/SOLO.md).

A dealt solo game is drawn from its seed: the circle, the deck order and every
reshuffle (setup.py). So the seed and the deck are the whole deal. The code writes
them in base 28: the digits and letters whose glyphs in the panel's font no other
character of the code comes near (docs/SOLO.md), 7 characters for the 33 bits, then
a check character (the Luhn mod N algorithm), which catches any one character
mistyped and most pairs of neighbours swapped. It is shown in two halves of four:
`G127-TY7K`.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.automa import Deck
from companion.engine.errors import SetupError
from companion.engine.setup import SEEDS, Mode, Setup, solo_setup

ALPHABET = "012345679ACDEGHJKLMNPQTUVWXY"
"""What a deal code is written with: the digits and letters but 8, B, F, I, O, R, S and
Z. The panel's glyphs draw each of these within two or three pixels of a character
kept (8 and B of 6, B of D, F of E, I of T, O of 0, R of P, S of 5) or in the same
shape (Z as 2). An even count, as the Luhn mod N check needs; 28^7 holds 33 bits."""
READ_AS = {"O": "0", "S": "5", "Z": "2"}
"""Letters a player may type for the digit they look like."""
DATA_CHARACTERS = 7
CODE_CHARACTERS = DATA_CHARACTERS + 1
"""Seven for the seed and the deck, one check character."""
GROUP = 4
"""Characters shown together: two groups of four, joined by a hyphen."""
DECKS = tuple(Deck)
_BASE = len(ALPHABET)


class DealCodeError(SetupError):
    """A code that is not a deal code, said in one line."""


@dataclass(frozen=True, slots=True)
class Deal:
    """What a deal code stands for: the seed the game is dealt from, and the deck."""

    seed: int
    deck: Deck

    @property
    def code(self) -> str:
        """The code as shown: `G127-TY7K`."""
        value = self.seed * len(DECKS) + DECKS.index(self.deck)
        digits = []
        for _ in range(DATA_CHARACTERS):
            value, digit = divmod(value, _BASE)
            digits.append(digit)
        digits.reverse()
        digits.append(_check_digit(digits))
        text = "".join(ALPHABET[digit] for digit in digits)
        return f"{text[:GROUP]}-{text[GROUP:]}"


def parse_deal(text: str) -> Deal:
    """The deal a code stands for; `DealCodeError` (one line) if it is not one.

    Case, hyphens and spaces do not matter; O, S and Z are read as 0, 5 and 2.

    >>> parse_deal("0000-003t")
    Deal(seed=1, deck=<Deck.TACTICAL: 'tactical'>)
    >>> parse_deal("0000-003Y")
    Traceback (most recent call last):
    ...
    companion.engine.deal.DealCodeError: the check character does not match: a character is wrong
    """
    characters = [READ_AS.get(char, char) for char in text.upper() if char not in "- "]
    if len(characters) != CODE_CHARACTERS:
        raise DealCodeError(f"a deal code has {CODE_CHARACTERS} characters, not {len(characters)}")
    for char in characters:
        if char not in ALPHABET:
            raise DealCodeError(f"{char!r} is not in a deal code ({ALPHABET})")
    digits = [ALPHABET.index(char) for char in characters]
    if _check_digit(digits[:DATA_CHARACTERS]) != digits[DATA_CHARACTERS]:
        raise DealCodeError("the check character does not match: a character is wrong")
    value = 0
    for digit in digits[:DATA_CHARACTERS]:
        value = value * _BASE + digit
    seed, deck = divmod(value, len(DECKS))
    if seed not in SEEDS:
        raise DealCodeError("not a deal code: its number is too large")
    return Deal(seed, DECKS[deck])


def deal_of(setup: Setup) -> Deal | None:
    """The deal of a solo game dealt from its seed; None for a circle the player laid
    out (or a deck order given), which no code can deal again."""
    if setup.mode is not Mode.SOLO or setup.seed is None or setup.seed not in SEEDS:
        return None
    assert setup.difficulty is not None and setup.deck is not None
    dealt = solo_setup(setup.difficulty, setup.deck, seed=setup.seed)
    if (dealt.circle, dealt.deck_order) != (setup.circle, setup.deck_order):
        return None
    return Deal(setup.seed, setup.deck)


def _check_digit(digits: list[int]) -> int:
    """Luhn mod N: every second digit from the right doubled, its base-28 digits summed."""
    total = 0
    for place, digit in enumerate(reversed(digits)):
        if place % 2 == 0:
            digit = 2 * digit
            digit = digit // _BASE + digit % _BASE
        total += digit
    return -total % _BASE
