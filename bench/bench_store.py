"""Store and replay benchmark (a script, not a test): python bench/bench_store.py

(a) append throughput: Store.append (validate + hash + insert, one event per transaction)
    against plain sqlite3 inserting the same rows with the same settings (WAL, FULL), and
    sqlite-utils' Table.insert for comparison; target store/raw >= 0.5.
(b) replay of a stored 1,000-event Karriere Poker game, rows read and decoded: <= 20 ms.
(c) appending event 10,000 of one game against appending event 10 (Tables, with the
    state cache): within 1.5x.
(d) peak memory of `referee replay --json` over a 100,000-event record: < 150 MB.
(e) a move in a long Senators game against a move in Karriere Poker: the fold per event
    (replay of a whole game) and an append through Tables (median of a game's last 100).
(f) a void near the end of a 10,000-event game, with snapshots (every 100 events) and
    without: target <= 20 ms.
"""

from __future__ import annotations

import json
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import sqlite_utils

from referee.record import canonical, write_record
from referee.replay import replay
from referee.simulate import karriere_poker, senators_game
from referee.store import Store, chain_hash
from referee.tables import Tables

SEATS = ["Anna", "Ben", "Cem", "Dora"]


def kp_events(count: int) -> tuple[object, list[dict[str, object]]]:
    games = count // 60 + 2
    header, events = karriere_poker(SEATS, games=games, seed=1)
    assert len(events) >= count, (len(events), count)
    return header, events[:count]


def bodies(events: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in e.items() if k != "seq"} for e in events]


def append_throughput(folder: Path, header: object, events: list[dict[str, object]]) -> dict[str, float]:
    store = Store(folder / "store.sqlite3")
    game = store.create_game(header)  # type: ignore[arg-type]
    started = time.perf_counter()
    for body in bodies(events):
        store.append(game, body)
    store_rate = len(events) / (time.perf_counter() - started)

    raw = sqlite3.connect(folder / "raw.sqlite3", isolation_level=None)
    raw.execute("PRAGMA journal_mode=WAL")
    raw.execute("PRAGMA synchronous=FULL")
    raw.execute("CREATE TABLE events (game TEXT, seq INTEGER, body TEXT, hash TEXT, PRIMARY KEY (game, seq))")
    rows, previous = [], ""
    for event in events:
        line = canonical(event)
        previous = chain_hash(previous, line)
        rows.append(("g", event["seq"], line, previous))
    started = time.perf_counter()
    for row in rows:
        raw.execute("BEGIN IMMEDIATE")
        raw.execute("INSERT INTO events VALUES (?, ?, ?, ?)", row)
        raw.execute("COMMIT")
    raw_rate = len(rows) / (time.perf_counter() - started)

    db = sqlite_utils.Database(sqlite3.connect(folder / "utils.sqlite3", isolation_level=None))
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db["events"].create({"game": str, "seq": int, "body": str, "hash": str}, pk=("game", "seq"))
    started = time.perf_counter()
    for game_id, seq, line, digest in rows:
        db["events"].insert({"game": game_id, "seq": seq, "body": line, "hash": digest})
    utils_rate = len(rows) / (time.perf_counter() - started)
    return {"store": store_rate, "raw": raw_rate, "table_insert": utils_rate}


def replay_time(folder: Path, header: object, events: list[dict[str, object]]) -> float:
    store = Store(folder / "replay.sqlite3")
    tables = Tables(store)
    game = tables.create(header)  # type: ignore[arg-type]
    with store.lock:
        for body in bodies(events):
            store.append(game, body)
    fresh = Store(folder / "replay.sqlite3")  # nothing cached
    fresh.header(game)
    runs = []
    for _ in range(15):
        started = time.perf_counter()
        fold = replay(fresh.header(game), fresh.events(game))
        runs.append(time.perf_counter() - started)
    assert fold.seq == len(events) and not fold.violations
    return min(runs) * 1000, statistics.median(runs) * 1000


def append_timings(path: Path, header: object, events: list[dict[str, object]]) -> list[float]:
    """Seconds of each append through Tables (the state cache), one game from the start."""
    tables = Tables(Store(path))
    game = tables.create(header)  # type: ignore[arg-type]
    timings = []
    for body in bodies(events):
        started = time.perf_counter()
        tables.append(game, body)
        timings.append(time.perf_counter() - started)
    return timings


def cache_ratio(folder: Path, header: object, events: list[dict[str, object]]) -> tuple[float, float]:
    timings = append_timings(folder / "cache.sqlite3", header, events)
    early = statistics.median(timings[9:59]) * 1000  # events 10 to 59
    late = statistics.median(timings[9_950:10_000]) * 1000  # events 9,951 to 10,000
    return early, late


def replay_memory(folder: Path) -> tuple[float, int]:
    header, events = karriere_poker(SEATS, games=1700, seed=2)
    events = events[:100_000]
    path = folder / "long.jsonl"
    path.write_text(write_record(header, events), encoding="utf-8")  # type: ignore[arg-type]
    script = (
        "import resource, sys; from referee.cli import main\n"
        "try:\n    main(['replay', sys.argv[1], '--json'])\nexcept SystemExit:\n    pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)"
    )
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    assert json.loads(done.stdout)["events"] == len(events)
    return int(done.stderr.strip().splitlines()[-1]) / 1024, len(events), seconds  # type: ignore[return-value]


def move_cost(folder: Path) -> dict[str, tuple[float, float]]:
    """Per game: microseconds of fold per event, and ms of a Tables append late in the game."""
    costs = {}
    longest = max((senators_game(["Anna", "Ben", "Cem", "Dora", "Emil"], seed=s, hands=False) for s in range(20)), key=lambda g: len(g[1]))
    for name, (header, events) in (("karriere-poker", kp_events(3000)), ("senators", longest)):
        runs = []
        for _ in range(7):
            started = time.perf_counter()
            replay(header, events)  # type: ignore[arg-type]
            runs.append((time.perf_counter() - started) / len(events))
        timings = append_timings(folder / f"move-{name}.sqlite3", header, events)
        costs[name] = (statistics.median(runs) * 1e6, statistics.median(timings[-100:]) * 1000, len(events))  # type: ignore[assignment]
    return costs


def void_cost(folder: Path, header: object, events: list[dict[str, object]]) -> dict[str, float]:
    """Milliseconds of a void of event 9,990 appended to a 10,000-event game (median of 5)."""
    costs = {}
    for name, every in (("snapshots", 100), ("no snapshots", 10**9)):
        path = folder / f"void-{every}.sqlite3"
        store = Store(path)
        game = store.create_game(header, events=events)  # type: ignore[arg-type]
        runs = []
        for _ in range(5):
            tables = Tables(Store(path), snapshot_every=every)
            tables.fold(game)  # warm: the cache (and the snapshots) are built
            started = time.perf_counter()
            tables.append(game, {"type": "void", "target": 9_990, "reason": "bench"})
            runs.append(time.perf_counter() - started)
        costs[name] = statistics.median(runs) * 1000
    return costs


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        header, events = kp_events(10_000)
        rates = append_throughput(folder, header, events[:2000])
        print(f"(a) append, events/s: store {rates['store']:.0f}, raw sqlite3 {rates['raw']:.0f}, "
              f"sqlite-utils Table.insert {rates['table_insert']:.0f}; store/raw = {rates['store'] / rates['raw']:.2f} (target >= 0.5)")
        best, median = replay_time(folder, header, events[:1000])
        print(f"(b) replay of a stored 1,000-event game, rows read and decoded: best {best:.1f} ms, median {median:.1f} ms (target <= 20 ms)")
        early, late = cache_ratio(folder, header, events)
        print(f"(c) append through Tables, median ms: events 10-59 {early:.3f}, events 9,951-10,000 {late:.3f}; "
              f"ratio {late / early:.2f} (target <= 1.5)")
        peak, count, seconds = replay_memory(folder)
        print(f"(d) `referee replay --json` of a {count:,}-event record: peak RSS {peak:.0f} MB in {seconds:.1f} s (target < 150 MB)")
        costs = move_cost(folder)
        kp, sen = costs["karriere-poker"], costs["senators"]
        print(f"(e) a move: Karriere Poker ({kp[2]} events) fold {kp[0]:.0f} us/event, append {kp[1]:.3f} ms; "  # type: ignore[misc]
              f"Senators ({sen[2]} events) fold {sen[0]:.0f} us/event, append {sen[1]:.3f} ms; "  # type: ignore[misc]
              f"Senators/KP append = {sen[1] / kp[1]:.2f}")
        voids = void_cost(folder, header, events)
        print(f"(f) a void of event 9,990 in a 10,000-event game: {voids['snapshots']:.1f} ms with snapshots, "
              f"{voids['no snapshots']:.1f} ms without (target <= 20 ms)")
        print(f"machine: {resource.getpagesize()} B pages, python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
