"""The serial button pad's logic, free of hardware: debouncing, hold, lines, replies.

Runs unchanged on MicroPython (RP2040) and on CPython, where the companion's
tests drive it with simulated timestamps (tests/firmware/test_pad_logic.py).
It therefore imports nothing and uses only what MicroPython has: no type
annotations, dataclasses, enums or f-strings.

Times are millisecond tick counts like MicroPython's ``time.ticks_ms()``,
which wrap around; they are only ever compared through ``ticks_diff``.

The protocol (docs/serial-pad.md in the companion): the pad writes one input
name per line, "\\n"-terminated; the companion answers each line with "OK",
"ERR <reason>" (or "PONG" to "PING").
"""

INPUT_NAMES = ("next", "previous", "select", "back", "hold")

#: The longest line either side sends about inputs (the companion refuses longer ones).
MAX_LINE = 128

#: MicroPython's ticks wrap at this value on the rp2 port (``time.ticks_add(0, -1) + 1``).
TICKS_PERIOD = 1 << 30

DEBOUNCE_MS = 20
HOLD_MS = 700
BLINK_MS = 150


def ticks_diff(end, start):
    """``end - start`` in ms across a wrap-around, like MicroPython's ``time.ticks_diff``."""
    half = TICKS_PERIOD // 2
    return ((end - start + half) % TICKS_PERIOD) - half


def ticks_add(ticks, delta):
    """``ticks + delta`` wrapped like MicroPython's ``time.ticks_add``."""
    return (ticks + delta) % TICKS_PERIOD


def format_line(name):
    """The line the pad sends for input ``name``."""
    if name not in INPUT_NAMES:
        raise ValueError("not an input name: " + repr(name))
    return name + "\n"


class Button:
    """One push button: debounced, and with an optional long press giving "hold".

    ``update(pressed, now)`` takes the raw reading (True while pressed) and
    returns the input name to send, or None.

    Without ``hold`` the input is sent as soon as the press is steady
    (``debounce_ms``). With ``hold`` the button waits: released before
    ``hold_ms`` it sends its own name, still down at ``hold_ms`` it sends
    "hold" once, and the release that follows sends nothing.
    """

    def __init__(self, name, hold=False, debounce_ms=DEBOUNCE_MS, hold_ms=HOLD_MS, diff=ticks_diff):
        if name not in INPUT_NAMES:
            raise ValueError("not an input name: " + repr(name))
        if hold and name == "hold":
            raise ValueError('a "hold" button cannot also be held for "hold"')
        if debounce_ms < 0 or hold_ms <= debounce_ms:
            raise ValueError("need 0 <= debounce_ms < hold_ms")
        self.name = name
        self.hold = hold
        self.debounce_ms = debounce_ms
        self.hold_ms = hold_ms
        self._diff = diff
        self.pressed = False  # the debounced state
        self._changing_since = None  # when the raw reading started to differ from it
        self._pressed_at = None
        self._held = False

    def update(self, raw_pressed, now):
        raw_pressed = bool(raw_pressed)
        if raw_pressed == self.pressed:
            self._changing_since = None  # a bounce back: start again
        elif self._changing_since is None:
            self._changing_since = now
        elif self._diff(now, self._changing_since) >= self.debounce_ms:
            self._changing_since = None
            self.pressed = raw_pressed
            return self._pressed_edge(now) if raw_pressed else self._released_edge()
        return self._check_hold(now)

    def _pressed_edge(self, now):
        if not self.hold:
            return self.name
        self._pressed_at = now
        self._held = False
        return None

    def _released_edge(self):
        was_short = self.hold and not self._held
        self._pressed_at = None
        self._held = False
        return self.name if was_short else None

    def _check_hold(self, now):
        if (
            self.pressed
            and self._pressed_at is not None
            and not self._held
            and self._diff(now, self._pressed_at) >= self.hold_ms
        ):
            self._held = True
            return "hold"
        return None


class LineReader:
    """Cuts received text into lines, dropping any line longer than ``max_len``.

    Memory stays bounded whatever arrives: an overlong line is dropped as it
    comes and reported as the single line ``None`` when its newline arrives.
    """

    def __init__(self, max_len=MAX_LINE):
        self.max_len = max_len
        self._chars = []
        self._discarding = False

    def feed(self, data):
        """Take received bytes or text; return the completed lines (str, or None if too long)."""
        if isinstance(data, (bytes, bytearray)):
            data = "".join(chr(b) for b in data)  # replies are ASCII; no decoding errors here
        lines = []
        for char in data:
            if char == "\n":
                if self._discarding:
                    lines.append(None)
                else:
                    line = "".join(self._chars)
                    lines.append(line[:-1] if line.endswith("\r") else line)
                self._chars = []
                self._discarding = False
            elif not self._discarding:
                self._chars.append(char)
                if len(self._chars) > self.max_len + 1:
                    self._chars = []
                    self._discarding = True
        return lines


def parse_reply(line):
    """Classify a reply: ("ok", ""), ("pong", ""), ("err", reason) or ("other", line)."""
    if line == "OK":
        return ("ok", "")
    if line == "PONG":
        return ("pong", "")
    if line == "ERR" or (line is not None and line.startswith("ERR ")):
        return ("err", line[4:])
    return ("other", line)


class Blinker:
    """An LED that lights for ``on_ms`` after each ``trigger``."""

    def __init__(self, on_ms=BLINK_MS, diff=ticks_diff):
        self.on_ms = on_ms
        self._diff = diff
        self._since = None

    def trigger(self, now):
        self._since = now

    def is_on(self, now):
        if self._since is None:
            return False
        if self._diff(now, self._since) < self.on_ms:
            return True
        self._since = None
        return False


class PadSession:
    """Everything the pad does between its pins and its serial line.

    Each loop, ``main.py`` calls ``step(now, readings, received)`` with the
    raw button readings (True while pressed, in the order of ``buttons``)
    and the bytes received since the last step; it writes the text returned
    and sets the LED to ``led(now)``. ``greeting()`` is sent once at start:
    an empty line, which ends any half line a reset left on the wire (the
    companion ignores empty lines).
    """

    def __init__(self, buttons, blink_ms=BLINK_MS, diff=ticks_diff):
        self.buttons = list(buttons)
        self.replies = LineReader()
        self.blinker = Blinker(blink_ms, diff)
        self.sent = 0
        self.oks = 0
        self.errors = 0
        self.last_error = None

    def greeting(self):
        return "\n"

    def step(self, now, readings, received=b""):
        for line in self.replies.feed(received):
            kind, detail = parse_reply(line)
            if kind == "ok":
                self.oks += 1
            elif kind == "err":
                self.errors += 1
                self.last_error = detail
                self.blinker.trigger(now)
        out = []
        for index, button in enumerate(self.buttons):
            name = button.update(readings[index], now)
            if name is not None:
                out.append(format_line(name))
                self.sent += 1
        return "".join(out)

    def led(self, now):
        return self.blinker.is_on(now)


def make_buttons(config, debounce_ms=DEBOUNCE_MS, hold_ms=HOLD_MS, diff=ticks_diff):
    """Buttons from ``pins.BUTTONS``-style rows: (gpio, name, long press gives "hold")."""
    seen = set()
    buttons = []
    for gpio, name, hold in config:
        if gpio in seen:
            raise ValueError("GPIO " + str(gpio) + " is used twice")
        seen.add(gpio)
        buttons.append(Button(name, hold, debounce_ms, hold_ms, diff))
    return buttons
