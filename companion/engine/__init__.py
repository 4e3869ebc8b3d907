"""The rules of Patchwork and its solo Automa: pure, with no I/O.

Start with `Game` (game.py), set up by `solo_setup` / `two_player_setup`
(setup.py). It is built in layers: the state (state.py), the rule questions
the screens ask (questions.py), the 7×7 tile (bonus.py), the score
(score.py), and the actions that change the state (game.py). The Automa's
cards and filters are in automa.py, the patches and the time track in
catalogue.py, the log format in gamelog.py.
"""
