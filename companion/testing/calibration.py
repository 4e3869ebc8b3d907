"""How strong each Automa level is: reference players against every level and deck.

    python -m companion.testing.calibration [--games 500]

prints, for each deck and level, the Automa's mean score and its spread (the
population standard deviation) and each reference player's share of wins. The
figures and what they assume are in docs/SOLO.md ("Calibration").

The Automa moves the same at every level (docs/SOLO.md, "One game at every
level"), and neither reference player looks at the level: so each seeded game is
played once, at Intern (whose mark, 52, leaves the player every chance to claim
the tile first, as they would at any level), and judged against all five levels
by the verdicts. That is exactly the game each level would have given.

The companion cannot see the quilt, and neither player places patches: both
assume perfect packing. A patch fits while its squares are no more than the
empty squares, and 49 squares covered hold a complete 7×7 square, claimed at
once. Real quilts waste squares and complete the 7×7 later, so real players
score less than these at the same choices.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.engine.actions import ADVANCE, AUTOMA_TURN, Action, Buy, ClaimBonus
from companion.engine.automa import DIFFICULTIES, DIFFICULTY_BY_NAME, Deck
from companion.engine.catalogue import EMPTY_SQUARE_PENALTY, INCOME_MARKS, Patch
from companion.engine.game import Game
from companion.engine.setup import Side, solo_setup
from companion.engine.verdicts import verdicts

GAMES = 500
"""Seeded games per deck and player: the documented table's."""
PLAYED_AT = DIFFICULTY_BY_NAME["intern"]

Player = Callable[[Game, random.Random], Action]
"""A reference player: the action it takes on its turn."""


def random_player(game: Game, rng: random.Random) -> Action:
    """Any legal action, each as likely: advance or one of the patches it may buy."""
    choices = [action for action in game.legal_actions() if not isinstance(action, ClaimBonus)]
    return rng.choice(choices)


def greedy_player(game: Game, rng: random.Random) -> Action:
    """The best worth per square of time, advancing unless a patch beats 1 button a square.

    A patch is worth 2 points a square it covers (an empty square costs 2), plus
    its buttons once for each income mark still ahead of the token, minus its
    cost; divided by its time (at least 1). Advancing is worth 1 button a square.
    Ties go to the patch nearest the neutral token.
    """
    side = game.sides[Side.PLAYER]
    marks_ahead = sum(1 for mark in INCOME_MARKS if mark > side.position)
    best: Action = ADVANCE
    best_worth = 1.0
    for action in game.legal_actions():
        if isinstance(action, Buy):
            worth = _worth(game.offer[action.index], marks_ahead)
            if worth > best_worth:
                best, best_worth = action, worth
    return best


def _worth(patch: Patch, marks_ahead: int) -> float:
    gain = EMPTY_SQUARE_PENALTY * patch.squares + patch.buttons * marks_ahead - patch.cost
    return gain / max(1, patch.time)


PLAYERS: dict[str, Player] = {"greedy": greedy_player, "random": random_player}


def play(deck: Deck, seed: int, player: Player) -> Game:
    """The seeded game to its end; the player claims the tile as soon as it may."""
    game = Game(solo_setup(PLAYED_AT, deck, seed=seed))
    rng = random.Random(seed)
    while not game.is_over:
        if ClaimBonus(Side.PLAYER) in game.legal_actions():
            game.push(ClaimBonus(Side.PLAYER))
        elif game.turn == Side.AUTOMA:
            game.push(AUTOMA_TURN)
        else:
            game.push(player(game, rng))
    return game


@dataclass(frozen=True, slots=True)
class Against:
    """One reference player's games against one deck and level."""

    automa_mean: float
    automa_spread: float
    """The population standard deviation of the Automa's scores."""
    win_rate: float


@dataclass(frozen=True, slots=True)
class Row:
    """One deck and level, against each reference player."""

    deck: Deck
    level: str
    players: dict[str, Against]


def calibrate(games: int = GAMES, players: Sequence[str] = tuple(PLAYERS)) -> list[Row]:
    """Seeds 0 to `games` − 1 for each deck and player, each game judged at every level."""
    rows = []
    for deck in Deck:
        found: dict[str, dict[str, Against]] = {level.name: {} for level in DIFFICULTIES}
        for name in players:
            automa: dict[str, list[int]] = {level.name: [] for level in DIFFICULTIES}
            wins = dict.fromkeys(automa, 0)
            for seed in range(games):
                judged = verdicts(play(deck, seed, PLAYERS[name]))
                assert judged is not None
                for verdict in judged:
                    automa[verdict.level.name].append(verdict.automa)
                    wins[verdict.level.name] += verdict.outcome.winner == Side.PLAYER
            for level, scores in automa.items():
                found[level][name] = Against(
                    statistics.fmean(scores), statistics.pstdev(scores), wins[level] / games
                )
        rows += [Row(deck, level.name, found[level.name]) for level in DIFFICULTIES]
    return rows


def table(rows: Sequence[Row], players: Sequence[str]) -> str:
    """The rows as the Markdown table of docs/SOLO.md."""
    head = ["deck", "level"]
    for name in players:
        head += [f"Automa vs {name}", f"{name} wins"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row.deck.value, row.level]
        for name in players:
            against = row.players[name]
            cells += [
                f"{against.automa_mean:.1f} ± {against.automa_spread:.1f}",
                f"{100 * against.win_rate:.0f} %",
            ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.testing.calibration")
    parser.add_argument(
        "--games",
        type=int,
        default=GAMES,
        choices=range(1, 100_001),
        metavar="N",
        help=f"seeded games per deck and player (default {GAMES}, 1 to 100000)",
    )
    args = parser.parse_args(argv)
    players = tuple(PLAYERS)
    print(table(calibrate(args.games, players), players))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
