"""The live channel: a phone that leaves frees its place at once."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
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
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", "from referee.cli import main; main()", "serve", "--port", str(port),
                               "--max-waiting", "24", "--db", str(tmp_path / "live.sqlite3")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        request = urllib.request.Request(f"{base}/api/games", data=json.dumps({"game": "ftw", "seats": ["A", "B", "C"]}).encode(),
                                         headers={"Content-Type": "application/json"})
        made = json.loads(urllib.request.urlopen(request).read())
        poll = f"GET /api/games/{made['id']}/events?after=0&wait=20 HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        for _ in range(40):  # each ghost asks, then its browser closes
            ghost = socket.create_connection(("127.0.0.1", port))
            ghost.sendall(poll)
            ghost.close()
        time.sleep(1.5)  # a second for waitress to notice, half a second for the wait to ask
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
