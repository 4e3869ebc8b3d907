"""A game's state as plain data (the `replay --json` schema) and as short text."""

from __future__ import annotations

from typing import Any

from companion.engine.deal import deal_of
from companion.engine.game import Game
from companion.engine.setup import Mode, Side
from companion.engine.verdicts import Verdict, verdicts


def state_dict(game: Game, abandoned: bool = False) -> dict[str, Any]:
    """The state in the schema documented in docs/game-log.md; `abandoned`: the game was set
    aside unfinished."""
    setup = game.setup
    state: dict[str, Any] = {"mode": setup.mode.value}
    if setup.mode is Mode.SOLO:
        assert setup.difficulty is not None and setup.deck is not None
        deal = deal_of(setup)
        state |= {
            "difficulty": setup.difficulty.name,
            "deck": setup.deck.value,
            "deal": deal.code if deal else None,
        }
    else:
        state["start"] = setup.start
    outcome = game.outcome()
    state |= {
        "turn": game.turn,
        "circle": list(game.circle),
        "sides": {name: _side_dict(game, name) for name in game.sides},
        "over": game.is_over,
        "abandoned": abandoned,
        "winner": outcome.winner if outcome else None,
        "scores": outcome.scores if outcome else None,
        "actions": len(game.move_stack),
    }
    if setup.mode is Mode.SOLO:
        state["verdicts"] = verdicts_dict(game)
    return state


def verdicts_dict(game: Game) -> dict[str, Any] | None:
    """A finished solo game's verdicts by level name (docs/SOLO.md), else None."""
    judged = verdicts(game)
    return {verdict.level.name: _verdict_dict(verdict) for verdict in judged} if judged else None


def _verdict_dict(verdict: Verdict) -> dict[str, Any]:
    outcome = verdict.outcome
    return {
        "player": verdict.player,
        "automa": verdict.automa,
        "winner": outcome.winner,
        "tie": outcome.tie,
        "margin": outcome.margin,
        "bonus": verdict.bonus_holder,
    }


def _side_dict(game: Game, name: Side) -> dict[str, Any]:
    side = game.sides[name]
    shared = {
        "position": side.position,
        "buttons": side.buttons,
        "patches": list(side.patches),
        "leather": side.leather,
        "bonus": game.bonus_holder == name,
    }
    if name != Side.AUTOMA:
        return shared | {"income": side.income, "covered": side.covered}
    return shared | {
        "next_virtual_buttons": game.next_virtual_buttons,
        "bonus_mark": game.bonus_mark,
    }


def text_summary(game: Game, abandoned: bool = False) -> str:
    """A few lines a person can read after `replay`; `abandoned`: the game was set aside
    unfinished, which the first line says."""
    setup = game.setup
    if setup.mode is Mode.SOLO:
        assert setup.difficulty is not None
        title = f"Solo game, {setup.difficulty.name}, {setup.deck} deck"
    else:
        title = f"Two-player game, {setup.start} started"
    actions = _counted(len(game.move_stack), "action")
    if abandoned:
        lines = [f"{title}; abandoned after {actions}, not finished."]
    else:
        lines = [f"{title}; {actions}."]
    for name, side in game.sides.items():
        buttons, patches = _counted(side.buttons, "button"), _counted(len(side.patches), "patch")
        detail = f"{name:>7}: on {side.position:2}, {buttons}, {patches}"
        if name != Side.AUTOMA:
            detail += f", income {side.income}, {side.covered}/81 covered"
        if game.bonus_holder == name:
            detail += ", 7×7 bonus"
        lines.append(detail)
    outcome = game.outcome()
    if outcome is None:
        left = _counted(len(game.circle), "patch")
        to_play = "was to play" if abandoned else "to play"
        lines.append(f"{game.turn} {to_play}; {left} left in the circle.")
    else:
        scores = ", ".join(f"{name} {score}" for name, score in outcome.scores.items())
        tie = " (tie: reached 53 first)" if outcome.tie else ""
        lines.append(f"Game over: {scores}. {outcome.winner} wins{tie}.")
    for verdict in verdicts(game) or ():
        won = verdict.outcome
        lines.append(
            f"  against {verdict.level.name:>10}: player {verdict.player}, "
            f"automa {verdict.automa}; {won.winner} wins by {won.margin}"
            + (" (tie: reached 53 first)" if won.tie else "")
        )
    return "\n".join(lines)


def _counted(count: int, thing: str) -> str:
    """`count` things, in the singular for one.

    >>> _counted(1, "patch"), _counted(3, "patch"), _counted(0, "button")
    ('1 patch', '3 patches', '0 buttons')
    """
    plural = f"{thing}es" if thing.endswith("ch") else f"{thing}s"
    return f"{count} {thing if count == 1 else plural}"
