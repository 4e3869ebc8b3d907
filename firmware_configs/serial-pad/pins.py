"""Which RP2040 GPIO is which button: edit this file to match your wiring.

Each button connects its GPIO to GND; the internal pull-up holds it high
until pressed. Numbers are GPIO numbers ("GP2"), not physical pin numbers;
README.md has the Raspberry Pi Pico pin for each.
"""

# (GPIO, input name, a long press sends "hold" instead)
# Without the long press an input is sent the moment the press is steady.
BUTTONS = (
    (2, "next", False),
    (3, "previous", False),
    (4, "select", True),  # long press: "hold" (the game menu)
    (5, "back", False),
    (6, "hold", False),  # optional dedicated hold button; leave unwired if not fitted
)

# Set to a dict to talk over a UART instead of USB, e.g. to a Pi's /dev/serial0:
# UART = {"id": 0, "tx": 0, "rx": 1, "baudrate": 115200}
UART = None

# The LED that blinks when the companion refuses a line ("LED" is the Pico's own).
LED = "LED"

# How often the buttons are read, and the timings of pad_logic (milliseconds).
POLL_MS = 5
DEBOUNCE_MS = 20
HOLD_MS = 700
