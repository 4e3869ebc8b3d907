"""Why a write to the card failed, in the player's words.

Apart from the names of the game's things (`companion.app.terms`), which import the
engine: a failed write can be told on any screen, the home menu's included, and the
home menu is drawn without the engine (see `Companion.rooms`).
"""

from __future__ import annotations

import errno
from collections.abc import Mapping
from types import MappingProxyType

from companion.text.language import Words, msg

ERROR_REASONS: Mapping[int, str] = MappingProxyType(
    {
        errno.ENOSPC: msg("the card is full"),
        errno.EDQUOT: msg("the card is full"),
        errno.EROFS: msg("the card is read-only"),
        errno.EACCES: msg("not allowed to write"),
        errno.EPERM: msg("not allowed to write"),
        errno.EIO: msg("the card cannot be read or written"),
    }
)
"""The storage failures a player can do something about, in their words."""
OTHER_ERROR_REASON = msg("the card could not be written")
"""Any other failure: the system's words for it are English, and the log has them."""

ERROR_ADVICE: Mapping[int, str] = MappingProxyType(
    {
        errno.ENOSPC: msg("Free space on the card, then try again."),
        errno.EDQUOT: msg("Free space on the card, then try again."),
        # A card the kernel set read-only after an error (ext4's errors=remount-ro) takes
        # writes again once restarted and checked; one that does it again is failing.
        errno.EROFS: msg("Restart the device; if the card stays read-only, replace it."),
        # From Linux 6.6 ext4 shuts down at such an error instead: every read and write
        # fails until a restart.
        errno.EIO: msg("Restart the device; if this happens again, replace the card."),
    }
)
"""What the player can do about a failure, where it is more than checking the card."""
OTHER_ERROR_ADVICE = msg("Check the card, then try again.")


def error_reason(error: OSError, words: Words) -> str:
    """Why a write failed, in the player's words: what it is where the player can do
    something about it, else only that it failed."""
    return words(ERROR_REASONS.get(error.errno or 0, OTHER_ERROR_REASON))


def error_advice(error: OSError, words: Words) -> str:
    """What to do about a failed write, in one sentence of the player's words: free space
    on a full card, restart with one gone read-only or failing every read and write."""
    return words(ERROR_ADVICE.get(error.errno or 0, OTHER_ERROR_ADVICE))
