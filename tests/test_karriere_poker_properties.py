"""Karriere Poker properties: random legal play is never flagged; broken records never crash."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.record import RecordError, read_record, write_record
from referee.replay import replay, report
from referee.simulate import karriere_poker

NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay", "Gus", "Hal"]


@settings(max_examples=40, deadline=None)
@given(players=st.integers(4, 8), games=st.integers(1, 3), seed=st.integers(0, 2**32), hands=st.booleans())
def test_random_legal_play_is_never_flagged_and_positions_are_a_permutation(
    players: int, games: int, seed: int, hands: bool
) -> None:
    header, events = karriere_poker(NAMES[:players], games, seed, hands)
    fold = replay(header, events)
    assert fold.violations == ()
    assert fold.outcome is not None
    for finish in fold.state.finished:
        assert sorted(finish) == list(range(players))
    assert sorted(name for [name] in report(fold)["ranking"]) == sorted(NAMES[:players])


BASE = karriere_poker(NAMES[:4], 2, seed=11)
CARDS = st.lists(st.one_of(st.integers(1, 13), st.just("J")), min_size=1, max_size=6)


def mutate(events: list[dict[str, Any]], data: st.DataObject) -> list[dict[str, Any]]:
    index = data.draw(st.integers(0, len(events) - 1))
    event = dict(events[index])
    kind = data.draw(st.sampled_from(["seat", "cards", "drop", "duplicate", "swap", "type", "void"]))
    if kind == "seat" and "seat" in event:
        event["seat"] = data.draw(st.integers(0, 3))
    elif kind == "cards" and "cards" in event:
        event["cards"] = data.draw(CARDS)
    elif kind == "drop":
        return events[:index] + events[index + 1 :]
    elif kind == "duplicate":
        return events[: index + 1] + events[index:]
    elif kind == "swap" and index + 1 < len(events):
        return events[:index] + [events[index + 1], events[index]] + events[index + 2 :]
    elif kind == "type":
        event["type"] = data.draw(st.sampled_from(["play", "pass", "deal", "exchange", "hand", "end", "note"]))
    elif kind == "void":
        return events[:index] + [{"type": "void", "target": data.draw(st.integers(-1, len(events) + 1))}] + events[index:]
    return events[:index] + [event] + events[index + 1 :]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_single_changed_event_never_crashes_replay(data: st.DataObject) -> None:
    header, events = BASE
    changed = mutate(list(events), data)
    renumbered = [{**e, "seq": seq} for seq, e in enumerate(changed, start=1)]
    text = write_record(header, renumbered)
    try:
        record = read_record(text)
    except RecordError as error:
        assert error.line is not None and error.line >= 2
        return
    shown = report(replay(record.header, record.events))
    assert shown["events"] == len(changed)
    for flag in shown["violations"]:
        assert flag["rule"].startswith(("kp.", "core.")) and flag["message"]
