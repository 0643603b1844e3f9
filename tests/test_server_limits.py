"""No client stalls the room: the real server (`referee serve`) closes idle and half-sent
connections, gives connections that say nothing no place, refuses connections past its
caps (all, and from one address) at once, and keeps answering a phone at another table
while a client pipelines pages it never reads."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from referee.simulate import karriere_poker
from test_live import serve


@contextlib.contextmanager
def room(tmp_path: Path, *options: str) -> Iterator[tuple[int, str]]:
    """`referee serve` with `options`, and a Karriere Poker game of 78 moves on it: (port, game id)."""
    server, base = serve(tmp_path / "room.sqlite3", *options)
    port = int(base.rsplit(":", 1)[1])
    try:
        header, events = karriere_poker(["Anna", "Ben", "Cem", "Dora"], games=1, seed=3, hands=False)
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        made = ask(phone, "POST", "/api/games", {"game": header.game, "seats": list(header.seats), "options": dict(header.options)})
        for event in events:
            ask(phone, "POST", f"/api/games/{made['id']}/events", {k: v for k, v in event.items() if k != "seq"}, made["host_token"])
        phone.close()
        yield port, made["id"]
    finally:
        server.kill()
        server.wait()


def ask(phone: http.client.HTTPConnection, method: str, url: str, body: object = None, token: str | None = None) -> dict[str, str]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    phone.request(method, url, None if body is None else json.dumps(body), headers)
    answer = phone.getresponse()
    assert answer.status in (200, 201), answer.status
    return json.loads(answer.read())  # type: ignore[no-any-return]


def page_time(phone: http.client.HTTPConnection, url: str) -> float:
    started = time.monotonic()
    phone.request("GET", url)
    answer = phone.getresponse()
    answer.read()
    assert answer.status == 200
    return time.monotonic() - started


def closed_after(sock: socket.socket, limit: float) -> float:
    """Seconds until the server closes `sock` (reads what it was sent until the end)."""
    started = time.monotonic()
    sock.settimeout(limit)
    try:
        while sock.recv(65536):
            pass
    except ConnectionResetError:
        pass
    return time.monotonic() - started


def test_a_connection_that_says_nothing_is_closed_after_the_idle_timeout_but_a_waiting_phone_is_not(tmp_path: Path) -> None:
    with room(tmp_path, "--idle-timeout", "1") as (port, game):
        # The kernel holds it back for a second first (it may still say something), then
        # the server waits a second for it.
        silent = socket.create_connection(("127.0.0.1", port))
        assert 1.6 < closed_after(silent, 6) < 4.0
        # A phone waiting 3 s for news is a request being served, not idle: it gets its answer.
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        started = time.monotonic()
        assert ask(phone, "GET", f"/api/games/{game}/events?after=78&wait=3")["events"] == []
        assert time.monotonic() - started > 2.5


def test_a_request_sent_by_halves_is_closed_after_the_header_timeout(tmp_path: Path) -> None:
    with room(tmp_path, "--header-timeout", "1", "--idle-timeout", "30") as (port, game):
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(f"GET /g/{game} HTTP/1.1\r\nHost: x\r\n".encode())

        def trickle() -> None:  # a header byte every 0.2 s: each in time, the whole head too late
            with contextlib.suppress(OSError):
                for _ in range(20):
                    time.sleep(0.2)
                    slow.send(b"X")

        threading.Thread(target=trickle, daemon=True).start()
        assert 0.8 < closed_after(slow, 5) < 2.0


def test_a_body_trickled_a_byte_at_a_time_is_given_up_at_the_body_timeout(tmp_path: Path) -> None:
    # Each byte of the body comes in time (every 0.3 s, the transfer timeout is 30 s), the
    # whole body never does: the server answers 400 and closes within the body timeout.
    with room(tmp_path, "--body-timeout", "1.5", "--transfer-timeout", "30", "--idle-timeout", "30") as (port, game):
        slow = socket.create_connection(("127.0.0.1", port))
        slow.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{")

        def trickle() -> None:
            with contextlib.suppress(OSError):
                for _ in range(100):
                    time.sleep(0.3)
                    slow.send(b" ")

        threading.Thread(target=trickle, daemon=True).start()
        started = time.monotonic()
        slow.settimeout(10)
        said = slow.recv(65536)
        assert said.startswith(b"HTTP/1.1 400"), said[:200]
        assert 1.2 < time.monotonic() - started < 4.0
        # A phone's request with its whole body at once is served as ever.
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        assert ask(phone, "GET", f"/api/games/{game}")["seq"] == 78


def begun(address: str, port: int) -> socket.socket:
    """A connection from `address` that has sent the first bytes of a request, and no more."""
    sock = socket.create_connection(("127.0.0.1", port), source_address=(address, 0))
    sock.sendall(b"GET")
    return sock


def refused(port: int, url: str, address: str = "127.0.0.1") -> bool:
    """Whether a new connection from `address` is refused (503 within half a second, in both
    languages) rather than served (200)."""
    started = time.monotonic()
    newcomer = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(address, 0))
    newcomer.request("GET", url)
    answer = newcomer.getresponse()
    body = answer.read()
    newcomer.close()
    if answer.status == 503:
        assert answer.getheader("Retry-After") == "5" and b"Zu viele Verbindungen" in body
        assert time.monotonic() - started < 0.5
        return True
    assert answer.status == 200
    return False


def test_past_the_cap_a_new_connection_is_refused_at_once_while_a_phone_at_the_table_is_served(tmp_path: Path) -> None:
    with room(tmp_path, "--max-connections", "4", "--idle-timeout", "30", "--header-timeout", "30") as (port, game):
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        page_time(phone, f"/g/{game}")
        held = [begun("127.0.0.1", port) for _ in range(3)]  # the cap is full: 4 open
        time.sleep(0.3)
        assert refused(port, f"/g/{game}")
        assert page_time(phone, f"/g/{game}") < 1.0
        held[0].close()  # one leaves: the next newcomer is served
        time.sleep(0.3)
        assert page_time(http.client.HTTPConnection("127.0.0.1", port, timeout=10), f"/g/{game}") < 1.0


def test_connections_that_say_nothing_take_no_place_from_a_phone_that_arrives(tmp_path: Path) -> None:
    with room(tmp_path, "--max-connections", "3", "--idle-timeout", "30") as (port, game):
        page_time(http.client.HTTPConnection("127.0.0.1", port, timeout=10), f"/g/{game}")  # the page was rendered once
        silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(10)]
        time.sleep(0.3)
        assert page_time(http.client.HTTPConnection("127.0.0.1", port, timeout=10), f"/g/{game}") < 1.0
        for sock in silent:
            sock.close()


def test_one_address_past_its_cap_is_refused_at_once_while_a_phone_at_another_address_is_served(tmp_path: Path) -> None:
    with room(tmp_path, "--max-connections-per-address", "3", "--idle-timeout", "30", "--header-timeout", "30") as (port, game):
        page_time(http.client.HTTPConnection("127.0.0.1", port, timeout=10), f"/g/{game}")  # the page was rendered once
        held = [begun("127.0.0.2", port) for _ in range(3)]  # 127.0.0.2 is at its cap
        time.sleep(0.3)
        assert refused(port, f"/g/{game}", "127.0.0.2")
        assert page_time(http.client.HTTPConnection("127.0.0.1", port, timeout=10), f"/g/{game}") < 1.0
        held[0].close()  # one of its own leaves: its next one is served
        time.sleep(0.3)
        assert not refused(port, f"/g/{game}", "127.0.0.2")


def test_a_client_that_pipelines_pages_and_never_reads_does_not_delay_a_phone_at_another_table(tmp_path: Path) -> None:
    with room(tmp_path, "--transfer-timeout", "2") as (port, game):
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        page_time(phone, f"/g/{game}")
        pages = f"GET /g/{game}/history HTTP/1.1\r\nHost: x\r\n\r\n".encode() * 500
        hostile = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
        for sock in hostile:
            threading.Thread(target=sock.sendall, args=(pages,), daemon=True).start()
        time.sleep(0.2)
        waits = []
        for _ in range(20):
            waits.append(page_time(phone, f"/g/{game}"))
            time.sleep(0.1)
        # Fair turns: a page of the phone that comes while the hostile connections are
        # answered waits for one answer of each (20 history pages: a second or more on a
        # loaded machine); they are answered 3 times each at most, so at most two of its
        # pages wait for them: every other one comes within a second.
        assert sorted(waits)[-3] < 1.0, waits
        # Each hostile connection was answered 3 times, not 500 (nor until its answers stood
        # still): then it was closed. Only now does it read what it was sent.
        time.sleep(4)
        answered = []
        for sock in hostile:
            received = b""
            sock.settimeout(3)
            with contextlib.suppress(ConnectionResetError):
                while chunk := sock.recv(65536):
                    received += chunk
            answered.append(received.count(b"HTTP/1.1 200"))
        assert 0 < max(answered) <= 3, answered
