"""A power cut at any byte of a journal: load gives the confirmed actions, or a clean start."""

from __future__ import annotations

import tempfile
from pathlib import Path

from helpers import RANDOM_SETUPS
from hypothesis import given, settings
from hypothesis import strategies as st
from storage_games import replay_of

from companion.engine.actions import Adjust
from companion.engine.game import Game
from companion.storage.journal import TORN_NOTICE, Journal


def journal_bytes(game: Game) -> bytes:
    with tempfile.TemporaryDirectory() as directory:
        journal = Journal(Path(directory) / "journal.jsonl")
        journal.start(game.setup)
        for action in game.move_stack:
            journal.append(action)
        return journal.path.read_bytes()


@settings(max_examples=300, deadline=None)
@given(setup=RANDOM_SETUPS, data=st.data())
def test_a_journal_cut_at_any_byte_loads_what_was_confirmed(setup, data):
    game = Game(setup)
    # One draw for all the moves: a draw costs Hypothesis far more than the move it picks.
    # Each number picks a correction (one in ten) or one of the legal actions.
    count = data.draw(st.integers(0, 60), label="actions")
    choices = st.lists(st.integers(0, 99), min_size=count, max_size=count)
    for choice in data.draw(choices, label="choices"):
        if game.is_over:
            break
        actions = game.legal_actions()
        if choice % 10 == 0:
            actions = [Adjust(name, 1) for name in game.sides]
        game.push(actions[choice // 10 % len(actions)])
    full = journal_bytes(game)
    cut = data.draw(st.integers(0, len(full)), label="cut")
    torn = full[:cut]

    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "journal.jsonl"
        path.write_bytes(torn)
        loaded = Journal(Path(directory) / "journal.jsonl").load()

        header_end = full.index(b"\n") + 1
        if cut < header_end:
            # The header is written atomically, so a cut inside it is not a power
            # cut of ours: the file is kept aside and the device starts clean.
            assert loaded.game is None
            assert loaded.moved_aside is not None
            assert loaded.moved_aside.read_bytes() == torn
            return
        complete_actions = torn.count(b"\n") - 1
        expected = replay_of(game, complete_actions)
        assert loaded.moved_aside is None
        assert loaded.game.state() == expected.state()
        assert loaded.game.move_stack == expected.move_stack
        at_line_end = torn.endswith(b"\n")
        assert loaded.notice == (None if at_line_end else TORN_NOTICE)
        assert path.read_bytes() == torn[: torn.rfind(b"\n") + 1]
