"""The statistics benchmark still runs against the app as it is (tiny sizes, nothing timed):
a change to membership once broke it unnoticed, since nothing else runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_the_statistics_benchmark_runs() -> None:
    done = subprocess.run([sys.executable, str(BENCH / "bench_stats.py"), "--games", "12", "--rounds", "1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "12 finished games stored" in done.stderr and "page      median" in done.stdout
