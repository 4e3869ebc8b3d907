"""The game in progress: the game in memory and the store's record of it, kept in step.

`GameSession` is the one place that changes them. Its rule is "store before
screen": `play` returns an action's steps (what the screen shows as done) only
once the store has committed the action, and takes the action back if it
cannot. An input makes at most one transaction: a change of the game (an action,
an undo, a new game, its end) is committed at once, with where the table stands;
a change of where the table stands alone (a card confirmed, a question asked)
waits for the end of the input (`save`), for the Automa's turn it may lead to
is committed with it.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from companion.engine.actions import Action, ClaimBonus, Step
from companion.engine.game import BonusQuestion, Game
from companion.engine.gamelog import action_line, header_line, read_log
from companion.engine.setup import Setup, SetupChoice, Side
from companion.storage.progress import Entering, Progress, result_of
from companion.storage.store import Result, Store

if TYPE_CHECKING:
    from companion.engine.undo_steps import UndoPlan

log = logging.getLogger(__name__)


class GameSession:
    """The game in progress (if any) and where the table stands, loaded from `store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.game: Game | None = None
        self.progress = Progress()
        self._unsaved = False
        """`progress` has changed since the store last took it."""
        try:
            header, lines, standing = store.load()
            progress = Progress.of(standing)
            if header is not None:
                self.game = read_log([header, *lines])
            self.progress = progress
        except Exception as error:
            # Written by no build of ours, or an engine bug on an odd game: the device
            # must start all the same, and the database is kept for the bug report.
            log.exception("the saved game does not replay")
            self.game = None
            store.move_aside(f"its game does not replay ({error})")
        self.last_finished: Game | None = None

    @property
    def current(self) -> Game:
        """The game in progress; only asked for while there is one."""
        assert self.game is not None
        return self.game

    # --- starting and ending -----------------------------------------------------------

    def start(self, setup: Setup, dealing: int | None = None) -> Game:
        """A new game, stored; a game still in progress goes to the history unfinished.
        `dealing`: the place of the first patches the device shows to lay.

        OSError if the store cannot take it: then nothing has changed.
        """
        progress = Progress(dealing=dealing)
        ending = _ending(self.game) if self.game else None
        self.store.start(header_line(setup), progress.standing(), ending)
        self.game, self.progress, self._unsaved = Game(setup), progress, False
        return self.game

    def abandon(self) -> None:
        """Set the game in progress aside: it stays in the history, unfinished (finished if
        it was over, though its end was not yet confirmed)."""
        self.store.end(_ending(self.current))
        self.game, self.progress, self._unsaved = None, Progress(), False

    def finish(self) -> Game:
        """Save the finished game to the history; returns it."""
        game = self.current
        self.store.end(result_of(game))
        self.last_finished, self.game, self.progress = game, None, Progress()
        self._unsaved = False
        return game

    # --- actions -----------------------------------------------------------------------

    def play(self, action: Action, asked: tuple[str, ...] = ()) -> tuple[Action, tuple[Step, ...]]:
        """Apply `action` and store it; returns the action as stored and its steps. The 7×7
        questions `asked` count as asked with it.

        If the store cannot take it (OSError), the game is as it was and the error
        is raised: nothing is shown as done that a power cut would lose.
        """
        game = self.current
        # The game goes on from an undo: its reverse steps are no longer due.
        progress = replace(self.progress, undone=[], undone_unconfirmed=0)
        progress.asked_bonus = [*progress.asked_bonus, *asked]
        steps = game.push(action)
        try:
            self.store.save(progress.standing(), add=action_line(game.move_stack[-1]))
        except OSError:
            game.pop()
            raise
        self.progress, self._unsaved = progress, False
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
        self._save(replace(self.progress, acknowledged=len(self.current.move_stack)))

    def can_undo(self) -> bool:
        # undo_steps is imported when an undo is asked for: the start-up never needs it.
        from companion.engine.undo_steps import undo_count

        return undo_count(self.current.move_stack) > 0

    def undo_plan(self) -> UndoPlan | None:
        """What `undo` would take back now, with the reverse steps for the table."""
        from companion.engine.undo_steps import plan_undo

        return plan_undo(self.current)

    def undo(self) -> UndoPlan | None:
        """Take back the last action of a person, with any Automa turns after it, in one
        transaction with the reverse steps it leaves due at the table (returned; None if
        none). OSError if the store cannot take it: then nothing has changed.

        Chosen while an undo's reverse steps are still due, it joins them: the table
        is told both, the later actions' steps first, as it must put them back."""
        from companion.engine.undo_steps import plan_undo, replan_undo

        game = self.current
        plan = plan_undo(game)
        assert plan is not None, "nothing to undo"
        pending = self.progress.undone
        if pending and replan_undo(game, pending) is None:
            log.warning("the actions undone last no longer follow from the game: forgotten")
            pending = []
        unconfirmed = self.progress.undone_unconfirmed
        if not pending:
            # Steps the table had not confirmed have no reverse steps. With an undo
            # pending, the table had confirmed all before it: its count stands.
            not_done = len(game.move_stack) - self.progress.acknowledged
            unconfirmed = min(len(plan.undone), max(0, not_done))
        taken_back = [game.pop() for _ in plan.undone][::-1]
        joined = taken_back + pending
        if pending:
            plan = replan_undo(game, joined)
        due = _due(plan, unconfirmed)
        progress = replace(
            self.progress,
            acknowledged=len(game.move_stack),
            asked_bonus=game.bonus_answers_kept(self.progress.asked_bonus),
            undone=joined if due else [],
            undone_unconfirmed=unconfirmed if due else 0,
        )
        try:
            self.store.save(progress.standing(), keep=len(game.move_stack))
        except OSError:
            for action in taken_back:
                game.push(action)
            raise
        self.progress, self._unsaved = progress, False
        return due

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
        """`plan`'s reverse steps due (`_due`); None, and the undo forgotten, if none."""
        due = _due(plan, self.progress.undone_unconfirmed)
        if due is None:
            self.undo_confirmed()
        return due

    def undo_confirmed(self) -> None:
        """The table has done the last undo's reverse steps."""
        self._save(replace(self.progress, undone=[], undone_unconfirmed=0))

    # --- the 7×7 bonus -----------------------------------------------------------------

    def bonus_reminder_due(self) -> BonusQuestion | None:
        """The 7×7 question the engine says is due now and has not been asked yet."""
        return self.current.bonus_question(self.progress.asked_bonus)

    def bonus_asked(self, *answers: str) -> None:
        """The question with these `BonusQuestion.answers` was asked: not again."""
        self._save(replace(self.progress, asked_bonus=[*self.progress.asked_bonus, *answers]))

    def claim_bonus(
        self, side: Side, answers: tuple[str, ...] = ()
    ) -> tuple[Action, tuple[Step, ...]]:
        """`side` takes the 7×7 tile; the question `answers` (or `side`'s own) counts as
        asked in the same transaction as the claim: a claim the card refused leaves the
        question to be asked again."""
        return self.play(ClaimBonus(side), asked=answers or (side,))

    # --- laying out the circle ---------------------------------------------------------

    def start_dealt(self, setup: Setup) -> None:
        """A new game whose circle the device deals: the first patches to lay are shown."""
        self.start(setup, dealing=0)

    def deal_at(self, index: int | None) -> None:
        """The screen of patches from place `index` is shown; None once the circle is laid."""
        self._save(replace(self.progress, dealing=index))

    def begin_entering(self, choice: SetupChoice, seed: int) -> Entering:
        entering = Entering(choice, seed)
        self._save(Progress(entering=entering))
        return entering

    def placed(self, placed: list[str]) -> None:
        """The patches entered so far, in circle order."""
        entering = self.progress.entering
        assert entering is not None
        self._save(replace(self.progress, entering=replace(entering, placed=list(placed))))

    def cancel_entering(self) -> None:
        self._save(Progress())

    def start_entered(self, circle: tuple[str, ...]) -> Game:
        """The game of the circle just entered."""
        entering = self.progress.entering
        assert entering is not None
        return self.start(entering.choice.setup(entering.seed, circle))

    def _save(self, progress: Progress) -> None:
        """`progress` from now on, stored at the end of the input (`save`) unless a change
        of the game stores it first."""
        if progress != self.progress:
            self.progress, self._unsaved = progress, True

    def save(self) -> None:
        """Store where the table stands, if it changed: at the end of each input. Only which
        screen to resume on: if the card refuses it, the store still holds the game, and
        the next press that changes the game says so."""
        if not self._unsaved:
            return
        self._unsaved = False
        try:
            self.store.save(self.progress.standing())
        except OSError as error:
            log.warning("where the game stands was not saved: %s", error)


def _ending(game: Game) -> Result:
    """How a game left for another ends in the history: a game played to its end is
    finished, whether or not the player confirmed its end first."""
    return result_of(game) if game.is_over else Result(finished=False)


def _due(plan: UndoPlan | None, unconfirmed: int) -> UndoPlan | None:
    """`plan` without its `unconfirmed` newest actions, whose steps the table had not
    confirmed (the last one's card still showing when the menu was opened): asked to put
    back what it may never have taken, a table that had done nothing took buttons from
    the bank. None if no reverse step is left."""
    from companion.engine.undo_steps import UndoPlan

    due = plan.undone[unconfirmed:] if plan is not None else ()  # the newest come first
    return UndoPlan(due) if due else None
