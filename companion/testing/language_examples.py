"""The main screens in each language, as a seeded solo game shows them: the golden
images of tests/golden/<language>/ are rendered from these.

    python -m companion.testing.language_examples DIR [LANGUAGE ...]

writes DIR/<language>/<screen>.png and a contact sheet of every screen of the
whole game per language (DIR/<language>-game.png), scaled up for looking at.
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
from companion.render.screens import render
from companion.storage.settings import LANGUAGES
from companion.testing.autoplay import play_to_the_end, start_game
from companion.views import AutomaView, MenuView, ScoreView, ScreenKind, TurnView, View

GAME_SEED = 5
"""A solo game with the tactical deck whose turns show a greyed patch and the Automa
taking patches (chosen once by looking; any seed plays a whole game)."""
MAIN_SCREENS = ("home", "turn", "automa", "score")


def play_solo_game(language: str, on_view: Callable[[View], None]) -> None:
    """The seeded solo game, played to its end in `language`, every screen to `on_view`."""
    with tempfile.TemporaryDirectory(prefix="patchwork-language-") as directory:
        state = Path(directory)
        (state / "settings.json").write_text(json.dumps({"language": language}))
        app = Companion(state, itertools.count(GAME_SEED).__next__)
        rng = random.Random(GAME_SEED)
        on_view(app.view())
        start_game(app, solo=True, enter_circle=False, rng=rng)
        play_to_the_end(app, rng, on_view=on_view)


def main_screens(language: str) -> dict[str, View]:
    """Home, a turn with a greyed patch under the cursor, the Automa taking a patch, and
    the end breakdown, in `language`."""
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

    play_solo_game(language, keep)
    return {name: found[name] for name in MAIN_SCREENS}


def game_sheet(language: str, zoom: int = 2, columns: int = 8) -> Image.Image:
    """Every screen of the seeded solo game in `language`, in order, on one sheet."""
    views: list[View] = []
    play_solo_game(language, views.append)
    width, height = 128 * zoom + 4, 64 * zoom + 4
    rows = -(-len(views) // columns)
    sheet = Image.new("L", (columns * width, rows * height), 80)
    for index, view in enumerate(views):
        image = render(view).convert("L").resize((128 * zoom, 64 * zoom), Image.Resampling.NEAREST)
        sheet.paste(image, ((index % columns) * width + 2, (index // columns) * height + 2))
    return sheet


def main(argv: list[str]) -> int:
    directory = Path(argv[0])
    for language in argv[1:] or LANGUAGES:
        (directory / language).mkdir(parents=True, exist_ok=True)
        for name, view in main_screens(language).items():
            render(view).save(directory / language / f"{name}.png")
        game_sheet(language).save(directory / f"{language}-game.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
