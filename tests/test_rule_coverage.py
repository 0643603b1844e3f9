"""Every rule id of every game is named by the tests at least twice: usually a test that
makes it fire and one where the nearest legal case passes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.games import GAMES
from referee.replay import CORE_RULES

TESTS = Path(__file__).resolve().parent


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_tests_name_every_rule_id_of_the_game_twice(name: str) -> None:
    text = "\n".join(path.read_text(encoding="utf-8") for path in TESTS.glob("test_*.py") if path.name != Path(__file__).name)
    named = {rule: len(re.findall(re.escape(rule) + r"(?![a-z.-])", text)) for rule in [*CORE_RULES, *GAMES[name].rules]}
    assert {rule: count for rule, count in named.items() if count < 2} == {}
