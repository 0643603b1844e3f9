"""Does the answer to a seat's own move take longer when it clashes with another seat's
secret? (a script, not a test): python bench/bench_clash_timing.py [--pairs N]

In process, the real app on a real SQLite file. Three FTW?! tables at the same point of
the sample game (events/ftw-3-players.jsonl up to its 40th event, without Ben's hand):
A and A2 are the same table; in B Cem's recorded hand holds the 18 instead of the 34, so
Ben's next move, the 18, clashes with Cem's hand in B only. Ben logs the 18 and voids it
again, over the API and with the page's forms, in the three tables in random order, round
after round, timing the CPU time of the answering thread (on a shared machine the wall
clock mostly measures the other processes). Printed per answer: the median of B / A (what a clash costs) against A2 / A
(the reference: two tables that differ in nothing), and in how many rounds B was slower
than A, with its z score (0 expected; the timing test fails past 4).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from referee.record import read_record, write_record
from referee.web import create_app

SAMPLE = Path(__file__).resolve().parent.parent / "events" / "ftw-3-players.jsonl"
MOVE = {"type": "high", "seat": 1, "card": 18}


def tables(client, cem_holds_18: bool) -> tuple[str, str, str]:
    """An FTW?! table just before Ben's 18, Ben's token and the host's."""
    record = read_record(SAMPLE.read_text(encoding="utf-8"))
    events = [dict(e) for e in record.events[:40] if e["seq"] != 2]  # Ben logged no hand
    if cem_holds_18:
        events[1] = {**events[1], "cards": [18 if card == 34 else card for card in events[1]["cards"]]}  # Cem never plays the 34
    events = [{**e, "seq": seq} for seq, e in enumerate(events, start=1)]
    made = client.post("/api/games/import", data=write_record(record.header, events).encode(), content_type="application/jsonl").json
    ben = client.post(f"/api/games/{made['id']}/seats/1", json={"code": made["join_code"]}).json["token"]
    return made["id"], ben, made["host_token"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=2000)
    pairs = parser.parse_args().pairs
    folder = Path(tempfile.mkdtemp(prefix="clash-timing-"))
    app = create_app({"TESTING": True, "DATABASE": str(folder / "referee.sqlite3"), "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    games = [tables(client, clash) for clash in (False, False, True)]  # A, A2, B
    for (game_id, token, host), clash in zip(games, (False, False, True)):  # the host, who plays no seat, sees B's clash at once
        seq = client.post(f"/api/games/{game_id}/events", json=MOVE, headers={"Authorization": f"Bearer {token}"}).json["seq"]
        seen = client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {host}"}).json["clashes"]
        assert [c["seq"] for c in seen] == ([seq] if clash else []), seen
        client.post(f"/api/games/{game_id}/events", json={"type": "void", "target": seq}, headers={"Authorization": f"Bearer {token}"})
    phones = []
    for game_id, token, _ in games:
        phone = app.test_client()
        phone.set_cookie("referee_token", token, path=f"/g/{game_id}")
        phones.append(phone)

    def api(table: int) -> tuple[float, float]:
        game_id, token, _ = games[table]
        headers = {"Authorization": f"Bearer {token}"}
        started = time.thread_time()
        seq = client.post(f"/api/games/{game_id}/events", json=MOVE, headers=headers).json["seq"]
        logged = time.thread_time()
        assert client.post(f"/api/games/{game_id}/events", json={"type": "void", "target": seq}, headers=headers).status_code == 201
        return logged - started, time.thread_time() - logged

    def page(table: int) -> tuple[float, float]:
        game_id, phone = games[table][0], phones[table]
        started = time.thread_time()
        assert phone.post(f"/g/{game_id}/log", data={"type": "high", "seat": "1", "card": "18"}).status_code == 302
        logged = time.thread_time()
        seq = app.extensions["referee"].tables.fold(game_id).seq
        assert phone.post(f"/g/{game_id}/void/{seq}", data={}).status_code == 302
        return logged - started, time.thread_time() - logged

    for table in (0, 1, 2) * 20:  # warm up
        api(table)
        page(table)
    rng = random.Random(7)
    names = ["API append", "API void", "page log", "page void"]
    times: list[list[list[float]]] = [[[] for _ in range(3)] for _ in names]
    for _ in range(pairs):
        for table in rng.sample([0, 1, 2], 3):
            for kind, took in enumerate([*api(table), *page(table)]):
                times[kind][table].append(took)
    print(f"{pairs} rounds")
    for name, (a, a2, b) in zip(names, times):
        slower = sum(y > x for x, y in zip(a, b))
        z = (slower - pairs / 2) / (pairs ** 0.5 / 2)
        median = statistics.median(a) * 1e6
        print(f"{name:10}  A {median:7.0f} µs   B/A {statistics.median(b) / statistics.median(a):.3f}"
              f"   A2/A {statistics.median(a2) / statistics.median(a):.3f}   B slower in {slower}/{pairs} (z = {z:+.1f})")


if __name__ == "__main__":
    main()
