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
from companion.engine.automa import CARDS
from companion.engine.catalogue import PATCHES
from companion.render.canvas import HEIGHT, WIDTH
from companion.render.layout import flow
from companion.render.screens import LAYOUTS, render, render_canvas
from companion.render.screens_menus import visible_window
from companion.testing.screen_examples import EXAMPLES
from companion.text.font import BUTTON, SMALL
from companion.views import (
    AutomaCardView,
    AutomaView,
    DealView,
    InputTestView,
    MenuItem,
    MenuView,
    NumberView,
    OpenMenu,
    PatchView,
    PickPatchView,
    QuestionView,
    ScoreColumn,
    ScoreView,
    StepView,
    TextView,
    TurnView,
)

GOLDEN = Path(__file__).parent.parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDENS") == "1"


def lit(image: Image.Image) -> int:
    return image.histogram()[255]


def text_drawn(view) -> list[str]:
    return [record.text for record in render_canvas(view).texts]


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
    assert f"{chr(0x25B6)} Buy P24: pay 6{BUTTON}, to 24" in text_drawn(turn)
    advance = dataclasses.replace(turn, selected=3)
    assert f"{chr(0x25B6)} Advance to 22, +3{BUTTON}" in text_drawn(advance)
    menu = dataclasses.replace(turn, selected=4)
    assert f"{chr(0x25B6)} Menu" in text_drawn(menu)


def test_turn_frames_only_a_selected_patch():
    turn = EXAMPLES["turn_solo"]
    bought = render(turn)
    advancing = render(dataclasses.replace(turn, selected=3))
    # The frame and the lit label are only drawn for a Buy choice.
    assert lit(bought) > lit(advancing) + 60


def test_turn_shows_the_tactical_next_card_instead_of_the_opponent():
    tactical = text_drawn(EXAMPLES["turn_tactical"])
    assert f"next 8{BUTTON}" in tactical
    assert not any(text.startswith("Automa") for text in tactical)
    assert f"Automa 9{BUTTON}" in text_drawn(EXAMPLES["turn_solo"])


def test_unaffordable_patch_is_drawn_hatched_not_solid():
    turn = EXAMPLES["turn_tactical"]
    solid = dataclasses.replace(turn, offer=(PatchView("P32"), *turn.offer[1:]))
    assert lit(render(solid)) > lit(render(turn))


def test_deal_hint_names_p00_only_for_the_first_patch():
    assert "clockwise after P00" in text_drawn(EXAMPLES["deal_first"])
    assert "next clockwise" in text_drawn(EXAMPLES["deal"])


@pytest.mark.parametrize("patch", PATCHES, ids=lambda p: p.id)
def test_every_patch_fits_the_deal_and_turn_screens(patch):
    deal = DealView(PatchView(patch.id), 12, 32)
    assert render_canvas(deal).overflows == []
    pick = PickPatchView(PatchView(patch.id), 32, 32, 26, 26)
    assert render_canvas(pick).overflows == []
    turn = EXAMPLES["turn_solo"]
    offer = (PatchView(patch.id), PatchView(patch.id, affordable=False), PatchView(patch.id))
    for selected in range(3):
        view = dataclasses.replace(turn, offer=offer, selected=selected)
        assert render_canvas(view).overflows == []
    step = dataclasses.replace(EXAMPLES["step"], patch_id=patch.id)
    assert render_canvas(step).overflows == []


def test_turn_extremes_fit():
    turn = EXAMPLES["turn_solo"]
    late = dataclasses.replace(
        turn,
        buttons=58,
        income=14,
        to_next_income=None,
        tokens=(turn.tokens[0].__class__("You", 53), turn.tokens[1].__class__("Automa", 52)),
        leather=(),
        offer=(PatchView("P32"),),
        choices=(Buy(0), ADVANCE, OpenMenu()),
        selected=0,
        opponent_buttons=104,
    )
    assert render_canvas(late).overflows == []
    early = dataclasses.replace(turn, to_next_income=11, next_virtual_buttons=10)
    assert render_canvas(early).overflows == []


@pytest.mark.parametrize("card", CARDS, ids=lambda c: f"card{c.number}")
def test_every_automa_card_fits(card):
    view = dataclasses.replace(
        EXAMPLES["automa_take"],
        card=AutomaCardView(
            card.number, card.virtual_buttons, tuple(str(f) for f in card.filters), card.income
        ),
    )
    assert render_canvas(view).overflows == []


def test_automa_draws_the_taken_patch_when_there_is_room():
    with_patch = EXAMPLES["automa_take"]
    without = dataclasses.replace(with_patch, patch_id=None)
    assert lit(render(with_patch)) > lit(render(without))


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
    view = StepView("Take P17", (line, "Pay 3"), 1, 2, patch_id="P17")
    canvas = render_canvas(view)
    assert canvas.overflows == []
    words = " ".join(t.text for t in canvas.texts if t.text not in ("Take P17", "1/2"))
    assert line in words


def test_too_many_step_lines_are_reported():
    view = StepView("Take P17", tuple(f"Line number {i}" for i in range(8)), 1, 1)
    overflows = render_canvas(view).overflows
    assert overflows == ["step: 8 lines, room for 6"]


def test_a_long_automa_reason_wraps_and_too_many_steps_are_reported():
    view = EXAMPLES["automa_take"]
    longer = dataclasses.replace(
        view, reason="3 affordable; no overtake leaves 2; most buttons leaves 1"
    )
    assert render_canvas(longer).overflows == []
    crowded = dataclasses.replace(
        longer, steps=(*view.steps, "Leather patch 26", "Takes the 7x7 bonus tile")
    )
    assert render_canvas(crowded).overflows


def test_a_long_turn_bottom_line_is_reported():
    view = dataclasses.replace(
        EXAMPLES["turn_solo"], choices=(ADVANCE,), selected=0, advance_buttons=10**30
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
    assert render_canvas(NumberView("N", "n", "12345678901234", "")).overflows
    assert render_canvas(NumberView("N", "n", "-12", "turn: change  press: ok")).overflows == []


def test_input_test_shows_the_newest_events_last():
    events = tuple(f"event {i}" for i in range(12))
    drawn = text_drawn(InputTestView(events, 12))
    assert drawn[-2].endswith("event 11")
    assert "event 0" not in drawn
    assert render_canvas(InputTestView((), 0)).overflows == []


@pytest.mark.parametrize(
    "view",
    [
        MenuView("Empty", (), 0),
        TextView("Empty", (), 1, 1),
        QuestionView("Q", (), ("OK",), 0),
        ScoreView((ScoreColumn("You", (), 0), ScoreColumn("P2", (), 0)), "Tie"),
        AutomaView(AutomaCardView(12, 0, (), 5), "Passes", "", ()),
        StepView("Done", (), 1, 1),
    ],
    ids=lambda view: type(view).__name__,
)
def test_empty_content_renders(view):
    assert render_canvas(view).overflows == []


def test_unknown_patch_is_reported_not_raised():
    view = DealView(PatchView("P99"), 1, 32)
    assert render_canvas(view).overflows == ["unknown patch 'P99'"]


def test_turn_views_with_few_patches_left():
    turn: TurnView = EXAMPLES["turn_two_player"]
    for count in range(3):
        view = dataclasses.replace(
            turn, offer=turn.offer[:count], choices=(ADVANCE, OpenMenu()), selected=0
        )
        assert render_canvas(view).overflows == []


def test_every_automa_filter_has_its_own_seven_by_seven_icon():
    from companion.engine.automa import Filter
    from companion.render.layout import FILTER_ICONS, ICON_SIZE
    from companion.text.glyphs import FILTER_ICON_DATA

    assert set(FILTER_ICON_DATA) == {str(f) for f in Filter}
    assert all(icon.size == (ICON_SIZE, ICON_SIZE) for icon in FILTER_ICONS.values())
    assert len({icon.tobytes() for icon in FILTER_ICONS.values()}) == len(FILTER_ICONS)


def test_an_unknown_filter_is_reported():
    view = dataclasses.replace(
        EXAMPLES["automa_take"], card=AutomaCardView(3, 3, ("cheapest", "largest", "farthest"), 3)
    )
    assert render_canvas(view).overflows == ["no icon for filter 'cheapest'"]
