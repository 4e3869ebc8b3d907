"""What `run` loads before its first frame leaves out what only a rare path needs.

Start-up is measured against a bare import of the libraries (docs/PERFORMANCE.md): a
module loaded at every start for a path a start never takes is imported where it is
used instead, and this test keeps it there.
"""

from __future__ import annotations

import subprocess
import sys

START = """
import json, sys, tempfile
from pathlib import Path
import companion.cli, companion.daemon.service
from companion.app.companion import Companion
from companion.hardware.profile import load_profile
from companion.render.screens import render
load_profile("sh1106-encoder")
state = Path(tempfile.mkdtemp())
(state / "settings.json").write_text(json.dumps({"language": "en"}))
render(Companion(state).view())
print(*sorted(set(sys.argv[1:]) & set(sys.modules)))
"""
"""What `run` imports, its profile read and its first frame drawn; then which of the
modules named on the command line were loaded."""

RARE = ("difflib",)
"""Suggestions for a misspelt profile key."""


def test_a_start_loads_no_module_only_a_rare_path_needs():
    result = subprocess.run(
        [sys.executable, "-c", START, *RARE], capture_output=True, text=True, check=True
    )
    assert result.stdout.split() == []
