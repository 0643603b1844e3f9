"""Every benchmark script still runs against the app as it is (tiny sizes, nothing timed):
a change to the store's dialects once broke `bench_store.py` unnoticed, and a change to
membership `bench_stats.py`, since nothing else runs them. Their figures mean nothing here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench"


def bench(script: str, *arguments: str, timeout: int = 180) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, str(BENCH / script), *arguments], capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_every_bench_script_is_run_here() -> None:
    assert {path.name for path in BENCH.glob("bench_*.py")} == set(QUICK_RUNS)


def test_the_statistics_benchmark_runs() -> None:
    done = bench("bench_stats.py", "--games", "12", "--rounds", "1")
    assert "12 finished games stored" in done.stderr and "page      median" in done.stdout


def test_the_store_benchmark_runs_on_both_backends() -> None:
    done = bench("bench_store.py", "--quick", "--postgres")
    for line in ("(a) SQLite: append", "(a) PostgreSQL: append", "(b) PostgreSQL: cold replay, ladies-and-gentlemen", "(h) first read"):
        assert line in done.stdout, done.stdout


def test_the_import_kill_benchmark_runs() -> None:
    done = bench("bench_import_kill.py", "2")
    assert "2 imports of" in done.stdout and "partial 0" in done.stdout


def test_the_failover_benchmark_runs() -> None:
    done = bench("bench_failover.py", "--quick")
    assert "1 kill: kill to first move stored again" in done.stdout and "moves lost 0, stored twice 0" in done.stdout, done.stdout


def test_the_server_benchmark_runs() -> None:
    done = bench("bench_server.py", "--quick")
    for line in ("one connection, 10 moves a round", "referee/bare =", "referee with 20 waiting phones", "kill -9 after 3 s and restart",
                 "delivery to each waiting phone", "SQLite, 2 processes", "0 lost: True"):
        assert line in done.stdout, done.stdout


def test_the_hostile_clients_benchmark_runs() -> None:
    done = bench("bench_hostile.py", "--quick")
    for line in ("idle server (reference): page p50", "holding 200 idle connections", "pipelining 500 history pages each, never reading: page"):
        assert line in done.stdout, done.stdout


def test_the_clash_timing_benchmark_runs() -> None:
    done = bench("bench_clash_timing.py", "--pairs", "6")
    for answer in ("API append", "API void", "page log", "page void"):
        assert f"{answer} " in done.stdout and "B slower in" in done.stdout, done.stdout


def test_the_share_benchmark_runs() -> None:
    done = bench("bench_share.py", "--rounds", "1")
    assert "finished games; reference (the result page)" in done.stdout and "png       median" in done.stdout, done.stdout


QUICK_RUNS = {
    "bench_stats.py": test_the_statistics_benchmark_runs,
    "bench_store.py": test_the_store_benchmark_runs_on_both_backends,
    "bench_import_kill.py": test_the_import_kill_benchmark_runs,
    "bench_server.py": test_the_server_benchmark_runs,
    "bench_hostile.py": test_the_hostile_clients_benchmark_runs,
    "bench_failover.py": test_the_failover_benchmark_runs,
    "bench_clash_timing.py": test_the_clash_timing_benchmark_runs,
    "bench_share.py": test_the_share_benchmark_runs,
}
