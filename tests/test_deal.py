"""Deal codes (docs/SOLO.md, "Deal codes"): a solo game's seed and deck in 8 characters."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.deal import ALPHABET, Deal, DealCodeError, deal_of, parse_deal
from companion.engine.setup import SEEDS, solo_setup
from companion.text.font import SMALL, Font
from companion.text.hangul import KOREAN

DEALS = st.builds(Deal, seed=st.integers(0, SEEDS.stop - 1), deck=st.sampled_from(list(Deck)))


@given(deal=DEALS)
def test_a_code_stands_for_its_seed_and_deck(deal):
    code = deal.code
    assert len(code) == 9 and code[4] == "-"
    assert parse_deal(code) == deal
    assert parse_deal(code.lower().replace("-", " ")) == deal


def test_codes_worked_out_by_hand():
    # Seed 42, tactical: 42 × 2 + 1 = 85 = 3 × 28 + 1 -> data 0 0 0 0 0 3 1.
    # Luhn mod 28 from the right: 1 doubled 2; then 3 -> 5; check = −5 mod 28 = 23 = U.
    assert Deal(42, Deck.TACTICAL).code == "0000-031U"
    # Seed 1, normal: value 2 -> data ...0 2; 2 doubled = 4; check −4 mod 28 = 24 = V.
    assert Deal(1, Deck.NORMAL).code == "0000-002V"
    # The largest seed, 2^32 − 1, tactical: value 2^33 − 1 = 8 589 934 591, whose
    # first base-28 digit is its quotient by 28^6 = 481 890 304: 17, L.
    assert Deal(SEEDS.stop - 1, Deck.TACTICAL).code[0] == "L"


@pytest.mark.parametrize("deal", [Deal(42, Deck.TACTICAL), Deal(3_141_592_653, Deck.NORMAL)])
def test_every_code_with_one_wrong_character_is_refused(deal):
    code = deal.code.replace("-", "")
    for place, right in enumerate(code):
        for wrong in ALPHABET.replace(right, ""):
            mistyped = code[:place] + wrong + code[place + 1 :]
            with pytest.raises(DealCodeError):
                parse_deal(mistyped)


def test_letters_that_look_like_digits_are_read_as_them():
    assert parse_deal("oooo-o31u") == parse_deal("0000-031U")
    assert parse_deal("0000-OO2v").seed == 1
    assert parse_deal("oooo-ozvs") == Deal(40, Deck.NORMAL)  # 0000-02V5


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("0000-031", "a deal code has 8 characters, not 7"),
        ("0000-031UU", "a deal code has 8 characters, not 9"),
        ("0000-03BU", "'B' is not in a deal code"),
        ("0000-031T", "the check character does not match"),
        ("YYYY-YYY", "a deal code has 8 characters"),
    ],
)
def test_a_bad_code_is_said_in_one_line(text, said):
    with pytest.raises(DealCodeError) as caught:
        parse_deal(text)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_a_code_beyond_the_seeds_is_refused():
    # Seven Y (27): doubled places 0, 2, 4, 6 give 54 -> 1 + 26 = 27 each, 108; places
    # 1, 3, 5 give 81; total 189; check −189 mod 28 = 7. Well formed, but 28^7 − 1 is
    # beyond 2 × 2^32.
    with pytest.raises(DealCodeError, match="too large"):
        parse_deal("YYYY-YYY7")


def test_only_a_game_dealt_from_its_seed_has_a_deal():
    fellow = DIFFICULTY_BY_NAME["fellow"]
    dealt = solo_setup(fellow, Deck.NORMAL, seed=7)
    assert deal_of(dealt) == Deal(7, Deck.NORMAL)
    # The same deal at another level: the level is not part of the deal.
    assert deal_of(solo_setup(DIFFICULTY_BY_NAME["legend"], Deck.NORMAL, seed=7)).code == (
        Deal(7, Deck.NORMAL).code
    )
    # The player laid out the circle: the deck order is dealt from the seed, the circle not.
    other_circle = dealt.circle[1:-1] + dealt.circle[:1] + ("P00",)
    laid_out = solo_setup(fellow, Deck.NORMAL, seed=7, circle=other_circle)
    assert deal_of(laid_out) is None


def _ink(font: Font, char: str) -> set[tuple[int, int]]:
    image = Image.new("1", (12, font.line_height + 4))
    font.draw(image, (2, 0), char)
    width, height = image.size
    return {(x, y) for y in range(height) for x in range(width) if image.getpixel((x, y))}


@pytest.mark.parametrize("font", [SMALL, KOREAN], ids=lambda font: font.name)
def test_no_two_characters_of_a_code_draw_alike(font):
    # Read off the panel, 5 and S, 6 and 8, P and R differ by two pixels, which the
    # alphabet leaves out; every pair kept differs by four or more however the two
    # are set side by side (a column either way).
    for first, second in itertools.combinations(ALPHABET, 2):
        ink = _ink(font, first)
        other = _ink(font, second)
        differ = min(len(ink ^ {(x + shift, y) for x, y in other}) for shift in (-1, 0, 1))
        assert differ >= 4, f"{first} and {second} differ by {differ} pixels"
    # Z is 2 with its diagonal a column over: unlike in pixels, alike in shape.
    assert "Z" not in ALPHABET
