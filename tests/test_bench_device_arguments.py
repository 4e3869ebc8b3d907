"""bench/device.py refuses a bad --idle-seconds, --games or --startup-runs at once, in one
line, and bench/startup.py a bad --runs (the same check); it judges a share of a frame
against its target unrounded.

The bench is not in the suite (it runs for minutes); its arguments are: a value that
passed its check used to stop it with a traceback only after the figures before the
idle period (NaN and infinity in `time.sleep`, no game to take a median of).
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parents[1] / "bench" / "device.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("bench_device", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = load_bench()


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e10", "86400", "1.5", "1", "0", "-5"])
def test_an_idle_period_outside_its_bounds_is_refused(text):
    # More than 1.5 s (the redraw loop is measured from 1 s to 0.5 s before its end),
    # less than a day; NaN compares false with both bounds.
    with pytest.raises(argparse.ArgumentTypeError, match=r"must be more than 1\.5"):
        bench.idle_seconds(text)


@pytest.mark.parametrize("text", ["", "abc", "2 s"])
def test_an_idle_period_that_is_not_a_number_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError, match="not a number of seconds"):
        bench.idle_seconds(text)


@pytest.mark.parametrize(("text", "seconds"), [("1.6", 1.6), ("60", 60.0), ("86399", 86399.0)])
def test_an_idle_period_within_its_bounds_is_taken(text, seconds):
    assert math.isclose(bench.idle_seconds(text), seconds)


@pytest.mark.parametrize(
    ("text", "words"),
    [("0", "at least one"), ("-1", "at least one"), ("x", "not a number of games")],
)
def test_a_bad_number_of_games_is_refused(text, words):
    with pytest.raises(argparse.ArgumentTypeError, match=words):
        bench.game_count(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [("0", "at least one run"), ("-3", "at least one run"), ("1.5", "not a number of runs")],
)
def test_a_bad_number_of_start_up_runs_is_refused(text, words):
    # No run left no median to take: statistics.median raised a traceback after the figures.
    with pytest.raises(argparse.ArgumentTypeError, match=words):
        bench.run_count(text)


def test_a_number_of_start_up_runs_is_taken():
    assert bench.run_count("1") == 1 and bench.run_count("15") == 15


def test_the_bench_stops_at_once_with_one_line_naming_the_argument():
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--idle-seconds", "nan"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 2 and result.stdout == ""  # before any figure
    assert "Traceback" not in result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith("device.py: error: argument --idle-seconds: nan s: must be"), last


@pytest.mark.parametrize(
    ("script", "argument"), [("device.py", "--startup-runs"), ("startup.py", "--runs")]
)
def test_both_start_up_benches_refuse_no_runs_in_one_line(script, argument):
    result = subprocess.run(
        [sys.executable, str(SCRIPT.with_name(script)), argument, "0"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 2 and result.stdout == ""  # before compiling or any figure
    last = result.stderr.splitlines()[-1]
    assert (
        last == f"{script}: error: argument {argument}: 0: at least one run is needed for a median"
    )


@pytest.mark.parametrize(
    ("share", "said"),
    [
        (0.253, "OVER THE TARGET"),  # English on the SH1106: printed 25.3%
        (0.2504, "OVER THE TARGET"),  # printed 25.0%, and still over
        (0.25, "within the target"),
        (0.2, "within the target"),
    ],
)
def test_a_share_of_a_frame_is_judged_unrounded(share, said):
    assert bench.against_target(share, 0.25) == said
