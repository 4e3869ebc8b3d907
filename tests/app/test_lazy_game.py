"""A fresh start draws its home menu without the game's modules (`Companion.game_rooms`),
and neither start loads the statistics or the verdicts' table for its first frame.

Each check runs in a child process: this one has imported them all long ago.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from helpers import started_game

GAME_MODULES = (
    "companion.engine.actions",
    "companion.engine.catalogue",
    "companion.engine.game",
    "companion.engine.setup",
    "companion.storage.progress",
    "companion.app.session",
    "companion.app.game_flow",
    "companion.app.new_game",
    "companion.app.play",
    "companion.app.terms",
)
GAME_SCREENS = (
    "companion.render.screens_game",
    "companion.render.screens_circle",
    "companion.render.patches",
    "companion.render.track",
    "companion.render.screens_verdicts",
)
STATISTICS = ("companion.storage.statistics", "companion.app.statistics")

FIRST_FRAME_THEN_A_PRESS = """
import json, sys
from pathlib import Path
import companion.cli  # what `patchwork-companion run` imports before the daemon's own
import companion.daemon.service
from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.render.screens import render

game_modules = json.loads(sys.argv[2])

def shown():
    view = app.view()
    render(view)
    kind = getattr(view, "kind", None)
    return kind.name if kind else type(view).__name__

app = Companion(Path(sys.argv[1]))
report = {"first": shown(), "loaded": [m for m in game_modules if m in sys.modules]}
app.handle(Input.SELECT)  # on the home menu, its first row: "New solo game"
report["then"] = shown()
report["loaded then"] = [m for m in game_modules if m in sys.modules]
print(json.dumps(report))
"""


def first_frame_then_a_press(state_dir: Path) -> dict[str, object]:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            FIRST_FRAME_THEN_A_PRESS,
            str(state_dir),
            json.dumps(GAME_MODULES + GAME_SCREENS + STATISTICS),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    report: dict[str, object] = json.loads(done.stdout)
    return report


def test_a_fresh_start_draws_the_home_menu_without_the_game_and_loads_it_for_a_new_game(
    tmp_path: Path,
) -> None:
    report = first_frame_then_a_press(tmp_path)
    assert report["first"] == "HOME"
    assert report["loaded"] == []
    # "New solo game" goes on to choosing the difficulty, with the game's modules loaded
    # (its screens wait for the first of them: a difficulty is chosen on a menu) and the
    # statistics' queries, for the level they suggest.
    assert report["then"] == "DIFFICULTY"
    assert report["loaded then"] == [*GAME_MODULES, "companion.storage.statistics"]


def test_a_game_in_progress_is_resumed_on_its_turn_with_the_game_loaded(tmp_path: Path) -> None:
    started_game(tmp_path).store.close()  # as the device stops: its lock dropped
    report = first_frame_then_a_press(tmp_path)
    assert report["first"] == "TurnView"
    assert set(GAME_MODULES) <= set(report["loaded"])  # the turn needs no circle
    # nor the statistics, nor the table of a solo game's end
    assert set(report["loaded"]).isdisjoint((*STATISTICS, "companion.render.screens_verdicts"))
