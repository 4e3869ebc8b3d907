"""The main screens in each language, as a seeded solo game shows them: the golden
images of tests/golden/<language>/ are rendered from these.

    python -m companion.testing.language_examples DIR [LANGUAGE ...]

writes DIR/<language>/<screen>.png and contact sheets of every screen of the
whole game per language, set-up included (DIR/<language>-game-<n>.png), scaled up
for looking at.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.render.screens import render
from companion.testing.autoplay import play_to_the_end, start_game
from companion.text.language import LANGUAGE_NAMES
from companion.views import (
    AutomaView,
    MenuView,
    ScoreView,
    ScreenKind,
    TurnView,
    VerdictsView,
    View,
)

GAME_SEED = 5
"""A solo game with the tactical deck whose turns show a greyed patch and the Automa
taking patches (chosen once by looking; any seed plays a whole game)."""
MAIN_SCREENS = ("home", "turn", "automa", "score", "verdicts")


def play_solo_game(language: str, on_view: Callable[[View], None]) -> None:
    """The seeded solo game, played to its end in `language`, every screen to `on_view`."""
    with tempfile.TemporaryDirectory(prefix="patchwork-language-") as directory:
        state = Path(directory)
        (state / "settings.json").write_text(json.dumps({"language": language}))
        app = Companion(state, itertools.count(GAME_SEED).__next__)
        rng = random.Random(GAME_SEED)
        shown: list[View] = []

        def show(view: View) -> None:
            if not shown or shown[-1] != view:
                shown.append(view)
                on_view(view)

        handle = app.handle

        def handle_and_show(event: Input) -> None:
            handle(event)
            show(app.view())

        app.handle = handle_and_show  # type: ignore[method-assign]
        show(app.view())
        start_game(app, solo=True, enter_circle=False, rng=rng)
        play_to_the_end(app, rng, on_view=show)


def main_screens(language: str) -> dict[str, View]:
    """Home, a turn with a greyed patch under the cursor, the Automa taking a patch, the
    end breakdown and the game against every level, in `language`."""
    found: dict[str, View] = {}

    def keep(view: View) -> None:
        if isinstance(view, MenuView) and view.kind is ScreenKind.HOME:
            found.setdefault("home", view)
        elif isinstance(view, TurnView) and not view.banner:
            greyed = [i for i, patch in enumerate(view.board.offer) if not patch.affordable]
            if greyed and view.board.next_card:
                found.setdefault("turn", dataclasses.replace(view, selected=greyed[0]))
        elif isinstance(view, AutomaView) and len(view.lines) > 4:
            found.setdefault("automa", view)
        elif isinstance(view, ScoreView):
            found["score"] = view
        elif isinstance(view, VerdictsView) and view.page == 1:
            found["verdicts"] = view

    play_solo_game(language, keep)
    return {name: found[name] for name in MAIN_SCREENS}


def game_sheets(language: str, zoom: int = 2, columns: int = 4, rows: int = 6) -> list[Image.Image]:
    """Every screen of the seeded solo game in `language`, in order, on sheets of
    `columns` x `rows` screens."""
    views: list[View] = []
    play_solo_game(language, views.append)
    width, height = 128 * zoom + 4, 64 * zoom + 4
    per_sheet = columns * rows
    sheets = []
    for first in range(0, len(views), per_sheet):
        sheet = Image.new("L", (columns * width, rows * height), 80)
        for index, view in enumerate(views[first : first + per_sheet]):
            image = render(view).convert("L")
            image = image.resize((128 * zoom, 64 * zoom), Image.Resampling.NEAREST)
            sheet.paste(image, ((index % columns) * width + 2, (index // columns) * height + 2))
        sheets.append(sheet)
    return sheets


def main(argv: list[str]) -> int:
    directory = Path(argv[0])
    for language in argv[1:] or LANGUAGE_NAMES:
        (directory / language).mkdir(parents=True, exist_ok=True)
        for name, view in main_screens(language).items():
            render(view).save(directory / language / f"{name}.png")
        for number, sheet in enumerate(game_sheets(language), start=1):
            sheet.save(directory / f"{language}-game-{number}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
