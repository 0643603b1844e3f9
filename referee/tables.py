"""Tables in play: the store plus each game's folded state, cached by its last seq.

Appending folds only the new event into the cached state; a replay happens on a cache
miss (a restart, another process wrote) and after a valid `void`, which re-judges
everything after its target. Every `snapshot_every` events the fold is kept in SQLite
(`snapshots`, a cache beside the log), so a void or a cold start replays from the latest
snapshot before its target, not from event 1. A snapshot is tied to the hash of its event
and to the rules code that made it (`FINGERPRINT`): a changed rule or an edited log makes
it unusable, and the game is replayed from the start. A void drops the snapshots at or
after its target in the same transaction as the void itself.

Each game has its own lock: its appends and replays are serial, but a long replay (a void
of an early event, a cold start) holds only that game's lock and the store's lock only to
read rows, so other tables go on meanwhile. A void's replay is done before its
transaction; the store's lock is held for the insert alone.

Phones wait for news (long-poll) on their own game's condition, so an append wakes only
that game's phones. Each waiting phone holds a server thread: waiting is capped in total
and per game below the thread pool, and a phone over the cap is answered at once and told
to come back later, so waiting phones can never starve other requests.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from .games.base import Violation
from .record import Header, Record, RecordError, parse_event
from .replay import Fold, is_valid_void, replay, step, valid_void_targets
from .store import Store


def rules_fingerprint() -> str:
    """What a kept fold depends on: the rules code and the Python that pickled it."""
    package = Path(__file__).parent
    digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for path in sorted([*package.glob("games/*.py"), package / "replay.py", package / "record.py"]):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


FINGERPRINT = rules_fingerprint()
KEPT_FIELDS = [f.name for f in fields(Fold) if f.name not in ("header", "game")]  # those come from the store


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
        self._locks: dict[str, threading.RLock] = {}
        self._news: dict[str, threading.Condition] = {}  # one per game, all on the store's lock
        self._waiting: dict[str, int] = {}
        self.max_waiting, self.max_waiting_per_game = max_waiting, max_waiting_per_game

    def create(self, header: Header, game_id: str | None = None) -> str:
        return self.store.create_game(header, game_id)

    def import_record(self, record: Record, game_id: str | None = None) -> str:
        """Store a whole (already checked) record as a new game, all or nothing; its id."""
        return self.store.create_game(record.header, game_id, record.events)

    def _game_lock(self, game_id: str) -> threading.RLock:
        lock = self._locks.get(game_id)
        return lock if lock is not None else self._locks.setdefault(game_id, threading.RLock())

    def append(
        self,
        game_id: str,
        body: Mapping[str, Any],
        expected_seq: int | None = None,
        key: str | None = None,
    ) -> Appended:
        """Store one event and judge it; see Store.append for what is refused."""
        with self._game_lock(game_id):
            before = self._folds.get(game_id) or self.fold(game_id)  # stale only if another process wrote: judge sees it
            void = self._replayed_void(before, game_id, body)
            folded: list[tuple[Fold, list[Fold]]] = []

            def judge(event: dict[str, Any]) -> dict[str, Any]:
                # Inside the store's transaction: the new seq must follow the cached fold.
                if void is not None and void[0] == event:
                    fold, taken = void[1], void[2]
                    self.store.drop_snapshots(game_id, event["target"])
                elif event["seq"] != before.seq + 1 or is_valid_void(before, event):
                    # Another process wrote meanwhile: replayed whole, under the lock (rare).
                    self.store.drop_snapshots(game_id, 0)
                    taken = []
                    fold = replay(before.header, [*self.store.events(game_id), event], snapshots=taken, every=self.snapshot_every)
                else:
                    fold = step(before, event)
                    taken = [fold] if fold.seq % self.snapshot_every == 0 else []
                folded.append((fold, taken))
                return answer_json(fold.violation_at(event["seq"]), fold.outcome is not None)

            stored = self.store.append(game_id, body, expected_seq, key, judge)
            if not stored.new:
                fold = self.fold(game_id)
                answer = stored.answer or answer_json(fold.violation_at(stored.seq), fold.outcome is not None)
                return Appended(stored.event, *answer_values(answer), fold, new=False)
            fold, taken = folded[0]
            self._folds[game_id] = fold
            self._keep(game_id, taken)
            with self.store.lock:
                news = self._news.get(game_id)
                if news is not None:
                    news.notify_all()
            return Appended(stored.event, *answer_values(stored.answer), fold)

    def _replayed_void(self, before: Fold, game_id: str, body: Mapping[str, Any]) -> tuple[dict[str, Any], Fold, list[Fold]] | None:
        """For a valid void: the event, the fold after it and the snapshots taken, replayed
        before the transaction (from the latest snapshot before its target)."""
        if body.get("type") != "void" or "seq" in body:
            return None
        try:
            event = parse_event(before.header, {**body, "seq": before.seq + 1}, before.seq + 1)
        except RecordError:
            return None  # the store refuses it, with the same words
        if not is_valid_void(before, event):
            return None
        fold, taken = self._replay_from_snapshot(game_id, before.header, event["target"], [event])
        if not taken or taken[-1].seq != fold.seq:
            taken.append(fold)  # a cold start goes on from here: none is kept between target and void
        return event, fold, taken

    def fold(self, game_id: str) -> Fold:
        """The game's current fold: cached, rebuilt from the latest snapshot when the store
        is ahead (a restart, another process wrote)."""
        with self._game_lock(game_id):
            cached = self._folds.get(game_id)
            last = self.store.last_seq(game_id)
            if cached is not None and cached.seq == last:
                return cached
            fold, taken = self._replay_from_snapshot(game_id, self.store.header(game_id), last + 1, [])
            self._folds[game_id] = fold
            self._keep(game_id, taken)
            return fold

    def fold_at(self, game_id: str, seq: int) -> Fold:
        """The game as it stood after event `seq` (the history's "table as it was then")."""
        return self._replay_from_snapshot(game_id, self.store.header(game_id), seq + 1, [], upto=seq)[0]

    def _replay_from_snapshot(
        self, game_id: str, header: Header, before: int, tail: list[dict[str, Any]], upto: int | None = None
    ) -> tuple[Fold, list[Fold]]:
        """Replay the stored events (and `tail`) from the latest snapshot before seq
        `before`, up to seq `upto`: the fold, and the snapshots taken on the way (not for a
        fold of the past: they would not know the voids after `upto`)."""
        since = self._snapshot(game_id, header, before)
        events = [*self.store.events(game_id, after=since.seq if since else 0), *tail]
        if since is not None and self._reaches_back(since, events):
            since, events = None, [*self.store.events(game_id), *tail]
        taken: list[Fold] = []
        every = self.snapshot_every if upto is None else 0
        return replay(header, events, upto=upto, since=since, snapshots=taken, every=every), taken

    @staticmethod
    def _reaches_back(since: Fold, events: list[dict[str, Any]]) -> bool:
        """Whether a void after the snapshot withdraws an event before it (then it is stale)."""
        return any(target <= since.seq for target in valid_void_targets(events, since.void_seqs))

    def _snapshot(self, game_id: str, header: Header, before: int) -> Fold | None:
        """The latest usable kept fold before seq `before`, or None."""
        kept = self.store.snapshot(game_id, FINGERPRINT, before)
        if kept is None:
            return None
        try:
            return Fold(header, header.rules, **pickle.loads(kept[1]))
        except Exception:  # written by other code: replay instead
            return None

    def _keep(self, game_id: str, folds: list[Fold]) -> None:
        """Keep snapshots in the store; the game and header come from the store again."""
        self.store.save_snapshots(
            game_id,
            FINGERPRINT,
            [
                (f.seq, pickle.dumps({name: getattr(f, name) for name in KEPT_FIELDS}))
                for f in folds
            ],
        )

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
