"""Rulings that say the app is wrong: where a table let a move stand because the referee
flagged it wrongly. Listed for the instance's maintainer (`referee rulings`, and a page
whose link only the maintainer is given), so rule bugs are found where tables meet them.

The list names the game, the move and the rule; the maintainer holds the database and its
secret key, and so is trusted with the records: the page offers each listed game's whole, and
its link opens no game the list does not name.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from .tables import Tables

APP_IS_WRONG = ("app-is-wrong", "the app is wrong", "die app irrt")  # the reason chip's code (web.words.REASONS), and its text in older records


def maintainer_key(secret: str) -> str:
    """The code in the maintainer's link to the list: derived from the instance's secret key."""
    return hmac.new(secret.encode(), b"rulings: the app is wrong", hashlib.sha256).hexdigest()[:32]


def app_is_wrong(tables: Tables) -> list[dict[str, Any]]:
    """Every standing ruling whose reason says the app is wrong: game, seq, rule, message, ruling."""
    found = []
    for game_id in tables.store.games_with("ruling"):
        fold = tables.fold(game_id)
        found += [{"game_id": game_id, "game": fold.header.game, "seq": r.seq, "rule": r.flag.rule, "message": r.flag.message,
                   "ruling": r.ruling, "reason": r.reason}
                  for r in fold.ruled if r.reason.strip().casefold() in APP_IS_WRONG]
    return found
