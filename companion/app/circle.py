"""Setting up the patch circle on the table: dealt by the device, or entered by the player."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.app.widgets import BACKWARD, Action, Cursor, Screen
from companion.engine.catalogue import PATCHES, STARTING_PATCH_ID
from companion.inputs.events import Input
from companion.views import DEAL_PER_SCREEN, DealView, PatchView, PickPatchView, View

CIRCLE_PLACES = len(PATCHES) - 1
"""Places clockwise after P00, which is laid first."""


class DealScreen(Screen):
    """The dealt circle, a screenful of patches at a time, in the order to lay them.

    `index` is the place (0-based) of the first patch shown; a press shows the
    next screenful, or ends the dealing after the last.
    """

    def __init__(
        self,
        circle: Sequence[str],
        index: int,
        on_move: Callable[[int], None],
        on_done: Action,
    ) -> None:
        self.circle, self.on_move, self.on_done = list(circle), on_move, on_done
        # A place saved mid-screen (by an older version) resumes on its screen.
        self.index = index - index % DEAL_PER_SCREEN

    def view(self) -> View:
        shown = self.circle[self.index : min(self.index + DEAL_PER_SCREEN, CIRCLE_PLACES)]
        return DealView(tuple(PatchView(patch) for patch in shown), self.index + 1, CIRCLE_PLACES)

    def handle(self, event: Input) -> None:
        if event in (Input.SELECT, Input.NEXT):
            if self.index + DEAL_PER_SCREEN >= CIRCLE_PLACES:
                self.on_done()
                return
            self.index += DEAL_PER_SCREEN
        elif event in (Input.PREVIOUS, *BACKWARD):
            self.index = max(0, self.index - DEAL_PER_SCREEN)
        else:
            return
        self.on_move(self.index)


class PickPatchScreen(Screen):
    """Enter the circle as laid out: pick the patch at each place, in order.

    After the patches not yet placed, the last choice goes back: it undoes the
    last place, or leaves before the first, so no long press is needed.
    """

    def __init__(
        self,
        placed: Sequence[str],
        on_change: Callable[[list[str]], None],
        on_done: Callable[[tuple[str, ...]], None],
        on_cancel: Action,
    ) -> None:
        self.placed = list(placed)
        self.on_change, self.on_done, self.on_cancel = on_change, on_done, on_cancel
        self.cursor = Cursor(len(self.remaining()) + 1)

    def remaining(self) -> list[str]:
        return [
            patch.id
            for patch in PATCHES
            if patch.id != STARTING_PATCH_ID and patch.id not in self.placed
        ]

    def view(self) -> View:
        remaining = self.remaining()
        on_back = self.cursor.index == len(remaining)
        return PickPatchView(
            None if on_back else PatchView(remaining[self.cursor.index]),
            len(self.placed) + 1,
            CIRCLE_PLACES,
            self.cursor.index + 1,
            self.cursor.count,
            f"Undo place {len(self.placed)}" if self.placed else "Back to set-up",
        )

    def handle(self, event: Input) -> None:
        if self.cursor.move(event):
            return
        remaining = self.remaining()
        if event is Input.SELECT and self.cursor.index < len(remaining):
            self.placed.append(remaining[self.cursor.index])
            if len(self.remaining()) == 1:
                # The last place can only hold the last patch.
                self.placed.extend(self.remaining())
            if len(self.placed) == CIRCLE_PLACES:
                self.on_done((*self.placed, STARTING_PATCH_ID))
                return
        elif event in (Input.SELECT, *BACKWARD):
            if not self.placed:
                self.on_cancel()
                return
            self.placed.pop()
        else:
            return
        self.cursor = Cursor(len(self.remaining()) + 1)
        self.on_change(self.placed)
