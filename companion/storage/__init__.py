"""What the companion keeps on disk, so that no power cut can lose a game.

Everything lives in one state directory (`paths.resolve_state_dir`):

- `journal.jsonl`: the game in progress, in the game log format
  (docs/game-log.md), one line appended and fsynced per confirmed action;
- `history/`: finished and abandoned games, one game log each, named by date
  and mode; statistics are computed from these files every time;
- `settings.json`: the player's settings (contrast, dimming, rotation);
- `journal-damaged-*.jsonl` and `settings-damaged-*.json`: files that could not
  be read, moved aside rather than deleted so that nothing is ever lost.
"""
