import pytest

from companion.engine.catalogue import FINAL_POSITION, INCOME_MARKS, LEATHER_POSITIONS
from companion.render.canvas import Box, Canvas
from companion.render.track import TRACK_HEIGHT, draw_track, track_pitch, track_width

BOX = Box(0, 10, 128, TRACK_HEIGHT)


def lit(canvas: Canvas, x: int, y: int) -> bool:
    return canvas.image.getpixel((x, y)) == 255


def test_full_width_gives_two_pixels_a_square():
    assert track_pitch(128) == 2
    assert track_width(2) == 113
    layout = draw_track(Canvas(), BOX, (0, 0))
    assert layout.x_of(0) == 2
    assert layout.x_of(52) == 2 + 104
    assert layout.x_of(FINAL_POSITION) == 2 + 106 + 2  # the final square stands apart
    assert layout.width <= BOX.width


@pytest.mark.parametrize("position", [0, 1, 17, 20, 44, 52, 53])
def test_tokens_point_at_their_square_from_opposite_sides(position):
    canvas = Canvas()
    layout = draw_track(canvas, BOX, (position, position), leather=())
    x = layout.x_of(position)
    top, bottom = BOX.y, BOX.bottom - 1
    # First token: solid, widest row at the top, tip two rows lower.
    assert all(lit(canvas, x + dx, top) for dx in range(-2, 3))
    assert lit(canvas, x, top + 2) and not lit(canvas, x - 1, top + 2)
    # Second token: hollow, widest row at the bottom, tip two rows higher.
    assert all(lit(canvas, x + dx, bottom) for dx in range(-2, 3))
    assert lit(canvas, x, bottom - 2)
    assert not lit(canvas, x, bottom - 1)  # hollow middle tells it apart
    assert canvas.overflows == []


def test_tokens_are_where_the_positions_say():
    canvas = Canvas()
    layout = draw_track(canvas, BOX, (7, 30), leather=())
    tips_top = [x for x in range(128) if lit(canvas, x, BOX.y + 2)]
    tips_bottom = [x for x in range(128) if lit(canvas, x, BOX.bottom - 3)]
    assert tips_top == [layout.x_of(7)]
    assert tips_bottom == [layout.x_of(30)]


def test_one_token_or_none():
    canvas = Canvas()
    draw_track(canvas, BOX, (12, None))
    assert not any(lit(canvas, x, BOX.bottom - 1) for x in range(128))
    draw_track(Canvas(), BOX, ())


def test_marks_are_distinct():
    canvas = Canvas()
    layout = draw_track(canvas, BOX, (), leather=LEATHER_POSITIONS, bonus_mark=38)
    line = layout.line_y
    for mark in INCOME_MARKS[:-1]:
        x = layout.x_of(mark)
        assert lit(canvas, x, line - 2) and lit(canvas, x, line + 2)  # tall tick
        assert not lit(canvas, x - 1, line - 1)
    for position in LEATHER_POSITIONS:
        x = layout.x_of(position)
        assert all(lit(canvas, x + dx, line + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    x = layout.x_of(38)
    assert not lit(canvas, x, line)  # hollow diamond
    assert lit(canvas, x, line - 2) and lit(canvas, x - 2, line) and lit(canvas, x + 2, line)


def test_the_interns_mark_at_52_stays_apart_from_the_end_bar():
    # Intern: the 7x7 mark is 1 square before 53. Its diamond reaches 2 px right
    # of square 52; the end bar starts at square 53; a column between them must
    # be dark from the top of the marks to their bottom, but for the line itself.
    canvas = Canvas()
    layout = draw_track(canvas, BOX, (), leather=(), bonus_mark=52)
    line = layout.line_y
    tip, bar = layout.x_of(52) + 2, layout.x_of(FINAL_POSITION)
    assert lit(canvas, tip, line) and lit(canvas, bar, line - 2)
    gaps = [
        x
        for x in range(tip + 1, bar)
        if not any(lit(canvas, x, y) for y in range(line - 2, line + 3) if y != line)
    ]
    assert gaps


def test_taken_leather_is_not_drawn():
    canvas = Canvas()
    layout = draw_track(canvas, BOX, (), leather=(26,))
    line = layout.line_y
    assert lit(canvas, layout.x_of(26) - 1, line - 1)
    assert not lit(canvas, layout.x_of(20) - 1, line - 1)


def test_bad_positions_raise():
    for tokens, bonus in (((54, 0), None), ((-1, 0), None), ((0, 0), 60), ((1, 2, 3), None)):
        with pytest.raises(ValueError):
            draw_track(Canvas(), BOX, tokens, bonus_mark=bonus)


def test_box_too_small_is_reported():
    canvas = Canvas()
    draw_track(canvas, Box(0, 0, 40, TRACK_HEIGHT), (0, 0))
    assert len(canvas.overflows) == 1
    assert canvas.image.getbbox() is None
    canvas = Canvas()
    draw_track(canvas, Box(0, 0, 128, 8), (0, 0))
    assert len(canvas.overflows) == 1


def test_narrow_box_uses_one_pixel_a_square():
    canvas = Canvas()
    layout = draw_track(canvas, Box(0, 0, 60, TRACK_HEIGHT), (53, 0))
    assert layout.pitch == 1
    assert canvas.overflows == []
    assert canvas.image.getbbox()[2] <= 60
