"""Shared fixtures and the helpers that let tests read as stories of a table."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.record import Header, parse_event
from referee.replay import Fold, replay
from referee.store import Store
from referee.tables import Tables
from referee.web import create_app

EVENTS_DIR = Path(__file__).resolve().parent.parent / "events"


def table(game: str, seats: str | list[str], options: Mapping[str, Any] | None = None) -> Header:
    """A header: `table("karriere-poker", "Anna Ben Cem Dora")`."""
    names = seats.split() if isinstance(seats, str) else seats
    return Header(game, tuple(names), dict(options or {}))


def events(header: Header, *bodies: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Number and check event bodies as the record reader would."""
    return [parse_event(header, {**body, "seq": seq}, seq) for seq, body in enumerate(bodies, start=1)]


def play_out(header: Header, *bodies: Mapping[str, Any]) -> Fold:
    """Replay event bodies at a table."""
    return replay(header, events(header, *bodies))


def flags(fold: Fold) -> dict[int, str]:
    """seq -> rule id of every flagged event."""
    return {seq: violation.rule for seq, violation in fold.violations}


def last_flag(fold: Fold) -> str | None:
    """The rule broken by the last event, or None when it was legal."""
    violation = fold.violation_at(fold.seq)
    return None if violation is None else violation.rule


def told_of_clash(fold: Fold) -> set[int]:
    """The seats told of the last event's clash before the reveal (as their own records show it)."""
    return {seat for seq, view in fold.clash_views if seq == fold.seq for seat in view.audience or ()}


def last_clash(fold: Fold) -> str | None:
    """The rule the whole truth (private records included) says the last event breaks,
    where it was judged legal on what its author may know; None when nothing clashes."""
    clash = fold.clash_at(fold.seq)
    return None if clash is None else clash.rule


@pytest.fixture
def store(tmp_path: Path) -> Store:
    """A real SQLite file in a temporary folder."""
    return Store(tmp_path / "referee.sqlite3")


@pytest.fixture
def tables(store: Store) -> Tables:
    return Tables(store)


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    """The real app on a real SQLite file; forms without CSRF tokens (tested on their own)."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "pages.sqlite3"), "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


_skipped: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """In CI a skipped test is a failure: nothing may silently not run."""
    if os.environ.get("CI") and _skipped:
        print(f"\nCI: {len(_skipped)} test(s) were skipped, which CI does not allow: {_skipped[:5]}")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
