"""One contract test over every registered game, and the golden sample records of events/."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from conftest import EVENTS_DIR

from referee.games import GAMES
from referee.games.base import Game
from referee.record import RecordError, parse_header, read_record, write_record
from referee.replay import replay, report, start
from referee.store import Store
from referee.tables import Tables

SAMPLES = sorted(EVENTS_DIR.glob("*.jsonl"))
GAMES_DIR = Path(__file__).resolve().parent.parent / "referee" / "games"
FORBIDDEN_IMPORTS = {"flask", "sqlite3", "sqlite_utils", "os", "io", "pathlib", "socket", "subprocess", "shutil", "requests"}


def test_every_game_has_sample_records() -> None:
    games_with_samples = {read_record(path.read_text(encoding="utf-8")).header.game for path in SAMPLES}
    assert games_with_samples == set(GAMES)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_record_replays_to_its_expected_output(path: Path) -> None:
    record = read_record(path.read_text(encoding="utf-8"))
    expected = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert report(replay(record.header, record.events), events=record.events) == expected


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_record_is_canonical(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    record = read_record(text)
    assert write_record(record.header, record.events) == text


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_cached_state_agrees_with_full_replay_after_every_event(path: Path, tables: Tables) -> None:
    record = read_record(path.read_text(encoding="utf-8"))
    game = tables.create(record.header)
    for event in record.events:
        appended = tables.append(game, {k: v for k, v in event.items() if k != "seq"})
        full = replay(record.header, record.events[: event["seq"]])
        assert appended.fold == full, f"seq {event['seq']}"


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_an_imported_record_exports_byte_identical(path: Path, store: Store) -> None:
    text = path.read_text(encoding="utf-8")
    game = Tables(store).import_record(read_record(text))
    assert write_record(store.header(game), store.events(game)) == text
    assert store.verify() == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_replay_is_deterministic(name: str) -> None:
    for path in SAMPLES:
        record = read_record(path.read_text(encoding="utf-8"))
        if record.header.game == name:
            assert report(replay(record.header, record.events)) == report(replay(record.header, record.events))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_header_validation_knows_each_games_player_counts_and_options(name: str) -> None:
    game = GAMES[name]
    seats = [f"P{i}" for i in range(game.max_players + 1)]
    for count in (game.min_players, game.max_players):
        header = parse_header({"format": "table-record/1", "game": name, "seats": seats[:count], "options": {}})
        assert start(header).seq == 0
    for count in (game.min_players - 1, game.max_players + 1):
        with pytest.raises(RecordError, match="players"):
            parse_header({"format": "table-record/1", "game": name, "seats": seats[:count], "options": {}})
    with pytest.raises(RecordError, match="options.no_such_option: Unknown field"):
        parse_header({"format": "table-record/1", "game": name, "seats": seats[: game.min_players],
                      "options": {"no_such_option": 1}})


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_names_its_rules_facts_and_event_handlers(name: str) -> None:
    game = GAMES[name]
    prefix = {"karriere-poker": "kp.", "employee-of-the-month": "eotm.", "ftw": "ftw.", "senators": "sen.", "ladies-and-gentlemen": "lg."}[name]
    assert game.rules and all(rule.startswith(prefix) for rule in game.rules)
    assert set(game.handlers()) == set(game.events)
    assert game.title and game.min_players <= game.max_players
    # A game with private events says how its state looks without them (Game.knowing).
    assert game.private_events <= set(game.events)
    assert bool(game.private_events) == (type(game).knowing is not Game.knowing)


@pytest.mark.parametrize("module", sorted(GAMES_DIR.glob("*.py")), ids=lambda p: p.name)
def test_game_modules_do_no_io(module: Path) -> None:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in {"open", "print", "input"}, f"{module.name} calls {node.func.id}()"
    assert not imported & FORBIDDEN_IMPORTS, f"{module.name} imports {imported & FORBIDDEN_IMPORTS}"


@pytest.mark.parametrize("path", [p for p in SAMPLES if "flags" in p.stem], ids=lambda p: p.stem)
def test_a_void_replayed_from_a_snapshot_agrees_with_full_replay(path: Path, store: Store) -> None:
    # Snapshots every 3 events: each void goes on from the last snapshot before its target.
    tables = Tables(store, snapshot_every=3)
    record = read_record(path.read_text(encoding="utf-8"))
    game = tables.create(record.header)
    for event in record.events:
        appended = tables.append(game, {k: v for k, v in event.items() if k != "seq"})
        assert appended.fold == replay(record.header, record.events[: event["seq"]]), f"seq {event['seq']}"
    kept = [seq for (seq,) in store.db.execute("SELECT seq FROM snapshots WHERE game = ? ORDER BY seq", [game])]
    voids = {event["seq"] for event in record.events if event["type"] == "void"}
    assert kept and all(seq % 3 == 0 or seq in voids for seq in kept)
    for seq in kept:  # each snapshot is the game exactly as it stood then
        assert tables._snapshot(game, record.header, seq + 1) == replay(record.header, record.events[:seq])
    cold = Tables(Store(store.path), snapshot_every=3)  # a restart: goes on from the latest snapshot
    assert cold.fold(game) == appended.fold
    for seq in range(1, len(record.events) + 1):  # History: the table as it stood
        assert cold.fold_at(game, seq) == replay(record.header, record.events[:seq]), f"seq {seq}"


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_view_names_who_the_table_waits_for(path: Path) -> None:
    # After every event of every sample, `to_act` lists seat names (none twice), and nobody
    # is waited for once the game is over. (Who exactly: each game's own tests.)
    record = read_record(path.read_text(encoding="utf-8"))
    names = list(record.header.seats)
    for upto in range(len(record.events) + 1):
        fold = replay(record.header, record.events[:upto])
        view = fold.game.view(fold.state, None, fold.outcome)
        waiting = view["to_act"]
        assert isinstance(waiting, list) and len(set(waiting)) == len(waiting) and set(waiting) <= set(names), (upto, waiting)
        if fold.outcome is not None:
            assert waiting == [], upto
