"""The history's statistics as lines for the statistics pages."""

from __future__ import annotations

from companion.app.terms import deck_name, difficulty_name
from companion.storage.statistics import GameRecord, Statistics
from companion.text.language import Words


def statistics_lines(stats: Statistics, words: Words, rows_a_page: int) -> list[str]:
    """Solo results per difficulty and deck, then two-player games, then recent results,
    for pages of `rows_a_page` rows (each of these lines fits one row)."""
    if stats.solo_overall is None and not stats.two_player_games:
        return [
            words("No finished games yet."),
            "",
            words("Finish a game and its result shows here."),
        ]
    lines = []
    for (difficulty, deck), solo in stats.solo.items():
        lines += [
            # The level and deck head their own row: with the wins beside them, the
            # longest names (Russian "Подмастерье Тактическая", 108 of 124 pixels)
            # wrapped. Three rows a group: a page (6 rows, Korean 3) never splits one.
            words(
                "{difficulty} {deck}:",
                difficulty=difficulty_name(difficulty, words),
                deck=deck_name(deck, words),
            ),
            words("{wins}/{games} won", wins=solo.wins, games=solo.games),
            # Named the margin: beside a listed "-59:7", a bare "best -66" read as a
            # score gone wrong. Not indented: the page's wrapping drops leading spaces.
            words(
                "margin: best {best}, avg {average}",
                best=f"{solo.best_margin:+d}",
                average=f"{solo.average_margin:+.1f}",
            ),
        ]
    if stats.solo_overall:
        overall = stats.solo_overall
        lines.append(words("All solo: {wins}/{games} won", wins=overall.wins, games=overall.games))
    if stats.two_player_games:
        lines.append(words("Two-player games: {count}", count=stats.two_player_games))
    if stats.recent:
        if len(lines) % rows_a_page == rows_a_page - 1:
            # The heading would end its page alone, its results on the next: it starts
            # the next page with them.
            lines.append("")
        lines.append(words("Last results:"))
    for record in stats.recent:
        scores = ":".join(str(score) for score in record.scores.values())
        lines.append(f" {record.date:%m-%d} {_short(record, words)} {scores}")
    return lines


def _short(record: GameRecord, words: Words) -> str:
    """e.g. "fel/tac" or "2P", to keep a result on one line."""
    if record.difficulty is not None and record.deck is not None:
        difficulty = difficulty_name(record.difficulty, words)[:3].lower()
        return f"{difficulty}/{deck_name(record.deck, words)[:3].lower()}"
    return words("2P")
