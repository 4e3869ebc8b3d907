"""The player's settings, kept in `settings.json` in the state directory.

A bad file never stops the device: the defaults are used, the player is told
in one line what is wrong (file, key, problem), and the file is moved aside
(`settings-damaged-….json`) so nothing typed into it is lost.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.storage.files import atomic_write_text, load_state_json
from companion.text.language import ENGLISH, LANGUAGE_NAMES

SETTINGS_NAME = "settings.json"
DAMAGED_STEM = "settings-damaged"
MAX_SECONDS = 24 * 60 * 60
"""A longer timeout is surely a typo; a day is as good as never."""
DEFAULT_CONTRAST = 128
"""The contrast a device starts at; the simulation's displays draw it at full brightness
and lower levels dimmed (`companion.display.terminal`, `companion.display.window`)."""


class SettingsError(ValueError):
    """A settings value that cannot be used; the message is one line naming the source and key."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The person's choices, kept on disk; each value is checked when made (`SettingsError`)."""

    contrast: int = DEFAULT_CONTRAST
    """The display's contrast, 0–255."""
    dim_after_s: int = 60
    """Seconds without input before the display dims; 0 = never."""
    blank_after_s: int = 300
    """Seconds without input before the display blanks; 0 = never; not before dimming."""
    rotation: int = 0
    """0, or 180 for a display mounted upside down."""
    language: str = ENGLISH
    """The screens' language, a code of `LANGUAGE_NAMES`; logs and the command line stay
    English."""

    def __post_init__(self) -> None:
        _check_all(asdict(self), type(self).__name__)

    def with_value(self, key: str, value: int | str) -> Settings:
        """A copy with one setting changed; `SettingsError` (one line) if it is not allowed."""
        return validate_settings({**asdict(self), key: value}, "Settings")


@dataclass(frozen=True, slots=True)
class _Rule:
    """What one setting accepts, and how its error names what was expected."""

    accepts: Callable[[Any], bool]
    expected: str
    """The end of "'key' must be …", e.g. "a whole number 0–255"."""
    kind: type = int


_RULES: Mapping[str, _Rule] = MappingProxyType(
    {
        "contrast": _Rule(lambda value: 0 <= value <= 255, "a whole number 0–255"),
        "dim_after_s": _Rule(
            lambda value: 0 <= value <= MAX_SECONDS,
            f"a whole number of seconds 0–{MAX_SECONDS} (0 = never)",
        ),
        "blank_after_s": _Rule(
            lambda value: 0 <= value <= MAX_SECONDS,
            f"a whole number of seconds 0–{MAX_SECONDS} (0 = never)",
        ),
        "rotation": _Rule(lambda value: value in (0, 180), "0 or 180"),
        "language": _Rule(
            lambda value: value in LANGUAGE_NAMES, f"one of {', '.join(LANGUAGE_NAMES)}", str
        ),
    }
)


def validate_settings(mapping: Any, source_name: str) -> Settings:
    """Settings from a parsed JSON object; keys left out take their defaults.

    Raises `SettingsError` with one line such as
    "settings.json: 'contrast' must be a whole number 0–255, not 'high'".
    """
    if not isinstance(mapping, Mapping):
        raise SettingsError(
            f"{source_name}: expected a JSON object of settings, not {_kind(mapping)}"
        )
    known = [field.name for field in fields(Settings)]
    unknown = [key for key in mapping if key not in known]
    if unknown:
        raise SettingsError(
            f"{source_name}: unknown key {unknown[0]!r}; the settings are {', '.join(known)}"
        )
    values = {**asdict(Settings()), **mapping}
    _check_all(values, source_name)
    return Settings(**values)


def load_settings(path: Path) -> tuple[Settings, str | None]:
    """The settings in `path`, and None; or the defaults and one line saying why.

    A missing file is not a problem: it means the defaults. A file that is
    wrong is moved aside so that nothing in it is lost.
    """
    path = Path(path)
    settings, message = load_state_json(
        path, lambda data: validate_settings(data, path.name), DAMAGED_STEM, "using the defaults"
    )
    return settings or Settings(), message


def save_settings(path: Path, settings: Settings) -> None:
    """Write `settings` to `path` atomically: a power cut leaves the old file or the new."""
    atomic_write_text(Path(path), json.dumps(asdict(settings), indent=2) + "\n")


def _check_all(values: Mapping[str, Any], source_name: str) -> None:
    for key, rule in _RULES.items():
        value = values[key]
        if isinstance(value, bool) or not isinstance(value, rule.kind) or not rule.accepts(value):
            raise SettingsError(f"{source_name}: {key!r} must be {rule.expected}, not {value!r}")
    dim, blank = values["dim_after_s"], values["blank_after_s"]
    if dim and blank and blank < dim:
        raise SettingsError(
            f"{source_name}: 'blank_after_s' ({blank}) must be at least 'dim_after_s' ({dim}), "
            "or 0 for never"
        )


def _kind(value: Any) -> str:
    names = {list: "a list", str: "a string", bool: "true or false", type(None): "null"}
    return names.get(type(value), "a number")
