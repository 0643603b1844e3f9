"""Tables: snapshots kept in SQLite, and a long replay that stops no other table."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import referee.tables
from referee.record import read_record
from referee.replay import EVERYTHING, Sight, replay
from referee.simulate import karriere_poker
from referee.store import Store
from referee.tables import Tables

SEATS = ["Anna", "Ben", "Cem", "Dora"]


def stored_game(store: Store, count: int = 250) -> tuple[str, Any, list[dict[str, Any]]]:
    header, events = karriere_poker(SEATS, games=6, seed=3)
    events = events[:count]
    tables = Tables(store, snapshot_every=50)
    game = tables.create(header)  # type: ignore[arg-type]
    for event in events:
        tables.append(game, {k: v for k, v in event.items() if k != "seq"})
    return game, header, events


def kept_seqs(store: Store, game: str) -> list[int]:
    return [seq for (seq,) in store.db.execute("SELECT seq FROM snapshots WHERE game = ? ORDER BY seq", [game])]


def replayed_counts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many events each replay in Tables folds."""
    counts: list[int] = []
    real = referee.tables.replay

    def counting(header: Any, events: Any, **kwargs: Any) -> Any:
        counts.append(len(events))
        return real(header, events, **kwargs)

    monkeypatch.setattr(referee.tables, "replay", counting)
    return counts


def test_a_restart_goes_on_from_the_latest_kept_snapshot(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    game, header, events = stored_game(store)
    assert kept_seqs(store, game) == [50, 100, 150, 200, 250]
    counts = replayed_counts(monkeypatch)
    restarted = Tables(Store(store.path), snapshot_every=50)
    assert restarted.fold(game) == replay(header, events)
    assert counts == [0]  # the snapshot at 250 is the game: nothing left to fold


def test_a_snapshot_of_other_rules_or_unreadable_is_not_used(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    game, header, events = stored_game(store)
    monkeypatch.setattr(referee.tables, "FINGERPRINT", "other-rules")  # the rules code changed
    counts = replayed_counts(monkeypatch)
    assert Tables(Store(store.path)).fold(game) == replay(header, events)
    assert counts == [250]  # replayed from event 1, and kept anew under the new fingerprint
    store.db.execute("UPDATE snapshots SET fold = ?", [b"not a fold"])
    assert Tables(Store(store.path)).fold(game) == replay(header, events)
    assert counts == [250, 250]


def test_a_void_drops_the_snapshots_it_changes_and_replays_from_the_one_before(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    game, header, events = stored_game(store)
    tables = Tables(store, snapshot_every=50)
    tables.fold(game)
    counts = replayed_counts(monkeypatch)
    appended = tables.append(game, {"type": "void", "target": 120, "reason": "wrong seat"})
    assert counts == [251 - 100]  # from the snapshot at 100: events 101-250 and the void
    void = {"seq": 251, "type": "void", "target": 120, "reason": "wrong seat", "by": None}
    void = {k: v for k, v in void.items() if v is not None}
    assert appended.fold == replay(header, [*events, void], find_clashes=None)  # the table's fold looks for no clash
    assert appended.fold.clashes_for() == replay(header, [*events, void]).clashes_for()  # the host's, looked for when asked
    # 150-250 told of event 120 as legal; they are gone. The void's own fold is kept.
    assert kept_seqs(store, game) == [50, 100, 251]
    restarted = Tables(Store(store.path), snapshot_every=50)
    assert restarted.fold(game) == appended.fold


def test_a_long_replay_holds_only_its_own_table(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    # While a void replays game A, the store is free: a move at game B is stored at once.
    game, header, events = stored_game(store)
    other = Tables(store).create(header)  # type: ignore[arg-type]
    tables = Tables(store, snapshot_every=10**6)
    tables.fold(game)
    seen: dict[str, Any] = {}
    real = referee.tables.replay

    def replay_while_b_moves(*args: Any, **kwargs: Any) -> Any:
        if seen:  # game B's own replay (its first fold)
            return real(*args, **kwargs)
        seen["replaying"] = True
        mover = threading.Thread(target=lambda: seen.setdefault("b", tables.append(other, {"type": "deal", "dealer": 0})))
        mover.start()
        mover.join(timeout=10)
        seen["done during the replay"] = not mover.is_alive()
        return real(*args, **kwargs)

    monkeypatch.setattr(referee.tables, "replay", replay_while_b_moves)
    tables.append(game, {"type": "void", "target": 3})
    assert seen["done during the replay"] and seen["b"].seq == 1


def test_each_reader_is_told_the_clashes_a_full_replay_finds_after_every_move_and_void(store: Store) -> None:
    # Anna logged Cem's cards as her hand: her hand clashes with his, and so does every card she
    # plays. The table's fold looks for none; the host and each seat, asking after every move and
    # every void (some reaching back before a kept fold), are told what a replay of the log finds.
    record = read_record((Path(__file__).resolve().parent.parent / "events" / "ftw-3-players.jsonl").read_text(encoding="utf-8"))
    events = [{k: v for k, v in e.items() if k != "seq"} for e in record.events[:40]]
    events[0]["cards"] = events[2]["cards"]
    tables = Tables(store, snapshot_every=5)
    game = tables.create(record.header)
    readers = [EVERYTHING, *(Sight(False, frozenset({seat})) for seat in range(3))]
    for index, event in enumerate(events, start=1):
        fold = tables.append(game, event).fold
        if index % 6 == 0:
            fold = tables.append(game, {"type": "void", "target": fold.seq - 4 * (index % 4)}).fold
        full = replay(record.header, store.events(game))
        assert fold.clashes == () and [fold.clashes_for(sight) for sight in readers] == [full.clashes_for(sight) for sight in readers]
    assert len(full.clashes) > 3 and full.clashes_for(readers[1]) and full.clashes_for(readers[2]) == []  # Anna's records show hers; Ben's none
