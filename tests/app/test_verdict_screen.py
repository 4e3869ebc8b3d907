"""A solo game's end shows it against every level, between the score and saving it."""

from __future__ import annotations

import itertools
import random

from helpers import companion_in
from test_verdicts import ROWS_SHOWN, played_game

from companion.app.companion import Companion
from companion.engine.actions import ADVANCE
from companion.engine.deal import deal_of
from companion.engine.gamelog import action_line, header_line
from companion.storage.store import Standing, Store
from companion.testing.autoplay import play_to_the_end, start_game
from companion.views import ScoreView, ScreenKind, TurnView, VerdictsView


def played_to_the_end(app, solo: bool) -> list:
    """Every screen of a random game from its first turn to the home menu after it."""
    shown: list = []
    rng = random.Random(3)
    start_game(app, solo=solo, enter_circle=False, rng=rng)
    play_to_the_end(app, rng, on_view=shown.append)
    return shown


def kinds(shown) -> list:
    named = {ScoreView: "score", VerdictsView: "verdicts"}
    return [named.get(type(view)) or getattr(view, "kind", None) for view in shown]


def test_after_the_score_a_solo_game_shows_every_level_then_the_saving(tmp_path):
    app = companion_in(tmp_path / "state", "en", seed=11)
    shown = played_to_the_end(app, solo=True)
    order = kinds(shown)
    at = order.index("verdicts")
    assert order.index("score") < at < order.index(ScreenKind.GAME_OVER)
    page, game = shown[at], app.last_finished
    assert isinstance(page, VerdictsView)
    assert (page.page, page.pages, page.first, page.count) == (1, 1, 0, 5)
    assert page.deal == f"Deal {deal_of(game.setup).code}"
    assert page.labels == ("You", "Automa")
    # Its rows, a random game's, are not worked out: the next test's are.
    assert [row.level for row in page.rows] == [row.level for row in ROWS_SHOWN]
    assert [row.played for row in page.rows].count(True) == 1


def test_the_game_worked_by_hand_ends_on_its_table(tmp_path):
    # The game of tests/test_verdicts.py stored up to its last action, the player's
    # advance from 52 to 53, as the device stores it; resumed, and that advance chosen.
    game = played_game()
    with Store(tmp_path) as store:
        store.start(header_line(game.setup), Standing())
        for stored, action in enumerate(game.move_stack[:-1], start=1):
            store.save(Standing(acknowledged=stored), add=action_line(action))
    app = Companion(tmp_path, itertools.count(1).__next__)
    assert isinstance(app.view(), TurnView)
    shown: list = []
    play_to_the_end(app, random.Random(3), lambda turn: turn.choices.index(ADVANCE), shown.append)
    (page,) = [view for view in shown if isinstance(view, VerdictsView)]
    # A circle laid out by hand: no code could deal it again, so none is shown.
    assert (page.page, page.pages, page.first, page.count, page.deal) == (1, 1, 0, 5, "")
    assert page.rows == ROWS_SHOWN


def test_a_two_player_game_goes_from_the_score_to_the_saving(tmp_path):
    app = companion_in(tmp_path / "state", "en", seed=11)
    order = kinds(played_to_the_end(app, solo=False))
    assert "verdicts" not in order
    assert order.index("score") < order.index(ScreenKind.GAME_OVER)
