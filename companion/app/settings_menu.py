"""The settings menu: contrast, dimming, blanking, rotation, language, and the input test."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from companion.app.widgets import Action, Entry, Menu, NumberPicker, Screen
from companion.inputs.events import Input
from companion.storage.settings import Settings, SettingsError, save_settings
from companion.text.language import LANGUAGE_NAMES, Words, msg, words_for
from companion.views import InputTestView, MenuView, ScreenKind, View

if TYPE_CHECKING:
    from companion.app.host import Host

TIMEOUTS = [0, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600]
"""The choices for dimming and blanking, in seconds (0: never)."""
CONTRASTS = sorted({*range(0, 256, 16), 255})
"""Steps of 16 from 0, and the panel's brightest: the default (128) is one of them, so
a player who tried a brighter panel can turn back to it."""
SELECTS_TO_LEAVE_INPUT_TEST = 3


def seconds(value: int, words: Words) -> str:
    """A timeout as the menu shows it: "never", "45 s", "5 min"."""
    if value == 0:
        return words("never")
    if value >= 60 and value % 60 == 0:
        return words("{minutes} min", minutes=value // 60)
    return words("{seconds} s", seconds=value)


@dataclass(frozen=True, slots=True)
class NumberSetting:
    """A setting chosen from a list of numbers: how the player sees it, and its field."""

    label: str
    field: str
    """The `Settings` field it changes (never shown)."""
    choices: Sequence[int]
    shown: Callable[[int, Words], str]
    short: str = ""
    """A word for it beside another setting's label ("dim")."""
    limited_by: int | None = None
    """The row of the setting that limits this one: its value is shown while choosing."""


def _number(value: int, words: Words) -> str:
    return str(value)


NUMBER_SETTINGS = (
    NumberSetting(msg("Contrast"), "contrast", CONTRASTS, _number),
    NumberSetting(msg("Dim after"), "dim_after_s", TIMEOUTS, seconds, msg("dim"), limited_by=2),
    NumberSetting(msg("Blank after"), "blank_after_s", TIMEOUTS, seconds, msg("blank"), 1),
)
ROTATION_ENTRY = len(NUMBER_SETTINGS)
INPUT_TEST_ENTRY = ROTATION_ENTRY + 2
"""Rows after the number settings (Rotation, Language, Input test): the cursor
comes back to them."""


class SettingsMenu:
    """The cursor stays on the row just changed (or left), so a setting can be tried
    again or the next one reached without turning from the top."""

    def __init__(self, app: Host) -> None:
        self.app = app

    def show(self, selected: int = 0) -> None:
        s, words = self.app.settings, self.app.words
        entries = [
            Entry(
                words(setting.label),
                partial(self._edit, row),
                setting.shown(getattr(s, setting.field), words),
            )
            for row, setting in enumerate(NUMBER_SETTINGS)
        ]
        language = ROTATION_ENTRY + 1
        entries += [
            Entry(words("Rotation"), self._rotate, words("{degrees} deg", degrees=s.rotation)),
            Entry(
                words("Language"),
                lambda: self.choose_language(partial(self.show, language)),
                LANGUAGE_NAMES[s.language],
            ),
            Entry(words("Input test"), self._input_test),
            Entry(words("Back"), self._home),
        ]
        self.app.show(
            Menu(
                words("Settings"),
                entries,
                on_back=self._home,
                selected=selected,
                kind=ScreenKind.SETTINGS,
            )
        )

    def _home(self) -> None:
        self.app.home(on=msg("Settings"))

    def _edit(self, row: int) -> None:
        settings, words = self.app.settings, self.app.words
        setting = NUMBER_SETTINGS[row]
        current = getattr(settings, setting.field)
        # Only what the settings allow beside the others (blanking never before
        # dimming): a choice is never refused after it is made.
        allowed = [
            value
            for value in sorted(set(setting.choices) | {current})
            if _allows(settings, setting.field, value)
        ]
        label = words(setting.label)
        if setting.limited_by is not None:
            limit = NUMBER_SETTINGS[setting.limited_by]
            label = words(
                "{setting} ({limit}: {value})",
                setting=label,
                limit=words(limit.short),
                value=limit.shown(getattr(settings, limit.field), words),
            )
        self.app.show(
            NumberPicker(
                words("Settings"),
                label,
                current,
                allowed,
                lambda value: setting.shown(value, words),
                lambda value: self._change(setting.field, value, row),
                partial(self.show, row),
                words,
            )
        )

    def _change(self, key: str, value: int, row: int) -> None:
        if self._save(key, value):
            self.show(row)

    def _save(self, key: str, value: int | str, after_refusal: Action | None = None) -> bool:
        """Change one setting and save it; False if it was not saved: said on screen, then
        `after_refusal` (this menu if None).

        Only values the settings allow come here (`_allows` picks the numbers, the
        rotation and the languages are all allowed), so `with_value` never refuses
        one: its message, naming the file's keys, is never a screen's.
        """
        changed = self.app.settings.with_value(key, value)
        try:
            save_settings(self.app.settings_path, changed)
        except OSError as error:
            self.app.not_saved(msg("The setting"), error, after_refusal or self.show)
            return False
        self.app.settings = changed
        return True

    def choose_language(self, then: Action) -> None:
        """Every language named in itself; the chosen one is saved and `then` shown in it.
        A choice the card refuses goes on to `then` too, once said: at the first start,
        `then` tells what else the start found."""

        def choose(code: str) -> None:
            if self._save("language", code, after_refusal=then):
                then()

        entries = [Entry(name, partial(choose, code)) for code, name in LANGUAGE_NAMES.items()]
        current = list(LANGUAGE_NAMES).index(self.app.settings.language)
        self.app.show(LanguageMenu(entries, on_back=then, selected=current))

    def _rotate(self) -> None:
        self._change("rotation", 180 if self.app.settings.rotation == 0 else 0, ROTATION_ENTRY)

    def _input_test(self) -> None:
        back = partial(self.show, selected=INPUT_TEST_ENTRY)
        self.app.show(InputTestScreen(back, self.app.words))


def _allows(settings: Settings, field: str, value: int) -> bool:
    try:
        settings.with_value(field, value)
    except SettingsError:
        return False
    return True


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
            words.counted("inputs: {count}", "inputs: {count}", count=len(self.events)),
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
        words = words_for(list(LANGUAGE_NAMES)[self.cursor.index])
        return MenuView(words("Language"), menu.items, menu.selected, menu.note, menu.kind)
