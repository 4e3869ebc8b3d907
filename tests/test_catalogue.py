"""The data in code against docs/RULES.md §1, §2 and §4 (tables transcribed by hand)."""

from companion.engine.automa import (
    CARD_BY_NUMBER,
    DECK_CARDS,
    DECKS,
    DIFFICULTY_BY_NAME,
    Deck,
    Filter,
)
from companion.engine.catalogue import (
    INCOME_MARKS,
    LEATHER_POSITIONS,
    PATCH_BY_ID,
    PATCHES,
    marks_crossed,
)


def test_there_are_33_patches_with_canonical_ids():
    assert [p.id for p in PATCHES] == [f"P{n:02d}" for n in range(33)]


def test_catalogue_totals_match_rules_section_2():
    assert sum(p.squares for p in PATCHES) == 166
    assert sum(p.buttons for p in PATCHES) == 38


def test_a_few_rows_by_hand():
    # P17: cost 3, time 6, 2 buttons, `#.# / ### / .#.` = 2 + 3 + 1 = 6 squares.
    p17 = PATCH_BY_ID["P17"]
    assert (p17.cost, p17.time, p17.buttons, p17.squares) == (3, 6, 2, 6)
    assert p17.shape == ("#.#", "###", ".#.")
    assert (p17.width, p17.height) == (3, 3)
    # P05: cost 1, time 4, 1 button, a 5-long bar with a square above and below the middle.
    p05 = PATCH_BY_ID["P05"]
    assert (p05.cost, p05.time, p05.buttons, p05.squares) == (1, 4, 1, 7)
    assert (p05.width, p05.height) == (5, 3)
    # P32: cost 10, time 5, 3 buttons, `##.. / ####` = 6 squares.
    p32 = PATCH_BY_ID["P32"]
    assert (p32.cost, p32.time, p32.buttons, p32.squares) == (10, 5, 3, 6)
    # P00, the 2x1 patch the neutral token starts beside.
    p00 = PATCH_BY_ID["P00"]
    assert (p00.cost, p00.time, p00.buttons, p00.squares) == (2, 1, 0, 2)


def test_same_shapes_with_different_prices():
    # docs/RULES.md §2: three shapes occur twice with different prices.
    for a, b in (("P04", "P13"), ("P14", "P28"), ("P19", "P20")):
        assert PATCH_BY_ID[a].shape == PATCH_BY_ID[b].shape
        assert (PATCH_BY_ID[a].cost, PATCH_BY_ID[a].time) != (
            PATCH_BY_ID[b].cost,
            PATCH_BY_ID[b].time,
        )


def test_track_marks():
    assert INCOME_MARKS == (5, 11, 17, 23, 29, 35, 41, 47, 53)
    assert LEATHER_POSITIONS == (20, 26, 32, 44, 50)


def test_crossing_means_from_below_to_at_or_above():
    # docs/RULES.md §1: crossed when moving from a position < m to a position >= m.
    assert marks_crossed(INCOME_MARKS, 4, 5) == (5,)
    assert marks_crossed(INCOME_MARKS, 5, 10) == ()
    assert marks_crossed(INCOME_MARKS, 4, 17) == (5, 11, 17)


def test_decks_card_by_card():
    assert DECK_CARDS[Deck.NORMAL] == tuple(range(1, 13))
    assert DECK_CARDS[Deck.TACTICAL] == tuple(range(13, 25))
    n, lg, mb, far = Filter.NO_OVERTAKE, Filter.LARGEST, Filter.MOST_BUTTONS, Filter.FARTHEST
    # (virtual buttons, filters, income) for a sample of rows of the docs/RULES.md §4 table.
    expected = {
        1: (1, (n, mb, far), 4),
        3: (3, (n, lg, far), 3),
        7: (7, (mb, lg, far), 0),
        8: (8, (lg, mb, far), 0),
        9: (8, (mb, n, far), 0),
        12: (0, (), 5),
        13: (1, (n, mb, far), 5),
        14: (1, (n, lg, far), 4),
        21: (8, (lg, mb, far), 0),
        23: (10, (mb, n, far), 0),
        24: (10, (lg, mb, far), 0),
    }
    for number, (virtual, filters, income) in expected.items():
        card = CARD_BY_NUMBER[number]
        assert (card.virtual_buttons, card.filters, card.income) == (virtual, filters, income)
    # Farthest is always filter 3 (docs/RULES.md §4), so a choice is always made.
    assert all(c.filters[-1] is far for c in CARD_BY_NUMBER.values() if c.filters)
    assert sum(c.income for c in DECKS[Deck.NORMAL].cards) == 18
    assert sum(c.income for c in DECKS[Deck.TACTICAL].cards) == 18


def test_difficulty_marks():
    # docs/RULES.md §4 set-up table: the mark is this many squares before 53.
    marks = {name: level.bonus_mark for name, level in DIFFICULTY_BY_NAME.items()}
    assert marks == {"intern": 52, "apprentice": 44, "fellow": 41, "master": 38, "legend": 35}
