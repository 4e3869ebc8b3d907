"""Tests of the serial pad's MicroPython firmware (firmware_configs/serial-pad), run on CPython."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

FIRMWARE_DIR = Path(__file__).parents[2] / "firmware_configs" / "serial-pad"


def load_firmware_module(name: str) -> ModuleType:
    """Load ``<name>.py`` from the firmware folder (not a package: its name has a hyphen)."""
    spec = importlib.util.spec_from_file_location(
        f"serial_pad_firmware_{name}", FIRMWARE_DIR / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
