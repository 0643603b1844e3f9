"""Replay: fold a record's events through its game, flagging and skipping illegal ones.

Semantics (DESIGN.md): an event that breaks a rule stays in the log, is reported, and the
state is as if it had not happened. A valid `void` withdraws its target: replay behaves as
if the target had never been logged and re-judges everything after it. The target is
still judged, against the state where it stood, so its flag is kept in the report (the
history shows what was wrong and that it was withdrawn). Decisions where DESIGN.md is
silent: a `void` is a correction, not a move, so it is accepted after the game is over;
a second void of the same target is harmless and accepted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .games.base import Game, Outcome, Result, Termination, Violation
from .record import Header

CORE_RULES = {
    "core.void.target": "a void targets the header, a void, or a later or nonexistent seq",
    "core.game.over": "any event after the game has finished",
}


@dataclass(frozen=True)
class Fold:
    """Where a game stands after the events up to `seq`."""

    header: Header
    game: Game[Any]
    state: Any
    seq: int = 0
    outcome: Outcome | None = None
    violations: tuple[tuple[int, Violation], ...] = ()
    voided: tuple[int, ...] = ()
    void_seqs: frozenset[int] = frozenset()

    def violation_at(self, seq: int) -> Violation | None:
        for flagged_seq, violation in reversed(self.violations):
            if flagged_seq == seq:
                return violation
        return None

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.game.view(self.state, seat, self.outcome)

    def result(self) -> Result:
        return self.game.result(self.state, self.outcome)


def start(header: Header) -> Fold:
    """The fold before the first event."""
    game = header.rules
    options = game.load_options(header.options)
    return Fold(header, game, game.initial(header.seats, options))


def void_error(event: Mapping[str, Any], void_seqs: frozenset[int]) -> Violation | None:
    """Why a void cannot withdraw its target, or None (rule core.void.target)."""
    target = event["target"]
    if target < 1:
        reason = "the header cannot be voided"
    elif target >= event["seq"]:
        reason = f"event {target} comes after this void"
    elif target in void_seqs:
        reason = f"event {target} is itself a void"
    else:
        return None
    return Violation("core.void.target", f"This void cannot withdraw event {target}: {reason}.")


def valid_void_targets(events: Iterable[Mapping[str, Any]]) -> frozenset[int]:
    """The seqs withdrawn by valid voids: known before folding, so replay is one pass."""
    voids: set[int] = set()
    targets = set()
    for event in events:
        if event["type"] == "void":
            if void_error(event, frozenset(voids)) is None:
                targets.add(event["target"])
            voids.add(event["seq"])
    return frozenset(targets)


def judge(fold: Fold, event: Mapping[str, Any]) -> Violation | tuple[Any, Outcome | None]:
    """The first rule the event breaks (core rules first), or the state and outcome after it."""
    kind = event["type"]
    if kind == "void":
        return void_error(event, fold.void_seqs) or (fold.state, fold.outcome)
    if fold.outcome is not None:
        return Violation("core.game.over", f"The game is over ({fold.outcome.reason}); nothing more can be logged.")
    if kind == "note":
        return fold.state, fold.outcome
    if kind == "end":
        reason = event.get("reason") or "the table ended the game"
        return fold.state, Outcome(Termination.TABLE_END, reason)
    after = fold.game.apply(fold.state, event)
    if isinstance(after, Violation):
        return after
    return after, fold.game.outcome(after)


def step(fold: Fold, event: Mapping[str, Any], voided: bool = False) -> Fold:
    """Fold one event; a flagged or voided event leaves the game state as it was."""
    seq = event["seq"]
    judged = judge(fold, event)
    state, outcome, violations = fold.state, fold.outcome, fold.violations
    if isinstance(judged, Violation):
        violations = (*violations, (seq, judged))
    elif not voided:
        state, outcome = judged
    return Fold(
        fold.header,
        fold.game,
        state,
        seq,
        outcome,
        violations,
        (*fold.voided, seq) if voided else fold.voided,
        fold.void_seqs | {seq} if event["type"] == "void" else fold.void_seqs,
    )


def replay(header: Header, events: Sequence[Mapping[str, Any]], upto: int | None = None) -> Fold:
    """Fold a whole record (up to seq `upto`), voids applied."""
    if upto is not None:
        events = [event for event in events if event["seq"] <= upto]
    withdrawn = valid_void_targets(events)
    fold = start(header)
    for event in events:
        fold = step(fold, event, voided=event["seq"] in withdrawn)
    return fold


def is_valid_void(fold_before: Fold, event: Mapping[str, Any]) -> bool:
    """A void that withdraws an event: the cached fold must then be rebuilt."""
    return event["type"] == "void" and void_error(event, fold_before.void_seqs) is None


def report(fold: Fold, event_count: int | None = None) -> dict[str, Any]:
    """The CLI's `--json` object (DESIGN.md), also served by the API."""
    result = fold.result()
    return {
        "game": fold.header.game,
        "events": fold.seq if event_count is None else event_count,
        "finished": fold.outcome is not None,
        "outcome": None
        if fold.outcome is None
        else {"termination": fold.outcome.termination.value, "reason": fold.outcome.reason},
        "violations": [
            {"seq": seq, "rule": violation.rule, "message": violation.message}
            for seq, violation in fold.violations
        ],
        "voided": sorted(fold.voided),
        "scores": result.scores,
        "ranking": result.ranking,
        "result": result.detail,
    }
