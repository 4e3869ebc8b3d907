"""What an undo takes back and its reverse steps, worded for the screen.

The counterpart of `wording` for an undo: before it, one sentence naming what
goes ("Your P21 buy, and the Automa's turn after it"); after it, the engine's
reverse steps (`companion.engine.undo_steps`) grouped into cards like the
forward ones, one physical moment each: the patch back in the circle with the
neutral token, a token back with its buttons, a leather patch, the 7×7 tile, a
correction, the Automa's deck.
"""

from __future__ import annotations

from companion.app.wording import (
    ENGLISH_WORDS,
    Card,
    about_player,
    about_side,
    buttons_change,
    side_label,
    token_move,
)
from companion.engine.actions import Adjust, Advance, Buy, ClaimBonus, Earning, Pile
from companion.engine.undo_steps import (
    MoveTokenBack,
    RefundCost,
    ReturnBonus,
    ReturnButtons,
    ReturnLeather,
    ReturnNeutralToken,
    ReturnPatch,
    UndoCorrection,
    UndoneAction,
    UndoPlan,
)
from companion.text.language import Words, msg

MOST_LINES = 3
"""The most lines a card has: the rows of the strip under the board."""


def undo_prompt_lines(plan: UndoPlan, words: Words = ENGLISH_WORDS) -> tuple[str, ...]:
    """What the undo will take back, for the question before it."""
    what = undone_label(plan.person, words)
    if plan.automa_turns == 1:
        what = words("{what}, and the Automa's turn after it", what=what)
    elif plan.automa_turns > 1:
        what = words.counted(
            "{what}, and the Automa's {count} turns after it",
            "{what}, and the Automa's {count} turns after it",
            count=plan.automa_turns,
            what=what,
        )
    return (words("Take back:"), what)


def undone_label(undone: UndoneAction, words: Words = ENGLISH_WORDS) -> str:
    """A person's action, named: "Your P21 buy", "P2's advance to 14"."""
    side = undone.side
    match undone.action:
        case Buy():
            return about_player(
                words,
                side,
                msg("Your {patch} buy"),
                msg("{side}'s {patch} buy"),
                patch=undone.patch_id,
            )
        case Advance():
            token = next(step for step in undone.steps if isinstance(step, MoveTokenBack))
            return about_player(
                words,
                side,
                msg("Your advance to {square}"),
                msg("{side}'s advance to {square}"),
                square=token.start,
            )
        case ClaimBonus():
            return about_player(
                words,
                side,
                msg("Your 7x7 tile claim"),
                msg("{side}'s 7x7 tile claim"),
            )
        case Adjust(_, delta):
            return about_side(
                words,
                side,
                msg("Your correction, {delta}{button}"),
                msg("Automa's correction, {delta}{button}"),
                msg("{side}'s correction, {delta}{button}"),
                delta=f"{delta:+d}",
            )
    raise TypeError(f"not an action: {undone.action!r}")


def undo_cards(plan: UndoPlan, words: Words = ENGLISH_WORDS) -> tuple[Card, ...]:
    """The reverse steps as cards, in the order the table does them: the last action
    taken back first."""
    return tuple(card for undone in plan.undone for card in _cards(undone, words))


def _cards(undone: UndoneAction, words: Words) -> list[Card]:
    circle: list[str] = []
    token: list[str] = []
    refund = 0
    returned = dict.fromkeys(Earning, 0)
    others: list[Card] = []
    for step in undone.steps:
        match step:
            case ReturnPatch():
                circle += [_patch_back(step, words), _between(step, words)]
            case RefundCost(_, _, count):
                refund += count
            case ReturnNeutralToken(before):
                circle.append(words("neutral token before {patch}", patch=before))
            case MoveTokenBack(side, start, end, on_top):
                moved = token_move(words, side, start, end)
                token.append(moved)
                if on_top:
                    token.append(words("on top of the other token"))
            case ReturnButtons(_, count, reason):
                returned[reason] += count
            case ReturnLeather(side, position, discarded):
                first = (
                    words("Leather patch out of the box,")
                    if discarded
                    else words("{side}: leather patch", side=side_label(side, words))
                )
                back = words("back to the track at {square}", square=position)
                others.append(Card((first, back)))
            case ReturnBonus(side):
                back = words("{side}: 7x7 tile back", side=side_label(side, words))
                others.append(Card((back, words("It is free again"))))
            case UndoCorrection(side, delta, buttons):
                # The count the correction changed goes back, as it was shown changing.
                change = buttons_change(side, buttons + delta, buttons, words)
                undone_text = words("Correction {delta}{button} undone", delta=f"{delta:+d}")
                others.append(Card((undone_text, change)))
            # The Automa's card back on its deck, a reshuffle undone (ReturnCard,
            # UndoReshuffle): the companion holds the deck, nothing to do at the table.
    # The buttons, one line each (the cost back, then what the move paid back): short
    # enough for every language, and the card splits rather than wraps.
    if refund:
        token.append(
            words.counted(
                "Take {count}{button} back from the bank",
                "Take {count}{button} back from the bank",
                count=refund,
            )
        )
    if advance := returned[Earning.ADVANCE]:
        token.append(
            words.counted(
                "Put {count}{button} back in the bank",
                "Put {count}{button} back in the bank",
                count=advance,
            )
        )
    if income := returned[Earning.INCOME]:
        token.append(
            words.counted(
                "Put {count}{button} income back", "Put {count}{button} income back", count=income
            )
        )
    moves = [Card(tuple(circle))] if circle else []
    moves += [
        Card(tuple(token[start : start + MOST_LINES])) for start in range(0, len(token), MOST_LINES)
    ]
    return moves + others


def _patch_back(step: ReturnPatch, words: Words) -> str:
    """Whose patch goes back: a player's off their quilt, the Automa's from the pile its
    turn card named (worded as that card's "Pile without ●; neutral there")."""
    from_pile = (
        msg("Pile with {button}: {patch} back")
        if step.pile is Pile.WITH_BUTTONS
        else msg("Pile without {button}: {patch} back")
    )
    return about_side(
        words,
        step.side,
        msg("Your {patch}: put it back"),
        from_pile,
        msg("{side}'s {patch}: put it back"),
        patch=step.patch_id,
    )


def _between(step: ReturnPatch, words: Words) -> str:
    """Where the patch goes back: the gap the neutral token stands in."""
    if step.anticlockwise is None:
        return words("as the only patch left;")
    if step.anticlockwise == step.clockwise:
        return words("next to {patch};", patch=step.anticlockwise)
    return words("between {first} and {second};", first=step.anticlockwise, second=step.clockwise)
