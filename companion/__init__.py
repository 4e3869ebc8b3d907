"""Patchwork Companion: the time track, button bank and solo Automa of Patchwork."""

__version__ = "0.1.0"
