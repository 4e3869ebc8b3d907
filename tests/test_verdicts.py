"""One solo game judged at all five levels, every number worked out by hand from docs/RULES.md.

Played at Fellow (7×7 mark 53 − 12 = 41), normal deck. The player covers 49 squares by
action 13 and claims the tile at action 25, after the Automa's token crossed 35 (the
Legend mark, action 24) and before it reached 38 (the Master mark, action 27). So
against Legend the tile is the Automa's; against every other level it is the player's.

Notation as in test_solo_game_by_hand.py: "Pnn c/t/b,s" = cost / time / buttons, squares;
marks: income 5 11 17 23 29 35 41 47 53, leather 20 26 32 44 50; the Automa's 7×7 marks
52 (Intern) 44 (Apprentice) 41 (Fellow) 38 (Master) 35 (Legend). Taking offer index i
makes the circle circle[i+1:] + circle[:i].

Deck order: 1, 2 set aside; draw pile 10 11 8 9 7 12 6 5 4 3; the reshuffle at A10
(action 23) is given: 12 8 1 3 2 4 5 6 7 9 10 11.

 #  who  action / card                                       P pos btn cov   A pos btn
 1  P    buy P07 2/1/0,6 (idx 0)                               1   3   6      0   0
 2  A1   card 10 (10 vb; buttons/largest/farthest; inc 0); offer P28 7/6/3,4
         P29 8/6/3,6 P20 4/6/2,4: buttons 3,3,2 -> P28 P29; largest -> P29;
         0->6 crosses 5 (inc 0)                                1   3   6      6   0
 3  P    buy P03 1/2/0,6 (idx 1 of P20 P03 P02)                3   2  12      6   0
 4  P    buy P02 1/2/0,5 (idx 0); crosses 5: income 0          5   1  17      6   0
 5  P    buy P01 0/3/1,6 (idx 0 of P01 P32 P17)                8   1  23      6   0
 6  A2   card 11 (10 vb; b/l/f; inc 0); offer P32 10/5/3,6 P17 3/6/2,6 P31 10/4/3,5:
         buttons 3,2,3 -> P32 P31; largest 6 vs 5 -> P32; 6->11  8   1  23     11   0
 7  P    buy P05 1/4/1,7 (idx 2 of P17 P31 P05); crosses 11: +2   12   2  30     11   0
 8  A3   card 8 (8 vb; l/b/f); offer P23 5/5/2,5 P09 2/2/0,4 P04 1/3/0,3:
         largest -> P23; 11->16                                12   2  30     16   0
 9  P    buy P06 1/5/1,6 (idx 2 of P09 P04 P06); crosses 17: +3  17   4  36     16   0
10  A4   card 9 (8 vb; b/n/f); offer P24 6/5/2,4 P22 5/4/2,5 P26 7/2/2,6: buttons
         2,2,2 all; no overtake (P on 17): 21, 20, 18 all > 17, skipped;
         farthest -> P26; 16->18 crosses 17 (inc 0)            17   4  36     18   0
11  P    buy P11 2/3/0,7 (idx 0 of P11 P27 P25); crosses 20: leather 20  20  2  44  18  0
12  A5   card 7 (7 vb; b/l/f); offer P27 7/4/2 P25 7/1/1 P30 10 (too dear):
         buttons 2 vs 1 -> P27; 18->22                          20   2  44     22   0
13  P    buy P10 2/2/0,5 (idx 2 of P25 P30 P10); 20->22, on top of the Automa
                                                               22   0  49     22   0
14  P    (on top) advance to 23: +1; crosses 23: +3            23   4  49     22   0
15  A6   card 12 (0 vb; inc 5); offer P21 5 P14 3 P16 3: pass to 24; crosses 23: +5
                                                               23   4  49     24   5
16  P    advance to 25: +2                                     25   6  49     24   5
17  A7   card 6 (6 vb; n/l/f); offer P21 5/3/1,8 P14 3/2/1,4 P16 3/4/1,5: no overtake
         (P on 25): 27, 26, 28 skipped; largest -> P21; 24->27 crosses 26: leather
                                                               25   6  49     27   5
18  P    advance to 28: +3                                     28   9  49     27   5
19  A8   card 5 (5 vb; n/b/f; inc 1); offer P14 P16 P18 4/2/0,6: no overtake (P on 28):
         29, 31, 29 skipped; buttons 1,1,0 -> P14 P16; farthest -> P16;
         27->31 crosses 29: +1                                 28   9  49     31   6
20  P    advance to 32: +4; crosses 29: +3; 32: leather        32  16  50     31   6
21  A9   card 4 (4 vb; n/l/f; inc 1); offer P18 4/2/0,6 P19 4/2/1,4 P15 3/3/1,4:
         no overtake: 33, 33, 34 > 32 skipped; largest -> P18; 31->33  32 16 50  33   6
22  P    advance to 34: +2                                     34  18  50     33   6
23  A10  card 3 (3 vb; n/l/f; inc 3); offer P19 4 (too dear) P15 3/3/1 P13 3/1/0:
         no overtake (P on 34): 36 > 34 out, 34 kept -> P13; 33->34, on top;
         the draw pile is empty: reshuffle                     34  18  50     34   6
24  A11  card 12; offer P08 2 P12 2 P00 2: pass to 35; crosses 35: +5 -- the LEGEND
         mark (played at Fellow: nothing happens)              34  18  50     35  11
25  P    CLAIMS the 7×7 tile (50 covered)                      34  18  50     35  11
26  P    advance to 36: +2; crosses 35: +3                     36  23  50     35  11
27  A12  card 8 (l/b/f); offer P08 2/2/0,3 P12 2/3/1,5 P00 2/1/0,2: largest -> P12;
         35->38 -- the MASTER mark                             36  23  50     38  11
28  P    advance to 39: +3                                     39  26  50     38  11
29  A13  card 1 (1 vb); offer P00 2 P28 7 P20 4: pass to 40    39  26  50     40  11
30  P    advance to 41: +2; crosses 41: +3                     41  31  50     40  11
31  A14  card 3 (3 vb; inc 3); only P00 2/1/0 affordable -> P00; 40->41 on top;
         crosses 41: +3 -- the FELLOW mark (tile already the player's)
                                                               41  31  50     41  14
32  A15  card 2 (2 vb); offer P28 7 P20 4 P17 3: pass to 42    41  31  50     42  14
33  P    advance to 43: +2                                     43  33  50     42  14
34  A16  card 4 (4 vb; n/l/f; inc 1); offer P28 7 P20 4/6/2,4 P17 3/6/2,6: no overtake
         (P on 43): 48, 48 skipped; largest -> P17; 42->48 crosses 44: leather and
         the APPRENTICE mark; 47: +1                           43  33  50     48  15
35  P    advance to 49: +6; crosses 47: +3                     49  42  50     48  15
36  A17  card 5 (5 vb; n/b/f); offer P31 10 P09 2/2/0 P04 1/3/0: no overtake (P on
         49): 50, 51 skipped; buttons 0, 0; farthest -> P04; 48->51 crosses 50:
         leather                                               49  42  50     51  15
37  P    advance to 52: +3                                     52  45  50     51  15
38  A18  card 6 (6 vb; n/l/f; inc 0); offer P24 6/5/2,4 P22 5/4/2,5 P25 7: no
         overtake: 53, 53 > 52 skipped; largest -> P22; 51->53 crosses 52 (the
         INTERN mark), 53: inc 0; the Automa is first on 53   52  45  50     53  15
39  P    advance to 53: +1; crosses 53: +3                     53  49  50     53  15

At the end: the player has 49 buttons and 50 squares covered (P07 6, P03 6, P02 5, P01 6,
P05 7, P06 6, P11 7, P10 5 = 48, and leather 20 and 32): 31 empty, -62. The Automa has 15
buttons (5 + 1 + 5 + 3 + 1) and 14 patches: P29 3, P32 3, P23 2, P26 2, P27 2, P21 1,
P16 1, P18 0, P13 0, P12 1, P00 0, P17 2, P04 0, P22 2: 10 show buttons, 19 buttons shown.

The tile at each level (whoever had it first, given the level's mark):
  Intern 52 (action 38), Apprentice 44 (34), Fellow 41 (31), Master 38 (27): the claim
  (25) came first -> the player.  Legend 35 (24): before the claim -> the Automa.

Verdicts (player: 49 + 7 × tile − 62; Automa by its level + 7 × tile):
  Intern      player −6, Automa 0                     Automa wins by 6
  Apprentice  player −6, Automa 15                    Automa wins by 21
  Fellow      player −6, Automa 15 + 10 = 25          Automa wins by 31 (the game played)
  Master      player −6, Automa 15 + 19 = 34          Automa wins by 40
  Legend      player −13, Automa 15 + 10 + 19 + 7 = 51  Automa wins by 64
"""

from __future__ import annotations

import json
import subprocess
import sys

from companion.app.verdict_pages import verdict_rows
from companion.engine.actions import ADVANCE, AUTOMA_TURN, Adjust, AutomaTurn, Buy, ClaimBonus
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.game import Game
from companion.engine.gamelog import log_lines
from companion.engine.setup import Side, solo_setup
from companion.engine.verdicts import verdicts
from companion.text.language import words_for
from companion.views import VerdictRow

# fmt: off
CIRCLE = (
    "P07",                  # 1  P buys idx 0
    "P28", "P29", "P20",    # A1 takes P29 (P28 to the back)
    "P03", "P02",           # 3  P buys P03 (idx 1; P20 to the back); 4  P buys P02
    "P01",                  # 5  P buys P01
    "P32", "P17", "P31",    # A2 takes P32
    "P05",                  # 7  P buys P05 (idx 2; P17 P31 to the back)
    "P23", "P09", "P04",    # A3 takes P23
    "P06",                  # 9  P buys P06 (idx 2; P09 P04 to the back)
    "P24", "P22", "P26",    # A4 takes P26 (idx 2; P24 P22 to the back)
    "P11",                  # 11 P buys P11
    "P27", "P25", "P30",    # A5 takes P27
    "P10",                  # 13 P buys P10 (idx 2; P25 P30 to the back)
    "P21", "P14", "P16",    # A6 passes; A7 takes P21; A8 takes P16 (P14 to the back)
    "P18", "P19", "P15",    # A9 takes P18
    "P13",                  # A10 takes P13 (idx 2; P19 P15 to the back)
    "P08", "P12",           # A11 passes; A12 takes P12 (P08 to the back)
    "P00",                  # A14 takes P00
)
# fmt: on
DECK_ORDER = (1, 2, 10, 11, 8, 9, 7, 12, 6, 5, 4, 3)
RESHUFFLE = (12, 8, 1, 3, 2, 4, 5, 6, 7, 9, 10, 11)
BUY_0, BUY_1, BUY_2 = Buy(0), Buy(1), Buy(2)
A, P = AUTOMA_TURN, ADVANCE
ACTIONS = (
    BUY_0, A, BUY_1, BUY_0, BUY_0, A, BUY_2, A, BUY_2, A,  # 1-10
    BUY_0, A, BUY_2, P, A, P, A, P, A, P,  # 11-20
    A, P, AutomaTurn(reshuffle=RESHUFFLE), A, ClaimBonus(Side.PLAYER), P, A, P, A, P,  # 21-30
    A, A, P, A, P, A, P, A, P,  # 31-39
)  # fmt: skip


def played_game() -> Game:
    game = Game(
        solo_setup(
            DIFFICULTY_BY_NAME["fellow"], Deck.NORMAL, seed=1, circle=CIRCLE, deck_order=DECK_ORDER
        )
    )
    for action in ACTIONS:
        game.push(action)
    return game


def test_the_game_as_worked_by_hand():
    game = played_game()
    player, automa = game.sides[Side.PLAYER], game.sides[Side.AUTOMA]
    assert game.is_over and game.finished == (Side.AUTOMA, Side.PLAYER)
    assert (player.buttons, player.covered, player.leather) == (49, 50, 2)
    assert player.patches == ("P07", "P03", "P02", "P01", "P05", "P06", "P11", "P10")
    assert automa.buttons == 15
    assert automa.patches == (
        "P29", "P32", "P23", "P26", "P27", "P21", "P16", "P18", "P13", "P12", "P00", "P17",
        "P04", "P22",
    )  # fmt: skip
    assert game.bonus_holder == Side.PLAYER
    # The game as played, at Fellow: −6 against 25.
    assert game.outcome().scores == {Side.PLAYER: -6, Side.AUTOMA: 25}


def test_each_level_gives_the_tile_to_whoever_had_it_first_and_scores_by_its_rule():
    judged = verdicts(played_game())
    assert judged is not None
    table = {
        verdict.level.name: (
            verdict.bonus_holder,
            verdict.player,
            verdict.automa,
            verdict.outcome.winner,
            verdict.outcome.margin,
        )
        for verdict in judged
    }
    assert table == {
        "intern": (Side.PLAYER, -6, 0, Side.AUTOMA, 6),
        "apprentice": (Side.PLAYER, -6, 15, Side.AUTOMA, 21),
        "fellow": (Side.PLAYER, -6, 25, Side.AUTOMA, 31),
        "master": (Side.PLAYER, -6, 34, Side.AUTOMA, 40),
        "legend": (Side.AUTOMA, -13, 51, Side.AUTOMA, 64),
    }
    assert [verdict.level.name for verdict in judged] == list(table)


def quilt_filled_after_the_automa_took_the_tile(seed: int) -> tuple[Game, int] | None:
    """A Legend game where the player fills the quilt after the Automa took the tile at 35 and
    before it reached 52, or None if this seed's game does not; and the Automa's position
    when the quilt filled.

    The player buys the largest patch that fits (given the buttons for it by corrections,
    the device's Adjust), but leaves one square empty until the Automa is past 35.
    """
    game = Game(solo_setup(DIFFICULTY_BY_NAME["legend"], Deck.NORMAL, seed=seed))
    player, automa = game.sides[Side.PLAYER], game.sides[Side.AUTOMA]
    filled_at = None
    while not game.is_over:
        if game.turn == Side.AUTOMA:
            game.push(AUTOMA_TURN)
            continue
        room = player.empty_squares - (automa.position < 35)
        fitting = [(patch.squares, index) for index, patch in enumerate(game.offer)]
        fitting = [pair for pair in fitting if 0 < pair[0] <= room]
        if not fitting:
            game.push(ADVANCE)
        else:
            index = max(fitting)[1]
            shortfall = game.offer[index].cost - player.buttons
            if shortfall > 0:
                game.push(Adjust(Side.PLAYER, shortfall))
            game.push(Buy(index))
        if filled_at is None and not player.empty_squares:
            filled_at = automa.position
    if filled_at is None or filled_at >= 52 or game.bonus_holder != Side.AUTOMA:
        return None
    return game, filled_at


def test_a_quilt_filled_after_the_automa_took_the_tile_holds_it_at_the_later_marks():
    # docs/RULES.md §3: a full quilt always holds a 7×7 square. Played at Legend, the
    # Automa took the tile at 35; the player filled the quilt with the Automa on
    # `position` (past 35). At every level whose mark the Automa had not reached by then,
    # the full quilt came first and the tile is the player's, and it scores 7 more.
    found = (quilt_filled_after_the_automa_took_the_tile(seed) for seed in range(40))
    game, position = next(filter(None, found))
    assert 35 <= position < 52
    judged = verdicts(game)
    assert judged is not None
    for verdict in judged:
        mark = verdict.level.bonus_mark
        expected = Side.PLAYER if position < mark else Side.AUTOMA
        assert verdict.bonus_holder == expected, verdict.level.name
        # The player's 7 points follow the tile: buttons, and no square empty.
        assert verdict.player == game.sides[Side.PLAYER].buttons + 7 * (expected == Side.PLAYER)


def test_replay_json_prints_the_verdicts_worked_by_hand(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text("\n".join(log_lines(played_game())) + "\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(log), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    printed = json.loads(result.stdout)["verdicts"]
    assert {level: (v["player"], v["automa"], v["winner"]) for level, v in printed.items()} == {
        "intern": (-6, 0, "automa"),
        "apprentice": (-6, 15, "automa"),
        "fellow": (-6, 25, "automa"),
        "master": (-6, 34, "automa"),
        "legend": (-13, 51, "automa"),
    }
    assert [printed[level]["bonus"] for level in printed] == ["player"] * 4 + ["automa"]
    assert [printed[level]["margin"] for level in printed] == [6, 21, 31, 40, 64]


ROWS_SHOWN = (
    VerdictRow("Intern", (-6, 0), 0, won=False, margin=6, tie=False, played=False),
    VerdictRow("Apprentice", (-6, 15), 0, won=False, margin=21, tie=False, played=False),
    VerdictRow("Fellow", (-6, 25), 0, won=False, margin=31, tie=False, played=True),
    VerdictRow("Master", (-6, 34), 0, won=False, margin=40, tie=False, played=False),
    VerdictRow("Legend", (-13, 51), 1, won=False, margin=64, tie=False, played=False),
)
"""The table above, as the screen shows it in English: Fellow played, the tile the
player's (0) but against Legend (1), lost everywhere by the points between the scores."""


def test_the_end_screen_rows_worked_by_hand():
    game = played_game()
    assert verdict_rows(verdicts(game), game.setup.difficulty, words_for("en")) == ROWS_SHOWN
