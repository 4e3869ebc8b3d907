"""The history's statistics as lines for the statistics pages."""

from __future__ import annotations

from companion.storage.history import GameRecord, Statistics


def statistics_lines(stats: Statistics) -> list[str]:
    """Solo results per difficulty and deck, then two-player games, then recent results."""
    if stats.solo_overall is None and not stats.two_player_games:
        return ["No finished games yet.", "", "Finish a game and its", "result appears here."]
    lines = []
    for (difficulty, deck), solo in stats.solo.items():
        lines += [
            f"{difficulty.capitalize()} {deck}: {solo.wins}/{solo.games} won",
            f"  best {solo.best_margin:+d}, average {solo.average_margin:+.1f}",
        ]
    if stats.solo_overall:
        overall = stats.solo_overall
        lines.append(f"All solo: {overall.wins}/{overall.games} won")
    if stats.two_player_games:
        lines.append(f"Two-player games: {stats.two_player_games}")
    if stats.recent:
        lines.append("Last results:")
    for record in stats.recent:
        scores = "-".join(str(score) for score in record.scores.values())
        lines.append(f" {record.date:%m-%d} {_short(record)} {scores}")
    return lines


def _short(record: GameRecord) -> str:
    """e.g. "fel/tac" or "2P", to keep a result on one line."""
    if record.difficulty and record.deck:
        return f"{record.difficulty[:3]}/{record.deck[:3]}"
    return "2P"
