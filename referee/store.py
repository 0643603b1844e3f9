"""The event store: an append-only SQLite log of table records (via sqlite-utils).

Guarantees (DESIGN.md): triggers make UPDATE and DELETE on events fail; the primary key
(game, seq) turns a racing writer into a conflict; every event carries the SHA-256 of
(previous hash + its canonical line), the chain rooted in the header's hash, so `verify`
finds an edited row; WAL with synchronous=FULL, so an acknowledged event survives a
crash or power loss. The append path uses `db.execute` inside `BEGIN IMMEDIATE`:
`Table.insert` re-reads the schema on every call (see bench/bench_store.py).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from .record import Header, RecordError, canonical, parse_event, parse_header

TRIGGERS = """
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed'); END;
CREATE TRIGGER IF NOT EXISTS games_header_fixed BEFORE UPDATE OF id, header, hash ON games
BEGIN SELECT RAISE(ABORT, 'a game header cannot change'); END;
CREATE TRIGGER IF NOT EXISTS games_no_delete BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'games cannot be deleted'); END;
"""


class UnknownGame(LookupError):
    """No game with this id in the store."""


class Conflict(Exception):
    """The client's view is stale: another event was stored first. Nothing was stored."""

    def __init__(self, current_seq: int) -> None:
        self.current_seq = current_seq
        super().__init__(f"conflict: the game is at seq {current_seq}")


@dataclass(frozen=True)
class Stored:
    """An event as stored; `new` is False when an idempotency key found an earlier one."""

    game_id: str
    event: dict[str, Any]
    new: bool = True

    @property
    def seq(self) -> int:
        return int(self.event["seq"])


def chain_hash(previous: str, line: str) -> str:
    return hashlib.sha256((previous + line).encode("utf-8")).hexdigest()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    """One SQLite file of games and their events; safe to share between threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self.db = sqlite_utils.Database(connection)
        self.lock = threading.RLock()
        self._headers: dict[str, Header] = {}
        with self.lock:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._create_schema()

    def _create_schema(self) -> None:
        self.db["games"].create(
            {"id": str, "game": str, "header": str, "hash": str, "created_at": str},
            pk="id",
            not_null={"game", "header", "hash", "created_at"},
            if_not_exists=True,
        )
        self.db["events"].create(
            {"game": str, "seq": int, "body": str, "hash": str, "idempotency_key": str, "stored_at": str},
            pk=("game", "seq"),
            not_null={"game", "seq", "body", "hash", "stored_at"},
            foreign_keys=[("game", "games", "id")],
            if_not_exists=True,
        )
        self.db["events"].create_index(["game", "idempotency_key"], unique=True, if_not_exists=True)
        self.db.executescript(TRIGGERS)

    def close(self) -> None:
        self.db.close()

    # --- games -----------------------------------------------------------------------

    def create_game(self, header: Header, game_id: str | None = None) -> str:
        """Store a new game's header; returns its id."""
        game_id = game_id or secrets.token_urlsafe(9)
        line = canonical(header.to_json())
        with self.lock:
            try:
                self.db.execute(
                    "INSERT INTO games (id, game, header, hash, created_at) VALUES (?, ?, ?, ?, ?)",
                    [game_id, header.game, line, chain_hash("", line), now()],
                )
            except sqlite3.IntegrityError:
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

    def games(self) -> list[dict[str, Any]]:
        """Every game, newest first, with its event count."""
        with self.lock:
            rows = self.db.query(
                "SELECT g.id, g.game, g.header, g.created_at, COUNT(e.seq) AS events "
                "FROM games g LEFT JOIN events e ON e.game = g.id GROUP BY g.id "
                "ORDER BY g.created_at DESC, g.rowid DESC"
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

    def event(self, game_id: str, seq: int) -> dict[str, Any] | None:
        """One stored event, or None."""
        with self.lock:
            row = self.db.execute("SELECT body FROM events WHERE game = ? AND seq = ?", [game_id, seq]).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def append(
        self,
        game_id: str,
        body: Mapping[str, Any],
        expected_seq: int | None = None,
        key: str | None = None,
    ) -> Stored:
        """Check and store one event (without `seq`: the store numbers it).

        Raises RecordError (format), Conflict (`expected_seq` is not the last seq), or
        UnknownGame; nothing is stored then. A known idempotency `key` returns the event
        it stored first and stores nothing.
        """
        header = self.header(game_id)
        if "seq" in body:
            raise RecordError("seq: the store numbers events; leave it out", errors={"seq": ["Unknown field."]})
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                stored = self._append_in_transaction(game_id, header, body, expected_seq, key)
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
        return stored

    def _append_in_transaction(
        self, game_id: str, header: Header, body: Mapping[str, Any], expected_seq: int | None, key: str | None
    ) -> Stored:
        # One statement: the last event, and the one stored earlier under this key if any.
        last = self.db.execute(
            "SELECT seq, hash, (SELECT body FROM events WHERE game = ?1 AND idempotency_key = ?2) "
            "FROM events WHERE game = ?1 ORDER BY seq DESC LIMIT 1",
            [game_id, key],
        ).fetchone()
        if last is not None and last[2] is not None:
            return Stored(game_id, json.loads(last[2]), new=False)
        last_seq, previous = (last[0], last[1]) if last else (0, self._root_hash(game_id))
        if expected_seq is not None and expected_seq != last_seq:
            raise Conflict(last_seq)
        event = parse_event(header, {**body, "seq": last_seq + 1}, last_seq + 1)
        line = canonical(event)
        try:
            self.db.execute(
                "INSERT INTO events (game, seq, body, hash, idempotency_key, stored_at) VALUES (?, ?, ?, ?, ?, ?)",
                [game_id, event["seq"], line, chain_hash(previous, line), key, now()],
            )
        except sqlite3.IntegrityError:
            raise Conflict(self.last_seq(game_id)) from None
        return Stored(game_id, event)

    def _root_hash(self, game_id: str) -> str:
        return str(self.db.execute("SELECT hash FROM games WHERE id = ?", [game_id]).fetchone()[0])

    # --- verification ----------------------------------------------------------------

    def verify(self) -> list[str]:
        """Every broken row, as 'game G seq N: why' (empty: the chain is intact)."""
        problems = []
        with self.lock:
            for game_id, header_line, root in self.db.execute("SELECT id, header, hash FROM games").fetchall():
                previous = chain_hash("", header_line)
                if previous != root:
                    problems.append(f"game {game_id} header: its hash does not match (the header was edited)")
                    continue
                problems.extend(self._verify_chain(game_id, previous))
        return problems

    def _verify_chain(self, game_id: str, previous: str) -> Iterator[str]:
        rows = self.db.execute("SELECT seq, body, hash FROM events WHERE game = ? ORDER BY seq", [game_id])
        for expected_seq, (seq, body, stored_hash) in enumerate(rows, start=1):
            if seq != expected_seq:
                yield f"game {game_id} seq {expected_seq}: missing (the next stored seq is {seq})"
                return
            if chain_hash(previous, body) != stored_hash:
                yield f"game {game_id} seq {seq}: its hash does not match (the row was edited)"
                return
            previous = stored_hash
