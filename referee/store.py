"""The event store: an append-only log of table records, in a SQLite file (the default)
or a PostgreSQL database (`referee.database` knows the two dialects; nothing else does).

Guarantees (DESIGN.md): triggers make UPDATE, DELETE and INSERT OR REPLACE on events
fail; the primary key (game, seq) turns a racing writer into a conflict; every event
carries the SHA-256 of (previous hash + its canonical line), the chain rooted in the
header's hash, so `verify` finds an edited row; each game keeps its head (last seq and
hash), written in the same transaction as the event, so a deleted last row, a forged
extra row or a chain recomputed after an edit no longer matches it, and players can keep
the head hash as a receipt (`referee verify --head`). Snapshots of folds are a cache
beside the log (see `referee.tables`): replaced and dropped freely, never read as events.
On SQLite: WAL with synchronous=FULL, so an acknowledged event survives a crash or power
loss; an append runs inside `BEGIN IMMEDIATE`. On PostgreSQL an append locks its game's
row first (`FOR UPDATE`), so two server processes append to one game one after the other.

An idempotency key belongs to its caller (the API scopes it by token) and keeps the
first answer beside the event, so a retry answers exactly as the first time.

A database that goes away (a restart, a disk that refuses writes) raises Unavailable,
answered 503 and sent again by the phone; the connection is made anew on the next use
(`referee.database`). An append the engine gives up (a serialization failure or a
deadlock: SERIALIZABLE, YugabyteDB, Citus) is run again, up to TRIES times with jitter.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


from .database import SQLite, TryAgain, Unavailable, connect, is_url, shown
from .record import Header, RecordError, canonical, parse_event, parse_header



# The store's layout: 1 games, events, snapshots; 2 kept answers; 3 heads; 4 reveals; 5 the
# seat a host plays; 6 seat changes (public), blind seat tokens, one token per seat, move
# codes. `Store._upgrade_schema` brings an older store up to this one.
SCHEMA_VERSION = 6
TRIES = 8  # an append the engine gives up (a serialization failure, a deadlock) is run this often at most


class StoreTooNew(Exception):
    """A store written by a newer version of Table Referee: opened, it could be damaged."""


class CopyRefused(Exception):
    """A copy that is not made: its target holds games (or is no store of ours), or the
    copy did not verify."""


class UnknownGame(LookupError):
    """No game with this id in the store."""


class SecretSeen(Exception):
    """The host would start to play after another seat's private record was logged (at `seq`)."""

    def __init__(self, seq: int) -> None:
        self.seq = seq
        super().__init__(f"another seat's private record was logged at event {seq}")


class Conflict(Exception):
    """The client's view is stale: another event was stored first. Nothing was stored."""

    def __init__(self, current_seq: int) -> None:
        self.current_seq = current_seq
        super().__init__(f"conflict: the game is at seq {current_seq}")


@dataclass(frozen=True)
class Stored:
    """An event as stored; `new` is False when an idempotency key found an earlier one.

    `answer` is what the caller's `judge` said of the event when it was stored.
    """

    game_id: str
    event: dict[str, Any]
    new: bool = True
    answer: Any = None

    @property
    def seq(self) -> int:
        return int(self.event["seq"])


def chain_hash(previous: str, line: str) -> str:
    return hashlib.sha256((previous + line).encode("utf-8")).hexdigest()


def now() -> str:
    """The time to the second, as ISO 8601 in UTC."""
    return _second(int(time.time()))


@lru_cache(maxsize=1)
def _second(second: int) -> str:
    """Written once per second: an append asks for the time on every move."""
    return datetime.fromtimestamp(second, UTC).isoformat()


def new_game_id() -> str:
    """Random, URL-safe, unguessable (72 bits), and never starting with "-" (a CLI option)."""
    while True:
        game_id = secrets.token_urlsafe(9)
        if not game_id.startswith("-"):
            return game_id


class _Transaction:
    """`with store.transaction():` BEGIN IMMEDIATE under the store's lock, then COMMIT, or
    ROLLBACK on any exception (and when the COMMIT itself fails). One inside another (an
    import of many games) joins the outer one: all of it is stored, or nothing. A plain
    context manager, made once per store: every move opens one, and a generator-based one
    costs several microseconds more."""

    def __init__(self, store: Store) -> None:
        self.lock, self.db = store.lock, store.db
        self.depth = 0  # only the thread holding the lock changes it

    def __enter__(self) -> None:
        self.lock.acquire()
        if self.depth:
            self.depth += 1
            return
        try:
            self.db.begin()
        except BaseException:
            self.lock.release()
            raise
        self.depth = 1

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        self.depth -= 1
        if self.depth:
            self.lock.release()  # the outer transaction commits or rolls back
            return
        try:
            if kind is None:
                self.db.commit()
        finally:
            try:
                if self.db.in_transaction:  # an exception, or a COMMIT that failed
                    self.db.rollback()
            finally:
                self.lock.release()


class Store:
    """One SQLite file of games and their events; safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        """The store at `path`: a SQLite file's path, or a `postgresql://` URL."""
        self.path = str(path)
        if not is_url(self.path) and self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            Path(self.path).touch(mode=0o600)  # secrets live here: owner only (WAL files follow)
        self.db = connect(self.path)
        self.lock = threading.RLock()
        self._transaction = _Transaction(self)
        self._headers: dict[str, Header] = {}
        with self.lock:
            self._create_schema()

    def _create_schema(self) -> None:
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        found = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        version = int(found[0]) if found else 0
        if version > SCHEMA_VERSION:  # refused before anything in it changes
            self.db.close()
            raise StoreTooNew(f"{shown(self.path)} was written by a newer Table Referee (store layout {version}; this one knows up to "
                              f"{SCHEMA_VERSION}): update Table Referee to open it")
        # `rowid` keeps the order games were stored in (SQLite's own; a column on PostgreSQL).
        self.db.executescript(f"""
CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, game TEXT NOT NULL, header TEXT NOT NULL, hash TEXT NOT NULL,
  created_at TEXT NOT NULL, head_seq INTEGER, head_hash TEXT, revealed_seq INTEGER, host_seat INTEGER{self.db.ROWID});
CREATE TABLE IF NOT EXISTS events (game TEXT NOT NULL REFERENCES games (id), seq INTEGER NOT NULL, body TEXT NOT NULL,
  hash TEXT NOT NULL, idempotency_key TEXT, stored_at TEXT NOT NULL, answer TEXT, PRIMARY KEY (game, seq));
CREATE TABLE IF NOT EXISTS snapshots (game TEXT NOT NULL REFERENCES games (id), seq INTEGER NOT NULL, hash TEXT NOT NULL,
  fingerprint TEXT NOT NULL, fold BLOB NOT NULL, PRIMARY KEY (game, seq));
CREATE TABLE IF NOT EXISTS seat_changes (game TEXT NOT NULL REFERENCES games (id), seq INTEGER NOT NULL, seat INTEGER NOT NULL,
  kind TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS join_codes (code TEXT PRIMARY KEY, game TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS idx_join_codes_game ON join_codes (game);
CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, game TEXT NOT NULL, role TEXT NOT NULL, seat INTEGER,
  created_at TEXT NOT NULL, blind INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS move_codes (hash TEXT PRIMARY KEY, game TEXT NOT NULL, seat INTEGER NOT NULL, blind INTEGER NOT NULL,
  expires BIGINT NOT NULL);
""")
        if version < SCHEMA_VERSION:
            self._upgrade_schema()
        # Only keyed events are indexed: a move without a key writes no index page.
        self.db.execute("DROP INDEX IF EXISTS idx_events_game_idempotency_key")
        self.db.execute(
            "CREATE UNIQUE INDEX IF NOT EXISTS events_idempotency_key ON events (game, idempotency_key) "
            "WHERE idempotency_key IS NOT NULL"
        )
        # One seat, one token: a second claim of a seat is an integrity error, in any process.
        self.db.execute("CREATE INDEX IF NOT EXISTS idx_tokens_game_seat ON tokens (game, seat)")
        self.db.execute("CREATE UNIQUE INDEX IF NOT EXISTS tokens_one_per_seat ON tokens (game, seat) WHERE role = 'seat'")
        self.db.executescript(self.db.triggers)

    def _upgrade_schema(self) -> None:
        """The store's layout is versioned (`SCHEMA_VERSION`, kept in `meta`, checked on open:
        a store of a newer version is refused). An older store is brought up to date: the
        columns added since, heads from the chain."""
        events, games = self.db.columns("events"), self.db.columns("games")
        if "answer" not in events:
            self.db.execute("ALTER TABLE events ADD COLUMN answer TEXT")
        if "revealed_seq" not in games:
            self.db.execute("ALTER TABLE games ADD COLUMN revealed_seq INTEGER")
        if "host_seat" not in games:
            self.db.execute("ALTER TABLE games ADD COLUMN host_seat INTEGER")
        if "head_seq" not in games:
            self.db.execute("ALTER TABLE games ADD COLUMN head_seq INTEGER")
            self.db.execute("ALTER TABLE games ADD COLUMN head_hash TEXT")
            self.db.execute("DROP TRIGGER IF EXISTS games_header_fixed")
            self.db.execute(
                "UPDATE games SET head_seq = COALESCE((SELECT MAX(seq) FROM events WHERE game = games.id), 0), "
                "head_hash = COALESCE((SELECT hash FROM events WHERE game = games.id ORDER BY seq DESC LIMIT 1), hash)"
            )
        if "blind" not in self.db.columns("tokens"):
            self.db.execute("ALTER TABLE tokens ADD COLUMN blind INTEGER NOT NULL DEFAULT 0")
        # Two phones that held one seat (before claims were one transaction): the first keeps it.
        self.db.execute(
            "DELETE FROM tokens WHERE role = 'seat' AND EXISTS (SELECT 1 FROM tokens t WHERE t.game = tokens.game "
            "AND t.seat = tokens.seat AND t.role = 'seat' AND (t.created_at < tokens.created_at "
            "OR (t.created_at = tokens.created_at AND t.hash < tokens.hash)))")
        self.db.execute("INSERT INTO meta (key, value) VALUES ('schema', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                        [str(SCHEMA_VERSION)])

    def meta(self, key: str) -> str | None:
        """A fact about the store itself (e.g. whether its statistics are complete)."""
        with self.lock:
            row = self.db.execute("SELECT value FROM meta WHERE key = ?", [key]).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str | None) -> None:
        """Set (None: forget) a fact about the store, inside the caller's transaction."""
        if value is None:
            self.db.execute("DELETE FROM meta WHERE key = ?", [key])
        else:
            self.db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", [key, value])

    def transaction(self) -> _Transaction:
        """One write transaction under the store's lock: all of it is stored, or nothing."""
        return self._transaction

    def close(self) -> None:
        self.db.close()

    # Every table of a store with its groups and statistics, in the order a copy fills them.
    TABLES = ("meta", "games", "events", "snapshots", "seat_changes", "join_codes", "tokens", "move_codes", "groups", "group_players", "group_seats",
              "group_house_rules", "group_house_rule_changes", "plays", "play_seats", "play_moves")

    def copy_rows_to(self, copy: Store, keep_snapshots: bool) -> None:
        """Every row of this store into `copy`, an empty store of any backend whose tables
        are made (by `Store`, `Access` and `Groups`), in one transaction of the copy that
        also verifies it: all of it, or nothing (CopyRefused)."""
        with self.lock, copy.transaction():
            if copy.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]:
                raise CopyRefused(f"{shown(copy.path)} is not empty: a copy goes into an empty store")
            for table in self.TABLES:
                if not self.db.table_exists(table) or (table == "snapshots" and not keep_snapshots):
                    continue
                columns = sorted(self.db.columns(table) & copy.db.columns(table) - {"rowid"}) + (["rowid"] if table == "games" else [])
                rows = self.db.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
                conflict = " ON CONFLICT (key) DO UPDATE SET value = excluded.value" if table == "meta" else ""
                copy.db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))}){conflict}", rows)
            copy.db.numbered("games", "rowid")
            copy.db.numbered("group_players", "id")
            problems = copy.verify()
            if problems:
                raise CopyRefused(f"the copy does not verify: {problems[0]}")

    def copy_to(self, target: str | Path, keep_snapshots: bool) -> None:
        """The whole store (games with their chains, tokens, groups, statistics) into the
        file `target`, all or nothing, while the store is in use: SQLite's backup of one
        consistent moment into `target.partial`, checked (`verify`), then renamed into
        place. A target that holds a game is refused untouched (CopyRefused). Snapshots
        are sealed with the key beside the store: `keep_snapshots` False drops them from
        the copy (a cache; the copy rebuilds them)."""
        target = Path(target)
        assert isinstance(self.db, SQLite), "a copy by backup is SQLite's"
        if SQLite.holds_games(target):
            raise CopyRefused(f"{target} is not empty: a copy goes into a new file (or an empty store)")
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        partial.parent.mkdir(parents=True, exist_ok=True)
        partial.touch(mode=0o600)
        try:
            with self.lock:
                self.db.backup(partial, keep_snapshots)
            problems = Store(partial).verify()
            if problems:
                raise CopyRefused(f"the copy does not verify: {problems[0]}")
            partial.replace(target)
        finally:
            partial.unlink(missing_ok=True)

    # --- games -----------------------------------------------------------------------

    def create_game(self, header: Header, game_id: str | None = None, events: Iterable[Mapping[str, Any]] = (),
                    revealed_seq: int | None = None, then: Callable[[str], None] | None = None, created_at: str | None = None,
                    host_seat: int | None = None) -> str:
        """Store a new game's header and, for an import, its checked events (revealed as of
        `revealed_seq`; stored first at `created_at`, where a group's file says so), all in
        one transaction (an import is all or nothing) with `then(id)`; returns its id.
        `host_seat`: the seat the host plays, if any (see `set_host_seat`)."""
        game_id = game_id or new_game_id()
        line = canonical(header.to_json())
        root = chain_hash("", line)
        try:
            with self.transaction():
                self.db.execute(
                    "INSERT INTO games (id, game, header, hash, created_at, head_seq, head_hash, revealed_seq, host_seat) "
                    "VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)",
                    [game_id, header.game, line, root, created_at or now(), root, revealed_seq, host_seat],
                )
                head = (0, root)
                for event in events:
                    head = self._insert(game_id, event, head[1], None, None)
                if then is not None:
                    then(game_id)
        except self.db.IntegrityError:
            raise RecordError(f"a game with id {game_id!r} exists already") from None
        self._headers[game_id] = header
        return game_id

    def header(self, game_id: str) -> Header:
        header = self._headers.get(game_id)
        if header is None:
            with self.lock:
                row = self.db.execute("SELECT header FROM games WHERE id = ?", [game_id]).fetchone()
            if row is None:
                raise UnknownGame(f"no game {game_id!r}")
            header = self._headers[game_id] = parse_header(json.loads(row[0]), None)
        return header

    def games(self, ids: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """Every game (or those of `ids`), newest first, with its event count."""
        wanted = None if ids is None else [str(game_id) for game_id in ids][:100]
        where = "" if wanted is None else f"WHERE g.id IN ({', '.join('?' * len(wanted))}) "
        with self.lock:
            rows = self.db.query(
                "SELECT g.id, g.game, g.header, g.created_at, COUNT(e.seq) AS events "
                f"FROM games g LEFT JOIN events e ON e.game = g.id {where}GROUP BY g.id "
                "ORDER BY g.created_at DESC, g.rowid DESC",
                wanted or [],
            )
            return [{**row, "header": json.loads(row["header"])} for row in rows]

    # --- events ----------------------------------------------------------------------

    def last_seq(self, game_id: str) -> int:
        with self.lock:
            row = self.db.execute("SELECT MAX(seq) FROM events WHERE game = ?", [game_id]).fetchone()
        return int(row[0] or 0)

    def events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        """The events of a game with seq > after, in order."""
        self.header(game_id)
        with self.lock:
            rows = self.db.execute(
                "SELECT body FROM events WHERE game = ? AND seq > ? ORDER BY seq", [game_id, after]
            ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def rows(self, game_id: str, after: int = 0) -> list[tuple[int, str, str]]:
        """(seq, stored line, chain hash) of the events after `after`, as stored."""
        with self.lock:
            rows = self.db.execute("SELECT seq, body, hash FROM events WHERE game = ? AND seq > ? ORDER BY seq", [game_id, after]).fetchall()
        return [(int(seq), str(body), str(digest)) for seq, body, digest in rows]

    def created_at(self, game_id: str) -> str:
        """When the game was stored: the start of a game whose record does not say it."""
        with self.lock:
            row = self.db.execute("SELECT created_at FROM games WHERE id = ?", [game_id]).fetchone()
        if row is None:
            raise UnknownGame(f"no game {game_id!r}")
        return str(row[0])

    def root(self, game_id: str) -> str:
        """The header's hash: where the game's chain starts."""
        with self.lock:
            row = self.db.execute("SELECT hash FROM games WHERE id = ?", [game_id]).fetchone()
        if row is None:
            raise UnknownGame(f"no game {game_id!r}")
        return str(row[0])

    def event(self, game_id: str, seq: int) -> dict[str, Any] | None:
        """One stored event, or None (a seq past what the database's integers hold too)."""
        if not 0 < seq < 2**63:
            return None
        with self.lock:
            row = self.db.execute("SELECT body FROM events WHERE game = ? AND seq = ?", [game_id, seq]).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def head(self, game_id: str) -> tuple[int, str]:
        """The last seq and its chain hash, as kept beside the game: the players' receipt."""
        self.header(game_id)
        with self.lock:
            row = self.db.execute("SELECT head_seq, head_hash FROM games WHERE id = ?", [game_id]).fetchone()
            if row[0] is None or row[1] is None:  # an edited games row (verify names it): the chain's own end
                row = self.db.execute(
                    "SELECT COALESCE(MAX(e.seq), 0), COALESCE((SELECT hash FROM events WHERE game = ?1 ORDER BY seq DESC LIMIT 1), g.hash) "
                    "FROM games g LEFT JOIN events e ON e.game = g.id WHERE g.id = ?1", [game_id]
                ).fetchone()
        return int(row[0]), str(row[1])

    def revealed(self, game_id: str) -> int | None:
        """The seq at which the host revealed the game's secrets (for good), or None."""
        with self.lock:
            row = self.db.execute("SELECT revealed_seq FROM games WHERE id = ?", [game_id]).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def host_seat(self, game_id: str) -> int | None:
        """The seat the host plays (public: every phone is told), or None: a host who only
        keeps score, the one reader trusted with every secret."""
        with self.lock:
            row = self.db.execute("SELECT host_seat FROM games WHERE id = ?", [game_id]).fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def set_host_seat(self, game_id: str, seat: int, private: frozenset[str] = frozenset()) -> int:
        """The host plays `seat` from now on; once set it never changes (a trigger refuses
        it), so a host who has seen only a seat's share can never widen it again. The seat
        the host plays, which is `seat` unless one was set before. Refused (SecretSeen)
        once the log holds another seat's private record (an event of a type in `private`):
        the host may have read it. Public, with the seq it starts after (`seat_changes`)."""
        with self.transaction():
            row = self.db.execute("SELECT head_seq, host_seat FROM games WHERE id = ? FOR UPDATE", [game_id]).fetchone()
            if row is None:
                raise UnknownGame(f"no game {game_id!r}")
            if row[1] is not None:
                return int(row[1])
            for (line,) in self.db.execute("SELECT body FROM events WHERE game = ? ORDER BY seq", [game_id]).fetchall():
                event = json.loads(line)
                if event["type"] in private and event.get("seat") != seat:
                    raise SecretSeen(event["seq"])
            self.db.execute("UPDATE games SET host_seat = ? WHERE id = ?", [seat, game_id])
            self.db.execute("INSERT INTO seat_changes (game, seq, seat, kind) VALUES (?, ?, ?, 'host-plays')", [game_id, row[0], seat])
        return seat

    def seat_change_count(self, game_id: str) -> int:
        """How many times who plays which seat has changed: a waiting phone that saw fewer is
        answered at once (its reader may have changed)."""
        with self.lock:
            return int(self.db.execute("SELECT COUNT(*) FROM seat_changes WHERE game = ?", [game_id]).fetchone()[0])

    def seat_changes(self, game_id: str) -> list[dict[str, Any]]:
        """Who plays which seat changed here (public): the host started to play a seat
        (`host-plays`), or handed a seat on to a new phone (`handed-on`), after event `seq`."""
        with self.lock:
            return self.db.query("SELECT seq, seat, kind FROM seat_changes WHERE game = ? ORDER BY seq", [game_id])

    def reveal(self, game_id: str, seq: int, then: Callable[[], None] | None = None) -> int:
        """Reveal the game's secrets as of seq `seq`, and `then()` in the same transaction; a
        reveal is final, so an earlier one stays."""
        with self.transaction():
            self.db.execute("UPDATE games SET revealed_seq = ? WHERE id = ? AND revealed_seq IS NULL", [seq, game_id])
            if then is not None:
                then()
            self.db.notify(game_id)  # the phones waiting in other processes are shown it too
        revealed = self.revealed(game_id)
        assert revealed is not None
        return revealed

    def games_with(self, event_type: str) -> list[str]:
        """The games that have an event of this type (a maintainer's search: reads every row)."""
        with self.lock:
            rows = self.db.execute("SELECT DISTINCT game FROM events WHERE json_extract(body, '$.type') = ? ORDER BY game", [event_type]).fetchall()
        return [str(row[0]) for row in rows]

    def hashes(self, game_id: str, seqs: Iterable[int]) -> dict[int, str]:
        """The chain hash of each of these events."""
        wanted = list(seqs)
        with self.lock:
            rows = self.db.execute(
                f"SELECT seq, hash FROM events WHERE game = ? AND seq IN ({', '.join('?' * len(wanted))})", [game_id, *wanted]
            ).fetchall()
        return {int(seq): str(digest) for seq, digest in rows}

    def append(
        self,
        game_id: str,
        body: Mapping[str, Any],
        expected_seq: int | None = None,
        key: str | None = None,
        judge: Callable[[dict[str, Any]], Any] | None = None,
    ) -> Stored:
        """Check and store one event (without `seq`: the store numbers it).

        Raises RecordError (format), Conflict (`expected_seq` is not the last seq, and the
        events since change what the move means: `Game.stands_beside`), or UnknownGame; nothing is stored then. A known idempotency `key` returns the event
        it stored first, with its first answer, and stores nothing. `judge(event)`, called
        inside the transaction, gives the answer (JSON) kept for such retries.
        """
        header = self.header(game_id)
        if "seq" in body:
            raise RecordError("seq: the store numbers events; leave it out", errors={"seq": ["Unknown field."]})
        tries = 1
        while True:  # what the engine gave up (40001, 40P01) is run again, as if once
            try:
                with self.transaction():
                    return self._append_in_transaction(game_id, header, body, expected_seq, key, judge)
            except TryAgain as error:
                if tries == TRIES:
                    raise Unavailable(f"the database gave the move up {TRIES} times: {error}") from None
                time.sleep(random.uniform(0, 0.005 * 2 ** tries))  # jitter: racing writers do not meet again
                tries += 1

    def _append_in_transaction(
        self,
        game_id: str,
        header: Header,
        body: Mapping[str, Any],
        expected_seq: int | None,
        key: str | None,
        judge: Callable[[dict[str, Any]], Any] | None,
    ) -> Stored:
        # One statement: the head, and the event stored earlier under this key if any.
        row = self.db.execute(
            "SELECT head_seq, head_hash, (SELECT CAST(json_array(body, answer) AS TEXT) FROM events "
            "WHERE game = ?1 AND idempotency_key = ?2) FROM games WHERE id = ?1 FOR UPDATE"
            if key is not None
            else "SELECT head_seq, head_hash, NULL FROM games WHERE id = ?1 FOR UPDATE",
            [game_id, key] if key is not None else [game_id],
        ).fetchone()
        if row[2] is not None:
            body_line, answer = json.loads(row[2])
            return Stored(game_id, json.loads(body_line), new=False, answer=None if answer is None else json.loads(answer))
        last_seq, previous = row[0], row[1]
        event = parse_event(header, {**body, "seq": last_seq + 1}, last_seq + 1)
        if expected_seq is not None and expected_seq != last_seq:
            # Stale: stored only where the game says the events meanwhile leave it as it was.
            meanwhile = [json.loads(line) for (line,) in self.db.execute(
                "SELECT body FROM events WHERE game = ? AND seq > ? ORDER BY seq", [game_id, expected_seq]).fetchall()]
            if expected_seq > last_seq or not header.rules.stands_beside(event, meanwhile):
                raise Conflict(last_seq)
        answer = judge(event) if judge is not None else None
        # Kept only where a retry can ask for it: under a key.
        self._insert(game_id, event, previous, key, None if key is None else answer)
        return Stored(game_id, event, answer=answer)

    def _insert(self, game_id: str, event: Mapping[str, Any], previous: str, key: str | None, answer: Any) -> tuple[int, str]:
        """Insert a checked event after the head `previous` and move the head; the new head."""
        line = canonical(event)
        seq, digest = event["seq"], chain_hash(previous, line)
        try:
            self.db.execute(
                "INSERT INTO events (game, seq, body, hash, idempotency_key, stored_at, answer) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [game_id, seq, line, digest, key, now(), None if answer is None else json.dumps(answer)],
            )
        except self.db.IntegrityError:
            raise Conflict(self.last_seq(game_id)) from None
        self.db.execute("UPDATE games SET head_seq = ?, head_hash = ? WHERE id = ?", [seq, digest, game_id])
        self.db.notify(game_id)
        return seq, digest

    # --- snapshots: a cache of folds, never part of the log ----------------------------

    def save_snapshots(self, game_id: str, fingerprint: str, folds: Iterable[tuple[int, str, bytes]]) -> None:
        """Keep folds of this game (seq, its event's hash, bytes), if that event is still there."""
        rows = [(fingerprint, blob, game_id, seq, event_hash) for seq, event_hash, blob in folds]
        if rows:
            with self.transaction():
                self.db.executemany(
                    "INSERT INTO snapshots (game, seq, hash, fingerprint, fold) "
                    "SELECT game, seq, hash, ?, ? FROM events WHERE game = ? AND seq = ? AND hash = ? "
                    "ON CONFLICT (game, seq) DO UPDATE SET hash = excluded.hash, fingerprint = excluded.fingerprint, fold = excluded.fold",
                    rows,
                )

    def snapshot(self, game_id: str, fingerprint: str, before: int) -> tuple[int, str, bytes] | None:
        """The latest kept fold before seq `before` whose event is still the one it was
        taken after, made by the same rules (`fingerprint`): (seq, hash, bytes), or None."""
        with self.lock:
            row = self.db.execute(
                "SELECT s.seq, s.hash, s.fold FROM snapshots s JOIN events e ON e.game = s.game AND e.seq = s.seq "
                "AND e.hash = s.hash WHERE s.game = ? AND s.fingerprint = ? AND s.seq < ? ORDER BY s.seq DESC LIMIT 1",
                [game_id, fingerprint, before],
            ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]), bytes(row[2]))

    def snapshots(self) -> list[tuple[str, int, str, str, bytes]]:
        """Every kept fold: (game, seq, hash, fingerprint, bytes), for `verify`."""
        with self.lock:
            rows = self.db.execute("SELECT game, seq, hash, fingerprint, fold FROM snapshots ORDER BY game, seq").fetchall()
        return [(str(g), int(q), str(h), str(f), bytes(b)) for g, q, h, f, b in rows]

    def drop_snapshots(self, game_id: str, from_seq: int, only: bool = False) -> None:
        """Forget the folds at or after `from_seq` (a void before them changed them), or
        `only` the one at it (it failed its seal)."""
        with self.lock:
            self.db.execute(f"DELETE FROM snapshots WHERE game = ? AND seq {'=' if only else '>='} ?", [game_id, from_seq])

    # --- verification ----------------------------------------------------------------

    def verify(self, receipts: Mapping[str, str] | None = None) -> list[str]:
        """Every broken game, as 'game G seq N: why' (empty: every log is intact).

        `receipts` maps a game id to a head hash the players kept: the log must end there.
        """
        problems = []
        with self.lock:
            games = self.db.execute("SELECT id, header, hash, head_seq, head_hash FROM games").fetchall()
            for game_id, header_line, root, head_seq, head_hash in games:
                previous = chain_hash("", header_line)
                if previous != root:
                    problems.append(f"game {game_id} header: its hash does not match (the header was edited)")
                    continue
                problems.extend(self._verify_chain(game_id, previous, head_seq, head_hash))
        heads = {str(row[0]): (row[3], row[4]) for row in games}
        for game_id, receipt in (receipts or {}).items():
            if game_id not in heads:
                problems.append(f"game {game_id}: not in this store")
            elif heads[game_id][1] != receipt:
                problems.append(f"game {game_id}: the log ends at seq {heads[game_id][0]} with another hash than the receipt")
        return problems

    def _verify_chain(self, game_id: str, previous: str, head_seq: int | None, head_hash: str | None) -> Iterator[str]:
        rows = self.db.execute("SELECT seq, body, hash FROM events WHERE game = ? ORDER BY seq", [game_id])
        last = 0
        for expected_seq, (seq, body, stored_hash) in enumerate(rows, start=1):
            if seq != expected_seq:
                yield f"game {game_id} seq {expected_seq}: missing (the next stored seq is {seq})"
                return
            if chain_hash(previous, body) != stored_hash:
                yield f"game {game_id} seq {seq}: its hash does not match (the row was edited)"
                return
            previous, last = stored_hash, seq
        if head_seq is None or head_hash is None:  # a store from before heads has them filled in when opened
            yield f"game {game_id}: its head is missing (head_seq or head_hash is NULL: the games row was edited)"
        elif last != head_seq:
            yield f"game {game_id} seq {head_seq}: the log ends at seq {last}, its head says {head_seq} (rows deleted or forged)"
        elif previous != head_hash:
            yield f"game {game_id} seq {last}: the chain does not end at the game's head hash (rows rewritten)"
