"""Every screen reached in many random games renders with no text cut off or off the display."""

import itertools
import random

from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.testing.autoplay import play_to_the_end, random_choice, start_game
from companion.views import TurnView


def test_random_games_render_every_screen_within_the_display(tmp_path):
    problems = {}
    screens = 0

    def check(view):
        nonlocal screens
        screens += 1
        overflows = render_canvas(view).overflows
        if overflows:
            problems.setdefault(type(view).__name__, (view, overflows))

    for seed in range(24):
        rng = random.Random(seed)
        app = Companion(tmp_path / str(seed), itertools.count(seed).__next__)
        start_game(app, solo=seed % 3 != 0, enter_circle=seed % 4 == 1, rng=rng)
        choose = random_choice(rng)

        def detour(view, app=app, rng=rng):
            check(view)
            # Now and then open the game menu and look at every entry's first screen.
            if isinstance(view, TurnView) and rng.random() < 0.05:
                app.handle(Input.HOLD)
                menu = app.view()
                check(menu)
                for _ in range(rng.randrange(len(menu.items))):
                    app.handle(Input.NEXT)
                app.handle(Input.SELECT)
                check(app.view())
                app.handle(Input.HOLD)
                check(app.view())
                if app.game:
                    app.play.resume()

        play_to_the_end(app, rng, choose, detour)
        check(app.view())
    assert screens > 1500  # 24 games; dealing shows 4 screens of a game's ~80
    assert problems == {}, "\n".join(
        f"{name}: {view}\n  {over}" for name, (view, over) in problems.items()
    )


def test_menus_statistics_and_settings_fit(tmp_path):
    rng = random.Random(1)
    app = Companion(tmp_path, itertools.count(1).__next__)
    start_game(app, True, False, rng)
    play_to_the_end(app, rng)
    views = []
    for path in (
        [Input.NEXT, Input.NEXT, Input.SELECT],  # statistics
        [Input.SELECT, Input.HOLD],
        [Input.NEXT, Input.NEXT, Input.NEXT, Input.SELECT],  # settings
        *[[Input.NEXT] for _ in range(7)],  # once round the 7 entries, back to contrast
        [Input.SELECT, Input.NEXT, Input.NEXT],  # edit contrast
    ):
        for item in path:
            app.handle(item)
        views.append(app.view())
    assert any(type(v).__name__ == "TextView" for v in views)
    assert any(type(v).__name__ == "NumberView" for v in views)
    for view in views:
        assert render_canvas(view).overflows == [], view
