"""Scores that explain themselves: `explain` gives, per player with a score, items whose
points add up exactly to that score, each naming the events behind it. Checked on every
sample and on random finished games of every game with points."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import EVENTS_DIR
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.record import read_record
from referee.replay import explain, replay
from referee.simulate import employee_of_the_month, ftw_game, ladies_gentlemen_game, senators_game

NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay", "Gus"]


def assert_adds_up(header: object, events: list[dict[str, object]]) -> dict[str, list[dict[str, object]]]:
    fold = replay(header, events)  # type: ignore[arg-type]
    scores = fold.result().scores
    told = explain(fold, events)
    assert told is not None and set(told) == set(scores)
    seqs = {e["seq"] for e in events}
    for name, items in told.items():
        assert sum(item["points"] for item in items) == scores[name], (name, items)  # type: ignore[misc]
        for item in items:
            assert isinstance(item["why"], str) and item["why"] and set(item["seqs"]) <= seqs, item  # type: ignore[arg-type]
    return told


@pytest.mark.parametrize("path", sorted(EVENTS_DIR.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_samples_explanation_adds_up_to_its_scores(path: Path) -> None:
    record = read_record(path.read_text(encoding="utf-8"))
    assert_adds_up(record.header, record.events)


@settings(max_examples=10, deadline=None)
@given(game=st.sampled_from(["eotm", "ftw", "senators", "lg"]), players=st.integers(3, 7), seed=st.integers(0, 2**32))
def test_a_random_finished_games_explanation_adds_up_to_its_scores(game: str, players: int, seed: int) -> None:
    if game == "eotm":
        header, events = employee_of_the_month(NAMES[: min(players, 6)], seed)
    elif game == "ftw":
        header, events = ftw_game(NAMES[: min(players, 6)], seed)
    elif game == "senators":
        header, events = senators_game(NAMES[: min(players, 5)], seed)
    else:
        header, events = ladies_gentlemen_game(NAMES[: max(players, 4)], seed, gossip=True)
    assert replay(header, events).outcome is not None
    assert_adds_up(header, events)


def test_why_anna_has_her_senators_in_the_record_and_on_the_scores_page(client: object) -> None:
    # senators-3-players: Anna's senators item by item, as `referee replay --json` says them.
    from click.testing import CliRunner

    path = EVENTS_DIR / "senators-3-players.jsonl"
    shown = json.loads(CliRunner().invoke(main, ["replay", str(path), "--json"]).output)
    anna = shown["explain"]["Anna"]
    assert anna[0] == {"points": 5, "why": "5 senators at the start", "seqs": []}
    assert sum(item["points"] for item in anna) == shown["scores"]["Anna"]
    # The scores page lists the same items, each linked to its events in History.
    game_id = client.post("/import", data={"text": path.read_text(encoding="utf-8")}).headers["Location"].split("/")[2]  # type: ignore[attr-defined]
    page = client.get(f"/g/{game_id}/result").get_data(as_text=True)  # type: ignore[attr-defined]
    assert 'id="explain"' in page and "5 senators at the start" in page
    linked = next(item for item in anna if item["seqs"])
    assert f'/g/{game_id}/history?at={linked["seqs"][0]}' in page
