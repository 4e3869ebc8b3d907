"""Rendering: a view (`companion.views`) in, a 128×64 one-bit image out.

Screens are composed from these primitives: a `Canvas` that records text
overflow, patch and time-track drawings, layout helpers; the pixel font lives
in `companion.text`. `screens.render` is the entry point.
"""
