"""Statistics of finished games, kept beside the log.

When a game finishes (or a finished game changes: a void after the end, a void that
reopens it), `Plays.keep` writes one row for the game and one per seat (`plays`,
`play_seats`) in the same transaction as the event that changed it. Statistics pages and
`referee stats` read only these rows: no game is replayed per request. A game that hides
anything counts only once the host has revealed its secrets, so nothing of an unfinished
game (or one whose end the host has not confirmed) is ever in them.

The rows are plain values, never deserialized code; `referee stats --rebuild` (and the
first opening of a store made before them) writes them anew from the logs.

Times: a game starts at its header's `started_at`, else its first event's `at`, else when
it was stored; it ends at its last event's `at`. Games of one group whose starts follow
the previous game's end within `EVENING_GAP` form one evening (a game night).
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from .replay import Fold, replay
from .store import Store

EVENING_GAP = timedelta(hours=4)
LAST_RESULTS = 5


def when(text: str | None) -> datetime | None:
    """An ISO 8601 time of the record (`started_at`, an event's `at`), or None; a time
    without offset is taken as UTC."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def span(fold: Fold, events: Sequence[Mapping[str, Any]], created_at: str | None) -> tuple[datetime | None, datetime | None]:
    """When a game started and ended (see the module's docstring)."""
    times = [t for t in (when(e.get("at")) for e in events if e["seq"] <= fold.seq) if t is not None]
    start = when(fold.header.started_at) or (times[0] if times else None) or when(created_at)
    end = times[-1] if times and start and times[-1] >= start else None
    return start, end


def minutes(start: datetime | None, end: datetime | None) -> int | None:
    return None if start is None or end is None else round((end - start).total_seconds() / 60)


def seat_details(fold: Fold) -> list[dict[str, Any]]:
    """What each seat's statistics need beyond score and rank, per game: Karriere Poker's
    Boss and Tellerwäscher counts and longest streaks; Ladies & Gentlemen's courtesan and
    scandal."""
    seats = fold.header.seats
    detail = fold.result().detail
    if fold.header.game == "karriere-poker":
        finishes = [row["finish"] for row in detail.get("games", [])]
        return [{**_count_and_streak(name, "boss", [f[0]["player"] for f in finishes if f]),
                 **_count_and_streak(name, "dishwasher", [f[-1]["player"] for f in finishes if f])} for name in seats]
    if fold.header.game == "ladies-and-gentlemen":
        courtesan = fold.view(None).get("courtesan")
        excluded = set(detail.get("excluded", []))
        return [{"courtesan": name == courtesan, "scandal": bool(detail.get("scandal")), "excluded": name in excluded} for name in seats]
    return [{} for _ in seats]


def _count_and_streak(name: str, what: str, holders: list[str]) -> dict[str, int]:
    longest = run = 0
    for holder in holders:
        run = run + 1 if holder == name else 0
        longest = max(longest, run)
    return {what: holders.count(name), f"{what}_streak": longest}


class Plays:
    """The kept rows of finished games, and the statistics read from them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        db = store.db
        with store.lock:
            fresh = "plays" not in db.table_names()
            db["plays"].create(
                {"game": str, "kind": str, "seq": int, "started_at": str, "ended_at": str, "minutes": int, "title": str},
                pk="game", not_null={"kind", "seq"}, foreign_keys=[("game", "games", "id")], if_not_exists=True,
            )
            db["play_seats"].create(
                {"game": str, "seat": int, "name": str, "score": int, "rank": int, "won": int, "detail": str},
                pk=("game", "seat"), not_null={"name", "rank", "won", "detail"}, foreign_keys=[("game", "plays", "game")],
                if_not_exists=True,
            )
            db["plays"].create_index(["started_at"], if_not_exists=True)
        if fresh:
            self.rebuild()

    def counts(self, fold: Fold, revealed: bool) -> bool:
        """Whether a game is in the statistics: finished, and its secrets revealed if it has any."""
        return fold.outcome is not None and (revealed or not fold.game.private_events)

    def keep(self, game_id: str, fold: Fold, events: Sequence[Mapping[str, Any]], revealed: bool) -> None:
        """Write (or drop) the game's rows; called inside the store's transaction."""
        execute = self.store.db.conn.execute
        execute("DELETE FROM play_seats WHERE game = ?", [game_id])
        execute("DELETE FROM plays WHERE game = ?", [game_id])
        if not self.counts(fold, revealed):
            return
        created = execute("SELECT created_at FROM games WHERE id = ?", [game_id]).fetchone()
        start, end = span(fold, events, created[0] if created else None)
        execute(
            "INSERT INTO plays (game, kind, seq, started_at, ended_at, minutes, title) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [game_id, fold.header.game, fold.seq, start and start.isoformat(), end and end.isoformat(), minutes(start, end), fold.header.title],
        )
        result = fold.result()
        rank_of = {name: rank for rank, tier in enumerate(result.ranking, start=1) for name in tier}
        unranked = len(result.ranking) + 1
        self.store.db.conn.executemany(
            "INSERT INTO play_seats (game, seat, name, score, rank, won, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, seat, name, result.scores.get(name), rank_of.get(name, unranked), int(rank_of.get(name) == 1), json.dumps(extra))
             for seat, (name, extra) in enumerate(zip(fold.header.seats, seat_details(fold), strict=True))],
        )

    def rebuild(self) -> int:
        """Write every game's rows anew from its log; the number of games that count."""
        counted = 0
        for row in self.store.games():
            events = self.store.events(row["id"])
            fold = replay(self.store.header(row["id"]), events)
            revealed = self.store.revealed(row["id"]) is not None
            with self.store.transaction():
                self.keep(row["id"], fold, events, revealed)
            counted += self.counts(fold, revealed)
        return counted

    def rows(self, games: Iterable[str] | None = None, people: Mapping[str, Mapping[int, str]] | None = None) -> list[Play]:
        """The kept plays (of these games, or all), oldest first; `people` names the
        player of a game's seat where a group knows better than the name played with."""
        wanted = None if games is None else list(games)
        people = people or {}
        with self.store.lock:
            if wanted is None:
                plays = self.store.db.execute("SELECT game, kind, started_at, ended_at, minutes, title FROM plays").fetchall()
                seats = self.store.db.execute("SELECT game, seat, name, score, rank, won, detail FROM play_seats").fetchall()
            else:
                self.store.db.execute("CREATE TEMP TABLE IF NOT EXISTS wanted (game TEXT PRIMARY KEY)")
                self.store.db.execute("DELETE FROM temp.wanted")
                self.store.db.conn.executemany("INSERT OR IGNORE INTO temp.wanted VALUES (?)", [(g,) for g in wanted])
                plays = self.store.db.execute(
                    "SELECT p.game, kind, started_at, ended_at, minutes, title FROM plays p JOIN temp.wanted w ON w.game = p.game").fetchall()
                seats = self.store.db.execute(
                    "SELECT s.game, seat, name, score, rank, won, detail FROM play_seats s JOIN temp.wanted w ON w.game = s.game").fetchall()
        by_game: dict[str, list[Seat]] = defaultdict(list)
        for game, seat, name, score, rank, won, detail in seats:
            by_game[game].append(Seat(seat, people.get(game, {}).get(seat, name), name, score, rank, bool(won), json.loads(detail)))
        shown = [Play(game, kind, when(started), when(ended), mins, title, sorted(by_game[game], key=lambda s: s.seat))
                 for game, kind, started, ended, mins, title in plays]
        return sorted(shown, key=lambda p: (p.started or datetime.min.replace(tzinfo=timezone.utc), p.game))


@dataclass
class Seat:
    seat: int
    name: str  # the player: the group's name for them, else the name played with
    played_as: str  # the name in the record
    score: int | None
    rank: int
    won: bool
    detail: dict[str, Any]


@dataclass
class Play:
    game: str
    kind: str
    started: datetime | None
    ended: datetime | None
    minutes: int | None
    title: str | None
    seats: list[Seat]

    @property
    def winners(self) -> list[str]:
        return [s.name for s in self.seats if s.won]


@dataclass
class Evening:
    """Games of one group that followed each other within EVENING_GAP: a game night."""

    plays: list[Play] = field(default_factory=list)

    @property
    def minutes(self) -> int | None:
        known = [p.minutes for p in self.plays if p.minutes is not None]
        return sum(known) if known else None


def evenings(plays: Sequence[Play]) -> list[Evening]:
    """The plays (oldest first) grouped into evenings, newest evening first."""
    nights: list[Evening] = []
    last_end: datetime | None = None
    for play in plays:
        start = play.started
        if not nights or start is None or last_end is None or start - last_end > EVENING_GAP:
            nights.append(Evening())
        nights[-1].plays.append(play)
        last_end = play.ended or start
    return nights[::-1]


def summary(plays: Sequence[Play]) -> dict[str, Any]:
    """Per player: games played and won, win rate, per game, the last results; plus the
    evenings. JSON-ready."""
    players: dict[str, dict[str, Any]] = {}
    per_game: dict[tuple[str, str], dict[str, Any]] = {}
    for play in plays:
        for seat in play.seats:
            name = seat.name
            mine = players.setdefault(name, {"name": name, "played": 0, "won": 0, "last": []})
            mine["played"] += 1
            mine["won"] += seat.won
            mine["last"].append({"game": play.game, "kind": play.kind, "date": play.started and play.started.date().isoformat(),
                                 "rank": seat.rank, "won": seat.won, **({"score": seat.score} if seat.score is not None else {})})
            _add_game(per_game.setdefault((name, play.kind), {"played": 0, "won": 0}), play.kind, seat)
    for (name, kind), tally in per_game.items():
        players[name].setdefault("games", {})[kind] = _finish_game(tally)
    shown = []
    for mine in players.values():
        shown.append({"name": mine["name"], "played": mine["played"], "won": mine["won"], "win_rate": round(mine["won"] / mine["played"], 3),
                      "games": mine.get("games", {}), "last": mine["last"][::-1][:LAST_RESULTS]})
    shown.sort(key=lambda p: (-p["won"], -p["played"], p["name"].casefold()))
    nights = evenings(plays)
    return {
        "games": len(plays),
        "players": shown,
        "evenings": [{"date": n.plays[0].started and n.plays[0].started.date().isoformat(), "minutes": n.minutes,
                      "games": [{"game": p.game, "kind": p.kind, "minutes": p.minutes, "winners": p.winners} for p in n.plays]}
                     for n in nights],
    }


def _add_game(tally: dict[str, Any], kind: str, seat: Seat) -> None:
    tally["played"] += 1
    tally["won"] += seat.won
    if seat.score is not None:
        tally.setdefault("points", []).append(seat.score)
    if kind == "karriere-poker":
        for what in ("boss", "dishwasher"):
            tally[what] = tally.get(what, 0) + seat.detail.get(what, 0)
            tally[f"{what}_streak"] = max(tally.get(f"{what}_streak", 0), seat.detail.get(f"{what}_streak", 0))
    if kind == "ladies-and-gentlemen":
        counted = Counter({"courtesan": seat.detail.get("courtesan", False), "courtesan_won": seat.detail.get("courtesan", False) and seat.won,
                           "scandals": seat.detail.get("scandal", False), "excluded": seat.detail.get("excluded", False)})
        for what, value in counted.items():
            tally[what] = tally.get(what, 0) + int(value)


def _finish_game(tally: dict[str, Any]) -> dict[str, Any]:
    points = tally.pop("points", None)
    if points:
        tally["average"] = round(sum(points) / len(points), 1)
        tally["best"] = max(points)
    return tally


def head_to_head(plays: Sequence[Play], first: str, second: str) -> dict[str, Any]:
    """The games two players played together: how often each finished ahead of the other."""
    together = ahead = behind = 0
    for play in plays:
        ranks = {s.name: s.rank for s in play.seats}
        if first in ranks and second in ranks:
            together += 1
            ahead += ranks[first] < ranks[second]
            behind += ranks[first] > ranks[second]
    return {"players": [first, second], "together": together, "ahead": {first: ahead, second: behind}, "level": together - ahead - behind}


CSV_COLUMNS = ("date", "game_id", "game", "title", "player", "played_as", "seat", "score", "rank", "won", "minutes")


def plays_csv(plays: Sequence[Play]) -> str:
    """One row per player per game, for spreadsheets."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for play in plays:
        for seat in play.seats:
            writer.writerow([play.started and play.started.strftime("%Y-%m-%d %H:%M"), play.game, play.kind, play.title or "",
                             seat.name, seat.played_as, seat.seat, "" if seat.score is None else seat.score,
                             seat.rank, int(seat.won), "" if play.minutes is None else play.minutes])
    return out.getvalue()
