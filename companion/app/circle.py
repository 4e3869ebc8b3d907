"""Setting up the patch circle on the table: dealt by the device, or entered by the player."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.app.widgets import BACKWARD, Action, Cursor, Screen
from companion.engine.catalogue import PATCH_BY_ID, PATCHES, STARTING_PATCH_ID
from companion.inputs.events import Input
from companion.text.language import Words
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
        words: Words,
        code: str = "",
    ) -> None:
        """`code`: the deal code, shown as the first screen's title (none for two players)."""
        self.circle, self.on_move, self.on_done = list(circle), on_move, on_done
        self.words, self.code = words, code
        # A place saved mid-screen (by an older version) resumes on its screen.
        self.index = index - index % DEAL_PER_SCREEN

    def view(self) -> View:
        shown = self.circle[self.index : min(self.index + DEAL_PER_SCREEN, CIRCLE_PLACES)]
        words = self.words
        first = self.index == 0
        title = words("Deal {code}", code=self.code) if first and self.code else ""
        return DealView(
            tuple(PatchView(patch) for patch in shown),
            self.index + 1,
            CIRCLE_PLACES,
            title or words("Lay out the circle"),
            words("after P00, row by row") if first else words("go on clockwise"),
        )

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


def fewest_turns_start(weights: Sequence[int]) -> int:
    """Where a wrapping list (with one more entry, going back, at its end) should start
    so that turning to an entry takes the fewest turns on average, entry `i` being
    chosen `weights[i]` times out of `sum(weights)`: its weighted middle.

    >>> fewest_turns_start([1, 1, 1, 1, 1]), fewest_turns_start([5, 1, 1, 1, 6, 1])
    (2, 4)
    """
    count = len(weights) + 1

    def turns(start: int) -> int:
        return sum(
            weight * min((i - start) % count, (start - i) % count)
            for i, weight in enumerate(weights)
        )

    return min(range(len(weights)), key=turns)


class PickPatchScreen(Screen):
    """Enter the circle as laid out: for each place in order, the cost printed on the
    patch there, then the patch among those left at that cost.

    The costs start where the fewest turns are needed on average (the middle of
    the patches left), and a cost with one patch left places it at once. After
    the costs, the last choice goes back: it undoes the last place, or leaves
    before the first; after the patches of a cost, it goes back to the costs. So
    no long press is needed.
    """

    def __init__(
        self,
        placed: Sequence[str],
        on_change: Callable[[list[str]], None],
        on_done: Callable[[tuple[str, ...]], None],
        on_cancel: Action,
        words: Words,
    ) -> None:
        self.words = words
        self.placed = list(placed)
        self.on_change, self.on_done, self.on_cancel = on_change, on_done, on_cancel
        self._choose_cost()

    def _remaining(self, cost: int | None = None) -> list[str]:
        return [
            patch.id
            for patch in PATCHES
            if patch.id != STARTING_PATCH_ID
            and patch.id not in self.placed
            and cost in (None, patch.cost)
        ]

    def _costs(self) -> list[int]:
        return sorted({PATCH_BY_ID[patch].cost for patch in self._remaining()})

    def _choose_cost(self, cost: int | None = None) -> None:
        """Turn through the costs, from `cost` or else from the fewest-turns start."""
        self.cost: int | None = None
        costs = self._costs()
        if cost is None:
            start = fewest_turns_start([len(self._remaining(c)) for c in costs])
        else:
            start = costs.index(cost)
        self.cursor = Cursor(len(costs) + 1, start)

    def view(self) -> View:
        number, total, words = len(self.placed) + 1, CIRCLE_PLACES, self.words
        title = words("Circle place {number}/{total}", number=number, total=total)
        if self.cost is not None:
            patches = self._remaining(self.cost)
            on_back = self.cursor.index >= len(patches)
            return PickPatchView(
                number,
                total,
                self.cost,
                tuple(PatchView(patch) for patch in patches),
                picking=True,
                selected=self.cursor.index,
                choices=self.cursor.count,
                back_label=words("Other cost"),
                title=title,
                hint=words("press: other cost") if on_back else words("turn to it, press"),
            )
        costs = self._costs()
        cost = costs[self.cursor.index] if self.cursor.index < len(costs) else None
        remaining: tuple[PatchView, ...] = ()
        if cost is not None:
            remaining = tuple(PatchView(patch) for patch in self._remaining(cost))
            one = len(remaining) == 1
            hint = words("press: place it") if one else words("turn to its cost, press")
        elif self.placed:
            hint = words("press: undo place {number}", number=len(self.placed))
        else:
            hint = words("press: back to set-up")
        back_label = (
            words("Undo place {number}", number=len(self.placed))
            if self.placed
            else words("Back to set-up")
        )
        return PickPatchView(
            number,
            total,
            cost,
            remaining,
            picking=False,
            selected=self.cursor.index,
            choices=self.cursor.count,
            back_label=back_label,
            title=title,
            hint=hint,
        )

    def handle(self, event: Input) -> None:
        if self.cursor.move(event):
            return
        if self.cost is not None:
            self._handle_patch(event, self.cost)
        else:
            self._handle_cost(event)

    def _handle_cost(self, event: Input) -> None:
        costs = self._costs()
        if event is Input.SELECT and self.cursor.index < len(costs):
            cost = costs[self.cursor.index]
            patches = self._remaining(cost)
            if len(patches) == 1:
                self._place(patches[0])
            else:
                self.cost = cost
                self.cursor = Cursor(len(patches) + 1)
        elif event in (Input.SELECT, *BACKWARD):
            if not self.placed:
                self.on_cancel()
                return
            self.placed.pop()
            self._choose_cost()
            self.on_change(self.placed)

    def _handle_patch(self, event: Input, cost: int) -> None:
        patches = self._remaining(cost)
        if event is Input.SELECT and self.cursor.index < len(patches):
            self._place(patches[self.cursor.index])
        elif event in (Input.SELECT, *BACKWARD):
            self._choose_cost(cost)

    def _place(self, patch: str) -> None:
        self.placed.append(patch)
        if len(self._remaining()) == 1:
            # The last place can only hold the last patch.
            self.placed.extend(self._remaining())
        if len(self.placed) == CIRCLE_PLACES:
            self.on_done((*self.placed, STARTING_PATCH_ID))
            return
        self._choose_cost()
        self.on_change(self.placed)
