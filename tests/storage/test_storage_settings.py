"""Settings: validation messages, defaults, bad files moved aside, atomic saves."""

from __future__ import annotations

import json

import pytest

from companion.storage.settings import (
    Settings,
    SettingsError,
    load_settings,
    save_settings,
    validate_settings,
)


def test_defaults():
    assert Settings() == Settings(
        contrast=128, dim_after_s=60, blank_after_s=300, rotation=0, language="en"
    )


def test_a_missing_file_gives_the_defaults(tmp_path):
    assert load_settings(tmp_path / "settings.json") == (Settings(), None)


def test_a_file_saved_with_a_byte_order_mark_keeps_its_settings(tmp_path):
    # Windows' Notepad starts a UTF-8 file with a BOM: the settings edited on the card
    # from a PC were set aside as "not valid JSON (Unexpected UTF-8 BOM ...)".
    path = tmp_path / "settings.json"
    path.write_bytes(b'\xef\xbb\xbf{"contrast": 200, "language": "ko"}')
    assert load_settings(path) == (Settings(contrast=200, language="ko"), None)
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_save_then_load(tmp_path):
    path = tmp_path / "settings.json"
    settings = Settings(contrast=255, dim_after_s=0, blank_after_s=30, rotation=180, language="ko")
    save_settings(path, settings)
    assert json.loads(path.read_text()) == {
        "contrast": 255,
        "dim_after_s": 0,
        "blank_after_s": 30,
        "rotation": 180,
        "language": "ko",
    }
    assert load_settings(path) == (settings, None)
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_a_partial_file_takes_defaults_for_the_rest(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"rotation": 180}')
    assert load_settings(path) == (Settings(rotation=180), None)


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"contrast": "high"}, "'contrast' must be a whole number 0–255, not 'high'"),
        ({"contrast": 256}, "'contrast' must be a whole number 0–255, not 256"),
        ({"contrast": -1}, "'contrast' must be a whole number 0–255, not -1"),
        ({"contrast": 12.5}, "'contrast' must be a whole number 0–255, not 12.5"),
        ({"contrast": True}, "'contrast' must be a whole number 0–255, not True"),
        ({"contrast": None}, "'contrast' must be a whole number 0–255, not None"),
        (
            {"dim_after_s": "60"},
            "'dim_after_s' must be a whole number of seconds 0–86400 (0 = never), not '60'",
        ),
        (
            {"dim_after_s": -5},
            "'dim_after_s' must be a whole number of seconds 0–86400 (0 = never), not -5",
        ),
        (
            {"blank_after_s": [300]},
            "'blank_after_s' must be a whole number of seconds 0–86400 (0 = never), not [300]",
        ),
        (
            {"blank_after_s": 86401},
            "'blank_after_s' must be a whole number of seconds 0–86400 (0 = never), not 86401",
        ),
        ({"rotation": 90}, "'rotation' must be 0 or 180, not 90"),
        ({"rotation": "180"}, "'rotation' must be 0 or 180, not '180'"),
        ({"language": "de"}, "'language' must be one of en, ru, pl, cs, ko, not 'de'"),
        ({"language": "RU"}, "'language' must be one of en, ru, pl, cs, ko, not 'RU'"),
        ({"language": 1}, "'language' must be one of en, ru, pl, cs, ko, not 1"),
        ({"language": None}, "'language' must be one of en, ru, pl, cs, ko, not None"),
        (
            {"dim_after_s": 120, "blank_after_s": 60},
            "'blank_after_s' (60) must be at least 'dim_after_s' (120), or 0 for never",
        ),
        (
            {"brightness": 3},
            "unknown key 'brightness'; the settings are contrast, dim_after_s, "
            "blank_after_s, rotation, language",
        ),
    ],
)
def test_validation_messages(values, message):
    with pytest.raises(SettingsError) as caught:
        validate_settings(values, "settings.json")
    assert str(caught.value) == f"settings.json: {message}"


def test_not_an_object():
    with pytest.raises(
        SettingsError, match=r"^x\.json: expected a JSON object of settings, not a list"
    ):
        validate_settings([1, 2], "x.json")


@pytest.mark.parametrize(
    "values",
    [
        {"dim_after_s": 0, "blank_after_s": 10},  # never dims, blanks after 10 s
        {"dim_after_s": 60, "blank_after_s": 0},  # dims, never blanks
        {"dim_after_s": 60, "blank_after_s": 60},
        {"contrast": 0},
        {"contrast": 255},
        *({"language": code} for code in ("en", "ru", "pl", "cs", "ko")),
    ],
)
def test_accepted_values(values):
    assert validate_settings(values, "settings.json") == Settings(**values)


def test_the_dataclass_refuses_bad_values_too():
    with pytest.raises(SettingsError, match="'contrast' must be"):
        Settings(contrast=300)
    with pytest.raises(SettingsError, match=r"'blank_after_s' .* at least"):
        Settings(dim_after_s=100, blank_after_s=50)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b'{"contrast": "high"}',
            "settings.json: 'contrast' must be a whole number 0–255, not 'high'",
        ),
        (b'{"contrast": 10,}', "settings.json: not valid JSON ("),
        (b"\xff\xfe", "settings.json: not UTF-8 text"),
        (b"", "settings.json: not valid JSON ("),
        (b'{"volume": 11}', "settings.json: unknown key 'volume'"),
        (b'{"language": "de"}', "settings.json: 'language' must be one of en, ru, pl, cs, ko"),
        (b"[]", "settings.json: expected a JSON object of settings, not a list"),
    ],
)
def test_a_bad_file_gives_defaults_a_message_and_is_kept(tmp_path, content, message):
    path = tmp_path / "settings.json"
    path.write_bytes(content)
    settings, notice = load_settings(path)
    assert settings == Settings()
    assert notice.startswith(message), notice
    assert "\n" not in notice
    (kept,) = tmp_path.glob("settings-damaged-*.json")
    assert kept.read_bytes() == content
    assert kept.name in notice and "using the defaults" in notice
    assert not path.exists()
    # The next start is quiet, with the defaults, until the player saves again.
    assert load_settings(path) == (Settings(), None)


def test_two_bad_files_in_a_row_are_both_kept(tmp_path):
    path = tmp_path / "settings.json"
    for content in (b"{", b"[]"):
        path.write_bytes(content)
        load_settings(path)
    kept = sorted(tmp_path.glob("settings-damaged-*.json"))
    assert sorted(p.read_bytes() for p in kept) == [b"[]", b"{"]


def test_with_value_changes_one_setting_and_checks_it():
    settings = Settings(dim_after_s=60, blank_after_s=300)
    assert settings.with_value("contrast", 10) == Settings(contrast=10)
    assert settings == Settings()  # unchanged: it is frozen
    with pytest.raises(SettingsError) as caught:
        settings.with_value("blank_after_s", 30)
    assert str(caught.value) == (
        "Settings: 'blank_after_s' (30) must be at least 'dim_after_s' (60), or 0 for never"
    )
    with pytest.raises(SettingsError, match="unknown key 'volume'"):
        settings.with_value("volume", 3)
