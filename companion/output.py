"""Standard output, as every command writes it.

A command prints through :func:`write_output`; a stdout that takes nothing (closed with
`>&-`, or full as `>/dev/full`) raises :class:`OutputLost`, which `companion.cli.main` says
in one line. A reader gone (`| head`) stays a BrokenPipeError: `main` ends silently, as `cat`.
"""

from __future__ import annotations

import sys

PROGRAM = "patchwork-companion"


class OutputLost(Exception):
    """Standard output takes nothing; the reason, in words."""


def write_output(text: str) -> None:
    """Print `text` and a newline to standard output, or raise OutputLost."""
    if sys.stdout is None:  # closed (`>&-`): print() would write nothing, without a word
        raise OutputLost("it is closed")
    try:
        print(text, flush=True)
    except BrokenPipeError:
        raise
    except OSError as error:  # `>/dev/full`
        raise OutputLost(error.strerror or str(error)) from None
