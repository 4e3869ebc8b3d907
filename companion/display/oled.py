"""The real OLED: a luma.oled driver on I2C or SPI, with partial updates and bus-fault recovery.

:func:`open_oled` opens the panel a :class:`DisplayConfig` describes and returns
an :class:`OledDisplay`, a luma-like sink (``display(image)``, ``contrast()``,
``width``, ``height``, ``mode``, ``cleanup()``) that

- sends only the GDDRAM pages / column ranges that changed
  (:mod:`companion.display.partial`), through the luma device's own
  ``command()`` and ``data()``, so the transport stays luma's; the first frame,
  the first after a re-initialisation, and any change that would cost as much,
  go whole, with the same commands and bytes as luma's ``display()``;
- takes luma's ``contrast()``, ``hide()`` and ``show()``, which the display loop
  uses to dim and blank the panel, and restores them after a re-initialisation;
- survives the bus: an ``OSError`` (or luma's ``DeviceNotFoundError``) while
  sending is caught and logged once, the panel is marked lost, and later calls
  retry at most every ``retry_interval`` seconds by replaying luma's own init
  sequence (recorded when the device was created), then redraw the whole frame.
"""

from __future__ import annotations

import errno
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import luma.core.error
import luma.oled.device
from luma.core.interface.serial import i2c, spi
from luma.core.mixin import capabilities
from luma.oled.device import sh1106
from PIL import Image

from companion.display.partial import (
    SH1106_WINDOW_COST,
    SSD1306_WINDOW_COST,
    Window,
    page_bytes,
    plan_windows,
    send_sh1106,
    send_ssd1306,
)
from companion.display.sink import DisplayUnavailable, check_frame
from companion.hardware.config import DisplayConfig
from companion.hardware.constants import (
    HEIGHT,
    I2C_DEFAULT_SPEED,
    OLED_DRIVERS,
    RESET_HOLD_SECONDS,
    RESET_RELEASE_SECONDS,
    ROTATIONS,
    SPI_DEFAULT_DC,
    SPI_DEFAULT_RESET,
    SPI_DEFAULT_SPEED,
    SPI_SPEEDS,
    WIDTH,
)

log = logging.getLogger(__name__)

DRIVERS: dict[str, type] = {name: getattr(luma.oled.device, name) for name in OLED_DRIVERS}
"""The luma.oled classes of the drivers a profile may name."""

SETCONTRAST = 0x81
IO_ERRORS = (OSError, luma.core.error.DeviceNotFoundError, luma.core.error.DevicePermissionError)
"""What a failing bus raises: luma's i2c turns EIO/EREMOTEIO on commands into
``DeviceNotFoundError``; data over smbus2's ``i2c_rdwr`` and SPI raise ``OSError``."""


class _Tap:
    """A serial interface in front of luma's: counts what passes, records the init sequence."""

    def __init__(self, serial: Any) -> None:
        self.serial = serial
        self.bytes_sent = 0
        self.recording: list[tuple[str, tuple[int, ...]]] | None = None

    def command(self, *cmd: int) -> None:
        if self.recording is not None:
            self.recording.append(("command", tuple(cmd)))
        self.serial.command(*cmd)
        self.bytes_sent += len(cmd)

    def data(self, data: Any) -> None:
        if self.recording is not None:
            self.recording.append(("data", tuple(data)))
        self.serial.data(data)
        self.bytes_sent += len(data)

    def cleanup(self) -> None:
        self.serial.cleanup()


class OledDisplay(capabilities):
    """A luma.oled monochrome device that sends only what changed and survives bus errors.

    A :class:`~companion.display.sink.Display`. Its size, mode, rotation and
    ``persist`` come from luma's own ``capabilities`` mixin (as for every luma
    device), and so do ``clear()`` and the rotation in ``preprocess()``.

    ``serial`` is a luma serial interface (``i2c(...)``, ``spi(...)``); the
    device is created here so that its init sequence can be recorded for
    re-initialisation. ``partial=False`` sends every frame whole through luma
    (for comparison). ``clock`` and ``retry_interval`` (seconds) pace the
    recovery attempts.

    Figures: ``healthy``, ``error_count`` (bus errors caught, failed retries
    included), ``bytes_sent`` (command + data bytes given to the serial
    interface since it was opened, init included), ``full_frames`` and
    ``partial_frames``.
    """

    def __init__(
        self,
        serial: Any,
        driver: str = "ssd1306",
        *,
        width: int = WIDTH,
        height: int = HEIGHT,
        rotate: int = 0,
        partial: bool = True,
        retry_interval: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        description: str = "",
    ) -> None:
        if driver not in DRIVERS:
            raise ValueError(f"unknown driver {driver!r}; choose one of {', '.join(DRIVERS)}")
        self.driver = driver
        self.description = description or driver
        self.partial = partial
        self.retry_interval = retry_interval
        self._clock = clock
        self._lock = threading.RLock()
        self._tap = _Tap(serial)
        self._tap.recording = []
        self.device = DRIVERS[driver](self._tap, width=width, height=height, rotate=rotate)
        self.capabilities(width, height, rotate, mode=self.device.mode)
        self._init_sequence = self._tap.recording
        self._tap.recording = None
        self._contrast = next(
            (
                cmd[1]
                for kind, cmd in reversed(self._init_sequence)
                if kind == "command" and len(cmd) == 2 and cmd[0] == SETCONTRAST
            ),
            0x7F,
        )
        if isinstance(self.device, sh1106):
            self._window_cost, self._multi_page = SH1106_WINDOW_COST, False
        else:
            self._window_cost, self._multi_page = SSD1306_WINDOW_COST, True
        self._pages = height // 8
        self._columns = width  # the RAM columns a frame covers (0 and 180 degrees only)
        self._image: Image.Image | None = None  # the frame the panel should show
        self._sent: bytes | None = None  # page bytes the panel holds; None: unknown
        self._blanked = False
        self.healthy = True
        self.error_count = 0
        self.full_frames = 0
        self.partial_frames = 0
        self._next_retry = 0.0

    # figures --------------------------------------------------------------------------------

    @property
    def bytes_sent(self) -> int:
        return self._tap.bytes_sent

    # frames -----------------------------------------------------------------------------------

    def display(self, image: Image.Image) -> None:
        """Show ``image`` (mode "1", the device's size), sending only what changed."""
        check_frame(self, image)
        with self._lock:
            self._image = frame = image.copy()
            self._guarded(lambda: self._draw(frame))

    def _draw(self, image: Image.Image) -> None:
        frame = page_bytes(self.preprocess(image))
        if frame == self._sent:
            return
        windows = None
        if self.partial and self._sent is not None:
            windows = plan_windows(
                self._sent,
                frame,
                self._columns,
                window_cost=self._window_cost,
                multi_page=self._multi_page,
            )
        self._sent = None  # unknown until the transfer completes
        if not self.partial:
            self.device.display(image)  # luma's own whole frame
            self.full_frames += 1
        elif windows is None:
            # The whole frame as one window (SSD1306) or 8 page runs (SH1106):
            # the same bytes as luma's display(), without its per-pixel Python loop.
            self._send(frame, [Window(0, self._pages - 1, 0, self._columns - 1)])
            self.full_frames += 1
        else:
            self._send(frame, windows)
            self.partial_frames += 1
        self._sent = frame

    def _send(self, frame: bytes, windows: list[Window]) -> None:
        # luma.oled internals (pinned in pyproject.toml): where the driver put the
        # visible columns in the controller's RAM, so our windows land where its
        # whole frames do. The partial-update tests decode both and fail if they move.
        if isinstance(self.device, sh1106):
            offset = self.device._page_address_offset
            send_sh1106(self.device, frame, self._columns, windows, column_offset=offset)
        else:
            start = self.device._colstart
            send_ssd1306(self.device, frame, self._columns, windows, column_start=start)

    # brightness and power ---------------------------------------------------------------------

    def contrast(self, level: int) -> None:
        """Set the contrast (0..255); the display loop dims the panel with it."""
        if not 0 <= level <= 255:
            raise ValueError(f"contrast must be 0..255, not {level}")
        with self._lock:
            self._contrast = level
            self._guarded(lambda: self.device.contrast(level))

    def hide(self) -> None:
        """Switch the panel off (0xAE): nothing shows, frames still update its memory."""
        with self._lock:
            self._blanked = True
            self._guarded(self.device.hide)

    def show(self) -> None:
        """Switch the panel on again (0xAF)."""
        with self._lock:
            self._blanked = False
            self._guarded(self.device.show)

    # faults -----------------------------------------------------------------------------------

    def _guarded(self, operation: Callable[[], None]) -> None:
        if not self.healthy:
            self._recover_if_due()  # on success it redraws and restores everything
            return
        try:
            operation()
        except IO_ERRORS as error:
            self._lost(error)

    def _lost(self, error: BaseException) -> None:
        self._sent = None
        self.error_count += 1
        self._next_retry = self._clock() + self.retry_interval
        if self.healthy:
            self.healthy = False
            log.warning(
                "display: lost the panel (%s): %s; retrying every %g s",
                self.description,
                _describe(error),
                self.retry_interval,
            )

    def _recover_if_due(self) -> None:
        now = self._clock()
        if now < self._next_retry:
            return
        try:
            self._reinitialise()
        except IO_ERRORS as error:
            self.error_count += 1
            self._next_retry = now + self.retry_interval
            log.debug("display: panel still lost (%s): %s", self.description, _describe(error))
            return
        self.healthy = True
        log.info("display: the panel answers again (%s)", self.description)

    def _reinitialise(self) -> None:
        """Replay luma's init sequence, restore contrast and power, and redraw the whole frame."""
        self._sent = None
        for kind, payload in self._init_sequence:
            if kind == "command":
                self.device.command(*payload)
            else:
                self.device.data(list(payload))
        self.device.contrast(self._contrast)
        if self._blanked:
            self.device.hide()
        if self._image is not None:
            self._draw(self._image)

    def cleanup(self) -> None:
        """Hand over to luma's ``cleanup()`` (panel off unless ``persist``); never raises on I/O."""
        with self._lock:
            self.device.persist = self.persist
            try:
                if self.healthy:
                    self.device.cleanup()
                else:
                    self._tap.cleanup()
            except IO_ERRORS as error:
                log.debug("display: cleanup failed: %s", _describe(error))


def _describe(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return f"{error.strerror} (errno {error.errno})"
    return str(error) or type(error).__name__


# opening ----------------------------------------------------------------------------------------


def open_oled(
    config: DisplayConfig,
    *,
    bus: Any = None,
    gpio: Any = None,
    partial: bool = True,
    retry_interval: float = 5.0,
    clock: Callable[[], float] = time.monotonic,
) -> OledDisplay:
    """Open the panel ``config`` describes; raise :class:`DisplayUnavailable` with one line if not.

    ``bus`` replaces the bus luma would open: an SMBus-like object for I2C (see
    :class:`companion.testing.recording.RecordingBus`), a spidev-like one for
    SPI, where ``gpio`` may replace RPi.GPIO too. On SPI a ``bus_speed_hz`` left
    at the I2C default (400 kHz) means luma's default clock, 8 MHz; unset DC and
    reset pins mean luma's defaults, GPIO 24 and 25.
    """
    if config.driver not in DRIVERS:
        raise DisplayUnavailable(
            f"display: unknown driver {config.driver!r}: choose one of {', '.join(DRIVERS)}"
        )
    if config.rotation not in ROTATIONS:
        raise DisplayUnavailable(f"display: rotation {config.rotation} unsupported: use 0 or 180")
    if config.interface == "i2c":
        serial = _open_i2c(config, bus)
        where = f"I2C address 0x{config.i2c_address:02X} on bus {config.i2c_port}"
    elif config.interface == "spi":
        serial = _open_spi(config, bus, gpio)
        where = f"SPI /dev/spidev{config.spi_port}.{config.spi_device}"
    else:
        raise DisplayUnavailable(
            f"display: unknown interface {config.interface!r}: use 'i2c' or 'spi'"
        )
    try:
        return OledDisplay(
            serial,
            config.driver,
            width=config.width,
            height=config.height,
            rotate=config.rotation // 90,
            partial=partial,
            retry_interval=retry_interval,
            clock=clock,
            description=f"{config.driver} at {where}",
        )
    except luma.core.error.DeviceDisplayModeError as error:
        raise DisplayUnavailable(
            f"display: {config.driver} does not support {config.width}x{config.height}"
        ) from error
    except IO_ERRORS as error:
        _close_quietly(serial)
        if config.interface == "i2c":
            raise DisplayUnavailable(
                f"display: no answer at {where}: check wiring, power and address "
                f"(i2cdetect -y {config.i2c_port})"
            ) from error
        raise DisplayUnavailable(f"display: cannot write to {where}: {_describe(error)}") from error


def _open_i2c(config: DisplayConfig, bus: Any) -> Any:
    port = config.i2c_port
    path = f"/dev/i2c-{port}"
    try:
        return i2c(bus=bus, port=port, address=config.i2c_address)
    except ImportError as error:
        raise DisplayUnavailable("display: I2C needs smbus2: pip install smbus2") from error
    except luma.core.error.DeviceNotFoundError as error:
        raise DisplayUnavailable(
            f"display: I2C bus {port} not found ({path}): enable I2C "
            "(dtparam=i2c_arm=on in config.txt) and reboot"
        ) from error
    except luma.core.error.DevicePermissionError as error:
        raise DisplayUnavailable(
            f"display: permission denied on {path}: add the service user to the 'i2c' group"
        ) from error
    except luma.core.error.DeviceAddressError as error:
        raise DisplayUnavailable(
            f"display: invalid I2C address {config.i2c_address!r}: use e.g. 0x3C"
        ) from error
    except OSError as error:
        raise DisplayUnavailable(f"display: cannot open {path}: {_describe(error)}") from error


def _open_spi(config: DisplayConfig, bus: Any, gpio: Any) -> Any:
    path = f"/dev/spidev{config.spi_port}.{config.spi_device}"
    speed = config.bus_speed_hz
    if speed == I2C_DEFAULT_SPEED:
        speed = SPI_DEFAULT_SPEED
    if speed not in SPI_SPEEDS:
        choices = ", ".join(f"{s / 1_000_000:g}" for s in SPI_SPEEDS)
        raise DisplayUnavailable(
            f"display: SPI clock {speed} Hz unsupported by luma: choose one of {choices} MHz"
        )
    try:
        return spi(
            spi=bus,
            gpio=gpio,
            port=config.spi_port,
            device=config.spi_device,
            bus_speed_hz=speed,
            gpio_DC=SPI_DEFAULT_DC if config.gpio_dc is None else config.gpio_dc,
            gpio_RST=SPI_DEFAULT_RESET if config.gpio_reset is None else config.gpio_reset,
            # luma holds reset for no time by default, which a cold panel may miss.
            reset_hold_time=RESET_HOLD_SECONDS,
            reset_release_time=RESET_RELEASE_SECONDS,
        )
    except ImportError as error:
        if (error.name or "").startswith("RPi"):
            raise DisplayUnavailable(
                "display: SPI needs RPi.GPIO for the DC and reset pins: "
                "install python3-rpi-lgpio (Debian) or rpi-lgpio (pip)"
            ) from error
        raise DisplayUnavailable(
            f"display: SPI needs {error.name or 'spidev'}: install python3-spidev (Debian) "
            "or spidev (pip)"
        ) from error
    except luma.core.error.UnsupportedPlatform as error:
        raise DisplayUnavailable(
            "display: no GPIO access for the SPI DC and reset pins (not a Raspberry Pi?)"
        ) from error
    except luma.core.error.DeviceNotFoundError as error:
        raise DisplayUnavailable(
            f"display: SPI device {path} not found: enable SPI (dtparam=spi=on) and reboot"
        ) from error
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM):
            raise DisplayUnavailable(
                f"display: permission denied on {path}: add the service user to the "
                "'spi' and 'gpio' groups"
            ) from error
        raise DisplayUnavailable(f"display: cannot open {path}: {_describe(error)}") from error
    except RuntimeError as error:  # RPi.GPIO's own complaints (no /dev/gpiomem access...)
        raise DisplayUnavailable(f"display: GPIO for the SPI pins unavailable: {error}") from error


def _close_quietly(serial: Any) -> None:
    try:
        serial.cleanup()
    except Exception:  # closing after a failed open: nothing more to tell than the open error
        log.debug("display: closing the serial interface failed", exc_info=True)
