"""One test per rule of docs/RULES.md, each worked out by hand from the section cited."""

import pytest
from helpers import place, solo_game, two_player_game

from companion.engine.actions import (
    ADVANCE,
    AUTOMA_TURN,
    Adjust,
    Buy,
    ClaimBonus,
    MoveNeutralToken,
    MoveToken,
    RevealCard,
    TakeBonus,
    TakeButtons,
    TakeLeather,
    TakePatch,
)
from companion.engine.errors import (
    BonusUnavailableError,
    GameOverError,
    InvalidAdjustmentError,
    NoSuchPatchError,
    NotYourTurnError,
    PatchDoesNotFitError,
    SetupError,
    UnaffordableError,
)
from companion.engine.game import ScoreLine
from companion.engine.setup import Mode, Setup
from companion.engine.summary import state_dict

# --- §3 set-up and whose turn -------------------------------------------------------


def test_setup_two_player_five_buttons_start_player_on_top():
    game = two_player_game(start="p2")
    assert [game.sides[s].buttons for s in ("p1", "p2")] == [5, 5]
    assert [game.sides[s].position for s in ("p1", "p2")] == [0, 0]
    assert game.turn == "p2"


def test_the_token_behind_moves_and_may_move_again():
    # §3 whose turn: p1 buys P07 (cost 2, time 1) to 1; p2 at 0 is behind and plays;
    # p2 buys P13 (cost 3, time 1) landing on 1 on top of p1, so p2 plays again.
    game = two_player_game("P07", "P13", "P10")
    game.push(Buy(0))
    assert game.turn == "p2"
    steps = game.push(Buy(0))
    assert MoveToken("p2", 0, 1, on_top=True) in steps
    assert game.turn == "p2"
    game.push(ADVANCE)  # p2 to 2, p1 behind
    assert game.turn == "p1"


# --- §3 action A: advance -------------------------------------------------------------


def test_advance_moves_in_front_of_opponent_and_pays_per_square():
    game = two_player_game()
    place(game, "p2", 8)
    place(game, "p1", 3)
    steps = game.push(ADVANCE)
    # 3 -> 9 is 6 squares: 6 buttons; crosses the mark at 5 with no patches: no income.
    assert game.sides["p1"].position == 9
    assert game.sides["p1"].buttons == 5 + 6
    assert steps == (MoveToken("p1", 3, 9, False), TakeButtons("p1", 6, "advance"))


def test_advance_is_cut_at_53_and_pays_only_squares_moved():
    # §3 end: p2 on 53, p1 on 50 advances to min(53, 54) = 53: 3 squares, 3 buttons.
    game = two_player_game()
    place(game, "p2", 53)
    game.finished = ("p2",)
    place(game, "p1", 50)
    game.leather_left = ()
    game.push(ADVANCE)
    assert game.sides["p1"].position == 53
    assert game.sides["p1"].buttons == 5 + 3
    assert game.is_over and game.turn is None


# --- §3 action B: buy ---------------------------------------------------------------


def test_buy_pays_moves_neutral_token_and_advances_by_time():
    # §3 B: offer P10, P17, P03; p1 buys P17 (index 1, cost 3, time 6).
    game = two_player_game("P10", "P17", "P03", "P25")
    steps = game.push(Buy(1))
    p1 = game.sides["p1"]
    assert (p1.position, p1.patches) == (6, ("P17",))
    # The neutral token goes to P17's place: the circle now starts at P03 and
    # P10 (skipped, counter-clockwise of it) is now at the far end, before... P00.
    assert game.circle[:2] == ("P03", "P25")
    assert game.circle[-2:] == ("P00", "P10")
    assert steps[:3] == (
        TakePatch("p1", "P17", 1, 3),
        MoveNeutralToken("P17"),
        MoveToken("p1", 0, 6, False),
    )
    # Crossing 5 pays the buttons on the quilt, P17's 2 included (placed before moving).
    assert steps[3:] == (TakeButtons("p1", 2, "income", 5),)
    assert p1.buttons == 5 - 3 + 2


def test_only_three_patches_are_on_offer():
    game = two_player_game("P10", "P17", "P03")
    with pytest.raises(NoSuchPatchError, match="index 3"):
        game.push(Buy(3))


def test_fewer_than_three_patches_left_in_circle():
    game = two_player_game("P01", "P02")
    game.circle = ("P01", "P02")
    assert [p.id for p in game.offer] == ["P01", "P02"]
    assert Buy(2) not in game.legal_actions()
    with pytest.raises(NoSuchPatchError):
        game.push(Buy(2))
    game.push(Buy(1))  # P02: the circle goes on from its place: only P01 is left
    assert game.circle == ("P01",)


def test_unaffordable_patch_is_refused_and_game_unchanged():
    game = two_player_game("P32", "P01", "P02")  # P32 costs 10, p1 has 5
    before = game.state()
    assert Buy(0) not in game.legal_actions()
    with pytest.raises(UnaffordableError, match="P32 costs 10"):
        game.push(Buy(0))
    assert game.state() == before and game.move_stack == []


def test_patch_that_cannot_fit_on_the_quilt_is_refused():
    # §3 B: no overlap; with 4 empty squares a 6-square patch cannot be placed.
    game = two_player_game("P03")
    game.sides["p1"].covered = 77
    with pytest.raises(PatchDoesNotFitError):
        game.push(Buy(0))


# --- §1 marks on the track ------------------------------------------------------------


def test_several_income_marks_in_one_move_each_pay():
    # §1: moving 4 -> 12 crosses 5 and 11; p1 has 3 buttons on its patches.
    game = two_player_game("P08")  # P08: cost 2, time 2, no buttons
    game.sides["p1"].income = 3
    place(game, "p2", 11)
    place(game, "p1", 4)
    steps = game.push(ADVANCE)  # to 12: 8 squares
    assert steps[1:] == (
        TakeButtons("p1", 8, "advance"),
        TakeButtons("p1", 3, "income", 5),
        TakeButtons("p1", 3, "income", 11),
    )
    assert game.sides["p1"].buttons == 5 + 8 + 3 + 3


def test_leather_patch_goes_to_the_first_to_cross_it_then_is_gone():
    game = two_player_game()
    place(game, "p2", 22)
    place(game, "p1", 19)
    steps = game.push(ADVANCE)  # p1 19 -> 23 crosses the leather at 20
    assert TakeLeather("p1", 20) in steps
    assert game.sides["p1"].leather == 1 and game.sides["p1"].covered == 1
    assert 20 not in game.leather_left
    game.push(ADVANCE)  # p2 22 -> 24: the leather at 20 is behind; nothing
    place(game, "p2", 18)
    steps = game.push(ADVANCE)  # p2 18 -> 24 crosses 20 again: it is gone
    assert not any(isinstance(s, TakeLeather) for s in steps)
    assert game.sides["p2"].leather == 0


def test_landing_on_a_mark_counts_and_leaving_it_does_not():
    game = two_player_game()
    place(game, "p2", 19)
    place(game, "p1", 18)
    steps = game.push(ADVANCE)  # 18 -> 20: lands on the leather at 20
    assert TakeLeather("p1", 20) in steps


# --- §3 end and score ----------------------------------------------------------------


def test_rulebook_scoring_examples():
    # §3: 14 buttons, the bonus tile and 5 empty squares score 14 + 7 - 10 = 11;
    # 18 buttons and 2 empty squares score 18 - 4 = 14.
    game = two_player_game()
    p1, p2 = game.sides["p1"], game.sides["p2"]
    p1.buttons, p1.covered, game.bonus_holder = 14, 76, "p1"
    p2.buttons, p2.covered = 18, 79
    assert game.score("p1") == 11
    assert game.score("p2") == 14
    assert game.score_lines("p1") == (
        ScoreLine("buttons", 14, 14),
        ScoreLine("bonus tile", 1, 7),
        ScoreLine("empty squares", 5, -10),
    )


def test_scores_can_be_negative():
    game = two_player_game()
    assert game.score("p1") == 5 - 2 * 81


def test_tie_is_won_by_who_reached_53_first():
    game = two_player_game()
    place(game, "p1", 52)
    place(game, "p2", 50)
    game.leather_left = ()
    game.push(ADVANCE)  # p2 50 -> 53 (3 buttons) first
    game.push(ADVANCE)  # p1 52 -> 53 (1 button)
    assert game.finished == ("p2", "p1")
    game.sides["p1"].buttons = game.sides["p2"].buttons = 9
    outcome = game.outcome()
    assert outcome.scores == {"p1": 9 - 162, "p2": 9 - 162}
    assert outcome.winner == "p2" and outcome.tie and outcome.margin == 0


def test_the_margin_is_what_the_winner_won_by():
    # 11 against 14 (the rulebook's examples above): p2 wins by 3, whoever reached 53 first.
    game = two_player_game()
    place(game, "p1", 53)
    place(game, "p2", 53)
    game.finished = ("p1", "p2")
    p1, p2 = game.sides["p1"], game.sides["p2"]
    p1.buttons, p1.covered, game.bonus_holder = 14, 76, "p1"
    p2.buttons, p2.covered = 18, 79
    outcome = game.outcome()
    assert (outcome.winner, outcome.tie, outcome.margin) == ("p2", False, 3)


def test_no_action_after_the_game_is_over():
    game = two_player_game()
    game.finished = ("p1", "p2")
    assert game.legal_actions() == []
    with pytest.raises(GameOverError):
        game.push(ADVANCE)


# --- the 7x7 bonus --------------------------------------------------------------------


def test_bonus_claim_needs_49_squares_and_an_unclaimed_tile():
    game = two_player_game()
    game.sides["p2"].covered = 48
    with pytest.raises(BonusUnavailableError, match="48 squares"):
        game.push(ClaimBonus("p2"))
    game.sides["p2"].covered = 49
    # Any time: p2 claims although it is p1's turn.
    assert ClaimBonus("p2") in game.legal_actions()
    assert game.push(ClaimBonus("p2")) == (TakeBonus("p2"),)
    game.sides["p1"].covered = 60
    with pytest.raises(BonusUnavailableError, match="already taken by p2"):
        game.push(ClaimBonus("p1"))


# --- corrections ---------------------------------------------------------------------


def test_adjust_never_below_zero():
    game = two_player_game()
    game.push(Adjust("p2", -2))
    assert game.sides["p2"].buttons == 3
    with pytest.raises(InvalidAdjustmentError, match="cannot take away 4"):
        game.push(Adjust("p2", -4))
    with pytest.raises(InvalidAdjustmentError):
        game.push(Adjust("automa", 1))
    assert game.sides["p2"].buttons == 3


def test_out_of_turn_is_refused():
    game = two_player_game()
    with pytest.raises(NotYourTurnError, match="no automa"):
        game.push(AUTOMA_TURN)
    solo = solo_game()
    with pytest.raises(NotYourTurnError, match="player's turn"):
        solo.push(AUTOMA_TURN)
    solo.push(ADVANCE)
    with pytest.raises(NotYourTurnError, match="automa's turn"):
        solo.push(ADVANCE)


# --- §4 the Automa --------------------------------------------------------------------


def test_solo_setup_automa_has_no_buttons_player_starts_two_cards_aside():
    game = solo_game(cards=(5,))
    assert game.sides["player"].buttons == 5 and game.sides["automa"].buttons == 0
    assert game.turn == "player"
    assert len(game.discard_pile) == 2 and len(game.draw_pile) == 10
    assert game.next_card == 5


def test_a_solo_setup_without_its_difficulty_is_refused():
    # §4: the difficulty sets the Automa's scoring and its 7x7 mark; a solo game has none
    # without it (only code can leave it out: the logs name theirs, checked at the edge).
    given = solo_game().setup
    with pytest.raises(SetupError, match=r"^a solo game needs a difficulty, a deck and its order$"):
        Setup(Mode.SOLO, given.circle, deck=given.deck, deck_order=given.deck_order)


def test_automa_pass_pays_no_buttons_but_crossing_pays_card_income():
    # §4 step 2 "none": card 12 has 0 virtual buttons; the offer has no P01 (cost 0).
    game = solo_game("P10", "P17", "P03", cards=(12,))
    place(game, "player", 12)
    steps = game.push(AUTOMA_TURN)
    automa = game.sides["automa"]
    # 0 -> 13: no buttons for 13 squares; marks 5 and 11 pay card 12's income 5 each.
    assert automa.position == 13
    assert automa.buttons == 10
    assert steps[0].decision.chosen is None and steps[0].decision.affordable == ()
    assert steps[1:] == (
        MoveToken("automa", 0, 13, False),
        TakeButtons("automa", 5, "income", 5),
        TakeButtons("automa", 5, "income", 11),
    )


def test_automa_takes_the_only_affordable_patch():
    # Card 3 (3 vb): P10 (2) affordable, P30 and P32 (10) not.
    game = solo_game("P30", "P10", "P32", cards=(3,))
    game.push(ADVANCE)  # player 0 -> 1, 1 button
    steps = game.push(AUTOMA_TURN)
    assert steps[0].decision.affordable == (1,) and steps[0].decision.steps == ()
    assert steps[1] == TakePatch("automa", "P10", 1, 0, "without buttons")
    # P10 time 2: the Automa goes 0 -> 2, ahead of the player on 1.
    assert game.sides["automa"].position == 2 and game.turn == "player"
    assert game.sides["automa"].buttons == 0


def test_automa_leather_goes_to_it():
    game = solo_game("P10", "P17", "P03", cards=(12,))
    place(game, "player", 24)
    place(game, "automa", 18)
    steps = game.push(AUTOMA_TURN)  # pass: 18 -> 25, crosses 20 (leather) and 23 (income 5)
    assert [type(s) for s in steps[2:]] == [TakeLeather, TakeButtons]
    assert game.sides["automa"].leather == 1


def test_reshuffle_takes_the_whole_discard_pile_when_the_draw_pile_empties():
    game = solo_game()
    game.sides["player"].position = 53
    game.finished = ("player",)
    aside = game.discard_pile
    for _ in range(10):
        # Keep the Automa far from 53 so it keeps playing.
        place(game, "automa", 0)
        game.push(AUTOMA_TURN)
    assert game.reshuffles == 1
    assert sorted(game.draw_pile) == list(range(1, 13)) and game.discard_pile == ()
    assert set(aside) <= set(game.draw_pile)
    # The stored action carries the new order, so the log replays without the seed.
    assert game.move_stack[-1].reshuffle == game.draw_pile


def test_tactical_deck_next_virtual_buttons_always_known():
    game = solo_game(cards=(19, 13), deck="tactical")
    assert state_dict(game)["sides"]["automa"]["next_virtual_buttons"] == 6  # card 19
    game.push(ADVANCE)
    game.push(AUTOMA_TURN)
    assert state_dict(game)["sides"]["automa"]["next_virtual_buttons"] == 1  # card 13
    assert state_dict(solo_game())["sides"]["automa"]["next_virtual_buttons"] is None


def test_no_next_card_once_the_automa_is_on_53():
    # On 53 the Automa takes no more turns (RULES.md §4, end): no card is next to show.
    game = solo_game(cards=(19, 13), deck="tactical")
    place(game, "automa", 53)
    assert game.next_virtual_buttons is None
    place(game, "automa", 52)
    assert game.next_virtual_buttons == 6  # card 19, still to come


@pytest.mark.parametrize(
    ("difficulty", "mark"),
    [("intern", 52), ("apprentice", 44), ("fellow", 41), ("master", 38), ("legend", 35)],
)
def test_automa_takes_the_bonus_crossing_or_reaching_its_mark(difficulty, mark):
    game = solo_game(cards=(12,), difficulty=difficulty)
    game.leather_left = ()
    place(game, "player", mark - 1)  # the pass takes it to exactly `mark`
    place(game, "automa", mark - 3)
    steps = game.push(AUTOMA_TURN)
    assert game.sides["automa"].position == mark
    assert TakeBonus("automa") in steps and game.bonus_holder == "automa"


def test_automa_gets_nothing_at_its_mark_if_the_player_claimed_first():
    game = solo_game(cards=(12,), difficulty="legend")
    game.sides["player"].covered = 49
    game.push(ClaimBonus("player"))
    place(game, "player", 40)
    place(game, "automa", 30)
    steps = game.push(AUTOMA_TURN)  # 30 -> 41 crosses 35
    assert not any(isinstance(s, TakeBonus) for s in steps)
    assert game.bonus_holder == "player"
    with pytest.raises(BonusUnavailableError):
        game.push(ClaimBonus("automa"))


def test_card_12_takes_only_p01():
    game = solo_game("P10", "P01", "P03", cards=(12,))
    game.push(ADVANCE)
    steps = game.push(AUTOMA_TURN)
    assert isinstance(steps[0], RevealCard)
    assert steps[1] == TakePatch("automa", "P01", 1, 0, "with buttons")


# Automa patches: P17 (2 buttons), P01 (1), P10 (0): 2 patches with buttons, 3 buttons shown.
AUTOMA_SCORES = {
    # level: 10 own buttons counted? + patches with buttons + buttons shown, + 7 bonus
    "intern": 0 + 7,
    "apprentice": 10 + 7,
    "fellow": 10 + 2 + 7,
    "master": 10 + 3 + 7,
    "legend": 10 + 2 + 3 + 7,
}


@pytest.mark.parametrize(("difficulty", "score"), AUTOMA_SCORES.items())
def test_automa_score_by_difficulty(difficulty, score):
    game = solo_game(difficulty=difficulty)
    automa = game.sides["automa"]
    automa.buttons, automa.patches, automa.leather = 10, ("P17", "P01", "P10"), 2
    game.bonus_holder = "automa"
    assert game.score("automa") == score


def test_intern_automa_scores_zero_without_bonus():
    game = solo_game(difficulty="intern")
    game.sides["automa"].buttons = 30
    assert game.score("automa") == 0
