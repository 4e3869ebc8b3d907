"""The engine's steps for the table, worded for the screen.

A player's action becomes a few cards, one physical moment each (take the
patch and move the tokens; take income; take a leather patch…), shown one at
a time. The Automa's turn becomes one summary: its choice, why, and the steps.

Every text is looked up in the player's language (`words`); English when none
is given. A sentence about a side has a key for "you", one for the Automa and
one for a named player, so each language can word each in its own grammar.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from companion.app.terms import FILTER_NAMES
from companion.engine.actions import (
    AdjustButtons,
    Advance,
    Buy,
    DiscardLeather,
    Earning,
    MoveToken,
    Pile,
    RevealCard,
    Step,
    TakeBonus,
    TakeButtons,
    TakeLeather,
    TakePatch,
)
from companion.engine.automa import AutomaDecision, FilterEffect
from companion.engine.catalogue import BONUS_POINTS
from companion.engine.game import BonusOccasion, BonusQuestion, Game, Refusal, Shortage
from companion.engine.setup import SIDES, Mode, Side
from companion.text.font import CHECK
from companion.text.language import ENGLISH, Words, counted_msg, msg, words_for
from companion.views import TurnChoice, TurnLine

ENGLISH_WORDS = words_for(ENGLISH)
ORDINALS = (msg("1st"), msg("2nd"), msg("3rd"))
"""The Automa's choice among the three patches on offer, counted clockwise."""


def side_label(name: Side, words: Words = ENGLISH_WORDS) -> str:
    """How a side is named on screen: "You", "Automa", "Player 1", "Player 2" (never
    "P1": patches are P00-P32, and "P1's token" beside "Take P10" was misread)."""
    return _named(name, words, msg("You"), msg("Automa"), msg("Player {number}"))


def header_label(name: Side, words: Words) -> str:
    """How the board's header names a side: the header is drawn in the small font alone,
    so its words are a language's own short ones ("[board]" keys)."""
    return _named(
        name,
        words,
        msg("[board] You"),
        msg("[board] Automa"),
        msg("[board] Player {number}"),
    )


def short_header_label(name: Side, words: Words) -> str:
    """The header's name when the full one leaves no room for the 7x7 tile or the
    tactical deck's next card, which must always show."""
    return _named(
        name,
        words,
        msg("[board] You"),
        msg("[board short] A"),
        msg("[board short] Pl.{number}"),
    )


def _named(name: Side, words: Words, yours: str, automas: str, numbered: str) -> str:
    """Side `name`'s name from the key for the player, the Automa, or a numbered player
    (which gets its number as `{number}`)."""
    if name == Side.PLAYER:
        return words(yours)
    if name == Side.AUTOMA:
        return words(automas)
    return words(numbered, number=SIDES[Mode.TWO_PLAYER].index(name) + 1)


def score_so_far(game: Game, name: Side, mover: bool, words: Words, *, bare: bool = False) -> str:
    """A side's score if the game ended now (the engine's), with the mover's income
    in words: "-110 pts, income 3●"; the other side's with its unit only ("11 pts"),
    so neither is a number without a name; `bare`: the other side's the number alone
    ("11"), for a row with no room for both units."""
    points = game.score(name)
    income = None if name == Side.AUTOMA else game.sides[name].income
    if mover and income is not None:
        return words.counted(
            "{points} pt, income {income}{button}",
            "{points} pts, income {income}{button}",
            count=abs(points),
            points=points,
            income=income,
        )
    if bare:
        return str(points)
    return words.counted("{points} pt", "{points} pts", count=abs(points), points=points)


def about_side(
    words: Words, name: Side, yours: str, automas: str, others: str, **fields: object
) -> str:
    """A sentence about side `name`, from the key for the player (`yours`), the Automa
    (`automas`) or a named player (`others`, which gets the name as `{side}`)."""
    if name == Side.PLAYER:
        return words(yours, **fields)
    if name == Side.AUTOMA:
        return words(automas, **fields)
    return words(others, side=side_label(name, words), **fields)


def about_player(words: Words, name: Side, yours: str, others: str, **fields: object) -> str:
    """A sentence about a player: the one whose turn it is, who is asked of their quilt,
    or who bought, advanced or claimed. The Automa never is, so it has no key of its own
    to translate; should it reach here, it is named as a named player is (`others`)."""
    return about_side(words, name, yours, others, others, **fields)


def token_move(words: Words, side: Side, start: int, end: int) -> str:
    """A side's time token going from `start` to `end`: forward on a step card, back on
    an undo's."""
    return about_side(
        words,
        side,
        msg("Your token {start} {to} {end}"),
        msg("Automa's token {start} {to} {end}"),
        msg("{side}: {start} {to} {end}"),
        start=start,
        end=end,
    )


def turn_again_text(game: Game, words: Words = ENGLISH_WORDS) -> str:
    """Said when the side that just played plays again."""
    name = game.turn
    assert name is not None
    if game.on_top(name):
        return about_player(
            words,
            name,
            msg("Your turn again (on top)"),
            msg("{side}'s turn again (on top)"),
        )
    return about_player(words, name, msg("Your turn again"), msg("{side}'s turn again"))


def bonus_question_lines(question: BonusQuestion, words: Words = ENGLISH_WORDS) -> tuple[str, ...]:
    """The question whether a side has completed a 7×7 square, for the moment it is asked."""
    if question.occasion is BonusOccasion.AUTOMA_MARK:
        return (words("The Automa takes the 7x7 tile now. Do you have a full 7x7 square?"),)
    squares = about_player(
        words,
        question.side,
        msg("You have {squares} squares."),
        msg("{side} has {squares} squares."),
        squares=question.squares,
    )
    return (squares, words("A full 7x7 square?"))


def choice_line(
    game: Game, name: Side, choice: TurnChoice, words: Words = ENGLISH_WORDS
) -> TurnLine:
    """What pressing on a choice of the turn does, with its numbers; why not, greyed."""
    if isinstance(choice, Buy):
        patch = game.offer[choice.index]
        refusal = game.refusal(name, choice.index)
        if refusal is not None:
            return TurnLine("refused", refusal_text(refusal, patch.id, words))
        destination = game.buy_destination(name, choice.index)
        return TurnLine("press", buy_words(patch.id, patch.cost, destination, words))
    if isinstance(choice, Advance):
        target, buttons = game.advance_target(name), game.advance_buttons(name)
        return TurnLine("press", advance_words(target, buttons, words))
    return TurnLine("press", words("Menu"))


def refusal_text(refusal: Refusal, patch_id: str, words: Words = ENGLISH_WORDS) -> str:
    """Why a greyed patch cannot be bought, with the numbers to check it."""
    numbers = {"patch": patch_id, "needed": refusal.needed, "available": refusal.available}
    if refusal.shortage is Shortage.BUTTONS:
        return words("{patch}: can't afford, {needed}{button} > {available}{button}", **numbers)
    return words("{patch}: doesn't fit, {needed} > {available} free", **numbers)


def correction_lines(
    side: Side, delta: int, buttons: int, words: Words = ENGLISH_WORDS
) -> tuple[str, ...]:
    """A button count corrected on the device: nothing to do at the table.

    >>> correction_lines("player", 3, 10)
    ('Corrected: +3 buttons', 'Your buttons: 7 → 10')
    """
    signed = f"{delta:+d}"
    corrected = words.counted(
        "Corrected: {delta} button", "Corrected: {delta} buttons", count=abs(delta), delta=signed
    )
    return (corrected, buttons_change(side, buttons - delta, buttons, words))


def buttons_change(side: Side, before: int, after: int, words: Words = ENGLISH_WORDS) -> str:
    """e.g. "Your buttons: 7 → 10"."""
    return about_side(
        words,
        side,
        msg("Your buttons: {before} {to} {after}"),
        msg("Automa's buttons: {before} {to} {after}"),
        msg("{side}'s buttons: {before} {to} {after}"),
        before=before,
        after=after,
    )


class Card(NamedTuple):
    """One thing to do at the table, a few lines in the strip under the board."""

    lines: tuple[str, ...]
    aside: str = ""
    """The last line (the income) said short, for the screen to put at the right of
    the line before it where there is room: see `StepView.aside`."""


def buy_words(patch_id: str, cost: int, destination: int, words: Words = ENGLISH_WORDS) -> str:
    """A buy, on the turn (after its ▶: what a press does) and on its card (after ✓:
    done). Both say it in the same words at the same place, so the line keeps its pixels.
    """
    return words(
        "Buy {patch}: pay {cost}{button}, to {square}",
        patch=patch_id,
        cost=cost,
        square=destination,
    )


def advance_words(target: int, buttons: int, words: Words = ENGLISH_WORDS) -> str:
    """An advance, on the turn and on its card, as `buy_words`."""
    return words("Advance to {square}, +{buttons}{button}", square=target, buttons=buttons)


def done(line: str) -> str:
    """The turn's line on the card of the action it chose, ticked: "✓ Buy P24: …"."""
    return f"{CHECK} {line}"


def player_cards(steps: tuple[Step, ...], words: Words = ENGLISH_WORDS) -> tuple[Card, ...]:
    """Group a player's action's steps into cards, in the order they are done.

    The move comes first, read top down: the line the turn showed for the chosen
    action, ticked, then what else to do (the neutral token, a token on top, the
    income its move crossed). Then each leather patch and the bonus tile on a
    card of its own.
    """
    move: list[str] = []
    others: list[Card] = []
    income = [
        step for step in steps if isinstance(step, TakeButtons) and step.reason is Earning.INCOME
    ]
    advance = next(
        (
            step
            for step in steps
            if isinstance(step, TakeButtons) and step.reason is Earning.ADVANCE
        ),
        None,
    )
    taken: TakePatch | None = None
    for step in steps:
        match step:
            case TakePatch():
                taken = step
            case MoveToken(side, start, end, on_top):
                if taken is not None:
                    neutral = (
                        words("Neutral there, yours on top") if on_top else words("Neutral there")
                    )
                    move += [done(buy_words(taken.patch_id, taken.cost, end, words)), neutral]
                elif advance is not None:
                    move.append(done(advance_words(end, advance.count, words)))
                    if on_top:
                        # Where it lands is news only on top of the other token: then
                        # this side plays again. Otherwise the ticked line says it.
                        move.append(token_move(words, side, start, end) + words(", on top"))
            case TakeLeather(side, position):
                leather = words("Leather patch at {square}", square=position)
                others.append(Card((leather, words("Take it and place it"))))
            case DiscardLeather(side, position):
                full = about_player(
                    words, side, msg("Your quilt is full:"), msg("{side}'s quilt is full:")
                )
                leather = words("Leather patch at {square}", square=position)
                others.append(Card((leather, full, words("put it in the box"))))
            case TakeBonus(side, full_quilt):
                first = words("{side}: take the 7x7 tile", side=side_label(side, words))
                why = (
                    words("Full quilt: it has a 7x7")
                    if full_quilt
                    else words("It is worth {points} points", points=BONUS_POINTS)
                )
                others.append(Card((first, why)))
            case AdjustButtons(side, delta, buttons):
                others.append(Card(correction_lines(side, delta, buttons, words)))
    aside = ""
    if income:
        # Income is taken as the token crosses its marks: on the move's card, so a
        # turn needs one press fewer.
        total = sum(step.count for step in income)
        marks = [str(step.mark) for step in income]
        if len(marks) > 1:
            marks = [words("{marks} and {last}", marks=", ".join(marks[:-1]), last=marks[-1])]
        move.append(words("Income at {marks}: take {total}{button}", marks=marks[0], total=total))
        aside = words("+{income}{button} income", income=total)
    return ((Card(tuple(move), aside),) if move else ()) + tuple(others)


@dataclass(frozen=True, slots=True)
class AutomaSummary:
    """The Automa's turn worded for the screen: what the engine decided, and its lines."""

    decision: AutomaDecision
    headline: str
    reason: str
    """How many patches it could pay for, or that it could pay for none."""
    steps: tuple[str, ...]
    patch_id: str | None
    card: str
    """The card it turned, with the numbers printed on it (its number and virtual
    buttons are in the headline too)."""
    filters: tuple[str, ...]
    """Each filter printed on the card with what it did, in the card's order; none when
    it could pay for nothing (the reason says so)."""
    compact_steps: tuple[str, ...]
    """The steps in fewer rows, what is done at the table only: each leather patch and
    the 7×7 tile it takes named shortly at the end of the token's line, its buttons
    left out; none when it takes neither (`steps` are as few)."""

    @property
    def lines(self) -> tuple[str, ...]:
        """For the screen: the headline and steps, the card's filters, then the rest of
        why it chose."""
        return (self.headline, *self.steps, *self.filters, self.reason, self.card)


FILTER_EFFECTS: dict[FilterEffect, tuple[str, str]] = {
    FilterEffect.NARROWED: counted_msg("{filter}: {count} left", "{filter}: {count} left"),
    FilterEffect.ALL_KEPT: counted_msg("{filter}: all {count} left", "{filter}: all {count} left"),
    FilterEffect.SKIPPED: counted_msg("{filter}: skipped", "{filter}: skipped"),
    FilterEffect.NOT_NEEDED: counted_msg("{filter}: not needed", "{filter}: not needed"),
}
"""A filter of the card and what it did (`AutomaDecision.card_filters`), as its row says:
each with the patches it kept, in the plural form for that count."""


def automa_summary(steps: tuple[Step, ...], words: Words = ENGLISH_WORDS) -> AutomaSummary:
    """The Automa's turn in words: what it takes, why, and what to do on the table."""
    reveal = steps[0]
    assert isinstance(reveal, RevealCard)
    decision = reveal.decision
    lines: list[str] = []
    leather: list[int] = []
    bonus = False
    patch_id = None
    income = 0
    move = 0
    for step in steps[1:]:
        match step:
            case TakePatch(_, taken, _, _, pile):
                patch_id = taken
                # The neutral token goes where the patch lay: one line for both.
                if pile is Pile.WITH_BUTTONS:
                    lines.append(words("Pile with {button}; neutral there"))
                else:
                    lines.append(words("Pile without {button}; neutral there"))
            case MoveToken(_, start, end, on_top):
                move = len(lines)
                token = words("Token {start} {to} {end}", start=start, end=end)
                lines.append(f"{token} {words('on top')}" if on_top else token)
            case TakeButtons(_, count):
                income += count
            case TakeLeather(_, position):
                leather.append(position)
            case TakeBonus():
                bonus = True
    card = decision.card
    # The card's number and virtual buttons open the headline: the filters below are
    # read against them, and the row saved keeps all three filters on the screen.
    numbers = {"number": card.number, "virtual": card.virtual_buttons}
    if patch_id is None:
        headline = words("Card {number}, {virtual}{button}: passes", **numbers)
    else:
        ordinal = words(ORDINALS[decision.chosen])  # type: ignore[index]
        headline = words(
            "Card {number}, {virtual}{button}: takes {patch} ({ordinal})",
            patch=patch_id,
            ordinal=ordinal,
            **numbers,
        )
    # The buttons it gains, on the token's line: its income at the marks it crosses, or
    # on a pass none (no button a square, as a player would take), said where it has no
    # income to say ("no ●, +4● income" read as a contradiction).
    if income:
        buttons = words("+{income}{button} income", income=income)
    else:
        buttons = words("no {button}") if patch_id is None else ""
    # The same in fewer rows for a screen that cannot hold them apart with the card's
    # filters: what is done at the table only, each leather patch and the tile named at
    # the end of the token's line. The buttons gained stay in the steps a turn away:
    # the companion counts them, and naming them too would wrap the line.
    extras = [words("leather {square}", square=square) for square in leather]
    extras += [words("7x7 tile")] if bonus else []
    compact = (
        [*lines[:move], ", ".join([lines[move], *extras]), *lines[move + 1 :]] if extras else []
    )
    if buttons:
        lines[move] += ", " + buttons
    lines += [words("Leather {square} to Automa's pile", square=square) for square in leather]
    if bonus and leather:
        # A leather patch and the tile in one move share a line: the card's three
        # filters still fit under the steps.
        lines[-1] = words("Leather {square}, 7x7 tile to Automa", square=leather[-1])
    elif bonus:
        lines.append(words("It takes the 7x7 tile"))
    printed = words(
        "Card {number}: {virtual}{button}, income {income}{button}",
        number=card.number,
        virtual=card.virtual_buttons,
        income=card.income,
    )
    if decision.affordable:
        affordable = len(decision.affordable)
        reason = words.counted("{count} affordable", "{count} affordable", count=affordable)
        filters = tuple(
            words.counted(
                *FILTER_EFFECTS[outcome.effect],
                count=outcome.kept,
                filter=words(FILTER_NAMES[outcome.filter]),
            )
            for outcome in decision.card_filters
        )
    else:
        reason = words(
            "Nothing costs {virtual}{button} or less", virtual=decision.card.virtual_buttons
        )
        filters = ()
    return AutomaSummary(
        decision, headline, reason, tuple(lines), patch_id, printed, filters, tuple(compact)
    )
