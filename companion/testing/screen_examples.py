"""Realistic views of every screen: the golden images of the tests are rendered from these.

The wording follows `companion.app.wording` (steps, Automa summaries) and
`companion.app.widgets` (hints), so the goldens show what a player will see.
"""

from __future__ import annotations

import dataclasses

from companion.engine.actions import ADVANCE, Buy
from companion.text.font import ARROW_TO, BUTTON, CHECK
from companion.text.language import LANGUAGE_NAMES
from companion.views import (
    AutomaView,
    BoardView,
    DealView,
    InputTestView,
    MenuItem,
    MenuView,
    NumberView,
    OpenMenu,
    PatchView,
    PickPatchView,
    QuestionView,
    ScoreColumn,
    ScoreView,
    ScreenKind,
    SideView,
    StepView,
    TestPatternView,
    TextView,
    TurnLine,
    TurnView,
    VerdictRow,
    VerdictsView,
    View,
)

AUTOMA_TAKES = AutomaView(
    board=BoardView(
        (SideView("You", 12, 34), SideView("Automa", 15, 35, holds_bonus=True, short_label="A")),
        mover=1,
        leather=(44, 50),
        bonus_mark=None,
        offer=(PatchView("P30"), PatchView("P02"), PatchView("P12")),
    ),
    lines=(
        f"Card 18, 4{BUTTON}: takes P16 (3rd)",
        f"Pile with {BUTTON}; neutral there",
        f"Token 31 {ARROW_TO} 35, +1{BUTTON} income",
        "no overtake: skipped",
        "largest: 2 left",
        "farthest: 1 left",
        "3 affordable",
        f"Card 18: 4{BUTTON}, income 1{BUTTON}",
    ),
    actions=3,
    filters=3,
)
"""The Automa's turn taking a patch: its card's three filters under its steps."""


STEP = StepView(
    board=BoardView(
        (SideView("You", 12, 25), SideView("Automa", 9, 21, short_label="A")),
        mover=0,
        leather=(26, 32, 44, 50),
        bonus_mark=41,
        offer=(PatchView("P30"), PatchView("P02"), PatchView("P12")),
    ),
    lines=(
        f"{CHECK} Buy P17: pay 3{BUTTON}, to 25",
        "Neutral there",
        f"Income at 23: take 5{BUTTON}",
    ),
    number=1,
    total=2,
)
"""A buy's card: the ticked line, the neutral token, the income it crossed."""


PICK_PATCH = PickPatchView(
    number=7,
    total=32,
    cost=2,
    patches=tuple(PatchView(f"P{n:02}") for n in range(7, 13)),
    picking=False,
    selected=2,
    choices=11,
    back_label="Undo place 6",
    title="Circle place 7/32",
    hint="turn to its cost, press",
)
"""Entering the circle at place 7: the cursor on cost 2, its six patches beside it."""
PICK_PATCH_CHOSEN = PickPatchView(
    number=7,
    total=32,
    cost=10,
    patches=(PatchView("P30"), PatchView("P31"), PatchView("P32")),
    picking=True,
    selected=1,
    choices=4,
    back_label="Other cost",
    title="Circle place 7/32",
    hint="turn to it, press",
)
"""Cost 10 chosen: the cursor on its second patch."""


EXAMPLES: dict[str, View] = {
    "menu": MenuView(
        title="Patchwork",
        note="A solo game is in progress",
        items=(
            MenuItem("Continue", "turn 14"),
            MenuItem("New solo game"),
            MenuItem("New 2-player game"),
            MenuItem("Rules"),
            MenuItem("Settings"),
        ),
        selected=0,
    ),
    "menu_scrolled": MenuView(
        title="Settings",
        items=(
            MenuItem("Difficulty", "fellow"),
            MenuItem("Deck", "tactical"),
            MenuItem("Start player", "you"),
            MenuItem("Brightness", "3"),
            MenuItem("Screen off after", "5 min"),
            MenuItem("Bonus reminder", "on"),
            MenuItem("Input test"),
            MenuItem("Statistics"),
            MenuItem("About", "v0.1"),
        ),
        selected=4,
    ),
    # The languages, each in itself, the title in the one under the cursor.
    "language": MenuView(
        title="Jazyk",
        items=tuple(MenuItem(name) for name in LANGUAGE_NAMES.values()),
        selected=list(LANGUAGE_NAMES).index("cs"),
        kind=ScreenKind.LANGUAGE,
    ),
    "deal": DealView(
        patches=tuple(
            PatchView(patch) for patch in ("P17", "P32", "P25", "P01", "P13", "P29", "P04", "P20")
        ),
        first=25,
        total=32,
    ),
    "deal_first": DealView(
        patches=tuple(
            PatchView(patch) for patch in ("P05", "P11", "P08", "P24", "P30", "P19", "P03", "P14")
        ),
        first=1,
        total=32,
        hint="after P00, row by row",
    ),
    "pick_patch": PICK_PATCH,
    "pick_patch_chosen": PICK_PATCH_CHOSEN,
    # The patches' last choice goes back to the costs.
    "pick_patch_other_cost": dataclasses.replace(
        PICK_PATCH_CHOSEN, selected=3, hint="press: other cost"
    ),
    # The costs' last choice undoes the last place.
    "pick_patch_back": dataclasses.replace(
        PICK_PATCH, cost=None, patches=(), selected=10, hint="press: undo place 6"
    ),
    "turn_solo": TurnView(
        board=BoardView(
            (SideView("You", 12, 19), SideView("Automa", 9, 21, short_label="A")),
            mover=0,
            leather=(26, 32, 44, 50),
            bonus_mark=41,
            offer=(
                PatchView("P17"),
                PatchView("P24"),
                PatchView("P10"),
            ),
        ),
        choices=(Buy(0), Buy(1), Buy(2), ADVANCE, OpenMenu()),
        selected=1,
        lines=(
            TurnLine("press", f"Buy P17: pay 3{BUTTON}, to 25"),
            TurnLine("press", f"Buy P24: pay 6{BUTTON}, to 24"),
            TurnLine("press", f"Buy P10: pay 2{BUTTON}, to 21"),
            TurnLine("press", f"Advance to 22, +3{BUTTON}"),
            TurnLine("press", "Menu"),
        ),
        # 12 buttons, 20 squares covered: 12 - 2 x 61 = -110; the Automa at Fellow:
        # 9 buttons and 2 patches showing buttons, 11.
        scores=(f"-110 pts, income 3{BUTTON}", "11 pts"),
    ),
    "turn_again": TurnView(
        board=BoardView(
            # The Intern's 7x7 mark is on 52, beside the end bar.
            (SideView("You", 8, 21), SideView("Automa", 9, 21, short_label="A")),
            mover=0,
            leather=(26, 32, 44, 50),
            bonus_mark=52,
            offer=(
                PatchView("P24"),
                PatchView("P10"),
                PatchView("P30", affordable=False),
            ),
        ),
        choices=(Buy(0), Buy(1), Buy(2), ADVANCE, OpenMenu()),
        selected=3,
        lines=(
            TurnLine("press", f"Buy P24: pay 6{BUTTON}, to 26"),
            TurnLine("press", f"Buy P10: pay 2{BUTTON}, to 23"),
            TurnLine("refused", f"P30: can't afford, 10{BUTTON} > 8{BUTTON}"),
            TurnLine("press", f"Advance to 22, +1{BUTTON}"),
            TurnLine("press", "Menu"),
        ),
        banner="Your turn again (on top)",
        scores=(f"-120 pts, income 3{BUTTON}", "0 pts"),
    ),
    "turn_tactical": TurnView(
        board=BoardView(
            (SideView("You", 4, 7), SideView("Automa", 3, 10, short_label="A")),
            mover=0,
            leather=(20, 26, 32, 44, 50),
            bonus_mark=35,
            offer=(
                PatchView("P32", affordable=False),
                PatchView("P04"),
                PatchView("P20"),
            ),
            next_card=f"next 8{BUTTON}",
            next_card_short=f"{ARROW_TO}8{BUTTON}",
        ),
        choices=(Buy(0), Buy(1), Buy(2), ADVANCE, OpenMenu()),
        selected=0,
        lines=(
            TurnLine("refused", f"P32: can't afford, 10{BUTTON} > 4{BUTTON}"),
            TurnLine("press", f"Buy P04: pay 1{BUTTON}, to 10"),
            TurnLine("press", f"Buy P20: pay 4{BUTTON}, to 13"),
            TurnLine("press", f"Advance to 11, +4{BUTTON}"),
            TurnLine("press", "Menu"),
        ),
        scores=(f"-150 pts, income 1{BUTTON}", "7 pts"),
    ),
    "turn_two_player": TurnView(
        board=BoardView(
            (
                SideView("Player 1", 7, 30, short_label="Pl.1"),
                SideView("Player 2", 11, 33, holds_bonus=True, short_label="Pl.2"),
            ),
            mover=0,
            leather=(32, 44, 50),
            bonus_mark=None,
            offer=(
                PatchView("P05"),
                PatchView("P31", affordable=False),
                PatchView("P21"),
            ),
        ),
        choices=(Buy(0), Buy(1), Buy(2), ADVANCE, OpenMenu()),
        selected=3,
        lines=(
            TurnLine("press", f"Buy P05: pay 1{BUTTON}, to 34"),
            TurnLine("refused", f"P31: can't afford, 10{BUTTON} > 7{BUTTON}"),
            TurnLine("press", f"Buy P21: pay 5{BUTTON}, to 33"),
            TurnLine("press", f"Advance to 34, +4{BUTTON}"),
            TurnLine("press", "Menu"),
        ),
        scores=(f"-47 pts, income 5{BUTTON}", "-22 pts"),
    ),
    "step": STEP,
    # The income said short beside the neutral token's line: a row fewer, the offer whole.
    "step_aside": dataclasses.replace(STEP, aside=f"+5{BUTTON} income"),
    "automa_take": AUTOMA_TAKES,
    # Turning the knob scrolls the same turn to the rest of why it chose.
    "automa_why": dataclasses.replace(AUTOMA_TAKES, first_row=1),
    # A leather patch and the 7x7 tile in one turn (31 -> 35 at Legend, whose mark is 35)
    # share a row: seven rows, all three filters on the first screen, the last beside ▼.
    "automa_extras": dataclasses.replace(
        AUTOMA_TAKES,
        lines=(
            *AUTOMA_TAKES.lines[:3],
            "Leather 32, 7x7 tile to Automa",
            *AUTOMA_TAKES.lines[3:],
        ),
        actions=4,
    ),
    "automa_pass": AutomaView(
        board=BoardView(
            (SideView("You", 20, 25), SideView("Automa", 14, 26, short_label="A")),
            mover=1,
            leather=(32, 44, 50),
            bonus_mark=41,
            offer=(PatchView("P30"), PatchView("P02"), PatchView("P12")),
        ),
        lines=(
            f"Card 12, 0{BUTTON}: passes",
            f"Token 21 {ARROW_TO} 26, +5{BUTTON} income",
            "Leather 26 to Automa's pile",
            f"Nothing costs 0{BUTTON} or less",
            f"Card 12: 0{BUTTON}, income 5{BUTTON}",
        ),
        actions=3,
    ),
    "question": QuestionView(
        title="7x7 bonus",
        lines=("Is a 7x7 square of your quilt completely covered?",),
        answers=("Yes", "Not yet"),
        selected=1,
    ),
    "number": NumberView(
        title="Correct buttons",
        label=f"You have 7{BUTTON}",
        value="+3 = 10",
        hint="press: correct  0: cancel",
    ),
    "number_unchanged": NumberView(
        title="Correct buttons",
        label=f"Automa has 12{BUTTON}",
        value="no change",
        hint="press: cancel",
    ),
    "score": ScoreView(
        columns=(
            ScoreColumn("You", (("buttons", 31), ("bonus tile", 7), ("empty x2", -4)), 34),
            ScoreColumn(
                "Automa",
                (("buttons", 12), (f"{BUTTON} patches", 4), (f"{BUTTON} shown", 9)),
                25,
            ),
        ),
        verdict="You win by 9",
    ),
    "score_tie": ScoreView(
        columns=(
            ScoreColumn("Player 1", (("buttons", 22), ("bonus tile", 7), ("empty x2", -8)), 21),
            ScoreColumn("Player 2", (("buttons", 25), ("empty x2", -4)), 21),
        ),
        verdict="Tie at 21: Player 2 reached 53 first and wins",
    ),
    "score_legend": ScoreView(
        columns=(
            ScoreColumn("You", (("buttons", 19), ("empty x2", -6)), 13),
            ScoreColumn(
                "Automa",
                (
                    ("buttons", 20),
                    (f"{BUTTON} patches", 4),
                    (f"{BUTTON} shown", 9),
                    ("bonus tile", 7),
                ),
                40,
            ),
        ),
        verdict="Automa wins by 27",
    ),
    # Won by 3 to 19 at the easy levels, a tie at Fellow (played) won by reaching 53
    # first, lost at the hard ones, where the Automa reached its mark before the player's
    # 7×7 was full.
    "verdicts": VerdictsView(
        labels=("You", "Automa"),
        short_labels=("You", "A"),
        rows=(
            VerdictRow("Intern", (26, 7), 0, won=True, margin=19, tie=False, played=False),
            VerdictRow("Apprentice", (26, 23), 0, won=True, margin=3, tie=False, played=False),
            VerdictRow("Fellow", (26, 26), 0, won=True, margin=0, tie=True, played=True),
            VerdictRow("Master", (19, 38), 1, won=False, margin=19, tie=False, played=False),
            VerdictRow("Legend", (19, 47), 1, won=False, margin=28, tie=False, played=False),
        ),
        first=0,
        count=5,
        deal="Deal G127-TY7K",
        page=1,
        pages=1,
        hint="press: ok",
    ),
    "text": TextView(
        title="Rules: your turn",
        lines=(
            "Either advance: just past",
            f"the other token, 1{BUTTON} for",
            "each square moved.",
            "Or buy one of the 3 patches",
            "after the neutral token: pay",
            "its cost, move by its time.",
        ),
        page=1,
        pages=3,
        footer="turn: page  press: back",
    ),
    "test_pattern": TestPatternView(
        ("Patchwork Companion", "sh1106-encoder", "SH1106 I2C 0x3C", "press or turn anything")
    ),
    "input_test": InputTestView(
        events=("next", "next", "previous", "select", "hold", "back", "next"),
        title="Input test",
        counted="inputs: 7",
        waiting="Press or turn anything",
        hint="select x3 to leave",
    ),
    # The undo of a buy and the Automa's turn after it: the question, then the first
    # reverse step under the board as the undo leaves it (P21 back on offer).
    "undo_question": QuestionView(
        title="Undo",
        lines=("Take back:", "Your P21 buy, and the Automa's turn after it"),
        answers=("No", "Yes, undo"),
        selected=1,
    ),
    "undo_step": StepView(
        board=BoardView(
            (SideView("You", 5, 19), SideView("Automa", 0, 20)),
            mover=0,
            leather=(26, 32, 44, 50),
            bonus_mark=41,
            offer=(PatchView("P05"), PatchView("P21"), PatchView("P13")),
        ),
        lines=(
            f"Pile without {BUTTON}: P08 back",
            "between P13 and P04;",
            "neutral token before P13",
        ),
        number=1,
        total=4,
    ),
}
"""Every screen with content as the game produces it, by golden-image name."""

# Each turn starts on Advance: no patch chosen, the label row gives the scores so far.
TURN_SOLO = EXAMPLES["turn_solo"]
assert isinstance(TURN_SOLO, TurnView)
EXAMPLES["turn_start"] = dataclasses.replace(TURN_SOLO, selected=3)
