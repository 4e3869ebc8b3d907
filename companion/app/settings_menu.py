"""The settings menu: contrast, dimming, blanking, rotation, and the input test."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from companion.app.widgets import Action, Entry, Menu, Notice, NumberPicker, Screen
from companion.inputs.events import Input
from companion.storage.settings import SettingsError, save_settings
from companion.views import InputTestView, ScreenKind, View

if TYPE_CHECKING:
    from companion.app.companion import Companion

TIMEOUTS = [0, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600]
"""The choices for dimming and blanking, in seconds (0: never)."""
CONTRAST_STEP = 15
SELECTS_TO_LEAVE_INPUT_TEST = 3
INPUT_TEST_ENTRY = 4
"""Where the input test is in the settings menu: the cursor comes back to it."""


def seconds(value: int) -> str:
    """A timeout as the menu shows it: "never", "45 s", "5 min"."""
    if value == 0:
        return "never"
    return f"{value // 60} min" if value >= 60 and value % 60 == 0 else f"{value} s"


class SettingsMenu:
    def __init__(self, app: Companion) -> None:
        self.app = app

    def show(self, selected: int = 0) -> None:
        s = self.app.settings
        contrasts = range(0, 256, CONTRAST_STEP)
        entries = [
            Entry("Contrast", lambda: self._edit("contrast", contrasts, str), str(s.contrast)),
            Entry(
                "Dim after",
                lambda: self._edit("dim_after_s", TIMEOUTS, seconds),
                seconds(s.dim_after_s),
            ),
            Entry(
                "Blank after",
                lambda: self._edit("blank_after_s", TIMEOUTS, seconds),
                seconds(s.blank_after_s),
            ),
            Entry("Rotation", self._rotate, f"{s.rotation} deg"),
            Entry("Input test", self._input_test),
            Entry("Back", self.app.home),
        ]
        self.app.show(
            Menu(
                "Settings",
                entries,
                on_back=self.app.home,
                selected=selected,
                kind=ScreenKind.SETTINGS,
            )
        )

    def _edit(self, key: str, allowed: range | list[int], shown: Callable[[int], str]) -> None:
        current = getattr(self.app.settings, key)
        self.app.show(
            NumberPicker(
                "Settings",
                key.replace("_after_s", " after").capitalize(),
                current,
                sorted(set(allowed) | {current}),
                shown,
                lambda value: self._change(key, value),
                self.show,
            )
        )

    def _change(self, key: str, value: int) -> None:
        try:
            changed = self.app.settings.with_value(key, value)
        except SettingsError as error:
            self.app.show(Notice("Not changed", (str(error),), self.show))
            return
        try:
            save_settings(self.app.settings_path, changed)
        except OSError as error:
            self.app.not_saved("The setting", error, self.show)
            return
        self.app.settings = changed
        self.show()

    def _rotate(self) -> None:
        self._change("rotation", 180 if self.app.settings.rotation == 0 else 0)

    def _input_test(self) -> None:
        self.app.show(InputTestScreen(lambda: self.show(selected=INPUT_TEST_ENTRY)))


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
