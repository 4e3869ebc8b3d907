"""Every screen against its golden image, and the layouts' promises about long text.

The goldens in tests/golden are reviewed by eye before being committed. After
an intended change of a layout, rewrite them with

    python -m companion.testing.goldens --write-goldens tests/golden --zoom /tmp/goldens-zoom

(or run this file with UPDATE_GOLDENS=1) and look at the 4x copies.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from companion.engine.actions import ADVANCE, Buy
from companion.engine.catalogue import PATCHES
from companion.render.canvas import HEIGHT, WIDTH
from companion.render.layout import LINE, flow
from companion.render.screens import LAYOUTS, render, render_canvas
from companion.render.screens_game import TRACK_BOX
from companion.render.screens_menus import visible_window
from companion.render.track import TrackLayout
from companion.testing.language_examples import main_screens
from companion.testing.screen_examples import EXAMPLES
from companion.text.font import ARROW_DOWN, ARROW_RIGHT, ARROW_UP, BUTTON, CHECK, CROSS, SMALL, TILE
from companion.views import (
    AutomaView,
    BoardView,
    DealView,
    MenuItem,
    MenuView,
    NumberView,
    OpenMenu,
    PatchView,
    PickPatchView,
    QuestionView,
    ScoreColumn,
    ScoreView,
    SideView,
    StepView,
    TextView,
    TurnLine,
    TurnView,
)

GOLDEN = Path(__file__).parent.parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDENS") == "1"


def lit(image: Image.Image) -> int:
    return image.histogram()[255]


def text_drawn(view) -> list[str]:
    return [record.text for record in render_canvas(view).texts]


def said(view) -> str:
    """Everything drawn, run together: a header name and a turn's mark are drawn apart."""
    return "".join(text_drawn(view))


# --- goldens --------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_screen_matches_its_golden_image(name):
    canvas = render_canvas(EXAMPLES[name])
    assert canvas.overflows == []
    path = GOLDEN / f"{name}.png"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        canvas.image.save(path)
    assert path.exists(), f"no golden {path}: run with UPDATE_GOLDENS=1 and review it"
    golden = Image.open(path).convert("1")
    assert golden.size == canvas.image.size
    difference = ImageChops.difference(golden, canvas.image).getbbox()
    assert difference is None, f"{name} differs from its golden within {difference}"


def test_every_view_type_has_a_layout_and_a_golden():
    assert {type(view) for view in EXAMPLES.values()} == set(LAYOUTS)


def test_goldens_have_no_stray_files():
    assert {path.stem for path in GOLDEN.glob("*.png")} == set(EXAMPLES)


# --- purity and format ----------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_render_is_pure_and_the_right_format(name):
    first = render(EXAMPLES[name])
    second = render(EXAMPLES[name])
    assert first.mode == "1"
    assert first.size == (WIDTH, HEIGHT) == (128, 64)
    assert first.tobytes() == second.tobytes()
    assert first is not second
    # Only 0 and 255: images compare equal to PNGs read back.
    assert {value for _, value in first.getcolors()} <= {0, 255}


def test_an_unknown_view_is_a_type_error():
    with pytest.raises(TypeError):
        render("not a view")  # type: ignore[arg-type]


# --- what the screens say -------------------------------------------------------------


def test_turn_bottom_line_follows_the_selected_choice():
    turn = EXAMPLES["turn_solo"]
    # The mark and the words are drawn apart: run together, nothing between them.
    assert f"{chr(0x25B6)}Buy P24: pay 6{BUTTON}, to 24" in said(turn)
    advance = dataclasses.replace(turn, selected=3)
    assert f"{chr(0x25B6)}Advance to 22, +3{BUTTON}" in said(advance)
    menu = dataclasses.replace(turn, selected=4)
    assert f"{chr(0x25B6)}Menu" in said(menu)


def test_a_turn_line_s_mark_comes_from_its_mark_and_only_the_mark_s_columns_tell():
    # The same words, pressable then refused: ▶ becomes ✗ in the mark's cell (as wide as
    # ✓, 5 columns) and the words stay where they were. Words that start with a sign are
    # words: drawn whole after the mark, not taken for one.
    turn = EXAMPLES["turn_solo"]
    words = turn.lines[turn.selected].text
    refused = dataclasses.replace(turn, lines=(TurnLine("refused", words),) * 5)
    assert f"{CROSS}{words}" in said(refused)
    bottom = (0, HEIGHT - LINE, WIDTH, HEIGHT)
    changed = ImageChops.difference(render(turn).crop(bottom), render(refused).crop(bottom))
    assert (box := changed.getbbox()) is not None and box[2] <= SMALL.glyphs[CHECK].width
    signed = dataclasses.replace(turn, lines=(TurnLine("press", f"{CROSS} {words}"),) * 5)
    assert f"{ARROW_RIGHT}{CROSS} {words}" in said(signed)


def test_turn_frames_only_a_selected_patch():
    turn = EXAMPLES["turn_solo"]
    bought = render(turn)
    advancing = render(dataclasses.replace(turn, selected=3))
    # The frame and the lit label are only drawn for a Buy choice.
    assert lit(bought) > lit(advancing) + 60


def test_turn_shows_the_tactical_next_card_beside_the_automa():
    assert f"Automa 3{BUTTON} next 8{BUTTON}" in said(EXAMPLES["turn_tactical"])
    assert f"Automa 9{BUTTON}" in said(EXAMPLES["turn_solo"])


def test_the_header_names_who_holds_the_7x7_tile():
    assert f"Player 2 11{BUTTON} 7x7" in said(EXAMPLES["turn_two_player"])


def test_a_crowded_header_marks_the_tile_then_shortens_names_never_the_facts():
    turn = EXAMPLES["turn_two_player"]

    def with_buttons(buttons: int) -> str:
        sides = tuple(dataclasses.replace(side, buttons=buttons) for side in turn.board.sides)
        crowded = dataclasses.replace(turn, board=dataclasses.replace(turn.board, sides=sides))
        assert render_canvas(crowded).overflows == []
        return said(crowded)

    # "Player 1 63●" (53 pixels) and "Player 2 63● 7x7" (71), each padded by 2 on both
    # sides, are 132 of 128: the tile's mark ▣ (6 pixels, not 14) keeps both names.
    drawn = with_buttons(63)
    assert f"Player 1 63{BUTTON}" in drawn and f"Player 2 63{BUTTON} {TILE}" in drawn
    # With three digits, "Player 2 150● ▣" (68) still leaves no room: the names shorten
    # and "7x7" comes back.
    drawn = with_buttons(150)
    assert f"Pl.1 150{BUTTON}" in drawn and f"Pl.2 150{BUTTON} 7x7" in drawn


def test_the_turn_starts_with_the_scores_under_each_side():
    drawn = text_drawn(EXAMPLES["turn_start"])
    assert f"-110 pts, income 3{BUTTON}" in drawn and "11 pts" in drawn
    # With a patch chosen, its label is there instead.
    assert not any("pts" in text for text in text_drawn(EXAMPLES["turn_solo"]))


def with_offer(view, offer):
    return dataclasses.replace(view, board=dataclasses.replace(view.board, offer=offer))


def test_unaffordable_patch_is_drawn_hatched_not_solid():
    turn = EXAMPLES["turn_tactical"]
    solid = with_offer(turn, (PatchView("P32"), *turn.board.offer[1:]))
    assert lit(render(solid)) > lit(render(turn))


def test_deal_hint_names_p00_only_on_the_first_screen():
    assert "after P00, row by row" in text_drawn(EXAMPLES["deal_first"])
    assert not any("P00" in text for text in text_drawn(EXAMPLES["deal"]))


def test_the_deal_title_names_the_places_shown():
    title = text_drawn(EXAMPLES["deal"])
    assert "25-32/32" in title
    three = DealView(tuple(PatchView(p) for p in ("P01", "P02", "P03")), 9, 32)
    assert "9-11/32" in text_drawn(three)


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.id)
def test_every_patch_fits_the_deal_and_turn_screens(patch):
    deal = DealView((PatchView(patch.id),) * 8, 9, 32)
    assert render_canvas(deal).overflows == []
    # Four tiles of 32 columns: the widest patch (5 squares of 4 pixels and 4 gaps,
    # 24 columns) and the widest label ("10●5⌛", 26) leave the two columns at
    # each border between tiles dark, in both tile rows.
    image = render(deal)
    for border in (31, 32, 63, 64, 95, 96):
        assert all(image.getpixel((border, y)) == 0 for y in range(8, 56)), border
    for picking in (False, True):
        six = (PatchView(patch.id),) * 6  # cost 2 has the most patches: six
        pick = PickPatchView(32, 32, patch.cost, six, picking, 5, 7, "Other cost")
        assert render_canvas(pick).overflows == []
    turn = EXAMPLES["turn_solo"]
    offer = (PatchView(patch.id), PatchView(patch.id, affordable=False), PatchView(patch.id))
    for selected in range(3):
        view = dataclasses.replace(with_offer(turn, offer), selected=selected)
        assert render_canvas(view).overflows == []
    step = with_offer(EXAMPLES["step"], offer)
    assert render_canvas(step).overflows == []


def test_turn_extremes_fit():
    turn = EXAMPLES["turn_solo"]
    # The Automa never spends and earns only its cards' income, at most 5 at each of
    # the 9 marks: 45 buttons at most.
    late = dataclasses.replace(
        turn,
        board=BoardView(
            (
                SideView("You", 58, 53, holds_bonus=True),
                SideView("Automa", 45, 52, short_label="A"),
            ),
            mover=0,
            leather=(),
            bonus_mark=None,
            offer=(PatchView("P32"),),
            next_card=f"next 10{BUTTON}",
        ),
        choices=(Buy(0), ADVANCE, OpenMenu()),
        selected=0,
        scores=(f"65 pts, income 14{BUTTON}", "52"),
    )
    assert render_canvas(late).overflows == []
    assert render_canvas(dataclasses.replace(late, selected=1)).overflows == []
    header = said(late)
    assert f"You 58{BUTTON} 7x7" in header and f"next 10{BUTTON}" in header


def test_the_automa_turn_shows_each_filter_of_its_card_and_what_it_did_at_once():
    first = text_drawn(EXAMPLES["automa_take"])
    for line in (
        f"Card 18, 4{BUTTON}: takes P16 (3rd)",
        "no overtake: skipped",
        "largest: 2 left",
        "farthest: 1 left",
    ):
        assert line in first
    # The card as printed is one turn of the knob away.
    assert f"Card 18: 4{BUTTON}, income 1{BUTTON}" not in first
    why = text_drawn(EXAMPLES["automa_why"])
    assert f"Card 18: 4{BUTTON}, income 1{BUTTON}" in why and "3 affordable" in why
    assert render_canvas(EXAMPLES["automa_why"]).overflows == []


def test_the_card_s_filters_are_indented_under_the_steps():
    drawn = {record.text: record.box for record in render_canvas(EXAMPLES["automa_take"]).texts}
    step = drawn[f"Pile with {BUTTON}; neutral there"]
    assert all(drawn[line].x > step.x for line in ("largest: 2 left", "farthest: 1 left"))


def test_a_turn_again_banner_keeps_the_choice_line_in_view():
    # The first press plays the choice under the cursor: its line says what it does.
    drawn = {record.text: record.box for record in render_canvas(EXAMPLES["turn_again"]).texts}
    banner = drawn["Your turn again (on top)"]
    line = drawn[f"Advance to 22, +1{BUTTON}"]
    assert banner.bottom <= line.y


def test_the_board_keeps_its_pixels_between_turn_step_and_automa():
    # The header's page and the track's two pages of a step are those of a turn on the
    # same board; the Automa's turn keeps the header's page (its rows take the rest).
    turn = EXAMPLES["turn_solo"]
    for other, pages in (
        (dataclasses.replace(EXAMPLES["step"], board=turn.board), 3),
        (dataclasses.replace(EXAMPLES["automa_take"], board=turn.board), 1),
    ):
        top = (0, 0, WIDTH, pages * 8)
        assert render(turn).crop(top).tobytes() == render(other).crop(top).tobytes()


def test_a_one_line_card_keeps_the_turn_s_scores_and_changes_only_the_mark():
    # Advancing without income is one line, the turn's own with ✓ for ▶: with the same
    # board and scores, the card's pixels are the turn's but for the mark's columns.
    turn = dataclasses.replace(EXAMPLES["turn_solo"], selected=3)
    line = f"{CHECK} Advance to 22, +3{BUTTON}"
    card = StepView(turn.board, (line,), 1, 1, turn.scores)
    assert "-110 pts, income 3" in said(card)
    before, after = render(turn), render(card)
    changed = ImageChops.difference(before.convert("L"), after.convert("L")).getbbox()
    assert changed is not None
    _, top, right, _ = changed
    assert top >= HEIGHT - 8 and right <= 8
    # Two lines reach the scores' row: the card's line is there instead.
    two = StepView(turn.board, (f"Income at 23: take 5{BUTTON}", line), 1, 1, turn.scores)
    assert "-110 pts, income 3" not in said(two)


def test_the_income_goes_beside_the_last_line_where_it_fits_saving_a_row():
    # In Korean the ticked advance (75 pixels) and "수입 +1●" (41) fit one row with a
    # 4-pixel gap: one Hangul row instead of two, and the scores' row stays. The
    # English line (87) and "+1● income" (44) do not: the income keeps its own row.
    turn = dataclasses.replace(EXAMPLES["turn_solo"], selected=3)
    korean = (f"{CHECK} 12칸 전진 +2{BUTTON}", "12칸 단추 수입: 1" + BUTTON)
    card = StepView(turn.board, korean, 1, 1, turn.scores, f"수입 +1{BUTTON}")
    drawn = text_drawn(card)
    assert korean[0] in drawn and f"수입 +1{BUTTON}" in drawn and korean[1] not in drawn
    assert "-110 pts, income 3" in said(card)
    english = (f"{CHECK} Advance to 12, +2{BUTTON}", f"Income at 11: take 1{BUTTON}")
    card = StepView(turn.board, english, 1, 1, turn.scores, f"+1{BUTTON} income")
    assert english[1] in text_drawn(card) and f"+1{BUTTON} income" not in text_drawn(card)
    # With a second card, the count keeps the first row to itself: no aside on it.
    counted = StepView(turn.board, korean, 1, 2, turn.scores, f"수입 +1{BUTTON}")
    assert korean[1] in text_drawn(counted)


def test_in_letters_the_income_goes_beside_only_with_three_spaces_of_room():
    # The play-tester's Czech card left 4 pixels: "✓ Kup P20: 4●, na 6 příjem +2●" read
    # as one phrase. Three spaces of room are 10 pixels (a space is 2 wide and every
    # character 1 apart: 1+2+1+2+1+2+1); with less, the income keeps its own row.
    turn = dataclasses.replace(EXAMPLES["turn_solo"], selected=3)
    aside = f"příjem +2{BUTTON}"
    income = f"Příjem na 5: vezmi 2{BUTTON}"

    def card(ticked: str) -> StepView:
        return StepView(turn.board, (ticked, income), 1, 1, turn.scores, aside)

    tester = card(f"{CHECK} Kup P20: 4{BUTTON}, na 6")
    assert income in text_drawn(tester) and aside not in text_drawn(tester)
    # Lines leaving exactly 9 and 10 pixels: "." is 1 wide and "1" 4, each 1 apart.
    for spare, beside in [(9, False), (10, True)]:
        ticked = next(
            line
            for ones in range(8)
            for dots in range(8)
            if WIDTH
            - SMALL.text_width(line := f"{CHECK} Kup P{'1' * ones}{'.' * dots}, na 6")
            - SMALL.text_width(aside)
            == spare
        )
        drawn = text_drawn(card(ticked))
        assert (aside in drawn, income in drawn) == (beside, not beside), (spare, drawn)


def test_a_strip_over_the_patches_lowest_rows_leaves_no_fragment_of_them():
    # Three English rows reach into the patches' lowest page, three Korean ones into
    # their upper pages: what the patches would show above the strip is a row of bars
    # (in Korean, a bar touching the first line's Hangul), so nothing of the offer is
    # left; the board above it stays.
    turn = EXAMPLES["turn_solo"]
    korean = (f"{CHECK} 12칸 전진 +2{BUTTON}", "위치 토큰 →", f"12칸 단추 수입: 1{BUTTON}")
    for view in (EXAMPLES["step"], StepView(turn.board, korean, 1, 1)):
        view = dataclasses.replace(view, board=turn.board)
        canvas = render_canvas(view)
        first_line = min(record.box.y for record in canvas.texts if record.box.y >= 3 * 8)
        assert first_line < 6 * 8, "the strip reaches above the patches' lowest row"
        assert canvas.image.crop((0, 3 * 8, WIDTH, first_line)).getbbox() is None
        board = (0, 0, WIDTH, 3 * 8)
        assert canvas.image.crop(board).tobytes() == render(turn).crop(board).tobytes()


def test_score_columns_make_room_for_long_automa_rows():
    automa = ScoreColumn(
        "Automa",
        (("buttons", 31), (f"patches w/ {BUTTON}", 12), (f"{BUTTON} on patches", 24)),
        74,
    )
    player = ScoreColumn("You", (("buttons", 40), ("bonus tile", 7), ("empty x2", -12)), 35)
    view = ScoreView((player, automa), "Automa wins by 39")
    assert render_canvas(view).overflows == []


def test_menu_window_keeps_the_selection_visible():
    for count in range(1, 15):
        for selected in range(count):
            first = visible_window(count, selected, 6)
            assert first <= selected < first + 6
            assert 0 <= first <= max(0, count - 6)


def test_scrolled_menu_shows_the_selected_item_and_marks():
    drawn = text_drawn(EXAMPLES["menu_scrolled"])
    assert "Screen off after" in drawn
    assert "Difficulty" not in drawn  # scrolled out of view
    assert chr(0x25B2) in drawn and chr(0x25BC) in drawn


# --- long text: cut and reported, or wrapped ------------------------------------------


def test_flow_uses_the_room_of_each_row():
    rows = flow(["aaa bbb ccc ddd"], lambda row: (0, SMALL.text_width("aaa") if row == 0 else 200))
    assert [row.text for row in rows] == ["aaa", "bbb ccc ddd"]
    moved = flow(["aaa bbb"], lambda row: (0, 15 if row == 0 else 200), whole=True)
    assert [row.text for row in moved] == ["", "aaa bbb"]


def test_a_long_menu_item_is_reported_not_wrapped():
    item = "A menu item of thirty letters!"
    assert len(item) == 30
    view = MenuView("Menu", (MenuItem(item, "on"), MenuItem("Back")), 0)
    canvas = render_canvas(view)
    assert len(canvas.overflows) == 1 and item in canvas.overflows[0]


def test_a_long_title_is_reported():
    view = TextView("A page title that is much too long for the bar", (), 1, 1)
    assert render_canvas(view).overflows


def test_a_long_step_line_is_wrapped_not_reported():
    line = "Take the patch lying 3rd from the neutral"
    assert len(line) >= 40 and not SMALL.fits(line, WIDTH)
    view = dataclasses.replace(EXAMPLES["step"], lines=(line, "Pay 3"), total=2)
    canvas = render_canvas(view)
    assert canvas.overflows == []
    words = " ".join(t.text for t in canvas.texts if t.text != "1/2")
    assert line in words


def test_too_many_step_lines_are_reported():
    view = dataclasses.replace(EXAMPLES["step"], lines=tuple(f"Line number {i}" for i in range(8)))
    overflows = render_canvas(view).overflows
    assert overflows == ["step: 8 lines, room for 3"]


def test_automa_steps_beyond_the_screen_are_reported():
    # Seven rows of 8 pixels under the 8-pixel header: a headline and seven steps, each
    # a row, leave the last step below the screen, which a press would confirm unread.
    steps = tuple(f"Step {number}" for number in range(1, 8))
    board = EXAMPLES["automa_take"].board
    view = AutomaView(board, ("Card 5, 5●: takes P14 (2nd)", *steps), actions=8)
    assert render_canvas(view).overflows == ["automa: 8 rows of steps, room for 7"]
    fitting = AutomaView(board, ("Card 5, 5●: takes P14 (2nd)", *steps[:-1]), actions=7)
    assert render_canvas(fitting).overflows == []


def test_a_long_turn_bottom_line_is_reported():
    view = dataclasses.replace(
        EXAMPLES["turn_solo"], choices=(ADVANCE,), lines=(TurnLine("press", "x" * 40),), selected=0
    )
    assert render_canvas(view).overflows


def test_prose_screens_wrap_and_report_only_too_many_lines():
    sentence = "This sentence is long enough that it has to be wrapped onto two lines."
    assert render_canvas(QuestionView("Question", (sentence,), ("Yes", "No"), 0)).overflows == []
    assert render_canvas(TextView("Text", (sentence,), 1, 1)).overflows == []
    too_many = TextView("Text", tuple(f"line {i}" for i in range(7)), 1, 2, "press: back")
    assert render_canvas(too_many).overflows == ["page: 7 lines, room for 6"]


def test_many_answers_are_listed_down_the_screen():
    view = QuestionView(
        "Undo", ("Undo what?",), ("The last action", "The last two actions", "Cancel"), 2
    )
    canvas = render_canvas(view)
    assert canvas.overflows == []
    answers = [t for t in canvas.texts if t.text.startswith(("The last", "Cancel"))]
    assert len({t.box.y for t in answers}) == 3


def test_a_number_too_wide_is_reported():
    # Too wide for the big digits, a value is drawn in the body font; wider still, cut.
    assert render_canvas(NumberView("N", "n", "1234567890" * 3, "")).overflows
    assert render_canvas(NumberView("N", "n", "12345678901234", "")).overflows == []
    assert render_canvas(NumberView("N", "n", "-12", "turn: change  press: ok")).overflows == []


def test_input_test_shows_the_newest_events_last():
    events = tuple(f"event {i}" for i in range(12))
    drawn = text_drawn(dataclasses.replace(EXAMPLES["input_test"], events=events))
    assert drawn[-2].endswith("event 11")
    assert "event 0" not in drawn
    empty = dataclasses.replace(EXAMPLES["input_test"], events=())
    assert render_canvas(empty).overflows == []
    assert "Press or turn anything" in text_drawn(empty)


@pytest.mark.parametrize(
    "view",
    [
        MenuView("Empty", (), 0),
        TextView("Empty", (), 1, 1),
        QuestionView("Q", (), ("OK",), 0),
        ScoreView((ScoreColumn("You", (), 0), ScoreColumn("P2", (), 0)), "Tie"),
        AutomaView(EXAMPLES["automa_pass"].board, ()),
        StepView(EXAMPLES["step"].board, (), 1, 1),
    ],
    ids=lambda view: type(view).__name__,
)
def test_empty_content_renders(view):
    assert render_canvas(view).overflows == []


def test_unknown_patch_is_reported_not_raised():
    view = DealView((PatchView("P01"), PatchView("P99")), 1, 32)
    assert render_canvas(view).overflows == ["unknown patch 'P99'"]


def test_turn_views_with_few_patches_left():
    turn: TurnView = EXAMPLES["turn_two_player"]
    for count in range(3):
        view = dataclasses.replace(
            with_offer(turn, turn.board.offer[:count]), choices=(ADVANCE, OpenMenu()), selected=0
        )
        assert render_canvas(view).overflows == []


def changed_pages(before: Image.Image, after: Image.Image) -> set[int]:
    """The panel's 8-row pages in which two screens differ (what a partial update sends)."""
    return {
        y // 8
        for y in range(HEIGHT)
        for x in range(WIDTH)
        if before.getpixel((x, y)) != after.getpixel((x, y))
    }


def test_moving_a_menu_highlight_rewrites_only_the_two_rows_pages():
    # Rows fill whole pages from page 2 (the title is page 0, the note page 1): the
    # highlight moving from row r to r + 1 changes pages 2 + r and 3 + r, nothing else.
    menu = EXAMPLES["menu"]
    assert len(menu.items) >= 3
    for selected in range(len(menu.items) - 1):
        before = render(dataclasses.replace(menu, selected=selected))
        after = render(dataclasses.replace(menu, selected=selected + 1))
        assert changed_pages(before, after) == {2 + selected, 3 + selected}, selected


def test_moving_the_pick_cursor_rewrites_only_the_two_labels_pages():
    # Tile rows are three pages each from page 1 (patch, patch, label): the labels are
    # pages 3 and 6. Moving from a tile of the first row to one of the second relights
    # two labels: pages 3 and 6, nothing else.
    chosen = EXAMPLES["pick_patch"]
    picking = dataclasses.replace(chosen, picking=True, selected=0, choices=7)
    before = render(picking)
    assert changed_pages(before, render(dataclasses.replace(picking, selected=1))) == {3}
    assert changed_pages(before, render(dataclasses.replace(picking, selected=4))) == {3, 6}


def test_when_the_turn_passes_only_the_two_names_change_in_the_header():
    mine = EXAMPLES["turn_solo"]
    theirs = dataclasses.replace(mine, board=dataclasses.replace(mine.board, mover=1))
    header = (0, 0, WIDTH, 8)
    changed = ImageChops.difference(render(mine).crop(header), render(theirs).crop(header))
    columns = {x for x in range(WIDTH) if changed.crop((x, 0, x + 1, 8)).getbbox()}
    # "You" and "Automa", each lit with 2 pixels either side; not the buttons after them.
    names = SMALL.text_width("You") + SMALL.text_width("Automa") + 4 * 2
    assert 0 < len(columns) <= names


def test_the_automa_s_move_shows_without_turning_the_knob():
    # Headline, pile and move: three rows. Only the last row carries the ▼, so the
    # pile's line keeps the whole width and the move is not pushed below.
    view = dataclasses.replace(
        EXAMPLES["automa_take"],
        lines=(
            "Automa takes P13 (2nd)",
            f"Pile without {BUTTON}; neutral there",
            "Token 0 \u2192 1 on top",
            f"Card 15: 3{BUTTON}, income 4{BUTTON}",
            "3 affordable; no overtake: 1 left",
        ),
    )
    drawn = text_drawn(view)
    assert "Token 0 \u2192 1 on top" in drawn
    assert f"Pile without {BUTTON}; neutral there" in drawn


def test_everything_the_automa_does_shows_before_the_press_that_confirms_it():
    # Taking a patch, its pile, its move, a leather patch and the 7x7 tile (one row for
    # both): four rows, then the three filters; the rest a knob turn away.
    drawn = text_drawn(EXAMPLES["automa_extras"])
    assert "Leather 32, 7x7 tile to Automa" in drawn and "no overtake: skipped" in drawn
    assert "farthest: 1 left" in drawn and "3 affordable" not in drawn


def test_the_two_positions_beside_the_track_stand_two_rows_apart():
    turn = EXAMPLES["turn_two_player"]
    first, second = (side.position for side in turn.board.sides)
    drawn = {record.text: record.box for record in render_canvas(turn).texts}
    upper, lower = drawn[str(first)], drawn[str(second)]
    # Digits fill the capital height only: at least two blank rows between them.
    assert lower.y - (upper.y + SMALL.cap_height) >= 2


def test_a_dark_row_parts_the_header_from_the_track_s_upper_token():
    # The mover's name is lit to the header's last row; the upper token (a ▼ three rows
    # tall) under it touched it. Every board screen keeps the row above the token dark
    # across the track, wherever the tokens stand.
    track = TrackLayout(TRACK_BOX, pitch=2)
    for name, view in EXAMPLES.items():
        board = getattr(view, "board", None)
        if board is None or isinstance(view, AutomaView):  # the Automa's turn: no track
            continue
        for position in (0, 12, 34, 53):
            sides = tuple(dataclasses.replace(side, position=position) for side in board.sides)
            image = render(dataclasses.replace(view, board=dataclasses.replace(board, sides=sides)))
            x = track.x_of(position)
            token_top = next(y for y in range(LINE, HEIGHT) if image.getpixel((x, y)))
            above = image.crop((0, token_top - 1, TRACK_BOX.right, token_top))
            assert above.getbbox() is None, f"{name}: the token on {position} touches the header"


SCORE_SCREEN_TURNING = ScoreView(
    (
        ScoreColumn("You", (("buttons", 45), ("empty x2", -94)), -49),
        ScoreColumn("Automa", tuple((f"row {n}", 10 * n) for n in range(1, 7)), 210),
    ),
    "Automa wins by 259",
)
"""Six rows for the Automa: more than the screen holds, so the knob turns it."""


@pytest.mark.parametrize("last_rows", [False, True])
def test_the_end_screen_s_arrow_has_a_dark_column_either_side(last_rows):
    # The ▼ (or, turned, the ▲) replaces part of the rule between the columns; in a
    # divider its own width it touched the "45" on its left and the Automa's rows.
    korean = main_screens("ko")["score"]
    for view in (SCORE_SCREEN_TURNING, korean):
        canvas = render_canvas(dataclasses.replace(view, last_rows=last_rows))
        assert canvas.overflows == []
        [arrow] = [record.box for record in canvas.texts if record.text in (ARROW_UP, ARROW_DOWN)]
        for x in (arrow.x - 1, arrow.right):
            column = canvas.image.crop((x, arrow.y, x + 1, arrow.bottom))
            assert column.getbbox() is None, f"lit beside the arrow at x={x}: {view.verdict}"


def test_two_digit_buttons_and_the_next_card_keep_the_automa_s_name():
    # "You 12●" (34 pixels) and "Automa 15● next 10●" (89), each padded by 2 on both
    # sides, are 131 pixels: the next card's word gives way to an arrow ("→10●"), and
    # "Automa" keeps its name; with the 7x7 tile too ("Automa 15● 7x7 →10●", 91) the
    # tile is its mark ▣ (83): the name stays. Only three-digit buttons beside it
    # ("You 150●", 39) shorten it to "A".
    turn = EXAMPLES["turn_tactical"]
    sides = (SideView("You", 12, 7), SideView("Automa", 15, 10, short_label="A"))
    board = dataclasses.replace(
        turn.board, sides=sides, next_card=f"next 10{BUTTON}", next_card_short=f"→10{BUTTON}"
    )
    header = said(dataclasses.replace(turn, board=board))
    assert f"Automa 15{BUTTON} →10{BUTTON}" in header
    tile = (sides[0], dataclasses.replace(sides[1], holds_bonus=True))
    header = said(dataclasses.replace(turn, board=dataclasses.replace(board, sides=tile)))
    assert f"Automa 15{BUTTON} {TILE} →10{BUTTON}" in header
    rich = (dataclasses.replace(sides[0], buttons=150), tile[1])
    header = said(dataclasses.replace(turn, board=dataclasses.replace(board, sides=rich)))
    assert f"A 15{BUTTON} 7x7 →10{BUTTON}" in header
