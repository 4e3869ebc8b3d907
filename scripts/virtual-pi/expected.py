"""What the laptop companion shows for the virtual Pi's inputs (host.py runs it
with the repository's .venv): the screen after each input and the journal it
keeps, for a new state directory whose games are dealt from a given seed.

    expected.py SEED INPUT...  ->  one JSON object on stdout:
      {"start": the first screen's picture,
       "frames": [128x64 '0'/'1' picture after each input],
       "journal_lengths": [journal lines after each input],
       "first_game": [the lines of the first game these inputs played]}

The device is judged against this, press by press: the host waits for the
panel to show each expected frame before it presses again (a slow guest under
TCG is then only slow, never out of step), and a press the device handled
differently is named at once. The inputs go straight to the app, as the
laptop simulation's script does (the loop renders once per input, as here).
"""

from __future__ import annotations

import itertools
import json
import sys
import tempfile
from pathlib import Path

from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.runtime.loop import frame_for
from companion.storage.paths import HISTORY_DIRECTORY, JOURNAL_NAME


def bits(app: Companion) -> str:
    image = frame_for(app).convert("L")
    return "".join("1" if value > 127 else "0" for value in image.tobytes())


def line_count(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def main() -> None:
    seed, names = int(sys.argv[1]), sys.argv[2:]
    with tempfile.TemporaryDirectory(prefix="virtual-pi-expected-") as folder:
        state = Path(folder)
        # As the daemon starts it: a first start asks for the language.
        app = Companion(state, itertools.count(seed).__next__, ask_language=True)
        start = bits(app)
        frames, lengths = [], []
        first: Path | None = None
        for name in names:
            app.handle(Input(name))
            frames.append(bits(app))
            lengths.append(line_count(state / JOURNAL_NAME))
            # Enough presses finish a game: it is archived under history/ and the
            # next presses start another. The first game is the first archive to
            # appear (by name, a second game archived in the same second, "-2",
            # would sort before it).
            if first is None:
                first = next((state / HISTORY_DIRECTORY).glob("*.jsonl"), None)
        first = first or state / JOURNAL_NAME
        lines = first.read_text().splitlines() if first.exists() else []
    json.dump(
        {"start": start, "frames": frames, "journal_lengths": lengths, "first_game": lines},
        sys.stdout,
    )


if __name__ == "__main__":
    main()
