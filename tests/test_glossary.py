"""The glossary's terms (docs/LANGUAGES.md, from the rulebook each language's players
hold) stand in the catalogs where the screens name those things."""

from __future__ import annotations

import pytest

from companion.testing.catalogs import TRANSLATED, messages, translated

COLUMNS = ("ru", "pl", "cs", "ko")
GLOSSARY = (
    # the message; the glossary's term (or its stem, where grammar inflects it) in
    # Russian, Polish, Czech and Korean, None where the catalog words it otherwise
    ("Neutral there", "Фишк", "Pionek", "Cívk", "위치 토큰"),
    ("Token {start} {to} {end}", "Жетон", "Znacznik", "Žeton", "토큰"),
    ("Your buttons: {before} {to} {after}", "пуговиц", "guzik", "knoflík", "단추"),
    ("Patch circle", "лоскут", "kawałk", "záplat", "천 조각"),
    ("Your quilt is full:", "одеял", "kołdr", "dek", "퀼트 판"),
    ("Put {count}{button} back in the bank", "банк", "zasob", "bank", "공급처"),
    ("Leather patch at {square}", "Кожаный", "Specjalny", "Kožená", "가죽 조각"),
    ("{side}: take the 7x7 tile", "тайл", "żeton", "dílek", "보너스 타일"),
    ("Income at {marks}: take {total}{button}", "Доход", "Dochód", "Příjem", "수입"),
    ("Start player", "Первый игрок", "Pierwszy gracz", "Začínající hráč", "시작 플레이어"),
    ("Automa deck", "Колода Автомы", "Talia Automy", "Balíček Automy", "오토마 더미"),
    ("Card {number}, {virtual}{button}: passes", None, "przesuwa", "postupuje", "전진"),
    ("Intern", "Стажёр", "Stażysta", "Stážista", "입문"),
    ("Apprentice", "Ученик", "Uczeń", "Učeň", "쉬움"),
    ("Fellow", "Подмастерье", "Czeladnik", "Tovaryš", "보통"),
    ("Master", "Мастер", "Mistrz", "Mistr", "어려움"),
    ("Legend", "Легенда", "Legenda", "Legenda", "전설"),
    ("no overtake", None, None, None, "추월 안 함"),
    ("largest", None, None, None, "가장 넓은"),
    ("farthest", None, None, None, "가장 먼"),
)
"""Each from the glossary's table, written out by hand."""


@pytest.mark.parametrize("language", TRANSLATED)
def test_each_glossary_term_names_its_thing_on_screen(language):
    catalog = messages(language)
    column = 1 + COLUMNS.index(language)
    missing = {
        row[0]: term
        for row in GLOSSARY
        if (term := row[column]) is not None
        and not any(term in form for form in translated(catalog[row[0]]))
    }
    assert missing == {}
