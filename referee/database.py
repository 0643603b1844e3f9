"""The one place that knows SQL dialects.

The store is a SQLite file (a path: the embedded default) or a PostgreSQL database (a
`postgresql://` URL, through psycopg 3). The app writes its SQL once, in the spelling both
share where they can (`ON CONFLICT`, `RETURNING`, row values) and in SQLite's where they
differ; `Postgres` turns the rest into PostgreSQL's here: `?` and `?N` placeholders,
`BEGIN IMMEDIATE`, `BLOB`, an `INTEGER PRIMARY KEY` that numbers itself, `WITHOUT ROWID`,
`json_extract`, `json_array`, `julianday` (time order), `COLLATE NOCASE` and an empty `IN ()`.
Each table keeps its insertion order in `rowid` (SQLite's own; an identity column on
PostgreSQL). Schema parts that differ more (the append-only triggers) are given for each.

A `Database` is used under the store's lock, one statement at a time; `begin`, `commit`
and `rollback` make a transaction. `IntegrityError` is the backend's own class: a unique
key, a foreign key or an append-only trigger broken.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
POSTGRESQL = re.compile(r"postgres(ql)?://")
MANGLED = re.compile(r"postgres(ql)?:/")  # a URL that went through Path(): "postgresql:/user@host/db"


class Unreachable(Exception):
    """A database server that does not answer (or refuses the login)."""


def is_url(address: str) -> bool:
    return bool(URL.match(address))


class Database:
    """A connection to the store's database, in one dialect."""

    kind: str
    IntegrityError: type[Exception]
    ROWID = ""  # the column that keeps a table's insertion order, where the backend has none of its own

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        raise NotImplementedError

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        raise NotImplementedError

    def executescript(self, script: str) -> None:
        """Statements separated by `;` at a line's end (no `;` inside them but there)."""
        for statement in re.split(r";\s*\n", script):
            if statement.strip():
                self.execute(statement)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        cursor = self.execute(sql, params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row)) for row in cursor.fetchall()]

    def table_exists(self, name: str) -> bool:
        raise NotImplementedError

    def columns(self, table: str) -> set[str]:
        raise NotImplementedError

    @property
    def in_transaction(self) -> bool:
        raise NotImplementedError

    def begin(self) -> None:
        self.execute("BEGIN IMMEDIATE")

    def commit(self) -> None:
        self.execute("COMMIT")

    def rollback(self) -> None:
        self.execute("ROLLBACK")

    @property
    def triggers(self) -> str:
        """The append-only guarantees in this backend's spelling."""
        return TRIGGERS[self.kind]

    def backs_up_to(self, target: str) -> bool:
        """Whether a copy into `target` is this backend's own backup (a file of the same kind)."""
        return False

    def numbered(self, table: str, column: str) -> None:
        """After rows were copied in with their numbers: the next number follows them."""

    def notify(self, game_id: str) -> None:
        """Tell the other server processes that a game has a new event (at commit)."""

    def listen(self, heard: Callable[[str], None]) -> None:
        """Call `heard(game_id)` for each game another process stored an event of, from a
        thread of its own, for as long as the process runs (nothing where the backend
        cannot tell: the waiting phones read the head every half second anyway)."""

    def close(self) -> None:
        raise NotImplementedError


class SQLite(Database):
    kind = "sqlite"
    IntegrityError = sqlite3.IntegrityError

    def __init__(self, path: str) -> None:
        self.connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None, timeout=30)
        self.execute("PRAGMA journal_mode=WAL")
        self.execute("PRAGMA synchronous=FULL")
        self.execute("PRAGMA foreign_keys=ON")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.connection.execute(sql.replace(" FOR UPDATE", ""), params)  # SQLite's one writer locks already

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.connection.executemany(sql, rows)

    def table_exists(self, name: str) -> bool:
        return self.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]).fetchone() is not None

    def columns(self, table: str) -> set[str]:
        return {str(row[1]) for row in self.execute(f"PRAGMA table_info({table})").fetchall()}

    @property
    def in_transaction(self) -> bool:
        return self.connection.in_transaction

    def backs_up_to(self, target: str) -> bool:
        return not is_url(target)

    def backup(self, path: str | Path, keep_snapshots: bool) -> None:
        """One consistent moment of the file into `path` (a new file), its snapshots left out
        unless `keep_snapshots`."""
        with sqlite3.connect(path) as copy:
            self.connection.backup(copy)
            if not keep_snapshots:
                copy.execute("DELETE FROM snapshots")

    @staticmethod
    def holds_games(path: Path) -> bool:
        """Whether the file at `path` holds a game, or is no store at all (never overwritten)."""
        if not path.exists() or not path.stat().st_size:
            return False
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as existing:
            try:
                return bool(existing.execute("SELECT COUNT(*) FROM games").fetchone()[0])
            except sqlite3.DatabaseError:
                return True

    def close(self) -> None:
        self.connection.close()


PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?(\d*)|%")


class Postgres(Database):
    kind = "postgresql"
    ROWID = ", rowid BIGINT GENERATED BY DEFAULT AS IDENTITY"

    def __init__(self, url: str) -> None:
        import psycopg

        self.psycopg = psycopg
        self.IntegrityError = psycopg.IntegrityError
        self.url = url
        try:
            self.connection = psycopg.connect(url, autocommit=True, connect_timeout=10)
        except psycopg.OperationalError as error:
            shown = re.sub(r"://([^:@/]*):[^@/]*@", r"://\1:…@", url)  # never a password in a message
            reason = str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__
            raise Unreachable(f"cannot reach the database at {shown}: {reason}") from None
        self._spelled: dict[str, tuple[str, list[int] | None]] = {}

    def spell(self, sql: str) -> tuple[str, list[int] | None]:
        """SQLite's spelling made PostgreSQL's, and which parameter each `%s` takes (None: in order)."""
        known = self._spelled.get(sql)
        if known is not None:
            return known
        order: list[int] = []
        numbered = False

        def placeholder(match: re.Match[str]) -> str:
            nonlocal numbered
            text = match.group(0)
            if not text.startswith("?"):
                return text.replace("%", "%%")  # a `%` of its own, also in a string literal, for psycopg's placeholders
            numbered = numbered or bool(match.group(1))
            order.append(int(match.group(1)) - 1 if match.group(1) else len(order))
            return "%s"

        spelled = PLACEHOLDER.sub(placeholder, sql)
        spelled = re.sub(r"json_extract\((\w+), '\$\.(\w+)'\)", r"(\1::json ->> '\2')", spelled).replace("json_array(", "json_build_array(")
        spelled = re.sub(r"julianday\(([\w.]+)\)", r"CAST(\1 AS TIMESTAMPTZ)", spelled)  # ISO times with offsets, in time order
        spelled = re.sub(r"([\w.]+) COLLATE NOCASE", r"LOWER(\1)", spelled).replace("IN ()", "IN (NULL)")  # an empty list
        spelled = (spelled.replace("BEGIN IMMEDIATE", "BEGIN").replace(" WITHOUT ROWID", "").replace(" BLOB", " BYTEA")
                   .replace("INTEGER PRIMARY KEY", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"))
        self._spelled[sql] = known = (spelled, order if numbered else None)
        return known

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        spelled, order = self.spell(sql)
        if not params:  # nothing to put in: the text goes as it is
            return self.connection.execute(spelled.replace("%%", "%"))  # type: ignore[arg-type]
        values = [params[i] for i in order] if order is not None else list(params)
        return self.connection.execute(spelled, values)  # type: ignore[arg-type]

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        spelled, order = self.spell(sql)
        with self.connection.cursor() as cursor:
            cursor.executemany(spelled, [[row[i] for i in order] if order is not None else list(row) for row in rows])  # type: ignore[arg-type]

    def table_exists(self, name: str) -> bool:
        return self.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?",
                            [name]).fetchone() is not None

    def columns(self, table: str) -> set[str]:
        rows = self.execute("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?",
                            [table]).fetchall()
        return {str(row[0]) for row in rows}

    @property
    def in_transaction(self) -> bool:
        return self.connection.info.transaction_status != self.psycopg.pq.TransactionStatus.IDLE

    def numbered(self, table: str, column: str) -> None:
        self.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), COALESCE(MAX({column}), 0) + 1, false) FROM {table}")

    def notify(self, game_id: str) -> None:
        self.execute("SELECT pg_notify('referee_news', ?)", [game_id])  # delivered at commit, once per game

    def listen(self, heard: Callable[[str], None]) -> None:
        def listening() -> None:
            pause = 0.5
            while True:
                try:
                    with self.psycopg.connect(self.url, autocommit=True) as connection:
                        connection.execute("LISTEN referee_news")
                        pause = 0.5
                        for notice in connection.notifies():
                            heard(notice.payload)
                except self.psycopg.Error:
                    time.sleep(pause)  # the database restarts: listen again, the head checks meanwhile
                    pause = min(pause * 2, 10)

        threading.Thread(target=listening, name="referee-news", daemon=True).start()

    def close(self) -> None:
        self.connection.close()


def connect(address: str) -> Database:
    """The database at `address`: a `postgresql://` URL, or the path of a SQLite file."""
    if POSTGRESQL.match(address):
        return Postgres(address)
    if is_url(address) or "://" in address or MANGLED.match(address):  # a URL, or one made a path by mistake: never a file
        raise ValueError(f"{address.split('://')[0]}://… is not a database this app keeps its store in: "
                         "give a SQLite file's path or a postgresql:// URL")
    return SQLite(address)


# The append-only guarantees, for each backend: events are never changed or deleted, a
# game's header never changes, a game is never deleted, the seat a host plays is set once.
TRIGGERS = {
    "sqlite": """
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed'); END;
CREATE TRIGGER IF NOT EXISTS events_no_replace BEFORE INSERT ON events
WHEN EXISTS (SELECT 1 FROM events WHERE game = NEW.game AND seq = NEW.seq)
BEGIN SELECT RAISE(ABORT, 'events are append-only: REPLACE is not allowed'); END;
CREATE TRIGGER IF NOT EXISTS games_header_fixed BEFORE UPDATE OF id, header, hash ON games
BEGIN SELECT RAISE(ABORT, 'a game header cannot change'); END;
CREATE TRIGGER IF NOT EXISTS games_no_delete BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'games cannot be deleted'); END;
CREATE TRIGGER IF NOT EXISTS games_host_seat_fixed BEFORE UPDATE OF host_seat ON games
WHEN OLD.host_seat IS NOT NULL AND NEW.host_seat IS NOT OLD.host_seat
BEGIN SELECT RAISE(ABORT, 'the seat the host plays cannot change'); END;
""",
    "postgresql": """
CREATE OR REPLACE FUNCTION referee_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'integrity_constraint_violation'; END $$;
CREATE OR REPLACE TRIGGER events_append_only_update BEFORE UPDATE ON events
FOR EACH ROW EXECUTE FUNCTION referee_refuse('events are append-only: UPDATE is not allowed');
CREATE OR REPLACE TRIGGER events_append_only_delete BEFORE DELETE ON events
FOR EACH ROW EXECUTE FUNCTION referee_refuse('events are append-only: DELETE is not allowed');
CREATE OR REPLACE TRIGGER games_header_fixed BEFORE UPDATE OF id, header, hash ON games
FOR EACH ROW EXECUTE FUNCTION referee_refuse('a game header cannot change');
CREATE OR REPLACE TRIGGER games_no_delete BEFORE DELETE ON games
FOR EACH ROW EXECUTE FUNCTION referee_refuse('games cannot be deleted');
CREATE OR REPLACE TRIGGER games_host_seat_fixed BEFORE UPDATE OF host_seat ON games
FOR EACH ROW WHEN (OLD.host_seat IS NOT NULL AND NEW.host_seat IS DISTINCT FROM OLD.host_seat)
EXECUTE FUNCTION referee_refuse('the seat the host plays cannot change');
""",
}
