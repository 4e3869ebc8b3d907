"""What the laptop companion shows for the virtual Pi's inputs (host.py runs it
with the repository's .venv): the screen after each input and the game its store
holds, for a new state directory whose games are dealt from a given seed.

    expected.py SEED INPUT...  ->  one JSON object on stdout:
      {"start": the first screen's picture,
       "frames": [128x64 '0'/'1' picture after each input],
       "game_lengths": [the game in progress's log lines after each input],
       "first_game": [the lines of the first game these inputs played],
       "not_saved_title": the top rows of an action's "Not saved" notice,
                          whatever the card's reason}

The device is judged against this, press by press: the host waits for the
panel to show each expected frame before it presses again (a slow guest under
TCG is then only slow, never out of step), and a press the device handled
differently is named at once. The inputs go straight to the app, as the
laptop simulation's script does (the loop renders once per input, as here).
"""

from __future__ import annotations

import errno
import itertools
import json
import sys
import tempfile
from pathlib import Path

from companion.app.companion import Companion
from companion.inputs.events import Input
from companion.runtime.loop import frame_for
from companion.text.language import msg


def bits(app: Companion) -> str:
    image = frame_for(app).convert("L")
    return "".join("1" if value > 127 else "0" for value in image.tobytes())


def main() -> None:
    seed, names = int(sys.argv[1]), sys.argv[2:]
    with tempfile.TemporaryDirectory(prefix="virtual-pi-expected-") as folder:
        # As the daemon starts it: a first start asks for the language.
        app = Companion(Path(folder), itertools.count(seed).__next__, ask_language=True)
        start = bits(app)
        frames, lengths = [], []
        for name in names:
            app.handle(Input(name))
            frames.append(bits(app))
            lengths.append(len((app.store.current_log() or "").splitlines()))
        # Enough presses finish a game and start another: the first is then
        # the first game ended.
        first = app.store.ended_log(1) or app.store.current_log() or ""
        lines = first.splitlines()
        title = not_saved_title(app)
        app.store.close()
    json.dump(
        {
            "start": start,
            "frames": frames,
            "game_lengths": lengths,
            "first_game": lines,
            "not_saved_title": title,
        },
        sys.stdout,
    )


def not_saved_title(app: Companion) -> str:
    """The top rows that the notices of an action not saved on a read-only card
    and on one that fails every read and write share: their title and the words
    both open with."""
    pictures = []
    for reason in (errno.EROFS, errno.EIO):
        app.not_saved(msg("The action"), OSError(reason, ""), lambda: None)
        pictures.append(bits(app))
    rows = [
        [picture[start : start + 128] for start in range(0, len(picture), 128)]
        for picture in pictures
    ]
    shared = next(row for row, (one, other) in enumerate(zip(*rows, strict=True)) if one != other)
    return "".join(rows[0][:shared])


if __name__ == "__main__":
    main()
