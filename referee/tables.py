"""Tables in play: the store plus each game's folded state, cached by its last seq.

Appending folds only the new event into the cached state; a full replay happens on a
cache miss (a restart, another process wrote) and after a valid `void`, which re-judges
everything after its target.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .games.base import Violation
from .record import Header, Record
from .replay import Fold, is_valid_void, replay, step
from .store import Store


@dataclass(frozen=True)
class Appended:
    """The stored event, the rule it broke (if any), and the fold after it."""

    event: dict[str, Any]
    violation: Violation | None
    fold: Fold
    new: bool = True

    @property
    def seq(self) -> int:
        return int(self.event["seq"])


class Tables:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._folds: dict[str, Fold] = {}
        self._news = threading.Condition(store.lock)

    def create(self, header: Header, game_id: str | None = None) -> str:
        return self.store.create_game(header, game_id)

    def import_record(self, record: Record, game_id: str | None = None) -> str:
        """Store a whole record as a new game; returns its id."""
        with self.store.lock:
            game_id = self.create(record.header, game_id)
            for event in record.events:
                self.append(game_id, {k: v for k, v in event.items() if k != "seq"})
        return game_id

    def append(
        self,
        game_id: str,
        body: Mapping[str, Any],
        expected_seq: int | None = None,
        key: str | None = None,
    ) -> Appended:
        """Store one event and judge it; see Store.append for what is refused."""
        with self.store.lock:
            # The cached fold is checked after the insert: the new seq must follow it.
            before = self._folds.get(game_id) or self.fold(game_id)
            stored = self.store.append(game_id, body, expected_seq, key)
            if not stored.new:
                fold = self.fold(game_id)
                return Appended(stored.event, fold.violation_at(stored.seq), fold, new=False)
            if stored.seq != before.seq + 1 or is_valid_void(before, stored.event):
                fold = replay(before.header, self.store.events(game_id))
            else:
                fold = step(before, stored.event)
            self._folds[game_id] = fold
            self._news.notify_all()
            return Appended(stored.event, fold.violation_at(stored.seq), fold)

    def fold(self, game_id: str) -> Fold:
        """The game's current fold: cached, rebuilt by replay when the store is ahead."""
        with self.store.lock:
            cached = self._folds.get(game_id)
            if cached is not None and cached.seq == self.store.last_seq(game_id):
                return cached
            fold = replay(self.store.header(game_id), self.store.events(game_id))
            self._folds[game_id] = fold
            return fold

    def fold_at(self, game_id: str, seq: int) -> Fold:
        """The game as it stood after event `seq` (the history's "table as it was then")."""
        return replay(self.store.header(game_id), self.store.events(game_id), upto=seq)

    def wait(self, game_id: str, after: int, timeout: float) -> int:
        """Block until the game has an event after `after` or `timeout` passes; the last seq."""
        with self._news:
            self._news.wait_for(lambda: self.store.last_seq(game_id) > after, timeout)
            return self.store.last_seq(game_id)
