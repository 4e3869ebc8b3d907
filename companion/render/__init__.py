"""Rendering toolkit for the 128×64 one-bit display.

Screens are composed from these primitives: a `Canvas` that records text
overflow, the `SMALL`/`LARGE` pixel fonts with icons, patch and time-track
drawings, and braille output for the terminal simulation.
"""
