"""open_display: every named sink opens and takes a frame."""

import atexit
import io
import subprocess
import sys

import pytest
from PIL import Image, ImageDraw

from companion.display.factory import DISPLAY_NAMES, open_display
from companion.display.sink import RecordingFailed
from companion.display.terminal import TerminalDisplay


@pytest.fixture
def frame():
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).rectangle((10, 10, 40, 30), outline=1)
    return image


def test_names():
    assert set(DISPLAY_NAMES) == {"terminal", "dummy", "pygame", "capture", "gifanim"}


def test_terminal(frame):
    stream = io.StringIO()
    sink = open_display("terminal", stream=stream, help_text="q quit")
    assert isinstance(sink, TerminalDisplay)
    sink.display(frame)
    assert "q quit" in stream.getvalue()


def test_dummy_keeps_the_last_image(frame):
    sink = open_display("dummy")
    assert (sink.width, sink.height, sink.mode) == (128, 64, "1")
    sink.display(frame)
    assert sink.image.tobytes() == frame.tobytes()


def test_capture_writes_one_png_per_frame(tmp_path, frame):
    sink = open_display("capture", path=tmp_path / "frame_{0:03}.png")
    sink.display(frame)
    sink.display(frame)
    sink.cleanup()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["frame_001.png", "frame_002.png"]
    with Image.open(tmp_path / "frame_001.png") as png:
        assert png.size == (256, 128)  # luma.emulator's default 2x scale


def test_gifanim_records_frames(tmp_path, frame):
    path = tmp_path / "game.gif"
    sink = open_display("gifanim", path=path, scale=1, transform="none")
    sink.display(frame)
    sink.display(Image.new("1", (128, 64)))
    sink.write_animation()  # luma otherwise writes it at interpreter exit...
    atexit.unregister(sink.write_animation)  # ...into a tmp_path that may be gone by then
    with Image.open(path) as gif:
        assert gif.size == (128, 64)
        assert gif.n_frames == 2


def test_unknown_name():
    with pytest.raises(ValueError, match="choose one of terminal, dummy"):
        open_display("ssd9999")


def test_a_frame_that_cannot_be_written_is_named(tmp_path, frame):
    # A folder gone (or a full card): pygame's own error reached the user as
    # "unexpected error"; the recording names the frame.
    sink = open_display("capture", path=tmp_path / "gone" / "f{}.png")
    with pytest.raises(RecordingFailed, match=r"cannot write .*gone/f1\.png"):
        sink.display(frame)


def test_a_gif_that_cannot_be_written_is_said_once_and_not_again_at_exit(tmp_path):
    # luma writes the GIF at exit too: its second failure printed a traceback after the
    # one-line message, from the atexit callback.
    script = f"""
from PIL import Image
from companion.display.factory import open_display
from companion.display.sink import RecordingFailed
sink = open_display("gifanim", path={str(tmp_path / "gone" / "game.gif")!r})
sink.display(Image.new("1", (128, 64)))
try:
    sink.cleanup()
except RecordingFailed as error:
    print(error)
"""
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert result.stdout.startswith("cannot write ") and "gone/game.gif" in result.stdout
