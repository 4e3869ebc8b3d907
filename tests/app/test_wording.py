"""The steps for the table, worded for the screen (expected texts written by hand)."""

from helpers import place, solo_game, two_player_game

from companion.app.wording import (
    AutomaSummary,
    automa_summary,
    choice_line,
    player_cards,
    side_label,
)
from companion.engine.actions import ADVANCE, AUTOMA_TURN, Adjust, Buy
from companion.text.font import BUTTON
from companion.views import OpenMenu, TurnLine


def test_buying_is_one_card_with_income_the_neutral_token_and_the_turns_own_line():
    # p1 buys P17 (3 buttons, 6 time, 2 buttons on it): 0 -> 6 crosses income mark 5,
    # which pays the 2 buttons on P17. Read top down: the turn's "Buy" line, ticked,
    # then the neutral token, then the income the move crossed.
    game = two_player_game("P10", "P17", "P03")
    cards = player_cards(game.push(Buy(1)))
    assert len(cards) == 1
    assert cards[0].lines == (
        f"\u2713 Buy P17: pay 3{BUTTON}, to 6",
        "Neutral there",
        f"Income at 5: take 2{BUTTON}",
    )


def test_several_income_marks_are_added_up():
    # p1 has 3 buttons on its patches and advances 4 -> 12, crossing marks 5 and 11:
    # 8 buttons for the squares, then 3 + 3 income. Where the token goes is the ticked
    # line's "to 12": no line of its own.
    game = two_player_game()
    game.sides["p1"].income = 3
    place(game, "p2", 11)
    place(game, "p1", 4)
    (card,) = player_cards(game.push(ADVANCE))
    assert card.lines == (
        f"\u2713 Advance to 12, +8{BUTTON}",
        f"Income at 5 and 11: take 6{BUTTON}",
    )
    # Said short, for a screen with room beside the line before it.
    assert card.aside == f"+6{BUTTON} income"


def test_advance_card_then_leather():
    game = two_player_game()
    place(game, "p2", 21)
    place(game, "p1", 19)
    cards = player_cards(game.push(ADVANCE))  # 19 -> 22: 3 buttons, leather 20
    assert cards[0].lines == (f"\u2713 Advance to 22, +3{BUTTON}",)
    assert cards[0].aside == ""  # no mark crossed: no income
    assert cards[1].lines == ("Leather patch at 20", "Take it and place it")


def test_an_advance_onto_the_other_token_says_it_lands_on_top():
    # p2 has reached the end, 53; p1 on 51 advances to 53 too (no square in front),
    # on top of p2's token: 2 buttons, and the mark on 53 pays p1's income of 1.
    game = two_player_game()
    game.sides["p1"].income = 1
    place(game, "p2", 53)
    place(game, "p1", 51)
    cards = player_cards(game.push(ADVANCE))
    assert cards[0].lines == (
        f"\u2713 Advance to 53, +2{BUTTON}",
        "Player 1: 51 \u2192 53, on top",
        f"Income at 53: take 1{BUTTON}",
    )


def test_a_buy_onto_the_other_token_says_the_buyers_token_lands_on_top():
    # p2 is on 8; p1 on 6 buys P10 (2 buttons, 2 time): 6 -> 8, the other token's
    # square, so p1's token goes on top (RULES.md section 3) and p1 plays again. The
    # neutral token only goes to P10's place: "on top" is said of the buyer's token.
    game = two_player_game("P10", "P17", "P03")
    place(game, "p2", 8)
    place(game, "p1", 6)
    cards = player_cards(game.push(Buy(0)))
    assert cards[0].lines == (
        f"\u2713 Buy P10: pay 2{BUTTON}, to 8",
        "Neutral there, yours on top",
    )


def test_a_correction_is_worded_as_a_correction():
    game = solo_game("P07", "P13", "P10")
    game.push(Buy(0))  # player 0 -> 1, pays P07's 2 of the 5 buttons of the set-up
    game.push(AUTOMA_TURN)
    cards = player_cards(game.push(Adjust("player", -1)))
    # The count was wrong on the device: nothing to take from or put in the bank.
    assert cards[0].lines == ("Corrected: -1 button", "Your buttons: 3 \u2192 2")


def card_12_pass(automa: int, player: int, difficulty: str = "fellow") -> AutomaSummary:
    """The Automa's turn on card 12 (0 virtual buttons, income 5) with no P01 on offer:
    it can pay for nothing and passes to the square in front of the player."""
    game = solo_game("P10", "P17", "P03", cards=(12,), difficulty=difficulty)
    place(game, "automa", automa)
    place(game, "player", player)
    return automa_summary(game.push(AUTOMA_TURN))


def test_automa_pass_summary():
    # From 0 to the square in front of the player on 12, crossing income marks 5 and 11.
    summary = card_12_pass(0, 12)
    assert summary.headline == f"Card 12, 0{BUTTON}: passes"
    assert summary.reason == f"Nothing costs 0{BUTTON} or less"
    assert summary.filters == ()  # card 12 has none, and nothing was affordable
    assert summary.steps == (f"Token 0 \u2192 13, +10{BUTTON} income",)
    assert summary.patch_id is None


def test_a_pass_over_no_income_mark_says_it_gains_no_buttons():
    # From 12 to 15, in front of the player on 14, over no income mark (11 behind, 17
    # ahead). A pass takes no button a square.
    summary = card_12_pass(12, 14)
    assert summary.steps == (f"Token 12 \u2192 15, no {BUTTON}",)


def test_automa_take_summary_says_what_each_filter_of_the_card_did():
    # Card 7 (7 virtual buttons: most buttons / largest / farthest): P24 (6: 2 buttons),
    # P28 (7: 3 buttons), P08 (2: none): most buttons leaves P28, the 2nd patch; the
    # other two filters are never looked at.
    game = solo_game("P24", "P28", "P08", cards=(7,))
    game.push(ADVANCE)  # player 0 -> 1
    summary = automa_summary(game.push(AUTOMA_TURN))
    assert summary.headline == f"Card 7, 7{BUTTON}: takes P28 (2nd)"
    assert summary.filters == (
        "most buttons: 1 left",
        "largest: not needed",
        "farthest: not needed",
    )
    assert summary.reason == "3 affordable"
    # P28 takes 6 time: 0 -> 6 crosses 5 with card 7's income 0: nothing to take.
    assert summary.steps == (f"Pile with {BUTTON}; neutral there", "Token 0 \u2192 6")


def test_automa_filters_say_skipped_and_narrowed_in_the_card_s_order():
    # Card 5 (5 vb: no overtake, most buttons, farthest); P12 (cost 2, time 3, 1
    # button), P14 (3, 2, 1), P10 (2, 2, 0). Automa on 10, player on 11: each patch
    # overtakes (skipped); most buttons drops P10 (2 left); farthest takes P14, 2nd.
    game = solo_game("P12", "P14", "P10", cards=(5,))
    place(game, "automa", 10)
    place(game, "player", 11)
    summary = automa_summary(game.push(AUTOMA_TURN))
    assert summary.headline == f"Card 5, 5{BUTTON}: takes P14 (2nd)"
    assert summary.filters == (
        "no overtake: skipped",
        "most buttons: 2 left",
        "farthest: 1 left",
    )


def test_a_leather_patch_the_automa_crosses_goes_to_its_pile_in_words():
    # From 18 to 23, in front of the player on 22, crossing the leather patch on 20
    # and the income mark on 23.
    summary = card_12_pass(18, 22)
    assert summary.steps == (
        f"Token 18 \u2192 23, +5{BUTTON} income",
        "Leather 20 to Automa's pile",
    )


def test_the_tile_shares_the_last_leather_line_when_a_pass_crosses_several():
    # Apprentice (7x7 mark 44): from 30 to 51, in front of the player on 50, crossing
    # the leather patches on 32, 44 and 50, the income marks 35, 41 and 47 (3 x 5) and
    # the mark. Every leather patch keeps its line; the tile joins the last one.
    summary = card_12_pass(30, 50, "apprentice")
    assert summary.steps == (
        f"Token 30 \u2192 51, +15{BUTTON} income",
        "Leather 32 to Automa's pile",
        "Leather 44 to Automa's pile",
        "Leather 50, 7x7 tile to Automa",
    )


def test_two_player_sides_are_named_players_never_like_patches():
    assert [side_label(name) for name in ("p1", "p2", "player", "automa")] == [
        "Player 1",
        "Player 2",
        "You",
        "Automa",
    ]
    game = two_player_game()
    (card,) = player_cards(game.push(Adjust("p2", 2)))  # p2's 5 buttons were 7
    assert card.lines[1] == "Player 2's buttons: 5 \u2192 7"


def test_a_turn_line_carries_its_mark_apart_from_its_words():
    # p1 has 5 buttons: P32 (10 buttons) is refused, P17 (3 buttons, 6 time) is bought to
    # square 6; advancing goes one past p2 on 0, for 1 button. No line starts with a sign:
    # the screen draws the mark from `mark`.
    game = two_player_game("P32", "P17", "P03")
    lines = [choice_line(game, "p1", choice) for choice in (Buy(0), Buy(1), ADVANCE, OpenMenu())]
    assert lines == [
        TurnLine("refused", f"P32: can't afford, 10{BUTTON} > 5{BUTTON}"),
        TurnLine("press", f"Buy P17: pay 3{BUTTON}, to 6"),
        TurnLine("press", f"Advance to 1, +1{BUTTON}"),
        TurnLine("press", "Menu"),
    ]
