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


# docs/RULES.md §4, "The two decks": card | deck | virtual buttons | filter 1 | filter 2 |
# filter 3 | income ("–": card 12 shows no filter).
AUTOMA_CARDS = """
| 1 | normal | 1 | no overtake | most buttons | farthest | 4 |
| 2 | normal | 2 | no overtake | most buttons | farthest | 4 |
| 3 | normal | 3 | no overtake | largest | farthest | 3 |
| 4 | normal | 4 | no overtake | largest | farthest | 1 |
| 5 | normal | 5 | no overtake | most buttons | farthest | 1 |
| 6 | normal | 6 | no overtake | largest | farthest | 0 |
| 7 | normal | 7 | most buttons | largest | farthest | 0 |
| 8 | normal | 8 | largest | most buttons | farthest | 0 |
| 9 | normal | 8 | most buttons | no overtake | farthest | 0 |
| 10 | normal | 10 | most buttons | largest | farthest | 0 |
| 11 | normal | 10 | most buttons | largest | farthest | 0 |
| 12 | normal | 0 | – | – | – | 5 |
| 13 | tactical | 1 | no overtake | most buttons | farthest | 5 |
| 14 | tactical | 1 | no overtake | largest | farthest | 4 |
| 15 | tactical | 3 | no overtake | most buttons | farthest | 4 |
| 16 | tactical | 3 | no overtake | largest | farthest | 3 |
| 17 | tactical | 4 | no overtake | most buttons | farthest | 1 |
| 18 | tactical | 4 | no overtake | largest | farthest | 1 |
| 19 | tactical | 6 | no overtake | largest | farthest | 0 |
| 20 | tactical | 6 | most buttons | largest | farthest | 0 |
| 21 | tactical | 8 | largest | most buttons | farthest | 0 |
| 22 | tactical | 8 | most buttons | largest | farthest | 0 |
| 23 | tactical | 10 | most buttons | no overtake | farthest | 0 |
| 24 | tactical | 10 | largest | most buttons | farthest | 0 |
"""


def test_every_automa_card_is_the_rulebook_one():
    for row in AUTOMA_CARDS.strip().splitlines():
        number, deck, virtual, *filters, income = (
            cell.strip() for cell in row.strip("|").split("|")
        )
        card = CARD_BY_NUMBER[int(number)]
        assert card in DECKS[Deck(deck)].cards, number
        expected = (int(virtual), tuple(Filter(f) for f in filters if f != "–"), int(income))
        assert (card.virtual_buttons, card.filters, card.income) == expected, number
    assert len(CARD_BY_NUMBER) == 24
    assert DECK_CARDS[Deck.NORMAL] == tuple(range(1, 13))
    assert DECK_CARDS[Deck.TACTICAL] == tuple(range(13, 25))


def test_difficulty_marks():
    # docs/RULES.md §4 set-up table: the mark is this many squares before 53.
    marks = {name: level.bonus_mark for name, level in DIFFICULTY_BY_NAME.items()}
    assert marks == {"intern": 52, "apprentice": 44, "fellow": 41, "master": 38, "legend": 35}
