"""Replay: fold a record's events through its game, flagging and skipping illegal ones.

Semantics (DESIGN.md): an event that breaks a rule stays in the log, is reported, and the
state is as if it had not happened. A valid `void` withdraws its target: replay behaves as
if the target had never been logged and re-judges everything after it. A withdrawn event
is not a violation of the record; the flag it carried where it stood when it was logged
is kept apart (`withdrawn`, with the void that withdrew it), so a dispute still sees what
went wrong and how the table corrected it. `void` and `note` are accepted after the end
(a void may withdraw a mistaken `end`); a second void of the same target is harmless and
accepted, and the first one is the one that withdrew it.

Breaks: `pause` and `resume` change nothing in the game (moves during a break are judged
as ever); the fold only knows whether the table is on a break (`Fold.paused`), so that a
pause during a break, or a resume without one, is flagged `core.pause.order`. A pause or
resume after the end is `core.game.over`, as DESIGN allows only voids, notes and rulings
there: the playing time ended with the game (an unfinished break ends with it too). A
pause or resume is voided like any event and is never a ruling's target.

Secrets (the privacy model): a public event is judged on public information alone, a
private event (a recorded hand) on public information and its own seat's (team's) private
records: `Game.knowing` takes out what the judge may not know. A flag on a private event
may be read only by its seat (team) and the host. Where the whole truth breaks a rule that
this judgement did not see (two recorded hands that hold more copies than exist, a played
card missing from the player's recorded hand), the event is not flagged: the clash is kept
apart (`Fold.clashes`), for the host at once and for everyone once the secrets are
revealed; a seat whose own records show a clash is told it as they show it
(`Fold.clash_views`), so telling it tells nothing new. Clashes are looked for as a fold
is asked to (`find_clashes`): a table's own fold looks for none, so answering a move
never costs more because it clashes; each reader's are looked for when it reads
(`referee.tables`).
A flagged event is always skipped: nothing counts as logged, so a seat may log its hand
again after a flagged try.

Rulings and house rules: the table may let a flagged public move stand (a `ruling`, known
before folding like a void, so the move applies where it stands), and a header's
`house_rules` turn rules off. Such a move is folded by its game's effect as written for a
legal move (the cards, money and turn it names change as they would); where that effect
has no meaning in the state, or leaves a state the game cannot show or score, the move
changes nothing (`Ruled.applied` is False), and so does any later move the rules cannot
judge on a state rulings made. Every game is folded so; the totality property of
tests/test_rulings.py replays random records with random rulings and house rules.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from .games.base import Game, Outcome, Phrase, Result, Termination, Violation, Word, broken
from .record import COMMON_EVENTS, Header

TABLE_EVENTS = frozenset(COMMON_EVENTS)  # void, note, pause, resume, end, ruling: every game's record has these
CORE_RULES = {
    "core.void.target": "a void targets the header, a void, or a later or nonexistent seq",
    "core.game.over": "any event after the game has finished",
    "core.pause.order": "a pause while the table is on a break, or a resume while it is not",
    "core.ruling.target": "a ruling targets what is not a player's flagged move where it stands (a legal, withdrawn or private move, a void, note, pause, resume, end or ruling, a later seq)",
}


@dataclass(frozen=True)
class Sight:
    """What a reader may know: everything (the host, or anyone once the secrets are
    revealed), or public information and the private records of `seats` (a seat's team)."""

    everything: bool
    seats: frozenset[int] = frozenset()

    def sees(self, audience: frozenset[int] | None) -> bool:
        """Whether a flag meant for `audience` (None: everyone) may be shown to this reader."""
        return self.everything or audience is None or not audience.isdisjoint(self.seats)


EVERYTHING = Sight(True)  # the whole record in the reader's hands (the CLI, the host)
PUBLIC = Sight(False)  # a spectator before the reveal


@dataclass(frozen=True)
class Withdrawn:
    """A voided event: the flag it carried when it was logged (None: it was legal then)."""

    seq: int
    flag: Violation | None
    voided_by: int


@dataclass(frozen=True)
class Ruled:
    """A flagged move the table let stand (`ruling`): applied as if legal, its flag kept here."""

    seq: int
    flag: Violation
    ruling: int
    reason: str
    applied: bool = True  # False: the state had no place for the move (a pass when nobody plays), so it stayed


# What a game's effect raises for a move its checks would refuse (an index past a list, a
# card not in a hand, a turn nobody has): the effect is written for legal moves.
NO_PLACE = (LookupError, ValueError, TypeError, ArithmeticError, AssertionError, StopIteration)


@dataclass(frozen=True)
class Fold:
    """Where a game stands after the events up to `seq`."""

    header: Header
    game: Game[Any]
    state: Any
    seq: int = 0
    outcome: Outcome | None = None
    violations: tuple[tuple[int, Violation], ...] = ()  # standing flags only
    withdrawn: tuple[Withdrawn, ...] = ()
    void_seqs: frozenset[int] = frozenset()
    clashes: tuple[tuple[int, Violation], ...] = ()  # legal events the whole truth contradicts (the host's)
    clash_views: tuple[tuple[int, Violation], ...] = ()  # each as a seat's (team's) own records show it (audience)
    ruled: tuple[Ruled, ...] = ()  # flagged moves the table let stand
    set_aside: bool = False  # a move broke a rule the table set aside (a ruling, a house rule): see _Folding.lenient
    paused: bool = False  # the table is on a break: a `pause` stands with no `resume` after it
    # Where a fold looked for no clash (a table's), what finds a reader's when it asks (`Tables.clashes`).
    clashes_of: Callable[[Sight], list[tuple[int, Violation]]] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        # The clash views by the seats they are for, made with the fold (where the clashes
        # were looked for): a reader's look-up then touches only its own, and takes as long
        # whatever clashes other seats' records make.
        by_audience: dict[frozenset[int], list[tuple[int, Violation]]] = {}
        for seq, view in self.clash_views:
            by_audience.setdefault(view.audience or frozenset(), []).append((seq, view))
        object.__setattr__(self, "_clash_views_by_audience", by_audience)

    @property
    def voided(self) -> tuple[int, ...]:
        return tuple(w.seq for w in self.withdrawn)

    def violation_at(self, seq: int) -> Violation | None:
        """The standing flag of event `seq` (None for a legal or withdrawn event)."""
        for flagged_seq, violation in reversed(self.violations):
            if flagged_seq == seq:
                return violation
        return None

    def clashes_for(self, sight: Sight = EVERYTHING) -> list[tuple[int, Violation]]:
        """The clashes this reader may know of: the whole truth for the host (and everyone
        once revealed); for a seat, each as its own records show it, so what it is told
        never depends on another seat's records."""
        if not sight.everything and not sight.seats:  # a spectator: no clash, and no work
            return []
        if self.clashes_of is not None:
            return self.clashes_of(sight)
        if sight.everything:
            return list(self.clashes)
        by_audience: dict[frozenset[int], list[tuple[int, Violation]]] = self.__dict__["_clash_views_by_audience"]
        mine = [found for audience, views in by_audience.items() if not audience.isdisjoint(sight.seats) for found in views]
        return sorted(mine, key=lambda found: found[0]) if len(by_audience) > 1 else mine

    def clash_at(self, seq: int, sight: Sight = EVERYTHING) -> Violation | None:
        """What this reader may know against legal event `seq` (None: nothing)."""
        return next((clash for clashed, clash in self.clashes_for(sight) if clashed == seq), None)

    def ruled_at(self, seq: int) -> Ruled | None:
        """The ruling that let flagged event `seq` stand, if one did."""
        return next((r for r in self.ruled if r.seq == seq), None)

    def withdrawn_at(self, seq: int) -> Withdrawn | None:
        return next((w for w in self.withdrawn if w.seq == seq), None)

    def known_state(self, sight: Sight = EVERYTHING) -> Any:
        """The state as this reader may know it."""
        return self.state if sight.everything else self.game.knowing(self.state, sight.seats)

    def view(self, seat: int | None, sight: Sight = EVERYTHING) -> dict[str, Any]:
        view = self.game.view(self.known_state(sight), seat, self.outcome)
        if self.header.off:
            view = self.game.house_view(view, self.header.off)
        if sight.everything:
            return view
        return {key: value for key, value in view.items() if key not in self.game.revealed_view}

    def result(self, sight: Sight = EVERYTHING) -> Result:
        return self.game.result(self.known_state(sight), self.outcome)


def start(header: Header) -> Fold:
    """The fold before the first event."""
    return Fold(header, header.rules, header.initial_state)


def void_error(event: Mapping[str, Any], void_seqs: frozenset[int]) -> Violation | None:
    """Why a void cannot withdraw its target, or None (rule core.void.target)."""
    target = event["target"]
    if target < 1:
        return broken("core.void.target", "This void cannot withdraw event %(target)s: the header cannot be voided.", target=target)
    if target >= event["seq"]:
        return broken("core.void.target", "This void cannot withdraw event %(target)s: event %(target)s comes after this void.", target=target)
    if target in void_seqs:
        return broken("core.void.target", "This void cannot withdraw event %(target)s: event %(target)s is itself a void.", target=target)
    return None


def pause_error(kind: str, paused: bool) -> Violation | None:
    """Why the table cannot take a break (or come back from one) now, or None (rule core.pause.order)."""
    if kind == "pause" and paused:
        return broken("core.pause.order", "The table is on a break already: resume first.")
    if kind == "resume" and not paused:
        return broken("core.pause.order", "The table is not on a break: there is nothing to resume.")
    return None


def valid_void_targets(events: Iterable[Mapping[str, Any]], earlier_voids: frozenset[int] = frozenset()) -> dict[int, int]:
    """Withdrawn seq -> the first valid void of it: known before folding, so replay is one pass.

    `earlier_voids`: the voids before `events` (when going on from a snapshot)."""
    voids: set[int] = set(earlier_voids)
    targets: dict[int, int] = {}
    for event in [event for event in events if event["type"] == "void"]:  # few: filtered first
        if void_error(event, frozenset(voids)) is None:
            targets.setdefault(event["target"], event["seq"])
        voids.add(event["seq"])
    return targets


def ruling_targets(events: Sequence[Mapping[str, Any]], withdrawn: Mapping[int, int]) -> dict[int, tuple[int, str, str]]:
    """Target seq -> (the first ruling of it, its reason, the target's type), for rulings
    that name an earlier event and that no void withdrew: known before folding, so replay
    applies a ruled move where it stands. Whether the target was flagged there, and may be
    ruled at all, is judged when the fold reaches the ruling (core.ruling.target)."""
    rulings = [event for event in events if event["type"] == "ruling" and event["seq"] not in withdrawn]  # few: filtered first
    if not rulings:
        return {}
    targets: dict[int, tuple[int, str]] = {}
    for event in rulings:
        if 1 <= event["target"] < event["seq"] and event["target"] not in withdrawn:
            targets.setdefault(event["target"], (event["seq"], event.get("reason") or ""))
    kinds = {event["seq"]: event["type"] for event in events if event["seq"] in targets}
    return {target: (*ruling, kinds.get(target, "")) for target, ruling in targets.items()}


class _Folding:
    """A fold being built: mutable, so replay makes no new `Fold` per event (the hot path
    of every cold start); frozen into a `Fold` at snapshots and at the end."""

    __slots__ = ("fold", "game", "state", "seq", "outcome", "violations", "withdrawn", "void_seqs", "clashes", "clash_views",
                 "ruled", "find_clashes", "off", "rulings", "official", "lenient", "paused")

    def __init__(self, fold: Fold, find_clashes: Sight | None = EVERYTHING, rulings: Mapping[int, tuple[int, str, str]] | None = None,
                 official: bool = False) -> None:
        self.fold, self.game, self.find_clashes, self.official = fold, fold.game, find_clashes, official
        self.state, self.seq, self.outcome = fold.state, fold.seq, fold.outcome
        self.violations = list(fold.violations)
        self.withdrawn = list(fold.withdrawn)
        self.void_seqs = set(fold.void_seqs)
        self.clashes, self.clash_views = list(fold.clashes), list(fold.clash_views)
        self.ruled = list(fold.ruled)
        self.off = frozenset() if official else fold.header.off
        self.rulings = rulings or {}
        # Once a move that breaks a rule the table set aside has applied, the state may hold
        # what no legal play makes: from then on no move may raise on it (`_set_aside`).
        self.lenient = fold.set_aside
        self.paused = fold.paused

    def frozen(self) -> Fold:
        f = self.fold
        return Fold(
            f.header, f.game, self.state, self.seq, self.outcome, tuple(self.violations),
            tuple(self.withdrawn), frozenset(self.void_seqs), tuple(self.clashes), tuple(self.clash_views), tuple(self.ruled),
            self.lenient, self.paused,
        )  # fmt: skip

    def step(self, event: Mapping[str, Any]) -> None:
        """Fold one event (core rules first); a flagged event leaves the game state as it
        was, unless a later ruling lets it stand.

        The hot path of every replay, so a move is judged here in line."""
        kind, game, seq, state = event["type"], self.game, event["seq"], self.state
        self.seq = seq
        if kind in TABLE_EVENTS or self.outcome is not None:
            self._table_event(event, kind)
            return
        if self.lenient:
            try:
                self._move(event, kind, game, seq, state)
            except NO_PLACE:  # the checks cannot judge the state the table's rulings made: the move changes nothing
                self.state = state
            return
        self._move(event, kind, game, seq, state)

    def _move(self, event: Mapping[str, Any], kind: str, game: Game[Any], seq: int, state: Any) -> None:
        """A player's move, judged and applied (or flagged)."""
        # Judged on what the event's author may know: public information, and for a
        # private event its own seat's (team's) records.
        author = game.sharing(state, event["seat"]) if kind in game.private_events else None
        judged = game.knowing(state, author or frozenset()) if game.private_events else state
        broken = game.first_broken(judged, event, self.off)
        ruled = None
        if broken is not None:
            ruling = self.rulings.get(seq) if author is None else None
            if ruling is None:
                self.violations.append((seq, broken if author is None else replace(broken, audience=author)))
                return
            ruled = Ruled(seq, broken, ruling[0], ruling[1])  # the table let it stand: it applies
        elif self.off and game.first_broken(judged, event) is not None:
            ruled = Ruled(seq, Violation("", ""), 0, "")  # legal only by a house rule: applied the same way
        if broken is None and judged is not state and self.find_clashes is not None:  # a ruled move's flag is public: no clash
            self._clashes(event, self.find_clashes, author is None)
        if ruled is None and not self.lenient:
            self.state = game.effect(state, event)
        else:
            self.lenient = True
            self.state, applied = self._set_aside(state, event)
            if ruled is not None and ruled.ruling:
                self.ruled.append(Ruled(ruled.seq, ruled.flag, ruled.ruling, ruled.reason, applied))
        self.outcome = game.outcome(self.state)

    def _set_aside(self, state: Any, event: Mapping[str, Any]) -> tuple[Any, bool]:
        """A move that breaks a rule the table set aside (a ruling, a house rule), and every
        move after it, applies as if legal where the state has a place for it; whether it
        did. The effects are written for legal moves; where one has no meaning in the state
        (a pass while nobody leads, a bid before the first auction, a helper the player does
        not have), or would leave a state the game cannot show or score, the state stays as
        it was: the move counts as logged (and ruled), and changes nothing. Whether it has a
        place is judged on public information first (a ruling is public: whether it applies
        must not turn on a seat's secret)."""
        game = self.game
        try:
            if game.private_events:
                public = game.effect(game.knowing(state, frozenset()), event)
                game.result(public)
                game.view(public, None)
            after = game.effect(state, event)
            game.result(after)
            game.view(after, None)
            return after, True
        except NO_PLACE:
            return state, False

    def _clashes(self, event: Mapping[str, Any], sight: Sight, public: bool) -> None:
        """What the whole truth says against an event judged legal (for `sight.everything`),
        and a clash of a `public` event as each seat's (team's) own records show it, where
        they show one: telling it that tells it nothing new. (A clash of a private event
        involves another seat's records, which its author may not learn: the host's alone.)
        For a seat's sight only the views of its own team are looked for, and the truth only
        where they show a clash: what that costs turns on its own records, not another's."""
        game, state, seq = self.game, self.state, event["seq"]
        truth = game.first_broken(state, event, self.off) if sight.everything else None
        if truth is not None:
            self.clashes.append((seq, truth))
        if not public or (sight.everything and truth is None):
            return
        groups = dict.fromkeys(game.sharing(state, seat) for seat in range(len(self.fold.header.seats)))
        for group in groups if sight.everything else [g for g in groups if not g.isdisjoint(sight.seats)]:
            seen = game.first_broken(game.knowing(state, group), event, self.off)
            if seen is not None and (truth is not None or game.first_broken(state, event, self.off) is not None):
                self.clash_views.append((seq, replace(seen, audience=group)))

    def _table_event(self, event: Mapping[str, Any], kind: str) -> None:
        """The table's own events (void, note, pause, resume, end, ruling), and any event after the end."""
        if kind == "void":
            flag = void_error(event, self.void_seqs)
            self.void_seqs.add(event["seq"])
        elif kind == "note" or (kind == "ruling" and self.official):
            flag = None
        elif kind == "ruling":
            flag = self._ruling_error(event)
        elif self.outcome is not None:  # a pause or resume too: the game's playing time is over
            flag = broken("core.game.over", "The game is over (%(reason)s); only notes, voids and rulings can follow.", reason=Word(self.outcome.reason, self.outcome.reason))
        elif kind in ("pause", "resume"):
            flag = pause_error(kind, self.paused)
            self.paused = self.paused if flag else kind == "pause"
        else:  # an `end`
            flag, self.outcome = None, Outcome(Termination.TABLE_END, event.get("reason") or "the table ended the game")
        if flag is not None:
            self.violations.append((event["seq"], flag))

    def _ruling_error(self, event: Mapping[str, Any]) -> Violation | None:
        """Why a ruling cannot let its target stand, or None (rule core.ruling.target)."""
        target, seq = event["target"], event["seq"]
        if any(ruled.seq == target and ruled.ruling == seq for ruled in self.ruled):
            return None
        kind = self.rulings.get(target, (0, "", ""))[2]
        if target < 1:
            reason = "This ruling cannot let event %(target)s stand: the header is not a move."
        elif target >= seq:
            reason = "This ruling cannot let event %(target)s stand: event %(target)s comes after this ruling."
        elif kind in TABLE_EVENTS:
            return broken("core.ruling.target", "This ruling cannot let event %(target)s stand: event %(target)s is a %(kind)s, not a player's move.",
                          target=target, kind=Phrase(kind))
        elif kind in self.game.private_events:
            reason = "This ruling cannot let event %(target)s stand: event %(target)s is a private record; only its seat may know whether it was flagged."
        elif any(ruled.seq == target for ruled in self.ruled):
            reason = "This ruling cannot let event %(target)s stand: event %(target)s was let stand already."
        elif any(w.seq == target for w in self.withdrawn):
            reason = "This ruling cannot let event %(target)s stand: event %(target)s was voided."
        elif target not in self.rulings:
            reason = "This ruling cannot let event %(target)s stand: event %(target)s cannot be ruled."
        elif any(flagged == target and flag.rule.startswith("core.") for flagged, flag in self.violations):
            reason = "This ruling cannot let event %(target)s stand: event %(target)s came after the end of the game: void the end instead."
        else:
            reason = "This ruling cannot let event %(target)s stand: event %(target)s is legal where it stands."
        return broken("core.ruling.target", reason, target=target)

    def skip(self, seq: int, flag: Violation | None, voided_by: int) -> None:
        """Pass over a withdrawn event: the state stays, its flag from when it was logged is kept."""
        self.withdrawn.append(Withdrawn(seq, flag, voided_by))
        self.seq = seq


def step(fold: Fold, event: Mapping[str, Any], find_clashes: Sight | None = EVERYTHING, official: bool = False) -> Fold:
    """Fold one event onto a fold (a ruling of an earlier event needs a replay: `rewrites`)."""
    folding = _Folding(fold, find_clashes, official=official)
    folding.step(event)
    return folding.frozen()


def flagged_by_void(header: Header, events: Sequence[Mapping[str, Any]], now: Fold, target: int) -> list[tuple[int, Violation]]:
    """The later moves a void of `target` would flag (a void says so before it is confirmed):
    the record replayed with the void, its standing flags less those standing `now`."""
    void = {"seq": now.seq + 1, "type": "void", "target": target, "reason": ""}
    before = {seq for seq, _ in now.violations}
    after = replay(header, [*events, void], find_clashes=None)
    return [(seq, violation) for seq, violation in after.violations if seq not in before and seq < void["seq"]]


def replay(
    header: Header,
    events: Sequence[Mapping[str, Any]],
    upto: int | None = None,
    since: Fold | None = None,
    snapshots: list[Fold] | None = None,
    every: int = 0,
    find_clashes: Sight | None = EVERYTHING,
    official: bool = False,
) -> Fold:
    """Fold a record (up to seq `upto`), voids and rulings applied.

    `since` is a snapshot: the fold of this record's first events, which no void or ruling
    in `events` (the events after it) reaches back to; replay goes on from there. Every
    `every` events the fold reached is added to `snapshots`, unless a later void or ruling
    reaches back before it: a snapshot is the game exactly as it stood then.
    `find_clashes`: the clashes of whoever may know everything, and every seat's view of
    them (EVERYTHING: the CLI, the host); only those a seat's own records show (its
    sight); or none (None: a fold whose cost then does not depend on whether the secrets
    clash, as a table answers a move). `official`: as the
    official rules judge it, without the table's house rules and rulings.
    """
    if upto is not None:
        events = [event for event in events if event["seq"] <= upto]
    with cycle_collector_paused():
        return _replay(header, events, since, snapshots, every, find_clashes, official)


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """A replay makes many small tuples and no reference cycles: the cycle collector would
    run dozens of times for nothing (about a sixth of a long Karriere Poker replay)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _replay(header: Header, events: Sequence[Mapping[str, Any]], since: Fold | None, snapshots: list[Fold] | None, every: int,
            find_clashes: Sight | None, official: bool) -> Fold:
    fold = since or start(header)
    targets = valid_void_targets(events, fold.void_seqs)
    rulings = {} if official else ruling_targets(events, targets)
    folding = _Folding(fold, find_clashes, rulings, official)
    if not targets and not (snapshots is not None and every):  # the common case: fold straight on
        for event in events:
            folding.step(event)
        return folding.frozen()
    reaching = {**targets, **{target: ruling[0] for target, ruling in rulings.items()}}  # what a later event changes
    for index, event in enumerate(events):
        seq = event["seq"]
        if seq not in targets:
            folding.step(event)
        else:
            # Judged where it stood when it was logged: a later void of an earlier event
            # changes what came before it, so then the record up to it is replayed alone.
            rewritten = any(target < seq < void for target, void in targets.items())
            logged = (replay(header, events[: index + 1], since=since, find_clashes=find_clashes, official=official) if rewritten
                      else step(folding.frozen(), event, find_clashes, official))
            folding.skip(seq, logged.violation_at(seq), targets[seq])
        if snapshots is not None and every and seq % every == 0 and not any(t <= seq < v for t, v in reaching.items()):
            snapshots.append(folding.frozen())  # the game as it stood then: no later void or ruling reaches back
    return folding.frozen()


def rewrites(fold_before: Fold, event: Mapping[str, Any]) -> bool:
    """A void that withdraws an event, or a ruling of an earlier event: what came after
    its target is judged anew, so the cached fold must be rebuilt from before it."""
    if event["type"] == "ruling":
        return 1 <= event["target"] < event["seq"]
    return event["type"] == "void" and void_error(event, fold_before.void_seqs) is None


def applied_events(fold: Fold, events: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The game's own events that the fold took in: neither flagged nor withdrawn, up to its seq."""
    skipped = {seq for seq, _ in fold.violations} | {w.seq for w in fold.withdrawn}
    return [e for e in events if e["seq"] <= fold.seq and e["seq"] not in skipped and e["type"] not in TABLE_EVENTS]


def explain(fold: Fold, events: Iterable[Mapping[str, Any]], sight: Sight = EVERYTHING) -> dict[str, list[dict[str, Any]]] | None:
    """Why each player has his score (`Game.explain`), or None where this reader is shown no result."""
    if result_hidden(fold, sight):
        return None
    return fold.game.explain(fold.known_state(sight), applied_events(fold, events))


def plain_explain(told: dict[str, list[dict[str, Any]]] | None) -> dict[str, list[dict[str, Any]]] | None:
    """`explain` as the contract shows it: points, the English why and the seqs (a phone's
    wording, `said`, stays with the pages)."""
    if told is None:
        return None
    return {name: [{"points": item["points"], "why": item["why"], "seqs": item["seqs"]} for item in items] for name, items in told.items()}


def report(fold: Fold, event_count: int | None = None, sight: Sight = EVERYTHING,
           events: Sequence[Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The CLI's `--json` object (DESIGN.md), also served by the API, as `sight` may read it:
    flags it may not read are left out (a withdrawn one keeps its seq and void, with no
    rule), and the state and result are worked out from what it may know. With the
    record's `events`, it also says why each player has his score (`explain`)."""
    result = None if result_hidden(fold, sight) else fold.result(sight)
    told = {} if events is None else {"explain": plain_explain(explain(fold, events, sight))}
    return {
        "game": fold.header.game,
        "events": fold.seq if event_count is None else event_count,
        "finished": fold.outcome is not None,
        "outcome": None
        if fold.outcome is None
        else {"termination": fold.outcome.termination.value, "reason": fold.outcome.reason},
        "violations": [{"seq": seq, **flag_json(flag)} for seq, flag in fold.violations if sight.sees(flag.audience)],
        "voided": sorted(fold.voided),
        "withdrawn": [
            {"seq": w.seq, **flag_json(w.flag, sight), "voided_by": w.voided_by} for w in fold.withdrawn
        ],
        "clashes": [{"seq": seq, **flag_json(clash)} for seq, clash in fold.clashes_for(sight)],
        "ruled": [{"seq": r.seq, **flag_json(r.flag), "ruling": r.ruling, "reason": r.reason, **({} if r.applied else {"applied": False})}
                  for r in fold.ruled],
        "scores": None if result is None else result.scores,
        "ranking": None if result is None else result.ranking,
        "winners": None if result is None else result.winners,
        "ended_early": None if result is None else result.ended_early,
        "result": None if result is None else result.detail,
        **told,
    }


def result_hidden(fold: Fold, sight: Sight) -> bool:
    """Whether this reader is shown no result yet: a score table that tells what players
    hold (Game.result_is_private), or the end of a game with secrets before the host has
    revealed them (the winner may turn on a secret, unless Game.outcome_is_public)."""
    game = fold.game
    return not sight.everything and (game.result_is_private or (fold.outcome is not None and bool(game.private_events) and not game.outcome_is_public))


def flag_json(violation: Violation | None, sight: Sight = EVERYTHING) -> dict[str, str | None]:
    """A flag as the contract shows it; none (as for a legal event) for a reader who may not read it."""
    if violation is None or not sight.sees(violation.audience):
        return {"rule": None, "message": None}
    return {"rule": violation.rule, "message": violation.message}
