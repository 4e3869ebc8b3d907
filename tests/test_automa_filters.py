"""The Automa's decision (docs/RULES.md §4 "The Automa's turn" step 2 and "The filters")."""

from companion.engine.automa import CARD_BY_NUMBER, Filter, FilterStep, choose_patch
from companion.engine.catalogue import PATCH_BY_ID


def offer(*ids):
    return tuple(PATCH_BY_ID[i] for i in ids)


def test_no_overtake_keeps_patches_not_passing_the_player():
    # Card 5: 5 vb, no overtake / most buttons / farthest. Automa on 10, player on 14.
    # P16 (3, time 4 -> 14: lands on the player, not overtaking), P06 (1, time 5 -> 15),
    # P22 (5, time 4 -> 14). No overtake keeps P16 and P22; most buttons: P16 has 1,
    # P22 has 2 -> P22 (index 2).
    decision = choose_patch(CARD_BY_NUMBER[5], offer("P16", "P06", "P22"), 10, 14)
    assert decision.affordable == (0, 1, 2)
    assert decision.steps == (
        FilterStep(Filter.NO_OVERTAKE, (0, 2), False),
        FilterStep(Filter.MOST_BUTTONS, (2,), False),
    )
    assert decision.chosen == 2


def test_no_overtake_decides_alone():
    # Card 4: 4 vb, no overtake / largest / farthest. Automa 0, player 3.
    # P04 (1, time 3 -> 3) kept; P16 (3, time 4 -> 4) overtakes; P19 (4, time 2 -> 2) kept.
    # Then largest: P04 3 squares, P19 4 squares -> P19.
    decision = choose_patch(CARD_BY_NUMBER[4], offer("P04", "P16", "P19"), 0, 3)
    assert [s.kept for s in decision.steps] == [(0, 2), (2,)]
    assert decision.chosen == 2


def test_no_overtake_counts_a_move_cut_at_53_as_landing_there():
    # Card 5: 5 vb, no overtake / most buttons / farthest. Automa on 51, player on 53.
    # P13 (cost 3, time 1 -> 52, 0 buttons), P15 (cost 3, time 3 -> 54, cut to 53: on
    # the player's square, not overtaking; 1 button), P08 (cost 2, time 2 -> 53,
    # 0 buttons). No overtake keeps all three; most buttons: P15 (index 1).
    decision = choose_patch(CARD_BY_NUMBER[5], offer("P13", "P15", "P08"), 51, 53)
    assert decision.steps == (
        FilterStep(Filter.NO_OVERTAKE, (0, 1, 2), False),
        FilterStep(Filter.MOST_BUTTONS, (1,), False),
    )
    assert decision.chosen == 1


def test_a_filter_keeping_nothing_is_skipped():
    # Card 3: 3 vb. Automa 10, player 10: every patch moves it past the player.
    # No overtake keeps nothing -> skipped; largest: P02 5, P03 6, P10 5 -> P03.
    decision = choose_patch(CARD_BY_NUMBER[3], offer("P02", "P03", "P10"), 10, 10)
    assert decision.steps[0] == FilterStep(Filter.NO_OVERTAKE, (0, 1, 2), skipped=True)
    assert decision.steps[1] == FilterStep(Filter.LARGEST, (1,), False)
    assert decision.chosen == 1


def test_largest_decides():
    # Card 8: 8 vb, largest / most buttons / farthest: P21 (5, 8 squares) over P29 (8, 6).
    decision = choose_patch(CARD_BY_NUMBER[8], offer("P29", "P21", "P24"), 0, 0)
    assert decision.steps == (FilterStep(Filter.LARGEST, (1,), False),)
    assert decision.chosen == 1


def test_most_buttons_decides():
    # Card 7: 7 vb, most buttons first: P28 (7, 3 buttons) beats P24 (6, 2) and P08 (2, 0).
    decision = choose_patch(CARD_BY_NUMBER[7], offer("P24", "P28", "P08"), 0, 0)
    assert decision.chosen == 1
    assert len(decision.steps) == 1


def test_farthest_decides_among_ties():
    # Card 10: 10 vb, most buttons / largest / farthest. P14 and P28 share a shape
    # (4 squares) and P14 has 1 button, P28 3; use P22 and P23: both 2 buttons, both
    # 5 squares -> ties survive, farthest (index 2 over 0) decides.
    decision = choose_patch(CARD_BY_NUMBER[10], offer("P22", "P08", "P23"), 0, 0)
    assert [s.filter for s in decision.steps] == [
        Filter.MOST_BUTTONS,
        Filter.LARGEST,
        Filter.FARTHEST,
    ]
    assert decision.steps[1].kept == (0, 2)
    assert decision.chosen == 2


def test_most_buttons_with_no_buttons_anywhere_keeps_all():
    # Card 1: 1 vb, no overtake / most buttons / farthest. P02, P03, P04 cost 1, no
    # buttons. Automa 5, player 5: all overtake -> skipped; most buttons keeps all (0);
    # farthest -> index 2.
    decision = choose_patch(CARD_BY_NUMBER[1], offer("P02", "P03", "P04"), 5, 5)
    assert decision.steps[1] == FilterStep(Filter.MOST_BUTTONS, (0, 1, 2), False)
    assert decision.chosen == 2


def test_nothing_affordable_is_a_pass():
    decision = choose_patch(CARD_BY_NUMBER[2], offer("P30", "P31", "P32"), 0, 0)
    assert decision.affordable == () and decision.chosen is None


def test_short_offer_near_the_end_of_the_circle():
    decision = choose_patch(CARD_BY_NUMBER[11], offer("P30"), 0, 0)
    assert decision.chosen == 0 and decision.steps == ()
