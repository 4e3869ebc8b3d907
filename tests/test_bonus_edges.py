"""The 7×7 bonus tile and full quilts at their edges, worked out by hand.

Sources: RULES.md §1 (the bonus tile: the first to complete a 7×7 square takes
it), §3 (a full quilt of 81 squares always holds a 7×7 square; a leather patch
crossed with a full quilt is discarded, the publisher's ruling) and §4 step 4,
from the Korean rulebook §5-3: the Automa takes the tile on crossing or reaching
its mark, "if the player took the tile first, nothing happens".
"""

import pytest
from helpers import place, solo_game, two_player_game

from companion.engine.actions import (
    ADVANCE,
    AUTOMA_TURN,
    Adjust,
    Buy,
    ClaimBonus,
    DiscardLeather,
    MoveToken,
    TakeBonus,
    TakeButtons,
    TakeLeather,
)
from companion.engine.errors import GameOverError, NoSuchPatchError
from companion.engine.game import BonusOccasion

# Circles with no P01 (cost 0) among the first patches, so card 12 (0 virtual
# buttons) makes the Automa pass: to just in front of the player.
NO_P01 = ("P10", "P17", "P02", "P03")


def automa_passing(difficulty: str, automa: int, player: int, covered: int):
    """A solo game on the Automa's turn, whose card 12 makes it pass to `player` + 1."""
    game = solo_game(*NO_P01, cards=(12,), difficulty=difficulty)
    place(game, "automa", automa)
    place(game, "player", player)
    game.sides["player"].covered = covered
    return game


# --- a full quilt takes the free tile --------------------------------------------------


def test_buying_the_81st_square_takes_the_free_tile():
    # P10: cost 2, time 2, 5 squares. 76 + 5 = 81 covered: the quilt is full.
    game = two_player_game("P10")
    game.sides["p1"].covered = 76
    steps = game.push(Buy(0))
    assert game.sides["p1"].covered == 81
    assert game.bonus_holder == "p1"
    assert steps[-1] == TakeBonus("p1", full_quilt=True)
    assert game.score("p1") == 5 - 2 + 7  # buttons 3, the tile 7, no empty square


def test_a_quilt_one_square_short_of_full_takes_no_tile():
    # Only a full quilt (81) always holds a 7×7 square. P10: cost 2, 5 squares.
    # 75 + 5 = 80 covered, one square empty: the tile stays free until claimed.
    game = two_player_game("P10")
    game.sides["p1"].covered = 75
    steps = game.push(Buy(0))
    assert game.sides["p1"].covered == 80
    assert not any(isinstance(step, TakeBonus) for step in steps)
    assert game.bonus_holder is None
    assert game.score("p1") == 5 - 2 - 2  # buttons 3, one empty square


def test_player_who_said_not_yet_and_then_filled_the_quilt_keeps_the_tile_from_the_automa():
    # The case seen at the table: 75 squares, never claimed (answered "not yet").
    # Legend: mark at 35. The player on 33 buys P03 (cost 1, time 2, 6 squares) -> 81
    # covered, token 35: the full quilt takes the tile. The Automa on 34 then passes
    # with card 12 to 36 (just in front of the player), crossing 35: nothing happens.
    game = solo_game("P03", *NO_P01[:3], cards=(12,), difficulty="legend")
    game.leather_left = ()
    place(game, "automa", 34)
    place(game, "player", 33)
    game.sides["player"].covered = 75
    steps = game.push(Buy(0))
    assert TakeBonus("player", full_quilt=True) in steps
    steps = game.push(AUTOMA_TURN)
    assert game.sides["automa"].position == 36
    assert not any(isinstance(step, TakeBonus) for step in steps)
    assert game.bonus_holder == "player"


def test_the_leather_patch_that_fills_the_quilt_takes_the_tile_after_it():
    # 80 covered; advancing 18 -> 21 crosses the leather at 20: 81, the tile with it.
    game = two_player_game()
    place(game, "p2", 20)
    place(game, "p1", 18)
    game.sides["p1"].covered = 80
    steps = game.push(ADVANCE)
    assert steps[-2:] == (TakeLeather("p1", 20), TakeBonus("p1", full_quilt=True))
    assert game.sides["p1"].covered == 81 and game.bonus_holder == "p1"


def test_a_full_quilt_takes_nothing_when_the_tile_is_already_taken():
    game = two_player_game("P10")
    game.bonus_holder = "p2"
    game.sides["p1"].covered = 76
    steps = game.push(Buy(0))
    assert not any(isinstance(step, TakeBonus) for step in steps)
    assert game.bonus_holder == "p2"


def test_the_automa_still_takes_the_tile_from_a_player_below_81_who_did_not_claim():
    # Korean §5-3: only a player who *took* the tile keeps it from the Automa.
    game = automa_passing("fellow", automa=38, player=45, covered=70)
    game.leather_left = ()
    steps = game.push(AUTOMA_TURN)  # pass 38 -> 46 crosses 41
    assert TakeBonus("automa") in steps and game.bonus_holder == "automa"


# --- leather patches and a full quilt --------------------------------------------------


def test_leather_crossed_with_a_full_quilt_is_discarded_not_given():
    # 81 covered; 24 -> 27 crosses the leather at 26: it cannot be placed, so it
    # leaves the track and the game; the opponent crossing 26 later finds nothing.
    game = two_player_game()
    place(game, "p2", 26)
    place(game, "p1", 24)
    game.sides["p1"].covered = 81
    steps = game.push(ADVANCE)
    assert steps == (
        MoveToken("p1", 24, 27, False),
        TakeButtons("p1", 3, "advance"),
        DiscardLeather("p1", 26),
    )
    assert game.sides["p1"].leather == 0 and game.sides["p1"].covered == 81
    assert 26 not in game.leather_left and game.leather_discarded == (26,)
    place(game, "p2", 25)
    assert not any(isinstance(step, TakeLeather) for step in game.push(ADVANCE))
    assert game.sides["p2"].leather == 0


def test_two_leather_patches_in_one_move_the_first_fills_the_quilt_the_second_is_discarded():
    # 80 covered; 19 -> 27 crosses 20 and 26: 20 fills square 81 (and takes the tile),
    # 26 finds the quilt full.
    game = two_player_game()
    place(game, "p2", 26)
    place(game, "p1", 19)
    game.sides["p1"].covered = 80
    steps = game.push(ADVANCE)
    assert steps[-3:] == (
        TakeLeather("p1", 20),
        TakeBonus("p1", full_quilt=True),
        DiscardLeather("p1", 26),
    )
    assert game.sides["p1"].leather == 1
    assert game.leather_left == (32, 44, 50)


def test_undo_puts_a_discarded_leather_patch_back_on_the_track():
    game = two_player_game()
    place(game, "p2", 26)
    place(game, "p1", 24)
    game.sides["p1"].covered = 81
    game.push(ADVANCE)
    game.pop()
    assert 26 in game.leather_left and game.leather_discarded == ()


# --- an empty circle -------------------------------------------------------------------


def test_an_empty_circle_says_none_on_offer():
    game = two_player_game()
    game.circle = ()
    with pytest.raises(NoSuchPatchError, match=r"0 on offer$"):
        game.push(Buy(0))


# --- a claim after the end -------------------------------------------------------------


def test_the_free_tile_can_still_be_claimed_once_the_game_is_over():
    game = two_player_game()
    place(game, "p2", 53)
    game.finished = ("p2",)
    place(game, "p1", 52)
    game.leather_left = ()
    game.sides["p1"].covered = 60
    game.push(ADVANCE)
    assert game.is_over
    before = game.score("p1")
    assert game.legal_actions() == [ClaimBonus("p1")]
    assert game.push(ClaimBonus("p1")) == (TakeBonus("p1"),)
    assert game.score("p1") == before + 7
    assert game.outcome().scores["p1"] == before + 7
    assert game.legal_actions() == []
    with pytest.raises(GameOverError):
        game.push(Adjust("p1", 1))


# --- when to ask ---------------------------------------------------------------------


def test_asked_once_on_reaching_49_squares():
    game = two_player_game()
    game.sides["p1"].covered = 48
    assert game.bonus_question(asked=()) is None
    game.sides["p1"].covered = 49
    question = game.bonus_question(asked=())
    assert (question.side, question.occasion, question.squares) == (
        "p1",
        BonusOccasion.REACHED_49,
        49,
    )
    assert game.bonus_question(asked=question.answers) is None


def test_two_players_are_each_asked_as_they_reach_49():
    game = two_player_game()
    game.sides["p1"].covered = 55
    game.sides["p2"].covered = 50
    first = game.bonus_question(asked=())
    second = game.bonus_question(asked=first.answers)
    assert {first.side, second.side} == {"p1", "p2"}
    assert game.bonus_question(asked=first.answers + second.answers) is None
    game.push(ClaimBonus("p2"))
    assert game.bonus_question(asked=()) is None


def test_asked_again_before_the_automa_move_that_crosses_its_mark():
    # Fellow: mark 41. The Automa on 38 passes with card 12 to 46 (the player is on
    # 45): it would take the tile. The player (50 squares, asked at 49 already) is
    # asked again first; once answered, not again.
    game = automa_passing("fellow", automa=38, player=45, covered=50)
    question = game.bonus_question(asked=["player"])
    assert question.occasion is BonusOccasion.AUTOMA_MARK and question.side == "player"
    assert game.bonus_question(asked=question.answers) is None
    # The same moment also answers the question at 49: one question, not two.
    assert "player" in question.answers


def test_asked_again_when_the_automa_would_reach_its_mark_exactly():
    # Legend: mark 35. Player on 34: the Automa's pass from 30 lands on 35 exactly.
    game = automa_passing("legend", automa=30, player=34, covered=49)
    assert game.bonus_question(asked=["player"]).occasion is BonusOccasion.AUTOMA_MARK


def test_not_asked_before_an_automa_move_that_stops_short_of_its_mark():
    # Fellow: mark 41. The pass from 30 goes to 40 (player on 39): short of 41.
    game = automa_passing("fellow", automa=30, player=39, covered=60)
    assert game.bonus_question(asked=["player"]) is None


def test_not_asked_before_the_mark_below_49_squares():
    game = automa_passing("fellow", automa=38, player=45, covered=48)
    assert game.bonus_question(asked=()) is None


def test_an_answer_before_a_taken_back_automa_move_is_asked_again():
    game = automa_passing("fellow", automa=38, player=45, covered=50)
    asked = list(game.bonus_question(asked=["player"]).answers)
    game.push(AUTOMA_TURN)
    assert game.bonus_answers_kept(asked) == asked
    game.pop()
    assert game.bonus_answers_kept(asked) == ["player"]
