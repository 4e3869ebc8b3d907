"""Inputs: GPIO devices, the simulation's keyboard and scripts, all feeding one EventQueue."""

from companion.inputs.events import EventQueue, Input, InputEvent

__all__ = ["EventQueue", "Input", "InputEvent"]
