"""Random legal games (hypothesis) keep the invariants of docs/RULES.md in both modes."""

from helpers import RANDOM_SETUPS
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine.actions import Adjust, ClaimBonus
from companion.engine.automa import DECK_CARDS
from companion.engine.catalogue import FINAL_POSITION, LEATHER_POSITIONS, PATCHES
from companion.engine.game import Game
from companion.engine.gamelog import log_lines, read_log
from companion.engine.verdicts import verdicts


def check_invariants(game: Game, previous_positions: dict[str, int]) -> None:
    for name, side in game.sides.items():
        assert previous_positions[name] <= side.position <= FINAL_POSITION
        assert side.buttons >= 0
        assert 0 <= side.covered <= 81
    placed = list(game.circle) + [p for side in game.sides.values() for p in side.patches]
    assert sorted(placed) == sorted(p.id for p in PATCHES)
    held = sum(s.leather for s in game.sides.values())
    assert len(game.leather_left) + held + len(game.leather_discarded) == len(LEATHER_POSITIONS)
    if game.setup.deck is not None:
        cards = sorted(game.draw_pile + game.discard_pile)
        assert cards == sorted(DECK_CARDS[game.setup.deck])
        assert game.draw_pile, "the draw pile is refilled as soon as it empties"
    first, second = game.sides.values()
    if game.is_over:
        assert first.position == second.position == FINAL_POSITION
        # Only a claim of the free 7×7 tile remains possible.
        assert game.turn is None
        assert game.legal_actions() == [ClaimBonus(name) for name in game.bonus_claimants()]
    elif first.position != second.position:
        assert game.turn == min(first, second, key=lambda s: s.position).name
    else:
        # Same square: the token that arrived last is on top and moves.
        assert game.turn == max(first, second, key=lambda s: s.arrived).name


def play_random_game(game: Game, data) -> None:
    positions = {name: 0 for name in game.sides}
    while not game.is_over:
        actions = game.legal_actions()
        assert actions, "there is always something to do before the end"
        if data.draw(st.integers(0, 9), label="correction?") == 0:
            name = data.draw(st.sampled_from(list(game.sides)), label="side")
            action = Adjust(name, data.draw(st.integers(-3, 3).filter(bool), label="delta"))
            if game.sides[name].buttons + action.delta < 0:
                continue
        else:
            action = data.draw(st.sampled_from(actions), label="action")
        before = game.state()
        game.push(action)
        after = game.state()
        # Undo restores the exact previous state.
        game.pop()
        assert game.state() == before
        # Redoing gives the same state again, reshuffles included (drawn from the seed).
        game.push(action)
        assert game.state() == after
        check_invariants(game, positions)
        positions = {name: side.position for name, side in game.sides.items()}


@settings(max_examples=60, deadline=None)
@given(setup=RANDOM_SETUPS, data=st.data())
def test_random_games_keep_the_invariants_and_replay_from_their_log(setup, data):
    game = Game(setup)
    play_random_game(game, data)
    assert game.outcome() is not None
    judged = verdicts(game)
    if setup.difficulty is not None:
        # Judged at the level played, the game ends as it did.
        played = next(verdict for verdict in judged if verdict.level == setup.difficulty)
        assert (played.outcome, played.bonus_holder) == (game.outcome(), game.bonus_holder)
        # Monotone (docs/SOLO.md): won against a level, won against every easier one.
        won = [verdict.outcome.winner == "player" for verdict in judged]
        assert won == sorted(won, reverse=True)
    else:
        assert judged is None
    replayed = read_log(log_lines(game))
    assert replayed.state() == game.state()
    assert replayed.move_stack == game.move_stack


@settings(max_examples=30, deadline=None)
@given(setup=RANDOM_SETUPS, data=st.data())
def test_popping_everything_returns_to_the_start(setup, data):
    game = Game(setup)
    start = game.state()
    play_random_game(game, data)
    while game.move_stack:
        game.pop()
    assert game.state() == start
