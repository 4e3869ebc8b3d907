"""The game in progress: the game, its journal and its progress file, kept in step.

`GameSession` is the one place that changes them. Its rule is "journal before
screen": `play` returns an action's steps (what the screen shows as done) only
once the journal holds the action, and takes the action back if the journal
cannot. It knows nothing of screens and is tested without them
(tests/app/test_session.py).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from companion.engine.actions import Action, ClaimBonus, Step
from companion.engine.game import BonusQuestion, Game
from companion.engine.setup import Setup, SetupChoice, Side
from companion.storage.journal import Journal, JournalChangedError, NothingToUndoError
from companion.storage.paths import JOURNAL_NAME, PROGRESS_NAME
from companion.storage.progress import MAX_UNDONE, Entering, Progress

if TYPE_CHECKING:
    from companion.engine.undo_steps import UndoPlan

log = logging.getLogger(__name__)


class GameSession:
    """The game in progress (if any) with its journal and progress, loaded from `state_dir`."""

    def __init__(self, state_dir: Path) -> None:
        self.journal = Journal(state_dir / JOURNAL_NAME)
        self.progress_path = state_dir / PROGRESS_NAME
        loaded = self.journal.load()
        self.game: Game | None = loaded.game
        self.load_notice = loaded.notice
        """What loading the journal had to tell the player (a dropped line, a damaged
        file), in English with the problem in detail, for the log."""
        self.set_aside = loaded.moved_aside
        """Where a journal that could not be replayed whole was moved to."""
        self.damaged_prefix = loaded.prefix
        """A damaged journal's actions before its first bad line, offered back to the player."""
        self.damaged_actions = loaded.actions_in_file
        """How many actions that damaged journal held, good and bad."""
        self.left_damaged = loaded.left_damaged
        """A journal that could be neither replayed nor moved aside, left as it was."""
        self.progress, self.progress_notice = Progress.load(self.progress_path)
        if not self.game and not self.progress.entering:
            # Left from a game that is over or was set aside: nothing to resume.
            self.progress = Progress()
        elif self.game:
            self._finish_interrupted_undo()
            # A progress.json older than the journal (a power cut before its rename was
            # on the card) may hold the answer given before an Automa move the journal
            # no longer has; believed, that move took the 7×7 tile unasked. An answer
            # given just before a power cut that came before the Automa's move is
            # dropped too: the question is asked again, the safe side.
            self.progress.asked_bonus = self.game.bonus_answers_kept(self.progress.asked_bonus)
        self.last_finished: Game | None = None

    @property
    def current(self) -> Game:
        """The game in progress; only asked for while there is one."""
        assert self.game is not None
        return self.game

    # --- starting and ending -----------------------------------------------------------

    def start(self, setup: Setup) -> Game:
        """A new game, journalled; a game still in progress goes to the history unfinished.

        OSError if the journal cannot be written: then there is no new game (and
        the old one is in the history if it got there).
        """
        if self.left_damaged:
            # Left by the start on a card that refused to move it: moved now, or the
            # card's reason is said (the journal in its place refuses `start` in words
            # that fit no card, and the game would never start until a restart).
            self.journal.move_damaged_aside()
            self.left_damaged = False
        if self.game:
            self.journal.archive(finished=False)
            self.game = None
        self.journal.start(setup)
        self.game = Game(setup)
        self.progress = Progress()
        # Durable: the progress.json of the game before (its removal not yet synced when
        # the power went) would come back with this game; counting as confirmed the steps
        # of every action played since, it let the Automa's turn be taken without a press
        # (the crash explorer, seed 1).
        self._save_progress(durable_name=True)
        return self.game

    def take_back_prefix(self) -> Game:
        """Resume the damaged journal's valid actions as the game in progress (journalled anew).

        The damaged file itself stays where `Journal.load` kept it.
        """
        prefix = self.damaged_prefix
        assert prefix is not None
        self.journal.start(prefix)
        self.game, self.damaged_prefix = prefix, None
        self.progress = Progress(acknowledged=len(prefix.move_stack))
        self._save_progress(durable_name=True)  # as for `start`
        return prefix

    def abandon(self) -> None:
        """Set the game in progress aside: it stays in the history, unfinished."""
        self.journal.archive(finished=False)
        self._clear()

    def finish(self) -> Game:
        """Save the finished game to the history; returns it."""
        self.journal.archive(finished=True)
        finished = self.last_finished = self.current
        self._clear()
        return finished

    def _clear(self) -> None:
        self.game = None
        self._forget_progress()

    def _forget_progress(self) -> None:
        self.progress = Progress()
        try:
            self.progress_path.unlink(missing_ok=True)
        except OSError as error:  # a read-only card: a stale file only shows a screen again
            log.warning("cannot remove %s: %s", self.progress_path, error)

    # --- actions -----------------------------------------------------------------------

    def play(self, action: Action) -> tuple[Action, tuple[Step, ...]]:
        """Apply `action` and journal it; returns the action as journalled and its steps.

        If the journal cannot take it (OSError), the game is as it was and the
        error is raised: nothing is shown as done that a power cut would lose.
        """
        game = self.current
        if self.progress.undone:
            # The game goes on from the undo: its reverse steps are no longer due. Said
            # before the journal grows: an undo recorded beside a journal that ends with
            # the actions it took back reads as one cut short (`_finish_interrupted_undo`).
            self.undo_confirmed()
        steps = game.push(action)
        try:
            try:
                self.journal.append(game.move_stack[-1])
            except JournalChangedError as change:
                self._write_journal_again(change)
        except OSError:
            game.pop()
            raise
        return game.move_stack[-1], steps

    def unacknowledged(self) -> tuple[Action, tuple[Step, ...]] | None:
        """The last action and its steps if the table has not confirmed them, else None.

        Undo and redo gives the same steps, reshuffle included, and writes nothing.
        """
        game = self.current
        if self.progress.acknowledged >= len(game.move_stack):
            return None
        action = game.pop()
        return action, game.push(action)

    def cards_due(self) -> bool:
        """Whether the table has cards left to confirm: an action's steps or an undo's
        reverse steps. Confirming a later action counts all those before it as done."""
        return self.progress.acknowledged < len(self.current.move_stack) or bool(
            self.progress.undone
        )

    def acknowledge(self) -> None:
        """The table has done the last action's steps."""
        self.progress.acknowledged = len(self.current.move_stack)
        self._save_progress()

    def can_undo(self) -> bool:
        # undo_steps is imported when an undo is asked for: the start-up never needs it.
        from companion.engine.undo_steps import undo_count

        return undo_count(self.current.move_stack) > 0

    def undo_plan(self) -> UndoPlan | None:
        """What `undo` would take back now, with the reverse steps for the table."""
        from companion.engine.undo_steps import plan_undo

        return plan_undo(self.current)

    def undo(self) -> UndoPlan | None:
        """Take back the last action of a person, with any Automa turns after it;
        returns the reverse steps due at the table (`unconfirmed_undo`), None if none.

        Chosen while an undo's reverse steps are still due, it joins them: the table
        is told both, the later actions' steps first, as it must put them back."""
        from companion.engine.undo_steps import plan_undo, replan_undo

        game = self.current
        plan = plan_undo(game)
        assert plan is not None, "nothing to undo"
        before = self.progress.copy()
        pending = self.progress.undone
        if pending and replan_undo(game, pending) is None:
            log.warning("the actions undone last no longer follow from the game: forgotten")
            pending = []
        if not pending:
            # Steps the table had not confirmed have no reverse steps. With an undo
            # pending, the table had confirmed all before it: its count stands.
            unconfirmed = len(game.move_stack) - self.progress.acknowledged
            self.progress.undone_unconfirmed = min(len(plan.undone), max(0, unconfirmed))
        taken_back = [game.pop() for _ in plan.undone][::-1]
        joined = taken_back + pending
        if len(joined) > MAX_UNDONE:
            # More than progress.json may hold: the next start would set it aside as
            # damaged, every reverse step lost. The newest actions' steps are left out:
            # the table was shown them first, undos ago, and had the longest to do them;
            # this undo's own steps, not shown yet, are all kept.
            dropped = len(joined) - MAX_UNDONE
            log.warning("undos in a row: the %d undone first left out of the steps due", dropped)
            joined = joined[:MAX_UNDONE]
            # The actions without reverse steps are the newest: dropped first.
            self.progress.undone_unconfirmed = max(0, self.progress.undone_unconfirmed - dropped)
        self.progress.undone = joined
        self.progress.acknowledged = len(game.move_stack)
        self.progress.asked_bonus = game.bonus_answers_kept(self.progress.asked_bonus)
        # The undo and its reverse steps are recorded first, durably: the journal
        # shortened first, a power cut before this file lost the reverse steps (the
        # table was never told to put the 7×7 tile or a patch back), and a progress.json
        # from before the undo, back with the same action played again, counted its
        # steps as done (the crash explorer, seed 5). Cut before the journal is
        # shortened, the next start finishes the undo (`_finish_interrupted_undo`).
        self._save_progress(durable_name=True)
        try:
            # All the actions at once: if the file cannot be shortened, the game stays
            # as the file says, with none of them taken back.
            try:
                self.journal.undo(len(taken_back))
            except JournalChangedError as change:
                self._write_journal_again(change)  # the game as the undo left it
        except (OSError, NothingToUndoError):
            for action in taken_back:
                game.push(action)
            self.progress = before
            self._save_progress(durable_name=True)  # or the next start would finish it
            raise
        if pending:
            return self.unconfirmed_undo()
        return self._reverse_steps_due(plan)

    def _write_journal_again(self, change: JournalChangedError) -> None:
        """The journal was changed outside the companion (shortened, replaced, removed):
        the game in memory is the only whole record, so the journal is written again from
        it. OSError if it cannot be."""
        self.journal.rewrite(self.current)
        log.warning(
            "the saved game was changed outside the companion and was written again (%s)",
            change,
        )

    def _finish_interrupted_undo(self) -> None:
        """Finish an undo that the power cut short: its progress.json (the actions taken
        back, the steps confirmed before them) written, the journal not yet shortened.
        The journal then ends with the first of the actions recorded as undone: all of
        them, or, for an undo joined to one whose reverse steps were due, its own.

        Nothing else leaves that pair: once the journal is shortened, it holds those
        actions again only if they are played again, and `play` first forgets the undo.
        """
        game, undone = self.current, self.progress.undone
        count = len(game.move_stack) - self.progress.acknowledged
        if not (undone and 0 < count <= len(undone) and game.move_stack[-count:] == undone[:count]):
            return
        log.warning("finishing the undo of %d action(s) the power cut short", count)
        try:
            self.journal.undo(count)
        except OSError as error:
            log.warning("cannot finish the undo, the game stays as journalled: %s", error)
            # The undo joined to stays due: the journal had dropped its actions.
            self.progress.undone = undone[count:]
            self.progress.undone_unconfirmed = min(
                self.progress.undone_unconfirmed, len(self.progress.undone)
            )
            self.progress.acknowledged = len(game.move_stack)
            self._save_progress(durable_name=True)
            return
        for _ in range(count):
            game.pop()

    def unconfirmed_undo(self) -> UndoPlan | None:
        """The reverse steps of the last undo, while the table has not confirmed them."""
        if not self.progress.undone:
            return None
        from companion.engine.undo_steps import replan_undo

        plan = replan_undo(self.current, self.progress.undone)
        if plan is None:
            log.warning("the actions undone last no longer follow from the game: forgotten")
            self.undo_confirmed()
            return None
        return self._reverse_steps_due(plan)

    def _reverse_steps_due(self, plan: UndoPlan) -> UndoPlan | None:
        """`plan` without the actions whose steps the table had not confirmed (the last
        one's card still showing when the menu was opened): asked to put back what it may
        never have taken, a table that had done nothing took buttons from the bank. None,
        and the undo forgotten, when no reverse step is left."""
        from companion.engine.undo_steps import UndoPlan

        due = plan.undone[self.progress.undone_unconfirmed :]  # the newest come first
        if not due:
            self.undo_confirmed()
            return None
        return UndoPlan(due)

    def undo_confirmed(self) -> None:
        """The table has done the last undo's reverse steps."""
        self.progress.undone, self.progress.undone_unconfirmed = [], 0
        # Durable: the undo's progress.json, back after a power cut once the actions it
        # took back are played again, would finish that undo over them.
        self._save_progress(durable_name=True)

    # --- the 7×7 bonus -----------------------------------------------------------------

    def bonus_reminder_due(self) -> BonusQuestion | None:
        """The 7×7 question the engine says is due now and has not been asked yet."""
        return self.current.bonus_question(self.progress.asked_bonus)

    def bonus_asked(self, *answers: str) -> None:
        """The question with these `BonusQuestion.answers` was asked: not again."""
        self.progress.asked_bonus += answers
        self._save_progress()

    def claim_bonus(
        self, side: Side, answers: tuple[str, ...] = ()
    ) -> tuple[Action, tuple[Step, ...]]:
        """`side` takes the 7×7 tile; the question `answers` (or `side`'s own) counts as
        asked once the claim is journalled. Marked before it, a claim the card refused, or
        a power cut in between, left the question answered and the claim lost: it was not
        asked again, and the Automa's turn came next (the crash explorer, seed 1)."""
        played = self.play(ClaimBonus(side))
        self.bonus_asked(*(answers or (side,)))
        return played

    # --- laying out the circle ---------------------------------------------------------

    def start_dealt(self, setup: Setup) -> None:
        """A new game whose circle the device deals: the first patches to lay are shown."""
        self.start(setup)
        self.deal_at(0)

    def deal_at(self, index: int | None) -> None:
        """The screen of patches from place `index` is shown; None once the circle is laid."""
        self.progress.dealing = index
        self._save_progress()

    def begin_entering(self, choice: SetupChoice, seed: int) -> Entering:
        self.progress = Progress(entering=Entering(choice, seed))
        self._save_progress()
        return self.progress.entering  # type: ignore[return-value]

    def placed(self, placed: list[str]) -> None:
        """The patches entered so far, in circle order."""
        assert self.progress.entering is not None
        self.progress.entering.placed = list(placed)
        self._save_progress()

    def cancel_entering(self) -> None:
        self._forget_progress()

    def start_entered(self, circle: tuple[str, ...]) -> Game:
        """The game of the circle just entered."""
        entering = self.progress.entering
        assert entering is not None
        return self.start(entering.choice.setup(entering.seed, circle))

    def _save_progress(self, *, durable_name: bool = False) -> None:
        # Only which screen to resume on: if the card refuses it, the journal still
        # holds the game, and the next press that changes the game says so.
        try:
            self.progress.save(self.progress_path, durable_name=durable_name)
        except OSError as error:
            log.warning("cannot save %s: %s", self.progress_path, error)
