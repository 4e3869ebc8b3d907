"""The rule questions the screens ask the engine, each worked out by hand from RULES.md."""

from helpers import place, solo_game, two_player_game

from companion.engine.actions import ADVANCE, AUTOMA_TURN, Buy
from companion.engine.automa import CARD_BY_NUMBER, Filter, FilterEffect, choose_patch
from companion.engine.catalogue import PATCH_BY_ID
from companion.engine.game import Refusal, Shortage


def test_advance_target_is_just_in_front_of_the_opponent_cut_at_53():
    # §3 action A: min(53, opponent + 1).
    game = two_player_game()
    place(game, "p2", 17)
    assert game.advance_target("p1") == 18
    place(game, "p2", 53)
    assert game.advance_target("p1") == 53


def test_on_top_is_the_token_that_arrived_last_on_the_same_square():
    # §3 whose turn: on one square, the token that arrived there last is on top.
    game = two_player_game()
    assert game.on_top("p1") and not game.on_top("p2")  # the start player's, on 0
    place(game, "p2", 17)
    place(game, "p1", 17)
    assert game.on_top("p1") and not game.on_top("p2")
    place(game, "p2", 17)
    assert game.on_top("p2") and not game.on_top("p1")
    place(game, "p1", 16)
    assert not game.on_top("p1") and not game.on_top("p2")


def test_buy_destination_is_position_plus_time_cut_at_53():
    # §3 action B: P17 takes 6 time; from 10 that is 16, from 50 it is cut at 53.
    game = two_player_game("P17")
    place(game, "p1", 10)
    assert game.buy_destination("p1", 0) == 16
    place(game, "p1", 50)
    assert game.buy_destination("p1", 0) == 53


def test_refusal_says_what_is_short_with_the_numbers():
    # P30 costs 10; P21 has 8 squares; P08 costs 2 with 3 squares.
    game = two_player_game("P30", "P21", "P08")
    p1 = game.sides["p1"]
    p1.buttons, p1.covered = 5, 75  # 6 empty squares
    assert game.refusal("p1", 0) == Refusal(Shortage.BUTTONS, needed=10, available=5)
    assert game.refusal("p1", 1) == Refusal(Shortage.SQUARES, needed=8, available=6)
    assert game.refusal("p1", 2) is None
    assert game.legal_actions()[:2] == [ADVANCE, Buy(2)]


def test_next_virtual_buttons_shown_only_with_the_tactical_deck():
    # §4 the two decks: card 19 shows 6 on its back, card 13 shows 1.
    tactical = solo_game(cards=(19, 13), deck="tactical")
    assert tactical.next_virtual_buttons == 6
    tactical.push(ADVANCE)
    tactical.push(AUTOMA_TURN)
    assert tactical.next_virtual_buttons == 1
    assert solo_game(cards=(5,)).next_virtual_buttons is None
    assert two_player_game().next_virtual_buttons is None


def test_bonus_claimants_have_49_squares_and_the_tile_is_free():
    game = two_player_game()
    game.sides["p1"].covered = 49
    game.sides["p2"].covered = 48
    assert game.bonus_claimants() == ("p1",)
    game.bonus_holder = "p1"
    assert game.bonus_claimants() == ()
    solo = solo_game()
    solo.sides["player"].covered = 81
    assert solo.bonus_claimants() == ("player",)  # never the Automa


def test_advance_buttons_are_the_squares_moved_none_past_53():
    # §3 action A: one button a square moved; from 10 to just in front of 17, 18 - 10 = 8.
    # At the end, from 50 with the opponent on 53, the token moves 3 squares, not 4.
    game = two_player_game()
    place(game, "p1", 10)
    place(game, "p2", 17)
    assert game.advance_buttons("p1") == 8
    place(game, "p1", 50)
    place(game, "p2", 53)
    assert game.advance_buttons("p1") == 3


def test_automa_plan_is_what_its_turn_then_does():
    # Card 12 passes (no P01 on offer): the plan is to go just in front of the player.
    game = solo_game("P10", "P17", "P03", cards=(12,))
    place(game, "player", 12)
    plan = game.automa_plan()
    assert plan.card.number == 12 and plan.decision.chosen is None and plan.target == 13
    game.push(AUTOMA_TURN)
    assert game.sides["automa"].position == 13
    assert game.automa_plan() is None  # the player's turn


N, B, L, F = Filter.NO_OVERTAKE, Filter.MOST_BUTTONS, Filter.LARGEST, Filter.FARTHEST
NARROWED, ALL_KEPT = FilterEffect.NARROWED, FilterEffect.ALL_KEPT
SKIPPED, NOT_NEEDED = FilterEffect.SKIPPED, FilterEffect.NOT_NEEDED


def card_filters(decision):
    return [(step.filter, step.effect, step.kept) for step in decision.card_filters]


def test_each_filter_of_the_card_says_what_it_did_skipped_or_narrowed():
    # Card 5 (5 vb: no overtake, most buttons, farthest); offer
    # P12 (cost 2, time 3, 1 button), P14 (3, 2, 1), P10 (2, 2, 0): all affordable.
    # Automa on 10, player on 11: every patch overtakes, so no overtake is skipped
    # (all three kept); most buttons removes P10 (the 3rd); farthest keeps the 2nd, P14.
    offer = tuple(PATCH_BY_ID[p] for p in ("P12", "P14", "P10"))
    decision = choose_patch(CARD_BY_NUMBER[5], offer, automa_position=10, player_position=11)
    assert decision.chosen == 1
    assert card_filters(decision) == [(N, SKIPPED, 3), (B, NARROWED, 2), (F, NARROWED, 1)]


def test_a_filter_that_kept_every_patch_says_so():
    # Card 3 (3 vb: no overtake, largest, farthest); P04 (1, 3 time, 3 squares) and
    # P08 (2, 2, 3): both land on or behind the player on 20 from 10, so no overtake
    # keeps both; largest keeps both (3 squares each); farthest decides.
    offer = tuple(PATCH_BY_ID[p] for p in ("P04", "P08"))
    decision = choose_patch(CARD_BY_NUMBER[3], offer, automa_position=10, player_position=20)
    assert decision.chosen == 1
    assert card_filters(decision) == [(N, ALL_KEPT, 2), (L, ALL_KEPT, 2), (F, NARROWED, 1)]


def test_the_filters_after_the_last_patch_left_were_not_needed():
    # Card 5 again, the player on 12: P12 (time 3) would land on 13, past the player;
    # P14 and P10 land on 12, kept. Most buttons keeps P14 (1 button) over P10 (0):
    # farthest is never looked at.
    offer = tuple(PATCH_BY_ID[p] for p in ("P12", "P14", "P10"))
    decision = choose_patch(CARD_BY_NUMBER[5], offer, automa_position=10, player_position=12)
    assert decision.chosen == 1
    assert card_filters(decision) == [(N, NARROWED, 2), (B, NARROWED, 1), (F, NOT_NEEDED, 1)]


def test_with_nothing_affordable_no_filter_is_needed():
    # Card 5 (5 vb) and patches costing 6 and 7: the Automa passes.
    offer = tuple(PATCH_BY_ID[p] for p in ("P24", "P25", "P26"))
    decision = choose_patch(CARD_BY_NUMBER[5], offer, automa_position=10, player_position=12)
    assert decision.chosen is None
    assert card_filters(decision) == [(N, NOT_NEEDED, 0), (B, NOT_NEEDED, 0), (F, NOT_NEEDED, 0)]
