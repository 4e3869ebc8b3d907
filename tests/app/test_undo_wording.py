"""The undo's question and its reverse-step cards, worded from the engine's plan.

The games are those of tests/test_undo_steps.py, worked out by hand there.
"""

import pytest
from helpers import place, solo_game, two_player_game
from test_undo_steps import buy_and_automa_take, correction_and_automa_pass

from companion.app.play import board_view
from companion.app.undo_wording import undo_cards, undo_prompt_lines
from companion.engine.actions import ADVANCE, AUTOMA_TURN, Adjust, Buy, ClaimBonus
from companion.engine.undo_steps import plan_undo
from companion.render.screens import render_canvas
from companion.text.font import ARROW_TO, BUTTON
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.views import StepView


def test_the_question_names_the_buy_and_the_automa_turn_after_it():
    plan = plan_undo(buy_and_automa_take())
    assert undo_prompt_lines(plan) == ("Take back:", "Your P21 buy, and the Automa's turn after it")


def test_the_question_counts_several_automa_turns():
    # The player on 10 corrects its buttons; the Automa on 5 is behind. Card 2 (2
    # buttons): P10 (cost 2) and P02 (1) affordable, both no overtake (time 2: 7 <= 10),
    # both 0 buttons, farthest: P02, 5 -> 7, still behind. Card 12 (0 buttons):
    # nothing on offer (P18 P26 P30) costs 0, it passes to 11. Two turns.
    game = solo_game("P10", "P17", "P02", "P18", "P26", "P30", cards=(2, 12))
    place(game, "automa", 5)
    place(game, "player", 10)
    game.push(Adjust("player", 1))
    game.push(AUTOMA_TURN)
    game.push(AUTOMA_TURN)
    assert game.turn == "player"
    plan = plan_undo(game)
    assert undo_prompt_lines(plan)[1] == (
        f"Your correction, +1{BUTTON}, and the Automa's 2 turns after it"
    )


def test_two_player_questions_never_mention_the_automa():
    game = two_player_game("P10", "P01")
    game.push(Buy(0))  # P1
    game.push(ADVANCE)  # P2
    game.sides["p1"].covered = 50
    game.push(ClaimBonus("p1"))
    game.push(Adjust("p2", 3))
    questions = []
    while (plan := plan_undo(game)) is not None:
        questions.append(" ".join(undo_prompt_lines(plan)))
        assert plan.automa_turns == 0
        for _ in plan.undone:
            game.pop()
    assert len(questions) == 4
    assert not any("automa" in question.lower() for question in questions)


def test_the_reverse_cards_of_a_buy_and_the_automa_take_after_it():
    cards = [card.lines for card in undo_cards(plan_undo(buy_and_automa_take()))]
    assert cards == [
        # P08 shows no buttons (RULES.md §2): the Automa put it on its pile without.
        (f"Pile without {BUTTON}: P08 back", "between P13 and P04;", "neutral token before P13"),
        # Its card goes back on the deck the companion holds: nothing to do for it.
        (f"Automa's token 22 {ARROW_TO} 20",),
        ("Your P21: put it back", "between P05 and P13;", "neutral token before P05"),
        (f"Your token 22 {ARROW_TO} 19", f"Take 5{BUTTON} back from the bank"),
    ]


def automa_takes_p01():
    """Both tokens on 0, the circle P10 P01 P03: the player advances to 1 (+1 button);
    the Automa, behind, draws card 12 (0 virtual buttons, no filters): only P01 costs
    0, so it takes P01, the 2nd patch, between P10 and P03, and goes 0 -> 3."""
    game = solo_game("P10", "P01", "P03", cards=(12,))
    game.push(ADVANCE)
    game.push(AUTOMA_TURN)
    assert game.turn == "player"
    return game


def test_the_automa_patch_goes_back_from_the_pile_its_buttons_put_it_on():
    # P01 shows 1 button (RULES.md §2): it lay on the Automa's pile with buttons.
    first, *_ = undo_cards(plan_undo(automa_takes_p01()))
    assert first.lines == (
        f"Pile with {BUTTON}: P01 back",
        "between P10 and P03;",
        "neutral token before P10",
    )


@pytest.mark.parametrize("language", sorted(LANGUAGE_NAMES))
def test_the_pile_card_fits_the_strip_in_every_language(language):
    # The widest first row: a two-digit count at its right.
    words = words_for(language)
    for game in (buy_and_automa_take(), automa_takes_p01()):
        card = undo_cards(plan_undo(game), words)[0]
        board = board_view(game, game.turn, words)
        canvas = render_canvas(StepView(board, card.lines, 10, 10))
        assert canvas.overflows == [], card.lines


def test_the_reverse_cards_of_an_automa_pass_with_income_leather_tile_and_reshuffle():
    # The Automa passes 30 -> 37 with card 12 (income 5), crossing the leather at 32
    # and 35 (income, its 7x7 mark), and reshuffles; the player had corrected +1.
    plan = plan_undo(correction_and_automa_pass())
    assert (
        undo_prompt_lines(plan)[1] == f"Your correction, +1{BUTTON}, and the Automa's turn after it"
    )
    assert [card.lines for card in undo_cards(plan)] == [
        (f"Automa's token 37 {ARROW_TO} 30", f"Put 5{BUTTON} income back"),
        ("Automa: 7x7 tile back", "It is free again"),
        ("Automa: leather patch", "back to the track at 32"),
        (f"Correction +1{BUTTON} undone", f"Your buttons: 6 {ARROW_TO} 5"),
    ]


def player_cards_after_advance(player: int, automa: int, covered: int = 0):
    """The player's reverse cards of an advance from `player` with income 3, the
    Automa on `automa` (and its turns after it)."""
    game = solo_game()
    place(game, "automa", automa)
    place(game, "player", player)
    game.sides["player"].covered = covered
    game.sides["player"].income = 3
    game.push(ADVANCE)
    while game.turn == "automa":
        game.push(AUTOMA_TURN)
    return [card.lines for card in undo_cards(plan_undo(game))][-2:]


def test_an_advance_with_income_puts_back_both():
    # The player on 18, the Automa on 24: to 25, +7, income 3 at 23, and the leather
    # at 20 taken.
    assert player_cards_after_advance(18, 24) == [
        (
            f"Your token 25 {ARROW_TO} 18",
            f"Put 7{BUTTON} back in the bank",
            f"Put 3{BUTTON} income back",
        ),
        ("You: leather patch", "back to the track at 20"),
    ]


def test_a_leather_patch_discarded_by_a_full_quilt_comes_out_of_the_box():
    # The player on 24 with a full quilt, the Automa on 26: the advance goes to 27
    # (+3), crossing the leather at 26 (discarded: no room) and no income mark (23 is
    # behind, 29 ahead), so only the advance's buttons go back.
    assert player_cards_after_advance(24, 26, covered=81) == [
        (f"Your token 27 {ARROW_TO} 24", f"Put 3{BUTTON} back in the bank"),
        ("Leather patch out of the box,", "back to the track at 26"),
    ]


def test_a_token_card_of_more_than_three_lines_is_split_and_the_token_goes_on_top():
    # Both tokens on 21, the player's on top (its turn), income 2. It buys P10 (cost 2,
    # time 2): 21 -> 23, crossing the mark 23 (+2). Undone: its token back on 21 on top
    # of the Automa's, the 2 paid taken back, the 2 income put back: four lines, so the
    # last goes on a card of its own (the strip has three rows).
    game = solo_game("P10", "P17", "P02")
    place(game, "automa", 21)
    place(game, "player", 21, buttons=5)
    game.sides["player"].income = 2
    game.push(Buy(0))
    while game.turn == "automa":
        game.push(AUTOMA_TURN)
    token_cards = [card.lines for card in undo_cards(plan_undo(game))[-2:]]
    assert token_cards == [
        (
            f"Your token 23 {ARROW_TO} 21",
            "on top of the other token",
            f"Take 2{BUTTON} back from the bank",
        ),
        (f"Put 2{BUTTON} income back",),
    ]
