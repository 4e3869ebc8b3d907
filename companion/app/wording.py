"""The engine's steps for the table, worded for the screen.

A player's action becomes a few cards, one physical moment each (take the
patch and move the tokens; take income; take a leather patch…), shown one at
a time. The Automa's turn becomes one summary: its choice, why, and the steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.actions import (
    AdjustButtons,
    MoveNeutralToken,
    MoveToken,
    RevealCard,
    Step,
    TakeBonus,
    TakeButtons,
    TakeLeather,
    TakePatch,
)
from companion.engine.automa import AutomaDecision
from companion.engine.catalogue import BONUS_POINTS
from companion.engine.setup import AUTOMA, PLAYER
from companion.text.font import BUTTON

ORDINALS = ("1st", "2nd", "3rd")


def side_label(name: str) -> str:
    """How a side is named on screen."""
    return {PLAYER: "You", AUTOMA: "Automa"}.get(name, name.upper())


def possessive(name: str) -> str:
    return {PLAYER: "Your", AUTOMA: "Automa's"}.get(name, f"{name.upper()}'s")


@dataclass(frozen=True, slots=True)
class Card:
    """One screen of instructions for the table."""

    title: str
    lines: tuple[str, ...]
    patch_id: str | None = None


def player_cards(steps: tuple[Step, ...]) -> tuple[Card, ...]:
    """Group a player's action's steps into cards, in the order they are done."""
    cards: list[Card] = []
    incomes = [step for step in steps if isinstance(step, TakeButtons) and step.reason == "income"]
    for step in steps:
        match step:
            case TakePatch(side, patch_id, index, cost):
                lines: tuple[str, ...] = (
                    f"Pay {cost}{BUTTON}" if cost else "It costs nothing",
                    f"Take the {ORDINALS[index]} patch",
                    "Neutral token to its place",
                )
                cards.append(Card(f"Take {patch_id}", lines, patch_id))
            case MoveToken(side, start, end, on_top):
                move = f"{possessive(side)} token {start} \u2192 {end}"
                line = (move, "on top of the other") if on_top else (move,)
                if cards and cards[-1].patch_id:
                    last = cards[-1]
                    cards[-1] = Card(last.title, last.lines + line, last.patch_id)
                else:
                    cards.append(Card("Advance", line))
            case TakeButtons(side, count, "advance"):
                last = cards[-1]
                cards[-1] = Card(last.title, (*last.lines, f"Take {count}{BUTTON} from the bank"))
            case TakeLeather(side, position):
                lines = (f"Take the leather patch at {position}", "Place it on the quilt")
                cards.append(Card("Leather patch", lines))
            case TakeBonus(side):
                lines = (f"{side_label(side)}: take the bonus tile", f"worth {BONUS_POINTS} points")
                cards.append(Card("7x7 bonus", lines))
            case AdjustButtons(side, delta):
                verb = (
                    f"Take {delta}{BUTTON} from" if delta > 0 else f"Put {-delta}{BUTTON} back in"
                )
                cards.append(Card("Correction", (f"{side_label(side)}: {verb} the bank",)))
    if incomes:
        # Income is taken as the token crosses its marks: on the move's card, which
        # comes first (only a move crosses marks), so a turn needs one press fewer.
        total = sum(step.count for step in incomes)
        marks = ", ".join(str(step.mark) for step in incomes)
        first = cards[0]
        income = f"Income +{total}{BUTTON} ({marks})"
        cards[0] = Card(first.title, (*first.lines, income), first.patch_id)
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class AutomaSummary:
    decision: AutomaDecision
    headline: str
    reason: str
    steps: tuple[str, ...]
    patch_id: str | None


def automa_summary(steps: tuple[Step, ...]) -> AutomaSummary:
    """The Automa's turn in words: what it takes, why, and what to do on the table.

    At most four lines of steps, so the whole turn fits one screen beside the card.
    """
    reveal = steps[0]
    assert isinstance(reveal, RevealCard)
    decision = reveal.decision
    lines: list[str] = []
    extras: list[str] = []
    patch_id = None
    income = 0
    for step in steps[1:]:
        match step:
            case TakePatch(_, taken, _, _, pile):
                patch_id = taken
                lines.append(f"Pile {pile.replace('buttons', BUTTON)}")  # type: ignore[union-attr]
            case MoveNeutralToken():
                lines.append("Neutral token there")
            case MoveToken(_, start, end, on_top):
                lines.append(f"Token {start} \u2192 {end}" + (", on top" if on_top else ""))
            case TakeButtons(_, count):
                income += count
            case TakeLeather(_, position):
                extras.append(f"leather {position}")
            case TakeBonus():
                extras.append("7x7 tile")
    move = next(i for i, line in enumerate(lines) if line.startswith("Token"))
    if patch_id is None:
        headline = "Passes"
        lines[move] += f", no {BUTTON}"
    else:
        headline = f"Takes {patch_id} ({ORDINALS[decision.chosen]})"  # type: ignore[index]
    if income:
        # The income is paid as the token crosses its marks: say it on the same line.
        lines[move] += f", +{income}{BUTTON} income"
    if extras:
        extra = ", ".join(extras)
        lines.append(extra[0].upper() + extra[1:])
    return AutomaSummary(decision, headline, automa_reason(decision), tuple(lines), patch_id)


def automa_reason(decision: AutomaDecision) -> str:
    """Why the Automa did what it did, e.g. "3 affordable; most buttons leaves 1".

    Filters that narrowed without deciding are left out: the one that left a
    single patch, and any that were skipped, say why.
    """
    count = len(decision.affordable)
    if count == 0:
        return f"Nothing costs {decision.card.virtual_buttons}{BUTTON} or less"
    parts = [f"{count} affordable"]
    parts += [f"{step.filter} skipped" for step in decision.steps if step.skipped]
    deciding = [step for step in decision.steps if not step.skipped and len(step.kept) == 1]
    parts += [f"{step.filter} leaves 1" for step in deciding]
    return "; ".join(parts)
