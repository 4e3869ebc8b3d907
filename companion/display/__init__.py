"""Display sinks: where rendered 128x64 one-bit images go."""

# The names here, not in factory.py: the command line offers them without importing
# Pillow and luma for a command that draws nothing.
EMULATORS = ("pygame", "capture", "gifanim")
DISPLAY_NAMES = ("terminal", "dummy", *EMULATORS)
