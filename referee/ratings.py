"""Ratings of a group's players: OpenSkill's Plackett-Luce model over its finished games,
oldest first, overall and per game.

Worked out anew on every request from the kept rows of the finished games
(`referee.stats`: rebuilt from the log, holding only games that count, finished and, where
they have secrets, revealed), never stored: a rating is a function of the log, and tells
a member nothing of a game the group's statistics do not show. Decisions:

- A game the table ended early is left out: its order was never played out.
- Players who share a tier of a game's ranking tie (they share a rank).
- Ladies & Gentlemen is played in teams: a team (lady and gentleman) is one unit, placed
  where the better of the two finished (a gentleman who wins with the courtesan wins for
  his team: they spend one purse); the courtesan is a unit of her own. The model sums a
  team's skills, so it expects a team to beat her: a courtesan who wins (or shares the
  win) gains more than a team that does, and loses less when she loses.
- A player seated twice in one game (two spellings merged later) counts once, at the
  better place; a game left with fewer than two units rates nobody.
- The rating shown is OpenSkill's ordinal, mu - 3 sigma: it starts at 0 and rises as a
  player's results make the model surer of a high skill.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from .games.ladies_gentlemen import seat_roles
from .record import Header
from .stats import Play, evenings

MODEL = PlackettLuce()


@dataclass(frozen=True)
class Rating:
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass
class Ladder:
    """Each player's rating after the games rated so far (overall, or in one game)."""

    skill: dict[str, Any] = field(default_factory=dict)
    games: Counter[str] = field(default_factory=Counter)

    def rate(self, units: list[list[str]], ranks: list[int]) -> None:
        teams = [[self.skill.get(name) or MODEL.rating(name=name) for name in unit] for unit in units]
        for unit, team in zip(units, MODEL.rate(teams, ranks=ranks), strict=True):
            for name, skill in zip(unit, team, strict=True):
                self.skill[name] = skill
                self.games[name] += 1

    def table(self) -> list[Rating]:
        """Best first (by ordinal, then name)."""
        rows = [Rating(name, skill.mu, skill.sigma, self.games[name]) for name, skill in self.skill.items()]
        return sorted(rows, key=lambda r: (-r.ordinal, r.name.casefold()))


@dataclass
class GroupRatings:
    overall: list[Rating]
    per_game: dict[str, list[Rating]]  # game kind -> its ladder
    history: list[tuple[str | None, dict[str, float]]]  # per evening, oldest first: its date, each rated player's ordinal after it


def parties(play: Play, header: Header | None) -> list[list[int]]:
    """The seats that place together: a Ladies & Gentlemen team, else each seat alone."""
    if play.kind == "ladies-and-gentlemen" and header is not None:
        teams, courtesan = seat_roles(len(header.seats), header.options)
        return [list(team) for team in teams] + ([[courtesan]] if courtesan is not None else [])
    return [[seat.seat] for seat in play.seats]


def standings(play: Play, header: Header | None) -> tuple[list[list[str]], list[int]]:
    """The game's units (players by their group names) and each unit's rank (1 best, equal for a tie)."""
    seats = {seat.seat: seat for seat in play.seats}
    best: dict[str, int] = {}
    for seat in play.seats:
        best[seat.name] = min(best.get(seat.name, seat.rank), seat.rank)
    units: list[list[str]] = []
    ranks: list[int] = []
    placed: set[str] = set()
    for party in parties(play, header):
        names = [seats[s].name for s in party if s in seats and seats[s].name not in placed]
        if names:
            placed.update(names)
            units.append(names)
            ranks.append(min(best[name] for name in names))
    return units, ranks


def group_ratings(plays: Sequence[Play], header_of: Callable[[str], Header]) -> GroupRatings:
    """The ratings after every finished game of a group (`Plays.plays(group, seats=True)`,
    oldest first), and their history over its evenings."""
    overall = Ladder()
    per_game: dict[str, Ladder] = {}
    history: list[tuple[str | None, dict[str, float]]] = []
    for night in reversed(evenings(plays)):
        for play in night.plays:
            if play.ended_early:
                continue
            units, ranks = standings(play, header_of(play.game) if play.kind == "ladies-and-gentlemen" else None)
            if len(units) < 2:
                continue
            overall.rate(units, ranks)
            per_game.setdefault(play.kind, Ladder()).rate(units, ranks)
        started = night.plays[0].started
        history.append((started and started.date().isoformat(), {r.name: r.ordinal for r in overall.table()}))
    return GroupRatings(overall.table(), {kind: ladder.table() for kind, ladder in sorted(per_game.items())}, history)
