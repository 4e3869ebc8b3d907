"""Exceptions of the rules engine, each a `ValueError` as in python-chess."""


class RulesError(ValueError):
    """Base of every error the engine raises."""


class SetupError(RulesError):
    """A game cannot be set up as asked (bad circle, deck order, difficulty…)."""


class IllegalActionError(RulesError):
    """An action that the rules do not allow now; the game is left unchanged."""


class GameOverError(IllegalActionError):
    pass


class NotYourTurnError(IllegalActionError):
    pass


class NoSuchPatchError(IllegalActionError):
    """The index is not one of the (up to three) patches on offer."""


class UnaffordableError(IllegalActionError):
    pass


class PatchDoesNotFitError(IllegalActionError):
    """More squares than the quilt has empty: the patch cannot be placed."""


class BonusUnavailableError(IllegalActionError):
    """The 7×7 bonus is already taken or fewer than 49 squares are covered."""


class InvalidAdjustmentError(IllegalActionError):
    """A correction to an unknown side, of zero, or below zero buttons."""


class ReshuffleError(IllegalActionError):
    """A reshuffle where none is due, or one that is not the whole deck."""
