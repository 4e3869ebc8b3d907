"""Layouts of the game screens: the turn, steps, the Automa's turn, the score.

Patches on offer are drawn at one fixed scale, so the same patch is always the
same size and sizes can be compared between turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from companion.engine.actions import Buy
from companion.engine.catalogue import FINAL_POSITION, PATCH_BY_ID, PATCHES
from companion.render.canvas import HEIGHT, WIDTH, Box, Canvas
from companion.render.layout import (
    GAP,
    HANGUL,
    LINE,
    PAD,
    TILE_NAME,
    Lettering,
    Row,
    flow,
    left_right,
    lettering_of,
    text_line,
)
from companion.render.patches import (
    common_cell,
    draw_patch,
    known_patch,
    patch_label,
)
from companion.render.track import TRACK_HEIGHT, draw_token, draw_track, track_width
from companion.text.font import (
    ARROW_DOWN,
    ARROW_RIGHT,
    ARROW_UP,
    BUTTON,
    CHECK,
    CROSS,
    LARGE,
    SMALL,
    TILE,
    Font,
)
from companion.text.hangul import DENSE_LINE_HEIGHT, KOREAN_DENSE
from companion.views import (
    AutomaView,
    BoardView,
    ScoreColumn,
    ScoreView,
    SideView,
    StepView,
    TurnLine,
    TurnMark,
    TurnView,
)

# --- the board: header, track and offer, the same on every in-game screen ----------------

TRACK_BOX = Box(0, LINE + 1, track_width(2), TRACK_HEIGHT)
"""The whole track at two pixels a square; the positions go to its right. A dark row
above it: an upper token on the header's first row touched the lit name over it."""
OFFER_TOP = 3 * LINE
"""The offer starts on a page of its own (the panel's pages are 8 rows), so a frame
or a strip changing below leaves the header and track pages untouched."""
POSITION_MARK_X = TRACK_BOX.right + 2
"""The middle column of the copy of each token drawn before its square's number, level
with the token, so the number says whose square it is: "▼19" is the ▼'s. A two-digit
number keeps a dark column after it."""
OFFER_HEIGHT = 3 * LINE
OFFER_COLUMNS = (
    Box(0, OFFER_TOP, 43, OFFER_HEIGHT),
    Box(43, OFFER_TOP, 42, OFFER_HEIGHT),
    Box(85, OFFER_TOP, 43, OFFER_HEIGHT),
)
"""Three columns, one per patch on offer; the selected one's label is lit."""
OFFER_INSET = 2
OFFER_CELL = common_cell(PATCHES, OFFER_COLUMNS[1].inset(OFFER_INSET))
LABEL_ROW = Box(0, OFFER_TOP + OFFER_HEIGHT, WIDTH, LINE)
BOTTOM = Box(0, HEIGHT - LINE, WIDTH, LINE)
STRIP_ROWS = 3
"""At most this many rows of a step under the board: two leave the whole offer
visible; a third clears it."""
PATCHES_BOTTOM = OFFER_TOP + OFFER_HEIGHT
"""Where the patches on offer end: a strip whose top is above it would cut the lowest
squares off, so it clears the whole offer."""
KOREAN_BOTTOM = Box(0, HEIGHT - HANGUL.font.height, WIDTH, HANGUL.font.height)
"""A Korean line is 11 rows: the turn's line ends on the last row, over two pages."""
KOREAN_LABEL_ROW = Box(0, OFFER_TOP + 2 * LINE, WIDTH, LINE)
"""The labels on the offer's lowest page alone, as English ones are on theirs:
turning the knob rewrites one page of them, not two."""
KOREAN_BANNER = Box(0, KOREAN_LABEL_ROW.y + 1, WIDTH, KOREAN_BOTTOM.y - KOREAN_LABEL_ROW.y - 2)
"""The turn-again banner's rows in Korean: a dark row under the patches (the tallest
ends on the row above the labels) and one before the bottom line's Hangul. Gulim 12's
eleven rows left no lit row under the letters; Gulim 10's nine have one either side."""
KOREAN_PATCHES_BOTTOM = KOREAN_LABEL_ROW.y
"""The same over Korean labels, whose patches end a page higher."""
KOREAN_OFFER_TOP = OFFER_TOP - 1
"""Over Korean labels the patches start a row higher and are drawn a size smaller
(5-pixel squares, not 6): the tallest, three squares, ends just above the labels."""
KOREAN_OFFER_AREAS = tuple(
    Box(column.x, KOREAN_OFFER_TOP, column.width, KOREAN_LABEL_ROW.y - KOREAN_OFFER_TOP).inset(
        OFFER_INSET, 0
    )
    for column in OFFER_COLUMNS
)
KOREAN_OFFER_CELL = common_cell(PATCHES, KOREAN_OFFER_AREAS[1])
KOREAN_STRIP_ROWS = 3
KOREAN_STRIP_PITCH = HANGUL.font.height + 1
"""Korean strip rows are 12 pixels, one blank row between lines: three cover the
offer's patches (as three English rows cover its lowest page) and leave the track
alone; the last row is the turn's own line, in the same pixels."""
ASIDE_SPACES = "   "
"""The least room between a card's last line and the income beside it, in letters: at
one space (4 pixels) "✓ Kup P20: 4●, na 6 příjem +2●" read as one phrase. Korean keeps
one (`KOREAN_ASIDE_SPACES`)."""
KOREAN_ASIDE_SPACES = " "
"""Hangul's blocks already part the two; three spaces would push the income onto a row
of its own on some cards, for nothing gained."""


def draw_board(canvas: Canvas, board: BoardView, lettering: Lettering) -> None:
    """Header, track and offer patches: the pixels every in-game screen shares."""
    _header(canvas, board)
    first, second = board.sides
    draw_track(
        canvas,
        TRACK_BOX,
        (first.position, second.position),
        leather=board.leather,
        bonus_mark=board.bonus_mark,
    )
    # Each token's square beside the track, after a copy of the token in its rows: the
    # first side's level with its (upper) token, the second's on the page above the
    # offer, two blank rows under the first (one row apart, two numbers read as one
    # column of digits). A token on the last square stands there itself: a copy would
    # touch it.
    numbers = Box(TRACK_BOX.right, LINE, WIDTH - TRACK_BOX.right, SMALL.height)
    text_line(canvas, numbers, str(first.position), align="right")
    lower = Box(numbers.x, OFFER_TOP - LINE, numbers.width, SMALL.height)
    text_line(canvas, lower, str(second.position), align="right")
    for index, side in enumerate((first, second)):
        if side.position != FINAL_POSITION:
            draw_token(canvas, POSITION_MARK_X, TRACK_BOX.y, below=index == 1)
    for index, shown in enumerate(board.offer[: len(OFFER_COLUMNS)]):
        patch = known_patch(canvas, shown.patch_id)
        column = OFFER_COLUMNS[index]
        if patch is None:
            continue
        if lettering is HANGUL:
            area, cell = KOREAN_OFFER_AREAS[index], KOREAN_OFFER_CELL
        else:
            area, cell = column.inset(OFFER_INSET), OFFER_CELL
        draw_patch(canvas, area, patch, cell=cell, affordable=shown.affordable)
    if len(board.offer) > len(OFFER_COLUMNS):
        canvas.report(f"offer of {len(board.offer)} patches, room for {len(OFFER_COLUMNS)}")


def _header(canvas: Canvas, board: BoardView) -> None:
    """Both sides' buttons; the name of the side to move is lit (the name only: when the
    turn passes, the panel rewrites two names, not the whole row). Who holds the 7x7
    tile, and the Automa's next virtual buttons with the tactical deck (a rule: always
    shown). When that is too wide the next card's word gives way to an arrow ("→10●"),
    then "7x7" to the tile's mark ("▣", as on the game against every level), and only
    then the names shorten ("A", with three-digit buttons), "7x7" back if it fits;
    never the facts."""
    names = [side.label for side in board.sides]
    short_names = [_short(side) for side in board.sides]
    short_next = board.next_card_short or board.next_card
    for labels, next_card, tile in (
        (names, board.next_card, TILE_NAME),
        (names, short_next, TILE_NAME),
        (names, short_next, TILE),
        (short_names, short_next, TILE_NAME),
        (short_names, short_next, TILE),
    ):
        texts = [
            _header_text(board, index, label, next_card, tile) for index, label in enumerate(labels)
        ]
        # Each text padded in its box, and a dark column between the boxes.
        if sum(SMALL.text_width(text) + 2 * PAD for text in texts) < WIDTH:
            break
    else:
        canvas.report(f"header {texts[0]!r} and {texts[1]!r} do not fit")
    for index, (label, text) in enumerate(zip(labels, texts, strict=True)):
        x = PAD if index == 0 else WIDTH - PAD - SMALL.text_width(text)
        name = Box(x - PAD, 0, SMALL.text_width(label) + 2 * PAD, LINE)
        lit = index == board.mover
        if lit:
            canvas.fill(name)
        canvas.text_in_box(name.inset(PAD, 0), label, fill=0 if lit else 1)
        after = x + SMALL.text_width(label + " ") - SMALL.text_width(" ")
        canvas.text_in_box(Box(after, 0, WIDTH - after, LINE), text[len(label) :])


def _short(side: SideView) -> str:
    return side.short_label or side.label


def _header_text(board: BoardView, index: int, label: str, next_card: str, tile: str) -> str:
    side = board.sides[index]
    parts = [f"{label} {side.buttons}{BUTTON}"]
    if side.holds_bonus:
        parts.append(tile)
    if index == 1 and next_card:
        parts.append(next_card)
    return " ".join(parts)


# --- the turn -------------------------------------------------------------------------


def draw_turn(canvas: Canvas, view: TurnView) -> None:
    lettering = lettering_of(view)
    korean = lettering is HANGUL
    label_row, bottom = (KOREAN_LABEL_ROW, KOREAN_BOTTOM) if korean else (LABEL_ROW, BOTTOM)
    choice = view.choices[view.selected] if 0 <= view.selected < len(view.choices) else None
    draw_board(canvas, view.board, lettering)
    if view.banner:
        # In place of the scores, so the line under it still says what a press does.
        # Lit only round its words: the scores that follow it rewrite no more columns.
        # A Korean banner also takes the rows between the labels and the bottom line,
        # empty otherwise, in Gulim 10 (`KOREAN_BANNER`): a lit row round its letters.
        font, box = (KOREAN_DENSE, KOREAN_BANNER) if korean else (lettering.font, label_row)
        width = min(box.width, font.text_width(view.banner) + 4 * PAD)
        pill = Box((WIDTH - width) // 2, box.y, width, box.height)
        canvas.selection_bar(pill, view.banner, font=font, align="center")
    elif isinstance(choice, Buy):
        _labels(canvas, view.board, choice.index, label_row)
    else:
        # No patch chosen (each turn starts on Advance): each side's score so far
        # under its name, in place of the labels.
        _scores(canvas, label_row.inset(PAD, 0), view.scores, view.scores_bare)
    if 0 <= view.selected < len(view.lines):
        _choice_line(canvas, bottom, view.lines[view.selected], lettering.font)


def _scores(
    canvas: Canvas, box: Box, named: tuple[str, str], bare: tuple[str, str] = ("", "")
) -> None:
    """Both sides' scores apart, a rule between them: two three-digit scores side by side
    ("-134  -135 pts, income 0●") read as one run of figures without it. The `named`
    ones (each with its unit) where they leave room for the rule, else the `bare`."""
    for left, right in (named, bare) if any(bare) else (named,):
        start = box.x + SMALL.text_width(left)
        end = box.right - SMALL.text_width(right)
        if end - start >= 2 * GAP + 1:
            break
    else:
        canvas.report(f"scores {left!r} and {right!r} leave no room for a rule between them")
        left_right(canvas, box, left, right)
        return
    left_right(canvas, box, left, right)
    top = box.y + (box.height - SMALL.cap_height) // 2
    canvas.vline((start + end) // 2, top, top + SMALL.cap_height - 1)


MARK_GLYPHS: dict[TurnMark, str] = {"press": ARROW_RIGHT, "refused": CROSS}
MARK_CELL = max(SMALL.glyphs[mark].width for mark in (*MARK_GLYPHS.values(), CHECK))


def _choice_line(canvas: Canvas, box: Box, line: TurnLine, font: Font) -> None:
    """A turn's line, its mark centred in a cell as wide as the ✓ that the step card puts
    in its place: pressing turns "▶ Buy P24…" into "✓ Buy P24…", and only the mark's
    columns change on the panel, not the whole line shifted by two pixels (in Korean,
    two pages of it). The words start where the card's do, after "✓ "."""
    mark = MARK_GLYPHS[line.mark]
    # Placed as the strip places its rows (`left_right`, centred on the capitals).
    y = box.y + (box.height - font.cap_height) // 2
    canvas.text((box.x + (MARK_CELL - font.glyphs[mark].width) // 2, y), mark, font=font)
    rest = box.x + font.advance(CHECK) + font.advance(" ")
    canvas.text((rest, y), line.text, font=font, max_width=box.right - rest)


class Boundary(NamedTuple):
    """What stands between two labels' cells: dark columns, and a rule between them."""

    before: int
    rule: int
    after: int

    @property
    def width(self) -> int:
        return self.before + self.rule + self.after


RULED = Boundary(2, 1, 1)
"""A rule on the next column's first pixel (the columns are 43, 42 and 43 wide), two dark
columns before it and one after: three labels side by side ("10●5⌛+3●10●4⌛+3●") read
as one run without it."""
RULED_CROWDED = Boundary(1, 1, 1)
"""The least a rule keeps either side, where three of the widest labels stand together."""
LIT_EDGE = Boundary(1, 0, 0)
"""Beside the lit label where three of the widest leave no room for a rule: the lit box's
own edge, one dark column from its neighbour, parts them."""


class LabelPlaces(NamedTuple):
    """Where the offer's labels go: a cell each (the lit one's box), and the rules."""

    cells: tuple[Box, ...]
    rules: tuple[int, ...]


def _lit_margins(text: str) -> tuple[int, int]:
    """The lit columns a lit label adds before and after its text so that a lit column
    stands either side of its ink: none where the glyph has a dark one of its own (the
    "1" of "10●")."""
    first, last = SMALL.glyphs[text[0]], SMALL.glyphs[text[-1]]
    lead = min(len(row) - len(row.lstrip(".")) for row in first.rows)
    trail = min(len(row) - len(row.rstrip(".")) for row in last.rows)
    return max(0, 1 - lead), max(0, 1 - trail)


def _label_need(text: str, lit: bool) -> int:
    """The columns a label takes: its text's, and lit, its box's margins."""
    if not text:  # an unknown patch, reported with the offer
        return 0
    return SMALL.text_width(text) + (sum(_lit_margins(text)) if lit else 0)


def _label_places(label_row: Box, texts: Sequence[str], chosen: int) -> LabelPlaces | None:
    """A cell under each patch, wide enough for its label, and a rule between two labels;
    None if they cannot all fit.

    The rules stand on the columns' borders where the labels leave room, each cell as
    wide as it can be (the lit one's box is its cell), and move aside for a wide label.
    Three of the widest ("10●…", 41 pixels) leave no room for a rule beside the lit box:
    its edge parts it from its neighbours."""
    needs = [_label_need(text, index == chosen) for index, text in enumerate(texts)]
    needs += [0] * (len(OFFER_COLUMNS) - len(needs))
    for crowded in (False, True):
        boundaries = []
        for left in range(len(OFFER_COLUMNS) - 1):
            if not crowded:
                boundaries.append(RULED)
            elif chosen in (left, left + 1):
                boundaries.append(LIT_EDGE)
            else:
                boundaries.append(RULED_CROWDED)
        cells = _packed(label_row, needs, boundaries)
        if cells is not None:
            rules = tuple(
                cell.right + boundary.before
                for index, (cell, boundary) in enumerate(zip(cells, boundaries, strict=False))
                if boundary.rule and index + 1 < len(texts)
            )
            return LabelPlaces(cells, rules)
    return None


def _packed(
    row: Box, needs: Sequence[int], boundaries: Sequence[Boundary]
) -> tuple[Box, ...] | None:
    """Cells across `row` of at least `needs` columns, `boundaries` between them, each
    boundary's rule as near the next offer column's first pixel as they allow."""
    cells, start = [], row.x
    for index, boundary in enumerate(boundaries):
        rest = sum(needs[index + 1 :]) + sum(later.width for later in boundaries[index:])
        wanted = OFFER_COLUMNS[index + 1].x - boundary.before
        end = min(max(wanted, start + needs[index]), row.right - rest)
        if end < start + needs[index]:
            return None
        cells.append(Box(start, row.y, end - start, row.height))
        start = end + boundary.width
    if row.right - start < needs[-1]:
        return None
    cells.append(Box(start, row.y, row.right - start, row.height))
    return tuple(cells)


def _labels(canvas: Canvas, board: BoardView, chosen: int, label_row: Box) -> None:
    """Each patch's cost, time and buttons under it, apart from its neighbours; the
    chosen one's lit."""
    patches = [PATCH_BY_ID.get(shown.patch_id) for shown in board.offer[: len(OFFER_COLUMNS)]]
    texts = [patch_label(patch, compact=True) if patch else "" for patch in patches]
    places = _label_places(label_row, texts, chosen)
    if places is None:
        canvas.report(f"offer labels {texts} do not fit apart")
        return
    for x in places.rules:
        canvas.vline(x, label_row.y, label_row.bottom - 1)
    for index, (text, cell) in enumerate(zip(texts, places.cells, strict=False)):
        if not text:
            continue
        lit = index == chosen
        before = _lit_margins(text)[0] if lit else 0
        if lit:
            # Only the label is lit, not a frame round the patch: turning the knob
            # rewrites the label row and the line below, not the patches' pages.
            canvas.fill(cell)
        x = cell.x + before + (cell.width - _label_need(text, lit)) // 2
        room = Box(x, cell.y, cell.right - x, cell.height)
        canvas.text_in_box(room, text, fill=0 if lit else 1)


# --- the strip under the board: a step, the Automa's turn -----------------------------


def _strip(
    canvas: Canvas,
    lines: list[str],
    right: str,
    lettering: Lettering,
    last: str = "",
) -> int:
    """Up to `STRIP_ROWS` rows of a step card at the bottom; returns how many it shows.

    The rows grow upwards from the bottom, so two rows leave the offer whole, and
    start at the left edge as the turn's own bottom line does, so a line both
    show keeps its pixels. `right` goes at the right of the first row, `last` at
    the right of the last.
    """
    font = lettering.font
    line = KOREAN_STRIP_PITCH if lettering is HANGUL else lettering.line
    most = KOREAN_STRIP_ROWS if lettering is HANGUL else STRIP_ROWS
    first_row = font.text_width(right) + GAP if right else 0

    def room(row: int) -> tuple[int, int]:
        return (0, WIDTH - (first_row if row == 0 else 0))

    rows = flow(lines, room, indent=GAP, whole=True, font=font)
    shown = rows[:most]
    if len(rows) > most:
        canvas.report(f"step: {len(rows)} lines, room for {most}")
    top = HEIGHT - len(shown) * line
    # A strip over the patches' lowest rows would leave a fragment of them (a row of
    # bars; in Korean a bar that reads as part of a letter): the offer goes whole,
    # and only its pages change, never the header's or the track's.
    if lettering is HANGUL:
        cleared = KOREAN_OFFER_TOP if top < KOREAN_PATCHES_BOTTOM else top
    else:
        cleared = OFFER_TOP if top < PATCHES_BOTTOM else top
    canvas.fill(Box(0, cleared, WIDTH, HEIGHT - cleared), fill=0)
    for index, row in enumerate(shown):
        mark = right if index == 0 else ""
        if index == len(shown) - 1 and last and not mark:
            mark = last
        box = Box(row.x, top + index * line, WIDTH - row.x, line)
        left_right(canvas, box, row.text, mark, font=font)
    return len(shown)


def draw_step(canvas: Canvas, view: StepView) -> None:
    lettering = lettering_of(view)
    draw_board(canvas, view.board, lettering)
    label_row = KOREAN_LABEL_ROW if lettering is HANGUL else LABEL_ROW
    count = f"{view.number}/{view.total}" if view.total > 1 else ""
    lines, aside = list(view.lines), ""
    font = lettering.font
    # The count stays alone at the right of the first row.
    if view.aside and len(lines) > (2 if count else 1):
        spaces = KOREAN_ASIDE_SPACES if lettering is HANGUL else ASIDE_SPACES
        needed = font.text_width(lines[-2] + spaces + view.aside)
        if needed <= WIDTH:
            lines, aside = lines[:-1], view.aside
    rows = _strip(canvas, lines, count, lettering, last=aside)
    if rows == 1 and any(view.scores):
        # A one-line card is where the turn's line was, and leaves the turn's scores
        # where they were, the action counted.
        _scores(canvas, label_row.inset(PAD, 0), view.scores, view.scores_bare)


AUTOMA_TOP = LINE
"""The Automa's turn takes every row under the header: its card and choice, its
steps, and what each of the card's three filters did, readable before the one press
that confirms them. The track and the offer give way: its steps name the squares,
and the next turn shows both."""
KOREAN_AUTOMA_ROWS = HEIGHT // DENSE_LINE_HEIGHT
"""Korean's card in 10-pixel Hangul takes the whole panel: six rows, its headline, two
steps and three filters (under the 8-pixel header there would be five). The headline's
row keeps the next card's buttons at its right (`_next_card_beside`); a turn of the
knob, past the steps, brings the header back over five rows."""
NEXT_CARD_RULE = Boundary(2, 1, 2)
"""Between the Korean headline and the next card's buttons at its right: a rule, so
"4●: P13 둘째 →6●" does not read as one phrase."""


def draw_automa(canvas: Canvas, view: AutomaView) -> None:
    korean = lettering_of(view) is HANGUL
    font = KOREAN_DENSE if korean else SMALL
    pitch = font.line_height
    headline_room = WIDTH
    if korean and view.first_row == 0:
        most = KOREAN_AUTOMA_ROWS
        # The dark row under the last line's ink shared out above and below.
        top = (HEIGHT - most * pitch + 1) // 2
        headline_room = _next_card_beside(canvas, view, Box(0, top, WIDTH, pitch))
    else:
        most = (HEIGHT - AUTOMA_TOP) // pitch
        top = HEIGHT - most * pitch
        _header(canvas, view.board)
    lines, actions = view.lines, view.actions
    rows, through_filters = _automa_rows(view, lines, actions, font, most, headline_room)
    if through_filters > most and view.first_row == 0 and view.compact_steps:
        # The steps in fewer rows, when that brings the card's last filter on screen.
        compact = (lines[0], *view.compact_steps, *lines[actions:])
        compact_actions = 1 + len(view.compact_steps)
        fewer = _automa_rows(view, compact, compact_actions, font, most, headline_room)
        if fewer[1] <= most:
            rows, lines, actions = fewer[0], compact, compact_actions
    # Korean's steps with a leather patch or the 7x7 tile take a seventh row when the
    # token's line has no room to name them too: ▼ says so.
    if not korean:
        needed = len(flow(lines[:actions], lambda _: (0, WIDTH), font=font))
        if needed > most:
            canvas.report(f"automa: {needed} rows of steps, room for {most}")
    shown = rows[:most]
    for index, row in enumerate(shown):
        mark = ""
        if index == 0 and view.first_row > 0:
            mark = ARROW_UP
        elif index == len(shown) - 1 and len(rows) > len(shown):
            mark = ARROW_DOWN
        box = Box(row.x, top + index * pitch, WIDTH - row.x, pitch)
        left_right(canvas, box, row.text, mark, font=font)


def _automa_rows(
    view: AutomaView,
    lines: Sequence[str],
    actions: int,
    font: Font,
    most: int,
    headline_room: int,
) -> tuple[list[Row], int]:
    """`lines` from the view's first row wrapped onto the Automa's rows, and how many
    rows they take through the card's last filter."""
    arrow_room = font.text_width(ARROW_DOWN) + GAP
    rows: list[Row] = []
    through_filters = 0
    for index in range(view.first_row, len(lines)):
        # The card's filters indented under the steps: why, apart from what to do.
        x = GAP if actions <= index < actions + view.filters else 0

        def room(row: int, x: int = x, before: int = len(rows)) -> tuple[int, int]:
            # Room for ▲ on the first row once scrolled and ▼ on the last only: the
            # headline and a middle row ("Pile without ●; neutral there") keep the
            # whole width.
            up = before + row == 0 and view.first_row > 0
            marks = arrow_room if up or before + row == most - 1 else 0
            width = headline_room if before + row == 0 else WIDTH
            return (x, width - x - marks)

        rows += flow([lines[index]], room, indent=GAP, font=font)
        if index < actions + view.filters:
            through_filters = len(rows)
    return rows, through_filters


def _next_card_beside(canvas: Canvas, view: AutomaView, row: Box) -> int:
    """The tactical deck's next card at the right of the Korean headline's `row`, after a
    drawn rule (the rules: shown whenever the tactical deck is in use); returns the width
    left for the headline."""
    board = view.board
    if not board.next_card:
        return row.width
    headline = view.lines[0] if view.lines else ""
    font = KOREAN_DENSE
    for text in (board.next_card, board.next_card_short or board.next_card):
        width = font.text_width(text)
        room = row.width - width - NEXT_CARD_RULE.width
        if font.fits(headline, room):
            break
    else:
        canvas.report(f"automa: headline {headline!r} leaves no room for {text!r}")
    canvas.text_in_box(Box(row.right - width, row.y, width, row.height), text, font=font)
    ink = row.y + (row.height - font.cap_height) // 2
    canvas.vline(row.right - width - NEXT_CARD_RULE.after - 1, ink, ink + font.height - 1)
    return room


# --- the score ------------------------------------------------------------------------

SCORE_RULE_Y = LARGE.height
SCORE_ROWS_TOP = SCORE_RULE_Y + 2
SCORE_DIVIDER = 5
"""Pixels between the two columns, with a vertical rule in the middle."""
SCORE_TURNING_DIVIDER = SMALL.text_width(ARROW_DOWN) + 2
"""The divider of an end screen the knob turns: its ▲/▼ in place of part of the rule
with a dark column either side (in five pixels it touched the figures beside it)."""


def draw_score(canvas: Canvas, view: ScoreView) -> None:
    font = lettering_of(view).font
    # Korean rows one blank row apart, not a menu's 16 (the screen does not change
    # under them).
    pitch = SMALL.line_height if font is SMALL else font.height + 1
    verdict = flow([view.verdict], lambda _: (PAD, WIDTH - 2 * PAD), font=font)
    bar_height = len(verdict) * pitch + 1
    bar = Box(0, HEIGHT - bar_height, WIDTH, bar_height)
    _, count = _score_rows(font, pitch, bar.y - 1)
    turns = any(len(column.lines) > count for column in view.columns)
    divider = SCORE_TURNING_DIVIDER if turns else SCORE_DIVIDER
    left_width = _left_column_width(view.columns, font, divider)
    boxes = (
        Box(0, 0, left_width, bar.y - 1),
        Box(left_width + divider, 0, WIDTH - left_width - divider, bar.y - 1),
    )
    for column, box in zip(view.columns, boxes, strict=True):
        _score_column(canvas, box, column, font, pitch, view.last_rows)
    canvas.vline(left_width + divider // 2, 0, bar.y - 2)
    if turns:
        # A column holds more rows than the screen: the divider shows the way the knob
        # turns to the others, ▼ at the foot to the last rows, ▲ at the top back.
        arrow, arrow_y = (
            (ARROW_UP, SCORE_RULE_Y) if view.last_rows else (ARROW_DOWN, bar.y - 1 - SMALL.height)
        )
        cell = Box(left_width, arrow_y, divider, SMALL.height)
        canvas.fill(cell, 0)
        canvas.text_in_box(cell, arrow, align="center")
    canvas.fill(bar)
    for index, row in enumerate(verdict):
        canvas.text_in_box(
            Box(row.x, bar.y + 1 + index * pitch, row.width, font.height),
            row.text,
            font=font,
            align="center",
            fill=0,
        )


def _score_rows(font: Font, pitch: int, bottom: int) -> tuple[int, int]:
    """Where a column's rows start (two rows under its rule), and how many fit above
    `bottom`."""
    # Korean rows start right under the rule, itself a row higher (the big digits
    # end a row above it anyway): three rows above a one-line verdict.
    top = SCORE_ROWS_TOP if font is SMALL else SCORE_RULE_Y + 1
    return top, max(0, (bottom - top - font.height) // pitch + 1)


def _needed(column: ScoreColumn, font: Font, label: str | None = None) -> int:
    """The narrowest a column can be with every row's label and points on one line, and
    its header with `label` (its name unless given)."""
    label = column.label if label is None else label
    header = font.text_width(label) + GAP + LARGE.text_width(str(column.total))
    rows = [font.text_width(what) + GAP + font.text_width(str(p)) for what, p in column.lines]
    return max([header, *rows])


def _left_column_width(columns: tuple[ScoreColumn, ScoreColumn], font: Font, divider: int) -> int:
    """Half the display each, unless one column needs more and the other can give it."""
    room = WIDTH - divider
    half = room // 2
    left, right = (_needed(column, font) for column in columns)
    if left <= half and right <= room - half:
        return half
    if left + right <= room:
        return left if left > half else room - right
    # No room for both names whole: each column still gets what its rows and its short
    # name need (Korean's Automa at its hardest, three-digit rows), when both fit.
    least_left, least_right = (
        _needed(column, font, column.short_label or column.label) for column in columns
    )
    if least_left + least_right > room:
        return half
    return min(max(half, least_left), room - least_right)


def _score_column(
    canvas: Canvas, box: Box, column: ScoreColumn, font: Font, pitch: int, last_rows: bool
) -> None:
    """Draws `column` in `box`: its first rows, or its last if `last_rows`."""
    total = str(column.total)
    total_width = LARGE.text_width(total)
    canvas.text((box.right - total_width, 0), total, font=LARGE)
    # The label sits on the big number's baseline.
    label_y = LARGE.cap_height - font.cap_height
    room = box.width - total_width - GAP
    label = column.label if font.fits(column.label, room) else column.short_label or column.label
    canvas.text((box.x, label_y), label, font=font, max_width=room)
    rows_top, count = _score_rows(font, pitch, box.bottom)
    canvas.hline(rows_top - 2, box.x, box.right - 1)
    if len(column.lines) > 2 * count:
        # The first rows and the last would not show every row between them.
        canvas.report(f"score {column.label!r}: {len(column.lines)} rows, room for {count}")
    shown = column.lines[-count:] if last_rows and count else column.lines[:count]
    for index, (what, points) in enumerate(shown):
        row = Box(box.x, rows_top + index * pitch, box.width, font.height)
        left_right(canvas, row, what, str(points), font=font)
