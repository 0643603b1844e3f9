"""The registry of games: a record's `game` name finds its rules here."""

from __future__ import annotations

from typing import Any

from .base import Game
from .employee_of_the_month import EmployeeOfTheMonth
from .ftw import Ftw
from .karriere_poker import KarrierePoker
from .ladies_gentlemen import LadiesAndGentlemen
from .senators import Senators

GAMES: dict[str, Game[Any]] = {game.name: game for game in (KarrierePoker(), EmployeeOfTheMonth(), Ftw(), Senators(), LadiesAndGentlemen())}


def find_game(name: str) -> Game[Any]:
    """The game called `name`; raises KeyError naming the known games."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(GAMES)}") from None


def game_names() -> list[str]:
    return list(GAMES)
