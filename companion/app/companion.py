"""The application: every flow from the home menu to the final score.

`Companion.handle(input)` is all the outside world calls, and `view()` is all
it reads back. The game in progress is journalled (fsync) before any screen
shows an action as done; a small progress file remembers which screen of the
game was showing, so a restart resumes on it.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from companion.app.circle import DealScreen, PickPatchScreen
from companion.app.play import AutomaScreen, EndScreen, StepsScreen, TurnScreen
from companion.app.rules_text import RULES_REMINDER
from companion.app.statistics import statistics_lines
from companion.app.widgets import Action, Entry, Menu, Notice, NumberPicker, Pages, Question, Screen
from companion.app.wording import automa_summary, player_cards, side_label
from companion.engine.actions import (
    AUTOMA_TURN,
    Adjust,
    AutomaTurn,
    ClaimBonus,
)
from companion.engine.actions import (
    Action as GameAction,
)
from companion.engine.automa import DIFFICULTIES, Deck
from companion.engine.catalogue import BONUS_SQUARES
from companion.engine.game import Game
from companion.engine.setup import AUTOMA, P1, P2, Setup, new_seed, solo_setup, two_player_setup
from companion.inputs.events import Input
from companion.storage.files import atomic_write_text, read_json_file
from companion.storage.history import History
from companion.storage.journal import Journal
from companion.storage.settings import SettingsError, load_settings, save_settings
from companion.views import InputTestView, View

log = logging.getLogger(__name__)

SELECTS_TO_LEAVE_INPUT_TEST = 3


@dataclass
class Progress:
    """Where the game in progress stands beyond its journal: which screen it was on."""

    acknowledged: int = 0
    """Actions whose steps the table has confirmed."""
    asked_bonus: list[str] = field(default_factory=list)
    """Sides already asked once whether they completed a 7×7."""
    dealing: int | None = None
    """Place of the patch being shown while dealing the circle."""
    entering: dict | None = None
    """A circle being entered: the set-up chosen so far and the patches placed."""

    @classmethod
    def load(cls, path: Path) -> Progress:
        try:
            data = read_json_file(path)
            return cls(**data) if isinstance(data, dict) else cls()
        except (OSError, ValueError, TypeError):
            # Progress is only about which screen to show; the journal holds the game.
            return cls()

    def save(self, path: Path) -> None:
        atomic_write_text(path, json.dumps(self.__dict__))


class Companion:
    """The application's state and its current screen."""

    def __init__(self, state_dir: Path, seeds: Callable[[], int] = new_seed) -> None:
        self.state_dir = state_dir
        state_dir.mkdir(parents=True, exist_ok=True)
        self.seeds = seeds
        self.journal = Journal(state_dir / "journal.jsonl")
        self.history = History(state_dir / "history")
        self.progress_path = state_dir / "progress.json"
        self.settings_path = state_dir / "settings.json"
        self.settings, settings_notice = load_settings(self.settings_path)
        loaded = self.journal.load()
        self.game: Game | None = loaded.game
        self.progress = Progress.load(self.progress_path)
        if not self.game and not self.progress.entering:
            # Left from a game that is over or was set aside: nothing to resume.
            self.progress = Progress()
        self.last_finished: Game | None = None
        self.screen: Screen = Menu("", [])
        notices = [text for text in (loaded.notice, settings_notice) if text]
        if self.progress.entering:
            self.resume_entering()
        elif self.game:
            self.resume()
        else:
            self.home()
        for notice in reversed(notices):
            self.screen = Notice("Note", (notice,), self._back_to(self.screen))

    # --- what the outside world uses -------------------------------------------------

    def handle(self, event: Input) -> None:
        self.screen.handle(event)

    def view(self) -> View:
        return self.screen.view()

    def show(self, screen: Screen) -> None:
        self.screen = screen

    def _back_to(self, screen: Screen) -> Action:
        return lambda: self.show(screen)

    # --- home ----------------------------------------------------------------------

    def home(self) -> None:
        entries = []
        if self.game:
            entries.append(Entry("Resume game", self.resume))
        entries += [
            Entry("New solo game", lambda: self._confirm_new(self.new_solo)),
            Entry("New two-player game", lambda: self._confirm_new(self.new_two_player)),
            Entry("Statistics", self.statistics),
            Entry("Settings", self.settings_menu),
        ]
        self.show(Menu("Patchwork", entries))

    def _confirm_new(self, start: Action) -> None:
        if not self.game:
            start()
            return
        self.show(
            Question(
                "New game",
                ("A game is in progress.", "Abandon it? It stays", "in the history."),
                (
                    Entry("No, keep it", self.home),
                    Entry("Yes, abandon", lambda: self._abandon(start)),
                ),
                on_back=self.home,
            )
        )

    def _abandon(self, then: Action) -> None:
        self.journal.archive(finished=False)
        self._clear_game()
        then()

    def _clear_game(self) -> None:
        self.game = None
        self.progress = Progress()
        self.progress_path.unlink(missing_ok=True)

    # --- new games -------------------------------------------------------------------

    def new_solo(self) -> None:
        entries = [
            Entry(
                level.name.capitalize(),
                lambda level=level: self._pick_deck(level.name),
                f"7x7 at {level.bonus_mark}",
            )
            for level in DIFFICULTIES
        ]
        entries.append(Entry("Back", self.home))
        self.show(Menu("Difficulty", entries, on_back=self.home, selected=2))

    def _pick_deck(self, difficulty: str) -> None:
        entries = [
            Entry(
                deck.value.capitalize(),
                lambda deck=deck: self._pick_circle(
                    {"mode": "solo", "difficulty": difficulty, "deck": deck.value}
                ),
            )
            for deck in Deck
        ]
        entries.append(Entry("Back", self.new_solo))
        self.show(Menu("Automa deck", entries, on_back=self.new_solo))

    def new_two_player(self) -> None:
        entries = [
            Entry(
                f"{side.upper()} starts",
                lambda side=side: self._pick_circle({"mode": "two-player", "start": side}),
            )
            for side in (P1, P2)
        ]
        entries.append(Entry("Back", self.home))
        self.show(Menu("Start player", entries, on_back=self.home))

    def _pick_circle(self, choice: dict) -> None:
        entries = [
            Entry("Deal it for me", lambda: self._deal(choice)),
            Entry("I laid it out", lambda: self._enter(choice)),
            Entry("Back", self.home),
        ]
        self.show(Menu("Patch circle", entries, on_back=self.home))

    def _setup(self, choice: dict, circle: tuple[str, ...] | None = None) -> Setup:
        seed = choice.get("seed", self.seeds())
        if choice["mode"] == "solo":
            return solo_setup(choice["difficulty"], choice["deck"], seed=seed, circle=circle)
        return two_player_setup(choice["start"], seed=seed, circle=circle)

    def _deal(self, choice: dict) -> None:
        self._start_game(self._setup(choice))
        self.progress.dealing = 0
        self._save_progress()
        self.resume()

    def _enter(self, choice: dict) -> None:
        self.progress = Progress(entering={**choice, "seed": self.seeds(), "placed": []})
        self._save_progress()
        self.resume_entering()

    def resume_entering(self) -> None:
        entering = self.progress.entering
        assert entering is not None

        def placed_changed(placed: list[str]) -> None:
            entering["placed"] = list(placed)
            self._save_progress()

        def done(circle: tuple[str, ...]) -> None:
            self._start_game(self._setup(entering, circle))
            self.continue_game()

        def cancel() -> None:
            self.progress = Progress()
            self.progress_path.unlink(missing_ok=True)
            self.home()

        self.show(PickPatchScreen(entering["placed"], placed_changed, done, cancel))

    def _start_game(self, setup: Setup) -> None:
        if self.game:
            self.journal.archive(finished=False)
        self.game = Game(setup)
        self.journal.start(setup)
        self.progress = Progress()
        self._save_progress()

    def _save_progress(self) -> None:
        self.progress.save(self.progress_path)

    # --- the game --------------------------------------------------------------------

    @property
    def _game(self) -> Game:
        assert self.game is not None
        return self.game

    def resume(self) -> None:
        """Back to the screen the game was on: dealing, unconfirmed steps, or the turn."""
        game = self._game
        if self.progress.dealing is not None:
            self._show_dealing()
        elif self.progress.acknowledged < len(game.move_stack):
            # The last action's steps were not confirmed: show them again. Undo and
            # redo gives the same steps, reshuffle included, and writes nothing.
            action = game.pop()
            self._show_steps(action, game.push(action))
        else:
            self.continue_game()

    def _show_dealing(self) -> None:
        def moved(index: int) -> None:
            self.progress.dealing = index
            self._save_progress()

        def done() -> None:
            self.progress.dealing = None
            self._save_progress()
            self.continue_game()

        self.show(DealScreen(self._game.setup.circle, self.progress.dealing or 0, moved, done))

    def continue_game(self) -> None:
        """The next screen once the table has done everything asked."""
        game = self._game
        if game.is_over:
            self.show(EndScreen(game, self._finish, self.game_menu))
        elif side := self._bonus_reminder_due():
            self._ask_bonus(side)
        elif game.turn == AUTOMA:
            self._play(AUTOMA_TURN)
        else:
            self.show(TurnScreen(game, self._play, self.game_menu))

    def _play(self, action: GameAction) -> None:
        game = self._game
        steps = game.push(action)
        try:
            self.journal.append(game.move_stack[-1])
        except OSError as error:
            game.pop()
            log.error("could not save the action: %s", error)
            self.show(
                Notice(
                    "Not saved", ("The action could not be saved:", str(error)), self.continue_game
                )
            )
            return
        self._show_steps(game.move_stack[-1], steps)

    def _show_steps(self, action: GameAction, steps: tuple) -> None:
        if isinstance(action, AutomaTurn):
            self.show(AutomaScreen(automa_summary(steps), self._acknowledge, self.game_menu))
        else:
            self.show(StepsScreen(player_cards(steps), self._acknowledge, self.game_menu))

    def _acknowledge(self) -> None:
        self.progress.acknowledged = len(self._game.move_stack)
        self._save_progress()
        self.continue_game()

    def _bonus_reminder_due(self) -> str | None:
        game = self._game
        for name, side in game.sides.items():
            if (
                name != AUTOMA
                and game.bonus_holder is None
                and side.covered >= BONUS_SQUARES
                and name not in self.progress.asked_bonus
            ):
                return name
        return None

    def _ask_bonus(self, side: str) -> None:
        def answered(claim: bool) -> None:
            self.progress.asked_bonus.append(side)
            self._save_progress()
            if claim:
                self._play(ClaimBonus(side))
            else:
                self.continue_game()

        who = "you have" if side == "player" else f"{side.upper()} has"
        self.show(
            Question(
                "7x7 bonus",
                (
                    f"{who.capitalize()} {self._game.sides[side].covered} squares.",
                    "A full 7x7 square?",
                ),
                (
                    Entry("Not yet", lambda: answered(False)),
                    Entry("Yes, claim it", lambda: answered(True)),
                ),
            )
        )

    def _finish(self) -> None:
        self.show(
            Question(
                "Game over",
                ("Save the result to", "the history?"),
                (
                    Entry("Save and finish", self._save_finished),
                    Entry("Undo last action", self._undo),
                ),
                on_back=self.continue_game,
            )
        )

    def _save_finished(self) -> None:
        self.journal.archive(finished=True)
        self.last_finished = self.game
        self._clear_game()
        self.home()

    # --- the in-game menu ----------------------------------------------------------

    def game_menu(self) -> None:
        game = self._game
        entries = [Entry("Back to the game", self.resume)]
        claimants = [name for name in game.sides if game.can_claim_bonus(name)]
        if claimants:
            entries.append(
                Entry(
                    "Claim 7x7 bonus",
                    lambda: self._choose_side("Who claims?", claimants, self._claim),
                )
            )
        if not game.is_over:
            sides = list(game.sides)
            entries.append(
                Entry(
                    "Correct buttons",
                    lambda: self._choose_side("Whose buttons?", sides, self._correct),
                )
            )
        if any(not isinstance(action, AutomaTurn) for action in game.move_stack):
            entries.append(Entry("Undo last action", self._confirm_undo))
        entries += [Entry("Rules reminder", self._rules), Entry("Home", self.home)]
        self.show(Menu("Game menu", entries, on_back=self.resume))

    def _choose_side(self, title: str, sides: list[str], then: Callable[[str], None]) -> None:
        if len(sides) == 1:
            then(sides[0])
            return
        entries = [Entry(side_label(side), lambda side=side: then(side)) for side in sides]
        self.show(Menu(title, entries, on_back=self.game_menu))

    def _claim(self, side: str) -> None:
        self.progress.asked_bonus.append(side)
        self._play(ClaimBonus(side))

    def _correct(self, side: str) -> None:
        buttons = self._game.sides[side].buttons
        allowed = list(range(-buttons, 31))
        allowed.remove(0)
        self.show(
            NumberPicker(
                "Correct buttons",
                f"{side_label(side)} have {buttons}"
                if side == "player"
                else f"{side_label(side)} has {buttons}",
                1,
                allowed,
                lambda delta: f"{delta:+d} = {buttons + delta}",
                lambda delta: self._play(Adjust(side, delta)),
                self.game_menu,
            )
        )

    def _confirm_undo(self) -> None:
        self.show(
            Question(
                "Undo",
                ("Take back the last action", "(and the Automa's turns", "that followed it)?"),
                (Entry("No", self.game_menu), Entry("Yes, undo", self._undo)),
                on_back=self.game_menu,
            )
        )

    def _undo(self) -> None:
        """Take back the last action of a person, with any Automa turns after it."""
        game = self._game
        while game.move_stack:
            # The file first: if it cannot be shortened, the game stays as the file says.
            self.journal.undo()
            if not isinstance(game.pop(), AutomaTurn):
                break
        self.progress.acknowledged = len(game.move_stack)
        self._save_progress()
        self.continue_game()

    def _rules(self) -> None:
        self.show(Pages("Rules", RULES_REMINDER, self.game_menu))

    # --- statistics and settings -----------------------------------------------------

    def statistics(self) -> None:
        self.show(Pages("Statistics", statistics_lines(self.history.statistics()), self.home))

    def settings_menu(self, selected: int = 0) -> None:
        s = self.settings
        entries = [
            Entry(
                "Contrast", lambda: self._edit("contrast", range(0, 256, 15), str), str(s.contrast)
            ),
            Entry(
                "Dim after",
                lambda: self._edit("dim_after_s", TIMEOUTS, _seconds),
                _seconds(s.dim_after_s),
            ),
            Entry(
                "Blank after",
                lambda: self._edit("blank_after_s", TIMEOUTS, _seconds),
                _seconds(s.blank_after_s),
            ),
            Entry("Rotation", self._rotate, f"{s.rotation} deg"),
            Entry("Input test", self._input_test),
            Entry("Back", self.home),
        ]
        self.show(Menu("Settings", entries, on_back=self.home, selected=selected))

    def _edit(self, key: str, allowed: range | list[int], shown: Callable[[int], str]) -> None:
        values = sorted(set(allowed) | {getattr(self.settings, key)})
        self.show(
            NumberPicker(
                "Settings",
                key.replace("_after_s", " after").capitalize(),
                getattr(self.settings, key),
                values,
                shown,
                lambda value: self._change_setting(key, value),
                self.settings_menu,
            )
        )

    def _change_setting(self, key: str, value: int) -> None:
        try:
            self.settings = self.settings.with_value(key, value)
        except SettingsError as error:
            self.show(Notice("Not changed", (str(error),), self.settings_menu))
            return
        save_settings(self.settings_path, self.settings)
        self.settings_menu()

    def _rotate(self) -> None:
        self._change_setting("rotation", 180 if self.settings.rotation == 0 else 0)

    def _input_test(self) -> None:
        self.show(InputTestScreen(lambda: self.settings_menu(selected=4)))


TIMEOUTS = [0, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600]


def _seconds(value: int) -> str:
    if value == 0:
        return "never"
    return f"{value // 60} min" if value >= 60 and value % 60 == 0 else f"{value} s"


class InputTestScreen(Screen):
    """Shows every input as it arrives; three selects in a row leave."""

    def __init__(self, on_done: Action) -> None:
        self.on_done = on_done
        self.events: list[str] = []
        self.count = 0

    def view(self) -> View:
        return InputTestView(tuple(self.events[-5:]), self.count)

    def handle(self, event: Input) -> None:
        self.count += 1
        self.events.append(event.value)
        recent = self.events[-SELECTS_TO_LEAVE_INPUT_TEST:]
        if recent == [Input.SELECT.value] * SELECTS_TO_LEAVE_INPUT_TEST:
            self.on_done()
