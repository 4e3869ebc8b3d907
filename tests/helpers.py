"""Set-ups for tests: circles and decks arranged so a rule shows in a few actions."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from hypothesis import strategies as st

from companion.app.companion import Companion
from companion.engine.automa import DECK_CARDS, DIFFICULTIES, DIFFICULTY_BY_NAME, Deck
from companion.engine.catalogue import PATCHES, STARTING_PATCH_ID
from companion.engine.game import Game
from companion.engine.setup import Setup, solo_setup, two_player_setup
from companion.inputs.events import Input
from companion.testing.autoplay import move_to, play_to_the_end, random_choice, start_game
from companion.text.font import Glyph
from companion.text.language import LANGUAGE_NAMES
from companion.views import MenuView, ScreenKind, TurnView, View


def circle_starting_with(*patch_ids: str) -> tuple[str, ...]:
    """A valid circle whose first patches (clockwise of the neutral token) are given."""
    rest = [p.id for p in PATCHES if p.id not in patch_ids and p.id != STARTING_PATCH_ID]
    return (*patch_ids, *rest, STARTING_PATCH_ID)


def deck_starting_with(deck: Deck, *drawn: int, set_aside: tuple[int, ...] = ()) -> tuple[int, ...]:
    """A deck order whose first draws (after the two set aside) are `drawn`."""
    used = set(drawn) | set(set_aside)
    others = [card for card in DECK_CARDS[deck] if card not in used]
    aside = list(set_aside) or others[:2]
    rest = [card for card in others if card not in aside]
    return (*aside, *drawn, *rest)


def solo_game(
    *patch_ids: str, cards: tuple[int, ...] = (), difficulty: str = "fellow", deck: str = "normal"
) -> Game:
    setup = solo_setup(
        DIFFICULTY_BY_NAME[difficulty],
        Deck(deck),
        seed=7,
        circle=circle_starting_with(*patch_ids),
        deck_order=deck_starting_with(Deck(deck), *cards),
    )
    return Game(setup)


def two_player_game(*patch_ids: str, start: str = "p1") -> Game:
    return Game(two_player_setup(start, seed=7, circle=circle_starting_with(*patch_ids)))


def place(game: Game, name: str, position: int, buttons: int | None = None) -> None:
    """Put a side's token somewhere (and set its buttons) to test a rule from there.

    The token counts as having arrived last, as if it had just moved there.
    """
    side = game.sides[name]
    side.position = position
    side.arrived = max(s.arrived for s in game.sides.values()) + 1
    if buttons is not None:
        side.buttons = buttons


RANDOM_SETUPS = st.one_of(
    st.builds(
        solo_setup,
        difficulty=st.sampled_from(DIFFICULTIES),
        deck=st.sampled_from(list(Deck)),
        seed=st.integers(0, 2**32 - 1),
    ),
    st.builds(
        two_player_setup, start=st.sampled_from(["p1", "p2"]), seed=st.integers(0, 2**32 - 1)
    ),
)
"""Set-ups of every mode, difficulty and deck, for hypothesis."""


__all__ = [
    "RANDOM_SETUPS",
    "Setup",
    "circle_starting_with",
    "companion_in",
    "deck_starting_with",
    "place",
    "play_games",
    "solo_game",
    "two_player_game",
]


def companion_in(state_dir: Path, language: str, seed: int) -> Companion:
    state_dir.mkdir(parents=True)
    (state_dir / "settings.json").write_text(json.dumps({"language": language}))
    return Companion(state_dir, itertools.count(seed).__next__)


def choose_row(app: Companion, label: str) -> None:
    """Turn to the menu row `label` and press."""
    view = app.view()
    assert isinstance(view, MenuView), view
    labels = [item.label for item in view.items]
    for item in move_to(view.selected, labels.index(label), len(labels)):
        app.handle(item)
    app.handle(Input.SELECT)


def play_games(tmp_path: Path, seeds, language_of, check) -> None:
    """Random games (solo and two-player, dealt and entered), calling `check` on every
    view, with detours now and then into the game menu and its entries' first screens."""
    for seed in seeds:
        rng = random.Random(seed)
        app = companion_in(tmp_path / str(seed), language_of(seed), seed)
        start_game(app, solo=seed % 3 != 0, enter_circle=seed % 4 == 1, rng=rng)
        choose = random_choice(rng)

        def detour(view, app=app, rng=rng):
            check(view)
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


def visit_menus(app: Companion, on_view: Callable[[View], None]) -> set[ScreenKind]:
    """From the home menu, the screens `play_games` does not check: a solo and a
    two-player game's set-up menus and questions, the game menu, settings, the language
    menu, and the input test (left open); `on_view` is called with every row of each
    lit in turn. The kinds of screen visited."""
    kinds = set()

    def rows() -> list[str]:
        view = app.view()
        return [item.label for item in view.items] if isinstance(view, MenuView) else view.answers

    def choose(label: str) -> None:
        for _ in rows():
            on_view(app.view())
            kinds.add(app.view().kind)
            app.handle(Input.NEXT)
        for _ in rows():
            if rows()[app.view().selected] == label:
                break
            app.handle(Input.NEXT)
        app.handle(Input.SELECT)

    for step in [
        "New solo game",
        "Intern",
        "Normal",
        "Deal it for me",
        [Input.SELECT] * 4,  # the circle's four screens of dealing
        [Input.HOLD],  # the game menu
        "Home",
        "New two-player game",
        "No, keep it",  # the game under way is left alone
        "New two-player game",
        "Yes, abandon",
        "Back",  # from the start player
        "Settings",
        "Language",
    ]:
        if isinstance(step, str):
            choose(app.words(step))
        else:
            for item in step:
                app.handle(item)
    choose(LANGUAGE_NAMES[app.settings.language])
    choose(app.words("Input test"))
    return kinds


def log_bytes(state_dir: Path) -> int:
    """The size of the store's write-ahead log, which grows at each commit while a companion
    runs on `state_dir`: the database itself is held by it, and nothing else can read it."""
    wal = state_dir / "companion.db-wal"
    return wal.stat().st_size if wal.exists() else 0


def wait_for_a_commit(state_dir: Path, after: int, deadline: float) -> int:
    """Wait until the store of the companion running on `state_dir` has committed again
    since its log was `after` bytes long; the log's size then."""
    while (size := log_bytes(state_dir)) <= after:
        assert time.monotonic() < deadline, "nothing was committed"
        time.sleep(0.02)
    return size


def settled_log_bytes(state_dir: Path, deadline: float, quiet: float = 1.0) -> int:
    """The size of the store's log once a companion started on `state_dir` has committed
    and then nothing more for `quiet` seconds: the inputs sent so far are all handled."""
    size = wait_for_a_commit(state_dir, 0, deadline)
    while True:
        time.sleep(quiet)
        if log_bytes(state_dir) == size:
            return size
        size = log_bytes(state_dir)
        assert time.monotonic() < deadline, "the companion never stopped committing"


def started_game(state_dir: Path, turns: int = 6) -> Companion:
    """The app on a solo game with a few actions stored, stopped on a turn screen."""
    rng = random.Random(2)
    app = Companion(state_dir, itertools.count(2).__next__)
    start_game(app, True, False, rng)
    seen = []

    def stop_after(view: object) -> None:
        if isinstance(view, TurnView):
            seen.append(view)
            if len(seen) > turns:
                raise StopIteration

    with contextlib.suppress(StopIteration):
        play_to_the_end(app, rng, on_view=stop_after)
    return app


def damaged_database(state_dir: Path) -> bytes:
    """A state directory whose database is not one (its first page overwritten); its bytes."""
    app = started_game(state_dir)
    app.store.close()
    database = state_dir / "companion.db"
    damaged = b"not a database" * 300 + database.read_bytes()[4096:]
    database.write_bytes(damaged)
    return damaged


@contextlib.contextmanager
def read_only(mount_point: Path) -> Iterator[None]:
    """The file system at `mount_point` (the `small_fs` fixture) remounted read-only, and
    writable again afterwards: a card the kernel refuses to write, even for root."""
    subprocess.run(["mount", "-o", "remount,ro", str(mount_point)], check=True)
    try:
        yield
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(mount_point)], check=True)


def glyph_pixels(glyph: Glyph) -> tuple[tuple[int, int], ...]:
    """(x, y) of every lit pixel of `glyph`, unscaled, read from its rows as written."""
    return tuple(
        (x, y) for y, row in enumerate(glyph.rows) for x, cell in enumerate(row) if cell == "#"
    )
