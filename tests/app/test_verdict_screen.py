"""A solo game's end shows it against every level, between the score and saving it."""

from __future__ import annotations

import random

from helpers import companion_in

from companion.app.verdict_pages import verdict_rows
from companion.engine.deal import deal_of
from companion.engine.verdicts import verdicts
from companion.testing.autoplay import play_to_the_end, start_game
from companion.views import ScoreView, ScreenKind, VerdictsView


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
    assert page.rows == verdict_rows(verdicts(game), game.setup.difficulty, app.words)


def test_a_two_player_game_goes_from_the_score_to_the_saving(tmp_path):
    app = companion_in(tmp_path / "state", "en", seed=11)
    order = kinds(played_to_the_end(app, solo=False))
    assert "verdicts" not in order
    assert order.index("score") < order.index(ScreenKind.GAME_OVER)
