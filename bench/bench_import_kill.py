"""Kill -9 during imports: an import is all or nothing, so no partial game may survive.

Runs `referee import` of a long record again and again, killing each at a random moment,
then checks that every stored game holds the whole record and the hash chains verify.
Usage: python bench/bench_import_kill.py [ROUNDS]
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.record import Header, write_record
from referee.simulate import karriere_poker
from referee.store import Store


def main(rounds: int = 20) -> None:
    folder = Path(tempfile.mkdtemp(prefix="import-kill-"))
    header, events = karriere_poker(["Anna", "Ben", "Cem", "Dora", "Emil", "Fay"], games=12, seed=7)
    record = folder / "long.jsonl"
    record.write_text(write_record(Header(header.game, header.seats, header.options), events), encoding="utf-8")
    db = folder / "kill.sqlite3"
    command = [sys.executable, "-c", "from referee.cli import main; main()", "import", str(record), "--db", str(db)]
    rng = random.Random(1)
    killed = completed = 0
    for _ in range(rounds):
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, 1.2))
        if process.poll() is None:
            process.kill()
            killed += 1
        else:
            completed += 1
        process.wait()
    store = Store(db)
    counts = [row["events"] for row in store.games()]
    partial = [c for c in counts if c != len(events)]
    print(f"{rounds} imports of {len(events)} events: {killed} killed, {completed} completed; "
          f"games stored {len(counts)}, partial {len(partial)}; verify: {store.verify() or 'ok'}")
    if partial or store.verify():
        sys.exit(1)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
