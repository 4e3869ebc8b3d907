"""The game session: the game in memory and the store's record of it, kept in step.

Each test plays through `GameSession` on a real SQLite store; a restart is a new
session on the same store, which knows only what was committed.
"""

import json
from pathlib import Path

import pytest

from companion.app.session import GameSession
from companion.app.undo_wording import undo_prompt_lines
from companion.engine.actions import ADVANCE, AUTOMA_TURN, Adjust, AutomaTurn, Buy
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.game import BonusOccasion
from companion.engine.setup import Mode, SetupChoice, solo_setup, two_player_setup
from companion.engine.undo_steps import MoveTokenBack, ReturnButtons, UndoCorrection
from companion.storage.files import StorageError
from companion.storage.statistics import statistics
from companion.storage.store import Standing, Store

_SESSIONS: dict[Path, list[GameSession]] = {}


def session_at(directory: Path) -> GameSession:
    """A session on the store of `directory`, as a start finds it: each session before it
    has stored what its last input changed (`save`, as at the end of every input)."""
    before = _SESSIONS.setdefault(directory, [])
    for session in before:
        session.save()
    session = GameSession(before[0].store if before else Store(directory))
    before.append(session)
    return session


def solo(seed=3):
    return solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=seed)


def test_steps_not_confirmed_at_the_table_come_back_after_a_restart(tmp_path):
    session = session_at(tmp_path)
    session.start(solo())
    action, steps = session.play(ADVANCE)
    resumed = session_at(tmp_path)
    assert resumed.unacknowledged() == (action, steps)
    resumed.acknowledge()
    assert session_at(tmp_path).unacknowledged() is None


def test_undo_takes_back_the_persons_action_and_the_automa_turns_after_it(tmp_path):
    session = session_at(tmp_path)
    session.start(solo())
    start = session.game.state()
    session.play(ADVANCE)  # the player jumps ahead of the Automa
    automa_turns = 0
    while session.game.turn == "automa":
        session.play(AUTOMA_TURN)
        automa_turns += 1
    assert automa_turns >= 1
    assert session.can_undo()
    session.undo()
    assert session.game.state() == start
    assert not session.can_undo()
    resumed = session_at(tmp_path)
    assert resumed.game.state() == start and resumed.unacknowledged() is None


@pytest.mark.parametrize(
    "undone",
    [
        [{"action": "adjust", "side": "p1", "delta": 1}],  # no Player 1 in a solo game
        [{"action": "adjust", "side": "player", "delta": -99}],  # below zero buttons
        [{"action": "claim_bonus", "side": "automa"}],  # the Automa never claims
        [{"action": "buy", "index": 7}],  # three patches on offer at most
        [{"action": "automa"}],  # the player's turn, not the Automa's
        # Undos in a row: the second action cannot follow the first (still the player's turn).
        [{"action": "adjust", "side": "player", "delta": 1}, {"action": "automa"}],
    ],
)
def test_undone_actions_in_progress_that_are_not_this_game_s_are_forgotten(tmp_path, undone):
    # Well-formed records, so the file loads; they cannot be played back onto this game
    # (at its start: the player's turn, 5 buttons, 3 patches on offer).
    started = session_at(tmp_path)
    started.start(solo())
    started.store.save(Standing(undone=tuple(json.dumps(record) for record in undone)))
    session = session_at(tmp_path)
    assert session.progress.undone
    assert session.unconfirmed_undo() is None
    assert session_at(tmp_path).progress.undone == []


def test_undone_actions_in_progress_that_follow_show_their_reverse_steps_again(tmp_path):
    started = session_at(tmp_path)
    started.start(solo())
    # A correction of +2 taken back: it took the start's 5 buttons to 7, the undo back to 5.
    started.store.save(Standing(undone=('{"action": "adjust", "side": "player", "delta": 2}',)))
    [correction] = session_at(tmp_path).unconfirmed_undo().undone
    assert correction.steps == (UndoCorrection("player", 2, 5),)


def test_only_automa_turns_cannot_be_undone(tmp_path):
    session = session_at(tmp_path)
    session.start(two_player_setup("p1", seed=1))
    assert not session.can_undo()
    session.play(Adjust("p2", 3))
    assert session.can_undo()
    assert not isinstance(session.game.move_stack[-1], AutomaTurn)


def test_finishing_saves_to_the_history_and_leaves_no_game(tmp_path):
    session = session_at(tmp_path)
    game = session.start(two_player_setup("p2", seed=5))
    while not game.is_over:
        session.play(ADVANCE)
    session.acknowledge()
    assert session.finish() is game
    assert session.game is None and session.last_finished is game
    assert statistics(session.store).two_player_games == 1
    assert session_at(tmp_path).game is None and not session.store.has_game()


def test_starting_over_a_game_in_progress_keeps_it_in_the_history(tmp_path):
    session = session_at(tmp_path)
    session.start(solo(1))
    session.play(ADVANCE)
    session.start(solo(2))
    assert session.game.move_stack == []
    kept = session.store.query("SELECT finished, mode FROM games")
    assert kept == [(0, "solo")] and statistics(session.store).solo_overall is None


def test_a_circle_being_entered_survives_a_restart(tmp_path):
    session = session_at(tmp_path)
    choice = SetupChoice(Mode.SOLO, DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL)
    session.begin_entering(choice, seed=11)
    session.placed(["P07", "P03"])
    resumed = session_at(tmp_path)
    entering = resumed.progress.entering
    assert entering.choice == choice and entering.seed == 11 and entering.placed == ["P07", "P03"]
    circle = solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL, seed=99).circle
    game = resumed.start_entered(circle)
    assert game.setup.circle == circle and game.setup.seed == 11
    assert game.setup.deck is Deck.TACTICAL
    assert session_at(tmp_path).progress.entering is None


def test_the_7x7_reminder_is_due_once_per_side(tmp_path):
    session = session_at(tmp_path)
    game = session.start(two_player_setup("p1", seed=2))
    assert session.bonus_reminder_due() is None
    game.sides["p2"].covered = 49
    assert session.bonus_reminder_due().side == "p2"
    session.bonus_asked(*session.bonus_reminder_due().answers)
    assert session.bonus_reminder_due() is None
    assert session_at(tmp_path).progress.asked_bonus == ["p2"]


def played_to_the_7x7_question(session, seed):
    """A solo Fellow game played until the device asks about the 7×7: the player buys
    the last patch on offer they can afford, else advances; every step confirmed."""
    game = session.start(solo(seed))
    while (question := session.bonus_reminder_due()) is None:
        assert not game.is_over, "nobody reached 49 squares"
        if game.turn == "automa":
            session.play(AUTOMA_TURN)
        else:
            buys = [action for action in game.legal_actions() if isinstance(action, Buy)]
            session.play(buys[-1] if buys else ADVANCE)
        session.acknowledge()
    return question


def automa_move_takes_the_tile(game):
    """The Automa moves next and reaches or crosses its mark (41 at Fellow): the tile
    would be its own (Korean rulebook §5-3)."""
    plan = game.automa_plan()
    return plan is not None and game.sides["automa"].position < 41 <= plan.target


def test_a_claim_at_the_automa_mark_taken_back_asks_again_before_the_automa_moves(tmp_path):
    # RULES.md §4 step 4: the device asks before the Automa's move that reaches its mark.
    # The player claimed there, then undid the claim: the tile is free again and the
    # same move comes next, so the question comes back, after a restart too.
    session = session_at(tmp_path)
    question = played_to_the_7x7_question(session, seed=6)
    assert question.occasion is BonusOccasion.AUTOMA_MARK
    assert automa_move_takes_the_tile(session.game)
    session.claim_bonus(question.side, question.answers)
    assert session.game.bonus_holder == "player" and session.bonus_reminder_due() is None
    session.undo()
    assert session.game.bonus_holder is None and automa_move_takes_the_tile(session.game)
    assert session.bonus_reminder_due() == question
    assert session_at(tmp_path).bonus_reminder_due() == question


def test_a_claim_at_49_squares_taken_back_is_not_asked_about_again(tmp_path):
    # The reminder at 49 squares comes once: the player answered it (with a claim they
    # then took back) and may still claim from the menu. Only the question before the
    # Automa's move that takes the tile is asked again (the test above).
    session = session_at(tmp_path)
    question = played_to_the_7x7_question(session, seed=0)
    assert question.occasion is BonusOccasion.REACHED_49
    assert not automa_move_takes_the_tile(session.game)
    session.claim_bonus(question.side, question.answers)
    session.undo()
    assert session.game.bonus_holder is None and session.game.sides["player"].covered >= 49
    assert session.bonus_reminder_due() is None
    assert session_at(tmp_path).bonus_reminder_due() is None


def advance_and_automa_turns_confirmed(session):
    """The player advances ahead of the Automa, which then plays; each card confirmed."""
    session.play(ADVANCE)
    session.acknowledge()
    while session.game.turn == "automa":
        session.play(AUTOMA_TURN)
        session.acknowledge()


def test_an_undo_whose_reverse_steps_are_not_confirmed_comes_back_after_a_restart(tmp_path):
    session = session_at(tmp_path)
    session.start(solo())
    advance_and_automa_turns_confirmed(session)
    plan = session.undo()
    assert plan.automa_turns >= 1
    resumed = session_at(tmp_path)
    assert resumed.unconfirmed_undo() == plan
    resumed.undo_confirmed()
    assert session_at(tmp_path).unconfirmed_undo() is None


def p1_advance_confirmed_and_taken_back(session):
    """A two-player game where P1 advances, the table confirms it, and P1 takes it back:
    the undo's reverse steps are due. (Taken back before its steps are confirmed, the
    advance has none, and the undo is forgotten at once.)"""
    session.start(two_player_setup("p1", seed=1))
    session.play(ADVANCE)
    session.acknowledge()
    session.undo()
    assert session.unconfirmed_undo() is not None


def test_playing_on_after_an_undo_forgets_its_reverse_steps(tmp_path):
    # P1 advances and takes it back, then corrects its buttons: still P1's turn, so
    # the advance could be played again, but the table is past that undo.
    session = session_at(tmp_path)
    p1_advance_confirmed_and_taken_back(session)
    session.play(Adjust("p1", 2))
    assert session_at(tmp_path).unconfirmed_undo() is None


def test_an_undo_the_card_refuses_leaves_no_undo_behind(tmp_path, monkeypatch):
    session = session_at(tmp_path)
    session.start(solo())
    advance_and_automa_turns_confirmed(session)
    before = session.game.state()

    def refused(standing, **changes):
        raise StorageError("companion.db: not saved (attempt to write a readonly database)")

    monkeypatch.setattr(session.store, "save", refused)
    with pytest.raises(StorageError):
        session.undo()
    assert session.game.state() == before and session.progress.undone == []
    monkeypatch.undo()
    resumed = session_at(tmp_path)
    assert resumed.game.state() == before
    assert resumed.unconfirmed_undo() is None and resumed.unacknowledged() is None


def test_a_claim_undone_before_its_card_is_confirmed_has_no_tile_to_put_back(tmp_path):
    # Claimed from the menu, its card ("take the 7×7 tile") not yet confirmed: the table
    # may not have taken the tile, so the undo asks nothing back, after a restart too.
    session = session_at(tmp_path)
    question = played_to_the_7x7_question(session, seed=6)
    session.claim_bonus(question.side, question.answers)
    assert session.unacknowledged() is not None
    assert session.undo() is None
    assert session.game.bonus_holder is None and session.unconfirmed_undo() is None
    assert session_at(tmp_path).unconfirmed_undo() is None


def advance_and_automa_turns_but_the_last_confirmed(session):
    """The player advances ahead of the Automa, which then plays; each card confirmed
    but the Automa's last (still showing). Returns the Automa's turns."""
    session.play(ADVANCE)
    session.acknowledge()
    turns = 0
    while session.game.turn == "automa":
        session.play(AUTOMA_TURN)
        turns += 1
        if session.game.turn == "automa":
            session.acknowledge()
    return turns


def test_an_automa_turn_not_confirmed_is_left_out_of_the_reverse_steps(tmp_path):
    # The player's advance and the Automa's turns after it are taken back; the last
    # Automa turn's card was still showing: its reverse steps are left out, the others
    # (every turn the table confirmed) kept, after a restart too.
    session = session_at(tmp_path)
    session.start(solo())
    turns = advance_and_automa_turns_but_the_last_confirmed(session)
    plan = session.undo()
    assert plan.automa_turns == turns - 1 and plan.person.action == ADVANCE
    assert session_at(tmp_path).unconfirmed_undo() == plan


# Undos in a row. Two players, P1 to start, both tokens on 0 (P1's on top), 5 buttons
# each. P1 advances one beyond P2: 0 -> 1, paying 1 button. P2 advances one beyond P1:
# 0 -> 2, paying 2. No income mark or leather patch on squares 1-2. Taken back: P2's
# token 2 -> 0, under P1's (P1's was on top there: it started), 2 buttons to the bank;
# then P1's token 1 -> 0, on top (it is P1's turn there), 1 button to the bank.
P2_ADVANCE_BACK = (MoveTokenBack("p2", 2, 0, False), ReturnButtons("p2", 2, "advance"))
P1_ADVANCE_BACK = (MoveTokenBack("p1", 1, 0, True), ReturnButtons("p1", 1, "advance"))


def both_advances_confirmed_and_p2_s_taken_back(session):
    """P1 advances, P2 advances, each card confirmed; P2's advance is undone, its
    reverse steps due (not confirmed)."""
    session.start(two_player_setup("p1", seed=1))
    for _ in range(2):
        session.play(ADVANCE)
        session.acknowledge()
    first = session.undo()
    assert [undone.steps for undone in first.undone] == [P2_ADVANCE_BACK]


def reverse_steps(plan):
    return [(undone.action, undone.side, undone.steps) for undone in plan.undone]


BOTH_ADVANCES_BACK = [(ADVANCE, "p2", P2_ADVANCE_BACK), (ADVANCE, "p1", P1_ADVANCE_BACK)]


def test_a_second_undo_while_the_first_s_reverse_steps_show_tells_both(tmp_path):
    # The table was told to move P2's token back, then the undo went on to P1's
    # advance: it must still be told P2's steps, and first (P2's token came later).
    session = session_at(tmp_path)
    both_advances_confirmed_and_p2_s_taken_back(session)
    second = session.undo()
    assert reverse_steps(second) == BOTH_ADVANCES_BACK
    assert session.game.move_stack == [] and session.unconfirmed_undo() == second
    resumed = session_at(tmp_path)
    assert (
        resumed.game.move_stack == []
        and reverse_steps(resumed.unconfirmed_undo()) == BOTH_ADVANCES_BACK
    )
    resumed.undo_confirmed()
    assert session_at(tmp_path).unconfirmed_undo() is None


def test_a_second_undo_after_a_restart_tells_both(tmp_path):
    both_advances_confirmed_and_p2_s_taken_back(session_at(tmp_path))
    resumed = session_at(tmp_path)
    assert reverse_steps(resumed.undo()) == BOTH_ADVANCES_BACK
    assert reverse_steps(session_at(tmp_path).unconfirmed_undo()) == BOTH_ADVANCES_BACK


def test_a_solo_second_undo_tells_the_first_s_steps_then_the_correction_s(tmp_path):
    # The player corrects +2 (5 -> 7 buttons) and advances ahead of the Automa, which
    # plays; all confirmed but the Automa's last card. The first undo takes back the
    # advance and the Automa's turns (the last one's steps left out: the table may not
    # have done them); the second, its steps still due, the correction: back to 5.
    session = session_at(tmp_path)
    session.start(solo())
    session.play(Adjust("player", 2))
    session.acknowledge()
    turns = advance_and_automa_turns_but_the_last_confirmed(session)
    first = session.undo()
    assert first.person.action == ADVANCE and first.automa_turns == turns - 1
    second = session.undo()
    correction = (Adjust("player", 2), "player", (UndoCorrection("player", 2, 5),))
    assert reverse_steps(second) == [*reverse_steps(first), correction]
    assert session.game.move_stack == [] and session_at(tmp_path).unconfirmed_undo() == second


def test_the_second_undo_s_question_names_only_what_it_takes_back(tmp_path):
    # P2's advance is already taken back (its steps showing): the question is about
    # P1's advance alone, to square 1.
    session = session_at(tmp_path)
    both_advances_confirmed_and_p2_s_taken_back(session)
    assert undo_prompt_lines(session.undo_plan()) == ("Take back:", "Player 1's advance to 1")


def test_an_action_the_store_refuses_is_taken_back_and_raised(tmp_path, monkeypatch):
    session = session_at(tmp_path)
    session.start(solo())
    before = session.game.state()

    def full_card(standing, **changes):
        raise StorageError("companion.db: not saved (database or disk is full)")

    monkeypatch.setattr(session.store, "save", full_card)
    with pytest.raises(OSError):
        session.play(ADVANCE)
    assert session.game.state() == before and session.game.move_stack == []
    monkeypatch.undo()
    assert session_at(tmp_path).game.state() == before


def test_a_confirmed_card_waits_for_the_end_of_the_input_or_the_next_action(tmp_path):
    # Confirming a card and the Automa's turn it leads to are one input: one commit.
    session = session_at(tmp_path)
    session.start(solo())
    session.play(ADVANCE)
    session.acknowledge()
    assert GameSession(session.store).unacknowledged() is not None  # not yet stored
    session.play(AUTOMA_TURN)
    resumed = GameSession(session.store)
    assert resumed.progress.acknowledged == 1 and len(resumed.game.move_stack) == 2
