"""The rules of Patchwork and its solo Automa: pure, with no I/O.

Start with `Game` (game.py), set up by `solo_setup` / `two_player_setup`
(setup.py); the Automa's cards and filters are in automa.py, the patches and
the time track in catalogue.py, the log format in gamelog.py.
"""
