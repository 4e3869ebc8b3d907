"""What an undo takes back and the reverse steps for the table, worked out by hand.

Each expectation is read from the rules: RULES.md §3 (a buy moves the neutral
token to the patch's place and the circle goes on from there; the token behind
moves, and of two on one square the one on top; crossing income marks and
leather patches), §4 (the Automa's card, income, piles, its 7×7 mark, the
reshuffle of the whole discard pile) and the patch table of §2.
"""

from helpers import place, solo_game, two_player_game

from companion.engine.actions import ADVANCE, AUTOMA_TURN, Adjust, Buy, ClaimBonus
from companion.engine.automa import DECK_CARDS, Deck
from companion.engine.undo_steps import (
    MoveTokenBack,
    RefundCost,
    ReturnBonus,
    ReturnButtons,
    ReturnCard,
    ReturnLeather,
    ReturnNeutralToken,
    ReturnPatch,
    UndoCorrection,
    UndoReshuffle,
    plan_undo,
    replan_undo,
    undo_count,
)


def buy_and_automa_take():
    """The issue's case: the player on 19 (5 buttons) buys P21, the 2nd patch between
    P05 and P13; the Automa on 20 then takes P08 with card 2.

    P21: cost 5, time 3 -> the player pays all 5 buttons and goes 19 -> 22 (no mark:
    17 and 23; the leather at 20 is already gone). The circle goes on from P13:
    P13 P08 P04 ... P00 P05. Card 2: 2 virtual buttons, affordable P08 (cost 2) and
    P04 (cost 1), not P13 (3); no overtake keeps P08 (20 + 2 = 22 <= 22), not P04
    (20 + 3 = 23). So the Automa takes P08, 2nd place, between P13 and P04, and goes
    20 -> 22: no mark crossed, so card 2's income (4) is not paid.
    """
    game = solo_game("P05", "P21", "P13", "P08", "P04", cards=(2,))
    game.leather_left = (26, 32, 44, 50)
    place(game, "automa", 20)
    place(game, "player", 19, buttons=5)
    game.push(Buy(1))
    game.push(AUTOMA_TURN)
    return game


def test_a_buy_and_the_automa_take_after_it_are_reversed_last_first():
    game = buy_and_automa_take()
    plan = plan_undo(game)
    assert plan.automa_turns == 1
    automa, player = plan.undone
    assert automa.steps == (
        ReturnPatch("automa", "P08", "P13", "P04", pile="without buttons"),
        ReturnNeutralToken("P13"),
        # The player was on 22 then: the Automa's 20 is not its square.
        MoveTokenBack("automa", 22, 20, on_top=False),
        ReturnCard(2),
    )
    assert player.steps == (
        # It goes back where the neutral token stands once P08 is back: P05 | P13.
        ReturnPatch("player", "P21", "P05", "P13"),
        RefundCost("player", "P21", 5),
        ReturnNeutralToken("P05"),
        MoveTokenBack("player", 22, 19, on_top=False),
    )
    assert (player.patch_id, automa.patch_id) == ("P21", "P08")


def test_planning_leaves_the_game_as_it_was_and_the_undo_reaches_the_table_before():
    game = buy_and_automa_take()
    state = game.state()
    plan = plan_undo(game)
    assert game.state() == state
    for _ in plan.undone:
        game.pop()
    # The table the reverse steps lead to: P21 back second, the player on 19 with 5.
    assert game.circle[:3] == ("P05", "P21", "P13")
    assert (game.sides["player"].position, game.sides["player"].buttons) == (19, 5)
    assert game.sides["automa"].position == 20
    assert game.next_card == 2


def test_an_advance_returns_its_buttons_income_and_leather_the_last_mark_first():
    # P1 on 18 with income 3, P2 on 24: the advance goes to 25, +7 buttons, crossing
    # the leather at 20 (taken) and the income mark 23 (+3).
    game = two_player_game()
    place(game, "p2", 24)
    place(game, "p1", 18)
    game.sides["p1"].income = 3
    game.push(ADVANCE)
    assert plan_undo(game).person.steps == (
        MoveTokenBack("p1", 25, 18, on_top=False),
        ReturnButtons("p1", 7, "advance"),
        ReturnButtons("p1", 3, "income", 23),
        ReturnLeather("p1", 20),
    )


def test_a_token_going_back_to_the_other_tokens_square_goes_on_top():
    # The start: both tokens on 0, P1's on top (it starts). P1 advances to 1 (+1).
    game = two_player_game()
    game.push(ADVANCE)
    assert plan_undo(game).person.steps[0] == MoveTokenBack("p1", 1, 0, on_top=True)


def correction_and_automa_pass():
    """Legend: the Automa's mark is 35. Its last card, 12 (0 virtual buttons, income
    5), is drawn with 11 discarded: the turn empties the draw pile and the whole
    discard pile is reshuffled. The player on 36 (5 buttons) makes a correction (+1);
    then the Automa on 30 passes to 37, crossing the leather at 32, the income mark
    35 (+5) and its 7x7 mark 35 (the tile is free)."""
    game = solo_game("P10", "P17", "P02", difficulty="legend")
    game.draw_pile = (12,)
    game.discard_pile = tuple(card for card in DECK_CARDS[Deck.NORMAL] if card != 12)
    place(game, "player", 36)
    place(game, "automa", 30)
    game.push(Adjust("player", 1))
    game.push(AUTOMA_TURN)
    return game


def test_the_automa_gives_back_its_income_leather_tile_and_card_and_the_reshuffle_is_undone():
    automa, correction = plan_undo(correction_and_automa_pass()).undone
    assert automa.steps == (
        MoveTokenBack("automa", 37, 30, on_top=False),
        # On the way back it meets 35 first (the tile, the income), then 32.
        ReturnBonus("automa"),
        ReturnButtons("automa", 5, "income", 35),
        ReturnLeather("automa", 32),
        UndoReshuffle((12,), 11),
        ReturnCard(12),
    )
    # The player had 5 buttons, 6 after the correction: back to 5.
    assert correction.steps == (UndoCorrection("player", 1, 5),)
    assert correction.side == "player"


def test_a_leather_patch_put_in_the_box_comes_back_to_the_track():
    # A full quilt crossing the leather at 26 could not place it: it was discarded.
    game = two_player_game()
    place(game, "p2", 26)
    place(game, "p1", 24)
    game.sides["p1"].covered = 81
    game.push(ADVANCE)
    assert ReturnLeather("p1", 26, discarded=True) in plan_undo(game).person.steps


def test_the_tile_a_full_quilt_took_goes_back_with_the_buy():
    # P10 (cost 2, time 2, 5 squares) on 76 covered squares: 81, the free tile with it.
    # The circle is P10 P01 ... P00: P10 goes back between P00 and P01. P1 started
    # on 0 on top of P2's token, so its token goes back on top.
    game = two_player_game("P10", "P01")
    game.sides["p1"].covered = 76
    game.push(Buy(0))
    assert plan_undo(game).person.steps == (
        ReturnPatch("p1", "P10", "P00", "P01"),
        RefundCost("p1", "P10", 2),
        ReturnNeutralToken("P10"),
        MoveTokenBack("p1", 2, 0, on_top=True),
        ReturnBonus("p1", full_quilt=True),
    )


def test_the_tile_a_bought_patch_took_goes_back_after_what_the_move_met():
    # P1 on 4 with income 3 and 76 squares covered buys P10 (cost 2, time 2, 5 squares):
    # 81, the free tile with the patch; 4 -> 6 crosses the income mark 5 (+3). The tile
    # came with the patch, not on the way: the token goes back, the income goes back,
    # then the tile, as with a claim.
    game = two_player_game("P10", "P01")
    place(game, "p2", 10)
    place(game, "p1", 4)
    game.sides["p1"].covered, game.sides["p1"].income = 76, 3
    game.push(Buy(0))
    assert plan_undo(game).person.steps == (
        ReturnPatch("p1", "P10", "P00", "P01"),
        RefundCost("p1", "P10", 2),
        ReturnNeutralToken("P10"),
        MoveTokenBack("p1", 6, 4, on_top=False),
        ReturnButtons("p1", 3, "income", 5),
        ReturnBonus("p1", full_quilt=True),
    )


def test_the_tile_a_leather_patch_took_goes_back_before_the_leather():
    # P1 on 18 with 80 covered advances to 21 (P2 on 20): +3 buttons, and the leather
    # at 20 fills the quilt, the tile with it. Going back, the tile first, then the
    # leather that brought it.
    game = two_player_game()
    place(game, "p2", 20)
    place(game, "p1", 18)
    game.sides["p1"].covered = 80
    game.push(ADVANCE)
    assert plan_undo(game).person.steps == (
        MoveTokenBack("p1", 21, 18, on_top=False),
        ReturnButtons("p1", 3, "advance"),
        ReturnBonus("p1", full_quilt=True),
        ReturnLeather("p1", 20),
    )


def test_the_tile_the_automa_took_at_its_mark_goes_back_as_its_token_does():
    # Legend: the mark is 35. After the player's correction, the Automa on 33 draws
    # card 12 (0 virtual buttons: P10, P17 and P02 all cost more) and passes to 36, in
    # front of the player on 35, crossing the income mark 35 (card 12's income, 5) and
    # its mark 35, with no leather on the way. Going back it meets 35: the tile, then
    # the income, both before the card goes back.
    game = solo_game("P10", "P17", "P02", cards=(12, 1), difficulty="legend")
    game.leather_left = ()
    place(game, "player", 35)
    place(game, "automa", 33)
    game.push(Adjust("player", 1))
    game.push(AUTOMA_TURN)
    automa, _ = plan_undo(game).undone
    assert automa.steps == (
        MoveTokenBack("automa", 36, 33, on_top=False),
        ReturnBonus("automa"),
        ReturnButtons("automa", 5, "income", 35),
        ReturnCard(12),
    )


def test_a_claim_is_taken_back_alone():
    game = two_player_game()
    game.sides["p2"].covered = 50
    game.push(ClaimBonus("p2"))
    plan = plan_undo(game)
    assert (plan.person.side, plan.person.steps) == ("p2", (ReturnBonus("p2"),))


def test_with_two_patches_left_the_patch_goes_back_next_to_the_other():
    game = two_player_game()
    game.circle = ("P10", "P02")
    game.push(Buy(0))
    assert plan_undo(game).person.steps[0] == ReturnPatch("p1", "P10", "P02", "P02")


def test_the_last_patch_of_the_circle_goes_back_alone():
    # P10 (cost 2, time 2) is the only patch left: bought, it leaves the circle empty,
    # so it goes back with no neighbour, where the neutral token stands. P1 started on
    # 0 on top of P2's token, so its token goes back 2 -> 0 on top.
    game = two_player_game()
    game.circle = ("P10",)
    game.push(Buy(0))
    assert plan_undo(game).person.steps == (
        ReturnPatch("p1", "P10", None, None),
        RefundCost("p1", "P10", 2),
        ReturnNeutralToken("P10"),
        MoveTokenBack("p1", 2, 0, on_top=True),
    )


def test_a_free_patch_refunds_nothing():
    # P01 costs 0: nothing was paid, nothing comes back.
    game = two_player_game("P01")
    game.push(Buy(0))
    steps = plan_undo(game).person.steps
    assert not any(isinstance(step, RefundCost) for step in steps)


def test_one_undo_takes_the_last_persons_action_and_every_automa_turn_after_it():
    assert undo_count([ADVANCE, ADVANCE, AUTOMA_TURN, AUTOMA_TURN]) == 3
    assert undo_count([ADVANCE, Adjust("player", 2)]) == 1
    assert undo_count([AUTOMA_TURN, AUTOMA_TURN]) == 0
    assert plan_undo(solo_game()) is None


def test_an_undo_is_planned_again_from_the_actions_it_took_back():
    game = buy_and_automa_take()
    plan = plan_undo(game)
    for _ in plan.undone:
        game.pop()
    state = game.state()
    assert replan_undo(game, [Buy(1), AUTOMA_TURN]) == plan
    assert game.state() == state
    # Actions that cannot be played from here give no plan: it is the player's turn,
    # not the Automa's; after the buy it is the Automa's, not the player's.
    assert replan_undo(game, [AUTOMA_TURN]) is None
    assert replan_undo(game, [Buy(1), ADVANCE]) is None
    # Undos in a row, their reverse steps still due, plan as one: the last action first.
    joined = replan_undo(game, [Adjust("player", 1), Buy(1), AUTOMA_TURN])
    assert [undone.action for undone in joined.undone] == [AUTOMA_TURN, Buy(1), Adjust("player", 1)]
    assert game.state() == state
    # No undo takes back an Automa turn without the person's action before it, even when
    # it is the Automa's turn and the Automa's turn could be played.
    game.push(Buy(1))
    assert replan_undo(game, [AUTOMA_TURN]) is None
