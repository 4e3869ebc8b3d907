"""Korean screens lay out on 16-pixel rows, and the persistent board keeps its pixels."""

import dataclasses

from PIL import Image, ImageChops

from companion.app.wording import done
from companion.render.layout import HANGUL, LATIN, lettering_of
from companion.render.screens import render, render_canvas
from companion.testing.language_examples import main_screens
from companion.text.font import ARROW_TO, CHECK
from companion.text.hangul import KOREAN
from companion.text.pages import TEXT_PAGE_WIDTH, page_lines, text_page_lines
from companion.views import MenuItem, MenuView, StepView, TextView, TurnLine, TurnView

KOREAN_ITEMS = (MenuItem("새 오토마 게임"), MenuItem("설정"), MenuItem("통계"))


def lit_rows(image: Image.Image, x: int) -> list[int]:
    """The lit rows of column `x`."""
    return [y for y in range(image.height) if image.getpixel((x, y))]


def test_a_view_with_hangul_is_laid_out_in_korean():
    assert lettering_of(MenuView("설정", KOREAN_ITEMS, 0)) is HANGUL
    assert lettering_of(MenuView("Ustawienia", (MenuItem("Język", "Polski"),), 0)) is LATIN
    # However deep the text: a step's lines inside its view.
    turn = main_screens("en")["turn"]
    assert isinstance(turn, TurnView)
    step = StepView(turn.board, ("내 시간 토큰 0 → 1",), 1, 1)
    assert lettering_of(step) is HANGUL


def test_a_korean_menu_has_a_13_pixel_title_and_16_pixel_rows_on_page_boundaries():
    canvas = render_canvas(MenuView("패치워크", KOREAN_ITEMS, 1))
    assert canvas.overflows == []
    # Column 0 is lit down the title bar (rows 0-12), then down the selected
    # (second) item: rows 32-47, two whole pages.
    assert lit_rows(canvas.image, 0) == [*range(13), *range(32, 48)]
    # Three items fit under the title: the third's Hangul ends above the last row.
    texts = [record for record in canvas.texts if record.text == "통계"]
    assert texts and texts[0].box.y == 48 + 3 and texts[0].box.bottom <= 64


def test_the_korean_turn_line_ends_on_the_last_row_and_the_board_keeps_its_pixels():
    english = main_screens("en")["turn"]
    assert isinstance(english, TurnView)
    lines = tuple(TurnLine(line.mark, "단추 부족") for line in english.lines)
    korean = dataclasses.replace(english, lines=lines)
    english_canvas, korean_canvas = render_canvas(english), render_canvas(korean)
    assert korean_canvas.overflows == []
    # Header and track: the first 23 rows are the same pixels in both languages.
    top = (0, 0, 128, 23)
    assert english_canvas.image.crop(top).tobytes() == korean_canvas.image.crop(top).tobytes()
    line = next(record for record in korean_canvas.texts if record.text == "단추 부족")
    assert (line.box.y, line.box.bottom) == (53, 64)


def test_korean_labels_keep_to_one_page_so_turning_the_knob_rewrites_one_page_of_them():
    # The Hangul line takes pages 6 and 7; the patches stand a row higher and a size
    # smaller than in English, so the labels under them fill page 5 (rows 40-47) alone.
    turn = main_screens("ko")["turn"]
    assert isinstance(turn, TurnView)
    for selected in range(len(turn.board.offer)):
        before = render(dataclasses.replace(turn, selected=selected))
        after = render(dataclasses.replace(turn, selected=(selected + 1) % 3))
        changed = ImageChops.difference(before.crop((0, 0, 128, 53)), after.crop((0, 0, 128, 53)))
        box = changed.getbbox()
        assert box is not None and (box[1], box[3]) == (40, 48)


def test_pressing_a_korean_turn_s_choice_changes_only_the_mark_of_its_line():
    # The step card's last line is the turn's line ticked. A Hangul line covers pages 6
    # and 7: if the ▶ (3 pixels) and the ✓ (5) each pushed the words after them, the
    # press would rewrite both pages; in a mark-wide cell only the mark's columns change.
    turn = main_screens("ko")["turn"]
    assert isinstance(turn, TurnView)
    turn = dataclasses.replace(turn, selected=0)
    chosen = turn.lines[0]
    assert chosen.mark == "press"
    step = StepView(turn.board, (f"위치 토큰 {ARROW_TO}", done(chosen.text)), 1, 1)
    line = (0, 53, 128, 64)
    changed = ImageChops.difference(render(turn).crop(line), render(step).crop(line)).getbbox()
    assert changed is not None and changed[2] <= KOREAN.text_width(CHECK)


def test_a_korean_text_page_holds_the_lines_the_app_pages_it_into():
    words = "가죽 조각 단추 시간 토큰 " * 20
    lines = text_page_lines([words], KOREAN)
    assert all(KOREAN.text_width(line) <= TEXT_PAGE_WIDTH for line in lines)
    page = tuple(lines[: page_lines(KOREAN)])
    assert len(page) == 3
    canvas = render_canvas(TextView("규칙", page, 1, 2, "돌리기: 쪽 누르기: 뒤로"))
    assert canvas.overflows == []
    # One line more than the page holds is reported, not drawn over the footer.
    crowded = render_canvas(TextView("규칙", (*page, page[0]), 1, 2, "누르기: 뒤로"))
    assert crowded.overflows == ["page: 4 lines, room for 3"]
