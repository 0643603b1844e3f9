"""Store and replay benchmark (a script, not a test):
python bench/bench_store.py [--rounds N] [--postgres] [--quick]

Every figure is a ratio to a reference measured in the same run, in interleaved rounds
(one measurement of each side per round, in turn; appends alternate event by event),
printed as min / median / max over the
rounds, so a busy machine moves both sides alike:

(a) durable append, Store.append (checked, chained, FULL) against plain sqlite3 inserting
    the same rows with the same settings: throughput ratio (target >= 0.75) and p50
    latency ratio (target <= 1.3); and the store's own SQL without Python (its trigger and
    head row), to tell SQLite's share of the gap from ours.
(b) cold replay of a stored game, per game, against a raw read + JSON decode + trivial
    fold of the same rows (target <= 3); three times the rounds, as each takes milliseconds
    and a single round is at the mercy of the scheduler.
(c) an append late in a 10,000-event game against one early in it, through Tables with
    its cache (target <= 1.5).
(d) peak memory (VmHWM from /proc/self/status, in a fresh process) of `referee replay
    --json` over a 100,000-event record, against a fresh process that only reads the
    file (target < 150 MB).
(e) a move in a long Senators game against a move in Karriere Poker (append via Tables).
(f) a void of event 9,990 appended to a 10,000-event game (snapshots every 100 events,
    kept in SQLite) against a plain move at the same table (target <= 20 ms).
(g) a move at another table while a void of event 100 replays a 10,000-event game,
    against the same move with nothing else going on.
(h) the first read of a 10,000-event game after a restart (from the latest snapshot)
    against a raw read of its rows.
With --postgres, (a) and (b) run on PostgreSQL too (a throwaway cluster, as the tests
start it): the store against plain psycopg inserts and reads of the same rows in the same
database. --quick: tiny sizes and one round, to show the script still runs (CI runs it so;
its figures mean nothing).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from referee.record import Header, canonical, write_record
from referee.replay import replay
from referee.simulate import employee_of_the_month, ftw_game, karriere_poker, ladies_gentlemen_game, senators_game
from referee.database import Database, connect, is_url
from referee.store import Store, chain_hash
from referee.tables import Tables

SEATS = ["Anna", "Ben", "Cem", "Dora"]
Events = list[dict[str, Any]]


def bodies(events: Events) -> Events:
    return [{k: v for k, v in e.items() if k != "seq"} for e in events]


def kp_events(count: int, seed: int = 1) -> tuple[Header, Events]:
    header, events = karriere_poker(SEATS, games=count // 60 + 2, seed=seed)
    assert len(events) >= count, (len(events), count)
    return header, events[:count]


def longest(make: Callable[[int], tuple[Header, Events]], seeds: int = 10) -> tuple[Header, Events]:
    return max((make(seed) for seed in range(seeds)), key=lambda game: len(game[1]))


def interleaved(rounds: int, **sides: Callable[[], float]) -> dict[str, list[float]]:
    """Each side measured once per round, in turn: name -> one figure per round."""
    figures: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(rounds):
        for name, measure in sides.items():
            figures[name].append(measure())
    return figures


def spread(values: list[float], digits: int = 2) -> str:
    return f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f} / {max(values):.{digits}f}"


def ratios(figures: dict[str, list[float]], measured: str, reference: str) -> list[float]:
    return [m / r for m, r in zip(figures[measured], figures[reference])]


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


# --- (a) durable append ------------------------------------------------------------------


class AppendSides:
    """Each round appends the same events, one by one and in turn: to a new game in the
    store, and as rows (canonical line and chain hash ready) to a plain table of the same
    backend, in a transaction of its own each (`address`: a SQLite folder or a PostgreSQL URL)."""

    def __init__(self, address: str, header: Header, events: Events) -> None:
        self.header, self.bodies = header, bodies(events)
        on_file = not is_url(address)
        self.store = Store(f"{address}/append-store.sqlite3" if on_file else address)
        self.raw = connect(f"{address}/append-raw.sqlite3" if on_file else address)
        self.raw.execute("CREATE TABLE raw_events (game TEXT, seq INTEGER, body TEXT, hash TEXT, PRIMARY KEY (game, seq))")
        self.rows, previous = [], ""
        for event in events:
            line = canonical(event)
            previous = chain_hash(previous, line)
            self.rows.append((event["seq"], line, previous))
        # The store's tables written by plain SQL: SQLite's share of the gap (a file of its own).
        self.schema = Store(f"{address}/append-schema.sqlite3") if on_file else None
        self.rounds = 0

    def round(self) -> dict[str, float]:
        """Throughput and p50 latency of every side, their appends alternating."""
        self.rounds += 1
        game, raw_game = self.store.create_game(self.header), f"g{self.rounds}"
        schema_game = self.schema.create_game(self.header) if self.schema else ""
        times: dict[str, list[float]] = {"store": [], "raw": [], **({"schema": []} if self.schema else {})}
        for body, (seq, line, digest) in zip(self.bodies, self.rows):
            times["store"].append(timed(lambda: self.store.append(game, body)))
            times["raw"].append(timed(lambda: self._insert(self.raw, "INSERT INTO raw_events VALUES (?, ?, ?, ?)", (raw_game, seq, line, digest))))
            if self.schema:
                times["schema"].append(timed(lambda: self._schema_insert(schema_game, seq, line, digest)))
        rates = {name: len(values) / sum(values) for name, values in times.items()}
        return {**rates, **{f"{name} p50": statistics.median(values) for name, values in times.items()}}

    @staticmethod
    def _insert(db: Database, *statement: Any) -> None:
        db.begin()
        db.execute(*statement)
        db.commit()

    def _schema_insert(self, game: str, seq: int, line: str, digest: str) -> None:
        assert self.schema is not None
        db = self.schema.db
        db.begin()
        db.execute("INSERT INTO events (game, seq, body, hash, stored_at) VALUES (?, ?, ?, ?, ?)", (game, seq, line, digest, "now"))
        db.execute("UPDATE games SET head_seq = ?, head_hash = ? WHERE id = ?", (seq, digest, game))
        db.commit()


# --- (b) cold replay ------------------------------------------------------------------------


def cold_replay_sides(address: str, game: str) -> dict[str, Callable[[], float]]:
    """Each side opens its connection untimed (a server opens the store once), then reads
    the game's rows and folds them: through the store and the rules, or trivially."""

    def replayed() -> float:
        store = Store(address)  # nothing cached: not the header, not a fold
        seconds = timed(lambda: replay(store.header(game), store.events(game)))
        store.close()
        return seconds

    def raw() -> float:
        db = connect(address)

        def run() -> None:
            kinds: Counter[str] = Counter()
            for row in db.query("SELECT body FROM events WHERE game = ? ORDER BY seq", [game]):
                kinds[json.loads(row["body"])["type"]] += 1  # the trivial fold

        seconds = timed(run)
        db.close()
        return seconds

    return {"replay": replayed, "raw": raw}


# --- (d) peak memory ------------------------------------------------------------------------

PEAK = "print(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1], file=sys.stderr)"


def peak_kb(script: str, path: Path) -> int:
    done = subprocess.run([sys.executable, "-c", f"import sys\n{script}\n{PEAK}", str(path)], capture_output=True, text=True, check=True)
    return int(done.stderr.strip().splitlines()[-1])


def memory_sides(path: Path) -> dict[str, Callable[[], float]]:
    replaying = "from referee.cli import main\ntry:\n    main(['replay', sys.argv[1], '--json'])\nexcept SystemExit:\n    pass"
    reading = "text = open(sys.argv[1], encoding='utf-8').read()"
    return {"replay": lambda: peak_kb(replaying, path) / 1024, "read": lambda: peak_kb(reading, path) / 1024}


# --- (f), (g), (h) a 10,000-event game ------------------------------------------------------


def long_game(folder: Path, name: str, header: Header, events: Events) -> tuple[Path, str]:
    path = folder / f"{name}.sqlite3"
    store = Store(path)
    game = store.create_game(header, events=events)
    Tables(store).fold(game)  # the snapshots are kept
    store.close()
    return path, game


def void_sides(path: Path, game: str, target: int) -> dict[str, Callable[[], float]]:
    """A void of `target` against a plain note at a warm table (each on a fresh copy of
    the cache, so every void replays anew)."""
    tables = Tables(Store(path))
    tables.fold(game)

    def void() -> float:
        seconds = timed(lambda: tables.append(game, {"type": "void", "target": target, "reason": "bench"}))
        tables.append(game, {"type": "void", "target": tables.fold(game).seq, "reason": "bench: a void of a void is harmless"})
        return seconds

    return {"void": void, "move": lambda: timed(lambda: tables.append(game, {"type": "note", "text": "bench"}))}


def other_table_sides(path: Path, game: str, header: Header) -> dict[str, Callable[[], float]]:
    """Median of 20 moves at a small table, while a void of event 100 replays the long game
    in another thread, and alone."""
    tables = Tables(Store(path))
    small = tables.create(header)
    tables.append(small, {"type": "deal", "dealer": 0})
    tables.fold(game)

    def moves() -> float:
        return statistics.median(timed(lambda: tables.append(small, {"type": "note", "text": "move"})) for _ in range(20))

    def during_void() -> float:
        voiding = threading.Thread(target=lambda: tables.append(game, {"type": "void", "target": 100, "reason": "bench"}))
        voiding.start()
        time.sleep(0.005)  # the void is under way
        seconds = moves()
        voiding.join()
        tables.append(game, {"type": "void", "target": tables.fold(game).seq, "reason": "bench"})
        return seconds

    return {"during": during_void, "alone": moves}


def cold_start_sides(path: Path, game: str) -> dict[str, Callable[[], float]]:
    def restart() -> float:
        return timed(lambda: Tables(Store(path)).fold(game))

    def raw() -> float:
        def run() -> None:
            connection = sqlite3.connect(path)
            rows = connection.execute("SELECT body FROM events WHERE game = ? ORDER BY seq", [game]).fetchall()
            [json.loads(body) for (body,) in rows]
            connection.close()

        return timed(run)

    return {"restart": restart, "raw": raw}


def tables_append_timings(path: Path, header: Header, events: Events) -> list[float]:
    tables = Tables(Store(path))
    game = tables.create(header)
    return [timed(lambda body=body: tables.append(game, body)) for body in bodies(events)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--postgres", action="store_true", help="(a) and (b) on PostgreSQL too (a throwaway cluster)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes, one round: the script still runs (no meaningful figures)")
    arguments = parser.parse_args()
    rounds = 1 if arguments.quick else arguments.rounds
    long = 600 if arguments.quick else 10_000  # events of the long game of (c), (f), (g), (h)
    print(f"each figure: min / median / max over {rounds} interleaved rounds; python {sys.version.split()[0]}")
    with tempfile.TemporaryDirectory() as name, backends(name, arguments.postgres) as addresses:
        header, events = kp_events(long)
        games = {
            "karriere-poker": kp_events(200 if arguments.quick else 1000),
            "employee-of-the-month": longest(lambda s: employee_of_the_month(SEATS, seed=s)),
            "ftw": longest(lambda s: ftw_game(SEATS, seed=s)),
            "senators": longest(lambda s: senators_game([*SEATS, "Emil"], seed=s)),
            "ladies-and-gentlemen": longest(lambda s: ladies_gentlemen_game([*SEATS, "Emil", "Finn"], seed=s, gossip=True)),
        }
        for backend, (append_address, replay_address) in addresses.items():
            append_and_replay(backend, append_address, replay_address, header, events[: min(300, long)], games, rounds)
        later_figures(Path(name), header, events, rounds, long, 2_000 if arguments.quick else 100_000)


@contextlib.contextmanager
def backends(folder: str, postgres: bool) -> Iterator[dict[str, tuple[str, str]]]:
    """backend -> (where (a) appends, where (b) replays): a folder and a file on SQLite; two
    databases of a throwaway cluster on PostgreSQL."""
    addresses = {"SQLite": (folder, f"{folder}/replay.sqlite3")}
    if not postgres:
        yield addresses
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from postgres import Cluster

    cluster = Cluster()
    try:
        yield {**addresses, "PostgreSQL": (cluster.new_database(), cluster.new_database())}
    finally:
        cluster.stop()


def append_and_replay(backend: str, append_address: str, replay_address: str, header: Header, events: Events,
                      games: dict[str, tuple[Header, Events]], rounds: int) -> None:
    """(a) and (b) on one backend."""
    sides = AppendSides(append_address, header, events)
    measured = [sides.round() for _ in range(rounds)]
    figures = {name: [m[name] for m in measured] for name in measured[0]}
    alone = (f"; the store's own SQL alone (trigger, head row, no Python): throughput {spread(ratios(figures, 'schema', 'raw'))}, "
             f"p50 {spread(ratios(figures, 'schema p50', 'raw p50'))}") if "schema" in figures else ""
    print(f"(a) {backend}: append, store/raw throughput {spread(ratios(figures, 'store', 'raw'))} (target >= 0.75), "
          f"p50 latency {spread(ratios(figures, 'store p50', 'raw p50'))} (target <= 1.3); "
          f"store {statistics.median(figures['store']):.0f}/s, raw {statistics.median(figures['raw']):.0f}/s{alone}")
    store = Store(replay_address)
    stored = {name: (store.create_game(h, events=e), len(e)) for name, (h, e) in games.items()}
    store.close()
    for name, (game, count) in stored.items():
        figures = interleaved(3 * rounds, **cold_replay_sides(replay_address, game))
        print(f"(b) {backend}: cold replay, {name} ({count} events, {3 * rounds} rounds): replay/raw {spread(ratios(figures, 'replay', 'raw'))} "
              f"(target <= 3); replay {statistics.median(figures['replay']) * 1000:.1f} ms, "
              f"raw {statistics.median(figures['raw']) * 1000:.1f} ms")


def later_figures(folder: Path, header: Header, events: Events, rounds: int, long: int, memory_events: int) -> None:
    """(c) to (h), on SQLite: the cache, memory, a long game's voids and restarts."""
    timings = tables_append_timings(folder / "cache.sqlite3", header, events)
    early, late = statistics.median(timings[9:59]), statistics.median(timings[-50:])
    print(f"(c) append through Tables, late/early {late / early:.2f} (target <= 1.5; medians of events "
          f"10-59 {early * 1000:.3f} ms and the last 50 of {long:,} {late * 1000:.3f} ms)")

    record = folder / "long.jsonl"
    long_header, long_events = karriere_poker(SEATS, games=memory_events // 60 + 2, seed=2)
    record.write_text(write_record(long_header, long_events[:memory_events]), encoding="utf-8")
    figures = interleaved(min(rounds, 3), **memory_sides(record))
    print(f"(d) peak memory (VmHWM) of `referee replay --json`, {memory_events:,} events: {spread(figures['replay'], 0)} MB "
          f"(target < 150 MB); a process reading the file: {spread(figures['read'], 0)} MB; "
          f"ratio {spread(ratios(figures, 'replay', 'read'))}")

    senators = longest(lambda s: senators_game([*SEATS, "Emil"], seed=s, hands=False), seeds=20)
    kp_moves = tables_append_timings(folder / "move-kp.sqlite3", *kp_events(len(senators[1])))
    senators_moves = tables_append_timings(folder / "move-senators.sqlite3", *senators)
    print(f"(e) a move late in a game ({len(senators[1])} events), Senators/Karriere Poker "
          f"{statistics.median(senators_moves[-100:]) / statistics.median(kp_moves[-100:]):.2f}")

    path, game = long_game(folder, "long-kp", header, events)
    figures = interleaved(rounds, **void_sides(path, game, long - 10))
    print(f"(f) a void of event {long - 10:,} of {long:,}: {spread([v * 1000 for v in figures['void']], 1)} ms (target <= 20 ms); "
          f"void/move {spread(ratios(figures, 'void', 'move'))}")
    figures = interleaved(rounds, **other_table_sides(path, game, header))
    print(f"(g) a move at another table while a void of event 100 replays {long:,} events: "
          f"during/alone {spread(ratios(figures, 'during', 'alone'))}; alone {statistics.median(figures['alone']) * 1000:.2f} ms")
    path, game = long_game(folder, "restart-kp", header, events)  # untouched by the voids above
    figures = interleaved(rounds, **cold_start_sides(path, game))
    print(f"(h) first read of a {long:,}-event game after a restart: {spread([v * 1000 for v in figures['restart']], 1)} ms; "
          f"restart/raw read {spread(ratios(figures, 'restart', 'raw'))}")


if __name__ == "__main__":
    main()
