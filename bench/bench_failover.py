"""How long a club night stands still when its PostgreSQL primary dies.

For each kill: a throwaway pg_auto_failover formation (a monitor, a primary and its
synchronous standby on this machine: tests/failover.py, the monitor tuned as
docs/deploy.md says), a `referee serve` on the URL naming both nodes, and four phones
logging moves at four tables one after the other, each move sent again with its
Idempotency-Key while it is answered 503. The primary's postmaster and its keeper are
killed (kill -9) while the moves flow. Printed: the time from the kill to the first move
stored again, and the moves acknowledged but not stored (must be 0) or stored twice.

    python bench/bench_failover.py [--kills 5] [--quick]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from failover import Formation  # noqa: E402
from test_live import serve  # noqa: E402

PHONES = 4


def ask(url: str, body: dict[str, object] | None = None, token: str = "", key: str = "") -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}", "Idempotency-Key": key} if token else {})}
    request = urllib.request.Request(url, data=None if body is None else json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, {}


def one_kill(after_moves: int, then_moves: int) -> tuple[float, int, int, int]:
    """(seconds from the kill to the first move stored again, moves acknowledged, lost, stored twice).
    A move is stored again when a try sent after the kill is acknowledged."""
    formation = Formation()
    server, base = serve(formation.url)
    try:
        games = [ask(f"{base}/api/games", {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]})[1] for _ in range(PHONES)]
        acknowledged: list[list[tuple[float, str]]] = [[] for _ in games]
        stop = threading.Event()

        def phone(number: int) -> None:
            moves, token = f"{base}/api/games/{games[number]['id']}/events", str(games[number]["host_token"])
            move = 0
            while not stop.is_set():
                move += 1
                key = f"{number}:{move}"
                while True:
                    sent_at = time.monotonic()
                    if (status := ask(moves, {"type": "note", "text": key}, token, key)[0]) != 503:
                        break
                    time.sleep(0.2)
                if status == 201:
                    acknowledged[number].append((sent_at, key))  # the try that was stored: sent when

        phones = [threading.Thread(target=phone, args=(number,)) for number in range(PHONES)]
        for thread in phones:
            thread.start()
        while sum(map(len, acknowledged)) < after_moves:
            time.sleep(0.01)
        formation.kill(formation.primary())
        killed_at = time.monotonic()
        before = sum(map(len, acknowledged))
        deadline = killed_at + 120
        while sum(map(len, acknowledged)) < before + then_moves and time.monotonic() < deadline:
            time.sleep(0.05)
        stop.set()
        for thread in phones:
            thread.join(30)
        resumed = min((at for kept in acknowledged for at, _ in kept if at > killed_at), default=float("inf")) - killed_at
        lost = twice = 0
        for game, kept in zip(games, acknowledged):
            stored = [str(e["text"]) for e in ask(f"{base}/api/games/{game['id']}/events")[1]["events"]]
            lost += len({key for _, key in kept} - set(stored))
            twice += len(stored) - len(set(stored))
        return resumed, sum(map(len, acknowledged)), lost, twice
    finally:
        server.kill()
        server.wait()
        formation.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--kills", type=int, default=5, help="formations made and primaries killed, one after the other")
    parser.add_argument("--quick", action="store_true", help="one kill, few moves: the script still runs")
    arguments = parser.parse_args()
    kills, after, then = (1, 4, 4) if arguments.quick else (arguments.kills, 200, 200)
    runs = []
    for number in range(1, kills + 1):
        runs.append(one_kill(after, then))
        resumed, moves, lost, twice = runs[-1]
        print(f"kill {number}: first move stored again {resumed:.1f} s after the kill; {moves} moves acknowledged, "
              f"lost {lost}, stored twice {twice}", flush=True)
    times = sorted(run[0] for run in runs)
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(f"{kills} kill{'' if kills == 1 else 's'}: kill to first move stored again median {statistics.median(times):.1f} s, p95 {p95:.1f} s, "
          f"max {times[-1]:.1f} s; moves lost {sum(run[2] for run in runs)}, stored twice {sum(run[3] for run in runs)}")


if __name__ == "__main__":
    main()
