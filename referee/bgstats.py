"""A finished game as a BG Stats play ("push play" JSON), for groups who keep their plays
there: who played, scores, ranks, the winners and the starting player.

The table-record stays the archive; this is an export of its result. BG Stats reads the
fields named here; `playDate` is local time as "YYYY-MM-DD HH:MM:SS". A winner is whom
the game's rules name (`Result.winners`): a game the table ended early marks nobody
unless its rules name one, and says "Ended early" in its comments; tied players and a
team share a rank, and the next rank counts everyone above (1, 1, 3: `games.base.places`); a game
with no ranking gives no ranks.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

from .games.base import places
from .record import Header
from .replay import Fold
from .stats import minutes, playing_time, span

SOURCE = "Table Referee"
PUSH_PLAY = "bgstats://app.bgstatsapp.com/createPlay.html?data="


class NotFinished(ValueError):
    """Only a finished game is a play."""


def play(game_id: str, fold: Fold, events: Sequence[Mapping[str, Any]], created_at: str | None = None) -> dict[str, Any]:
    """The BG Stats play of a finished game (NotFinished otherwise). The play starts at the
    header's `started_at`, else the first event's `at`, else when the game was stored; its
    duration is the playing time (`stats.playing_time`: breaks left out), where events carry a time."""
    if fold.outcome is None:
        raise NotFinished(f"game {game_id} is not finished: only a finished game is a play")
    header: Header = fold.header
    result = fold.result()
    start, _ = span(fold, events, created_at)
    place_of = places(result.ranking)
    first = header.options.get("first", 0)  # the games with a starting-player option; seat 0 otherwise
    players = [
        {
            "name": name,
            "sourcePlayerId": f"{game_id}:{seat}",
            **({"score": result.scores[name]} if name in result.scores else {}),
            **({"rank": place_of.get(name, len(place_of) + 1)} if result.ranking else {}),
            "winner": name in result.winners,
            "startPlayer": seat == first,
        }
        for seat, name in enumerate(header.seats)
    ]
    shown: dict[str, Any] = {
        "sourceName": SOURCE,
        "sourcePlayId": game_id,
        "playDate": start.strftime("%Y-%m-%d %H:%M:%S") if start else None,
        "comments": "; ".join(part for part in (header.title, "Ended early" if result.ended_early else "", fold.outcome.reason) if part),
        "game": {"name": header.rules.title, "highestWins": True, "noPoints": not result.scores, "sourceGameId": header.game},
        "players": players,
    }
    played = playing_time(fold, events)
    if played is not None:
        shown["durationMin"] = minutes(played)
    return shown


def push_link(shown: Mapping[str, Any]) -> str:
    """The link that opens BG Stats on a phone with this play, for the player to confirm."""
    return PUSH_PLAY + quote(json.dumps(shown, ensure_ascii=False, separators=(",", ":")), safe="")
