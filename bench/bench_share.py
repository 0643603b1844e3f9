"""Shared result benchmark (a script, not a test): python bench/bench_share.py [--rounds R]

A finished, revealed game of every sample, read as a link preview's crawler reads it. Each
figure is a ratio to the reference measured in the same run, in interleaved rounds (min /
median / max over the rounds):

  reference  the game's result page (the page whose link is shared)
  svg        /g/ID/result.svg, the card as SVG
  png        /g/ID/result.png, the card drawn at 1200x630 (Pillow, on every request: no cache)
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from bench_stats import report
from referee.record import read_record, write_record
from referee.web import create_app

EVENTS = Path(__file__).resolve().parent.parent / "events"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    app = create_app({"TESTING": True, "DATABASE": str(Path(tempfile.mkdtemp()) / "share.sqlite3"), "SECRET_KEY": "bench"})
    client = app.test_client()
    games = []
    for path in sorted(EVENTS.glob("*.jsonl")):
        record = read_record(path.read_text(encoding="utf-8"))
        made = client.post("/api/games/import", data=write_record(record.header, record.events).encode(), content_type="application/jsonl").json
        assert client.post(f"/api/games/{made['id']}/reveal", headers={"Authorization": f"Bearer {made['host_token']}"}).status_code == 200
        games.append(made["id"])
    paths = {"reference": "/g/{}/result", "svg": "/g/{}/result.svg", "png": "/g/{}/result.png"}
    took: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(args.rounds):
        for name, path in paths.items():
            start = time.perf_counter()
            for game_id in games:
                assert client.get(path.format(game_id)).status_code == 200
            took[name].append((time.perf_counter() - start) / len(games))
    print(f"{len(games)} finished games; reference (the result page): median {statistics.median(took['reference']) * 1000:.1f} ms")
    report(took, ("svg", "png"), places=2)


if __name__ == "__main__":
    main()
