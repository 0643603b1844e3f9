"""Group statistics benchmark (a script, not a test): python bench/bench_stats.py [--games N] [--rounds R]

A group with 10,000 finished games (the samples, three games an evening). Each figure is
a ratio to the reference measured in the same run, in interleaved rounds (min / median /
max over the rounds):

  reference  read the games table alone: every row, its header decoded from JSON
  stats      `referee stats --json` of the group, in process: the kept rows read and
             summed up, with the group's players (no game is replayed)
  page       the group's statistics page through the app (charts and head to head
             included), as a member's phone asks for it

The games are stored with their headers and their kept statistics (what a game's end
writes), not their events: neither the statistics nor the reference read events.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from referee.groups import Groups
from referee.record import read_record
from referee.replay import replay
from referee.store import Store
from referee.tables import Tables
from referee.web import create_app

EVENTS = Path(__file__).resolve().parent.parent / "events"
FIRST_EVENING = datetime(1999, 1, 1, 19, tzinfo=timezone(timedelta(hours=1)))


def fill(db: str, games: int) -> str:
    """The group and its finished games; its id."""
    tables = Tables(Store(db))
    groups = Groups(tables.store)
    group_id = groups.create("Club")
    samples = []
    for path in sorted(EVENTS.glob("*.jsonl")):
        record = read_record(path.read_text(encoding="utf-8"))
        samples.append((record, replay(record.header, record.events)))
    for number in range(games):
        record, fold = samples[number % len(samples)]
        evening, game = divmod(number, 3)
        started = FIRST_EVENING + timedelta(days=evening, hours=game)
        header = replace(record.header, started_at=started.isoformat())
        timed_fold = replace(fold, header=header)
        game_id = tables.store.create_game(header, f"g{number}", (), revealed_seq=fold.seq,
                                           then=lambda stored, f=timed_fold, r=record: tables.plays.keep(stored, f, r.events, revealed=True))
        groups.seat(group_id, game_id, list(header.seats))
    return group_id


def timed(action: Any) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    db = str(Path(folder) / "stats.sqlite3")
    began = time.perf_counter()
    group_id = fill(db, args.games)
    print(f"{args.games} finished games stored in {time.perf_counter() - began:.1f} s", file=sys.stderr)

    store = Store(db)
    tables = Tables(store)
    app = create_app({"TESTING": True, "DATABASE": db, "SECRET_KEY": "bench"})
    client = app.test_client()
    code = Groups(store).group(group_id)["code"]  # type: ignore[index]
    assert client.get(f"/groups/join/{code}").status_code == 302  # a member, by the group's link

    def reference() -> None:
        rows = store.db.execute("SELECT id, game, header, created_at FROM games").fetchall()
        assert len([json.loads(row[2]) for row in rows]) == args.games

    def stats() -> None:
        shown = tables.plays.summary(group_id)
        assert shown["games"] == args.games
        json.dumps(shown, ensure_ascii=False)

    def page() -> None:
        answer = client.get(f"/groups/{group_id}/stats?a=Anna&b=Ben")
        assert answer.status_code == 200 and b"Head to head" in answer.data

    took: dict[str, list[float]] = {"reference": [], "stats": [], "page": []}
    for _ in range(args.rounds):
        for name, action in (("reference", reference), ("stats", stats), ("page", page)):
            took[name].append(timed(action))
    print(f"reference (read the games table): median {statistics.median(took['reference']) * 1000:.0f} ms")
    report(took, ("stats", "page"))


def report(took: dict[str, list[float]], names: tuple[str, ...], places: int = 1) -> None:
    """Each of `names`: its median time, and its ratio to the same round's `reference` (min / median / max)."""
    for name in names:
        ratios = sorted(mine / ref for mine, ref in zip(took[name], took["reference"], strict=True))
        print(f"{name:9} median {statistics.median(took[name]) * 1000:.{places}f} ms; ratio to the reference "
              f"min {ratios[0]:.{places}f} / median {statistics.median(ratios):.{places}f} / max {ratios[-1]:.{places}f}")


if __name__ == "__main__":
    main()
