"""Realistic views of every screen: the golden images of the tests are rendered from these.

The wording follows `companion.app.wording` (steps, Automa summaries) and
`companion.app.widgets` (hints), so the goldens show what a player will see.
"""

from __future__ import annotations

from companion.engine.actions import ADVANCE, Buy
from companion.text.font import ARROW_TO, BUTTON
from companion.views import (
    AutomaCardView,
    AutomaView,
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
    StepView,
    TestPatternView,
    TextView,
    TokenView,
    TurnView,
    View,
)

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
    "deal": DealView(patch=PatchView("P17"), number=7, total=32),
    "deal_first": DealView(patch=PatchView("P05"), number=1, total=32),
    "pick_patch": PickPatchView(patch=PatchView("P29"), number=7, total=32, choice=3, choices=27),
    "pick_patch_back": PickPatchView(
        patch=None, number=7, total=32, choice=27, choices=27, back_label="Undo place 6"
    ),
    "turn_solo": TurnView(
        side_label="You",
        buttons=12,
        income=3,
        to_next_income=4,
        tokens=(TokenView("You", 19), TokenView("Automa", 21)),
        leather=(26, 32, 44, 50),
        bonus_mark=41,
        offer=(
            PatchView("P17", destination=25),
            PatchView("P24", destination=24),
            PatchView("P10", destination=21),
        ),
        choices=(Buy(0), Buy(1), Buy(2), ADVANCE, OpenMenu()),
        selected=1,
        advance_to=22,
        advance_buttons=3,
        opponent_label="Automa",
        opponent_buttons=9,
    ),
    "turn_tactical": TurnView(
        side_label="You",
        buttons=4,
        income=1,
        to_next_income=4,
        tokens=(TokenView("You", 7), TokenView("Automa", 10)),
        leather=(20, 26, 32, 44, 50),
        bonus_mark=35,
        offer=(
            PatchView("P32", affordable=False, why_not=f"P32: can't afford (10{BUTTON}, have 4)"),
            PatchView("P04", destination=10),
            PatchView("P20", destination=13),
        ),
        choices=(Buy(1), Buy(2), ADVANCE, OpenMenu()),
        selected=2,
        advance_to=11,
        advance_buttons=4,
        opponent_label="Automa",
        opponent_buttons=3,
        next_virtual_buttons=8,
    ),
    "turn_two_player": TurnView(
        side_label="P1",
        buttons=7,
        income=5,
        to_next_income=5,
        tokens=(TokenView("P1", 30), TokenView("P2", 33)),
        leather=(32, 44, 50),
        bonus_mark=None,
        offer=(
            PatchView("P05", destination=34),
            PatchView("P31", affordable=False, why_not=f"P31: can't afford (10{BUTTON}, have 7)"),
            PatchView("P21", destination=33),
        ),
        choices=(Buy(0), Buy(2), ADVANCE, OpenMenu()),
        selected=0,
        advance_to=34,
        advance_buttons=4,
        opponent_label="P2",
        opponent_buttons=11,
    ),
    "step": StepView(
        title="Take P17",
        lines=(
            f"Pay 3{BUTTON}",
            "Take the 3rd patch",
            "Neutral token to its place",
            f"Your token 19 {ARROW_TO} 25",
            "on top of the other",
        ),
        number=1,
        total=3,
        patch_id="P17",
    ),
    "automa_take": AutomaView(
        card=AutomaCardView(
            number=18, virtual_buttons=4, filters=("no overtake", "largest", "farthest"), income=1
        ),
        headline="Takes P16 (3rd)",
        reason="3 affordable; no overtake: skipped; largest: 2 left; farthest: 1 left",
        steps=(
            f"Pile with {BUTTON}; neutral there",
            f"Token 31 {ARROW_TO} 35, +1{BUTTON} income",
            "Leather 32, 7x7 tile",
        ),
        patch_id="P16",
    ),
    "automa_pass": AutomaView(
        card=AutomaCardView(number=12, virtual_buttons=0, filters=(), income=5),
        headline="Passes",
        reason=f"Nothing costs 0{BUTTON} or less",
        steps=(
            f"Token 21 {ARROW_TO} 26, no {BUTTON}, +5{BUTTON} income",
            "Leather 26",
        ),
    ),
    "question": QuestionView(
        title="7x7 bonus",
        lines=("Is a 7x7 square of your quilt completely covered?",),
        answers=("Yes", "Not yet"),
        selected=1,
    ),
    "number": NumberView(
        title="Correction",
        label="Your buttons",
        value="12",
        hint="turn: change  press: ok",
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
            ScoreColumn("P1", (("buttons", 22), ("bonus tile", 7), ("empty x2", -8)), 21),
            ScoreColumn("P2", (("buttons", 25), ("empty x2", -4)), 21),
        ),
        verdict="Tie at 21: P2 reached 53 first and wins",
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
        events=("next", "next", "previous", "select", "hold", "back", "next"), count=7
    ),
}
"""Every screen with content as the game produces it, by golden-image name."""
