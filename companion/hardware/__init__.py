"""The hardware layer's configuration: which display, which bus, which pins (see profile.py)."""
