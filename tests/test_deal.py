"""Deal codes (docs/SOLO.md, "Deal codes"): a solo game's seed and deck in 8 characters."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.deal import ALPHABET, Deal, DealCodeError, deal_of, parse_deal
from companion.engine.setup import SEEDS, solo_setup

DEALS = st.builds(Deal, seed=st.integers(0, SEEDS.stop - 1), deck=st.sampled_from(list(Deck)))


@given(deal=DEALS)
def test_a_code_stands_for_its_seed_and_deck(deal):
    code = deal.code
    assert len(code) == 9 and code[4] == "-"
    assert parse_deal(code) == deal
    assert parse_deal(code.lower().replace("-", " ")) == deal


def test_codes_worked_out_by_hand():
    # Seed 42, tactical: 42 × 2 + 1 = 85 = 2 × 32 + 21 -> data 0 0 0 0 0 2 N (21).
    # Luhn mod 32 from the right: 21 doubled 42 -> 1 + 10 = 11; then 2 -> 13;
    # check = −13 mod 32 = 19 = K.
    assert Deal(42, Deck.TACTICAL).code == "0000-02NK"
    # Seed 1, normal: value 2 -> data ...0 2; 2 doubled = 4; check −4 mod 32 = 28 = W.
    assert Deal(1, Deck.NORMAL).code == "0000-002W"
    # The largest seed, 2^32 − 1, tactical: value 2^33 − 1 = 7 then six 31s (Z).
    assert Deal(SEEDS.stop - 1, Deck.TACTICAL).code[:8] == "7ZZZ-ZZZ"


@pytest.mark.parametrize("deal", [Deal(42, Deck.TACTICAL), Deal(3_141_592_653, Deck.NORMAL)])
def test_every_code_with_one_wrong_character_is_refused(deal):
    code = deal.code.replace("-", "")
    for place, right in enumerate(code):
        for wrong in ALPHABET.replace(right, ""):
            mistyped = code[:place] + wrong + code[place + 1 :]
            with pytest.raises(DealCodeError):
                parse_deal(mistyped)


def test_letters_that_look_like_digits_are_read_as_them():
    assert parse_deal("oooo-o2nk") == parse_deal("0000-02NK")
    assert parse_deal("0000-002w").seed == 1


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("0000-02N", "a deal code has 8 characters, not 7"),
        ("0000-02NKK", "a deal code has 8 characters, not 9"),
        ("0000-02UK", "'U' is not in a deal code"),
        ("0000-02NJ", "the check character does not match"),
        ("ZZZZ-ZZZ", "a deal code has 8 characters"),
    ],
)
def test_a_bad_code_is_said_in_one_line(text, said):
    with pytest.raises(DealCodeError) as caught:
        parse_deal(text)
    assert said in str(caught.value) and "\n" not in str(caught.value)


def test_a_code_beyond_the_seeds_is_refused():
    # Seven Z (31): doubled places 0, 2, 4, 6 give 62 -> 1 + 30 = 31 each, 124; places
    # 1, 3, 5 give 93; total 217; check −217 mod 32 = 7. Well formed, but 32^7 − 1 is
    # beyond 2 × 2^32.
    with pytest.raises(DealCodeError, match="too large"):
        parse_deal("ZZZZ-ZZZ7")


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
