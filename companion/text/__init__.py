"""Text on the 128×64 screen: the pixel font and its glyphs, and text cut into pages.

Shared by the application (which pages long texts and words steps with the
button glyph) and the renderer (which draws the text): it imports nothing
else of the companion.
"""
