"""Tables in play: the store plus each game's folded state, cached by its last seq.

Appending folds only the new event into the cached state; a replay happens on a cache
miss (a restart, another process wrote) and after a valid `void`, which re-judges
everything after its target. Every `snapshot_every` events the fold is kept in SQLite
(`snapshots`, a cache beside the log), so a void or a cold start replays from the latest
snapshot before its target, not from event 1. A snapshot is sealed (`referee.kept`: JSON
and an HMAC under the instance's secret key, never a pickle) and tied to the hash of its
event and to the rules code that made it (`FINGERPRINT`): a changed rule, an edited log or
a snapshot that fails its seal makes it unusable, and the game is replayed from the log.
A void drops the snapshots at or after its target in the same transaction as the void
itself. The answers kept for idempotent retries are sealed the same way.

How long an answer takes must not depend on another seat's secret (DESIGN.md), so the
table's fold, cached, kept and used to answer a move or a void, looks for no clash (a
snapshot holds none): each reader's clashes, the whole truth for a trusted one or what a
seat's own records show, are looked for when it reads (`clashes`), in a fold of its own
kept per reader's sight and brought up to the table's from the log.

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
import hmac
import json
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from .games.base import Violation
from .kept import Unreadable, seal, secret_beside, signature, snapshot_key, unseal
from .record import Header, Record, RecordError, parse_event
from .replay import EVERYTHING, Fold, Sight, replay, rewrites, ruling_targets, step, valid_void_targets
from .stats import Plays
from .store import Store


def rules_fingerprint() -> str:
    """What a kept fold depends on: the rules code, and the Python that ran it."""
    package = Path(__file__).parent
    digest = hashlib.sha256(f"{sys.version_info[:2]}".encode())
    for path in sorted([*package.glob("games/*.py"), package / "replay.py", package / "record.py", package / "kept.py"]):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


FINGERPRINT = rules_fingerprint()
# How often a waiting phone looks at the stored head (a move logged by another server
# process on the same store reaches it so) and asks whether its phone is still there.
HEAD_CHECK_SECONDS = 0.5
KEPT_FIELDS = [f.name for f in fields(Fold) if f.name not in ("header", "game", "clashes_of")]  # the store's, and the table's


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
    """What is kept beside an event for an idempotent retry (sealed by `Tables._sealed`)."""
    audience = None if violation is None or violation.audience is None else sorted(violation.audience)
    flag = None if violation is None else {"rule": violation.rule, "message": violation.message, "audience": audience}
    return {"violation": flag, "finished": finished}


def answer_values(answer: dict[str, Any]) -> tuple[Violation | None, bool]:
    flag = answer["violation"]
    audience = None if flag is None or flag["audience"] is None else frozenset(flag["audience"])
    violation = None if flag is None else Violation(flag["rule"], flag["message"], audience)
    return violation, bool(answer["finished"])


class NotOver(Exception):
    """The host tried to reveal the secrets of a game still being played."""


def snapshot_context(game_id: str, seq: int, event_hash: str, fingerprint: str = FINGERPRINT) -> str:
    """What a snapshot's seal binds it to: its game, its event, and the rules that made it."""
    return f"{game_id}:{seq}:{event_hash}:{fingerprint}"


KEPT_PER_READER = 4  # a reader's folds kept for a void that reaches back; one further back replays from the start


class Tables:
    def __init__(
        self, store: Store, max_waiting: int = 24, max_waiting_per_game: int = 12, snapshot_every: int = 100, secret: str | None = None
    ) -> None:
        self.store = store
        self.plays = Plays(store)
        self.key = snapshot_key(secret if secret is not None else secret_beside(store.path))
        self.snapshot_every = snapshot_every
        self._folds: dict[str, Fold] = {}
        self._seen: dict[tuple[str, Sight], list[Fold]] = {}  # (game, a reader's sight) -> its folds (see `clashes`)
        self._witnesses: dict[str, tuple[str, list[str]]] = {}  # game -> (chain hash at the end, witness per seq)
        self._locks: dict[str, threading.RLock] = {}
        self._news: dict[str, threading.Condition] = {}  # one per game, all on the store's lock
        self._waiting: dict[str, int] = {}
        self.max_waiting, self.max_waiting_per_game = max_waiting, max_waiting_per_game

    def create(self, header: Header, game_id: str | None = None, host_seat: int | None = None) -> str:
        return self.store.create_game(header, game_id, host_seat=host_seat)

    def import_record(self, record: Record, game_id: str | None = None, created_at: str | None = None) -> str:
        """Store a whole (already checked) record as a new game, all or nothing; its id.

        A finished record is an archive: whoever imports it holds every secret already, so
        it is revealed. An unfinished one (a game to go on with) keeps its secrets."""
        fold = replay(record.header, record.events)
        finished = fold.outcome is not None
        return self.store.create_game(record.header, game_id, record.events, revealed_seq=fold.seq if finished else None,
                                      then=lambda stored: self.plays.keep(stored, fold, record.events, revealed=finished), created_at=created_at)

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
                elif event["seq"] != before.seq + 1 or rewrites(before, event):
                    # Another process wrote meanwhile: replayed whole, under the lock (rare).
                    self.store.drop_snapshots(game_id, 0)
                    taken = []
                    fold = replay(before.header, [*self.store.events(game_id), event], snapshots=taken, every=self.snapshot_every, find_clashes=None)
                else:
                    fold = step(before, event, find_clashes=None)
                    taken = [fold] if fold.seq % self.snapshot_every == 0 else []
                folded.append((fold, taken))
                if fold.outcome is not None or before.outcome is not None:  # the statistics, with the event
                    self.plays.keep(game_id, fold, [*self.store.events(game_id), event], self.store.revealed(game_id) is not None)
                return self._sealed(game_id, event["seq"], answer_json(fold.violation_at(event["seq"]), fold.outcome is not None))

            stored = self.store.append(game_id, body, expected_seq, key, judge)
            if not stored.new:
                fold = self.fold(game_id)
                answer = self._unsealed(game_id, stored.seq, stored.answer) or answer_json(fold.violation_at(stored.seq), fold.outcome is not None)
                return Appended(stored.event, *answer_values(answer), fold, new=False)
            fold, taken = folded[-1]  # the last try the store made (it may run an append again)
            fold = self._folds[game_id] = self._table_fold(game_id, fold)
            self._keep(game_id, taken)
            self.wake(game_id)
            return Appended(stored.event, *answer_values(stored.answer), fold)

    def _replayed_void(self, before: Fold, game_id: str, body: Mapping[str, Any]) -> tuple[dict[str, Any], Fold, list[Fold]] | None:
        """For a valid void or a ruling of an earlier event: the event, the fold after it and
        the snapshots taken, replayed before the transaction (from the latest snapshot before
        its target)."""
        if body.get("type") not in ("void", "ruling") or "seq" in body:
            return None
        try:
            event = parse_event(before.header, {**body, "seq": before.seq + 1}, before.seq + 1)
        except RecordError:
            return None  # the store refuses it, with the same words
        if not rewrites(before, event):
            return None
        fold, taken = self._replay_from_snapshot(game_id, before.header, event["target"], [event])
        if not taken or taken[-1].seq != fold.seq:
            taken.append(fold)  # a cold start goes on from here: none is kept between target and void
        return event, fold, taken

    def reveal(self, game_id: str) -> int:
        """The host confirms the end: every secret is shown to everyone, for good (a later
        void cannot hide it again). The seq it was revealed at; raises NotOver."""
        with self._game_lock(game_id):
            fold = self.fold(game_id)
            if fold.outcome is None:
                raise NotOver("the game is not over: secrets are revealed only at its end")
            events = self.store.events(game_id)
            revealed = self.store.reveal(game_id, fold.seq, then=lambda: self.plays.keep(game_id, fold, events, revealed=True))
        self.wake(game_id)  # every phone is shown the secrets at once, as after a move
        return revealed

    def revealed(self, game_id: str, fold: Fold, at: int | None = None) -> bool:
        """Whether the game's secrets are everyone's (as of event `at`, for the history):
        once the host has revealed them; a game without secrets reveals itself at its end."""
        if fold.game.private_events:
            revealed_seq = self.store.revealed(game_id)
            return revealed_seq is not None and (at is None or revealed_seq <= at)
        return fold.outcome is not None

    def public_record(self, game_id: str) -> bool:
        """Whether anyone may take the game's whole record: it hides nothing, or its secrets are everyone's."""
        fold = self.fold(game_id)
        return not fold.game.hides_anything or self.revealed(game_id, fold)

    def fold(self, game_id: str) -> Fold:
        """The game's current fold: cached, rebuilt from the latest snapshot when the store
        is ahead (a restart, another process wrote)."""
        with self._game_lock(game_id):
            cached = self._folds.get(game_id)
            last = self.store.last_seq(game_id)
            if cached is not None and cached.seq == last:
                return cached
            fold, taken = self._replay_from_snapshot(game_id, self.store.header(game_id), last + 1, [])
            fold = self._folds[game_id] = self._table_fold(game_id, fold)
            self._keep(game_id, taken)
            return fold

    def sharing(self, game_id: str, seat: int) -> frozenset[int]:
        """The seats whose private records `seat` reads now (its team: Game.sharing)."""
        fold = self.fold(game_id)
        return fold.game.sharing(fold.state, seat)

    def _table_fold(self, game_id: str, fold: Fold) -> Fold:
        """The table's fold, which looked for no clash, as readers get it: theirs found when they ask."""
        return replace(fold, clashes_of=lambda sight: self.clashes(game_id, fold, sight))

    def clashes(self, game_id: str, fold: Fold, sight: Sight) -> list[tuple[int, Violation]]:
        """The clashes this reader may know of as the table stood at `fold` (DESIGN.md):
        looked for now, off every answer's path, in the reader's own fold, brought up to
        `fold` from the log: from its latest, or (after a void or a ruling that reaches back)
        from the latest kept every `snapshot_every` events before it, in memory. Its cost
        turns on what this reader may know (its own records; everything for a trusted
        reader) and on public events alone. Not under the game's lock: the log only grows,
        and a fold that a later event reaches back before is not used."""
        folds = [kept for kept in self._seen.get((game_id, sight), []) if kept.seq <= fold.seq]
        if folds and folds[-1].seq == fold.seq:  # the events up to it never change
            return folds[-1].clashes_for(sight)
        while True:
            since = folds[-1] if folds else None
            events = self.store.events(game_id, after=since.seq if since is not None else 0)
            if since is None or not self._reaches_back(since, events):
                break
            folds.pop()
        taken: list[Fold] = []
        latest = replay(fold.header, events, upto=fold.seq, since=since, snapshots=taken, every=self.snapshot_every, find_clashes=sight)
        kept = [f for f in [*folds, *taken] if f.seq % self.snapshot_every == 0 and f.seq != latest.seq][-KEPT_PER_READER:]
        self._seen[(game_id, sight)] = [*kept, latest]  # a few per reader: memory stays small however long the game
        return latest.clashes_for(sight)

    def fold_at(self, game_id: str, seq: int | None = None, trusted: bool = True, official: bool = False) -> Fold:
        """The game as it stood after event `seq` (the history's "table as it was then"; None:
        now), `official`ly: as the official rules judge it (no house rules, no rulings).

        Replayed from the log (a snapshot holds no clash), looking for the clashes only for
        a reader `trusted` with the secrets, so what it costs any other reader does not
        depend on whether another seat's secret clashes."""
        return replay(self.store.header(game_id), self.store.events(game_id), upto=seq, find_clashes=EVERYTHING if trusted else None,
                      official=official)

    def _replay_from_snapshot(self, game_id: str, header: Header, before: int, tail: list[dict[str, Any]]) -> tuple[Fold, list[Fold]]:
        """The table's fold: the stored events (and `tail`) replayed from the latest snapshot
        before seq `before`, without looking for clashes; and the snapshots taken on the way."""
        since = self._snapshot(game_id, header, before)
        events = [*self.store.events(game_id, after=since.seq if since else 0), *tail]
        if since is not None and self._reaches_back(since, events):
            since, events = None, [*self.store.events(game_id), *tail]
        taken: list[Fold] = []
        return replay(header, events, since=since, snapshots=taken, every=self.snapshot_every, find_clashes=None), taken

    @staticmethod
    def _reaches_back(since: Fold, events: list[dict[str, Any]]) -> bool:
        """Whether a void or a ruling after the snapshot reaches an event before it (then it is stale)."""
        withdrawn = valid_void_targets(events, since.void_seqs)
        return any(target <= since.seq for target in [*withdrawn, *ruling_targets(events, withdrawn)])

    def _snapshot(self, game_id: str, header: Header, before: int) -> Fold | None:
        """The latest kept fold before seq `before` whose seal holds, or None (replay instead)."""
        kept = self.store.snapshot(game_id, FINGERPRINT, before)
        if kept is None:
            return None
        seq, event_hash, blob = kept
        try:
            fields_kept = unseal(self.key, snapshot_context(game_id, seq, event_hash), blob)
            return Fold(header, header.rules, **dict(zip(KEPT_FIELDS, fields_kept, strict=True)))
        except (Unreadable, ValueError, TypeError):
            self.store.drop_snapshots(game_id, seq, only=True)  # never trusted again; the replay keeps a sound one
            return None

    def snapshot_holds(self, game_id: str, seq: int, event_hash: str, fingerprint: str, blob: bytes) -> bool:
        """Whether a stored snapshot's seal holds (for `referee verify`)."""
        try:
            unseal(self.key, snapshot_context(game_id, seq, event_hash, fingerprint), blob)
            return True
        except Unreadable:
            return False

    def _keep(self, game_id: str, folds: list[Fold]) -> None:
        """Keep sealed snapshots in the store; the game and header come from the store again."""
        if not folds:
            return
        hashes = self.store.hashes(game_id, [f.seq for f in folds])
        self.store.save_snapshots(
            game_id,
            FINGERPRINT,
            [
                (f.seq, hashes[f.seq], seal(self.key, snapshot_context(game_id, f.seq, hashes[f.seq]), tuple(getattr(f, n) for n in KEPT_FIELDS)))
                for f in folds
                if f.seq in hashes
            ],
        )

    def _sealed(self, game_id: str, seq: int, answer: dict[str, Any]) -> dict[str, Any]:
        """A kept answer with its seal: an edited one is not served to a retry."""
        return {**answer, "seal": signature(self.key, f"{game_id}:{seq}:answer", answer)}

    def _unsealed(self, game_id: str, seq: int, kept: dict[str, Any] | None) -> dict[str, Any] | None:
        """A kept answer whose seal holds, without it; None otherwise (answered from the fold)."""
        if not isinstance(kept, dict) or not isinstance(kept.get("seal"), str):
            return None
        answer = {k: v for k, v in kept.items() if k != "seal"}
        return answer if hmac.compare_digest(signature(self.key, f"{game_id}:{seq}:answer", answer), kept["seal"]) else None

    def witness(self, game_id: str, seq: int) -> str | None:
        """The hash a phone keeps to witness the log (None: there is no event `seq`).

        A second chain over the log as everyone may see it: a private event counts only by
        its seq, type and seat. The hash chain itself cannot be shown before the reveal:
        from two of its hashes a small secret (three Senators cards) could be found by
        trying every hand. Worked out from the stored rows and kept while the chain hash at
        its end is unchanged, so a log rewritten even consistently gets new witnesses, which
        no longer match what a phone kept."""
        with self._game_lock(game_id):
            chain_end, witnesses = self._witnesses.get(game_id, ("", []))
            last = len(witnesses) - 1
            if not witnesses or (last > 0 and self.store.hashes(game_id, [last]).get(last) != chain_end):
                chain_end, witnesses, last = "", [self.store.root(game_id)], 0
            private = self.store.header(game_id).rules.private_events
            for row_seq, line, chain in self.store.rows(game_id, after=last) if seq > last else ():
                event = json.loads(line)
                if event["type"] in private:
                    line = json.dumps({"seq": row_seq, "type": event["type"], "seat": event.get("seat")}, separators=(",", ":"))
                witnesses.append(hashlib.sha256((witnesses[-1] + line).encode()).hexdigest())
                chain_end = chain
            self._witnesses[game_id] = (chain_end, witnesses)
            return witnesses[seq] if 0 <= seq < len(witnesses) else None

    def wake(self, game_id: str) -> None:
        """Wake the phones waiting on this game: it has news (from another process too)."""
        with self.store.lock:
            news = self._news.get(game_id)
            if news is not None:
                news.notify_all()

    def wait(self, game_id: str, after: int, timeout: float, gone: Callable[[], bool] | None = None,
             revealed: bool = True, seats: int | None = None) -> bool:
        """Block until the game has an event after `after` or `timeout` passes, or the phone
        has left (`gone()`: the server peeks at the phone's connection, `web.server`), or,
        for a phone that has not seen the reveal (`revealed` False), the host reveals, or, for a
        phone that saw `seats` seat changes, a seat is handed on or the host starts to play. A move
        of this process wakes it at once, one of another process too where the database
        tells (PostgreSQL's NOTIFY, `Database.listen`); the head is read again every half
        second whatever happens. False when too many phones wait already: the caller answers now
        and asks to come back later."""
        with self.store.lock:
            waiting = sum(self._waiting.values())
            if waiting >= self.max_waiting or self._waiting.get(game_id, 0) >= self.max_waiting_per_game:
                return False
            news = self._news.setdefault(game_id, threading.Condition(self.store.lock))
            self._waiting[game_id] = self._waiting.get(game_id, 0) + 1
            deadline = time.monotonic() + timeout
            try:
                while (self.store.last_seq(game_id) <= after and (revealed or self.store.revealed(game_id) is None)
                       and (seats is None or self.store.seat_change_count(game_id) == seats)):
                    left = deadline - time.monotonic()
                    if left <= 0 or (gone is not None and gone()):
                        break
                    news.wait(min(left, HEAD_CHECK_SECONDS))  # the head again: another process may have written
            finally:
                self._waiting[game_id] -= 1
                if not self._waiting[game_id]:
                    del self._waiting[game_id], self._news[game_id]
            return True
