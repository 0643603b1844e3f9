"""Behind a pooler in transaction mode (PgBouncer, as managed PostgreSQL offers it): each
statement may run on another server connection, so LISTEN hears nothing and a prepared
statement is not there. `referee serve --no-notify` neither listens nor notifies, the app
never prepares, and the waiting phones read the head every half second."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from conftest import table
from failover import free_port
from postgres import Cluster, _exists
from test_database_trouble import ask
from test_live import serve

from referee.store import Store


@pytest.fixture
def bouncer(postgres: Cluster) -> Iterator[tuple[str, str]]:
    """A new database and Debian's PgBouncer before it in transaction mode, two server
    connections at most: (the database's URL, the pooler's)."""
    program = shutil.which("pgbouncer") or "/usr/sbin/pgbouncer"
    if not Path(program).exists():
        raise RuntimeError("PgBouncer is not installed: the pooler's test needs Debian's package (apt-get install -y pgbouncer)")
    direct = postgres.new_database()
    name, port = direct.rsplit("/", 1)[1], free_port()
    folder = Path(tempfile.mkdtemp(prefix="referee-pgbouncer-"))
    (folder / "users.txt").write_text('"referee" ""\n')
    (folder / "pgbouncer.ini").write_text(
        f"[databases]\n{name} = host=127.0.0.1 port={postgres.port} dbname={name}\n"
        f"[pgbouncer]\nlisten_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\nauth_type = trust\n"
        f"auth_file = {folder}/users.txt\npool_mode = transaction\ndefault_pool_size = 2\nmax_client_conn = 100\n")
    runner = []
    if os.geteuid() == 0:  # PgBouncer refuses root, as PostgreSQL does
        user = "postgres" if _exists("postgres") else "nobody"
        for path in (folder, *folder.iterdir()):
            shutil.chown(path, user)
        runner = ["runuser", "-u", user, "--"]
    pooler = subprocess.Popen([*runner, program, str(folder / "pgbouncer.ini")], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"postgresql://referee@127.0.0.1:{port}/{name}"
    try:
        for _ in range(50):
            try:
                psycopg.connect(url, connect_timeout=1).close()
                break
            except psycopg.OperationalError:
                time.sleep(0.1)
        yield direct, url
    finally:
        os.killpg(pooler.pid, signal.SIGTERM)
        pooler.wait()
        shutil.rmtree(folder, ignore_errors=True)


def test_two_processes_behind_pgbouncer_show_each_others_moves_within_a_second(bouncer: tuple[str, str]) -> None:
    # Two `referee serve --no-notify` processes reach one database only through PgBouncer
    # in transaction mode. Twelve moves are logged on A (each statement of the app runs
    # more than five times: psycopg would prepare it, and find it missing on the pooler's
    # other server connection); a phone waiting on B gets each within a second. Nobody
    # listens at the database.
    direct, pooled = bouncer
    (a, base_a), (b, base_b) = serve(pooled, "--no-notify"), serve(pooled, "--no-notify")
    try:
        made = json.loads(ask(f"{base_a}/api/games", {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]})[2])
        moves = f"{base_a}/api/games/{made['id']}/events"
        for number in range(1, 13):
            got: list[tuple[float, list[str]]] = []
            waiting = threading.Thread(target=lambda: got.append((time.monotonic(), [e["text"] for e in json.loads(
                ask(f"{base_b}/api/games/{made['id']}/events?after={number - 1}&wait=10")[2])["events"]])))
            waiting.start()
            time.sleep(0.3)
            logged_at = time.monotonic()
            assert ask(moves, {"type": "note", "text": f"move {number}"}, str(made["host_token"]), f"a:{number}")[0] == 201
            waiting.join(15)
            assert got and got[0][1] == [f"move {number}"] and got[0][0] - logged_at < 1, number
        with psycopg.connect(direct) as connection:
            assert connection.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%'").fetchone() == (0,)
    finally:
        for server in (a, b):
            server.kill()
            server.wait()


def test_a_store_that_does_not_notify_sends_no_notice(postgres: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Where the engine has no NOTIFY, `--no-notify` must not send one; a listener at the
    # database hears the move of a store that notifies, and nothing of one that does not.
    monkeypatch.setenv("REFEREE_SECRET_KEY_FILE", str(tmp_path / "secret_key"))
    url = postgres.new_database()
    store = Store(url)
    game = store.create_game(table("ftw", "Anna Ben Cem"))
    with psycopg.connect(url, autocommit=True) as listener:
        listener.execute("LISTEN referee_news")
        store.append(game, {"type": "note", "text": "told"})
        assert heard(listener, seconds=2, enough=1) == [game]
        store.db.news = False
        store.append(game, {"type": "note", "text": "untold"})
        assert heard(listener, seconds=1) == []


def heard(listener: psycopg.Connection, seconds: float, enough: int | None = None) -> list[str]:
    """The payloads a listening connection receives within `seconds` (fewer if `enough` came).

    Polled with a query: `notifies(timeout=…)` is newer than the lowest psycopg allowed."""
    payloads: list[str] = []
    listener.add_notify_handler(lambda notice: payloads.append(notice.payload))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (enough is None or len(payloads) < enough):
        listener.execute("SELECT 1")
        time.sleep(0.05)
    return payloads
