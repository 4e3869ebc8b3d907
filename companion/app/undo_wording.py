"""What an undo takes back and its reverse steps, worded for the screen.

The counterpart of `wording` for an undo: before it, one sentence naming what
goes ("Your P21 buy, and the Automa's turn after it"); after it, the engine's
reverse steps (`companion.engine.undo_steps`) grouped into cards like the
forward ones, one physical moment each: the patch back in the circle with the
neutral token, a token back with its buttons, a leather patch, the 7×7 tile, a
correction, the Automa's deck.
"""

from __future__ import annotations

from companion.app.wording import Card, correction_lines, possessive, side_label
from companion.engine.actions import Adjust, Advance, Buy, ClaimBonus
from companion.engine.undo_steps import (
    MoveTokenBack,
    RefundCost,
    ReturnBonus,
    ReturnButtons,
    ReturnCard,
    ReturnLeather,
    ReturnNeutralToken,
    ReturnPatch,
    UndoCorrection,
    UndoneAction,
    UndoPlan,
    UndoReshuffle,
)
from companion.text.font import ARROW_TO, BUTTON

MOST_LINES = 3
"""The most lines a card has: the rows of the strip under the board."""


def undo_prompt_lines(plan: UndoPlan) -> tuple[str, ...]:
    """What the undo will take back, for the question before it."""
    what = undone_label(plan.person)
    if plan.automa_turns == 1:
        what += ", and the Automa's turn after it"
    elif plan.automa_turns > 1:
        what += f", and the Automa's {plan.automa_turns} turns after it"
    return ("Take back:", what)


def undone_label(undone: UndoneAction) -> str:
    """A person's action, named: "Your P21 buy", "Player 2's advance to 14"."""
    whose = possessive(undone.side)
    match undone.action:
        case Buy():
            return f"{whose} {undone.patch_id} buy"
        case Advance():
            token = next(step for step in undone.steps if isinstance(step, MoveTokenBack))
            return f"{whose} advance to {token.start}"
        case ClaimBonus():
            return f"{whose} 7x7 tile claim"
        case Adjust(_, delta):
            return f"{whose} correction, {delta:+d}{BUTTON}"
    raise TypeError(f"not an action: {undone.action!r}")


def undo_cards(plan: UndoPlan) -> tuple[Card, ...]:
    """The reverse steps as cards, in the order the table does them: the last action
    taken back first."""
    return tuple(card for undone in plan.undone for card in _cards(undone))


def _cards(undone: UndoneAction) -> list[Card]:
    circle: list[str] = []
    token: list[str] = []
    refund = 0
    returned = {"advance": 0, "income": 0}
    others: list[Card] = []
    deck_card = ""
    reshuffled = False
    for step in undone.steps:
        match step:
            case ReturnPatch(side, patch_id):
                circle += [f"{possessive(side)} {patch_id}: put it back", _between(step)]
            case RefundCost(_, _, count):
                refund += count
            case ReturnNeutralToken(before):
                circle.append(f"neutral token before {before}")
            case MoveTokenBack(side, start, end, on_top):
                token.append(f"{possessive(side)} token {start} {ARROW_TO} {end}")
                if on_top:
                    token.append("on top of the other token")
            case ReturnButtons(_, count, reason):
                returned[reason] += count
            case ReturnLeather(side, position, discarded):
                first = (
                    "Leather patch out of the box,"
                    if discarded
                    else f"{side_label(side)}: leather patch"
                )
                others.append(Card((first, f"back to the track at {position}")))
            case ReturnBonus(side):
                others.append(Card((f"{side_label(side)}: 7x7 tile back", "It is free again")))
            case UndoCorrection(side, delta, buttons):
                # The count the correction changed goes back, as it was shown changing.
                back = correction_lines(side, -delta, buttons)[-1]
                others.append(Card((f"Correction {delta:+d}{BUTTON} undone", back)))
            case UndoReshuffle(draw_pile, discarded):
                # It says where the card goes: no line of its own for the card then.
                reshuffled = True
                others.append(
                    Card(
                        (
                            "Reshuffle undone:",
                            f"card {draw_pile[0]} alone on the deck,",
                            f"the other {discarded} discarded",
                        )
                    )
                )
            case ReturnCard(number) if not reshuffled:
                deck_card = f"Card {number} back on the deck"
    if line := _buttons_line(refund, returned["advance"], returned["income"]):
        token.append(line)
    moves = [Card(tuple(lines)) for lines in (circle, token) if lines]
    if deck_card:
        # On the Automa's token card (it always moves) while it has room.
        if len(token) < MOST_LINES:
            moves[-1] = Card((*token, deck_card))
        else:
            others.append(Card((deck_card,)))
    return moves + others


def _between(step: ReturnPatch) -> str:
    """Where the patch goes back: the gap the neutral token stands in."""
    if step.anticlockwise is None:
        return "as the only patch left;"
    if step.anticlockwise == step.clockwise:
        return f"next to {step.anticlockwise};"
    return f"between {step.anticlockwise} and {step.clockwise};"


def _buttons_line(refund: int, advance: int, income: int) -> str:
    """The buttons a move's undo gives back or takes: one line, the total and its parts."""
    if refund and income:
        net = refund - income
        verb = "Take" if net > 0 else "Return"
        total = f"{verb} {abs(net)}{BUTTON}" if net else "Even"
        return f"{total} ({refund} paid, {income} income)"
    if refund:
        return f"Take {refund}{BUTTON} back from the bank"
    if advance and income:
        return f"Put {advance + income}{BUTTON} back ({advance} + {income} income)"
    if advance:
        return f"Put {advance}{BUTTON} back in the bank"
    if income:
        return f"Put {income}{BUTTON} income back"
    return ""
