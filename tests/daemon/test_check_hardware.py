"""`check-hardware`: the build described in words, then every input shown and printed."""

from luma.core.device import dummy

from companion.daemon.check import check_inputs_view, describe, pattern_for, show_inputs
from companion.hardware.profile import load_profile
from companion.inputs.events import EventQueue, Input
from companion.render.screens import render


def test_the_build_is_described_from_its_profile():
    lines = describe(load_profile("sh1106-encoder"))
    assert lines[1] == "display: sh1106 on I2C bus 1, address 0x3C, rotation 0"
    assert lines[2] == "encoder: A GPIO 17, B GPIO 27, switch GPIO 22"
    assert "button: GPIO 5 -> back" in lines
    assert pattern_for(load_profile("waveshare-oled-hat")).lines[1:3] == (
        "waveshare-oled-hat",
        "SH1106 SPI",
    )


def test_each_input_is_printed_and_shown_until_the_queue_closes():
    queue = EventQueue()
    for item in (Input.NEXT, Input.SELECT, Input.HOLD):
        queue.put(item)
    queue.close()
    device = dummy(width=128, height=64, mode="1")
    printed = []
    assert show_inputs(queue, device.display, printed.append) == 3
    assert [line.split()[-1] for line in printed] == ["next", "select", "hold"]
    expected = render(check_inputs_view(["next", "select", "hold"]))
    assert device.image.tobytes() == expected.tobytes()
