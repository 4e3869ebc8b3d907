"""`patchwork-companion simulate`, run as a user runs it, with scripts instead of keys."""

import json
import subprocess
import sys

from PIL import Image

# From the home menu: New solo game, Fellow (preselected), normal deck, deal the
# circle, then 32 presses through the dealt patches: the player's first turn.
NEW_SOLO_GAME = ["select"] * 4 + ["select"] * 32


def simulate(tmp_path, script_lines, *extra):
    tmp_path.mkdir(exist_ok=True)
    script = tmp_path / "inputs.txt"
    script.write_text("# a scripted game\n" + "\n".join(script_lines) + "\n")
    return subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--script", str(script),
         "--state-dir", str(tmp_path / "state"), *extra],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip


def test_a_script_reaches_the_first_turn_and_json_reports_it(tmp_path):
    result = simulate(
        tmp_path, [*NEW_SOLO_GAME, "next", "next", "previous"], "--seed", "4", "--json"
    )
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert state["mode"] == "solo" and state["difficulty"] == "fellow" and state["deck"] == "normal"
    assert state["turn"] == "player" and len(state["circle"]) == 33
    assert state["sides"]["player"] == {
        "position": 0, "buttons": 5, "income": 0, "patches": [], "leather": 0,
        "covered": 0, "bonus": False,
    }  # fmt: skip


def test_the_same_seed_deals_the_same_circle_and_the_journal_resumes(tmp_path):
    first = json.loads(simulate(tmp_path / "a", NEW_SOLO_GAME, "--seed", "9", "--json").stdout)
    second = json.loads(simulate(tmp_path / "b", NEW_SOLO_GAME, "--seed", "9", "--json").stdout)
    assert first["circle"] == second["circle"]
    # Advance (the cursor starts on "advance") and confirm the step card, in a
    # second run on the same state dir: it resumes the game on its first turn.
    result = simulate(tmp_path / "a", ["select", "select"], "--json")
    resumed = json.loads(result.stdout)
    assert resumed["sides"]["player"]["position"] == 1  # in front of the Automa on 0


def test_a_bad_script_line_is_refused_with_its_line_number(tmp_path):
    result = simulate(tmp_path, ["select", "jump"])
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "line 3" in result.stderr and "jump" in result.stderr


def test_gifanim_records_the_frames(tmp_path):
    gif = tmp_path / "game.gif"
    result = simulate(
        tmp_path, ["select", "select", "next"], "--display", "gifanim", "--output", str(gif)
    )
    assert result.returncode == 0, result.stderr
    with Image.open(gif) as animation:
        # Home, difficulty menu, deck menu, deck menu with the cursor moved: 4 frames.
        assert animation.n_frames == 4
