"""The history's statistics as lines for the statistics pages."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from companion.app.terms import deck_name, difficulty_name
from companion.engine.automa import Deck
from companion.storage.statistics import GameRecord, Statistics
from companion.text.language import Words, msg
from companion.text.pages import TEXT_PAGE_WIDTH
from companion.text.typefaces import body_font

SHORT_DIFFICULTIES: Mapping[str, str] = MappingProxyType(
    {
        "intern": msg("[short] int"),
        "apprentice": msg("[short] app"),
        "fellow": msg("[short] fel"),
        "master": msg("[short] mas"),
        "legend": msg("[short] leg"),
    }
)
"""A difficulty on a recent result's line, abbreviated as its language abbreviates it
(cutting a name to three letters left Russian "под" for Подмастерье)."""
SHORT_DECKS: Mapping[Deck, str] = MappingProxyType(
    {Deck.NORMAL: msg("[short] nor"), Deck.TACTICAL: msg("[short] tac")}
)


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
    if stats.verdicts:
        # Six rows, a page (Korean two): the groups below still start on a page's row 1.
        lines.append(words("Won against each level:"))
        lines += [
            f"{difficulty_name(level, words)} {judged.wins}/{judged.games}"
            for level, judged in stats.verdicts.items()
        ]
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
            words(
                "{wins}/{games} won, best {score}",
                wins=solo.wins,
                games=solo.games,
                score=solo.best_score,
            ),
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
        lines.append(
            words.counted(
                "Two-player games: {count}",
                "Two-player games: {count}",
                count=stats.two_player_games,
            )
        )
    if stats.recent:
        row = len(lines) % rows_a_page
        together = 1 + len(stats.recent)
        if row and (row + together > rows_a_page >= together or row == rows_a_page - 1):
            # The heading and its results start the next page when they fit on one
            # there and not on this; the heading never ends its page alone.
            lines += [""] * (rows_a_page - row)
        lines.append(words("Last results:"))
    for record in stats.recent:
        # Day and month in the order the language writes them (Russian 27.11).
        date = words("{month}/{day}", month=f"{record.date:%m}", day=f"{record.date:%d}")
        start = f"{date} {_short(record, words)} "
        first, second = record.scores.values()
        # An en dash, a column wider than the hyphen: a colon read "15:34" as a clock
        # time, a hyphen "15-34" as a date beside the date "11-27". Before a negative
        # score it has a space either side, apart from the minus ("-28 – -56"), where
        # the line has room; where even the dash has none (Korean "-139–-135"), the
        # colon, two columns narrower, which no clock shows beside a minus.
        joined = [f"{first}–{second}", f"{first}:{second}"]
        if second < 0:
            joined.insert(0, f"{first} – {second}")
        font = body_font(words.language)
        line = next(
            (start + text for text in joined if font.fits(start + text, TEXT_PAGE_WIDTH)),
            start + joined[-1],
        )
        lines.append(f" {line}")
    return lines


def _short(record: GameRecord, words: Words) -> str:
    """e.g. "fel/tac" or "2P", to keep a result on one line."""
    if record.difficulty is not None and record.deck is not None:
        difficulty = words(SHORT_DIFFICULTIES[record.difficulty.name])
        return f"{difficulty}/{words(SHORT_DECKS[record.deck])}"
    return words("2P")
