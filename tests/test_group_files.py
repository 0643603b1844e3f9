"""A group's file is data from outside, and a group never widens what a member sees.

Hostile files (each case an adversarial member tried) are refused naming the place, never
with a 500 and never with part of a group stored; random mutations of a valid file too. A
file never names a game of the store into a group (the hijack), and a group's export,
CSV, statistics and pages tell a member no more of an unrevealed game than the game does.
"""

from __future__ import annotations

import copy
import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import EVENTS_DIR, table_count
from referee.groups import GroupError, Groups
from referee.record import RecordError, read_record
from referee.store import Store
from referee.tables import Tables
from referee.web import create_app
from test_api import Table, bearer

TOP = Path(__file__).resolve().parent.parent


def record_text(name: str) -> str:
    return (EVENTS_DIR / f"{name}.jsonl").read_text(encoding="utf-8")


def seats_of(name: str) -> list[str]:
    return list(read_record(record_text(name)).header.seats)


def valid_file(names: tuple[str, ...] = ("ftw-3-players", "senators-3-players")) -> dict[str, Any]:
    games = [{"id": f"g{n}", "created_at": "2026-11-20T20:00:00+00:00", "seats": seats_of(name), "record": record_text(name)}
             for n, name in enumerate(names)]
    players = sorted({seat for game in games for seat in game["seats"]})
    return {"format": "table-group/1", "name": "Club", "players": [{"name": p} for p in players], "games": games}


def stored(address: str | Path) -> tuple[int, int]:
    """(groups, games) in a store, read without opening it through the app."""
    return table_count(str(address), "groups"), table_count(str(address), "games")


@pytest.fixture
def app(database: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})


def upload(client: FlaskClient, content: bytes) -> str:
    """Import a group's file on the home page: the flashed refusal, or "" when it was stored."""
    answer = client.post("/groups/import", data={"group": (io.BytesIO(content), "group.json")}, content_type="multipart/form-data")
    assert answer.status_code == 302, answer.status_code  # never a 500
    if "/groups/" in answer.headers["Location"]:
        return ""
    return client.get("/").get_data(as_text=True)


# --- hostile files: each refused naming the place; nothing stored ---------------------------------

def with_game(**changed: Any) -> dict[str, Any]:
    data = valid_file()
    data["games"][1].update(changed)
    return data


HOSTILE: list[tuple[str, Any, str]] = [
    ("a date that is not one", with_game(created_at="x"), "game 2: created_at: &#39;x&#39; is not an ISO 8601 time."),
    ("a path as id", with_game(id="../../etc/passwd"), "game 2: id: &#39;../../etc/passwd&#39; is not a game id"),
    ("a slash", with_game(id="a/b"), "game 2: id: &#39;a/b&#39; is not a game id"),
    ("a quote for a header", with_game(id='q";x="y'), "is not a game id"),
    ("CR LF", with_game(id="a\r\nb"), "is not a game id"),
    ("a trailing newline", with_game(id="ab\n"), "is not a game id"),
    ("NUL", with_game(id="a\x00b"), "is not a game id"),
    ("an option", with_game(id="-rf"), "game 2: id: &#39;-rf&#39; is not a game id"),
    ("a record whose start is not a date",
     with_game(record=record_text("senators-3-players").replace('"seats"', '"started_at": "soon", "seats"', 1)),
     "game 2: line 1: started_at: &#39;soon&#39; is not an ISO 8601 time."),
    ("seats that look alike", with_game(record=record_text("senators-3-players").replace('"Cem"', '"anna"', 1), seats=["Anna", "Ben", "anna"]),
     "differ only in upper and lower case"),
    ("a zero-width name", {**valid_file(), "players": [{"name": "An\u200bna"}]}, "player 1: &#39;An\\u200bna&#39; holds an invisible formatting character"),
    ("a right-to-left override", {**valid_file(), "players": [{"name": "\u202eanna"}]}, "player 1:"),
    ("a NUL in a name", {**valid_file(), "players": [{"name": "A\x00"}]}, "holds a control character"),
    ("only spaces", {**valid_file(), "name": "   "}, "name: a name has 1 to 60 characters (got 0)"),
    ("a merge into nobody", {**valid_file(), "players": [{"name": "Anna", "merged_into": "Zed"}]}, "which is not another player of the file"),
    ("seats of a number", with_game(seats=[1, 2, 3]), "game 2: seats.0: Not a valid string."),
    ("too few seats named", with_game(seats=["Anna"]), "game 2: 3 seats, but 1 players named"),
    ("a record missing", with_game(record=None), "game 2: record: Field may not be null."),
]


@pytest.mark.parametrize(("case", "data", "said"), HOSTILE, ids=[case for case, _, _ in HOSTILE])
def test_a_hostile_group_file_is_refused_naming_the_place_and_stores_nothing(app: Flask, case: str, data: Any, said: str) -> None:
    client = app.test_client()
    page = upload(client, json.dumps(data).encode())
    assert said in page, case
    assert stored(app.config["DATABASE"]) == (0, 0)


@pytest.mark.parametrize(("content", "said"), [
    (b'{"format": "table-group/1", "name": ' + b"[" * 20000 + b"]" * 20000 + b"}", "invalid JSON: nested too deeply"),
    (b'{"format": "table-group/1", "name": "x", "players": [], "games": [], "n": ' + b"9" * 5000 + b"}", "invalid JSON"),
    (b"\xff\xfe not text", "invalid JSON"),
    (b'{"format": "table-group/1", "name": "x", "players": [], "games": [], "extra": 1}', "extra: Unknown field."),
])
def test_a_file_that_is_not_json_or_too_deep_is_refused(app: Flask, content: bytes, said: str) -> None:
    assert said in upload(app.test_client(), content)
    assert stored(app.config["DATABASE"]) == (0, 0)


def mutations() -> st.SearchStrategy[Any]:
    leaves = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=False), st.text(max_size=12),
                       st.sampled_from(["2026-13-01", "../x", "-rf", "table-group/1", "Anna", "", "\u202e", "J"]))
    return st.recursive(leaves, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)), max_leaves=6)


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*prefix, index))
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_random_mutations_of_a_valid_file_are_never_a_500_and_never_a_partial_group(app: Flask, data: st.DataObject) -> None:
    original = valid_file()
    mutated = copy.deepcopy(original)
    where = data.draw(st.sampled_from(paths(mutated)[1:]))
    parent = mutated
    for key in where[:-1]:
        parent = parent[key]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = data.draw(mutations())
    before = stored(app.config["DATABASE"])
    refusal = upload(app.test_client(), json.dumps(mutated).encode())
    groups, games = stored(app.config["DATABASE"])
    if refusal:
        assert (groups, games) == before  # nothing of it stored
    else:
        recorded = [game for game in mutated["games"] if game.get("unrevealed") is not True]
        assert groups == before[0] + 1 and games == before[1] + len(recorded)  # the whole group


# --- a file never names a game of this store into a group ------------------------------------------


def test_a_group_file_that_names_a_fresh_game_cannot_pull_it_into_a_strangers_group(app: Flask) -> None:
    host = app.test_client()
    table = Table(host, {"game": "ftw", "seats": ["Anna", "Ben", "Cem"], "started_at": "2026-11-26T20:00:00+00:00"}, claim=(0,))
    header = host.get(f"/api/games/{table.id}/record", headers=bearer(table.host)).get_data(as_text=True)
    stranger = app.test_client()
    upload(stranger, json.dumps({"format": "table-group/1", "name": "Mine now", "players": [],
                                 "games": [{"id": table.id, "seats": ["Anna", "Ben", "Cem"], "record": header}]}).encode())
    groups = app.extensions["referee"].groups
    assert groups.group_of(table.id) is None  # the real game is in no group
    table.log({"type": "hand", "seat": 0, "cards": list(range(1, 13))}, table.seats[0])
    [mine] = groups.named()
    export = stranger.get(f"/groups/{mine['id']}/export").json
    assert [game["id"] for game in export["games"]] != [table.id] and "hand" not in json.dumps(export)
    # The host can still put the game into his own group.
    host.post("/groups", data={"name": "Family"})
    family = next(g for g in groups.named() if g["name"] == "Family")
    host.set_cookie("referee_token", table.host, path=f"/g/{table.id}")
    host.post(f"/g/{table.id}/host/group", data={"group": family["id"]})
    assert groups.group_of(table.id) == family["id"]


# --- the export, CSV and pages tell a member no more than the game does --------------------------

SECRETS = {
    "karriere-poker": ({"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"]},
                       [{"type": "deal", "dealer": 3}, {"type": "hand", "seat": 0, "cards": [1, 2, 2, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13]}]),
    "ftw": ({"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}, [{"type": "hand", "seat": 0, "cards": list(range(1, 13))}]),
    "senators": ({"game": "senators", "seats": ["Anna", "Ben", "Cem"]}, [{"type": "hand", "seat": 0, "cards": ["red-7", "blue-1", "green-2"]}]),
    "ladies-and-gentlemen": ({"game": "ladies-and-gentlemen", "seats": ["Anna", "Ben", "Cem", "Dora"]},
                             [{"type": "day", "n": 1}, {"type": "income", "seat": 1, "amount": 300, "reason": "market"}]),
}


@pytest.mark.parametrize("game", sorted(SECRETS))
def test_a_members_export_holds_no_unrevealed_secret(app: Flask, game: str, tmp_path: Path) -> None:
    header, moves = SECRETS[game]
    host = app.test_client()
    host.post("/groups", data={"name": "Club"})
    [club] = app.extensions["referee"].groups.named()
    made = host.post("/new", data={"game": game, "seats": "\n".join(header["seats"]), "group": club["id"]})
    game_id = made.headers["Location"].split("/")[2]
    tables = app.extensions["referee"].tables
    for move in moves:
        tables.append(game_id, {**move, "by": "host"})
    tables.append(game_id, {"type": "end", "reason": "time", "by": "host"})  # over, but the host has not revealed it
    member = app.test_client()
    member.get(f"/groups/join/{club['code']}")
    text = member.get(f"/groups/{club['id']}/export").get_data(as_text=True)
    [entry] = json.loads(text)["games"]
    assert entry == {"id": game_id, "created_at": entry["created_at"], "seats": header["seats"], "game": game, "unrevealed": True}
    assert member.get(f"/groups/{club['id']}/plays.csv").get_data(as_text=True).count("\n") == 1  # the header line only: not counted yet
    assert tables.plays.summary(club["id"])["games"] == 0
    # Imported elsewhere: the unrevealed game is left out, the group is made.
    elsewhere = Tables(Store(tmp_path / "elsewhere.sqlite3"))
    copy_id = Groups(elsewhere.store).import_(json.loads(text), elsewhere.import_record)
    assert Groups(elsewhere.store).games(copy_id) == []
    # Revealed: the whole record is the group's.
    tables.reveal(game_id)
    [entry] = member.get(f"/groups/{club['id']}/export").json["games"]
    assert {k: v for k, v in read_record(entry["record"]).events[-2].items() if k not in ("seq", "by", "at")} == moves[-1]


# --- CSV, 404s, names -----------------------------------------------------------------------------


def test_csv_cells_that_begin_like_a_formula_are_neutralised(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "csv.sqlite3"))
    groups = Groups(tables.store)
    group_id = groups.create("Club")
    names = ["=cmd|' /C calc'!A0", "+1+1", "@SUM(1+1)"]
    text = record_text("ftw-3-players")
    for old, new in zip(seats_of("ftw-3-players"), names, strict=True):
        text = text.replace(json.dumps(old), json.dumps(new))
    header = json.loads(text.split("\n", 1)[0])
    text = json.dumps({**header, "title": "-2+3"}, ensure_ascii=False) + "\n" + text.split("\n", 1)[1]
    game_id = tables.import_record(read_record(text))
    groups.seat(group_id, game_id, ["Anna", "Ben", "Cem"])
    from referee.stats import plays_csv
    rows = list(csv.DictReader(io.StringIO(plays_csv(tables.plays.plays(None, seats=True)))))
    assert sorted(row["player"] for row in rows) == sorted(row["played_as"] for row in rows) == sorted("'" + name for name in names)
    assert {row["title"] for row in rows} == {"'-2+3"}
    assert all(row["score"].isdigit() for row in rows)  # numbers stay numbers


def test_a_missing_group_and_one_you_may_not_see_answer_byte_for_byte_alike(app: Flask) -> None:
    owner = app.test_client()
    owner.post("/groups", data={"name": "Club"})
    [club] = app.extensions["referee"].groups.named()
    outsider = app.test_client()
    outsider.get("/")  # a browser with a session of its own
    for path in ("", "/stats", "/plays.csv", "/export"):
        theirs, missing = outsider.get(f"/groups/{club['id']}{path}"), outsider.get(f"/groups/AAAAAAAAAAAA{path}")
        assert theirs.status_code == missing.status_code == 404
        assert theirs.get_data() == missing.get_data() and sorted(theirs.headers.items()) == sorted(missing.headers.items()), path


@pytest.mark.parametrize(("name", "said"), [
    ("Ben\u200b", "invisible formatting character"), ("\u202eneB", "invisible formatting character"), ("Be\x00n", "control character"),
    ("ben", "differ only in upper and lower case"),
])
def test_seat_names_that_hide_something_or_look_alike_are_refused(app: Flask, name: str, said: str) -> None:
    client = app.test_client()
    answer = client.post("/api/games", json={"game": "ftw", "seats": ["Anna", "Ben", name]})
    assert answer.status_code == 400 and said in answer.json["error"]
    page = client.post("/new", data={"game": "ftw", "seats": f"Anna\nBen\n{name}"})
    assert page.status_code == 400 and said in page.get_data(as_text=True)
    assert stored(app.config["DATABASE"])[1] == 0


def test_names_are_kept_in_one_normal_form(app: Flask) -> None:
    client = app.test_client()
    made = client.post("/api/games", json={"game": "ftw", "seats": ["  Anna  ", "Be\u0301a", "Cem   Demir"]})  # é as e + accent
    assert client.get(f"/api/games/{made.json['id']}").json["seats"] == ["Anna", "B\u00e9a", "Cem Demir"]
    with pytest.raises(RecordError, match="is not in Unicode NFC form"):
        read_record(json.dumps({"format": "table-record/1", "game": "ftw", "seats": ["Anna", "Be\u0301a", "Cem"], "options": {}}) + "\n")
    with pytest.raises(GroupError, match="invisible formatting character"):
        Groups(Store(app.config["DATABASE"])).create("Club\u200d")


# --- kill -9 during a group's import and a statistics rebuild --------------------------------------

RUN = [sys.executable, "-c", "import sys; from referee.cli import main; sys.exit(main())"]
GAMES_IN_FILE = 280
SAMPLES = sorted(path.stem for path in EVENTS_DIR.glob("*.jsonl"))


def big_file(folder: Path) -> Path:
    names = tuple(SAMPLES[n % len(SAMPLES)] for n in range(GAMES_IN_FILE))
    path = folder / "club.json"
    path.write_text(json.dumps(valid_file(names)), encoding="utf-8")
    return path


def killed_at_random(command: list[str], seconds: float, rng_value: float) -> None:
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=TOP)
    time.sleep(seconds * rng_value)
    process.send_signal(signal.SIGKILL)
    process.wait()


KILL_REPORT: dict[str, list[str]] = {"import": [], "rebuild": []}


def kept_for_the_note() -> None:
    """What each kill left, in test-artifacts/kills.json (the figures of the team's note)."""
    folder = TOP / "test-artifacts"
    folder.mkdir(exist_ok=True)
    path = folder / "kills.json"
    known = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    path.write_text(json.dumps({**known, **{k: v for k, v in KILL_REPORT.items() if v}}, indent=1) + "\n", encoding="utf-8")


def test_kill_9_during_a_group_import_leaves_nothing_or_the_whole_group(tmp_path: Path) -> None:
    import random

    rng = random.Random(28)
    file = big_file(tmp_path)
    started = time.monotonic()
    whole = tmp_path / "whole.sqlite3"
    assert subprocess.run([*RUN, "group", "import", str(file), "--db", str(whole)], cwd=TOP, capture_output=True).returncode == 0
    seconds = time.monotonic() - started
    assert stored(whole) == (1, GAMES_IN_FILE)
    for attempt in range(int(os.environ.get("KILLS", "8"))):
        db = tmp_path / f"killed-{attempt}.sqlite3"
        Store(db).close()  # the store exists; the import is what is cut off
        killed_at_random([*RUN, "group", "import", str(file), "--db", str(db)], seconds, rng.uniform(0.4, 1.3))
        found = stored(db)
        KILL_REPORT["import"].append(f"{found[0]} groups, {found[1]} games")
        assert found in ((0, 0), (1, GAMES_IN_FILE)), found
        assert Store(db).verify() == []
    kept_for_the_note()


def test_kill_9_during_a_statistics_rebuild_leaves_them_whole(tmp_path: Path) -> None:
    import random

    rng = random.Random(29)
    db = tmp_path / "stats.sqlite3"
    assert subprocess.run([*RUN, "group", "import", str(big_file(tmp_path)), "--db", str(db)], cwd=TOP, capture_output=True).returncode == 0
    expected = Tables(Store(db)).plays.summary()
    started = time.monotonic()
    assert subprocess.run([*RUN, "stats", "--rebuild", "--db", str(db)], cwd=TOP, capture_output=True).returncode == 0
    seconds = time.monotonic() - started
    for _ in range(int(os.environ.get("KILLS", "8"))):
        killed_at_random([*RUN, "stats", "--rebuild", "--db", str(db)], seconds, rng.uniform(0.4, 1.3))
        with sqlite3.connect(db) as raw:
            complete = raw.execute("SELECT value FROM meta WHERE key = 'statistics'").fetchone()
            counted = raw.execute("SELECT COUNT(*) FROM plays").fetchone()[0]
        KILL_REPORT["rebuild"].append(f"{counted} games counted, marked {complete}")
        assert complete == ("complete",) and counted == expected["games"]
        assert Tables(Store(db)).plays.summary() == expected
    # A store whose statistics are not marked whole (say, one from before the mark) says so
    # in `verify`, and repairs itself on opening.
    with sqlite3.connect(db) as raw:
        raw.execute("DELETE FROM meta")
        raw.execute("DELETE FROM play_seats WHERE seat = 0")
    kept_for_the_note()
    verified = subprocess.run([*RUN, "verify", "--db", str(db)], cwd=TOP, capture_output=True, text=True)
    assert verified.returncode == 0 and "statistics: incomplete" in verified.stdout
    assert Tables(Store(db)).plays.summary() == expected
