"""The game log format (docs/game-log.md): writing, reading, and errors by line."""

import json
import zlib
from pathlib import Path

import pytest
from helpers import circle_starting_with

from companion.engine.actions import ADVANCE, AUTOMA_TURN, Adjust, AutomaTurn, Buy, ClaimBonus
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.errors import SetupError
from companion.engine.game import Game
from companion.engine.gamelog import LogError, action_line, header_line, log_lines, read_log
from companion.engine.setup import Side, solo_setup, two_player_setup

DOCS_EXAMPLE = Path(__file__).parent.parent / "docs" / "example-solo.jsonl"


def header(**fields):
    base = {"format": "patchwork-companion-log", "version": 1, "mode": "two-player", "start": "p1"}
    return json.dumps(base | {"circle": list(circle_starting_with())} | fields)


def test_header_and_action_lines_are_exactly_as_documented():
    setup = solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL, seed=42)
    assert json.loads(header_line(setup)) == {
        "format": "patchwork-companion-log",
        "version": 1,
        "mode": "solo",
        "difficulty": "fellow",
        "deck": "tactical",
        "seed": 42,
        "circle": list(setup.circle),
        "deck_order": list(setup.deck_order),
        "deal": "0000-031U",
    }
    assert setup.circle[-1] == "P00" and len(setup.circle) == 33
    assert sorted(setup.deck_order) == list(range(13, 25))
    lines = [
        action_line(a)
        for a in (
            Buy(2),
            ADVANCE,
            AUTOMA_TURN,
            AutomaTurn((1, 2)),
            ClaimBonus("player"),
            Adjust("player", -2),
        )
    ]
    assert [json.loads(line) for line in lines] == [
        {"action": "buy", "index": 2},
        {"action": "advance"},
        {"action": "automa"},
        {"action": "automa", "reshuffle": [1, 2]},
        {"action": "claim_bonus", "side": "player"},
        {"action": "adjust", "side": "player", "delta": -2},
    ]


def test_two_player_header():
    setup = two_player_setup("p2", seed=3)
    assert json.loads(header_line(setup))["start"] == "p2"
    assert "deck_order" not in json.loads(header_line(setup))


def test_the_documented_example_replays():
    game = read_log(DOCS_EXAMPLE.read_text().splitlines())
    assert game.setup.difficulty.name == "fellow" and len(game.move_stack) >= 5


def test_what_a_hand_written_log_leaves_out_is_drawn_from_the_seed():
    line = json.dumps(
        {
            "format": "patchwork-companion-log",
            "version": 1,
            "mode": "solo",
            "difficulty": "master",
            "deck": "normal",
            "seed": 99,
        }
    )
    game = read_log([line])
    dealt = solo_setup(DIFFICULTY_BY_NAME["master"], Deck.NORMAL, seed=99)
    assert game.setup.circle == dealt.circle and game.setup.deck_order == dealt.deck_order


def test_a_log_carrying_every_random_outcome_replays_without_its_seed():
    game = Game(solo_setup(DIFFICULTY_BY_NAME["legend"], Deck.NORMAL, seed=5))
    while not game.is_over:
        game.push(game.legal_actions()[0])  # always advance (or the Automa's turn)
    assert any(a.reshuffle for a in game.move_stack if isinstance(a, AutomaTurn))
    lines = log_lines(game)
    first = json.loads(lines[0])
    del first["seed"], first["deal"]  # the deal code is the seed and the deck
    replayed = read_log([json.dumps(first), *lines[1:]])
    assert replayed.state() == game.state()


def test_unknown_extra_keys_are_ignored_and_blank_lines_skipped():
    lines = [
        header(note="kitchen table"),
        '{"action": "advance", "at": "2026-11-22T10:00"}',
        "",
        "  ",
    ]
    assert read_log(lines).sides["p1"].position == 1


BAD_LOGS = [
    ([], 1, "empty"),
    (["{not json"], 1, "not valid JSON"),
    (["[1, 2]"], 1, "JSON object"),
    ([header(format="something-else")], 1, "not a game log"),
    ([header(version=2)], 1, "version 2 is not supported"),
    ([header(version="1")], 1, "'version' must be a whole number"),
    ([header(mode="trio")], 1, "'mode' is 'trio'"),
    ([header(start="p3")], 1, "start player"),
    # A side's name the game does not have: a two-player game has no player or Automa.
    ([header(start="player")], 1, "unknown start player 'player'; expected p1 or p2"),
    ([header(circle=["P00"])], 1, "each of the 33 patches"),
    ([header(circle=list(reversed(circle_starting_with())))], 1, "end with P00"),
    ([header(circle=None)], 1, "needs a seed"),
    ([header(), '{"action": "jump"}'], 2, "'action' is 'jump'"),
    ([header(), '{"action": "buy"}'], 2, "missing 'index'"),
    ([header(), '{"action": "buy", "index": true}'], 2, "whole number"),
    (
        [header(), '{"action": "advance"}', '{"action": "buy", "index": 7}'],
        3,
        "no patch at index 7",
    ),
    ([header(), '{"action": "automa"}'], 2, "no automa"),
    ([header(), '{"action": "adjust", "side": "p1", "delta": -6}'], 2, "cannot take away 6"),
    ([header(), '{"action": "claim_bonus", "side": "p1"}'], 2, "0 squares covered"),
    # Side names no game has, misspelt, or not a name at all.
    (
        [header(), '{"action": "adjust", "side": "p9", "delta": 1}'],
        2,
        "'side' is 'p9'; expected one of player, automa, p1, p2",
    ),
    ([header(), '{"action": "claim_bonus", "side": "P1"}'], 2, "'side' is 'P1'"),
    ([header(), '{"action": "adjust", "side": 1, "delta": 1}'], 2, "'side' must be a string"),
    # A side of the other mode: named as the file names it, by the game.
    (
        [header(), '{"action": "adjust", "side": "player", "delta": 1}'],
        2,
        "illegal adjust: no side 'player'; this game has p1, p2",
    ),
    (
        [header(), '{"action": "claim_bonus", "side": "automa"}'],
        2,
        "illegal claim_bonus: 'automa' cannot claim the bonus; one of p1 or p2 can",
    ),
    ([header(), '{"action": "advance"}', "{"], 3, "not valid JSON"),
]


@pytest.mark.parametrize(("lines", "line", "message"), BAD_LOGS)
def test_bad_logs_name_the_line(lines, line, message):
    with pytest.raises(LogError) as error:
        read_log(lines)
    assert error.value.line == line
    assert message in str(error.value)
    assert str(error.value).startswith(f"line {line}: ")


def test_a_wrong_start_side_given_in_code_is_named_as_a_logs_is():
    with pytest.raises(SetupError, match=r"^unknown start player 'automa'; expected p1 or p2$"):
        two_player_setup(Side.AUTOMA, seed=1)


def test_not_utf8_names_the_line():
    with pytest.raises(LogError, match="line 2: not UTF-8"):
        read_log([header().encode(), b'{"action": "adv\xff"}'])


def test_solo_header_errors():
    solo = {"format": "patchwork-companion-log", "version": 1, "mode": "solo", "seed": 1}
    with pytest.raises(LogError, match="unknown difficulty 'boss'"):
        read_log([json.dumps(solo | {"difficulty": "boss", "deck": "normal"})])
    # Names are read as written: a capital letter is a misspelling.
    expected = (
        "unknown difficulty 'Fellow'; expected one of intern, apprentice, fellow, master, legend"
    )
    with pytest.raises(LogError, match=rf"^line 1: {expected}$"):
        read_log([json.dumps(solo | {"difficulty": "Fellow", "deck": "normal"})])
    with pytest.raises(LogError, match="'difficulty' must be a string, not 3"):
        read_log([json.dumps(solo | {"difficulty": 3, "deck": "normal"})])
    with pytest.raises(LogError, match="'deck' is 'blue'"):
        read_log([json.dumps(solo | {"difficulty": "intern", "deck": "blue"})])
    with pytest.raises(
        LogError, match=r"^line 1: 'deck' is 'Tactical'; expected one of normal, tactical$"
    ):
        read_log([json.dumps(solo | {"difficulty": "intern", "deck": "Tactical"})])
    with pytest.raises(LogError, match="deck order must hold cards 1–12"):
        read_log(
            [json.dumps(solo | {"difficulty": "intern", "deck": "normal", "deck_order": [1] * 12})]
        )


def test_bad_reshuffles():
    game = Game(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=1))
    lines = [
        header_line(game.setup),
        '{"action": "advance"}',
        '{"action": "automa", "reshuffle": [1]}',
    ]
    with pytest.raises(LogError, match=r"line 3: .*draw pile is not empty"):
        read_log(lines)


def solo_header(**changes) -> str:
    record = json.loads(
        header_line(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL, seed=42))
    )
    return json.dumps(record | changes)


def test_a_header_deal_code_must_be_the_one_its_seed_and_deck_make():
    assert read_log([solo_header()]).setup.seed == 42  # "0000-031U", as written
    for wrong in ("0000-031T", "0000-002W", 7):
        with pytest.raises(LogError) as caught:
            read_log([solo_header(deal=wrong)])
        assert caught.value.line == 1
    # Seed 1's code beside seed 42's circle and deck: not the game's deal.
    with pytest.raises(LogError, match="'0000-003T' is not the one this game was dealt by"):
        read_log([solo_header(deal="0000-003T")])


def chained(lines):
    """Lines as builds before the SQLite store wrote them: each with the CRC-32 of the
    line without it, started from the line before's."""
    checked, previous = [], 0
    for line in lines:
        previous = zlib.crc32(line.encode(), previous)
        checked.append(f'{line[:-1]}, "crc": "{previous:08x}"}}')
    return checked


def test_a_log_with_checksums_is_checked_line_by_line():
    game = Game(solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=5))
    game.push(ADVANCE)
    lines = chained(log_lines(game))
    assert read_log(lines).state() == game.state()
    changed = lines[1].replace('"advance"', '"advance" ')
    with pytest.raises(LogError, match="line 2: checksum does not match"):
        read_log([lines[0], changed])
    with pytest.raises(LogError, match="line 2: no checksum, though the header has one"):
        read_log([lines[0], action_line(ADVANCE)])
