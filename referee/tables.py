"""Tables in play: the store plus each game's folded state, cached by its last seq.

Appending folds only the new event into the cached state; a replay happens on a cache
miss (a restart, another process wrote) and after a valid `void`, which re-judges
everything after its target. A snapshot of the fold is kept every `snapshot_every`
events, so a void replays from the last snapshot before its target, not from event 1
(snapshots at or after the target are dropped: the void changes them).

Phones wait for news (long-poll) on their own game's condition, so an append wakes only
that game's phones. Each waiting phone holds a server thread: waiting is capped in total
and per game below the thread pool, and a phone over the cap is answered at once and told
to come back later, so waiting phones can never starve other requests.
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
    """The stored event, the rule it broke (if any) and whether the game was over then, as
    judged when it was first stored, and the game's fold now."""

    event: dict[str, Any]
    violation: Violation | None
    finished: bool
    fold: Fold
    new: bool = True

    @property
    def seq(self) -> int:
        return int(self.event["seq"])


def answer_json(violation: Violation | None, finished: bool) -> dict[str, Any]:
    """What is kept beside an event for an idempotent retry."""
    flag = None if violation is None else {"rule": violation.rule, "message": violation.message, "private_to": sorted(violation.private_to)}
    return {"violation": flag, "finished": finished}


def answer_values(answer: dict[str, Any]) -> tuple[Violation | None, bool]:
    flag = answer["violation"]
    violation = None if flag is None else Violation(flag["rule"], flag["message"], frozenset(flag["private_to"]))
    return violation, bool(answer["finished"])


class Tables:
    def __init__(self, store: Store, max_waiting: int = 24, max_waiting_per_game: int = 12, snapshot_every: int = 100) -> None:
        self.store = store
        self.snapshot_every = snapshot_every
        self._folds: dict[str, Fold] = {}
        self._snapshots: dict[str, list[Fold]] = {}  # per game, by seq
        self._news: dict[str, threading.Condition] = {}  # one per game, all on the store's lock
        self._waiting: dict[str, int] = {}
        self.max_waiting, self.max_waiting_per_game = max_waiting, max_waiting_per_game

    def create(self, header: Header, game_id: str | None = None) -> str:
        return self.store.create_game(header, game_id)

    def import_record(self, record: Record, game_id: str | None = None) -> str:
        """Store a whole (already checked) record as a new game, all or nothing; its id."""
        return self.store.create_game(record.header, game_id, record.events)

    def append(
        self,
        game_id: str,
        body: Mapping[str, Any],
        expected_seq: int | None = None,
        key: str | None = None,
    ) -> Appended:
        """Store one event and judge it; see Store.append for what is refused."""
        with self.store.lock:
            before = self._folds.get(game_id) or self.fold(game_id)
            folded: list[Fold] = []
            snapshots = list(self._snapshots.get(game_id, []))

            def judge(event: dict[str, Any]) -> dict[str, Any]:
                # Inside the store's transaction: the new seq must follow the cached fold.
                if event["seq"] != before.seq + 1:
                    snapshots.clear()
                    fold = self._replay(before.header, [*self.store.events(game_id), event], None, snapshots)
                elif is_valid_void(before, event):
                    snapshots[:] = [s for s in snapshots if s.seq < event["target"]]
                    since = snapshots[-1] if snapshots else None
                    after = self.store.events(game_id, after=since.seq if since else 0)
                    fold = self._replay(before.header, [*after, event], since, snapshots)
                else:
                    fold = step(before, event)
                    if fold.seq % self.snapshot_every == 0:
                        snapshots.append(fold)
                folded.append(fold)
                return answer_json(fold.violation_at(event["seq"]), fold.outcome is not None)

            stored = self.store.append(game_id, body, expected_seq, key, judge)
            if not stored.new:
                fold = self.fold(game_id)
                answer = stored.answer or answer_json(fold.violation_at(stored.seq), fold.outcome is not None)
                return Appended(stored.event, *answer_values(answer), fold, new=False)
            self._folds[game_id], self._snapshots[game_id] = folded[0], snapshots
            news = self._news.get(game_id)
            if news is not None:
                news.notify_all()
            return Appended(stored.event, *answer_values(stored.answer), folded[0])

    def fold(self, game_id: str) -> Fold:
        """The game's current fold: cached, rebuilt by replay when the store is ahead."""
        with self.store.lock:
            cached = self._folds.get(game_id)
            if cached is not None and cached.seq == self.store.last_seq(game_id):
                return cached
            snapshots: list[Fold] = []
            fold = self._replay(self.store.header(game_id), self.store.events(game_id), None, snapshots)
            self._folds[game_id], self._snapshots[game_id] = fold, snapshots
            return fold

    def _replay(self, header: Header, events: list[dict[str, Any]], since: Fold | None, snapshots: list[Fold]) -> Fold:
        return replay(header, events, since=since, snapshots=snapshots, every=self.snapshot_every)

    def fold_at(self, game_id: str, seq: int) -> Fold:
        """The game as it stood after event `seq` (the history's "table as it was then")."""
        return replay(self.store.header(game_id), self.store.events(game_id), upto=seq)

    def wait(self, game_id: str, after: int, timeout: float) -> bool:
        """Block until the game has an event after `after` or `timeout` passes. False when
        too many phones wait already: the caller answers now and asks to come back later."""
        with self.store.lock:
            waiting = sum(self._waiting.values())
            if waiting >= self.max_waiting or self._waiting.get(game_id, 0) >= self.max_waiting_per_game:
                return False
            news = self._news.setdefault(game_id, threading.Condition(self.store.lock))
            self._waiting[game_id] = self._waiting.get(game_id, 0) + 1
            try:
                news.wait_for(lambda: self.store.last_seq(game_id) > after, timeout)
            finally:
                self._waiting[game_id] -= 1
                if not self._waiting[game_id]:
                    del self._waiting[game_id], self._news[game_id]
            return True
