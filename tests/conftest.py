"""Shared fixtures and the helpers that let tests read as stories of a table."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from postgres import Cluster

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


def stood(how: str, rule: str, header: Header, before: list[dict[str, Any]], move: dict[str, Any], *after: dict[str, Any]) -> Fold:
    """`move`, logged after `before`, breaks `rule` (checked); the table lets it stand, `how`:
    by a "ruling" logged right after it, or by a "house rule" that turns `rule` off. Then `after`."""
    assert last_flag(play_out(header, *before, move)) == rule
    if how == "ruling":
        return play_out(header, *before, move, {"type": "ruling", "target": len(before) + 1, "reason": "we agreed"}, *after)
    return play_out(Header(header.game, header.seats, header.options, house_rules=(rule,)), *before, move, *after)


def house(header: Header, *off: str) -> Header:
    """The same table playing with the rules `off` turned off (its `house_rules`)."""
    return Header(header.game, header.seats, header.options, house_rules=off)


def told_of_clash(fold: Fold) -> set[int]:
    """The seats told of the last event's clash before the reveal (as their own records show it)."""
    return {seat for seq, view in fold.clash_views if seq == fold.seq for seat in view.audience or ()}


def last_clash(fold: Fold) -> str | None:
    """The rule the whole truth (private records included) says the last event breaks,
    where it was judged legal on what its author may know; None when nothing clashes."""
    clash = fold.clash_at(fold.seq)
    return None if clash is None else clash.rule


# The tests of these modules run on both stores: each test that opens one (through the
# `database` fixture: `store`, `tables`, `app`, `client`; `new_database` for a property's
# examples) once on a SQLite file and once on a PostgreSQL database of a throwaway cluster
# (tests/postgres.py). The privacy tests take PostgreSQL in a file of their own, so that
# the second worker runs them beside the first.
BACKENDS = {**dict.fromkeys(("test_store", "test_tables", "test_stats", "test_api", "test_groups", "test_group_files", "test_live", "test_host_player",
                                "test_seat_moves"),
                            ("sqlite", "postgresql")),
            "test_privacy_on_postgresql": ("postgresql",)}


# The longest test files, longest first: the two workers take a file at a time in this
# order, so the long ones start at once and the short ones fill in around them (in
# collection order the privacy properties came last and one worker ran them alone).
LONGEST_FIRST = ("test_privacy_on_postgresql", "test_privacy", "test_browser_one_tap", "test_browser_at_the_table", "test_bench",
                 "test_browser_groups", "test_failover", "test_board", "test_group_files", "test_browser_group_evening",
                 "test_browser_themes", "test_browser", "test_turn_bar", "test_browser_database_away", "test_browser_table_walk")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.module.__name__ if item.module else "", len(rank)))  # stable: the rest in order


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    for name in ("database", "new_database"):
        if name in metafunc.fixturenames and metafunc.module.__name__ in BACKENDS:
            metafunc.parametrize(name, BACKENDS[metafunc.module.__name__], indirect=True)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Cluster]:
    cluster = Cluster()
    yield cluster
    cluster.stop()


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Where the test's store lives: a real SQLite file in a temporary folder, or (for the
    modules of BACKENDS) a new PostgreSQL database."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return str(tmp_path / "referee.sqlite3")
    monkeypatch.setenv("REFEREE_SECRET_KEY_FILE", str(tmp_path / "secret_key"))
    cluster: Cluster = request.getfixturevalue("postgres")
    return cluster.new_database()


def query(address: str, sql: str) -> list[tuple[Any, ...]]:
    """Rows of a store's database read past the app (a plain connection of its backend)."""
    if address.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(address) as connection:
            return list(connection.execute(sql).fetchall())
    with sqlite3.connect(address) as connection:
        return list(connection.execute(sql).fetchall())


def everything_stored(address: str) -> str:
    """Every row of every table of a store, as text (to look for what must not be there)."""
    if not address.startswith("postgresql://"):
        with sqlite3.connect(address) as connection:
            return "\n".join(connection.iterdump())
    tables = [row[0] for row in query(address, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")]
    return "\n".join(str(row[0]) for table in tables for row in query(address, f"SELECT t::text FROM {table} t"))


def table_count(address: str, table: str) -> int:
    """How many rows a table of a store holds (0 where the table is not made yet)."""
    try:
        return int(query(address, f"SELECT COUNT(*) FROM {table}")[0][0])
    except Exception as error:  # no such table (either backend's own error)
        if "no such table" in str(error) or "does not exist" in str(error):
            return 0
        raise


def raw(store: Store, *statements: str) -> None:
    """Statements through a plain connection of the store's backend, past the app (an
    attacker with the database's file or password), each committed."""
    if store.db.kind == "sqlite":
        connection = sqlite3.connect(store.path, isolation_level=None)
    else:
        import psycopg

        connection = psycopg.connect(store.path, autocommit=True)  # type: ignore[assignment]
    try:
        for statement in statements:
            connection.execute(statement)
    finally:
        connection.close()


def drop_trigger(store: Store, name: str) -> str:
    """The statement that drops one of the store's append-only triggers."""
    table = "events" if name.startswith("events") else "games"
    return f"DROP TRIGGER {name}" + ("" if store.db.kind == "sqlite" else f" ON {table}")


@pytest.fixture
def new_database(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], str]:
    """Makes a new store's address for each call (a property test's examples): a SQLite
    file named after its argument, or (BACKENDS) a new PostgreSQL database."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return lambda name: str(tmp_path / f"{name}.sqlite3")
    monkeypatch.setenv("REFEREE_SECRET_KEY_FILE", str(tmp_path / "secret_key"))
    cluster: Cluster = request.getfixturevalue("postgres")
    return lambda name: cluster.new_database()


@pytest.fixture
def store(database: str) -> Store:
    return Store(database)


@pytest.fixture
def tables(store: Store) -> Tables:
    return Tables(store)


@pytest.fixture
def app(database: str) -> Flask:
    """The real app on a real store; forms without CSRF tokens (tested on their own)."""
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})


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
