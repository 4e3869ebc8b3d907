"""The runtime: the one place that wires the application, the renderer and a display.

`loop.DisplayLoop` waits for inputs, lets the application handle them, renders
its view and sends changed frames to the display; the daemon and the
simulation build one and run it.
"""
