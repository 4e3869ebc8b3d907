"""The simulation window, on SDL's dummy video driver (a real pygame window, drawn nowhere)."""

import pytest
from PIL import Image

from companion.display.factory import open_display
from companion.display.sink import DisplayUnavailable
from companion.storage.settings import DEFAULT_CONTRAST

pygame = pytest.importorskip("pygame")

HELP = ("j next", "q quit")


@pytest.fixture
def window(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    keys, closes = [], []
    sink = open_display(
        "pygame", help_lines=HELP, on_key=keys.append, on_close=lambda: closes.append(True), scale=4
    )
    sink.keys, sink.closes = keys, closes
    yield sink
    sink.cleanup()
    pygame.quit()


def test_the_panel_is_drawn_with_square_pixels(window):
    image = Image.new("1", (128, 64))
    image.putpixel((1, 0), 1)
    window.display(image)
    screen = pygame.display.get_surface()
    x, y = window._panel_at
    # Pixel (1, 0) covers window pixels x+4..x+7, y..y+3; its neighbours stay dark.
    assert all(
        screen.get_at((x + dx, y + dy))[:3] == (255, 255, 255)
        for dx in range(4, 8)
        for dy in range(4)
    )
    assert screen.get_at((x + 3, y))[:3] == (0, 0, 0)
    assert screen.get_at((x + 8, y + 3))[:3] == (0, 0, 0)
    assert screen.get_at((x + 4, y + 4))[:3] == (0, 0, 0)
    # The whole 512x256 panel and the help line below it are inside the window.
    width, height = screen.get_size()
    assert x + 512 <= width and y + 256 < height


@pytest.mark.parametrize(
    ("key", "text", "name"),
    [
        ("K_RIGHT", "", "right"),
        ("K_LEFT", "", "left"),
        ("K_RETURN", "\r", "enter"),
        ("K_SPACE", " ", "space"),
        ("K_BACKSPACE", "\b", "backspace"),
        ("K_ESCAPE", "\x1b", "escape"),
        ("K_h", "h", "h"),
        ("K_q", "q", "q"),
    ],
)
def test_keys_pressed_in_the_window_are_named_as_the_terminal_names_them(window, key, text, name):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=getattr(pygame, key), unicode=text))
    window.pump()
    assert window.keys == [name]


def test_keys_without_a_name_are_ignored(window):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1, unicode=""))
    window.pump()
    assert window.keys == []


def test_closing_the_window_asks_to_quit_and_does_not_exit(window):
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    window.pump()  # luma's own window would call sys.exit() here
    assert window.closes == [True]


def test_without_a_graphical_display_the_window_says_so(monkeypatch):
    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(DisplayUnavailable, match="no graphical display") as raised:
        open_display("pygame", help_lines=HELP, on_key=print, on_close=print)
    assert "\n" not in str(raised.value)
    pygame.quit()


def test_the_default_contrast_is_full_white_lower_is_dimmed_and_zero_blank(window):
    image = Image.new("1", (128, 64), 1)
    screen = pygame.display.get_surface()
    # The settings' default (128) is the lowest level drawn white.
    bright, dimmed = DEFAULT_CONTRAST, DEFAULT_CONTRAST - 1
    for level, grey in [(bright, 255), (255, 255), (dimmed, 127), (8, 127), (0, 0)]:
        window.contrast(level)
        window.display(image)
        assert screen.get_at(window._panel_at)[:3] == (grey, grey, grey), level
    window.hide()  # luma's own hide: contrast 0
    assert screen.get_at(window._panel_at)[:3] == (0, 0, 0)
