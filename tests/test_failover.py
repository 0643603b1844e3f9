"""A club night on a PostgreSQL primary with a synchronous standby (pg_auto_failover), the
app given both in one URL: the primary's machine dies between the moves, the standby is
promoted, and the night goes on without a restart or a reload."""

from __future__ import annotations

import json
import threading
import time

import psycopg
from failover import Formation
from test_database_trouble import ask
from test_live import serve

from referee.store import Store


def test_a_club_night_goes_on_when_its_primary_dies() -> None:
    # Two server processes on the formation's URL; a phone logs moves on A, one after the
    # other, each with its Idempotency-Key, and sends a move again (same key) while it is
    # answered 503 with Retry-After. The primary's postmaster and its keeper are killed
    # (kill -9) after five moves. The moves go on on the promoted standby: every move
    # acknowledged is stored once, in order; both processes listen on the new primary, and
    # a phone waiting on B (caught up after the failover) gets a move made on A at once.
    formation = Formation()
    (a, base_a), (b, base_b) = serve(formation.url), serve(formation.url)
    try:
        made = json.loads(ask(f"{base_a}/api/games", {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]})[2])
        game, token = made["id"], str(made["host_token"])
        moves = f"{base_a}/api/games/{game}/events"
        acknowledged: list[str] = []
        statuses: list[tuple[int, str | None]] = []
        stop = threading.Event()

        def phone() -> None:
            number = 0
            while not stop.is_set():
                number += 1
                key = f"phone:{number}"
                while True:
                    status, headers, _ = ask(moves, {"type": "note", "text": key}, token, key)
                    statuses.append((status, headers["Retry-After"]))
                    if status != 503:
                        break
                    time.sleep(0.2)
                if status == 201:
                    acknowledged.append(key)

        playing = threading.Thread(target=phone)
        playing.start()
        while len(acknowledged) < 5:
            time.sleep(0.05)
        formation.kill(formation.primary())
        killed_at = len(acknowledged)
        deadline = time.monotonic() + 45
        while len(acknowledged) < killed_at + 5 and time.monotonic() < deadline:
            time.sleep(0.1)
        stop.set()
        playing.join(20)
        assert len(acknowledged) >= killed_at + 5, "the moves did not resume on the promoted standby"
        assert formation.primary() == "node2"
        assert {status for status, _ in statuses} <= {201, 503} and 503 in {status for status, _ in statuses}
        assert all(retry == "2" for status, retry in statuses if status == 503)
        events = json.loads(ask(moves)[2])["events"]
        assert [event["text"] for event in events] == acknowledged  # none lost, none twice, in order
        assert Store(formation.url).verify() == []

        listening = "SELECT COUNT(*) FROM pg_stat_activity WHERE query = 'LISTEN referee_news'"
        deadline = time.monotonic() + 15
        while psycopg.connect(formation.url).execute(listening).fetchone() != (2,):
            assert time.monotonic() < deadline, "the server processes do not listen on the new primary"
            time.sleep(0.5)
        while ask(f"{base_b}/api/games/{game}/events")[0] == 503:  # B's phone catches up (B's first statement met the dead connection)
            assert time.monotonic() < deadline, "B does not answer on the new primary"
            time.sleep(0.5)
        got: list[tuple[float, list[str]]] = []
        waiting = threading.Thread(target=lambda: got.append(
            (time.monotonic(), [e["text"] for e in json.loads(ask(f"{base_b}/api/games/{game}/events?after={len(events)}&wait=10")[2])["events"]])))
        waiting.start()
        time.sleep(0.5)
        logged_at = time.monotonic()
        assert ask(moves, {"type": "note", "text": "after"}, token, "phone:after")[0] == 201
        waiting.join(15)
        assert got and got[0][1] == ["after"] and got[0][0] - logged_at < 1
    finally:
        for server in (a, b):
            server.kill()
            server.wait()
        formation.stop()
