"""The terminal sink, read back through a tiny ANSI screen model (braille: tests/render)."""

import io
import re

import pytest
from PIL import Image

from companion.display.terminal import TerminalDisplay, frame_lines

BLANK, FULL = "\u2800", "\u28ff"
HELP = "j next  k previous  q quit"


def blank_image(width=128, height=64):
    return Image.new("1", (width, height))


def screen_after(output: str, rows=24, columns=80) -> list[str]:
    """Apply cursor positioning and text to an empty rows x columns screen.

    Fails if anything would be written outside it (the terminal would scroll).
    """
    screen = [[" "] * columns for _ in range(rows)]
    row = col = 0
    tokens = re.split(r"(\x1b\[[0-9;?]*[A-Za-z])", output)
    for token in tokens:
        if token.startswith("\x1b["):
            move = re.fullmatch(r"\x1b\[(\d+);(\d+)H", token)
            if move:
                row, col = int(move[1]) - 1, int(move[2]) - 1
            elif token == "\x1b[H":
                row = col = 0
            elif token == "\x1b[2J":
                screen = [[" "] * columns for _ in range(rows)]
            continue
        for char in token:
            if char == "\n":
                row, col = row + 1, 0
                continue
            assert row < rows and col < columns, f"{char!r} would land at {row},{col}"
            screen[row][col] = char
            col += 1
    return ["".join(line).rstrip() for line in screen]


def test_the_frame_fits_80x24_with_border_and_help():
    image = blank_image()
    image.putpixel((0, 0), 1)
    stream = io.StringIO()
    sink = TerminalDisplay(stream, help_text=HELP)
    sink.display(image)
    screen = screen_after(stream.getvalue())
    assert screen[0] == "┌" + "─" * 64 + "┐"
    assert screen[1] == "│" + "\u2801" + BLANK * 63 + "│"
    assert screen[17] == "└" + "─" * 64 + "┘"
    assert screen[18] == HELP
    assert screen[19:] == [""] * 5
    assert stream.getvalue().startswith("\x1b[?25l")  # cursor hidden while drawing


def test_only_changed_rows_are_redrawn_and_identical_frames_not_at_all():
    stream = io.StringIO()
    sink = TerminalDisplay(stream, help_text=HELP)
    image = blank_image()
    sink.display(image)
    first = stream.getvalue()
    sink.display(image.copy())
    assert stream.getvalue() == first  # same picture: nothing written

    image.putpixel((10, 41), 1)  # braille row 10, cell 5, dot (0, 1): terminal row 12
    sink.display(image)
    update = stream.getvalue()[len(first) :]
    assert re.findall(r"\x1b\[(\d+);1H", update) == ["12"]
    assert "\x1b[2J" not in update  # in place, no clearing or scrolling
    assert screen_after(first + update)[11][1 + 5] == "\u2802"


def test_cleanup_puts_the_cursor_below_the_frame_and_shows_it():
    stream = io.StringIO()
    sink = TerminalDisplay(stream, help_text=HELP)
    sink.display(blank_image())
    sink.cleanup()
    assert stream.getvalue().endswith("\x1b[20;1H\x1b[?25h")


def test_hide_blanks_and_show_restores():
    stream = io.StringIO()
    sink = TerminalDisplay(stream)
    image = blank_image()
    image.putpixel((0, 0), 1)
    sink.display(image)
    sink.hide()
    assert screen_after(stream.getvalue())[1] == "│" + BLANK * 64 + "│"
    sink.show()
    assert screen_after(stream.getvalue())[1][1] == "\u2801"


def test_contrast_dims_the_picture():
    stream = io.StringIO()
    sink = TerminalDisplay(stream)
    sink.display(blank_image())
    sink.contrast(10)
    assert "\x1b[2m" in stream.getvalue()
    with pytest.raises(ValueError):
        sink.contrast(300)


@pytest.mark.parametrize("image", [Image.new("1", (128, 32)), Image.new("RGB", (128, 64))])
def test_wrong_size_or_mode_is_refused_like_luma(image):
    with pytest.raises(ValueError, match="expected a 128x64"):
        TerminalDisplay(io.StringIO()).display(image)


def test_looks_like_a_luma_device():
    sink = TerminalDisplay(io.StringIO())
    assert (sink.width, sink.height, sink.mode, sink.size) == (128, 64, "1", (128, 64))
    sink.cleanup()  # nothing drawn yet: nothing to do


def test_frame_lines_without_help():
    assert frame_lines([FULL]) == ["┌─┐", "│" + FULL + "│", "└─┘"]
