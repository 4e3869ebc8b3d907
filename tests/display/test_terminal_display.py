"""The terminal sink: which picture fits which terminal, read back through a terminal model.

Positions are worked out by hand: a picture block of C x R cells is centred,
so it starts at row (rows - R) // 2 and column (columns - C) // 2 (0-based).
"""

import contextlib
import io
import signal

import pytest
from ansi_screen import Screen
from PIL import Image

from companion.display import terminal as terminal_module
from companion.display.terminal import Layout, TerminalDisplay, braille_picture, choose_layout
from companion.inputs.keyboard import KEY_HELP
from companion.storage.settings import DEFAULT_CONTRAST, Settings

BLANK_BRAILLE = "\u2800"


def blank_image(width=128, height=64):
    return Image.new("1", (width, height))


class Terminal:
    """A terminal of a given size, which can be resized, and what it shows."""

    def __init__(self, columns, rows):
        self.size = (columns, rows)
        self.stream = io.StringIO()

    def sink(self, help_text=KEY_HELP):
        return TerminalDisplay(self.stream, help_text=help_text, terminal_size=lambda: self.size)

    def screen(self):
        return Screen(*self.size).feed(self.stream.getvalue())

    def screen_since_last_clear(self):
        """What the terminal shows at its present size, drawn after it was resized."""
        output = self.stream.getvalue()
        return Screen(*self.size).feed(output[output.rindex("\x1b[2J") :])


@pytest.mark.parametrize(
    ("columns", "rows", "expected"),
    [
        # braille: 64 + 2 columns; 16 + 2 (frame) + help + hint rows
        (80, 24, Layout("braille", 1, 66, 20)),
        (66, 20, Layout("braille", 1, 66, 20)),
        (65, 20, Layout("too small", 0, 65, 1)),
        (66, 19, Layout("too small", 0, 66, 1)),
        # half blocks: 128 + 2 columns; 32 + 2 (frame) + help rows
        (130, 35, Layout("half blocks", 1, 130, 35)),
        (129, 35, Layout("braille", 1, 66, 20)),
        (130, 34, Layout("braille", 1, 66, 20)),
        (140, 40, Layout("half blocks", 1, 130, 35)),
        (200, 60, Layout("half blocks", 1, 130, 35)),
        # twice: 256 + 2 columns, 64 + 3 rows; three times: 384 + 2, 96 + 3
        (258, 67, Layout("half blocks", 2, 258, 67)),
        (258, 66, Layout("half blocks", 1, 130, 35)),
        (257, 80, Layout("half blocks", 1, 130, 35)),
        (386, 99, Layout("half blocks", 3, 386, 99)),
    ],
)
def test_the_sharpest_picture_that_fits_is_chosen(columns, rows, expected):
    assert choose_layout(columns, rows) == expected


def test_half_blocks_in_a_140x40_terminal():
    terminal = Terminal(140, 40)
    image = blank_image()
    for pixel in [(0, 0), (1, 1), (2, 0), (2, 1), (127, 63)]:
        image.putpixel(pixel, 1)
    terminal.sink().display(image)
    screen = terminal.screen()
    lines = screen.lines()
    # The 130x35 block starts at row (40 - 35) // 2 = 2, column (140 - 130) // 2 = 5.
    assert lines[:2] == ["", ""]
    assert lines[2] == " " * 5 + "┌" + "─" * 128 + "┐"
    # Pixel rows 0 and 1 share the first character row: (0,0) upper, (1,1) lower, (2,*) both.
    assert lines[3] == " " * 5 + "│▀▄█" + " " * 125 + "│"
    assert all(line == " " * 5 + "│" + " " * 128 + "│" for line in lines[4:34])
    assert lines[34] == " " * 5 + "│" + " " * 127 + "▄│"  # (127, 63): lower half of row 31
    assert lines[35] == " " * 5 + "└" + "─" * 128 + "┘"
    assert lines[36] == " " * ((140 - len(KEY_HELP)) // 2) + KEY_HELP
    assert lines[37:] == ["", "", ""]
    # White pixels on black whatever the terminal's colours, as on the panel.
    assert screen.styles[3][6] == "97;40"
    assert screen.alternate and not screen.cursor_visible


def test_each_pixel_is_two_by_two_half_cells_when_twice_the_room():
    terminal = Terminal(258, 67)
    image = blank_image()
    image.putpixel((0, 0), 1)  # columns 0-1, rows 0-1 of the doubled picture: one row of █
    image.putpixel((1, 1), 1)  # columns 2-3, doubled rows 2-3: the second character row
    image.putpixel((3, 2), 1)  # columns 6-7, doubled rows 4-5: the third character row
    terminal.sink().display(image)
    lines = terminal.screen().lines()
    assert lines[0] == "┌" + "─" * 256 + "┐"
    assert lines[1] == "│██" + " " * 254 + "│"
    assert lines[2] == "│  ██" + " " * 252 + "│"
    assert lines[3] == "│      ██" + " " * 248 + "│"
    assert lines[65] == "└" + "─" * 256 + "┘"
    assert lines[66].strip() == KEY_HELP


def test_braille_in_an_80x24_terminal_asks_for_a_larger_one():
    terminal = Terminal(80, 24)
    image = blank_image()
    image.putpixel((0, 0), 1)
    terminal.sink().display(image)
    lines = terminal.screen().lines()
    # The 66x20 block starts at row (24 - 20) // 2 = 2, column (80 - 66) // 2 = 7.
    assert lines[2] == " " * 7 + "┌" + "─" * 64 + "┐"
    assert lines[3] == " " * 7 + "│\u2801" + BLANK_BRAILLE * 63 + "│"
    assert lines[19] == " " * 7 + "└" + "─" * 64 + "┘"
    assert lines[20].strip() == KEY_HELP
    assert lines[21].strip() == "Enlarge the terminal to 130×35 or more for a sharper picture."


@pytest.mark.parametrize("size", [(66, 20), (80, 24), (100, 30), (130, 35), (140, 40), (200, 60)])
def test_the_whole_block_and_the_help_line_fit_every_accepted_size(size):
    terminal = Terminal(*size)
    image = Image.new("1", (128, 64), 1)
    terminal.sink().display(image)  # the model fails on anything written off the screen
    lines = terminal.screen().lines()
    assert sum(line.strip() == KEY_HELP for line in lines) == 1


def test_a_terminal_too_small_for_any_picture_says_so():
    terminal = Terminal(60, 15)
    terminal.sink().display(blank_image())
    assert terminal.screen().lines()[0] == "Enlarge the terminal to at least 66×20."


def test_a_resize_lays_the_picture_out_anew():
    terminal = Terminal(140, 40)
    sink = terminal.sink()
    sink.display(blank_image())
    terminal.size = (80, 24)
    sink.resized()
    lines = terminal.screen_since_last_clear().lines()
    assert lines[3] == " " * 7 + "│" + BLANK_BRAILLE * 64 + "│"
    assert "Enlarge the terminal" in lines[21]
    assert all(len(line) <= 80 for line in lines)


def test_a_resize_during_a_draw_redraws_at_the_new_size():
    terminal = Terminal(140, 40)
    sink = terminal.sink()

    class ResizingStream(io.StringIO):
        """The terminal shrinks (SIGWINCH) while the first frame is being written."""

        def write(self, text):
            if terminal.size == (140, 40):
                terminal.size = (80, 24)
                sink.resized()  # as the signal handler would, interrupting the draw
            return terminal.stream.write(text)

    sink._stream = ResizingStream()
    sink.display(blank_image())
    assert terminal.screen_since_last_clear().lines()[2] == " " * 7 + "┌" + "─" * 64 + "┐"


def test_a_resize_let_through_as_a_draw_ends_is_not_lost(monkeypatch):
    # Held while the frame is written, a SIGWINCH is delivered when the draw lets
    # resizes through again: its handler runs then, before the draw is over.
    terminal = Terminal(140, 40)
    sink = terminal.sink()
    held = terminal_module._resizes_held

    @contextlib.contextmanager
    def resized_as_let_through():
        with held():
            yield
        if terminal.size == (140, 40):
            terminal.size = (80, 24)
            sink.resized()  # as the signal handler would

    monkeypatch.setattr(terminal_module, "_resizes_held", resized_as_let_through)
    sink.display(blank_image())
    assert terminal.screen_since_last_clear().lines()[2] == " " * 7 + "┌" + "─" * 64 + "┐"


def test_the_terminal_is_written_with_sigwinch_held():
    """A SIGWINCH interrupting the write to a pty cut frames short: none may reach it."""
    held_while_writing = []

    class WatchingStream(io.StringIO):
        def write(self, text):
            held_while_writing.append(
                signal.SIGWINCH in signal.pthread_sigmask(signal.SIG_BLOCK, [])
            )
            return super().write(text)

    sink = TerminalDisplay(WatchingStream(), terminal_size=lambda: (140, 40))
    sink.display(blank_image())
    sink.cleanup()
    assert held_while_writing == [True, True]
    assert signal.SIGWINCH not in signal.pthread_sigmask(signal.SIG_BLOCK, [])  # and let go


def test_only_changed_rows_are_redrawn_and_identical_frames_not_at_all():
    terminal = Terminal(140, 40)
    sink = terminal.sink()
    image = blank_image()
    sink.display(image)
    first = terminal.stream.getvalue()
    sink.display(image.copy())
    assert terminal.stream.getvalue() == first  # same picture: nothing written

    image.putpixel((10, 41), 1)  # character row 20, lower half: terminal row 3 + 1 + 20
    sink.display(image)
    update = terminal.stream.getvalue()[len(first) :]
    assert update.count("\x1b[24;1H") == 1 and update.count(";1H") == 1
    assert "\x1b[2J" not in update  # in place, no clearing or scrolling
    assert terminal.screen().lines()[23][6 + 10] == "▄"


def test_cleanup_leaves_the_alternate_screen_and_shows_the_cursor():
    terminal = Terminal(140, 40)
    sink = terminal.sink()
    sink.cleanup()
    assert terminal.stream.getvalue() == ""  # nothing drawn: nothing to undo
    sink.display(blank_image())
    sink.cleanup()
    screen = terminal.screen()
    assert not screen.alternate and screen.cursor_visible and screen.style == ""


def test_hide_blanks_and_show_restores():
    terminal = Terminal(140, 40)
    sink = terminal.sink()
    image = blank_image()
    image.putpixel((0, 0), 1)
    sink.display(image)
    sink.hide()
    assert terminal.screen().lines()[3] == " " * 5 + "│" + " " * 128 + "│"
    sink.show()
    assert terminal.screen().lines()[3][6] == "▀"


def test_a_low_contrast_draws_the_picture_grey():
    terminal = Terminal(140, 40)
    sink = terminal.sink()
    sink.display(blank_image())
    sink.contrast(10)
    assert terminal.screen().styles[3][6] == "38;5;244;40"
    sink.contrast(200)
    assert terminal.screen().styles[3][6] == "97;40"
    with pytest.raises(ValueError):
        sink.contrast(300)


def test_the_settings_default_contrast_is_white_and_one_step_below_it_grey():
    # The threshold is the settings' default, read from where the settings get it: a new
    # device's screen is never drawn dimmed, and any lower level is.
    assert Settings().contrast == DEFAULT_CONTRAST
    terminal = Terminal(140, 40)
    sink = terminal.sink()
    sink.display(blank_image())
    sink.contrast(DEFAULT_CONTRAST)
    assert terminal.screen().styles[3][6] == "97;40"
    sink.contrast(DEFAULT_CONTRAST - 1)
    assert terminal.screen().styles[3][6] == "38;5;244;40"


@pytest.mark.parametrize("image", [Image.new("1", (128, 32)), Image.new("RGB", (128, 64))])
def test_wrong_size_or_mode_is_refused_like_luma(image):
    with pytest.raises(ValueError, match="expected a 128x64"):
        TerminalDisplay(io.StringIO()).display(image)


def test_looks_like_a_luma_device():
    sink = TerminalDisplay(io.StringIO())
    assert (sink.width, sink.height, sink.mode, sink.size) == (128, 64, "1", (128, 64))


def test_braille_draws_a_light_bar_in_reverse_video_with_its_dark_pixels_as_dots():
    image = Image.new("1", (34, 8))  # 17 cells wide, two lines of cells
    image.paste(1, (0, 0, 34, 4))  # a light bar over the first line...
    image.putpixel((0, 0), 0)  # ...with one dark pixel: dot 1 of the first cell
    image.putpixel((2, 4), 1)  # one lit pixel on black: dot 1 of the second cell
    bar, text = braille_picture(image)
    assert bar == "\x1b[7m" + "\u2801" + BLANK_BRAILLE * 16 + "\x1b[27m"
    assert text == BLANK_BRAILLE + "\u2801" + BLANK_BRAILLE * 15


def test_braille_keeps_cells_half_in_a_bar_as_lit_dots():
    image = Image.new("1", (34, 4))
    image.paste(1, (0, 0, 34, 2))  # only the top two of the four pixel rows are light
    # dots 1, 4 (row 0) and 2, 5 (row 1) of every cell: 0x01 + 0x08 + 0x02 + 0x10
    assert braille_picture(image) == [chr(0x2800 + 0x1B) * 17]


def test_dense_letters_on_black_are_not_mistaken_for_a_bar():
    image = Image.new("1", (34, 4))
    image.paste(1, (4, 0, 8, 4))  # a solid 4-pixel block: 2 of 17 cells lit
    assert "\x1b[7m" not in braille_picture(image)[0]
