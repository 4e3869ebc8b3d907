#!/usr/bin/env python3
"""Bad-configuration harness: every key of every shipped profile and of settings.json, broken.

    .venv/bin/python stress/bad_config.py [--cli-sample 12] [--seed S]

For every key of every shipped hardware profile (companion/hardware/profiles/*.toml:
each scalar, each table, each [[array]] item) three cases are written to a
temporary file and read with ``load_profile``:

- ``wrong-type``: a value of another type (a string for a number, a number for
  a string or a table);
- ``out-of-range``: a value of the right type the profile cannot use (a GPIO of
  99, rotation 90, driver "ssd9999", a socket:// url...); for a table, an unknown
  key put in it; keys that take any value (``description``) have no such case;
- ``missing``: the key removed.

Each case must be refused with a ``ProfileError`` that is exactly one line
``<file>: <key>: <problem>`` naming the file and the key (or, for a missing
key, the table that now lacks something, e.g. ``inputs: nothing gives select``),
with no other exception. A missing optional key may be accepted: then the
profile must equal the one read with that key set explicitly to its documented
default (reported apart, "accepted with the default"), or, for optional parts
with no default value (a reset pin, the shut-down pin, one joystick direction,
one of several buttons), be accepted without it ("optional part left out").
Some whole-file cases are added (unknown key, TOML syntax error, not UTF-8, empty).

settings.json gets the same three cases per key (plus a blank timeout shorter
than the dim one, and whole-file cases), read with ``load_settings``: refused
means one line naming ``settings.json``, the key and the problem, the defaults
used, and the file kept aside byte-identical as ``settings-damaged-*.json``;
a missing key must take its default and keep the other values.

A sample of the refused profile cases is also run on the real command line,
``patchwork-companion run --profile FILE`` and ``check-hardware --profile FILE``,
as subprocesses: exit status 2, one line on stderr, no traceback.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
from companion.hardware.profile import (  # noqa: E402
    ProfileError,
    load_profile,
    profile_names,
    shipped_profile_path,
)
from companion.storage.settings import Settings, load_settings, validate_settings  # noqa: E402
from stress.common import hold_the_wall_clock, invocation, machine_line  # noqa: E402

OUT_OF_RANGE: dict[str, Any] = {
    "name": "   ",
    "driver": "ssd9999",
    "interface": "usb",
    "i2c_port": 99,
    "i2c_address": 0x80,
    "spi_port": 5,
    "spi_device": 7,
    "gpio_dc": 99,
    "gpio_reset": 40,
    "bus_speed_hz": 5,
    "width": 256,
    "height": 32,
    "rotation": 90,
    "hold_time": 60.0,
    "bounce_time": 2.0,
    "a": 28,
    "b": -1,
    "switch": 99,
    "transitions_per_detent": 3,
    "pin": 30,
    "input": "jump",
    "up": 50,
    "down": 50,
    "left": -3,
    "right": 28,
    "centre": 99,
    "url": "socket://192.0.2.1:7000",  # pyserial would take the inputs from the network
    "baudrate": 50,
    "shutdown_pin": 28,
}
FREE_TEXT = {"description"}
"""Keys that take any string: no out-of-range value."""
DEFAULTS: dict[str, Any] = {
    "description": "",
    "i2c_port": 1,
    "rotation": 0,
    "width": 128,
    "height": 64,
    "spi_port": 0,
    "spi_device": 0,
    "hold_time": 0.8,
    "inputs.bounce_time": 0.02,
    "transitions_per_detent": 4,
    "baudrate": 115200,
}
"""The documented default of each optional key with a value (see profile.py)."""

SETTINGS_BASE = {"contrast": 200, "dim_after_s": 120, "blank_after_s": 600, "rotation": 180}
SETTINGS_BAD: dict[str, dict[str, list[Any]]] = {
    "contrast": {"wrong-type": ["high", True, 1.5, None], "out-of-range": [256, -1]},
    "dim_after_s": {"wrong-type": ["60", [60], 0.5], "out-of-range": [-1, 86401]},
    "blank_after_s": {"wrong-type": ["never", False, {}], "out-of-range": [86401, 30]},
    "rotation": {"wrong-type": ["180", 180.0], "out-of-range": [90, -180]},
}


# --- a small TOML writer (tomllib only reads) ----------------------------------------------


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def toml_text(data: dict, path: str = "") -> str:
    lines = []
    for key, value in data.items():
        if not isinstance(value, dict) and not _is_table_array(value):
            lines.append(f"{key} = {toml_value(value)}")
    for key, value in data.items():
        full = f"{path}.{key}" if path else key
        if isinstance(value, dict):
            lines.append(f"\n[{full}]")
            lines.append(toml_text(value, full))
        elif _is_table_array(value):
            for item in value:
                lines.append(f"\n[[{full}]]")
                lines.append(toml_text(item, full))
    return "\n".join(line for line in lines if line) + "\n"


# --- the keys of a profile -----------------------------------------------------------------


def key_paths(data: dict, prefix: tuple = ()) -> list[tuple]:
    """Every key as a path of names and list indexes, parents before children."""
    paths = []
    for key, value in data.items():
        path = (*prefix, key)
        paths.append(path)
        if isinstance(value, dict):
            paths += key_paths(value, path)
        elif _is_table_array(value):
            for index, item in enumerate(value):
                paths.append((*path, index))
                paths += key_paths(item, (*path, index))
    return paths


def shown(path: tuple) -> str:
    """The key as ProfileError names it: inputs.buttons[0].pin."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def ancestors(path: tuple) -> list[str]:
    return [shown(path[:length]) for length in range(len(path), 0, -1)]


def get(data: Any, path: tuple) -> Any:
    for part in path:
        data = data[part]
    return data


def with_change(data: dict, path: tuple, value: Any = None, remove: bool = False) -> dict:
    changed = copy.deepcopy(data)
    parent = get(changed, path[:-1])
    if remove:
        del parent[path[-1]]
        if isinstance(path[-1], int) and not parent:
            del get(changed, path[:-2])[path[-2]]
    else:
        parent[path[-1]] = value
    return changed


def wrong_type(value: Any) -> Any:
    if isinstance(value, str):
        return 12
    if isinstance(value, bool):
        return "yes"
    if isinstance(value, int | float):
        return str(value)
    return 5  # a table, or an array of tables


def out_of_range(path: tuple, value: Any) -> tuple[bool, Any]:
    leaf = path[-1]
    if isinstance(value, dict):
        return True, {**value, "colour": 1}  # an unknown key in the table
    if isinstance(value, list):
        return False, None
    if leaf in FREE_TEXT or leaf not in OUT_OF_RANGE:
        return False, None
    return True, OUT_OF_RANGE[leaf]


def default_for(path: tuple) -> tuple[bool, Any]:
    dotted = ".".join(str(part) for part in path)
    for key in (dotted, path[-1]):
        if key in DEFAULTS:
            return True, DEFAULTS[key]
    if path[-1] == "bus_speed_hz":
        return True, None  # depends on the interface: filled in by the caller
    return False, None


# --- one case ------------------------------------------------------------------------------


def check_profile_case(
    folder: Path, name: str, data: dict, path: tuple, case: str, value: Any
) -> tuple[str, str]:
    """(verdict, detail) for one broken profile."""
    file = folder / f"{name}.toml"
    changed = with_change(data, path, value, remove=case == "missing")
    file.write_text(toml_text(changed))
    try:
        profile = load_profile(str(file))
    except ProfileError as error:
        message = str(error)
        if "\n" in message or "\r" in message:
            return "else", f"more than one line: {message!r}"
        prefix = f"{file}: "
        if not message.startswith(prefix):
            return "else", f"does not start with the file name: {message}"
        rest = message[len(prefix) :]
        named, _, problem = rest.partition(": ")
        if not problem.strip():
            return "else", f"no problem stated: {message}"
        if named == shown(path):
            return "refused", message
        if named in ancestors(path) or (case == "missing" and named in ancestors(path[:-1])):
            return "refused", message
        if case == "out-of-range" and named.startswith(shown(path) + "."):
            return "refused", message  # the unknown key put in the table, by its full name
        if case == "missing" and f"[{path[-1]}]" in problem:
            return "refused", message  # e.g. "inputs: nothing gives next… or a [serial_pad]"
        return "else", f"names {named!r}, not {shown(path)!r}: {message}"
    except Exception as error:
        return "else", f"{type(error).__name__}: {error}"
    if case != "missing":
        return "else", f"accepted {shown(path)} = {value!r}"
    has_default, default = default_for(path)
    if has_default:
        if default is None:  # bus_speed_hz
            default = 8_000_000 if data["display"].get("interface") == "spi" else 400_000
        file.write_text(toml_text(with_change(data, path, default)))
        expected = load_profile(str(file))
        if replace(profile, source="") == replace(expected, source=""):
            return "default", f"{shown(path)} -> {default!r}"
        return "else", f"{shown(path)} missing: not the default {default!r}"
    if path[-1] == "name":
        return ("default", "name -> the file name") if profile.name == name else ("else", "name")
    return "optional", shown(path)


def profile_cases(folder: Path) -> list[tuple[str, dict, tuple, str, Any]]:
    cases = []
    for name in profile_names():
        data = tomllib.loads(shipped_profile_path(name).read_text())
        for path in key_paths(data):
            value = get(data, path)
            cases.append((name, data, path, "wrong-type", wrong_type(value)))
            applies, bad = out_of_range(path, value)
            if applies:
                cases.append((name, data, path, "out-of-range", bad))
            cases.append((name, data, path, "missing", None))
    return cases


WHOLE_FILE_PROFILE = {
    "unknown key (a typo)": "name = 'x'\n[display]\ndriver = 'terminal'\nrotaton = 0\n",
    "TOML syntax error": "name = 'x\n[display]\n",
    "empty file": "",
    "no [display] table": "name = 'x'\n",
}


def check_whole_profile(folder: Path, label: str, text: str | bytes) -> tuple[str, str]:
    file = folder / "whole.toml"
    if isinstance(text, bytes):
        file.write_bytes(text)
    else:
        file.write_text(text)
    try:
        load_profile(str(file))
    except ProfileError as error:
        message = str(error)
        one = "\n" not in message and message.startswith(f"{file}: ")
        return ("refused" if one else "else"), message
    except Exception as error:
        return "else", f"{type(error).__name__}: {error}"
    return "else", f"{label}: accepted"


def check_settings_case(folder: Path, key: str, case: str, value: Any) -> tuple[str, str]:
    state = folder / f"settings-{key}-{case}"
    shutil.rmtree(state, ignore_errors=True)
    state.mkdir()
    file = state / "settings.json"
    data = dict(SETTINGS_BASE)
    if case == "missing":
        del data[key]
    else:
        data[key] = value
    raw = json.dumps(data).encode()
    file.write_bytes(raw)
    # validate_settings directly: the same one line, or the values.
    try:
        validated = validate_settings(data, "settings.json")
        direct = None
    except ValueError as error:
        validated, direct = None, str(error)
    try:
        settings, message = load_settings(file)
    except Exception as error:
        return "else", f"{type(error).__name__}: {error}"
    if case == "missing":
        expected = Settings(**{**SETTINGS_BASE, key: getattr(Settings(), key)})
        if message is None and settings == expected and validated == expected:
            return "default", f"{key} -> {getattr(Settings(), key)}"
        return "else", f"{key} missing: {message} {settings}"
    if message is None:
        return "else", f"accepted {key} = {value!r}"
    aside = list(state.glob("settings-damaged-*.json"))
    problems = []
    if "\n" in message or not message.startswith("settings.json: ") or repr(key) not in message:
        problems.append("not one line naming settings.json and the key")
    if settings != Settings():
        problems.append("the defaults were not used")
    if len(aside) != 1 or aside[0].read_bytes() != raw or file.exists():
        problems.append("the file was not kept aside byte-identical")
    if direct is None or not message.startswith(direct):
        problems.append("validate_settings does not give the same line")
    return ("else", f"{message}: {'; '.join(problems)}") if problems else ("refused", message)


WHOLE_FILE_SETTINGS: dict[str, bytes] = {
    "not JSON": b"contrast = 200\n",
    "not UTF-8": b'{"contrast": "\xff"}',
    "a list": b"[200, 60, 300, 0]",
    "unknown key": b'{"contrast": 200, "brightness": 3}',
    "empty file": b"",
}


def check_whole_settings(folder: Path, label: str, raw: bytes) -> tuple[str, str]:
    state = folder / f"settings-whole-{len(label)}-{label.replace(' ', '-')}"
    state.mkdir()
    (state / "settings.json").write_bytes(raw)
    try:
        settings, message = load_settings(state / "settings.json")
    except Exception as error:
        return "else", f"{type(error).__name__}: {error}"
    aside = list(state.glob("settings-damaged-*.json"))
    ok = (
        message is not None
        and "\n" not in message
        and message.startswith("settings.json: ")
        and settings == Settings()
        and len(aside) == 1
        and aside[0].read_bytes() == raw
    )
    return ("refused" if ok else "else"), f"{message}"


# --- the command line ------------------------------------------------------------------------


def cli_check(folder: Path, name: str, data: dict, path: tuple, case: str, value: Any) -> list:
    """Run `run` and `check-hardware` on one broken profile; one line, status 2, no traceback."""
    file = folder / "cli" / f"{name}.toml"
    file.parent.mkdir(exist_ok=True)
    file.write_text(toml_text(with_change(data, path, value, remove=case == "missing")))
    try:
        load_profile(str(file))
        expected = None
    except ProfileError as error:
        expected = f"patchwork-companion: {error}"
    executable = Path(sys.executable).parent / "patchwork-companion"
    command = [str(executable)] if executable.exists() else [sys.executable, "-m", "companion"]
    results = []
    for sub in (["run", "--state-dir", str(folder / "cli-state")], ["check-hardware"]):
        argv = [*command, sub[0], "--profile", str(file), *sub[1:]]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=folder)
        lines = done.stderr.splitlines()
        ok = (
            done.returncode == 2
            and len(lines) == 1
            and lines[0] == expected
            and "Traceback" not in done.stderr
        )
        results.append((ok, f"{sub[0]} {shown(path)} {case}: status {done.returncode}, {lines}"))
    return results


# --- the run ------------------------------------------------------------------------------------


def run_harness(cli_sample: int, seed: int) -> dict:
    import logging

    started = time.monotonic()
    # settings.json is kept aside under a name with the time, which the report shows.
    hold_the_wall_clock()
    rng = random.Random(seed)
    root = Path(tempfile.mkdtemp(prefix="stress-bad-config-"))
    logging.basicConfig(filename=root / "companion.log", level=logging.INFO, force=True)
    verdicts: Counter[str] = Counter()
    by_case: Counter[tuple[str, str, str]] = Counter()
    problems: list[str] = []
    accepted: list[str] = []
    samples: list[str] = []
    cli_results: list[tuple[bool, str]] = []
    try:
        cases = profile_cases(root)
        refused_cases = []
        for name, data, path, case, value in cases:
            verdict, detail = check_profile_case(root, name, data, path, case, value)
            verdicts[verdict] += 1
            by_case[("profiles", case, verdict)] += 1
            if verdict == "else":
                problems.append(f"{name}: {shown(path)} {case}: {detail}")
            elif verdict == "refused":
                refused_cases.append((name, data, path, case, value))
                if len(samples) < 400:
                    samples.append(detail.replace(str(root) + "/", ""))
            else:
                accepted.append(f"{name}: {detail} ({verdict})")
        for label, text in {**WHOLE_FILE_PROFILE, "not UTF-8": b"name = '\xff'\n"}.items():
            verdict, detail = check_whole_profile(root, label, text)
            verdicts[verdict] += 1
            by_case[("profiles", "whole file", verdict)] += 1
            if verdict == "else":
                problems.append(f"profile {label}: {detail}")
        for key, bad in SETTINGS_BAD.items():
            for case, values in (*bad.items(), ("missing", [None])):
                for value in values:
                    verdict, detail = check_settings_case(root, key, case, value)
                    verdicts[verdict] += 1
                    by_case[("settings.json", case, verdict)] += 1
                    if verdict == "else":
                        problems.append(f"settings.json {key} {case} {value!r}: {detail}")
                    elif verdict == "refused":
                        samples.append(detail)
                    else:
                        accepted.append(f"settings.json: {detail} ({verdict})")
        for label, raw in WHOLE_FILE_SETTINGS.items():
            verdict, detail = check_whole_settings(root, label, raw)
            verdicts[verdict] += 1
            by_case[("settings.json", "whole file", verdict)] += 1
            if verdict == "else":
                problems.append(f"settings.json {label}: {detail}")
        for case in rng.sample(refused_cases, min(cli_sample, len(refused_cases))):
            cli_results += cli_check(root, *case)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    cli_failed = [detail for ok, detail in cli_results if not ok]
    return {
        "cases": sum(verdicts.values()),
        "refused_correctly": verdicts["refused"],
        "accepted_with_default": verdicts["default"],
        "optional_left_out": verdicts["optional"],
        "anything_else": verdicts["else"],
        "by_case": {" / ".join(key): n for key, n in sorted(by_case.items())},
        "accepted": accepted,
        "problems": problems,
        "cli_runs": len(cli_results),
        "cli_failed": cli_failed,
        "sample_messages": rng.sample(samples, min(8, len(samples))),
        "profiles": profile_names(),
        "seconds": round(time.monotonic() - started, 1),
    }


def report(result: dict, seed: int) -> str:
    lines = [
        "bad_config: every key of every shipped profile and of settings.json, broken",
        f"command: {invocation()}",
        f"machine: {machine_line()}",
        f"seed (command-line sample): {seed}",
        f"profiles: {', '.join(result['profiles'])} + settings.json",
        f"cases: {result['cases']}",
        f"refused correctly (one line: file, key, problem; no traceback): "
        f"{result['refused_correctly']}",
        f"accepted with the default (missing optional key): {result['accepted_with_default']}",
        f"accepted, optional part left out (no default value): {result['optional_left_out']}",
        f"anything else (target 0): {result['anything_else']}",
        "by file / case / verdict:",
    ]
    lines += [f"    {what}: {n}" for what, n in result["by_case"].items()]
    lines.append("accepted when missing:")
    lines += [f"    {what}" for what in result["accepted"]]
    lines.append(
        f"command line (run and check-hardware --profile FILE): {result['cli_runs']} runs, "
        f"{result['cli_runs'] - len(result['cli_failed'])} with status 2, one stderr line, "
        f"no traceback"
    )
    lines += [f"    FAILED: {detail}" for detail in result["cli_failed"]]
    lines.append("some of the lines the user sees:")
    lines += [f"    {message}" for message in result["sample_messages"]]
    lines.append(f"total time: {result['seconds']} s")
    if result["problems"]:
        lines.append("ANYTHING ELSE:")
        lines += [f"    {problem}" for problem in result["problems"]]
    return "\n".join(lines)


def passed(result: dict) -> bool:
    return not (result["anything_else"] or result["cli_failed"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--cli-sample", type=int, default=12, help="profile cases run on the command line"
    )
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(10**6)
    result = run_harness(args.cli_sample, seed)
    print(report(result, seed))
    if args.json:
        print(json.dumps(result))
    return 0 if passed(result) else 1


if __name__ == "__main__":
    sys.exit(main())
