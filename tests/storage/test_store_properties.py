"""Whatever a session does, a start finds in the store what the session showed.

Random sequences of inputs asking `GameSession` for actions, corrections, cards
confirmed, undos and their reverse steps confirmed, each followed by a start on the
same store: the game and where the table stands come back exactly as the session
holds them in memory.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from helpers import RANDOM_SETUPS
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app.session import GameSession
from companion.engine.actions import Adjust
from companion.storage.store import Store

STEPS = ("play", "correct", "acknowledge", "undo", "undo confirmed")


@settings(max_examples=150, deadline=None)
@given(setup=RANDOM_SETUPS, steps=st.lists(st.sampled_from(STEPS), max_size=40), data=st.data())
def test_a_start_finds_the_game_and_the_cards_as_the_session_left_them(setup, steps, data):
    with tempfile.TemporaryDirectory() as directory, Store(Path(directory)) as store:
        session = GameSession(store)
        game = session.start(setup)
        for step in steps:
            if game.is_over:
                break
            if step == "play":
                actions = game.legal_actions()
                session.play(actions[data.draw(st.integers(0, len(actions) - 1))])
            elif step == "correct":
                session.play(Adjust(data.draw(st.sampled_from(list(game.sides))), 1))
            elif step == "acknowledge":
                session.acknowledge()
            elif step == "undo" and session.can_undo():
                session.undo()
            elif step == "undo confirmed":
                session.undo_confirmed()
            session.save()  # each step is an input, and this ends it
            started = GameSession(store)
            assert started.game.move_stack == game.move_stack
            assert started.game.state() == game.state()
            assert started.progress == session.progress
