"""The game session without any screen: journal before screen, resume, undo, finish."""

import json
from pathlib import Path

import pytest
from helpers import damage_line_4

from companion.app.session import GameSession
from companion.app.undo_wording import undo_prompt_lines
from companion.engine.actions import ADVANCE, AUTOMA_TURN, Adjust, AutomaTurn, Buy, ClaimBonus
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.game import BonusOccasion
from companion.engine.gamelog import action_record
from companion.engine.setup import Mode, SetupChoice, solo_setup, two_player_setup
from companion.engine.undo_steps import MoveTokenBack, ReturnButtons, UndoCorrection
from companion.storage import files
from companion.storage.files import StorageError
from companion.storage.history import History
from companion.storage.journal import Journal


def solo(seed=3):
    return solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=seed)


def test_an_action_is_in_the_journal_before_its_steps_are_returned(tmp_path):
    session = GameSession(tmp_path)
    session.start(solo())
    played = []

    def append(action):
        # The journal is written while the steps are not yet handed back.
        played.append(GameSession(tmp_path).game is not None)
        original_append(action)

    original_append = session.journal.append
    session.journal.append = append
    action, steps = session.play(ADVANCE)
    assert played == [True] and steps
    assert GameSession(tmp_path).game.state() == session.game.state()
    assert GameSession(tmp_path).game.move_stack == [action]


def test_an_action_the_journal_refuses_is_taken_back_and_raised(tmp_path, monkeypatch):
    session = GameSession(tmp_path)
    session.start(solo())
    before = session.game.state()

    def full_disk(action):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(session.journal, "append", full_disk)
    with pytest.raises(OSError):
        session.play(ADVANCE)
    assert session.game.state() == before and session.game.move_stack == []
    assert GameSession(tmp_path).game.state() == before


def test_steps_not_confirmed_at_the_table_come_back_after_a_restart(tmp_path):
    session = GameSession(tmp_path)
    session.start(solo())
    action, steps = session.play(ADVANCE)
    resumed = GameSession(tmp_path)
    assert resumed.unacknowledged() == (action, steps)
    resumed.acknowledge()
    assert GameSession(tmp_path).unacknowledged() is None


def test_undo_takes_back_the_persons_action_and_the_automa_turns_after_it(tmp_path):
    session = GameSession(tmp_path)
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
    resumed = GameSession(tmp_path)
    assert resumed.game.state() == start and resumed.unacknowledged() is None


def record_progress_syncs(monkeypatch) -> list[tuple[Path, str]]:
    """From now on, each fsync of a directory with the progress.json it then held: what a
    power cut would keep of that name."""
    synced = []
    real_fsync_directory = files.fsync_directory

    def fsync_directory(directory):
        synced.append((directory, (directory / "progress.json").read_text()))
        real_fsync_directory(directory)

    monkeypatch.setattr(files, "fsync_directory", fsync_directory)
    return synced


def test_an_undo_makes_its_progress_durable(tmp_path, monkeypatch):
    """A progress.json from before an undo must not come back after a power cut: with
    the same action played again, its count of confirmed steps skipped that action's
    steps and the Automa's turn was taken unasked (stress/power_loss.py, seed 5)."""
    session = GameSession(tmp_path)
    session.start(solo())
    advance_and_automa_turns_confirmed(session)
    synced = record_progress_syncs(monkeypatch)
    session.undo()
    assert synced and synced[-1][0] == tmp_path
    assert '"undone": [{' in synced[-1][1]  # the name synced is the undo's progress


def test_a_new_game_makes_its_progress_durable(tmp_path, monkeypatch):
    """The progress.json of the game before (finished, its removal not yet synced when the
    power went) must not come back with the next game: it counted that game's first
    action as confirmed at the table, and the Automa's turn was taken without a press
    (stress/power_loss.py, seed 1). What a power cut keeps of a name is what the last
    fsync of its directory saw."""
    (tmp_path / "progress.json").write_text(json.dumps({"acknowledged": 38}))
    session = GameSession(tmp_path)
    assert session.game is None
    synced = record_progress_syncs(monkeypatch)
    session.start(solo())
    session.play(ADVANCE)
    assert json.loads(synced[-1][1])["acknowledged"] == 0


def test_a_damaged_games_valid_part_taken_back_makes_its_progress_durable(tmp_path, monkeypatch):
    """As for a new game: the damaged game's progress.json, come back after a power cut,
    would count the actions it had confirmed, more than the part taken back holds."""
    damage_line_4(tmp_path)
    before = json.loads((tmp_path / "progress.json").read_text())["acknowledged"]
    session = GameSession(tmp_path)
    assert len(session.damaged_prefix.move_stack) == 2 < before
    synced = record_progress_syncs(monkeypatch)
    session.take_back_prefix()
    assert json.loads(synced[-1][1])["acknowledged"] == 2


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
    GameSession(tmp_path).start(solo())
    (tmp_path / "progress.json").write_text(json.dumps({"undone": undone}))
    session = GameSession(tmp_path)
    assert session.progress.undone and session.progress_notice is None
    assert session.unconfirmed_undo() is None
    assert GameSession(tmp_path).progress.undone == []


def test_undone_actions_in_progress_that_follow_show_their_reverse_steps_again(tmp_path):
    GameSession(tmp_path).start(solo())
    # A correction of +2 taken back: it took the start's 5 buttons to 7, the undo back to 5.
    (tmp_path / "progress.json").write_text(
        json.dumps({"undone": [{"action": "adjust", "side": "player", "delta": 2}]})
    )
    [correction] = GameSession(tmp_path).unconfirmed_undo().undone
    assert correction.steps == (UndoCorrection("player", 2, 5),)


def test_only_automa_turns_cannot_be_undone(tmp_path):
    session = GameSession(tmp_path)
    session.start(two_player_setup("p1", seed=1))
    assert not session.can_undo()
    session.play(Adjust("p2", 3))
    assert session.can_undo()
    assert not isinstance(session.game.move_stack[-1], AutomaTurn)


def test_finishing_saves_to_the_history_and_leaves_no_game(tmp_path):
    session = GameSession(tmp_path)
    game = session.start(two_player_setup("p2", seed=5))
    while not game.is_over:
        session.play(ADVANCE)
    session.acknowledge()
    assert session.finish() is game
    assert session.game is None and session.last_finished is game
    assert not (tmp_path / "journal.jsonl").exists() and not (tmp_path / "progress.json").exists()
    assert History(tmp_path / "history").statistics().two_player_games == 1
    assert GameSession(tmp_path).game is None


def test_starting_over_a_game_in_progress_keeps_it_in_the_history(tmp_path):
    session = GameSession(tmp_path)
    session.start(solo(1))
    session.play(ADVANCE)
    session.start(solo(2))
    assert session.game.move_stack == []
    kept = list((tmp_path / "history").iterdir())
    assert len(kept) == 1 and kept[0].name.endswith("-solo-abandoned.jsonl")


def test_a_circle_being_entered_survives_a_restart(tmp_path):
    session = GameSession(tmp_path)
    choice = SetupChoice(Mode.SOLO, DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL)
    session.begin_entering(choice, seed=11)
    session.placed(["P07", "P03"])
    resumed = GameSession(tmp_path)
    entering = resumed.progress.entering
    assert entering.choice == choice and entering.seed == 11 and entering.placed == ["P07", "P03"]
    circle = solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL, seed=99).circle
    game = resumed.start_entered(circle)
    assert game.setup.circle == circle and game.setup.seed == 11
    assert game.setup.deck is Deck.TACTICAL
    assert GameSession(tmp_path).progress.entering is None


def test_the_7x7_reminder_is_due_once_per_side(tmp_path):
    session = GameSession(tmp_path)
    game = session.start(two_player_setup("p1", seed=2))
    assert session.bonus_reminder_due() is None
    game.sides["p2"].covered = 49
    assert session.bonus_reminder_due().side == "p2"
    session.bonus_asked(*session.bonus_reminder_due().answers)
    assert session.bonus_reminder_due() is None
    assert GameSession(tmp_path).progress.asked_bonus == ["p2"]


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
    session = GameSession(tmp_path)
    question = played_to_the_7x7_question(session, seed=6)
    assert question.occasion is BonusOccasion.AUTOMA_MARK
    assert automa_move_takes_the_tile(session.game)
    session.claim_bonus(question.side, question.answers)
    assert session.game.bonus_holder == "player" and session.bonus_reminder_due() is None
    session.undo()
    assert session.game.bonus_holder is None and automa_move_takes_the_tile(session.game)
    assert session.bonus_reminder_due() == question
    assert GameSession(tmp_path).bonus_reminder_due() == question


def test_a_claim_at_the_automa_mark_undone_as_the_power_went_still_asks_again(tmp_path):
    # The journal is shortened first; the power went before the undo's progress.json
    # was written, so the one from before it came back, holding the answer given at
    # the mark. Believed, it let the Automa's move take the tile without asking.
    session = GameSession(tmp_path)
    question = played_to_the_7x7_question(session, seed=6)
    session.claim_bonus(question.side, question.answers)
    before_the_undo = (tmp_path / "progress.json").read_bytes()
    session.undo()
    (tmp_path / "progress.json").write_bytes(before_the_undo)
    resumed = GameSession(tmp_path)
    assert resumed.game.bonus_holder is None and automa_move_takes_the_tile(resumed.game)
    assert resumed.bonus_reminder_due() == question


def test_a_claim_at_49_squares_taken_back_is_not_asked_about_again(tmp_path):
    # The reminder at 49 squares comes once: the player answered it (with a claim they
    # then took back) and may still claim from the menu. Only the question before the
    # Automa's move that takes the tile is asked again (the test above).
    session = GameSession(tmp_path)
    question = played_to_the_7x7_question(session, seed=0)
    assert question.occasion is BonusOccasion.REACHED_49
    assert not automa_move_takes_the_tile(session.game)
    session.claim_bonus(question.side, question.answers)
    session.undo()
    assert session.game.bonus_holder is None and session.game.sides["player"].covered >= 49
    assert session.bonus_reminder_due() is None
    assert GameSession(tmp_path).bonus_reminder_due() is None


def advance_and_automa_turns_confirmed(session):
    """The player advances ahead of the Automa, which then plays; each card confirmed."""
    session.play(ADVANCE)
    session.acknowledge()
    while session.game.turn == "automa":
        session.play(AUTOMA_TURN)
        session.acknowledge()


def test_an_undo_whose_reverse_steps_are_not_confirmed_comes_back_after_a_restart(tmp_path):
    session = GameSession(tmp_path)
    session.start(solo())
    advance_and_automa_turns_confirmed(session)
    plan = session.undo()
    assert plan.automa_turns >= 1
    resumed = GameSession(tmp_path)
    assert resumed.unconfirmed_undo() == plan
    resumed.undo_confirmed()
    assert GameSession(tmp_path).unconfirmed_undo() is None


def test_a_card_failing_half_way_through_an_undo_never_leaves_half_of_it(tmp_path, monkeypatch):
    # The player's advance and the Automa's turns after it are one undo. A card that
    # shortens the journal once and then fails: the undo is done whole or not at all,
    # never the Automa's turns taken back and the player's advance left (the screen
    # would then ask the table to do again the Automa's turn it has just done).
    session = GameSession(tmp_path)
    session.start(solo())
    advance_and_automa_turns_confirmed(session)
    truncate = session.journal._truncate
    calls = []

    def fails_after_the_first(length):
        calls.append(length)
        if len(calls) > 1:
            raise StorageError("journal.jsonl: cannot be shortened (I/O error)")
        truncate(length)

    monkeypatch.setattr(session.journal, "_truncate", fails_after_the_first)
    plan = session.undo()
    assert plan.automa_turns >= 1 and session.game.move_stack == []
    assert GameSession(tmp_path).game.move_stack == []


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
    session = GameSession(tmp_path)
    p1_advance_confirmed_and_taken_back(session)
    session.play(Adjust("p1", 2))
    assert GameSession(tmp_path).unconfirmed_undo() is None


class PowerCut(BaseException):
    """The power goes: nothing after it runs (not an Exception: nothing catches it)."""


def cut_before_the_second_write(monkeypatch, session) -> None:
    """From now on, the first of the journal's shortening and progress.json's save goes
    through and the power goes before the second: the cut between an undo's two writes,
    whichever order they come in."""
    writes = []

    def cut_second(write):
        def written(*args, **kwargs):
            writes.append(write)
            if len(writes) > 1:
                raise PowerCut
            return write(*args, **kwargs)

        return written

    monkeypatch.setattr(session.journal, "undo", cut_second(session.journal.undo))
    progress = session.progress
    monkeypatch.setattr(progress, "save", cut_second(progress.save))


def test_an_undo_the_power_cut_between_its_two_writes_keeps_its_reverse_steps(
    tmp_path, monkeypatch
):
    # The claim of the 7×7 tile taken back: the table must be told to put the tile
    # back. With the journal shortened first and the power gone before progress.json,
    # the restart found the claim gone and no undo to show: the tile stayed on the
    # player's board while the device had it free.
    session = GameSession(tmp_path)
    question = played_to_the_7x7_question(session, seed=6)
    session.claim_bonus(question.side, question.answers)
    session.acknowledge()
    claimed = len(session.game.move_stack)
    plan = session.undo_plan()
    assert [step.action for step in plan.undone] == [ClaimBonus(question.side)]
    cut_before_the_second_write(monkeypatch, session)
    with pytest.raises(PowerCut):
        session.undo()
    resumed = GameSession(tmp_path)
    assert len(resumed.game.move_stack) == claimed - 1 and resumed.game.bonus_holder is None
    assert resumed.unconfirmed_undo() == plan
    # The start finished the undo in the journal too: the next start agrees.
    again = GameSession(tmp_path)
    assert len(again.game.move_stack) == claimed - 1 and again.unconfirmed_undo() == plan


def test_an_undo_the_card_refuses_leaves_no_undo_behind(tmp_path, monkeypatch):
    session = GameSession(tmp_path)
    session.start(solo())
    advance_and_automa_turns_confirmed(session)
    before = session.game.state()

    def refused(count):
        raise StorageError("journal.jsonl: cannot be shortened (read-only file system)")

    monkeypatch.setattr(session.journal, "undo", refused)
    with pytest.raises(StorageError):
        session.undo()
    assert session.game.state() == before and session.progress.undone == []
    resumed = GameSession(tmp_path)  # the undo's record taken back: nothing to finish
    assert resumed.game.state() == before
    assert resumed.unconfirmed_undo() is None and resumed.unacknowledged() is None


def test_the_action_undone_played_again_is_kept_whenever_the_power_goes(tmp_path, monkeypatch):
    # P1 advances, takes it back and, the reverse steps still showing, advances again.
    # The power goes once the journal holds the new advance: the undo's progress.json,
    # were it still there, would read as an undo cut short and take the advance back.
    session = GameSession(tmp_path)
    p1_advance_confirmed_and_taken_back(session)
    append = session.journal.append

    def appended_then_cut(action):
        append(action)
        raise PowerCut

    monkeypatch.setattr(session.journal, "append", appended_then_cut)
    with pytest.raises(PowerCut):
        session.play(ADVANCE)
    resumed = GameSession(tmp_path)
    assert resumed.game.move_stack == [ADVANCE] and resumed.unconfirmed_undo() is None


def test_confirming_an_undo_s_reverse_steps_is_durable(tmp_path, monkeypatch):
    # Else the undo's progress.json could come back after the advance is played again,
    # and finish that undo over it.
    session = GameSession(tmp_path)
    p1_advance_confirmed_and_taken_back(session)
    synced = record_progress_syncs(monkeypatch)
    session.undo_confirmed()
    assert synced and synced[-1][0] == tmp_path and '"undone": []' in synced[-1][1]


def test_a_claim_undone_before_its_card_is_confirmed_has_no_tile_to_put_back(tmp_path):
    # Claimed from the menu, its card ("take the 7×7 tile") not yet confirmed: the table
    # may not have taken the tile, so the undo asks nothing back, after a restart too.
    session = GameSession(tmp_path)
    question = played_to_the_7x7_question(session, seed=6)
    session.claim_bonus(question.side, question.answers)
    assert session.unacknowledged() is not None
    assert session.undo() is None
    assert session.game.bonus_holder is None and session.unconfirmed_undo() is None
    assert GameSession(tmp_path).unconfirmed_undo() is None


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
    session = GameSession(tmp_path)
    session.start(solo())
    turns = advance_and_automa_turns_but_the_last_confirmed(session)
    plan = session.undo()
    assert plan.automa_turns == turns - 1 and plan.person.action == ADVANCE
    assert GameSession(tmp_path).unconfirmed_undo() == plan


def undo_cut_short_then_started_read_only(monkeypatch, session, tmp_path):
    """The power goes between `session`'s undo's two writes, and at the next start
    (returned) the journal cannot be shortened: a card gone read-only."""
    cut_before_the_second_write(monkeypatch, session)
    with pytest.raises(PowerCut):
        session.undo()

    def refused(journal, count):
        raise StorageError("journal.jsonl: cannot be shortened (read-only file system)")

    with monkeypatch.context() as read_only:
        read_only.setattr(Journal, "undo", refused)
        return GameSession(tmp_path)


def test_an_undo_the_card_cannot_finish_at_start_leaves_the_game_as_journalled(
    tmp_path, monkeypatch, caplog
):
    # The power went between the undo's two writes, and at the next start the journal
    # cannot be shortened (a card gone read-only): the game goes on as journalled, with
    # its advance, and no undo is left to finish or to show reverse steps for.
    session = GameSession(tmp_path)
    session.start(two_player_setup("p1", seed=1))
    session.play(ADVANCE)
    session.acknowledge()
    resumed = undo_cut_short_then_started_read_only(monkeypatch, session, tmp_path)
    assert "cannot finish the undo" in caplog.text
    assert resumed.game.move_stack == [ADVANCE]
    assert resumed.unconfirmed_undo() is None and resumed.unacknowledged() is None
    assert GameSession(tmp_path).game.move_stack == [ADVANCE]  # writable again: kept


def test_an_undo_record_naming_other_actions_than_the_journal_ends_with_is_not_finished(
    tmp_path,
):
    # Only the actions the undo took back are taken back at a start: a progress.json
    # whose undo names another action than the journal's last leaves the game whole.
    session = GameSession(tmp_path)
    session.start(two_player_setup("p1", seed=1))
    session.play(ADVANCE)
    session.acknowledge()
    (tmp_path / "progress.json").write_text(
        json.dumps({"acknowledged": 0, "undone": [action_record(Adjust("p1", 2))]})
    )
    assert GameSession(tmp_path).game.move_stack == [ADVANCE]


def test_an_undo_after_a_progress_file_counting_more_actions_than_the_journal(tmp_path):
    # A progress.json counting more confirmed actions than the journal holds (its last
    # line lost, or a hand-edited file) counts them all as confirmed, as the turn does:
    # the undo's reverse steps are all due, and the undo's record reads back whole.
    session = GameSession(tmp_path)
    session.start(two_player_setup("p1", seed=1))
    session.play(ADVANCE)
    (tmp_path / "progress.json").write_text(json.dumps({"acknowledged": 50}))
    session = GameSession(tmp_path)
    assert session.unacknowledged() is None
    plan = session.undo()
    assert [step.action for step in plan.undone] == [ADVANCE]
    resumed = GameSession(tmp_path)
    assert resumed.progress_notice is None and resumed.unconfirmed_undo() == plan


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
    session = GameSession(tmp_path)
    both_advances_confirmed_and_p2_s_taken_back(session)
    second = session.undo()
    assert reverse_steps(second) == BOTH_ADVANCES_BACK
    assert session.game.move_stack == [] and session.unconfirmed_undo() == second
    resumed = GameSession(tmp_path)
    assert (
        resumed.game.move_stack == []
        and reverse_steps(resumed.unconfirmed_undo()) == BOTH_ADVANCES_BACK
    )
    resumed.undo_confirmed()
    assert GameSession(tmp_path).unconfirmed_undo() is None


def test_a_second_undo_after_a_restart_tells_both(tmp_path):
    both_advances_confirmed_and_p2_s_taken_back(GameSession(tmp_path))
    resumed = GameSession(tmp_path)
    assert reverse_steps(resumed.undo()) == BOTH_ADVANCES_BACK
    assert reverse_steps(GameSession(tmp_path).unconfirmed_undo()) == BOTH_ADVANCES_BACK


def test_a_second_undo_the_power_cut_between_its_two_writes_tells_both(tmp_path, monkeypatch):
    # Its record (both undos) written, the journal still holding P1's advance: the
    # start takes back P1's advance alone (P2's is gone already) and shows both.
    session = GameSession(tmp_path)
    both_advances_confirmed_and_p2_s_taken_back(session)
    cut_before_the_second_write(monkeypatch, session)
    with pytest.raises(PowerCut):
        session.undo()
    assert Journal(tmp_path / "journal.jsonl").load().game.move_stack == [ADVANCE]
    for _ in range(2):  # the start finished it in the journal: the next agrees
        resumed = GameSession(tmp_path)
        assert (
            resumed.game.move_stack == []
            and reverse_steps(resumed.unconfirmed_undo()) == BOTH_ADVANCES_BACK
        )


def test_a_second_undo_cut_short_that_the_card_cannot_finish_keeps_the_first_s_steps(
    tmp_path, monkeypatch
):
    # As above, and the journal cannot be shortened at the start: the game stays as
    # journalled, with P1's advance, and the table is still told to put P2's token back.
    session = GameSession(tmp_path)
    both_advances_confirmed_and_p2_s_taken_back(session)
    resumed = undo_cut_short_then_started_read_only(monkeypatch, session, tmp_path)
    assert resumed.game.move_stack == [ADVANCE]
    assert [undone.steps for undone in resumed.unconfirmed_undo().undone] == [P2_ADVANCE_BACK]


def test_a_solo_second_undo_tells_the_first_s_steps_then_the_correction_s(tmp_path):
    # The player corrects +2 (5 -> 7 buttons) and advances ahead of the Automa, which
    # plays; all confirmed but the Automa's last card. The first undo takes back the
    # advance and the Automa's turns (the last one's steps left out: the table may not
    # have done them); the second, its steps still due, the correction: back to 5.
    session = GameSession(tmp_path)
    session.start(solo())
    session.play(Adjust("player", 2))
    session.acknowledge()
    turns = advance_and_automa_turns_but_the_last_confirmed(session)
    first = session.undo()
    assert first.person.action == ADVANCE and first.automa_turns == turns - 1
    second = session.undo()
    correction = (Adjust("player", 2), "player", (UndoCorrection("player", 2, 5),))
    assert reverse_steps(second) == [*reverse_steps(first), correction]
    assert session.game.move_stack == [] and GameSession(tmp_path).unconfirmed_undo() == second


def test_the_second_undo_s_question_names_only_what_it_takes_back(tmp_path):
    # P2's advance is already taken back (its steps showing): the question is about
    # P1's advance alone, to square 1.
    session = GameSession(tmp_path)
    both_advances_confirmed_and_p2_s_taken_back(session)
    assert undo_prompt_lines(session.undo_plan()) == ("Take back:", "Player 1's advance to 1")


def test_undos_in_a_row_past_the_progress_file_s_limit_keep_the_latest_undos_steps(
    tmp_path, monkeypatch
):
    # With room for 3 actions' reverse steps: five corrections of +1 (5 -> 10 buttons),
    # each confirmed, undone one after the other. Joined, they would be 5: a file the
    # next start sets aside. Kept: the last three undos', corrections 3, 2 and 1 in the
    # order the table puts them back (8 -> 7, 7 -> 6, 6 -> 5); corrections 5 and 4,
    # shown first, are left out.
    monkeypatch.setattr("companion.storage.progress.MAX_UNDONE", 3)
    monkeypatch.setattr("companion.app.session.MAX_UNDONE", 3)
    session = GameSession(tmp_path)
    session.start(solo())
    for _ in range(5):
        session.play(Adjust("player", 1))
        session.acknowledge()
    for _ in range(5):
        plan = session.undo()
    latest_three = [
        (Adjust("player", 1), "player", (UndoCorrection("player", 1, buttons),))
        for buttons in (7, 6, 5)
    ]
    assert reverse_steps(plan) == latest_three
    resumed = GameSession(tmp_path)
    assert resumed.game.move_stack == []
    assert reverse_steps(resumed.unconfirmed_undo()) == latest_three


def test_undos_in_a_row_past_the_limit_leave_out_the_unconfirmed_automa_turn_first(
    tmp_path, monkeypatch
):
    # As the solo double undo above, with room for one action fewer than the two undos
    # take back. Left out is the newest: the Automa's last turn, whose card was still
    # showing and which had no reverse steps. Every other step is told as without the
    # limit: the turns the table confirmed keep theirs (the count of actions without
    # reverse steps drops with the one left out).
    session = GameSession(tmp_path)
    session.start(solo())
    session.play(Adjust("player", 2))
    session.acknowledge()
    turns = advance_and_automa_turns_but_the_last_confirmed(session)
    room = 1 + 1 + turns - 1  # the correction, the advance, the Automa's turns but one
    monkeypatch.setattr("companion.storage.progress.MAX_UNDONE", room)
    monkeypatch.setattr("companion.app.session.MAX_UNDONE", room)
    first = session.undo()
    assert first.automa_turns == turns - 1
    second = session.undo()
    correction = (Adjust("player", 2), "player", (UndoCorrection("player", 2, 5),))
    assert reverse_steps(second) == [*reverse_steps(first), correction]
    # Joined, the plan's Automa turns are counted, not its actions but one.
    assert second.automa_turns == turns - 1 and second.person.action == Adjust("player", 2)
    assert reverse_steps(GameSession(tmp_path).unconfirmed_undo()) == reverse_steps(second)


# --- a journal changed outside the companion while the game runs --------------------------


def play_on(session, count):
    for _ in range(count):
        session.play(AUTOMA_TURN if session.game.turn == "automa" else ADVANCE)


def journal_of_an_uninterrupted_run(directory, actions, undos=0):
    """The bytes a session never disturbed writes for the same game and presses."""
    directory.mkdir()
    session = GameSession(directory)
    session.start(solo())
    play_on(session, actions)
    for _ in range(undos):
        session.undo()
    return (directory / "journal.jsonl").read_bytes()


def shorten_to_its_first_lines(path, count):
    path.write_bytes(b"".join(path.read_bytes().splitlines(keepends=True)[:count]))


def edit_an_earlier_line_in_a_copy(path):
    """An editor's save: a new file put in its place, the same size and the same last line,
    one byte of an earlier line changed (the first action's checksum)."""
    lines = path.read_bytes().splitlines(keepends=True)
    crc_at = lines[1].rindex(b'"crc": "') + len(b'"crc": "')
    digit = b"0" if lines[1][crc_at : crc_at + 1] != b"0" else b"1"
    lines[1] = lines[1][:crc_at] + digit + lines[1][crc_at + 1 :]
    copy = path.with_name("edited.jsonl")
    copy.write_bytes(b"".join(lines))
    copy.replace(path)


def another_games_journal(directory):
    directory.mkdir()
    other = GameSession(directory)
    other.start(solo(seed=9))
    play_on(other, 4)
    return (directory / "journal.jsonl").read_bytes()


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda path, _: shorten_to_its_first_lines(path, 2), id="shortened"),
        pytest.param(lambda path, _: path.write_bytes(path.read_bytes()[:-7]), id="cut mid-line"),
        pytest.param(
            lambda path, other: path.write_bytes(another_games_journal(other)), id="replaced"
        ),
        pytest.param(lambda path, _: path.unlink(), id="removed"),
        pytest.param(lambda path, _: edit_an_earlier_line_in_a_copy(path), id="edited copy"),
    ],
)
def test_a_journal_changed_outside_is_written_again_whole_at_the_next_action(
    tmp_path, caplog, change
):
    (tmp_path / "device").mkdir()
    session = GameSession(tmp_path / "device")
    session.start(solo())
    play_on(session, 4)
    change(session.journal.path, tmp_path / "other")
    play_on(session, 1)
    # As a start and five appends would have written it: nothing recorded is lost.
    assert session.journal.path.read_bytes() == journal_of_an_uninterrupted_run(
        tmp_path / "uninterrupted", 5
    )
    resumed = GameSession(tmp_path / "device")
    assert resumed.load_notice is None
    assert resumed.game.move_stack == session.game.move_stack
    assert "changed outside the companion and was written again" in caplog.text
    # And the game goes on from there as ever.
    play_on(session, 1)
    assert GameSession(tmp_path / "device").game.move_stack == session.game.move_stack


@pytest.mark.parametrize(
    "change",
    [
        # The header alone: nothing to undo in the file.
        pytest.param(lambda path: shorten_to_its_first_lines(path, 1), id="shortened"),
        pytest.param(lambda path: path.write_bytes(path.read_bytes()[:-7]), id="cut mid-line"),
        pytest.param(lambda path: path.unlink(), id="removed"),
    ],
)
def test_an_undo_after_the_journal_was_changed_outside_writes_the_game_undone(tmp_path, change):
    (tmp_path / "device").mkdir()
    session = GameSession(tmp_path / "device")
    session.start(solo())
    play_on(session, 4)
    change(session.journal.path)
    session.undo()
    undos_moves = len(session.game.move_stack)
    assert 0 < undos_moves < 4
    assert session.journal.path.read_bytes() == journal_of_an_uninterrupted_run(
        tmp_path / "uninterrupted", 4, undos=1
    )
    assert GameSession(tmp_path / "device").game.move_stack == session.game.move_stack


def shortened_outside_on_a_full_card(directory, monkeypatch):
    """A game of 3 actions whose journal was shortened outside to its first action, on a
    card too full for a new file: the journal cannot be written again."""
    session = GameSession(directory)
    session.start(solo())
    play_on(session, 3)
    shorten_to_its_first_lines(session.journal.path, 2)

    def full_card(*_, **__):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.tempfile, "mkstemp", full_card)
    return session


def test_a_journal_changed_outside_that_cannot_be_written_again_keeps_the_action_out(
    tmp_path, monkeypatch
):
    session = shortened_outside_on_a_full_card(tmp_path, monkeypatch)
    before = list(session.game.move_stack)
    with pytest.raises(StorageError, match="cannot write the game again"):
        play_on(session, 1)
    assert session.game.move_stack == before


def test_an_undo_over_a_journal_changed_outside_that_cannot_be_written_again_is_not_taken(
    tmp_path, monkeypatch
):
    session = shortened_outside_on_a_full_card(tmp_path, monkeypatch)
    moves, progress = list(session.game.move_stack), session.progress.copy()
    with pytest.raises(StorageError, match="cannot write the game again"):
        session.undo()
    # Nothing taken back, in memory or in progress.json: the undo can be asked for again.
    assert session.game.move_stack == moves
    assert session.progress == progress
    assert GameSession(tmp_path).progress == progress
    monkeypatch.undo()
    session.undo()
    assert GameSession(tmp_path).game.move_stack == session.game.move_stack
