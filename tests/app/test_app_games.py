"""Whole games played through the application's five inputs only."""

import itertools
import random

import pytest
from helpers import place, solo_game, two_player_game

from companion.app.companion import Companion
from companion.app.play import EndScreen
from companion.engine.actions import ADVANCE, AutomaTurn
from companion.inputs.events import Input
from companion.render.canvas import WIDTH
from companion.render.screens import render_canvas
from companion.storage.statistics import statistics
from companion.testing.autoplay import (
    affordable,
    inputs_for,
    play_to_the_end,
    random_choice,
    start_game,
)
from companion.text.language import words_for
from companion.views import (
    AutomaView,
    MenuView,
    QuestionView,
    ScoreView,
    ScreenKind,
    StepView,
    TurnView,
)


def new_app(tmp_path, seed=1):
    return Companion(tmp_path, itertools.count(seed).__next__)


@pytest.mark.parametrize(
    ("solo", "enter_circle", "seed"),
    [
        (True, False, 1),
        (True, True, 2),
        (False, False, 3),
        (False, True, 4),
    ],
)
def test_a_whole_game_from_the_home_menu_to_the_history(tmp_path, solo, enter_circle, seed):
    rng = random.Random(seed)
    app = new_app(tmp_path, seed)
    start_game(app, solo, enter_circle, rng)
    play_to_the_end(app, rng)
    game = app.last_finished
    assert game is not None and game.is_over
    assert app.game is None and not app.store.has_game()
    # The finished game is in the history, and the statistics count it.
    stats = statistics(app.store)
    if solo:
        assert stats.solo_overall.games == 1
        assert list(stats.solo) == [(game.setup.difficulty, game.setup.deck)]
        outcome = game.outcome()
        assert stats.solo_overall.wins == (outcome.winner == "player")
    else:
        assert stats.two_player_games == 1


def test_the_automa_turn_takes_exactly_one_input(tmp_path):
    rng = random.Random(5)
    app = new_app(tmp_path, 5)
    start_game(app, True, False, rng)
    automa_screens = 0
    while app.game is not None:
        view = app.view()
        if isinstance(view, AutomaView):
            before = len(app.game.move_stack)
            app.handle(Input.SELECT)
            automa_screens += 1
            # One press confirmed it; the Automa's action was stored before it showed.
            assert isinstance(app.game.move_stack[before - 1], AutomaTurn)
            assert not isinstance(app.view(), AutomaView) or len(app.game.move_stack) > before
            continue
        if isinstance(view, MenuView) and view.kind is ScreenKind.HOME:
            break
        play_step(app, rng)
    assert automa_screens >= 10


def play_step(app, rng):
    for item in inputs_for(app.view(), random_choice(rng), rng):
        app.handle(item)


def test_a_restart_at_any_moment_resumes_on_the_same_screen(tmp_path):
    rng = random.Random(7)
    app = new_app(tmp_path, 7)
    start_game(app, True, False, rng)
    restarts = 0
    while app.game is not None:
        view = app.view()
        if rng.random() < 0.3:
            resumed = new_app(tmp_path, 99)
            assert resumed.game.state() == app.game.state()
            if not isinstance(view, TurnView):
                assert resumed.view() == view
            else:
                # The cursor is not saved: the turn screen comes back at its first choice.
                assert isinstance(resumed.view(), TurnView)
                assert resumed.view().choices == view.choices
            app = resumed
            restarts += 1
            continue
        play_step(app, rng)
    assert restarts > 20


def test_undo_from_the_menu_survives_a_restart(tmp_path):
    rng = random.Random(3)
    app = new_app(tmp_path, 3)
    start_game(app, True, False, rng)
    while not isinstance(app.view(), TurnView):
        play_step(app, rng)
    start_state = app.game.state()
    # Buy or advance, confirm the steps, and let the Automa play.
    app.handle(Input.SELECT)
    while not isinstance(app.view(), TurnView):
        play_step(app, rng)
    assert app.game.state() != start_state
    # Menu -> Undo -> Yes: back to the player's previous turn, Automa turns and all.
    app.handle(Input.HOLD)
    labels = [item.label for item in app.view().items]
    for _ in range(labels.index("Undo last action")):
        app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    assert isinstance(app.view(), QuestionView)
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    assert app.game.state() == start_state
    assert new_app(tmp_path).game.state() == start_state


def test_the_7x7_reminder_is_asked_once(tmp_path):
    rng = random.Random(11)
    app = new_app(tmp_path, 11)
    start_game(app, False, False, rng)
    asked = []

    def always_buy(view):
        buys = [i for i, choice in enumerate(view.choices) if affordable(view, choice)]
        return buys[0] if buys else view.choices.index(ADVANCE)

    def watch(view):
        if isinstance(view, QuestionView) and view.kind is ScreenKind.BONUS_QUESTION:
            asked.append(view.lines[0].split(" has ")[0])  # "Player 1 has 50 squares."

    play_to_the_end(app, rng, always_buy, watch)
    game = app.last_finished
    covered = [side.covered for side in game.sides.values()]
    # Each player who reached 49 squares while the tile was free was asked exactly once.
    assert asked and len(asked) == len(set(asked))
    assert max(covered) >= 49


def _solo_app_before_the_automa_mark(tmp_path):
    # Fellow: mark 41. The Automa on 38 passes with card 12 (no P01 on offer) to 46,
    # in front of the player on 45: that move takes the tile (Korean §5-3). The
    # player has 50 squares and answered "Not yet" at 49.
    app = new_app(tmp_path)
    app.session.start(solo_game("P10", "P17", "P02", "P03", cards=(12,), difficulty="fellow").setup)
    place(app.game, "automa", 38)
    place(app.game, "player", 45)
    app.game.sides["player"].covered = 50
    app.session.progress.asked_bonus = ["player"]
    app.play.continue_game()
    return app


def test_asked_again_before_the_automa_move_that_takes_the_tile(tmp_path):
    app = _solo_app_before_the_automa_mark(tmp_path)
    view = app.view()
    assert isinstance(view, QuestionView) and view.title == "7x7 bonus"
    assert "The Automa takes the" in view.lines[0]
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # Yes, claim it
    assert app.game.bonus_holder == "player"
    while not isinstance(app.view(), AutomaView):
        app.handle(Input.SELECT)
    assert app.game.bonus_holder == "player"
    assert app.game.sides["automa"].position == 46


def test_not_yet_before_the_automa_mark_lets_the_automa_take_the_tile_without_asking_twice(
    tmp_path,
):
    app = _solo_app_before_the_automa_mark(tmp_path)
    app.handle(Input.SELECT)  # Not yet
    assert isinstance(app.view(), AutomaView)
    assert app.game.bonus_holder == "automa"


def test_the_end_screen_offers_a_claim_while_the_tile_is_free(tmp_path):
    app = new_app(tmp_path)
    app.session.start(two_player_game().setup)
    place(app.game, "p2", 53)
    app.game.finished = ("p2",)
    place(app.game, "p1", 52)
    app.game.leather_left = ()
    app.game.sides["p1"].covered = 60
    app.session.progress.asked_bonus = ["p1"]  # answered "Not yet"
    app.play.continue_game()
    app.handle(Input.SELECT)  # advance to 53: the game is over
    while not isinstance(app.view(), ScoreView):
        app.handle(Input.SELECT)
    # Nobody holds the tile: neither column has a row for it (a "0" row said nothing).
    rows = [what for column in app.view().columns for what, _ in column.lines]
    assert "buttons" in rows and "bonus tile" not in rows
    app.handle(Input.SELECT)  # the end screen: on to "Save the result"
    assert app.view().answers == ("Save and finish", "Claim 7x7 bonus", "Undo last action")
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    assert app.game.bonus_holder == "p1"


def test_the_end_screen_turns_to_the_rows_the_screen_has_no_room_for():
    # At Legend the Automa scores its buttons, its patches with buttons and the buttons
    # they show; holding the 7x7 tile makes four rows, and Korean's letters leave room
    # for three: turning the knob shows the last three, turning back the first.
    game = solo_game(difficulty="legend")
    place(game, "player", 53)
    place(game, "automa", 53)
    game.finished = ("player", "automa")
    game.bonus_holder = "automa"
    words = words_for("ko")
    screen = EndScreen(game, lambda: None, lambda: None, words)
    automa_rows = [what for what, _ in screen.view().columns[1].lines]
    assert automa_rows == [
        words(label) for label in ("buttons", "{button} patches", "{button} shown", "bonus tile")
    ]

    def rows_drawn() -> list[str]:
        """The Automa's rows drawn, top to bottom: the right column's."""
        canvas = render_canvas(screen.view())
        assert canvas.overflows == []
        right = [record for record in canvas.texts if record.box.x >= WIDTH // 2]
        return [record.text for record in right if record.text in automa_rows]

    assert rows_drawn() == automa_rows[:3]
    screen.handle(Input.NEXT)
    assert rows_drawn() == automa_rows[1:]
    screen.handle(Input.NEXT)
    assert rows_drawn() == automa_rows[1:]
    screen.handle(Input.PREVIOUS)
    assert rows_drawn() == automa_rows[:3]


def test_playing_again_the_first_press_plays_the_advance_under_the_cursor(tmp_path):
    """'Your turn again' says so until the first input, and costs no press: an advance is
    its press and its step card, as on any turn."""
    rng = random.Random(2)
    app = new_app(tmp_path, 2)
    start_game(app, False, False, rng)
    agains = 0
    while app.game is not None:
        view = app.view()
        if isinstance(view, TurnView) and view.banner:
            agains += 1
            assert view.choices[view.selected] == ADVANCE
            before = len(app.game.move_stack)
            app.handle(Input.SELECT)
            assert app.game.move_stack[before:] == [ADVANCE]
            assert isinstance(app.view(), StepView)  # its card, as after any advance
            continue
        play_step(app, rng)
    assert agains >= 3
