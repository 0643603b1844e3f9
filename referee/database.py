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
from urllib.parse import unquote, urlsplit, urlunsplit

URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
POSTGRESQL = re.compile(r"postgres(ql)?://")
MANGLED = re.compile(r"postgres(ql)?:/")  # a URL that went through Path(): "postgresql:/user@host/db"


class Unreachable(Exception):
    """A database server that does not answer (or refuses the login)."""


class Unavailable(Exception):
    """The database stopped answering while in use (a restart, a failover, a disk that
    refuses writes): the request is answered 503 and sent again later; a move whose fate
    is unknown (its COMMIT cut off) is stored once by its idempotency key."""


class TryAgain(Unavailable):
    """The engine gave a transaction up that may succeed when run again: a serialization
    failure or a deadlock (SQLSTATE 40001, 40P01; YugabyteDB, Citus, SERIALIZABLE). An
    append runs it again; anywhere else it is answered as Unavailable (503)."""


# SQLite's primary result codes of a disk that refuses (busy, read-only, I/O error, full,
# cannot open): the store is away, not wrong.
SQLITE_AWAY = {5, 8, 10, 13, 14}


def is_url(address: str) -> bool:
    return bool(URL.match(address))


SECRET_KEYS = {"password", "sslpassword"}  # a URL's query keys whose values are never shown
UNREADABLE = ("a password or user name holding / @ : ? # or % is written percent-encoded "
              "(%2F %40 %3A %3F %23 %25)")


def _secrets(address: str) -> list[str]:
    """The password parts of a database URL, as typed and as decoded (longest first)."""
    rest = address.split("://", 1)[1]
    authority = rest.rpartition("@")[0]
    found = [authority.partition(":")[2]] if ":" in authority else []
    found += [raw for part in urlsplit(address).query.split("&") for raw in [part.partition("=")[2]]
              if unquote(part.partition("=")[0]).lower() in SECRET_KEYS]
    found += [unquote(text) for text in found]
    return sorted({text for text in found if text}, key=len, reverse=True)


def unreadable_url(address: str) -> bool:
    """Whether a URL's user name and password cannot be told apart from the rest: an `@`
    after the host's end (`/`, `?`, `#`), or more than one: a password typed as it is,
    which a reader would cut somewhere inside (and show the rest as a host or a name)."""
    rest = address.split("://", 1)[1]
    at = rest.find("@")
    return rest.count("@") > 1 or (at >= 0 and any(0 <= rest.find(mark) < at for mark in "/?#"))


def shown(address: str) -> str:
    """A store's address as every message, log and page shows it: a path as it is; a
    database URL with its password (`user:…@`, `?password=…`) never, in any form."""
    if not is_url(address):
        return address
    scheme = address.split("://", 1)[0]
    if unreadable_url(address):
        return f"{scheme}://…"
    parts = urlsplit(address)
    user, _, host = parts.netloc.rpartition("@")
    login = (user.partition(":")[0] + (":…" if ":" in user else "") + "@") if "@" in parts.netloc else ""
    query = "&".join(f"{key}=…" if unquote(key).lower() in SECRET_KEYS else f"{key}{mark}{value}"
                     for key, mark, value in (part.partition("=") for part in parts.query.split("&") if part))
    return urlunsplit((parts.scheme, login + host, parts.path, query, "")) + ("#…" if parts.fragment else "")


def scrubbed(text: str, address: str) -> str:
    """`text` (a driver's message about `address`) with every trace of the URL's password
    taken out."""
    if not is_url(address):
        return text
    for secret in _secrets(address):
        text = text.replace(secret, "…")
    return text


class Database:
    """A connection to the store's database, in one dialect."""

    kind: str
    IntegrityError: type[Exception]
    ROWID = ""  # the column that keeps a table's insertion order, where the backend has none of its own
    news = True  # whether `notify` tells the other processes (off behind a pooler in transaction mode: `serve --no-notify`)

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
        try:
            return self.connection.execute(sql.replace(" FOR UPDATE", ""), params)  # SQLite's one writer locks already
        except sqlite3.OperationalError as error:
            raise self._away(error)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self.connection.executemany(sql, rows)
        except sqlite3.OperationalError as error:
            raise self._away(error)

    @staticmethod
    def _away(error: sqlite3.OperationalError) -> Exception:
        """A disk that refuses (the statement is rolled back; the same connection works
        again once the disk does) is Unavailable; any other error is itself."""
        if error.sqlite_errorcode & 0xFF in SQLITE_AWAY:
            return Unavailable(f"the database file cannot be used now: {error}")
        return error

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
        if unreadable_url(url):  # refused before a driver echoes a piece of the password as a host or a name
            raise Unreachable(f"cannot read the database URL {shown(url)}: {UNREADABLE}")
        self.connection = self._connect(10)
        self.began_on: Any = None  # the connection the open transaction runs on
        self.next_try = 0.0  # when a lost connection may be made anew
        self._spelled: dict[str, tuple[str, list[int] | None]] = {}

    def _connect(self, timeout: int) -> Any:
        try:
            # Never a prepared statement: a pooler in transaction mode (PgBouncer) runs each
            # statement on any of its server connections, where it was never prepared.
            return self.psycopg.connect(self.url, autocommit=True, connect_timeout=timeout, prepare_threshold=None)
        except self.psycopg.Error as error:  # OperationalError (no answer, login refused), ProgrammingError (a URL libpq cannot read)
            reason = str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__
            raise Unreachable(f"cannot reach the database at {shown(self.url)}: {scrubbed(reason, self.url)}") from None

    def _live(self) -> Any:
        """The connection, made anew when the last one died (a restart, a failover): a dead
        one is never kept. One connection under the store's lock, so a pool (psycopg-pool)
        would only add a check per statement; here psycopg's own `closed` is looked at,
        and a new connection tried at most every half second while the database is away.
        A transaction never goes on over a new connection: its statements, and its COMMIT,
        are refused (Unavailable), so a move is never answered as stored when it was not."""
        if self.connection.closed and time.monotonic() >= self.next_try:
            self.next_try = time.monotonic() + 0.5
            try:
                self.connection = self._connect(3)
            except Unreachable as error:
                raise Unavailable(str(error)) from None
        if self.connection.closed or (self.began_on is not None and self.began_on is not self.connection):
            raise Unavailable(f"the connection to the database at {shown(self.url)} was lost")
        return self.connection

    def _away(self, error: Exception) -> Exception:
        """The driver's error of a database that is away, or that asks for the transaction again, as ours."""
        reason = scrubbed(str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__, self.url)
        if isinstance(error, (self.psycopg.errors.SerializationFailure, self.psycopg.errors.DeadlockDetected)):
            return TryAgain(reason)
        return Unavailable(f"the database at {shown(self.url)} is not answering: {reason}")

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
        connection = self._live()
        try:
            if not params:  # nothing to put in: the text goes as it is
                return connection.execute(spelled.replace("%%", "%"))
            values = [params[i] for i in order] if order is not None else list(params)
            return connection.execute(spelled, values)
        except self.psycopg.OperationalError as error:
            raise self._away(error) from None

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        spelled, order = self.spell(sql)
        try:
            with self._live().cursor() as cursor:
                cursor.executemany(spelled, [[row[i] for i in order] if order is not None else list(row) for row in rows])
        except self.psycopg.OperationalError as error:
            raise self._away(error) from None

    def table_exists(self, name: str) -> bool:
        return self.execute("SELECT 1 FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?",
                            [name]).fetchone() is not None

    def columns(self, table: str) -> set[str]:
        rows = self.execute("SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?",
                            [table]).fetchall()
        return {str(row[0]) for row in rows}

    @property
    def in_transaction(self) -> bool:
        return self.began_on is not None

    def begin(self) -> None:
        self.began_on = None
        self.execute("BEGIN")
        self.began_on = self.connection

    def commit(self) -> None:
        try:
            self.execute("COMMIT")  # refused on another connection than the one it began on
        finally:
            self.began_on = None

    def rollback(self) -> None:
        began_on, self.began_on = self.began_on, None
        if began_on is self.connection and not began_on.closed:  # else the server dropped it with the connection
            self.execute("ROLLBACK")

    def numbered(self, table: str, column: str) -> None:
        self.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), COALESCE(MAX({column}), 0) + 1, false) FROM {table}")

    def notify(self, game_id: str) -> None:
        if self.news:
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


def refuses_copy(address: str, newest: int) -> str | None:
    """Why a copy may not go into the store at `address` (None: it may), found before
    anything is written to it: a store of a layout newer than `newest` (this version's), one
    that holds a game, or tables that are no store of ours (a database of another
    application with its own `events` or `meta`)."""
    if not POSTGRESQL.match(address):
        return f"{address} is not empty: a copy goes into a new file (or an empty store)" if SQLite.holds_games(Path(address)) else None
    db = Postgres(address)
    try:
        names = sorted(str(row[0]) for row in db.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()").fetchall())
        if not names:
            return None
        try:
            layout = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() if "games" in names else None
        except db.psycopg.ProgrammingError:  # a `meta` of another making
            layout = None
        if layout is None:
            return (f"{shown(address)} holds tables of another application ({', '.join(names)}): "
                    "a copy goes into an empty database or an empty store of Table Referee; nothing was written")
        if int(layout[0]) > newest:
            return f"{shown(address)} was written by a newer Table Referee (store layout {layout[0]}; this one knows up to {newest}): nothing was written"
        if db.execute("SELECT COUNT(*) FROM games").fetchone()[0]:
            return f"{shown(address)} is not empty: a copy goes into an empty store"
        return None
    finally:
        db.close()


def connect(address: str) -> Database:
    """The database at `address`: a `postgresql://` URL, or the path of a SQLite file."""
    if POSTGRESQL.match(address):
        return Postgres(address)
    if is_url(address) or "://" in address or MANGLED.match(address):  # a URL, or one made a path by mistake: never a file
        raise ValueError(f"{address.split(':')[0]}://… is not a database this app keeps its store in: "
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
