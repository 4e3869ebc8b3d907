"""Entering a deal code when starting a solo game (docs/SOLO.md, "Deal codes")."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from helpers import choose_row, companion_in

from companion.engine.automa import DIFFICULTY_BY_NAME, Deck
from companion.engine.deal import ALPHABET, Deal
from companion.engine.setup import solo_setup
from companion.inputs.events import Input
from companion.render.screens import render_canvas
from companion.text.language import LANGUAGE_NAMES
from companion.views import DealView, MenuView, NumberView, ScreenKind, TextView

CODE = Deal(3_141_592_653, Deck.TACTICAL).code


def open_code_entry(app) -> None:
    choose_row(app, "New solo game")
    choose_row(app, "Fellow")
    choose_row(app, "Deal code")


def type_characters(app, characters: str) -> None:
    """Turn to each character the shortest way round and press."""
    for char in characters:
        view = app.view()
        assert isinstance(view, NumberView), view
        here, there = ALPHABET.index(view.value), ALPHABET.index(char)
        forward = (there - here) % len(ALPHABET)
        if forward <= len(ALPHABET) // 2:
            turns = [Input.NEXT] * forward
        else:
            turns = [Input.PREVIOUS] * (len(ALPHABET) - forward)
        for turn in turns:
            app.handle(turn)
        app.handle(Input.SELECT)


def test_a_code_entered_in_two_fresh_state_dirs_deals_the_same_game(tmp_path):
    dealt = []
    for name in ("first box", "second box"):
        app = companion_in(tmp_path / name, "en", seed=5)
        open_code_entry(app)
        type_characters(app, CODE.replace("-", ""))
        view = app.view()
        # The first screen of the deal names it by its code.
        assert isinstance(view, DealView) and view.title == f"Deal {CODE}"
        dealt.append(app.game.setup)
    first, second = dealt
    expected = solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL, seed=3_141_592_653)
    assert first.deck == second.deck == Deck.TACTICAL
    assert first.circle == second.circle == expected.circle
    assert first.deck_order == second.deck_order == expected.deck_order


def test_a_code_with_one_wrong_character_is_refused_and_can_be_corrected(tmp_path):
    app = companion_in(tmp_path / "state", "en", seed=5)
    open_code_entry(app)
    code = CODE.replace("-", "")
    wrong = ALPHABET[(ALPHABET.index(code[2]) + 1) % len(ALPHABET)]
    type_characters(app, code[:2] + wrong + code[3:])
    notice = app.view()
    assert isinstance(notice, TextView) and notice.kind is ScreenKind.NOTICE
    assert "a character is wrong" in " ".join(notice.lines)
    assert app.game is None
    app.handle(Input.SELECT)
    # Back on the code, its last character taken off: erase to the wrong one, correct it.
    view = app.view()
    assert isinstance(view, NumberView) and view.label == f"{code[:2]}{wrong}{code[3]}-{code[4:7]}_"
    for _ in range(5):
        app.handle(Input.BACK)
    assert app.view().label == f"{code[:2]}__-____"
    type_characters(app, code[2:])
    assert isinstance(app.view(), DealView)
    assert (
        app.game.setup.circle
        == solo_setup(DIFFICULTY_BY_NAME["fellow"], Deck.TACTICAL, seed=3_141_592_653).circle
    )


def test_back_with_no_character_leaves_for_the_deck_menu_on_deal_code(tmp_path):
    app = companion_in(tmp_path / "state", "en", seed=5)
    open_code_entry(app)
    type_characters(app, "7")
    app.handle(Input.BACK)
    app.handle(Input.BACK)
    view = app.view()
    assert isinstance(view, MenuView) and view.kind is ScreenKind.DECK
    # The cursor is where the player left: a press enters a code again, not a deal.
    assert view.items[view.selected].label == "Deal code"
    app.handle(Input.SELECT)
    assert isinstance(app.view(), NumberView)


def simulate_deal(state_dir, *extra):
    script = state_dir.parent / f"{state_dir.name}.txt"
    # New solo game, Fellow: the deal decides the deck; 4 deal screens; advance, confirm;
    # the Automa's turn, confirm.
    script.write_text("\n".join(["select"] * 2 + ["select"] * 4 + ["select"] * 4) + "\n")
    return subprocess.run(
        [sys.executable, "-m", "companion", "simulate", "--script", str(script),
         "--state-dir", str(state_dir), "--json", *extra],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip


def test_simulate_deal_deals_the_same_game_in_two_fresh_state_dirs(tmp_path):
    first, second = (simulate_deal(tmp_path / name, "--deal", CODE.lower()) for name in ("a", "b"))
    assert first.returncode == second.returncode == 0, first.stderr + second.stderr
    one, two = json.loads(first.stdout), json.loads(second.stdout)
    assert one["deal"] == two["deal"] == CODE
    assert one["deck"] == "tactical"
    assert one["circle"] == two["circle"]
    # The same first cards: the Automa took the same patch and moved the same.
    assert one["sides"] == two["sides"]
    assert one["actions"] >= 2


def test_simulate_refuses_a_bad_deal_code_in_one_line(tmp_path):
    code = CODE[:-1] + ALPHABET[(ALPHABET.index(CODE[-1]) + 1) % len(ALPHABET)]
    result = simulate_deal(tmp_path / "a", "--deal", code)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "check character does not match" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("language", list(LANGUAGE_NAMES))
def test_the_code_screens_fit_in_every_language(tmp_path, language):
    # Random games never enter a code: its screens at their widest, each drawn.
    app = companion_in(tmp_path / "state", language, seed=5)
    words = app.words
    choose_row(app, words("New solo game"))
    choose_row(app, words("Fellow"))
    choose_row(app, words("Deal code"))
    views = [app.view()]  # "press: keep"
    code = CODE.replace("-", "")
    wrong = ALPHABET[(ALPHABET.index(code[-1]) + 1) % len(ALPHABET)]
    type_characters(app, code[:-1])
    views.append(app.view())  # "press: keep  back: erase", the code nearly whole
    type_characters(app, wrong)
    views.append(app.view())  # the wrong code's notice
    app.handle(Input.SELECT)
    type_characters(app, code[-1])
    views.append(app.view())  # the first deal screen, titled with the code
    for view in views:
        assert render_canvas(view).overflows == [], view
