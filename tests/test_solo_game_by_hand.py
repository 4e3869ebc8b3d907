"""One whole solo game against the Automa, every number worked out by hand from docs/RULES.md.

Legend difficulty (docs/RULES.md §4: bonus mark 53 − 18 = 35; the Automa scores its buttons
+ 1 per patch showing buttons + 1 per button shown + 7 for the bonus tile), normal deck.

Nothing below was copied from the program: the comments are the paper game, and the
assertions check the engine against it.

Notation: patch "Pnn c/t/b,s" = cost / time / buttons, squares (docs/RULES.md §2).
Marks (docs/RULES.md §1): income 5 11 17 23 29 35 41 47 53, leather 20 26 32 44 50; a
move from `s` to `e` crosses a mark `m` when s < m <= e. Offer = the three patches
clockwise of the neutral token; taking index i makes the circle circle[i+1:] + circle[:i].

The circle (all 33, P00 last) is laid out so the offers come in this order:

    P06 | P20 P23 P30 | P17 P16 | P28 P15 | P14 P19 | P24 | P29 | P32 | P31 | P22 P09 P25
    | P05 | P11 P04 P27 | P13 | the rest ... P00

Deck order (top first): 1, 4 set aside (start of the discard pile); then the draw pile
5 3 7 8 12 9 10 11 6 2 (ten cards: Automa turns A1–A10). A10 empties the draw pile, so
at its discard step (§4 step 5) the whole discard pile — all 12 cards — is reshuffled;
this test gives that new order explicitly: 4 7 1 2 3 5 6 8 9 10 11 12 (A11 draws 4,
A12 draws 7).

Running table (P = player, A = Automa; positions, buttons after the action):

 #  who  action / card                                         P pos btn   A pos btn
 1  P    buy P06 1/5/1,6 (idx 0): 5-1=4; 0->5 crosses 5: +1     5     5     0     0
 2  A1   card 5 (5 vb; no overtake/most buttons/farthest; inc 1)
         offer P20 4/6/2 P23 5/5/2 P30 10/3/2; affordable 0,1 (P30 costs 10);
         no overtake (player on 5): P20 0+6=6>5 out, P23 0+5=5<=5 kept -> P23
         0->5 lands on the player, goes on top; crosses 5: +1      5     5     5     1
 3  A2   (tie on 5, Automa arrived last: it moves again)
         card 3 (3 vb; no overtake/largest/farthest; inc 3)
         offer P30 10/3/2 P17 3/6/2,6 P16 3/4/1,5; affordable 1,2;
         no overtake: 5+6=11>5, 5+4=9>5 -> keeps nothing, skipped;
         largest: 6 vs 5 squares -> P17; 5->11 crosses 11: +3      5     5    11     4
 4  P    advance to 12: +7; crosses 11: +1 (P06)                12    13    11     4
 5  A3   card 7 (7 vb; most buttons/largest/farthest; inc 0)
         offer P16 3/4/1 P28 7/6/3 P15 3/3/1; all affordable;
         most buttons 1,3,1 -> P28; 11->17 crosses 17: inc 0       12    13    17     4
 6  P    advance to 18: +6; crosses 17: +1                       18    20    17     4
 7  A4   card 8 (8 vb; largest/most buttons/farthest; inc 0)
         offer P15 3/3/1,4 P14 3/2/1,4 P19 4/2/1,4; all affordable;
         largest: 4,4,4 keeps all; most buttons 1,1,1 keeps all;
         farthest -> index 2 P19; 17->19                          18    20    19     4
 8  P    buy P24 6/5/2,4 (idx 0): 20-6=14, income now 1+2=3;
         18->23 crosses 20 (leather: player) and 23: +3            23    17    19     4
 9  A5   card 12 (0 vb; inc 5); offer P29 P32 P31, none costs 0:
         pass to 23+1=24, no buttons for the 5 squares;
         crosses 20 (leather already gone) and 23: +5              23    17    24     9
10  P    advance to 25: +2                                       25    19    24     9
11  A6   card 9 (8 vb; most buttons/no overtake/farthest; inc 0)
         offer P29 8/6/3 P32 10/5/3 P31 10/4/3; only P29 affordable -> P29;
         24->30 crosses 26 (leather: Automa), 29: inc 0            25    19    30     9
12  P    advance to 31: +6; crosses 26 (gone), 29: +3            31    28    30     9
13  A7   card 10 (10 vb; most buttons/largest/farthest; inc 0)
         offer P32 10/5/3,6 P31 10/4/3,5 P22 5/4/2,5; all affordable;
         most buttons 3,3,2 keeps 0,1; largest 6 vs 5 -> P32;
         30->35 crosses 32 (leather: Automa), 35: inc 0, and its
         7x7 mark 35: bonus tile to the Automa                     31    28    35     9
14  P    advance to 36: +5; crosses 32 (gone), 35: +3            36    36    35     9
15  A8   card 11 (10 vb; most buttons/largest/farthest; inc 0)
         offer P31 10/4/3 P22 5/4/2 P09 2/2/0; all affordable;
         most buttons 3,2,0 -> P31; 35->39 (35 not crossed again) 36    36    39     9
16  P    advance to 40: +4                                       40    40    39     9
17  A9   card 6 (6 vb; no overtake/largest/farthest; inc 0)
         offer P22 5/4/2,5 P09 2/2/0,4 P25 7/1/1; affordable 0,1;
         no overtake (player on 40): 43>40, 41>40 -> skipped;
         largest 5 vs 4 -> P22; 39->43 crosses 41: inc 0          40    40    43     9
18  P    advance to 44: +4; crosses 41: +3, 44 (leather: player) 44    47    43     9
19  A10  card 2 (2 vb; no overtake/most buttons/farthest; inc 4)
         offer P09 2/2/0 P25 7/1/1 P05 1/4/1; affordable 0,2;
         no overtake (player on 44): 45>44, 47>44 -> skipped;
         most buttons 0 vs 1 -> P05; 43->47 crosses 44 (gone), 47: +4;
         draw pile empty -> reshuffle all 12 (given order)         44    47    47    13
20  P    advance to 48: +4; crosses 47: +3                       48    54    47    13
21  A11  card 4 (first of the new pile; 4 vb; no overtake/largest/farthest; inc 1)
         offer P11 2/3/0,7 P04 1/3/0,3 P27 7/4/2; affordable 0,1;
         no overtake (player on 48): 50>48 both -> skipped;
         largest 7 vs 3 -> P11; 47->50 crosses 50 (leather: Automa) 48  54    50    13
22  P    advance to 51: +3; 50 already gone                      51    57    50    13
23  A12  card 7 (7 vb; most buttons/largest/farthest; inc 0)
         offer P04 1/3/0 P27 7/4/2 P13 3/1/0; all affordable;
         most buttons 0,2,0 -> P27; 50+4=54 cut to 53; crosses 53: inc 0;
         the Automa is the first on 53                             51    57    53    13
24  P    advance to min(53, 54)=53: +2; crosses 53: +3           53    62    53    13

Final score (§3, §4):
  player: 62 buttons, no bonus, covered P06 6 + P24 4 + 2 leather = 12 squares,
          empty 81-12 = 69 -> 62 - 2*69 = -76
  Automa (legend): 13 buttons; patches P23 2, P17 2, P28 3, P19 1, P29 3, P32 3, P31 3,
          P22 2, P05 1, P11 0, P27 2 -> 10 show buttons, 22 buttons shown; bonus 7
          -> 13 + 10 + 22 + 7 = 52.  The Automa wins, 52 to -76.
"""

from __future__ import annotations

from companion.engine.actions import (
    Advance,
    AutomaTurn,
    Buy,
    MoveNeutralToken,
    MoveToken,
    RevealCard,
    TakeBonus,
    TakeButtons,
    TakeLeather,
    TakePatch,
)
from companion.engine.automa import DIFFICULTY_BY_NAME, AutomaDecision, Deck, Filter, FilterStep
from companion.engine.game import Game
from companion.engine.setup import solo_setup

N, L, B, F = Filter.NO_OVERTAKE, Filter.LARGEST, Filter.MOST_BUTTONS, Filter.FARTHEST

# fmt: off
CIRCLE = (
    "P06",                      # 1  player buys index 0
    "P20", "P23", "P30",        # A1 offer (takes P23)
    "P17", "P16",               # A2 offer P30 P17 P16 (takes P17)
    "P28", "P15",               # A3 offer P16 P28 P15 (takes P28)
    "P14", "P19",               # A4 offer P15 P14 P19 (takes P19)
    "P24",                      # 8  player buys index 0
    "P29", "P32", "P31",        # A5 offer (passes), A6 offer (takes P29)
    "P22",                      # A7 offer P32 P31 P22 (takes P32); A8 P31 P22 P09 (P31)
    "P09", "P25",               # A9 offer P22 P09 P25 (takes P22)
    "P05",                      # A10 offer P09 P25 P05 (takes P05)
    "P11", "P04", "P27",        # A11 offer (takes P11)
    "P13",                      # A12 offer P04 P27 P13 (takes P27)
    "P01", "P02", "P03", "P07", "P08", "P10", "P12", "P18", "P21", "P26",
    "P00",
)
# fmt: on
DECK_ORDER = (1, 4, 5, 3, 7, 8, 12, 9, 10, 11, 6, 2)
RESHUFFLE = (4, 7, 1, 2, 3, 5, 6, 8, 9, 10, 11, 12)


def decision_of(steps) -> AutomaDecision:
    reveals = [step for step in steps if isinstance(step, RevealCard)]
    assert len(reveals) == 1
    return reveals[0].decision


def check(game: Game, player: tuple[int, int], automa: tuple[int, int], turn: str | None):
    """Positions and buttons of both sides, and whose turn it is next."""
    p, a = game.sides["player"], game.sides["automa"]
    assert (p.position, p.buttons) == player
    assert (a.position, a.buttons) == automa
    assert game.turn == turn


def test_solo_game_by_hand():
    setup = solo_setup(
        DIFFICULTY_BY_NAME["legend"], Deck.NORMAL, circle=CIRCLE, deck_order=DECK_ORDER, seed=1
    )
    game = Game(setup)
    assert len(CIRCLE) == 33 and CIRCLE[-1] == "P00"
    assert game.bonus_mark == 35  # legend: 53 - 18
    assert game.discard_pile == (1, 4)
    assert game.draw_pile == (5, 3, 7, 8, 12, 9, 10, 11, 6, 2)
    # Both on 0, the player on top and 5 buttons; the Automa has none.
    check(game, player=(0, 5), automa=(0, 0), turn="player")

    # 1. Player buys P06 (1/5/1, 6 sq): 5 - 1 = 4; 0 -> 5 crosses 5: income = 1 button
    #    on its quilt (P06 is already on it) -> 5.
    steps = game.push(Buy(0))
    assert TakeButtons("player", 1, "income", 5) in steps
    check(game, player=(5, 5), automa=(0, 0), turn="automa")
    assert game.sides["player"].income == 1
    assert game.offer[0].id == "P20"

    # 2. A1: card 5 (5 vb; no overtake / most buttons / farthest; income 1).
    #    Offer P20 4/6/2, P23 5/5/2, P30 10/3/2 -> affordable 0, 1.
    #    No overtake, player on 5: P20 0+6 = 6 > 5 out; P23 0+5 = 5 <= 5 (landing on the
    #    player is not overtaking) kept -> P23 alone: NO OVERTAKE DECIDES.
    #    0 -> 5 (on top of the player), crosses 5: card income 1.
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 5
    assert decision.affordable == (0, 1)
    assert decision.steps == (FilterStep(N, (1,), False),)
    assert decision.chosen == 1
    assert game.sides["automa"].patches[-1] == "P23"
    assert MoveToken("automa", 0, 5, True) in steps
    assert TakeButtons("automa", 1, "income", 5) in steps
    # Tie on 5: the Automa arrived last, it is on top, so it moves again.
    check(game, player=(5, 5), automa=(5, 1), turn="automa")

    # 3. A2: card 3 (3 vb; no overtake / largest / farthest; income 3).
    #    Offer P30 10/3/2 (too dear), P17 3/6/2 6 sq, P16 3/4/1 5 sq -> affordable 1, 2.
    #    No overtake, both on 5: 5+6 = 11 > 5, 5+4 = 9 > 5 -> KEEPS NOTHING, SKIPPED.
    #    Largest: 6 vs 5 squares -> P17: LARGEST DECIDES. 5 -> 11 crosses 11: +3.
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 3
    assert decision.affordable == (1, 2)
    assert decision.steps == (FilterStep(N, (1, 2), True), FilterStep(L, (1,), False))
    assert decision.chosen == 1
    assert game.sides["automa"].patches[-1] == "P17"
    assert TakeButtons("automa", 3, "income", 11) in steps
    check(game, player=(5, 5), automa=(11, 4), turn="player")

    # 4. Player advances to 11 + 1 = 12: +7 -> 12; crosses 11: +1 (P06) -> 13.
    steps = game.push(Advance())
    assert TakeButtons("player", 7, "advance") in steps
    assert TakeButtons("player", 1, "income", 11) in steps
    check(game, player=(12, 13), automa=(11, 4), turn="automa")

    # 5. A3: card 7 (7 vb; most buttons / largest / farthest; income 0).
    #    Offer P16 3/4/1, P28 7/6/3, P15 3/3/1 -> all affordable.
    #    Most buttons 1, 3, 1 -> P28: MOST BUTTONS DECIDES. 11 -> 17, crosses 17 but the
    #    card's income is 0: no buttons.
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 7
    assert decision.affordable == (0, 1, 2)
    assert decision.steps == (FilterStep(B, (1,), False),)
    assert decision.chosen == 1
    assert game.sides["automa"].patches[-1] == "P28"
    assert not [s for s in steps if isinstance(s, TakeButtons)]
    check(game, player=(12, 13), automa=(17, 4), turn="player")

    # 6. Player advances to 18: +6 -> 19; crosses 17: +1 -> 20.
    game.push(Advance())
    check(game, player=(18, 20), automa=(17, 4), turn="automa")

    # 7. A4: card 8 (8 vb; largest / most buttons / farthest; income 0).
    #    Offer P15 3/3/1 4 sq, P14 3/2/1 4 sq, P19 4/2/1 4 sq -> all affordable.
    #    Largest: 4, 4, 4 keeps all three; most buttons: 1, 1, 1 keeps all three;
    #    FARTHEST DECIDES among the ties: index 2, P19. 17 -> 19, no mark.
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 8
    assert decision.affordable == (0, 1, 2)
    assert decision.steps == (
        FilterStep(L, (0, 1, 2), False),
        FilterStep(B, (0, 1, 2), False),
        FilterStep(F, (2,), False),
    )
    assert decision.chosen == 2
    assert game.sides["automa"].patches[-1] == "P19"
    check(game, player=(18, 20), automa=(19, 4), turn="player")
    assert game.leather_left == (20, 26, 32, 44, 50)

    # 8. Player buys P24 (6/5/2, 4 sq): 20 - 6 = 14; income now 1 + 2 = 3.
    #    18 -> 23 crosses 20: LEATHER PATCH TAKEN BY THE PLAYER; crosses 23: +3 -> 17.
    steps = game.push(Buy(0))
    assert TakeLeather("player", 20) in steps
    assert TakeButtons("player", 3, "income", 23) in steps
    check(game, player=(23, 17), automa=(19, 4), turn="automa")
    assert game.sides["player"].leather == 1
    assert game.sides["player"].covered == 6 + 4 + 1
    assert game.leather_left == (26, 32, 44, 50)

    # 9. A5: card 12 (0 vb; no filters; income 5). Offer P29 8, P32 10, P31 10: none
    #    costs 0 -> PASS: to the square in front of the player, 23 + 1 = 24, no buttons
    #    for the 5 squares moved; 19 -> 24 crosses 20 (leather already gone) and 23:
    #    card income 5 -> 4 + 5 = 9. The circle does not move.
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 12
    assert decision.affordable == ()
    assert decision.steps == ()
    assert decision.chosen is None
    assert steps[1:] == (
        MoveToken("automa", 19, 24, False),
        TakeButtons("automa", 5, "income", 23),
    )
    assert game.sides["automa"].patches[-1] == "P19"  # nothing new taken
    assert [p.id for p in game.offer] == ["P29", "P32", "P31"]
    check(game, player=(23, 17), automa=(24, 9), turn="player")

    # 10. Player advances to 25: +2 -> 19; no mark.
    game.push(Advance())
    check(game, player=(25, 19), automa=(24, 9), turn="automa")

    # 11. A6: card 9 (8 vb; most buttons / no overtake / farthest; income 0).
    #     Offer P29 8/6/3, P32 10, P31 10 -> only P29 affordable: taken, no filter used.
    #     24 -> 30 crosses 26: LEATHER PATCH TAKEN BY THE AUTOMA; crosses 29: income 0.
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 9
    assert decision.affordable == (0,)
    assert decision.steps == ()
    assert decision.chosen == 0
    assert game.sides["automa"].patches[-1] == "P29"
    assert TakeLeather("automa", 26) in steps
    check(game, player=(25, 19), automa=(30, 9), turn="player")
    assert game.sides["automa"].leather == 1
    assert game.leather_left == (32, 44, 50)

    # 12. Player advances to 31: +6 -> 25; crosses 26 (gone) and 29: +3 -> 28.
    steps = game.push(Advance())
    assert not [s for s in steps if isinstance(s, TakeLeather)]
    check(game, player=(31, 28), automa=(30, 9), turn="automa")

    # 13. A7: card 10 (10 vb; most buttons / largest / farthest; income 0).
    #     Offer P32 10/5/3 6 sq, P31 10/4/3 5 sq, P22 5/4/2 5 sq -> all affordable.
    #     Most buttons 3, 3, 2 keeps 0, 1; largest 6 vs 5 -> P32.
    #     30 -> 35 crosses 32: leather to the Automa; 35: income 0; and 35 is the legend
    #     7x7 mark: THE AUTOMA TAKES THE BONUS TILE.
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 10
    assert decision.affordable == (0, 1, 2)
    assert decision.steps == (FilterStep(B, (0, 1), False), FilterStep(L, (0,), False))
    assert decision.chosen == 0
    assert game.sides["automa"].patches[-1] == "P32"
    assert steps[1:] == (
        TakePatch("automa", "P32", 0, 0, "with buttons"),
        MoveNeutralToken("P32"),
        MoveToken("automa", 30, 35, False),
        TakeLeather("automa", 32),
        TakeBonus("automa"),
    )
    assert game.bonus_holder == "automa"
    assert game.sides["automa"].leather == 2
    check(game, player=(31, 28), automa=(35, 9), turn="player")

    # 14. Player advances to 36: +5 -> 33; crosses 32 (gone) and 35: +3 -> 36.
    game.push(Advance())
    check(game, player=(36, 36), automa=(35, 9), turn="automa")

    # 15. A8: card 11 (10 vb; most buttons / largest / farthest; income 0).
    #     Offer P31 10/4/3, P22 5/4/2, P09 2/2/0 -> all affordable; most buttons -> P31.
    #     35 -> 39: 35 is not crossed again (35 < 35 is false).
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 11
    assert decision.affordable == (0, 1, 2)
    assert decision.steps == (FilterStep(B, (0,), False),)
    assert decision.chosen == 0
    assert game.sides["automa"].patches[-1] == "P31"
    assert not [s for s in steps if isinstance(s, TakeBonus)]
    check(game, player=(36, 36), automa=(39, 9), turn="player")

    # 16. Player advances to 40: +4 -> 40; no mark.
    game.push(Advance())
    check(game, player=(40, 40), automa=(39, 9), turn="automa")

    # 17. A9: card 6 (6 vb; no overtake / largest / farthest; income 0).
    #     Offer P22 5/4/2 5 sq, P09 2/2/0 4 sq, P25 7 (too dear) -> affordable 0, 1.
    #     No overtake (player on 40): 39+4 = 43, 39+2 = 41, both > 40 -> skipped.
    #     Largest 5 vs 4 -> P22. 39 -> 43 crosses 41: income 0.
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 6
    assert decision.affordable == (0, 1)
    assert decision.steps == (FilterStep(N, (0, 1), True), FilterStep(L, (0,), False))
    assert decision.chosen == 0
    assert game.sides["automa"].patches[-1] == "P22"
    check(game, player=(40, 40), automa=(43, 9), turn="player")

    # 18. Player advances to 44: +4 -> 44; crosses 41: +3 -> 47; crosses 44: leather
    #     patch to the player.
    steps = game.push(Advance())
    assert TakeLeather("player", 44) in steps
    check(game, player=(44, 47), automa=(43, 9), turn="automa")
    assert game.sides["player"].leather == 2
    assert game.leather_left == (50,)

    # 19. A10: card 2 (2 vb; no overtake / most buttons / farthest; income 4), the last
    #     card of the draw pile. Offer P09 2/2/0, P25 7 (too dear), P05 1/4/1 ->
    #     affordable 0, 2. No overtake (player on 44): 45 > 44, 47 > 44 -> skipped.
    #     Most buttons 0 vs 1 -> P05. 43 -> 47 crosses 44 (gone) and 47: CARD INCOME 4
    #     -> 13. Discard: the draw pile is empty, so the whole discard pile (all 12
    #     cards) is RESHUFFLED, here into the order given with the action.
    assert game.draw_pile == (2,)
    steps = game.push(AutomaTurn(reshuffle=RESHUFFLE))
    decision = decision_of(steps)
    assert decision.card.number == 2
    assert decision.affordable == (0, 2)
    assert decision.steps == (FilterStep(N, (0, 2), True), FilterStep(B, (2,), False))
    assert decision.chosen == 2
    assert game.sides["automa"].patches[-1] == "P05"
    assert TakeButtons("automa", 4, "income", 47) in steps
    assert not [s for s in steps if isinstance(s, TakeLeather)]
    assert game.draw_pile == RESHUFFLE
    assert game.discard_pile == ()
    assert game.reshuffles == 1
    assert game.move_stack[-1] == AutomaTurn(reshuffle=RESHUFFLE)
    check(game, player=(44, 47), automa=(47, 13), turn="player")

    # 20. Player advances to 48: +4 -> 51; crosses 47: +3 -> 54.
    game.push(Advance())
    check(game, player=(48, 54), automa=(47, 13), turn="automa")

    # 21. A11: card 4, the top of the reshuffled pile (4 vb; no overtake / largest /
    #     farthest; income 1). Offer P11 2/3/0 7 sq, P04 1/3/0 3 sq, P27 7 (too dear) ->
    #     affordable 0, 1. No overtake (player on 48): 50 > 48 for both -> skipped.
    #     Largest 7 vs 3 -> P11. 47 -> 50 crosses 50: leather to the Automa; no income mark.
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 4
    assert decision.affordable == (0, 1)
    assert decision.steps == (FilterStep(N, (0, 1), True), FilterStep(L, (0,), False))
    assert decision.chosen == 0
    assert game.sides["automa"].patches[-1] == "P11"
    assert TakeLeather("automa", 50) in steps
    assert game.sides["automa"].leather == 3
    assert game.leather_left == ()
    assert game.draw_pile == RESHUFFLE[1:]
    check(game, player=(48, 54), automa=(50, 13), turn="player")

    # 22. Player advances to 51: +3 -> 57; 50 already taken.
    game.push(Advance())
    check(game, player=(51, 57), automa=(50, 13), turn="automa")

    # 23. A12: card 7 (7 vb; most buttons / largest / farthest; income 0).
    #     Offer P04 1/3/0, P27 7/4/2, P13 3/1/0 -> all affordable; most buttons 0, 2, 0
    #     -> P27. 50 + 4 = 54 is cut to 53; crosses 53: income 0. First on 53.
    steps = game.push(AutomaTurn())
    decision = decision_of(steps)
    assert decision.card.number == 7
    assert decision.affordable == (0, 1, 2)
    assert decision.steps == (FilterStep(B, (1,), False),)
    assert decision.chosen == 1
    assert game.sides["automa"].patches[-1] == "P27"
    assert MoveToken("automa", 50, 53, False) in steps
    check(game, player=(51, 57), automa=(53, 13), turn="player")
    assert game.finished == ("automa",)

    # 24. Player advances to min(53, 53 + 1) = 53: +2 -> 59; crosses 53: +3 -> 62.
    game.push(Advance())
    check(game, player=(53, 62), automa=(53, 13), turn=None)
    assert game.is_over
    assert game.finished == ("automa", "player")
    assert len(game.move_stack) == 24
    assert sum(isinstance(a, AutomaTurn) for a in game.move_stack) == 12

    # Final score.
    player, automa = game.sides["player"], game.sides["automa"]
    assert player.patches == ("P06", "P24")
    assert player.covered == 6 + 4 + 2  # two patches and two leather patches
    assert automa.patches == (
        "P23", "P17", "P28", "P19", "P29", "P32", "P31", "P22", "P05", "P11", "P27",
    )  # fmt: skip
    # Player: 62 buttons + 0 bonus - 2 x (81 - 12) empty = 62 - 138 = -76.
    assert game.score("player") == -76
    # Automa, legend: 13 buttons + 10 patches showing buttons (all but P11)
    # + 22 buttons shown (2+2+3+1+3+3+3+2+1+0+2) + 7 bonus tile = 52.
    assert game.score("automa") == 52
    outcome = game.outcome()
    assert outcome is not None
    assert outcome.scores == {"player": -76, "automa": 52}
    assert outcome.winner == "automa"
    assert outcome.tie is False
