"""Statistics of finished games, kept beside the log.

When a game finishes (or a finished game changes: a void after the end, a void that
reopens it), `Plays.keep` writes one row for the game and one per seat (`plays`,
`play_seats`) in the same transaction as the event that changed it. Statistics pages and
`referee stats` read only these rows: no game is replayed per request. A game that hides
anything counts only once the host has revealed its secrets, so nothing of an unfinished
game (or one whose end the host has not confirmed) is ever in them.

The rows are plain values, never deserialized code; `referee stats --rebuild` (and the
first opening of a store made before them) writes them anew from the logs, all in one
transaction that also marks them complete (`meta`): a rebuild cut off (kill -9) leaves the
rows as they were and no mark, and the next opening of the store rebuilds them.

A game the table ended early (its `end` before the rules ended it) counts as played and
is listed as "ended early"; its wins are whom its rules still name (`Result.winners`),
often nobody, and one that names nobody is left out of win rates (`decided` 0): it was
never won or lost (no win rate at all for a player with no other game; its CSV rows have
an empty `won`; the pages say "1 game ended early" beside the finished ones, and beside
each player's games played, so a win rate of fewer games than played reads right).

Times: a game starts at its header's `started_at`, else its first event's `at`, else when
it was stored; it ends at its last event's `at`. Games of one group whose starts follow
the previous game's end within `EVENING_GAP` form one evening (a game night). How long a
game took is its playing time (`playing_time`): its breaks left out. How long each move
took (`paced`) is kept per move (`play_moves`) for "who took longest to move".
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from statistics import median
from typing import Any

from .games.base import places
from .replay import Fold, replay
from .store import Store

EVENING_GAP = timedelta(hours=4)
STATISTICS = "statistics"  # the `meta` key that marks the kept rows complete
EARLIEST = datetime.min.replace(tzinfo=timezone.utc)
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


def minutes(time: timedelta | None) -> int | None:
    return None if time is None else round(time.total_seconds() / 60)


def not_taken(fold: Fold) -> set[int]:
    """The events the fold did not take in: flagged or voided."""
    return {seq for seq, _ in fold.violations} | {w.seq for w in fold.withdrawn}


def paced(fold: Fold, events: Sequence[Mapping[str, Any]]) -> Iterator[tuple[Mapping[str, Any], timedelta | None]]:
    """Each event up to the fold's, with the playing time since the event with a time
    before it: None for the first event with a time, one without (it is taken as logged at
    the time before it) and one logged during a break. Time between a standing `pause` and
    its `resume` is a break; a time earlier than the one before counts as no time."""
    skipped = not_taken(fold)  # a flagged or voided pause is no break
    paused, last = False, None
    for event in events:
        if event["seq"] > fold.seq:
            return
        moment, gap = when(event.get("at")), None
        if moment is not None:
            if last is not None and not paused:
                gap = max(moment - last, timedelta(0))
            last = moment
        if event["type"] in ("pause", "resume") and event["seq"] not in skipped:
            paused = event["type"] == "pause"
        yield event, gap


def break_since(fold: Fold, events: Sequence[Mapping[str, Any]]) -> datetime | None:
    """When the table's break began (its standing `pause`'s `at`), while it is on one."""
    if not fold.paused:
        return None
    skipped = not_taken(fold)
    pause = next((e for e in reversed(events) if e["type"] == "pause" and e["seq"] <= fold.seq and e["seq"] not in skipped), None)
    return None if pause is None else when(pause.get("at"))


def playing_time(fold: Fold, events: Sequence[Mapping[str, Any]]) -> timedelta | None:
    """How long the table played (DESIGN: its first to its last event's `at`, less its
    breaks; a break not resumed ends with the last event); None if no event has a time."""
    if not any(when(event.get("at")) for event in events if event["seq"] <= fold.seq):
        return None
    return sum((gap for _, gap in paced(fold, events) if gap is not None), timedelta(0))


def timed_moves(fold: Fold, events: Sequence[Mapping[str, Any]]) -> list[tuple[int, int, float]]:
    """(seq, seat, seconds) of each player's move the fold took in (not a private record, a
    flagged or a voided one) that has a time: the playing time since the event before it."""
    game = fold.game
    skipped = not_taken(fold)
    return [(event["seq"], event["seat"], gap.total_seconds()) for event, gap in paced(fold, events)
            if gap is not None and event.get("seat") is not None and event["seq"] not in skipped
            and event["type"] in game.events and event["type"] not in game.private_events]


DETAILS = ("boss", "boss_streak", "dishwasher", "dishwasher_streak", "courtesan", "scandal", "excluded")


def seat_details(fold: Fold) -> list[dict[str, int]]:
    """What each seat's statistics need beyond score and rank, per game: Karriere Poker's
    Boss and Tellerwäscher counts and longest streaks (within the match); Ladies &
    Gentlemen's courtesan, scandal and the team it excluded."""
    seats = fold.header.seats
    detail = fold.result().detail
    if fold.header.game == "karriere-poker":
        finishes = [row["finish"] for row in detail.get("games", []) if row["finish"]]
        return [{**_count_and_streak(name, "boss", [f[0]["player"] for f in finishes]),
                 **_count_and_streak(name, "dishwasher", [f[-1]["player"] for f in finishes])} for name in seats]
    if fold.header.game == "ladies-and-gentlemen":
        courtesan = fold.view(None).get("courtesan")
        excluded = set(detail.get("excluded", []))
        return [{"courtesan": int(name == courtesan), "scandal": int(bool(detail.get("scandal"))), "excluded": int(name in excluded)}
                for name in seats]
    return [{} for _ in seats]


def _count_and_streak(name: str, what: str, holders: list[str]) -> dict[str, int]:
    longest = run = 0
    for holder in holders:
        run = run + 1 if holder == name else 0
        longest = max(longest, run)
    return {what: holders.count(name), f"{what}_streak": longest}


@dataclass(slots=True)
class Seat:
    seat: int
    name: str  # the player: the group's name for them, else the name played with
    played_as: str  # the name in the record
    score: int | None
    rank: int
    won: bool


@dataclass(slots=True)
class Play:
    game: str
    kind: str
    started: datetime | None
    ended: datetime | None
    minutes: int | None
    title: str | None
    ended_early: bool = False
    winners: list[str] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)


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


@dataclass(frozen=True)
class Source:
    """Whose seats a statistic reads: every finished game by the name played with, or a
    group's by its players (their ids kept with each seat, their names after merges)."""

    seats: str  # FROM ... WHERE ..., the seats as `s`
    plays: str  # a condition on `plays` (as `p`)
    params: tuple[Any, ...]
    key: str  # the column that tells the player apart
    person: Mapping[Any, str] | None  # key -> the player's name, where not the key itself

    def name(self, key: Any) -> str:
        return str(key) if self.person is None else self.person.get(key, "?")


def regroup(store: Store, game_id: str) -> None:
    """Copy the game's group and each seat's player (`referee.groups`) into its kept rows,
    so a group's statistics read its rows by an index (inside the caller's transaction).
    A store without groups has nothing to copy."""
    if not store.db.table_exists("group_seats"):
        return
    store.db.execute("UPDATE plays SET grp = (SELECT grp FROM group_seats WHERE game = ?1 AND seat = 0) WHERE game = ?1", [game_id])
    store.db.execute(
        "UPDATE play_seats SET (grp, player) = (SELECT COALESCE(MAX(grp), ''), MAX(player) FROM group_seats g "
        "WHERE g.game = ?1 AND g.seat = play_seats.seat) WHERE game = ?1", [game_id])


class Plays:
    """The kept rows of finished games, and the statistics read from them (in SQL: the
    10,000 games of a club are summed up without building an object per seat)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        db = store.db
        with store.lock:
            new = not db.table_exists("plays")
            db.execute(
                "CREATE TABLE IF NOT EXISTS plays (game TEXT PRIMARY KEY REFERENCES games (id), grp TEXT, kind TEXT NOT NULL, "
                "seq INTEGER NOT NULL, started_at TEXT, ended_at TEXT, minutes INTEGER, title TEXT, house_rules INTEGER, ended_early INTEGER)")
            if not new and "house_rules" not in db.columns("plays"):  # rows from before house rules: filled in anew below
                db.execute("ALTER TABLE plays ADD COLUMN house_rules INTEGER")
                db.execute("DELETE FROM meta WHERE key = ?", [STATISTICS])
            # A group's seats lie together (clustered by group): its statistics read one stretch.
            db.execute(
                "CREATE TABLE IF NOT EXISTS play_seats (grp TEXT NOT NULL DEFAULT '', game TEXT NOT NULL REFERENCES plays (game), "
                "seat INTEGER NOT NULL, player INTEGER, kind TEXT NOT NULL, started_at TEXT, name TEXT NOT NULL, score INTEGER, "
                f"rank INTEGER NOT NULL, won INTEGER NOT NULL, {', '.join(f'{c} INTEGER' for c in DETAILS)}, "
                "decided INTEGER, PRIMARY KEY (grp, game, seat)) WITHOUT ROWID"
            )
            if "decided" not in db.columns("play_seats"):  # rows from before early ends: filled in anew below
                db.execute("ALTER TABLE plays ADD COLUMN ended_early INTEGER")
                db.execute("ALTER TABLE play_seats ADD COLUMN decided INTEGER")
                db.execute("DELETE FROM meta WHERE key = ?", [STATISTICS])
            # Each player's move with how long it took (`timed_moves`): for "who took longest to move".
            db.execute("CREATE TABLE IF NOT EXISTS play_moves (game TEXT NOT NULL REFERENCES plays (game), seq INTEGER NOT NULL, "
                       "seat INTEGER NOT NULL, seconds INTEGER NOT NULL, PRIMARY KEY (game, seq)) WITHOUT ROWID")
            if "players" not in db.columns("plays"):  # rows from before playing times: filled in anew below
                db.execute("ALTER TABLE plays ADD COLUMN players INTEGER")
                db.execute("DELETE FROM meta WHERE key = ?", [STATISTICS])
            db.execute("CREATE INDEX IF NOT EXISTS idx_plays_grp ON plays (grp)")
            db.execute("CREATE INDEX IF NOT EXISTS idx_play_seats_game ON play_seats (game)")
        if not self.complete():
            self.rebuild()

    def complete(self) -> bool:
        """Whether the kept rows are whole: rebuilt from every log at least once, since when
        every change is kept in the transaction of the event that made it."""
        return self.store.meta(STATISTICS) == "complete"

    def counts(self, fold: Fold, revealed: bool) -> bool:
        """Whether a game is in the statistics: finished, and its secrets revealed if it has any."""
        return fold.outcome is not None and (revealed or not fold.game.private_events)

    def keep(self, game_id: str, fold: Fold, events: Sequence[Mapping[str, Any]], revealed: bool) -> None:
        """Write (or drop) the game's rows; called inside the store's transaction."""
        execute = self.store.db.execute
        execute("DELETE FROM play_moves WHERE game = ?", [game_id])
        execute("DELETE FROM play_seats WHERE game = ?", [game_id])
        execute("DELETE FROM plays WHERE game = ?", [game_id])
        if not self.counts(fold, revealed):
            return
        start, end = span(fold, events, self.store.created_at(game_id))
        started = start and start.isoformat()
        result = fold.result()
        execute(
            "INSERT INTO plays (game, kind, seq, started_at, ended_at, minutes, title, house_rules, ended_early, players) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [game_id, fold.header.game, fold.seq, started, end and end.isoformat(), minutes(playing_time(fold, events)), fold.header.title,
             int(bool(fold.header.house_rules)), int(result.ended_early), len(fold.header.seats)],
        )
        self.store.db.executemany("INSERT INTO play_moves (game, seq, seat, seconds) VALUES (?, ?, ?, ?)",
                                  [(game_id, seq, seat, round(seconds)) for seq, seat, seconds in timed_moves(fold, events)])
        rank_of = places(result.ranking)
        unranked = len(rank_of) + 1
        decided = int(bool(result.winners) or not result.ended_early)
        self.store.db.executemany(
            f"INSERT INTO play_seats (game, seat, kind, started_at, name, score, rank, won, {', '.join(DETAILS)}, decided) "
            f"VALUES ({', '.join('?' * (9 + len(DETAILS)))})",
            [(game_id, seat, fold.header.game, started, name, result.scores.get(name), rank_of.get(name, unranked),
              int(name in result.winners), *(extra.get(column) for column in DETAILS), decided)
             for seat, (name, extra) in enumerate(zip(fold.header.seats, seat_details(fold), strict=True))],
        )
        regroup(self.store, game_id)

    def rebuild(self) -> int:
        """Write every game's rows anew from its log, in one transaction (all or nothing),
        and mark them complete; the number of games that count."""
        counted = 0
        with self.store.transaction():
            self.store.set_meta(STATISTICS, None)
            for row in self.store.games():
                events = self.store.events(row["id"])
                fold = replay(self.store.header(row["id"]), events)
                revealed = self.store.revealed(row["id"]) is not None
                self.keep(row["id"], fold, events, revealed)
                counted += self.counts(fold, revealed)
            self.store.set_meta(STATISTICS, "complete")
        return counted

    # --- reading -----------------------------------------------------------------------

    def source(self, group_id: str | None) -> Source:
        if group_id is None:
            return Source("FROM play_seats s WHERE 1 = 1", "1 = 1", (), "s.name", None)
        with self.store.lock:
            person = dict(self.store.db.execute(
                "SELECT p.id, COALESCE(m.name, p.name) FROM group_players p LEFT JOIN group_players m ON m.id = p.merged_into "
                "WHERE p.grp = ?", [group_id]).fetchall())
        return Source("FROM play_seats s WHERE s.grp = ?", "p.grp = ?", (group_id,), "s.player", person)

    def _query(self, sql: str, params: Sequence[Any]) -> list[Any]:
        with self.store.lock:
            return self.store.db.execute(sql, list(params)).fetchall()

    def plays(self, group_id: str | None = None, seats: bool = False, kind: str | None = None, latest: int | None = None) -> list[Play]:
        """The kept plays (of one game, the `latest` ones), oldest first, with their winners
        and, if asked, every seat."""
        source = self.source(group_id)
        if latest is None:  # every play (of one game): read straight
            chosen, plays_where = [*source.params, *([kind] if kind else [])], source.plays + (" AND p.kind = ?" if kind else "")
            seats_where = source.seats + (" AND s.kind = ?" if kind else "")
        else:  # the latest few
            games = (f"SELECT game FROM plays p WHERE {source.plays}" + (" AND p.kind = ?" if kind else "")
                     + " ORDER BY julianday(started_at) DESC, game DESC LIMIT ?")
            chosen = [*source.params, *([kind] if kind else []), latest]
            plays_where, seats_where = f"p.game IN ({games})", f"{source.seats} AND s.game IN ({games})"
        found = [Play(game, game_kind, when(started), when(ended), mins, title, bool(early))
                 for game, game_kind, started, ended, mins, title, early in self._query(
            f"SELECT game, kind, started_at, ended_at, minutes, title, ended_early FROM plays p WHERE {plays_where} "
            "ORDER BY julianday(started_at), game", chosen)]
        by_game = {play.game: play for play in found}
        rows = self._query(f"SELECT s.game, s.seat, {source.key}, s.name, s.score, s.rank, s.won {seats_where}"
                           + ("" if seats else " AND s.won = 1") + " ORDER BY s.game, s.seat",
                           chosen if latest is None else [*source.params, *chosen])
        for game, seat, key, played_as, score, rank, won in rows:
            play, name = by_game[game], source.name(key)
            if won:
                play.winners.append(name)
            if seats:
                play.seats.append(Seat(seat, name, played_as, score, rank, bool(won)))
        return found

    def summary(self, group_id: str | None = None) -> dict[str, Any]:
        """Per player: games played and won, win rate, per game, the last results; plus the
        evenings. JSON-ready."""
        source = self.source(group_id)
        tallies: dict[str, dict[str, dict[str, int]]] = defaultdict(dict)
        sums = ", ".join(f"SUM(s.{c})" if not c.endswith("_streak") else f"MAX(s.{c})" for c in DETAILS)
        for key, kind, *values in self._query(
                f"SELECT {source.key}, s.kind, COUNT(*), SUM(s.won), SUM(s.decided), SUM(s.score), COUNT(s.score), MAX(s.score), "
                f"SUM(s.courtesan * s.won), {sums} {source.seats} GROUP BY 1, 2", source.params):
            _add(tallies[source.name(key)].setdefault(kind, {}), values)
        plays = self.plays(group_id)
        last = self.last_results(source, set(tallies))
        shown: list[dict[str, Any]] = []
        for name, games in tallies.items():
            played, won = sum(t["played"] for t in games.values()), sum(t["won"] for t in games.values())
            decided = sum(t["decided"] for t in games.values())  # the games ended early with no winner left out
            shown.append({"name": name, "played": played, "won": won, "decided": decided, "win_rate": round(won / decided, 3) if decided else None,
                          "games": {kind: _shown(kind, tally) for kind, tally in sorted(games.items())}, "last": last.get(name, [])})
        shown.sort(key=lambda p: (-p["won"], -p["played"], p["name"].casefold()))
        [(house_rule_games,)] = self._query(f"SELECT COUNT(*) FROM plays p WHERE {source.plays} AND p.house_rules = 1", source.params)
        lengths = self._query(f"SELECT p.kind, p.players, COUNT(*), AVG(p.minutes) FROM plays p WHERE {source.plays} AND p.minutes IS NOT NULL "
                              "GROUP BY p.kind, p.players ORDER BY p.kind, p.players", source.params)
        return {
            "games": len(plays),
            "ended_early": sum(p.ended_early and not p.winners for p in plays),  # nobody won or lost these
            "house_rule_games": house_rule_games,
            # The average playing time of each game at each number of players (games with times only).
            "lengths": [{"kind": kind, "players": players, "games": games, "minutes": round(float(average))}
                        for kind, players, games, average in lengths],
            "players": shown,
            "evenings": [{"date": n.plays[0].started and n.plays[0].started.date().isoformat(), "minutes": n.minutes,
                          "games": [{"game": p.game, "kind": p.kind, "title": p.title, "minutes": p.minutes, "winners": p.winners,
                                     "ended_early": p.ended_early}
                                    for p in n.plays]} for n in evenings(plays)],
        }

    def last_results(self, source: Source, names: set[str], batch: int = 200) -> dict[str, list[dict[str, Any]]]:
        """Each player's latest LAST_RESULTS results, newest first: read from the newest
        games back, a batch at a time, until every player has them (or the games end)."""
        last: dict[str, list[dict[str, Any]]] = defaultdict(list)
        offset = 0
        while any(len(last[name]) < LAST_RESULTS for name in names):
            rows = self._query(
                f"SELECT s.game, s.kind, s.started_at, {source.key}, s.rank, s.won, s.score, s.decided {source.seats} AND s.game IN "
                f"(SELECT game FROM plays p WHERE {source.plays} ORDER BY julianday(started_at) DESC, game DESC LIMIT ? OFFSET ?) "
                "ORDER BY julianday(s.started_at) DESC, s.game DESC, s.seat", [*source.params, *source.params, batch, offset])
            if not rows:
                break
            for game, kind, started, key, rank, won, score, decided in rows:
                mine = last[source.name(key)]
                if len(mine) < LAST_RESULTS:
                    begun = when(started)
                    mine.append({"game": game, "kind": kind, "date": begun and begun.date().isoformat(), "rank": rank, "won": bool(won),
                                 "decided": bool(decided), **({"score": score} if score is not None else {})})
            offset += batch
        return dict(last)

    def move_times(self, group_id: str | None) -> list[dict[str, Any]]:
        """Who took longest to move: per player, the median time of a move (`timed_moves`,
        breaks left out) and how many moves had a time, slowest first."""
        source = self.source(group_id)
        taken: dict[str, list[int]] = defaultdict(list)
        for key, seconds in self._query(f"SELECT s.who, m.seconds FROM play_moves m JOIN (SELECT {source.key} AS who, s.game, s.seat "
                                        f"{source.seats}) s ON s.game = m.game AND s.seat = m.seat", source.params):
            taken[source.name(key)].append(seconds)
        shown = [{"name": name, "median_seconds": round(median(times)), "moves": len(times)} for name, times in taken.items()]
        return sorted(shown, key=lambda p: (-p["median_seconds"], p["name"].casefold()))

    def head_to_head(self, group_id: str | None, first: str, second: str) -> dict[str, Any]:
        """The games two players played together: how often each finished ahead of the other."""
        source = self.source(group_id)
        keys = [[name] if source.person is None else [k for k, n in source.person.items() if n == name] for name in (first, second)]
        ranks: dict[str, list[int | None]] = {}
        wanted = [*keys[0], *keys[1]]
        for game, key, rank in self._query(f"SELECT s.game, {source.key}, s.rank {source.seats} AND {source.key} IN "
                                           f"({', '.join('?' * len(wanted)) or 'NULL'})", [*source.params, *wanted]):
            ranks.setdefault(game, [None, None])[0 if key in keys[0] else 1] = rank
        pairs = [(a, b) for a, b in ranks.values() if a is not None and b is not None]
        ahead, behind = sum(a < b for a, b in pairs), sum(a > b for a, b in pairs)
        return {"players": [first, second], "together": len(pairs), "ahead": {first: ahead, second: behind},
                "level": len(pairs) - ahead - behind}


def _add(tally: dict[str, int], values: Sequence[Any]) -> None:
    """Add one row of the summary's sums (a player's, or a merged spelling's) to a tally."""
    played, won, decided, points, scored, best, courtesan_won, *details = values
    for name, value in (("played", played), ("won", won), ("decided", decided), ("points", points or 0), ("scored", scored),
                        ("courtesan_won", courtesan_won or 0),
                        *zip(DETAILS, details)):
        if name.endswith("_streak"):
            tally[name] = max(tally.get(name, 0), value or 0)
        else:
            tally[name] = tally.get(name, 0) + (value or 0)
    if best is not None:
        tally["best"] = max(tally.get("best", best), best)


def _shown(kind: str, tally: dict[str, int]) -> dict[str, Any]:
    """A player's tally of one game, with the fields that game has."""
    shown: dict[str, Any] = {"played": tally["played"], "won": tally["won"], "decided": tally["decided"]}
    if tally["scored"]:
        shown.update(average=round(tally["points"] / tally["scored"], 1), best=tally["best"])
    if kind == "karriere-poker":
        shown.update({k: tally[k] for k in ("boss", "boss_streak", "dishwasher", "dishwasher_streak")})
    if kind == "ladies-and-gentlemen":
        shown.update(courtesan=tally["courtesan"], courtesan_won=tally["courtesan_won"], scandals=tally["scandal"], excluded=tally["excluded"])
    return shown


CSV_COLUMNS = ("date", "game_id", "game", "title", "player", "played_as", "seat", "score", "rank", "won", "minutes")


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(text: str | None) -> str:
    """A text cell a spreadsheet will not run: one that begins like a formula is quoted
    with a leading apostrophe (OWASP's advice on CSV injection). Numbers are ours, not text."""
    text = text or ""
    return "'" + text if text.startswith(FORMULA_START) else text


def plays_csv(plays: Sequence[Play], headers: Sequence[str] = CSV_COLUMNS) -> str:
    """One row per player per game, for spreadsheets; the names and titles players typed
    are neutralised (`cell`). `headers` name the columns (the phone's words for them)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(headers)
    for play in plays:
        for seat in play.seats:
            writer.writerow([play.started and play.started.strftime("%Y-%m-%d %H:%M"), play.game, play.kind, cell(play.title),
                             cell(seat.name), cell(seat.played_as), seat.seat, "" if seat.score is None else seat.score,
                             seat.rank, "" if play.ended_early and not play.winners else int(seat.won),  # nobody won or lost
                             "" if play.minutes is None else play.minutes])
    return out.getvalue()
