"""Hostile clients benchmark (a script, not a test): python bench/bench_hostile.py [--idle N] [--seconds S] [--quick]

Starts the real server (`referee serve`, its default limits) on 127.0.0.1 with a fresh
SQLite file and a phone at one table that loads its page and logs a move every 0.2 s on a
keep-alive connection (reconnecting when it was closed, as a browser does); every second
it also opens a fresh connection for a page, as a phone that just arrives. Measured three
times in one run, each for `--seconds` (default 15): on an idle server (the reference);
while one client at another address (127.0.0.2) holds `--idle` (default 20,000) idle
connections, split over two processes because one process may open at most the
open-file limit (20,000 here), each reopening a connection a second after the server
closed or refused it (the server's open files are counted meanwhile); and while 20
connections pipeline 500 history pages each (a game of 78 moves) and never read. Every
process it starts stops by itself; all on loopback. `--quick` runs each phase for a
second with 200 idle connections: it shows the script still runs, its figures mean nothing.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench_server import free_port, percentile, wait_for

from referee.simulate import karriere_poker

PACE = 0.2
HOSTILE = "127.0.0.2"  # the hostile client's address: the server caps connections per address


def start(db: Path, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen([sys.executable, "-c", "from referee.cli import main; main()", "serve", "--port", str(port), "--db", str(db)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=db.parent)
    wait_for(port)
    return process


def ask(connection: http.client.HTTPConnection, method: str, url: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    connection.request(method, url, None if body is None else json.dumps(body), headers)
    answer = connection.getresponse()
    data = answer.read()
    if answer.status not in (200, 201):
        raise RuntimeError(f"{method} {url}: {answer.status}")
    return json.loads(data) if answer.getheader("Content-Type", "").startswith("application/json") else data


def new_game(port: int, header: Any, events: list[dict[str, Any]], logged: int) -> tuple[str, str, list[dict[str, Any]]]:
    """A game with its first `logged` events stored: (id, host token, the events still to log)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    made = ask(connection, "POST", "/api/games", {"game": header.game, "seats": list(header.seats), "options": dict(header.options)})
    bodies = [{k: v for k, v in e.items() if k != "seq"} for e in events]
    for body in bodies[:logged]:
        ask(connection, "POST", f"/api/games/{made['id']}/events", body, made["host_token"])
    connection.close()
    return made["id"], made["host_token"], bodies[logged:]


class Phone:
    """The phone at another table: its page and a move every PACE seconds on one keep-alive
    connection; every second a page on a fresh connection (a phone that just arrives)."""

    def __init__(self, port: int, game: str, token: str, moves: list[dict[str, Any]]) -> None:
        self.port, self.game, self.token, self.moves = port, game, token, moves
        self.pages: list[float] = []
        self.posts: list[float] = []
        self.fresh: list[float] = []
        self.refused = self.failed = 0

    def run(self, seconds: float) -> Phone:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        until, next_fresh = time.monotonic() + seconds, time.monotonic()
        while time.monotonic() < until and self.moves:
            for kind in ("page", "move"):
                started = time.monotonic()
                try:
                    if kind == "page":
                        ask(connection, "GET", f"/g/{self.game}")
                    else:
                        ask(connection, "POST", f"/api/games/{self.game}/events", self.moves[0], self.token)
                        self.moves.pop(0)
                except (OSError, http.client.HTTPException, RuntimeError):
                    self.failed += 1
                    connection.close()  # reconnect next time, as a browser does
                    continue
                (self.pages if kind == "page" else self.posts).append(time.monotonic() - started)
            if time.monotonic() >= next_fresh:
                next_fresh += 1
                self._fresh_page()
            time.sleep(PACE)
        connection.close()
        return self

    def _fresh_page(self) -> None:
        started = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request("GET", f"/g/{self.game}")
            answer = connection.getresponse()
            answer.read()
            if answer.status == 503:
                self.refused += 1
            else:
                self.fresh.append(time.monotonic() - started)
        except (OSError, http.client.HTTPException):
            self.refused += 1
        connection.close()

    def line(self, name: str) -> str:
        return (f"{name}: page p50 {percentile(self.pages, 0.5):.0f} ms, p95 {percentile(self.pages, 0.95):.0f} ms, "
                f"max {max(self.pages) * 1000:.0f} ms ({len(self.pages)}); move p50 {percentile(self.posts, 0.5):.0f} ms, "
                f"p95 {percentile(self.posts, 0.95):.0f} ms, max {max(self.posts) * 1000:.0f} ms ({len(self.posts)}); "
                f"{self.failed} failed; a fresh connection's page: {len(self.fresh)} served"
                + (f" (p95 {percentile(self.fresh, 0.95):.0f} ms)" if self.fresh else "") + f", {self.refused} refused")


def hold(port: int, count: int, seconds: float) -> None:
    """One hostile process: `count` idle connections from HOSTILE held for `seconds`, each reopened a
    second after the server closed or refused it (connects never wait: non-blocking)."""
    selector, reopen = selectors.DefaultSelector(), []
    until = time.monotonic() + seconds

    def open_one() -> None:
        sock = socket.socket()
        sock.bind((HOSTILE, 0))
        sock.setblocking(False)
        sock.connect_ex(("127.0.0.1", port))
        selector.register(sock, selectors.EVENT_READ)

    for _ in range(count):
        open_one()
    while time.monotonic() < until:
        for key, _ in selector.select(0.1):  # the server answered (a 503) or closed: drop it, reopen later
            selector.unregister(key.fileobj)
            key.fileobj.close()  # type: ignore[union-attr]
            reopen.append(time.monotonic() + 1)
        now = time.monotonic()
        for _ in [at for at in reopen if at <= now]:
            open_one()
        reopen[:] = [at for at in reopen if at > now]
    for key in list(selector.get_map().values()):
        key.fileobj.close()  # type: ignore[union-attr]


def open_files(pid: int, seconds: float, most: list[int]) -> None:
    """The most files the server held open at once, looked at every 0.2 s."""
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        most[0] = max(most[0], len(os.listdir(f"/proc/{pid}/fd")))
        time.sleep(0.2)


def pipeline(port: int, game: str, seconds: float) -> None:
    """20 connections, each sending 500 history pages in one go and never reading."""
    pages = f"GET /g/{game}/history HTTP/1.1\r\nHost: bench\r\n\r\n".encode() * 500
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
    for sock in sockets:
        sock.settimeout(seconds)
        threading.Thread(target=lambda s=sock: _send_quietly(s, pages), daemon=True).start()
    time.sleep(seconds)
    for sock in sockets:
        sock.close()


def _send_quietly(sock: socket.socket, data: bytes) -> None:
    try:
        sock.sendall(data)
    except OSError:
        pass  # the server closed it: its answers stood still


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--idle", type=int, default=20_000, help="idle connections one client holds (split over two processes)")
    parser.add_argument("--seconds", type=float, default=15, help="each measurement's length")
    parser.add_argument("--quick", action="store_true", help="1 s a phase, 200 idle connections: only that it runs")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.idle, arguments.seconds = 200, 1
    seconds, settle = arguments.seconds, min(3, arguments.seconds)
    with tempfile.TemporaryDirectory() as name:
        port = free_port()
        server = start(Path(name) / "hostile.sqlite3", port)
        try:
            history, _, _ = new_game(port, *karriere_poker(["Anna", "Ben", "Cem", "Dora"], games=1, seed=3, hands=False), logged=78)
            game, token, moves = new_game(port, *karriere_poker(["Eva", "Finn", "Gül", "Hans"], games=4, seed=5, hands=False), logged=0)
            print(f"one server (its default limits), a phone at another table every {PACE * 1000:.0f} ms, {seconds:.0f} s each")
            print(Phone(port, game, token, moves).run(seconds).line("idle server (reference)"))

            holders = [multiprocessing.Process(target=hold, args=(port, arguments.idle // 2, seconds + settle), daemon=True) for _ in range(2)]
            most = [0]
            watcher = threading.Thread(target=open_files, args=(server.pid, seconds + settle, most))
            for holder in holders:
                holder.start()
            watcher.start()
            time.sleep(settle)  # every connection asked for
            phone = Phone(port, game, token, moves).run(seconds)
            for holder in holders:
                holder.join(30)
            watcher.join()
            print(phone.line(f"one client at {HOSTILE} holding {arguments.idle} idle connections (the server held at most {most[0]} files open)"))

            flood = threading.Thread(target=pipeline, args=(port, history, seconds + 1))
            flood.start()
            time.sleep(0.5)
            print(Phone(port, game, token, moves).run(seconds).line("20 connections pipelining 500 history pages each, never reading"))
            flood.join()
        finally:
            server.kill()
            server.wait()


if __name__ == "__main__":
    main()
