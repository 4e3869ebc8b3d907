import pytest

from companion.render.canvas import Box, Canvas
from companion.testing.sample_sheet import sample_screens
from companion.text.font import LARGE, SMALL


def test_new_canvas_is_black_and_display_sized():
    canvas = Canvas()
    assert canvas.image.size == (128, 64)
    assert canvas.image.mode == "1"
    assert canvas.image.getbbox() is None
    assert canvas.overflows == []


def test_text_that_fits_is_recorded_without_overflow():
    canvas = Canvas()
    record = canvas.text((2, 3), "Hello")
    assert record.box == Box(2, 3, SMALL.text_width("Hello"), 7)
    assert not record.cut
    assert canvas.texts == [record]
    assert canvas.overflows == []


def test_too_long_text_is_reported_and_cut():
    canvas = Canvas()
    record = canvas.text((0, 0), "A name far too long for this box", max_width=40)
    assert record.cut
    assert len(canvas.overflows) == 1
    assert "only 40px available" in canvas.overflows[0]
    assert canvas.image.getbbox()[2] <= 40  # nothing drawn past the limit


def test_text_running_off_the_display_is_reported():
    canvas = Canvas()
    canvas.text((100, 0), "Overflowing")
    canvas.text((0, 60), "low")
    canvas.text((0, 0), "BIG NUMBERS", font=LARGE)
    assert len(canvas.overflows) == 2
    assert all("display" in problem or "available" in problem for problem in canvas.overflows)


def test_an_accent_above_the_display_is_reported_but_not_one_in_the_leading():
    canvas = Canvas()
    canvas.text((0, 1), "Čas")  # its háček on row 0: drawn whole
    canvas.text((0, 10), "Ó")  # on row 9, the leading above its line
    assert canvas.overflows == []
    canvas.text((0, 0), "Čas")
    assert len(canvas.overflows) == 1
    assert "runs off the display" in canvas.overflows[0]


def test_a_character_drawn_as_a_question_mark_is_reported():
    canvas = Canvas()
    canvas.text((0, 10), "Jürgen 1€?")  # ü reads as u; € has no glyph; "?" is meant
    canvas.text((0, 20), "한국어")  # Hangul is only in the Korean font
    canvas.text((0, 30), "Źdźbło")
    assert [problem.rsplit(" ", 1)[-1] for problem in canvas.overflows] == ["€", "국어한"]  # sorted


def test_text_that_exactly_fills_the_line_fits():
    canvas = Canvas()
    text = "M" * 21  # 21 * 6 - 1 = 125 px
    canvas.text((3, 0), text)
    assert SMALL.text_width(text) == 125
    assert canvas.overflows == []


@pytest.mark.parametrize(
    ("align", "x"),
    [("left", 10), ("center", 10 + (50 - 9) // 2), ("right", 10 + 50 - 9)],
)
def test_alignment_in_a_box(align, x):
    canvas = Canvas()
    record = canvas.text_in_box(Box(10, 20, 50, 10), "10", align=align)
    assert record.box.x == x
    assert record.box.y == 20 + (10 - 6) // 2
    assert canvas.overflows == []


def test_box_too_short_for_the_font_is_reported():
    canvas = Canvas()
    canvas.text_in_box(Box(0, 0, 100, 5), "short box")
    assert len(canvas.overflows) == 1


def test_selection_bar_is_lit_with_dark_text():
    canvas = Canvas()
    bar = Box(0, 8, 128, 9)
    record = canvas.selection_bar(bar, "Advance")
    assert canvas.overflows == []
    assert canvas.image.getpixel((127, 8)) == 255  # bar beyond the text is lit
    inside = {
        canvas.image.getpixel((x, y))
        for x in range(1, 1 + record.box.width)
        for y in range(record.box.y, record.box.bottom)
    }
    assert inside == {0, 255}  # dark letters on the lit bar
    assert canvas.image.getpixel((0, 7)) == 0  # nothing above the bar


def test_frame_rules_and_fill():
    canvas = Canvas()
    canvas.frame(Box(0, 0, 10, 5))
    canvas.hline(20, 0, 127)
    canvas.vline(64, 30, 40)
    assert canvas.image.getpixel((9, 4)) == 255
    assert canvas.image.getpixel((5, 2)) == 0
    assert all(canvas.image.getpixel((x, 20)) == 255 for x in range(128))
    assert canvas.image.getpixel((64, 41)) == 0
    canvas.fill(canvas.bounds, fill=0)
    assert canvas.image.getbbox() is None


def test_box_helpers():
    box = Box(4, 6, 20, 10)
    assert (box.right, box.bottom, box.corners) == (24, 16, (4, 6, 23, 15))
    assert box.inset(2) == Box(6, 8, 16, 6)
    screen = Box(0, 0, 128, 64)
    assert screen.contains(box) and not box.contains(screen)


def test_sample_screens_have_no_overflow():
    for name, canvas in sample_screens().items():
        assert canvas.overflows == [], name
        assert {value for _, value in canvas.image.getcolors()} <= {0, 255}, name
