"""Games for the storage tests, played quickly and deterministically."""

from __future__ import annotations

from companion.engine.actions import ADVANCE, AUTOMA_TURN, Action, Adjust, Buy
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.game import Game
from companion.engine.gamelog import action_line, header_line
from companion.engine.setup import Side, solo_setup, two_player_setup
from companion.storage.progress import result_of
from companion.storage.store import Result, Standing, Store


def next_action(game: Game) -> Action:
    """Buy the first affordable patch, else advance; the Automa plays its turn."""
    if game.turn == Side.AUTOMA:
        return AUTOMA_TURN
    buys = [action for action in game.legal_actions() if isinstance(action, Buy)]
    return buys[0] if buys else ADVANCE


def play(game: Game, count: int) -> Game:
    """Play up to `count` actions (fewer if the game ends)."""
    for _ in range(count):
        if game.is_over:
            break
        game.push(next_action(game))
    return game


def store_ended(store: Store, game: Game, finished: bool = True) -> None:
    """`game` stored as the companion stores it, action by action, then ended."""
    store.start(header_line(game.setup), Standing())
    for action in game.move_stack:
        store.save(Standing(), add=action_line(action))
    store.end(result_of(game) if finished else Result(finished=False))


def finished_solo(difficulty: str, deck: str, seed: int, extra_buttons: int = 0) -> Game:
    """A whole solo game: the player is given `extra_buttons` at once, then only
    advances, so its score is about 5 + 53 + extra − 162 (the quilt stays empty)."""
    game = Game(solo_setup(DIFFICULTY_BY_NAME[difficulty], Deck(deck), seed=seed))
    if extra_buttons:
        game.push(Adjust(Side.PLAYER, extra_buttons))
    while not game.is_over:
        game.push(AUTOMA_TURN if game.turn == Side.AUTOMA else ADVANCE)
    return game


def finished_two_player(seed: int, start: str = "p1") -> Game:
    game = Game(two_player_setup(start, seed=seed))
    while not game.is_over:
        game.push(ADVANCE)
    return game
