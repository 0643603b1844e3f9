"""Server load benchmark (a script, not a test): python bench/bench_server.py [--max-waiting N] [--quick]

First a move at one connection against the bare endpoint (below), both servers up, in
interleaved rounds (`--one-connection` runs only that).

Starts the real server (`referee serve`, gevent's WSGI server) on 127.0.0.1 with a fresh SQLite file
and drives 200 tables at once over 8 keep-alive connections, each table logging a legal
simulated game (Karriere Poker, Employee of the Month, FTW?!), bounded to 60 s. In the
same run it measures the floor of this stack: a bare Flask endpoint under the same server that
validates the same bodies with marshmallow and inserts one row (WAL, synchronous=FULL).
Then the same load with 200 phones long-polling meanwhile (each honours Retry-After when
the server is full of waiting phones), timing the moves and an unrelated GET. Then the
same load again with the server killed (SIGKILL) in the middle and restarted: clients
retry with their Idempotency-Key. Every run checks that each acknowledged append is
stored, and runs `referee verify`. `--quick` runs every part (the club night and several
processes too) at tiny sizes in a few seconds each: it shows the script still runs, its
figures mean nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

from referee.simulate import employee_of_the_month, ftw_game, karriere_poker
from referee.store import Store

CONNECTIONS = 8
TABLES = 200
DEADLINE = 60.0
NAMES = ["Anna", "Ben", "Cem", "Dora"]

BARE_APP = textwrap.dedent(
    """
    from gevent import monkey; monkey.patch_all()
    import sqlite3, sys, threading
    from referee.web.server import listen
    from flask import Flask, request, jsonify
    from marshmallow import Schema, fields, INCLUDE
    class Event(Schema):
        class Meta:
            unknown = INCLUDE
        type = fields.String(required=True)
        seat = fields.Integer(strict=True)
    app = Flask(__name__)
    db = sqlite3.connect(sys.argv[1], check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY, game TEXT, body TEXT)")
    lock = threading.Lock()
    @app.post("/bare/<game>")
    def bare(game):
        body = Event().load(request.get_json())
        with lock:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO events (game, body) VALUES (?, ?)", (game, request.get_data(as_text=True)))
            db.execute("COMMIT")
        return jsonify(ok=True), 201
    listen(app, "127.0.0.1", int(sys.argv[2])).serve_forever()  # the referee's own server
    """
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(port: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


def start_referee(db: Path | str, port: int, max_waiting: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-c", "from referee.cli import main; main()", "serve", "--port", str(port),
               "--max-waiting", str(max_waiting), "--max-connections-per-address", "0", "--db", str(db)]  # every phone here is 127.0.0.1
    folder = Path(tempfile.gettempdir()) if str(db).startswith("postgresql") else Path(db).parent
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=folder)
    wait_for(port)
    return process


def games(count: int = TABLES) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """`count` legal games: header bodies and event bodies (without seq)."""
    made = []
    for table in range(count):
        kind = table % 3
        if kind == 0:
            header, events = karriere_poker(NAMES, games=1, seed=table, hands=False)
        elif kind == 1:
            header, events = employee_of_the_month(NAMES[:3], seed=table)
        else:
            header, events = ftw_game(NAMES[:3], seed=table, hands=False)
        body = {"game": header.game, "seats": list(header.seats), "options": dict(header.options)}
        made.append((body, [{k: v for k, v in e.items() if k != "seq"} for e in events]))
    return made


class Load:
    """Eight connections, each driving its share of tables, one request at a time. With
    several server ports (several processes on one store), connection i starts at port i
    (round the ports), and a connection that fails goes on at the next one."""

    def __init__(self, port: int | list[int], tables: list[tuple[str, str, list[dict[str, Any]]]], path: str) -> None:
        self.ports = port if isinstance(port, list) else [port]
        self.port, self.tables, self.path = self.ports[0], tables, path
        self.latencies: list[float] = []
        self.acknowledged: dict[str, dict[int, dict[str, Any]]] = {game: {} for game, _, _ in tables}
        self.errors = 0
        self.lock = threading.Lock()

    def run(self, stop_after: float = DEADLINE) -> float:
        threads = [threading.Thread(target=self._drive, args=(self.tables[i::CONNECTIONS], stop_after, i)) for i in range(CONNECTIONS)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return time.perf_counter() - started

    def _drive(self, tables: list[tuple[str, str, list[dict[str, Any]]]], stop_after: float, number: int = 0) -> None:
        at = number % len(self.ports)
        connection = http.client.HTTPConnection("127.0.0.1", self.ports[at], timeout=30)
        progress = {game: 0 for game, _, _ in tables}
        started = time.perf_counter()
        while time.perf_counter() - started < stop_after:
            pending = [(g, t, e) for g, t, e in tables if progress[g] < len(e)]
            if not pending:
                break
            for game, token, events in pending:  # one event of every table in turn: tables interleave
                body = events[progress[game]]
                key = f"{game}:{progress[game]}"
                answer = self._post(connection, f"{self.path}/{game}" + ("/events" if self.path == "/api/games" else ""),
                                    body, token, key)
                if answer is None:
                    connection.close()
                    at = (at + 1) % len(self.ports)
                    connection = http.client.HTTPConnection("127.0.0.1", self.ports[at], timeout=30)
                    time.sleep(0.05)
                    continue  # retried in the next turn with the same key
                with self.lock:
                    if "seq" in answer:
                        self.acknowledged[game][answer["seq"]] = answer["event"]
                progress[game] += 1
        connection.close()

    def _post(self, connection: http.client.HTTPConnection, url: str, body: dict[str, Any], token: str, key: str) -> dict[str, Any] | None:
        payload = json.dumps(body)
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}", "Idempotency-Key": key}
        started = time.perf_counter()
        try:
            connection.request("POST", url, payload, headers)
            response = connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            with self.lock:
                self.errors += 1
            return None
        elapsed = time.perf_counter() - started
        if response.status not in (200, 201):
            raise RuntimeError(f"{url}: {response.status} {data[:200]!r}")
        with self.lock:
            self.latencies.append(elapsed)
        answer: dict[str, Any] = json.loads(data)
        return answer


class Phones:
    """Phones parked on long-polls of their games (`wait` seconds each), each asking again at
    once or after its Retry-After; they note when each event reached them. All of them are
    sockets on one asyncio loop in a thread of its own, so a thousand phones cost the
    measuring process no thousand threads."""

    def __init__(self, port: int, games: list[str], count: int, wait: float = 2) -> None:
        self.port, self.games, self.count, self.wait = port, games, count, wait
        self.polls = self.told_to_wait = self.errors = 0
        self.received: dict[tuple[str, int], list[float]] = {}
        self.loop = asyncio.new_event_loop()
        self.task: asyncio.Future[Any] | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.task = asyncio.gather(*(self._poll(self.games[i % len(self.games)]) for i in range(self.count)))
        try:
            self.loop.run_until_complete(self.task)
        except asyncio.CancelledError:
            pass

    def __enter__(self) -> Phones:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.loop.call_soon_threadsafe(lambda: self.task.cancel() if self.task else None)
        self.thread.join(10)

    async def _poll(self, game: str) -> None:
        reader: asyncio.StreamReader | None = None
        writer: asyncio.StreamWriter | None = None
        after = 0
        while True:
            try:
                if writer is None:
                    reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
                assert reader is not None
                writer.write(f"GET /api/games/{game}/events?after={after}&wait={self.wait} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
                await reader.readline()  # the status line
                headers = {}
                while (line := await asyncio.wait_for(reader.readline(), self.wait + 20)) not in (b"\r\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                answer = json.loads(await reader.readexactly(int(headers["content-length"])))
            except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, KeyError, ValueError):
                self.errors += 1
                if writer is not None:
                    writer.close()
                reader = writer = None
                await asyncio.sleep(0.2)
                continue
            now, after = time.monotonic(), answer["seq"]
            retry = headers.get("retry-after")
            self.polls += 1
            self.told_to_wait += retry is not None
            for event in answer["events"]:
                self.received.setdefault((game, event["seq"]), []).append(now)
            if retry:
                await asyncio.sleep(float(retry))


def unrelated_get(port: int, game: str, samples: int = 50) -> list[float]:
    """The time of a plain state read while the phones wait and the moves go on."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    timings = []
    for _ in range(samples):
        started = time.perf_counter()
        connection.request("GET", f"/api/games/{game}")
        connection.getresponse().read()
        timings.append(time.perf_counter() - started)
        time.sleep(0.1)
    connection.close()
    return timings


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def create_tables(port: int, made: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> list[tuple[str, str, list[dict[str, Any]]]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    tables = []
    for header, events in made:
        connection.request("POST", "/api/games", json.dumps(header), {"Content-Type": "application/json"})
        answer = json.loads(connection.getresponse().read())
        tables.append((answer["id"], answer["host_token"], events))
    connection.close()
    return tables


def check_stored(db: Path | str, load: Load) -> tuple[int, int]:
    """Every acknowledged append is stored, unchanged; returns (acknowledged, stored)."""
    store = Store(db)
    acknowledged = stored = 0
    for game, acked in load.acknowledged.items():
        events = {e["seq"]: e for e in store.events(game)}
        stored += len(events)
        acknowledged += len(acked)
        for seq, event in acked.items():
            assert events.get(seq) == event, f"acknowledged event {game}/{seq} is missing or changed"
    verified = subprocess.run([sys.executable, "-c", "from referee.cli import main; main()", "verify", "--db", str(db)],
                              capture_output=True, text=True, check=False)
    assert verified.returncode == 0, verified.stderr
    return acknowledged, stored


def report(name: str, load: Load, seconds: float) -> float:
    rate = len(load.latencies) / seconds
    print(f"{name}: {len(load.latencies)} appends in {seconds:.1f} s = {rate:.0f}/s; "
          f"p50 {percentile(load.latencies, 0.5):.1f} ms, p99 {percentile(load.latencies, 0.99):.1f} ms")
    return rate


def floor_and_referee(folder: Path, made: list[tuple[dict[str, Any], list[dict[str, Any]]]], max_waiting: int) -> None:
    """The bare endpoint (the floor of this stack), then the referee with the same load."""
    bare_port = free_port()
    bare = subprocess.Popen([sys.executable, "-c", BARE_APP, str(folder / "bare.sqlite3"), str(bare_port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(bare_port)
    bare_load = Load(bare_port, [(f"t{i}", "-", events) for i, (_, events) in enumerate(made)], "/bare")
    bare_rate = report("bare endpoint", bare_load, bare_load.run())
    bare.kill()
    bare.wait()

    # the referee, whole games
    db, port = folder / "referee.sqlite3", free_port()
    server = start_referee(db, port, max_waiting)
    load = Load(port, create_tables(port, made), "/api/games")
    rate = report("referee", load, load.run())
    server.kill()
    server.wait()
    acknowledged, stored = check_stored(db, load)
    print(f"  acknowledged {acknowledged} == stored {stored}: {acknowledged == stored}; referee verify: ok")
    print(f"  referee/bare = {rate / bare_rate:.2f} (target >= 0.7); p99 target <= 50 ms")


def one_connection(folder: Path, max_waiting: int, rounds: int = 5, moves: int = 200) -> None:
    """A move at one connection, referee against the bare endpoint, both servers up, the
    two alternating move by move (so a busy moment of the machine falls on both): p50 of
    each round's moves, as a ratio (target <= 1.25)."""
    header, events = karriere_poker(NAMES, games=rounds * moves // 50 + 2, seed=7, hands=False)
    body = {"game": header.game, "seats": list(header.seats), "options": dict(header.options)}
    bare_port, port = free_port(), free_port()
    bare = subprocess.Popen([sys.executable, "-c", BARE_APP, str(folder / "one-bare.sqlite3"), str(bare_port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = start_referee(folder / "one.sqlite3", port, max_waiting)
    wait_for(bare_port)
    try:
        [(game, token, _)] = create_tables(port, [(body, [])])
        bare_load, load = Load(bare_port, [], "/bare"), Load(port, [], "/api/games")
        bare_connection = http.client.HTTPConnection("127.0.0.1", bare_port, timeout=30)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        bodies = [{k: v for k, v in e.items() if k != "seq"} for e in events]
        p50s: dict[str, list[float]] = {"referee": [], "bare": []}
        sides = (("bare", bare_load, bare_connection, f"/bare/{game}"), ("referee", load, connection, f"/api/games/{game}/events"))
        for number in range(rounds):
            for _, loader, _, _ in sides:
                loader.latencies.clear()
            for index, move in enumerate(bodies[number * moves : (number + 1) * moves]):
                for _, loader, conn, url in sides:
                    loader._post(conn, url, move, token, f"{number}:{index}")
            for side, loader, _, _ in sides:
                p50s[side].append(percentile(loader.latencies, 0.5))
        ratios = sorted(r / b for r, b in zip(p50s["referee"], p50s["bare"]))
        print(f"one connection, {moves} moves a round, {rounds} rounds: referee/bare p50 "
              f"{ratios[0]:.2f} / {ratios[len(ratios) // 2]:.2f} / {ratios[-1]:.2f} (min / median / max; target <= 1.25); "
              f"referee p50 {sorted(p50s['referee'])[rounds // 2]:.2f} ms, bare p50 {sorted(p50s['bare'])[rounds // 2]:.2f} ms")
    finally:
        for process in (bare, server):
            process.kill()
            process.wait()


def club_moves(port: int, tables: list[tuple[str, str, list[dict[str, Any]]]], moves: int, pace: float) -> tuple[dict[tuple[str, int], float], list[float]]:
    """`moves` moves at every table, round the tables, one every `pace` seconds: when each
    was acknowledged, and each move's latency."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    acknowledged: dict[tuple[str, int], float] = {}
    latencies = []
    for move in range(moves):
        for game, token, events in tables:
            started = time.monotonic()
            connection.request("POST", f"/api/games/{game}/events", json.dumps(events[move]),
                               {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
            answer = json.loads(connection.getresponse().read())
            done = time.monotonic()
            acknowledged[(game, answer["seq"])] = done
            latencies.append(done - started)
            time.sleep(max(0.0, pace - (done - started)))
    connection.close()
    return acknowledged, latencies


def club_night(folder: Path, made: list[tuple[dict[str, Any], list[dict[str, Any]]]], phones: int, max_waiting: int, moves: int = 5,
               cluster: Any = None, processes: int = 1) -> None:
    """A club night: `phones` phones waiting on phones/5 tables while moves are logged at
    every table, against the same moves with no phone waiting. With several `processes`
    (on PostgreSQL: `cluster`), the phones wait spread over them and the moves go to the
    first: the others' phones hear of them across processes."""
    count = max(1, phones // 5)
    pace = 0.02
    where = f"{processes} process{'es' if processes > 1 else ''} on {'PostgreSQL' if cluster else 'SQLite'}"
    print(f"club night: {phones} phones on {count} tables, {moves} moves a table, a move every {pace * 1000:.0f} ms, {where}, max waiting {max_waiting}")
    results = {}
    for waiting in (0, phones):
        db = cluster.new_database() if cluster else folder / f"club-{waiting}.sqlite3"
        ports = [free_port() for _ in range(processes)]
        servers = [start_referee(db, port, max_waiting) for port in ports]
        tables = create_tables(ports[0], made[:count])
        with contextlib.ExitStack() as stack:
            clubs = [stack.enter_context(Phones(port, [game for game, _, _ in tables], waiting // processes, wait=20)) for port in ports]
            time.sleep(2 + waiting / 100)  # every phone is parked
            acknowledged, latencies = club_moves(ports[0], tables, moves, pace)
            time.sleep(3)
        for server in servers:
            server.kill()
            server.wait()
        results[waiting] = latencies
        if waiting:
            received = [(key, got) for club in clubs for key, times in club.received.items() for got in times]
            delays = [max(0.0, got - acknowledged[key]) for key, got in received if key in acknowledged]
            expected = len(acknowledged) * (phones // count)
            missed = expected - len(delays)
            print(f"  delivery to each waiting phone: p50 {percentile(delays, 0.5):.0f} ms, p95 {percentile(delays, 0.95):.0f} ms, "
                  f"max {max(delays) * 1000:.0f} ms (target p95 <= 500 ms); {missed} of {expected} deliveries missed; "
                  f"{sum(club.told_to_wait for club in clubs)} told to come back later")
    alone, busy = results[0], results[phones]
    print(f"  moves with no phone waiting: p50 {percentile(alone, 0.5):.1f} ms, p99 {percentile(alone, 0.99):.1f} ms; "
          f"with {phones} phones waiting: p50 {percentile(busy, 0.5):.1f} ms, p99 {percentile(busy, 0.99):.1f} ms (target <= 50 ms); "
          f"p99 ratio {percentile(busy, 0.99) / percentile(alone, 0.99):.2f}")


def processes(folder: Path, made: list[tuple[dict[str, Any], list[dict[str, Any]]]], max_waiting: int, cluster: Any = None) -> None:
    """Several `referee serve` processes on one store: the same load through 1 and 2
    processes on one SQLite file and, with a PostgreSQL cluster, through 1, 2 and 4 on one
    database (the connections spread over them), each as a ratio to 1 process on SQLite;
    then 2 processes with one killed (SIGKILL) after 3 s while moves flow: its connections
    go on at the other, retrying with their Idempotency-Key; every acknowledged append must
    be stored."""
    runs = [("SQLite", 1), ("SQLite", 2)] + ([("PostgreSQL", 1), ("PostgreSQL", 2), ("PostgreSQL", 4)] if cluster else [])
    rates = {}
    for backend, count in runs:
        db = str(folder / f"processes-{count}.sqlite3") if backend == "SQLite" else cluster.new_database()
        ports = [free_port() for _ in range(count)]
        servers = [start_referee(db, port, max_waiting) for port in ports]
        load = Load(ports, create_tables(ports[0], made), "/api/games")
        rates[backend, count] = report(f"{backend}, {count} process{'es' if count > 1 else ''}", load, load.run())
        for server in servers:
            server.kill()
            server.wait()
        check_stored(db, load)
        print(f"  moves per second against 1 process on SQLite: {rates[backend, count] / rates['SQLite', 1]:.2f}")
    for backend in ("SQLite", "PostgreSQL") if cluster else ("SQLite",):
        db = str(folder / "processes-killed.sqlite3") if backend == "SQLite" else cluster.new_database()
        ports = [free_port(), free_port()]
        servers = [start_referee(db, port, max_waiting) for port in ports]
        load = Load(ports, create_tables(ports[0], made), "/api/games")
        killer = threading.Timer(3, lambda: servers[0].send_signal(signal.SIGKILL))
        killer.start()
        seconds = load.run()
        for server in servers:
            server.kill()
            server.wait()
        acknowledged, stored = check_stored(db, load)
        print(f"{backend}, kill -9 of one of 2 processes after 3 s: {len(load.latencies)} appends in {seconds:.1f} s, {load.errors} failed "
              f"requests retried at the other; {acknowledged} acknowledged, {stored} stored, 0 lost: {acknowledged == stored}; referee verify: ok")


def postgres_cluster() -> Any:
    """A throwaway PostgreSQL cluster (the tests' own, tests/postgres.py)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from postgres import Cluster

    cluster = Cluster()
    os.environ["REFEREE_SECRET_KEY_FILE"] = str(cluster.folder / "secret_key")  # one key for the servers and `referee verify`
    return cluster


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-waiting", type=int, default=5000, help="phones that may wait at once (serve's default)")
    parser.add_argument("--phones-only", action="store_true", help="only the run with 200 waiting phones")
    parser.add_argument("--one-connection", action="store_true", help="only a move at one connection against the bare endpoint")
    parser.add_argument("--processes", action="store_true", help="only several server processes on one store (1, 2, and a kill -9)")
    parser.add_argument("--postgres", action="store_true", help="with --processes and --club: also on PostgreSQL (a throwaway cluster)")
    parser.add_argument("--club", type=int, nargs="?", const=300, metavar="PHONES",
                        help="only the club night: PHONES (default 300) waiting on PHONES/5 tables while moves are logged")
    parser.add_argument("--quick", action="store_true", help="every part at tiny sizes, a few seconds each: only that it runs")
    arguments = parser.parse_args()
    max_waiting, everything = arguments.max_waiting, not arguments.phones_only
    if arguments.club:
        cluster = postgres_cluster() if arguments.postgres else None
        try:
            with tempfile.TemporaryDirectory() as name:
                club_night(Path(name), games(), arguments.club, max_waiting, cluster=cluster, processes=2 if cluster else 1)
        finally:
            if cluster:
                cluster.stop()
        return
    if arguments.processes:
        cluster = postgres_cluster() if arguments.postgres else None
        try:
            with tempfile.TemporaryDirectory() as name:
                processes(Path(name), games(), max_waiting, cluster)
        finally:
            if cluster:
                cluster.stop()
        return
    if arguments.one_connection:
        with tempfile.TemporaryDirectory() as name:
            one_connection(Path(name), max_waiting)
        return
    if arguments.quick:
        with tempfile.TemporaryDirectory() as name:
            folder, made = Path(name), games(3)
            one_connection(folder, max_waiting, rounds=2, moves=10)
            floor_and_referee(folder, made, max_waiting)
            waiting_phones(folder, made, max_waiting, phones=20, samples=5)
            killed_and_restarted(folder, made, max_waiting)
            club_night(folder, made, 10, max_waiting, moves=2)
            processes(folder, made, max_waiting)
        return
    made = games()
    total = sum(len(events) for _, events in made)
    print(f"{TABLES} tables, {total} events, {CONNECTIONS} connections, max waiting {max_waiting}, cores {os.cpu_count()}")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if everything:
            one_connection(folder, max_waiting)
            floor_and_referee(folder, made, max_waiting)
        waiting_phones(folder, made, max_waiting)
        if everything:
            killed_and_restarted(folder, made, max_waiting)


def waiting_phones(folder: Path, made: list[tuple[dict[str, Any], list[dict[str, Any]]]], max_waiting: int, phones: int = 200,
                   samples: int = 50) -> None:
    """The same load with `phones` phones waiting for news meanwhile (on the first 40 tables)."""
    db, port = folder / "phones.sqlite3", free_port()
    server = start_referee(db, port, max_waiting)
    tables = create_tables(port, made)
    load = Load(port, tables, "/api/games")
    with Phones(port, [game for game, _, _ in tables[:40]], phones) as waiting:
        reads: list[float] = []
        reader = threading.Thread(target=lambda: reads.extend(unrelated_get(port, tables[-1][0], samples)))
        reader.start()
        seconds = load.run()
        reader.join()
    server.kill()
    server.wait()
    report(f"referee with {phones} waiting phones", load, seconds)
    print(f"  {waiting.polls} polls, {waiting.told_to_wait} answered at once with Retry-After; "
          f"an unrelated GET: p50 {percentile(reads, 0.5):.1f} ms, max {max(reads) * 1000:.1f} ms")


def killed_and_restarted(folder: Path, made: list[tuple[dict[str, Any], list[dict[str, Any]]]], max_waiting: int) -> None:
    """kill -9 after 3 s, a restart, the clients retrying with the same Idempotency-Key."""
    total = sum(len(events) for _, events in made)
    db, port = folder / "killed.sqlite3", free_port()
    server = start_referee(db, port, max_waiting)
    load = Load(port, create_tables(port, made), "/api/games")
    holder: dict[str, subprocess.Popen[bytes]] = {}

    def kill_and_restart() -> None:
        time.sleep(3)
        server.send_signal(signal.SIGKILL)
        server.wait()
        time.sleep(0.5)
        holder["server"] = start_referee(db, port, max_waiting)

    killer = threading.Thread(target=kill_and_restart)
    killer.start()
    seconds = load.run()
    killer.join()
    holder["server"].kill()
    holder["server"].wait()
    acknowledged, stored = check_stored(db, load)
    print(f"kill -9 after 3 s and restart: {len(load.latencies)} appends in {seconds:.1f} s, {load.errors} failed requests retried; "
          f"every acknowledged append stored ({acknowledged} acknowledged, {stored} stored, "
          f"expected {total}); referee verify: ok")


if __name__ == "__main__":
    main()
