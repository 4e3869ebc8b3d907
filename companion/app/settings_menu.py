"""The settings menu: contrast, dimming, blanking, rotation, language, and the input test."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from companion.app.widgets import Action, Entry, Menu, Notice, NumberPicker, Screen
from companion.inputs.events import Input
from companion.storage.settings import LANGUAGES, SettingsError, save_settings
from companion.text.language import LANGUAGE_NAMES, Words, msg, words_for
from companion.views import InputTestView, MenuView, ScreenKind, View

if TYPE_CHECKING:
    from companion.app.companion import Companion

TIMEOUTS = [0, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600]
"""The choices for dimming and blanking, in seconds (0: never)."""
CONTRAST_STEP = 15
SELECTS_TO_LEAVE_INPUT_TEST = 3
INPUT_TEST_ENTRY = 5
"""Where the input test is in the settings menu: the cursor comes back to it."""


def seconds(value: int, words: Words) -> str:
    """A timeout as the menu shows it: "never", "45 s", "5 min"."""
    if value == 0:
        return words("never")
    if value >= 60 and value % 60 == 0:
        return words("{minutes} min", minutes=value // 60)
    return words("{seconds} s", seconds=value)


class SettingsMenu:
    def __init__(self, app: Companion) -> None:
        self.app = app

    def show(self, selected: int = 0) -> None:
        s, words = self.app.settings, self.app.words
        contrasts = range(0, 256, CONTRAST_STEP)

        def timeout(value: int) -> str:
            return seconds(value, words)

        entries = [
            Entry(
                words("Contrast"),
                lambda: self._edit("contrast", words("Contrast"), contrasts, str),
                str(s.contrast),
            ),
            Entry(
                words("Dim after"),
                lambda: self._edit("dim_after_s", words("Dim after"), TIMEOUTS, timeout),
                timeout(s.dim_after_s),
            ),
            Entry(
                words("Blank after"),
                lambda: self._edit("blank_after_s", words("Blank after"), TIMEOUTS, timeout),
                timeout(s.blank_after_s),
            ),
            Entry(words("Rotation"), self._rotate, words("{degrees} deg", degrees=s.rotation)),
            Entry(
                words("Language"),
                lambda: self.choose_language(self.show),
                LANGUAGE_NAMES[s.language],
            ),
            Entry(words("Input test"), self._input_test),
            Entry(words("Back"), self.app.home),
        ]
        self.app.show(
            Menu(
                words("Settings"),
                entries,
                on_back=self.app.home,
                selected=selected,
                kind=ScreenKind.SETTINGS,
            )
        )

    def _edit(
        self, key: str, label: str, allowed: range | list[int], shown: Callable[[int], str]
    ) -> None:
        current = getattr(self.app.settings, key)
        self.app.show(
            NumberPicker(
                self.app.words("Settings"),
                label,
                current,
                sorted(set(allowed) | {current}),
                shown,
                lambda value: self._change(key, value),
                self.show,
                self.app.words,
            )
        )

    def _change(self, key: str, value: int) -> None:
        if self._save(key, value):
            self.show()

    def _save(self, key: str, value: int | str) -> bool:
        """Change one setting and save it; False (said on screen) if it was not."""
        try:
            changed = self.app.settings.with_value(key, value)
        except SettingsError as error:
            words = self.app.words
            self.app.show(Notice(words("Not changed"), (str(error),), self.show, words))
            return False
        try:
            save_settings(self.app.settings_path, changed)
        except OSError as error:
            self.app.not_saved(msg("The setting"), error, self.show)
            return False
        self.app.settings = changed
        return True

    def choose_language(self, then: Action) -> None:
        """Every language named in itself; the chosen one is saved and `then` shown in it."""

        def choose(code: str) -> None:
            if self._save("language", code):
                then()

        entries = [Entry(LANGUAGE_NAMES[code], partial(choose, code)) for code in LANGUAGES]
        current = LANGUAGES.index(self.app.settings.language)
        self.app.show(LanguageMenu(entries, on_back=then, selected=current))

    def _rotate(self) -> None:
        self._change("rotation", 180 if self.app.settings.rotation == 0 else 0)

    def _input_test(self) -> None:
        back = partial(self.show, selected=INPUT_TEST_ENTRY)
        self.app.show(InputTestScreen(back, self.app.words))


INPUT_NAMES: dict[Input, str] = {
    Input.NEXT: msg("next"),
    Input.PREVIOUS: msg("previous"),
    Input.SELECT: msg("select"),
    Input.BACK: msg("back"),
    Input.HOLD: msg("hold"),
}


class InputTestScreen(Screen):
    """Shows every input as it arrives; three selects in a row leave."""

    def __init__(self, on_done: Action, words: Words) -> None:
        self.on_done, self.words = on_done, words
        self.events: list[Input] = []

    def view(self) -> View:
        words = self.words
        return InputTestView(
            tuple(words(INPUT_NAMES[event]) for event in self.events[-5:]),
            words("Input test"),
            words("inputs: {count}", count=len(self.events)),
            words("Press or turn anything"),
            words("select x3 to leave"),
        )

    def handle(self, event: Input) -> None:
        self.events.append(event)
        recent = self.events[-SELECTS_TO_LEAVE_INPUT_TEST:]
        if recent == [Input.SELECT] * SELECTS_TO_LEAVE_INPUT_TEST:
            self.on_done()


class LanguageMenu(Menu):
    """The languages, each in itself; the title is "Language" in the one under the cursor,
    so a player who cannot read the current language still finds theirs."""

    def __init__(self, entries: list[Entry], on_back: Action | None, selected: int) -> None:
        super().__init__("", entries, on_back, selected=selected, kind=ScreenKind.LANGUAGE)

    def view(self) -> View:
        menu = super().view()
        assert isinstance(menu, MenuView)
        words = words_for(LANGUAGES[self.cursor.index])
        return MenuView(words("Language"), menu.items, menu.selected, menu.note, menu.kind)
