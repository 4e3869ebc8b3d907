"""`patchwork-companion replay`, run as a user runs it."""

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parent.parent / "docs" / "example-solo.jsonl"


def replay(*args):
    return subprocess.run(
        [sys.executable, "-m", "companion", "replay", *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_replay_json_fields_of_the_documented_example():
    # Worked by hand in docs/game-log.md: player on 5 with 3 buttons and P11;
    # the Automa on 10 with P26, P07, P17; next card 14 (tactical, 1 virtual button).
    result = replay(EXAMPLE, "--json")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert (
        state["mode"] == "solo" and state["difficulty"] == "fellow" and state["deck"] == "tactical"
    )
    assert state["turn"] == "player"
    assert state["circle"][:3] == ["P10", "P29", "P15"] and len(state["circle"]) == 29
    assert state["sides"]["player"] == {
        "position": 5,
        "buttons": 3,
        "income": 0,
        "patches": ["P11"],
        "leather": 0,
        "covered": 7,
        "bonus": False,
    }
    automa = state["sides"]["automa"]
    assert automa["position"] == 10 and automa["buttons"] == 0
    assert automa["patches"] == ["P26", "P07", "P17"]
    assert automa["next_virtual_buttons"] == 1 and automa["bonus"] is False
    assert (state["over"], state["winner"], state["scores"]) == (False, None, None)


def test_replay_text_summary():
    result = replay(EXAMPLE)
    assert result.returncode == 0
    assert "player to play" in result.stdout
    # The player holds one patch (P11), the Automa three: each counted in English.
    assert "3 buttons, 1 patch," in result.stdout and "0 buttons, 3 patches" in result.stdout


def test_replay_of_a_finished_two_player_game(tmp_path):
    # Both players only advance (docs/RULES.md §3 A): p1 0->1, p2 0->2, p1 1->3, p2 2->4, ...
    # p1 is always on odd squares, p2 on even ones, until p1 51->53 and p2 52->53:
    # 27 advances each. Each moved 53 squares: 5 + 53 = 58 buttons; no patches, so
    # the income marks pay nothing. The leather patches (20, 26, 32, 44, 50) are all
    # on even squares: p2 lands on each before p1 passes it (p2 18->20, then p1 19->21),
    # so p2 covers 5 squares. Scores: p1 58 - 2*81 = -104; p2 58 - 2*76 = -94.
    header = {
        "format": "patchwork-companion-log",
        "version": 1,
        "mode": "two-player",
        "start": "p1",
        "seed": 3,
    }
    log = tmp_path / "two.jsonl"
    log.write_text("\n".join([json.dumps(header)] + ['{"action": "advance"}'] * 54) + "\n")
    state = json.loads(replay(log, "--json").stdout)
    assert state["over"] is True and state["turn"] is None
    p1, p2 = state["sides"]["p1"], state["sides"]["p2"]
    assert p1["position"] == p2["position"] == 53
    assert p1["buttons"] == p2["buttons"] == 58
    assert (p1["leather"], p2["leather"]) == (0, 5)
    assert state["scores"] == {"p1": -104, "p2": -94}
    assert state["winner"] == "p2"


def test_bad_log_exits_2_with_one_line_naming_the_line(tmp_path):
    # The example leaves the player with 3 buttons; taking 3 away leaves 0, and
    # P10 (first on offer) costs 2. The example has 8 lines: the buy is line 10.
    log = tmp_path / "bad.jsonl"
    log.write_text(
        EXAMPLE.read_text()
        + '{"action": "adjust", "side": "player", "delta": -3}\n'
        + '{"action": "buy", "index": 0}\n'
    )
    result = replay(log, "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "line 10: illegal buy: P10 costs 2 buttons; player has 0" in result.stderr


def test_missing_file_exits_2(tmp_path):
    result = replay(tmp_path / "nope.jsonl")
    assert result.returncode == 2 and "cannot read" in result.stderr
