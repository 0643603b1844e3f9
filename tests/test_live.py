"""The live channel: a phone that leaves frees its place at once."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from flask import Flask

from referee.web import CLIENT_GONE, create_app
from test_api import Table


def test_a_phone_that_left_stops_waiting_within_a_second(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "w.sqlite3"), "SECRET_KEY": "t", "LONG_POLL_MAX_WAITING": 1})
    client = app.test_client()
    table = Table(client, {"game": "ftw", "seats": ["A", "B", "C"]}, claim=())
    started = time.monotonic()
    answer = client.get(f"/api/games/{table.id}/events?after=0&wait=10", environ_base={CLIENT_GONE: lambda: True})
    assert time.monotonic() - started < 1.0 and answer.status_code == 200
    # Its place is free: the next phone waits (no Retry-After) and gets the move.
    got: list[object] = []
    waiting = threading.Thread(target=lambda: got.append(app.test_client().get(f"/api/games/{table.id}/events?after=0&wait=5")))
    waiting.start()
    time.sleep(0.3)
    table.log({"type": "note", "text": "news"})
    waiting.join(5)
    assert got and "Retry-After" not in got[0].headers and got[0].json["events"][0]["text"] == "news"  # type: ignore[attr-defined]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_forty_ghost_phones_do_not_delay_five_real_ones(tmp_path: Path) -> None:
    """The real server (`referee serve`): 40 phones start a long-poll and vanish; 5 phones
    then wait on the same game, a move is logged, and every one of the 5 gets it at once."""
    server, base = serve(tmp_path / "live.sqlite3", "--max-waiting", "24")
    port = int(base.rsplit(":", 1)[1])
    try:
        request = urllib.request.Request(f"{base}/api/games", data=json.dumps({"game": "ftw", "seats": ["A", "B", "C"]}).encode(),
                                         headers={"Content-Type": "application/json"})
        made = json.loads(urllib.request.urlopen(request).read())
        poll = f"GET /api/games/{made['id']}/events?after=0&wait=20 HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        for _ in range(40):  # each ghost asks, then its browser closes
            ghost = socket.create_connection(("127.0.0.1", port))
            ghost.sendall(poll)
            ghost.close()
        time.sleep(1.5)  # the waits peek at their sockets every half second: a second and a half is plenty
        answers: list[tuple[float, dict[str, object], str | None]] = []

        def phone() -> None:
            with urllib.request.urlopen(f"{base}/api/games/{made['id']}/events?after=0&wait=15") as answer:
                answers.append((time.monotonic(), json.loads(answer.read()), answer.headers.get("Retry-After")))

        phones = [threading.Thread(target=phone) for _ in range(5)]
        for thread in phones:
            thread.start()
        time.sleep(0.5)
        logged_at = time.monotonic()
        move = urllib.request.Request(f"{base}/api/games/{made['id']}/events", data=json.dumps({"type": "note", "text": "go"}).encode(),
                                      headers={"Content-Type": "application/json", "Authorization": f"Bearer {made['host_token']}"})
        urllib.request.urlopen(move).read()
        for thread in phones:
            thread.join(10)
        assert len(answers) == 5
        assert all(retry is None and body["events"] for _, body, retry in answers)  # type: ignore[index]
        assert max(at for at, _, _ in answers) - logged_at < 1.0
    finally:
        server.kill()
        server.wait()


def serve(db: Path | str, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    """`referee serve` on `db`, listening: the process and its base URL."""
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", "from referee.cli import main; main()", "serve", "--port", str(port), "--db", str(db), *options],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    return process, f"http://127.0.0.1:{port}"


def post(url: str, body: dict[str, object], token: str | None = None) -> tuple[int, dict[str, object]]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers), timeout=15) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_two_server_processes_on_one_store_deliver_each_others_moves_and_store_one_of_two_racing_moves(database: str) -> None:
    # Two `referee serve` processes on one store (a SQLite file; a PostgreSQL database). A
    # phone waiting on B gets a move logged on A at once (PostgreSQL's NOTIFY) or within a
    # second (B reads the stored head every half second). Then two moves made against the same event reach A and B at the
    # same moment: one is stored, the other is refused as stale; the log stays one chain
    # (`referee verify`).
    db = database
    (a, base_a), (b, base_b) = serve(db), serve(db)
    try:
        _, made = post(f"{base_a}/api/games", {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]})
        game, token = made["id"], str(made["host_token"])
        got: list[tuple[float, dict[str, object]]] = []

        def phone_on_b() -> None:
            answer = json.loads(urllib.request.urlopen(f"{base_b}/api/games/{game}/events?after=0&wait=10", timeout=15).read())
            got.append((time.monotonic(), answer))  # when the answer came

        waiting = threading.Thread(target=phone_on_b)
        waiting.start()
        time.sleep(0.65)  # just after B's own look at the head: only a NOTIFY brings the move sooner than the next
        status, _ = post(f"{base_a}/api/games/{game}/events", {"type": "high", "seat": 0, "card": 5, "expected_seq": 0}, token)
        logged_at = time.monotonic()
        waiting.join(10)
        # PostgreSQL tells the other process at once (NOTIFY); on SQLite it reads the head every half second.
        assert status == 201 and got and got[0][1]["seq"] == 1 and got[0][0] - logged_at < (0.25 if db.startswith("postgresql") else 1.0)
        statuses: list[int] = []
        racers = [threading.Thread(target=lambda base=base, card=card: statuses.append(
            post(f"{base}/api/games/{game}/events", {"type": "high", "seat": 1, "card": card, "expected_seq": 1}, token)[0]))
            for base, card in ((base_a, 7), (base_b, 9))]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(10)
        assert sorted(statuses) == [201, 409]
        events = json.loads(urllib.request.urlopen(f"{base_b}/api/games/{game}/events", timeout=15).read())["events"]
        assert [e["seq"] for e in events] == [1, 2]
    finally:
        for process in (a, b):
            process.kill()
            process.wait()
    verified = subprocess.run([sys.executable, "-c", "from referee.cli import main; main()", "verify", "--db", str(db)], capture_output=True, text=True)
    assert verified.returncode == 0, verified.stdout + verified.stderr
