"""Undo through the application's inputs: the question names what goes, then the
reverse steps show card by card under the board as the undo leaves it."""

import itertools
import random

import pytest

from companion.app.companion import Companion
from companion.app.play import board_view
from companion.app.undo_wording import undo_cards, undo_prompt_lines
from companion.engine.actions import AutomaTurn, Buy, ClaimBonus
from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.catalogue import PATCH_BY_ID
from companion.engine.game import Game
from companion.engine.setup import Side, solo_setup, two_player_setup
from companion.engine.undo_steps import plan_undo
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.testing.autoplay import inputs_for, move_to, random_choice, start_game
from companion.text.language import LANGUAGE_NAMES, words_for
from companion.views import (
    AutomaView,
    MenuView,
    QuestionView,
    ScreenKind,
    StepView,
    TurnView,
)


def play_until_turns(app, rng, turns):
    """Answer screens until `turns` player turns have been played; stop on the next."""
    seen = 0
    while True:
        view = app.view()
        if isinstance(view, TurnView):
            if seen == turns:
                return
            seen += 1
        for item in inputs_for(view, random_choice(rng), rng):
            app.handle(item)


def open_undo(app):
    app.handle(Input.HOLD)
    menu = app.view()
    assert isinstance(menu, MenuView) and menu.kind is ScreenKind.GAME_MENU
    labels = [item.label for item in menu.items]
    for _ in range(labels.index("Undo last action")):
        app.handle(Input.NEXT)
    app.handle(Input.SELECT)
    question = app.view()
    assert isinstance(question, QuestionView) and question.kind is ScreenKind.CONFIRM_UNDO
    return question


def solo_game_three_turns_in(tmp_path):
    """The app on the turn screen of a solo game's fourth player turn."""
    rng = random.Random(5)
    app = Companion(tmp_path, itertools.count(5).__next__)
    start_game(app, True, False, rng)
    play_until_turns(app, rng, 3)
    return app


def undo_to_the_first_card(app):
    """Undo from the game menu, answering yes: the first reverse card."""
    open_undo(app)
    app.handle(Input.NEXT)  # "Yes, undo"
    app.handle(Input.SELECT)
    card = app.view()
    assert isinstance(card, StepView) and card.number == 1
    return card


def test_the_undo_names_the_action_then_shows_the_reverse_steps_under_the_board(tmp_path):
    rng = random.Random(5)
    app = Companion(tmp_path, itertools.count(5).__next__)
    start_game(app, True, False, rng)
    play_until_turns(app, rng, 4)
    game = app.game
    stack = game.move_stack
    last = max(i for i, action in enumerate(stack) if not isinstance(action, AutomaTurn))
    person, automa_turns = stack[last], len(stack) - 1 - last
    question = open_undo(app)
    text = " ".join(question.lines)
    if isinstance(person, Buy):
        assert " buy" in text
    else:
        assert "advance to" in text
    assert ("Automa" in text) == (automa_turns > 0)
    app.handle(Input.NEXT)  # "Yes, undo"
    app.handle(Input.SELECT)
    step = app.view()
    assert isinstance(step, StepView) and step.number == 1
    # The board is the table the undo leads to: tokens and buttons as the game now has.
    you, automa = step.board.sides
    assert (you.position, you.buttons) == (
        game.sides[Side.PLAYER].position,
        game.sides[Side.PLAYER].buttons,
    )
    assert automa.position == game.sides[Side.AUTOMA].position
    for _ in range(step.total):
        assert isinstance(app.view(), StepView)
        app.handle(Input.SELECT)
    assert isinstance(app.view(), TurnView)


def test_no_goes_back_to_the_menu_and_undoes_nothing(tmp_path):
    rng = random.Random(6)
    app = Companion(tmp_path, itertools.count(6).__next__)
    start_game(app, True, False, rng)
    play_until_turns(app, rng, 2)
    state = app.game.state()
    open_undo(app)
    app.handle(Input.SELECT)  # "No"
    assert app.view().kind is ScreenKind.GAME_MENU
    assert app.game.state() == state


def test_a_two_player_undo_never_mentions_the_automa(tmp_path):
    rng = random.Random(8)
    app = Companion(tmp_path, itertools.count(8).__next__)
    start_game(app, False, False, rng)
    for turns in (3, 1, 2):
        play_until_turns(app, rng, turns)
        question = open_undo(app)
        assert "automa" not in " ".join(question.lines).lower()
        app.handle(Input.NEXT)
        app.handle(Input.SELECT)
        while isinstance(view := app.view(), StepView):
            assert "automa" not in " ".join(view.lines).lower()
            app.handle(Input.SELECT)


@pytest.mark.parametrize("language", sorted(LANGUAGE_NAMES))
def test_every_undo_question_and_reverse_card_of_random_games_fits(language):
    """Both modes, every undo a random game allows, in every language: no line cut off
    or off the display."""
    words = words_for(language)
    problems = []
    cards = 0
    for seed in range(8):
        rng = random.Random(seed)
        game = Game(
            solo_setup(DIFFICULTY_BY_NAME["legend"], Deck.NORMAL, seed=seed)
            if seed % 2
            else two_player_setup(seed=seed)
        )
        while not game.is_over:
            actions = [a for a in game.legal_actions() if not isinstance(a, ClaimBonus)]
            game.push(actions[0] if game.turn == Side.AUTOMA else rng.choice(actions))
            plan = plan_undo(game)
            if plan is None or game.turn == Side.AUTOMA:
                continue
            board = board_view(game, game.turn, words)
            answers = (words("No"), words("Yes, undo"))
            views = [QuestionView(words("Undo"), undo_prompt_lines(plan, words), answers, 1)]
            steps = undo_cards(plan, words)
            views += [StepView(board, c.lines, i + 1, len(steps)) for i, c in enumerate(steps)]
            cards += len(steps)
            for view in views:
                if overflows := render_canvas(view).overflows:
                    problems.append((view, overflows))
    assert cards > 300
    assert problems == [], "\n".join(f"{view.lines}: {over}" for view, over in problems)


def test_the_reverse_steps_come_back_after_a_restart_until_they_are_confirmed(tmp_path):
    app = solo_game_three_turns_in(tmp_path)
    first = undo_to_the_first_card(app)
    app.handle(Input.SELECT)  # on to the second card, then the power goes
    resumed = Companion(tmp_path, itertools.count(9).__next__)
    assert resumed.view() == first
    # The menu and back to the game: the same cards again.
    resumed.handle(Input.HOLD)
    resumed.handle(Input.SELECT)  # "Back to the game"
    assert resumed.view() == first
    for _ in range(first.total):
        resumed.handle(Input.SELECT)
    assert isinstance(resumed.view(), TurnView)
    assert isinstance(Companion(tmp_path, itertools.count(9).__next__).view(), TurnView)


def test_the_undo_on_the_game_over_screen_asks_first_and_no_goes_back_there(tmp_path):
    rng = random.Random(4)
    app = Companion(tmp_path, itertools.count(4).__next__)
    start_game(app, False, False, rng)
    while not (isinstance(view := app.view(), QuestionView) and view.kind is ScreenKind.GAME_OVER):
        for item in inputs_for(view, random_choice(rng), rng):
            app.handle(item)
    undo = view.answers.index("Undo last action")

    def choose_undo():
        for _ in range(undo - app.view().selected):
            app.handle(Input.NEXT)
        app.handle(Input.SELECT)
        assert app.view().kind is ScreenKind.CONFIRM_UNDO

    choose_undo()
    app.handle(Input.SELECT)  # "No"
    assert app.view().kind is ScreenKind.GAME_OVER and app.game.is_over
    choose_undo()
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # "Yes, undo"
    assert isinstance(app.view(), StepView) and not app.game.is_over


# An undo chosen from the menu while the last action's card is still showing: the table
# has not confirmed those steps and may not have done them. Reverse steps for them would
# have it put back a patch it never took and take buttons from the bank it never paid.


def bought_on_the_first_turn(tmp_path):
    """A new solo game (Fellow, normal deck, dealt circle) and the player's buy of the
    first patch on offer they can afford, its card showing; the patch and the offer."""
    app = Companion(tmp_path, itertools.count(7).__next__)
    for _ in range(8):  # new solo game, Fellow, normal deck, deal, the 4 deal screens
        app.handle(Input.SELECT)
    turn = app.view()
    assert isinstance(turn, TurnView)
    offer = [patch.patch_id for patch in turn.board.offer]
    index = next(
        index
        for index, choice in enumerate(turn.choices)
        if isinstance(choice, Buy) and turn.board.offer[choice.index].affordable
    )
    for item in move_to(turn.selected, index, len(turn.choices)):
        app.handle(item)
    app.handle(Input.SELECT)
    assert isinstance(app.view(), StepView)
    return app, PATCH_BY_ID[offer[turn.choices[index].index]], offer


def test_a_buy_undone_before_its_steps_are_confirmed_has_nothing_to_put_back(tmp_path):
    app, patch, offer = bought_on_the_first_turn(tmp_path)
    question = open_undo(app)
    assert f"Your {patch.id} buy" in question.lines
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # "Yes, undo"
    # Straight back to the turn: the start's 5 buttons on square 0, the same offer.
    turn = app.view()
    assert isinstance(turn, TurnView)
    you = turn.board.sides[0]
    assert (you.position, you.buttons) == (0, 5)
    assert [patch.patch_id for patch in turn.board.offer] == offer
    assert isinstance(Companion(tmp_path, itertools.count(9).__next__).view(), TurnView)


def test_an_automa_turn_undone_before_it_is_confirmed_puts_back_only_the_players_buy(
    tmp_path,
):
    app, patch, _ = bought_on_the_first_turn(tmp_path)
    while isinstance(app.view(), StepView):  # the buy's steps done at the table
        app.handle(Input.SELECT)
    assert isinstance(app.view(), AutomaView)  # the player ahead: the Automa's turn shows
    question = open_undo(app)
    assert question.lines[1] == f"Your {patch.id} buy, and the Automa's turn after it"
    app.handle(Input.NEXT)
    app.handle(Input.SELECT)  # "Yes, undo"
    lines = []
    while isinstance(view := app.view(), StepView):
        lines += view.lines
        app.handle(Input.SELECT)
    assert isinstance(app.view(), TurnView)
    # The buy taken back as the table left it, the Automa's turn not done there: the
    # patch back in the circle, the token from the patch's time back to 0, its cost back
    # from the bank. Nothing about the Automa.
    assert f"Your {patch.id}: put it back" in lines
    assert f"Your token {patch.time} → 0" in lines
    assert f"Take {patch.cost}● back from the bank" in lines
    assert not any("Automa" in line for line in lines), lines


def test_an_undo_from_the_reverse_cards_of_another_shows_both_in_turn(tmp_path):
    # Undo, then, on the first reverse card, undo again: the cards are the first
    # undo's (the later actions: put back first), then the second's; none left out.
    app = solo_game_three_turns_in(tmp_path)
    first = undo_to_the_first_card(app)
    second_cards = undo_cards(plan_undo(app.game))
    both = undo_to_the_first_card(app)
    assert both.total == first.total + len(second_cards)
    assert both.lines == first.lines
    for _ in range(first.total):
        app.handle(Input.SELECT)
    assert app.view().lines == second_cards[0].lines
