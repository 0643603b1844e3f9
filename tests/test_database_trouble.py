"""When the database fails between the moves: a server rides out its database going away
and coming back (503 with Retry-After meanwhile, never 500; no acknowledged move lost,
none stored twice), an append the engine gives up is run again, and a copy never touches
a database that is not ours."""

from __future__ import annotations

import json
import resource
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from click.testing import CliRunner
from conftest import query, table
from postgres import Cluster
from test_live import serve

from referee.cli import main
from referee.store import Store

AWAY = "The database is not answering; your move waits on this phone and is sent again"


def ask(url: str, body: dict[str, Any] | None = None, token: str | None = None, key: str | None = None) -> tuple[int, Any, str]:
    """One request as a phone sends it: (status, headers, body text)."""
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {}),
               **({"Idempotency-Key": key} if key else {})}
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:
            return answer.status, answer.headers, answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers, refused.read().decode()


def until_answered(url: str, body: dict[str, Any], token: str, key: str, within: float) -> tuple[int, float]:
    """The phone sends its kept move again and again: the status it was stored with, and after how long."""
    started = time.monotonic()
    while True:
        status, _, _ = ask(url, body, token, key)
        if status != 503 or time.monotonic() - started > within:
            return status, time.monotonic() - started
        time.sleep(0.2)


@pytest.fixture
def restartable() -> Iterator[Cluster]:
    """A cluster of this test's own: it is stopped and started under a serving process."""
    cluster = Cluster()
    yield cluster
    cluster.stop()


def a_night_with_an_outage(db: str, outage: Any, back: Any, pages_while_away: int) -> None:
    """A table plays a move; the database goes away (`outage()`); a move answers 503 with
    Retry-After and the words, the home page `pages_while_away`; the database comes back
    (`back()`): the kept move (its Idempotency-Key) is stored within 5 s, once, after the
    first, and the home page answers again, all without a restart of the server."""
    server, base = serve(db)
    try:
        status, _, text = ask(f"{base}/api/games", {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]})
        made = json.loads(text)
        moves, token = f"{base}/api/games/{made['id']}/events", str(made["host_token"])
        assert ask(moves, {"type": "note", "text": "before"}, token, "phone:1")[0] == 201
        outage()
        status, headers, text = ask(moves, {"type": "note", "text": "during"}, token, "phone:2")
        assert status == 503 and headers["Retry-After"] == "2" and json.loads(text) == {"error": AWAY}
        status, headers, text = ask(f"{base}/")
        assert status == pages_while_away and (status == 200 or (headers["Retry-After"] == "2" and AWAY in text))
        assert server.poll() is None  # still serving
        back()
        status, after = until_answered(moves, {"type": "note", "text": "during"}, token, "phone:2", within=5)
        assert status == 201 and after < 5
        again, _, text = ask(moves, {"type": "note", "text": "during"}, token, "phone:2")  # the phone did not hear the answer
        assert again < 300 and json.loads(text)["seq"] == 2
        assert ask(f"{base}/")[0] == 200
        events = json.loads(ask(moves)[2])["events"]
        assert [(e["seq"], e["text"]) for e in events] == [(1, "before"), (2, "during")]
    finally:
        server.kill()
        server.wait()


def test_a_server_rides_out_a_postgresql_restart(restartable: Cluster) -> None:
    a_night_with_an_outage(restartable.new_database(), restartable.halt, restartable.start, pages_while_away=503)


def test_a_server_rides_out_a_sqlite_disk_that_refuses_writes(tmp_path: Path) -> None:
    # An open SQLite file is not stopped by a permission change (its file and WAL stay open,
    # and root passes any chmod): a disk that refuses every write is made here by the
    # server's file-size limit (RLIMIT_FSIZE 0: each write fails as on a full or failed
    # disk). Reads still work, so the pages answer.
    pids: list[int] = []
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)

    def refuse() -> None:
        pids.extend(int(path.name) for path in Path("/proc").iterdir() if path.name.isdigit()
                    and f"{tmp_path}/t.sqlite3".encode() in Path(path, "cmdline").read_bytes())
        for pid in pids:
            resource.prlimit(pid, resource.RLIMIT_FSIZE, (0, hard))

    def allow() -> None:
        for pid in pids:
            resource.prlimit(pid, resource.RLIMIT_FSIZE, (hard, hard))

    a_night_with_an_outage(str(tmp_path / "t.sqlite3"), refuse, allow, pages_while_away=200)
    assert len(pids) == 1


def test_racing_appends_at_serializable_are_run_again_and_each_stored_once(postgres: Cluster) -> None:
    # Four server processes (four stores) log moves at one table at once, on a database
    # whose transactions are SERIALIZABLE (as an engine like YugabyteDB or Citus may run
    # them): the one that waited for the game's row is given up (40001) and run again, so
    # every move is stored, once, in one chain; a retry of each key answers as the first.
    url = postgres.new_database()
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"ALTER DATABASE {url.rsplit('/', 1)[1]} SET default_transaction_isolation = 'serializable'")
    stores = [Store(url) for _ in range(4)]
    assert stores[0].db.execute("SHOW transaction_isolation").fetchone()[0] == "serializable"
    game = stores[0].create_game(table("ftw", "Anna Ben Cem"))
    stored: dict[str, int] = {}
    failed: list[BaseException] = []

    def phone(store: Store, number: int) -> None:
        try:
            for move in range(10):
                key = f"{number}:{move}"
                stored[key] = store.append(game, {"type": "note", "text": key}, key=key).seq
        except BaseException as error:
            failed.append(error)

    phones = [threading.Thread(target=phone, args=(store, number)) for number, store in enumerate(stores)]
    for thread in phones:
        thread.start()
    for thread in phones:
        thread.join(60)
    assert failed == [] and sorted(stored.values()) == list(range(1, 41))
    assert all(stores[1].append(game, {"type": "note", "text": key}, key=key).seq == seq for key, seq in stored.items())
    assert stores[0].last_seq(game) == 40 and stores[0].verify() == []


def test_copy_into_a_database_of_another_application_is_refused_untouched(tmp_path: Path, postgres: Cluster,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # A club's store copied into a PostgreSQL database that another application uses, with
    # tables of its own named `events` and `meta`: refused in a sentence before anything is
    # written; the other application's tables are as they were. Into a store of ours that
    # holds a game: refused too.
    monkeypatch.setenv("REFEREE_SECRET_KEY_FILE", str(tmp_path / "secret_key"))
    source = tmp_path / "club.sqlite3"
    Store(source).create_game(table("ftw", "Anna Ben Cem"))
    theirs = postgres.new_database()
    with psycopg.connect(theirs, autocommit=True) as connection:
        connection.execute("CREATE TABLE events (id INTEGER, what TEXT)")
        connection.execute("CREATE TABLE meta (name TEXT)")
        connection.execute("INSERT INTO events VALUES (1, 'invoice')")
    result = CliRunner().invoke(main, ["copy", str(source), theirs])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert result.output == (f"Error: {theirs} holds tables of another application (events, meta): a copy goes into an empty "
                             "database or an empty store of Table Referee; nothing was written\n")
    tables = "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1"
    assert query(theirs, tables) == [("events",), ("meta",)] and query(theirs, "SELECT * FROM events") == [(1, "invoice")]
    assert query(theirs, "SELECT COUNT(*) FROM meta") == [(0,)]
    ours = postgres.new_database()
    assert CliRunner().invoke(main, ["copy", str(source), ours]).exit_code == 0
    again = CliRunner().invoke(main, ["copy", str(source), ours])
    assert again.exit_code == 1 and again.output == f"Error: {ours} is not empty: a copy goes into an empty store\n"
