"""`patchwork-companion simulate`, run as a user runs it, with scripts instead of keys."""

import json
import os
import subprocess
import sys

import pytest
from PIL import Image

from companion.simulate import UsageError, capture_template, check_output

# From the home menu: New solo game, Fellow (preselected), normal deck, deal the
# circle, then 4 presses through the dealt patches (8 a screen): the player's first turn.
NEW_SOLO_GAME = ["select"] * 4 + ["select"] * 4


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


def run_simulate(*arguments, env=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", "simulate", *map(str, arguments)],
        capture_output=True, text=True, check=False, timeout=120, env=env,
    )  # fmt: skip


def test_a_script_without_state_dir_never_touches_the_real_game(tmp_path):
    real = tmp_path / "xdg" / "patchwork-companion"
    started = simulate(tmp_path / "setup", NEW_SOLO_GAME, "--seed", "3")
    assert started.returncode == 0, started.stderr
    real.parent.mkdir()
    (tmp_path / "setup" / "state").rename(real)
    database = (real / "companion.db").read_bytes()
    files = sorted(p.name for p in real.iterdir())
    script = tmp_path / "advance.txt"
    script.write_text("select\nselect\n")  # on the real game: advance and confirm
    env = {k: v for k, v in os.environ.items() if k != "STATE_DIRECTORY"}
    env |= {"XDG_STATE_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path / "home")}
    result = run_simulate("--script", script, "--json", env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) is None  # a fresh state: no game was resumed
    assert (real / "companion.db").read_bytes() == database
    assert sorted(p.name for p in real.iterdir()) == files
    assert not (tmp_path / "home").exists()


def test_capture_keeps_every_frame_numbered_and_nothing_else(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    result = simulate(
        tmp_path, ["select", "select", "next"], "--display", "capture", "--output",
        frames / "frame.png",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # Home, difficulty menu, deck menu, deck menu with the cursor moved: 4 frames.
    names = sorted(p.name for p in frames.iterdir())
    assert names == [f"frame-{n:06}.png" for n in range(1, 5)]
    pictures = []
    for name in names:
        with Image.open(frames / name) as png:
            assert png.size == (128 * 3, 64 * 3)
            pictures.append(png.tobytes())
    assert len(set(pictures)) == 4


def test_capture_takes_a_template_with_the_frame_number(tmp_path):
    result = simulate(
        tmp_path, ["select"], "--display", "capture", "--output", tmp_path / "shot{:03}.png"
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.glob("shot*")) == ["shot001.png", "shot002.png"]


@pytest.mark.parametrize(
    ("name", "words"),
    [
        # Each stopped the command with "unexpected error" (AttributeError, TypeError,
        # MemoryError) rather than the one line of a bad template.
        ("f{0.x}.png", "{0.x} is not the frame number"),
        ("f{0[0]}.png", "{0[0]} is not the frame number"),
        ("f{:99999999999}.png", "{:99999999999} is not the frame number"),
        ("f{!r}.png", "{!r} is not the frame number"),
    ],
)
def test_a_frame_template_takes_only_the_frame_number(tmp_path, name, words):
    with pytest.raises(UsageError, match="bad frame template") as refused:
        check_output("capture", tmp_path / name)
    assert words in str(refused.value)


@pytest.mark.parametrize("template", ["f{}.png", "f{0}.png", "f{:04}.png", "f{:6d}.png"])
def test_a_frame_template_with_the_frame_number_is_taken(tmp_path, template):
    check_output("capture", tmp_path / template)


@pytest.mark.parametrize(
    ("display", "name"), [("capture", "f.png"), ("capture", "f{:04}.png"), ("gifanim", "g.gif")]
)
def test_an_output_whose_first_file_cannot_be_created_is_refused_before_the_game(
    tmp_path, display, name
):
    # Found only on writing: a PNG at the first frame, the GIF after the whole game.
    suffix = name[-4:]
    too_long = tmp_path / ("x" * 300 + suffix)
    with pytest.raises(UsageError, match="longer than the 255 bytes"):
        check_output(display, too_long)
    first = capture_template(tmp_path / name).format(1) if display == "capture" else name
    (tmp_path / first).mkdir()
    with pytest.raises(UsageError, match=f"{first} is a folder"):
        check_output(display, tmp_path / name)


@pytest.mark.parametrize(
    ("display", "output", "message"),
    [
        ("capture", "missing/frame.png", "folder {tmp}/missing does not exist"),
        ("capture", "f{x}.png", "bad frame template"),
        ("capture", "f{1}.png", "bad frame template"),
        ("capture", "f{.png", "bad frame template"),
        ("capture", "f{}{}.png", "bad frame template"),
        ("capture", "frame.gif", "writes .png files"),
        ("capture", None, "--display capture needs --output"),
        ("gifanim", "missing/game.gif", "folder {tmp}/missing does not exist"),
        ("gifanim", None, "--display gifanim needs --output"),
        ("dummy", "frame.png", "--output is only for --display capture or gifanim"),
    ],
)
def test_a_bad_output_is_one_line_and_creates_nothing(tmp_path, display, output, message):
    work = tmp_path / "work"
    work.mkdir()
    arguments = ["--display", display] + (["--output", work / output] if output else [])
    before = set(tmp_path.rglob("*"))
    result = simulate(tmp_path / "run", ["select"], *arguments)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert message.format(tmp=work) in result.stderr
    created = set(tmp_path.rglob("*")) - before
    assert {p.relative_to(tmp_path).as_posix() for p in created} <= {"run", "run/inputs.txt"}
