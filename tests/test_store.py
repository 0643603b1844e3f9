"""Guarantees of the event store, checked on real SQLite files."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from conftest import drop_trigger, raw, table

from referee.record import RecordError
from referee.store import Conflict, Store, UnknownGame
from referee.tables import Tables

KP = table("karriere-poker", "Anna Ben Cem Dora")


def test_append_numbers_events_and_reads_them_back(store: Store) -> None:
    game = store.create_game(KP)
    first = store.append(game, {"type": "deal", "dealer": 3})
    second = store.append(game, {"type": "play", "seat": 0, "cards": [7]})
    assert (first.seq, second.seq) == (1, 2)
    assert store.events(game) == [
        {"seq": 1, "type": "deal", "dealer": 3},
        {"seq": 2, "type": "play", "seat": 0, "cards": [7]},
    ]
    assert store.events(game, after=1) == [second.event]


def test_expected_seq_mismatch_is_a_conflict_and_stores_nothing(store: Store) -> None:
    game = store.create_game(KP)
    store.append(game, {"type": "deal", "dealer": 3}, expected_seq=0)
    with pytest.raises(Conflict) as caught:
        store.append(game, {"type": "pass", "seat": 1}, expected_seq=0)
    assert caught.value.current_seq == 1
    assert store.last_seq(game) == 1


def test_a_commit_that_fails_is_rolled_back_and_the_store_goes_on(tmp_path: Path) -> None:
    store = Store(tmp_path / "commit.sqlite3")  # SQLite's deferred foreign keys make a COMMIT itself fail
    game = store.create_game(KP)
    store.append(game, {"type": "deal", "dealer": 3})
    with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
        with store.transaction():
            store.db.execute("PRAGMA defer_foreign_keys=ON")  # the COMMIT itself fails
            store.db.execute(
                "INSERT INTO snapshots (game, seq, hash, fingerprint, fold) VALUES ('no such game', 1, 'h', 'f', x'00')"
            )
    assert not store.db.in_transaction
    assert store.db.execute("SELECT COUNT(*) FROM snapshots").fetchone()[0] == 0
    assert store.append(game, {"type": "pass", "seat": 0}).seq == 2  # the lock was let go too


def test_a_format_error_stores_nothing(store: Store) -> None:
    game = store.create_game(KP)
    with pytest.raises(RecordError, match="cards"):
        store.append(game, {"type": "play", "seat": 0, "cards": [0]})
    with pytest.raises(RecordError, match="seq"):
        store.append(game, {"seq": 1, "type": "deal", "dealer": 3})
    assert store.events(game) == []


def test_an_unknown_game_is_named(store: Store) -> None:
    with pytest.raises(UnknownGame, match="nope"):
        store.append("nope", {"type": "note", "text": "hi"})


def test_the_same_idempotency_key_three_times_stores_one_event(store: Store) -> None:
    game = store.create_game(KP)
    answers = [store.append(game, {"type": "deal", "dealer": 3}, key="phone-1:42") for _ in range(3)]
    assert [a.new for a in answers] == [True, False, False]
    assert {a.seq for a in answers} == {1}
    assert len(store.events(game)) == 1
    # the key belongs to one game: another game may use it too
    other = store.create_game(KP)
    assert store.append(other, {"type": "deal", "dealer": 0}, key="phone-1:42").new


def test_update_and_delete_of_events_fail_through_a_plain_connection(store: Store) -> None:
    game = store.create_game(KP)
    store.append(game, {"type": "deal", "dealer": 3})
    with pytest.raises(store.db.IntegrityError, match="append-only"):
        raw(store, "UPDATE events SET body = '{}' WHERE seq = 1")
    with pytest.raises(store.db.IntegrityError, match="append-only"):
        raw(store, "DELETE FROM events")
    with pytest.raises(store.db.IntegrityError, match="cannot"):
        raw(store, "UPDATE games SET header = '{}'")
    assert store.events(game) == [{"seq": 1, "type": "deal", "dealer": 3}]


def test_verify_names_an_edited_row(store: Store) -> None:
    game = store.create_game(KP)
    for body in ({"type": "deal", "dealer": 3}, {"type": "play", "seat": 0, "cards": [7]}, {"type": "pass", "seat": 1}):
        store.append(game, body)
    assert store.verify() == []
    raw(store, drop_trigger(store, "events_append_only_update"),
        """UPDATE events SET body = '{"seq": 2, "type": "play", "seat": 0, "cards": [13]}' WHERE seq = 2""")
    assert Store(store.path).verify() == [f"game {game} seq 2: its hash does not match (the row was edited)"]


def test_verify_names_a_missing_row(store: Store) -> None:
    game = store.create_game(KP)
    for _ in range(3):
        store.append(game, {"type": "note", "text": "x"})
    raw(store, drop_trigger(store, "events_append_only_delete"), "DELETE FROM events WHERE seq = 2")
    assert Store(store.path).verify() == [f"game {game} seq 2: missing (the next stored seq is 3)"]


def test_the_database_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    store = Store(tmp_path / "wal.sqlite3")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_four_writers_with_expected_seq_and_retry_leave_no_gap_and_no_duplicate(tmp_path: Path) -> None:
    path = tmp_path / "race.sqlite3"
    game = Store(path).create_game(KP)
    conflicts = []

    def writer(name: int) -> None:
        store = Store(path)  # a connection of its own, as another process would have
        for count in range(500):
            while True:
                seen = store.last_seq(game)
                try:
                    store.append(game, {"type": "note", "text": f"{name}:{count}"}, expected_seq=seen)
                    break
                except Conflict:
                    conflicts.append(name)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = Store(path).events(game)
    assert [event["seq"] for event in stored] == list(range(1, 2001))
    assert sorted(event["text"] for event in stored) == sorted(f"{n}:{c}" for n in range(4) for c in range(500))
    assert Store(path).verify() == []


WRITER = textwrap.dedent(
    """
    import sys
    from referee.store import Store
    store = Store(sys.argv[1])
    game = sys.argv[2]
    while True:
        stored = store.append(game, {"type": "note", "text": "x" * 200})
        print(stored.seq, flush=True)
    """
)


def test_kill_9_at_random_moments_loses_no_acknowledged_event(tmp_path: Path) -> None:
    path = tmp_path / "crash.sqlite3"
    game = Store(path).create_game(KP)
    rng = random.Random(7)
    acknowledged = 0
    for _ in range(20):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path), game], stdout=subprocess.PIPE, text=True)
        assert writer.stdout is not None
        first = writer.stdout.readline()  # the writer is up and appending
        assert first.strip()
        time.sleep(rng.uniform(0.0, 0.25))
        writer.send_signal(signal.SIGKILL)
        output, _ = writer.communicate()
        seqs = [int(line) for line in [first, *output.splitlines()] if line.strip()]
        acknowledged = max(acknowledged, *seqs)
        check = sqlite3.connect(path)
        assert check.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        check.close()
        assert Store(path).last_seq(game) >= acknowledged
    store = Store(path)
    assert [e["seq"] for e in store.events(game)] == list(range(1, store.last_seq(game) + 1))
    assert store.verify() == []


def test_tables_return_the_flag_of_an_illegal_move_and_keep_the_event(tables: Tables) -> None:
    game = tables.create(KP)
    tables.append(game, {"type": "deal", "dealer": 3})
    appended = tables.append(game, {"type": "pass", "seat": 0})
    assert appended.violation is not None
    assert appended.violation.rule == "kp.lead.pass"
    assert appended.violation.message == "Anna starts this round and must play, not pass."
    assert tables.store.events(game)[-1] == {"seq": 2, "type": "pass", "seat": 0}


def test_an_idempotent_retry_returns_the_first_answer(tables: Tables) -> None:
    game = tables.create(KP)
    tables.append(game, {"type": "deal", "dealer": 3})
    first = tables.append(game, {"type": "pass", "seat": 0}, key="k")
    retry = tables.append(game, {"type": "pass", "seat": 0}, key="k")
    assert (retry.seq, retry.violation, retry.new) == (first.seq, first.violation, False)
    assert tables.store.last_seq(game) == 2


def test_cached_state_is_rebuilt_when_another_process_wrote(tmp_path: Path) -> None:
    path = tmp_path / "two.sqlite3"
    ours, theirs = Tables(Store(path)), Tables(Store(path))
    game = ours.create(KP)
    ours.append(game, {"type": "deal", "dealer": 3})
    theirs.append(game, {"type": "play", "seat": 0, "cards": [7, 7]})
    appended = ours.append(game, {"type": "play", "seat": 1, "cards": [9, 9]})
    assert appended.violation is None
    assert appended.fold.state.top_cards == (9, 9)
    assert json.dumps(appended.event) == '{"seq": 3, "type": "play", "seat": 1, "cards": [9, 9]}'
