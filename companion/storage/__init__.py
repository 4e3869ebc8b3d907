"""What the companion keeps on disk, so that no power cut can lose a game.

Everything lives in one state directory (`paths.resolve_state_dir`): `companion.db`,
the store (`store.py`: the game in progress and every game that ended; statistics by
SQL in `statistics.py`), and `settings.json` (`settings.py`). What cannot be read is
moved aside beside them, never deleted.
"""
