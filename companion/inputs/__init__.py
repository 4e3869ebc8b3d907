"""Inputs: GPIO devices, the simulation's keyboard and scripts, all feeding one EventQueue."""
