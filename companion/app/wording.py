"""The engine's steps for the table, worded for the screen.

A player's action becomes a few cards, one physical moment each (take the
patch and move the tokens; take income; take a leather patch…), shown one at
a time. The Automa's turn becomes one summary: its choice, why, and the steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.actions import (
    AdjustButtons,
    DiscardLeather,
    MoveToken,
    RevealCard,
    Step,
    TakeBonus,
    TakeButtons,
    TakeLeather,
    TakePatch,
)
from companion.engine.automa import AutomaDecision
from companion.engine.catalogue import BONUS_POINTS, Patch
from companion.engine.game import BonusOccasion, BonusQuestion, Refusal, SideState
from companion.engine.setup import Side
from companion.text.font import BUTTON

ORDINALS = ("1st", "2nd", "3rd")


SIDE_LABELS: dict[str, str] = {Side.PLAYER: "You", Side.AUTOMA: "Automa"}
POSSESSIVES: dict[str, str] = {Side.PLAYER: "Your", Side.AUTOMA: "Automa's"}


def side_label(name: str) -> str:
    """How a side is named on screen: "You", "Automa", "P1", "P2"."""
    return SIDE_LABELS.get(name, name.upper())


def possessive(name: str) -> str:
    return POSSESSIVES.get(name, f"{name.upper()}'s")


def bonus_question_lines(question: BonusQuestion) -> tuple[str, ...]:
    """The question whether a side has completed a 7×7 square, for the moment it is asked."""
    if question.occasion is BonusOccasion.AUTOMA_MARK:
        return ("The Automa takes the", "7x7 tile now. Do you", "have a full 7x7 square?")
    who = "You have" if question.side == Side.PLAYER else f"{side_label(question.side)} has"
    return (f"{who} {question.squares} squares.", "A full 7x7 square?")


def refusal_text(refusal: Refusal, patch: Patch, side: SideState) -> str:
    """Why a greyed patch cannot be bought, with the numbers to check it."""
    if refusal is Refusal.UNAFFORDABLE:
        numbers = f"{patch.cost}{BUTTON}, have {side.buttons}"
    else:
        numbers = f"{patch.squares} sq, {side.empty_squares} free"
    return f"{patch.id}: {refusal} ({numbers})"


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
            case TakeBonus(side, full_quilt):
                lines = (f"{side_label(side)}: take the bonus tile", f"worth {BONUS_POINTS} points")
                if full_quilt:
                    lines = (f"{possessive(side)} quilt is full:", "it holds a 7x7 square", *lines)
                cards.append(Card("7x7 bonus", lines))
            case DiscardLeather(side, position):
                lines = (
                    f"Leather patch at {position}:",
                    f"{possessive(side)} quilt is full,",
                    "so it cannot be placed:",
                    "put it back in the box",
                )
                cards.append(Card("Leather patch", lines))
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
                # The neutral token goes where the patch lay: one line for both.
                lines.append(f"Pile {pile.replace('buttons', BUTTON)}; neutral there")  # type: ignore[union-attr]
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
    """Why the Automa did what it did, e.g. "3 affordable; most buttons: 2 left;
    farthest: 1 left": every filter of the card that decided, in order, so the
    player can check the choice against the card.
    """
    count = len(decision.affordable)
    if count == 0:
        return f"Nothing costs {decision.card.virtual_buttons}{BUTTON} or less"
    parts = [f"{count} affordable"]
    parts += [
        f"{step.filter}: skipped" if step.skipped else f"{step.filter}: {len(step.kept)} left"
        for step in decision.explanation
    ]
    return "; ".join(parts)
