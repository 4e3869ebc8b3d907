"""The suggested level, on synthetic histories (docs/SOLO.md, "The suggested level").

Each game of a history says, by level, whether the player won against it; a real
game's verdicts are monotone (beaten at a level, beaten at every easier one), and
the rule is checked on such games and on games that are not.
"""

from __future__ import annotations

import pytest
from helpers import companion_in

from companion.engine.automa import DIFFICULTIES, DIFFICULTY_BY_NAME, Deck
from companion.engine.gamelog import header_line
from companion.engine.setup import solo_setup
from companion.engine.verdicts import SUGGESTION_GAMES, suggest_level
from companion.inputs.events import Input
from companion.storage.statistics import level_verdicts, suggested_level
from companion.storage.store import Result, Standing, Store
from companion.views import MenuView, ScreenKind

LEVELS = [level.name for level in DIFFICULTIES]


def beaten_up_to(hardest: str | None) -> dict[str, bool]:
    """A game the player won against every level up to `hardest` (None: none)."""
    top = LEVELS.index(hardest) if hardest else -1
    return {name: index <= top for index, name in enumerate(LEVELS)}


@pytest.mark.parametrize(
    ("history", "expected"),
    [
        # Fewer than 3 games: no suggestion.
        ([], None),
        ([beaten_up_to("legend")] * 2, None),
        # Won everywhere: Legend; nowhere: Intern, the easiest.
        ([beaten_up_to("legend")] * 3, "legend"),
        ([beaten_up_to(None)] * 10, "intern"),
        # 10 games: Master beaten 5 times (half) -> Master.
        ([beaten_up_to("master")] * 5 + [beaten_up_to("apprentice")] * 5, "master"),
        # Master beaten 4 times of 10, Fellow 4 + 2 = 6 -> Fellow.
        (
            [beaten_up_to("master")] * 4
            + [beaten_up_to("fellow")] * 2
            + [beaten_up_to("intern")] * 4,
            "fellow",
        ),
        # 3 games, Apprentice beaten in 2 (2 × 2 >= 3), Fellow in 1 -> Apprentice.
        ([beaten_up_to("fellow"), beaten_up_to("apprentice"), beaten_up_to(None)], "apprentice"),
        # Not monotone (never from real verdicts): the hardest with half is still chosen.
        ([{"legend": True}, {"legend": True}, {"intern": True}, {}], "legend"),
    ],
)
def test_the_hardest_level_won_at_least_half_the_time(history, expected):
    suggested = suggest_level(history)
    assert (suggested.name if suggested else None) == expected


def store_solo_results(store: Store, histories: list[dict[str, bool]]) -> None:
    """Finished solo games, oldest first, each beating the levels it won (as a real game's
    verdicts, they are the easiest ones)."""
    header = header_line(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=1))
    for won in histories:
        store.start(header, Standing())
        beaten = sum(won.values())
        assert won == beaten_up_to(LEVELS[beaten - 1] if beaten else None)
        store.end(Result(True, {"player": 10, "automa": 5}, "player", 5, beaten=beaten))


def test_only_the_last_ten_games_count(tmp_path):
    with Store(tmp_path) as store:
        # 10 games lost everywhere, then 10 that beat Master: the last ten beat Master
        # every time -> Master (all twenty would make it Master too, 10 of 20: so...)
        store_solo_results(store, [beaten_up_to(None)] * 10 + [beaten_up_to("master")] * 10)
        assert suggested_level(store).name == "master"
        # ...every game counts in the verdicts: Master beaten 10 times in 20 games.
        counts = level_verdicts(store)
        master = counts[DIFFICULTY_BY_NAME["master"]]
        assert (master.wins, master.games) == (10, 20)
        # 6 more lost everywhere: the last ten beat Master 4 times -> below half, and
        # every easier level too -> Intern; all 26 would give Master 10 of 26, Intern too.
        store_solo_results(store, [beaten_up_to(None)] * 6)
        assert suggested_level(store).name == "intern"
        # 5 that beat Legend: the last ten are those 5 and 5 of the lost -> Legend, 5 of
        # 10. All 31 games would give Legend 5 of 31 and Master 15 of 31: Intern.
        store_solo_results(store, [beaten_up_to("legend")] * 5)
        assert suggested_level(store).name == "legend"
    assert SUGGESTION_GAMES == 10


def test_the_next_new_solo_game_offers_the_suggested_level_first(tmp_path):
    app = companion_in(tmp_path / "state", "en", seed=1)
    store_solo_results(app.store, [beaten_up_to("apprentice")] * 3)
    app.handle(Input.SELECT)  # New solo game
    view = app.view()
    assert isinstance(view, MenuView) and view.kind is ScreenKind.DIFFICULTY
    assert view.items[view.selected].label == "Apprentice"
    assert view.note == "Suggested: Apprentice"


def test_with_no_suggestion_fellow_is_offered_first_without_a_note(tmp_path):
    app = companion_in(tmp_path / "state", "en", seed=1)
    app.handle(Input.SELECT)
    view = app.view()
    assert view.items[view.selected].label == "Fellow" and view.note == ""
