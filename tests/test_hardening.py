"""Hardening: no secret leaks through any channel, hostile input never breaks a game."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import EVENTS_DIR
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.games import GAMES
from referee.record import RecordError, read_record, write_record
from referee.replay import replay, report
from referee.simulate import karriere_poker
from referee.store import Store
from referee.web import create_app
from test_api import Table, bearer

FTW = {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}
ANNA_FTW = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
BEN_PROBE = [5, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]  # 5 is in Anna's logged hand


# --- 1. private information through side channels ------------------------------------------


def every_text(client: FlaskClient, table: Table, headers: dict[str, str]) -> str:
    """Everything this caller can read of the game: API state, events, and the pages."""
    api = [f"/api/games/{table.id}", f"/api/games/{table.id}/events"]
    pages = [f"/g/{table.id}", f"/g/{table.id}/history", f"/g/{table.id}/history?at=2", f"/g/{table.id}/result"]
    texts = [client.get(path, headers=headers).get_data(as_text=True) for path in api]
    cookie = headers.get("Authorization", " ").split(" ")[1]
    for path in pages:
        client.set_cookie("referee_token", cookie, path=f"/g/{table.id}") if cookie else client.delete_cookie("referee_token", path=f"/g/{table.id}")
        texts.append(client.get(path).get_data(as_text=True))
    client.delete_cookie("referee_token", path=f"/g/{table.id}")
    return "\n".join(texts)


def test_the_employee_of_the_month_record_is_the_hosts_until_the_end(client: FlaskClient) -> None:
    table = Table(client, {"game": "employee-of-the-month", "seats": ["Anna", "Ben", "Cem"]}, claim=(1,))
    for headers in ({}, bearer(table.seats[1])):
        assert client.get(f"/api/games/{table.id}/record", headers=headers).status_code == 403
    assert client.get(f"/api/games/{table.id}/record", headers=bearer(table.host)).status_code == 200
    table.log({"type": "end"})
    assert client.get(f"/api/games/{table.id}/record").status_code == 200


# --- 2. a game can never be poisoned -------------------------------------------------------


@pytest.mark.parametrize(
    "game, options, field",
    [
        ("ftw", {"first": 99}, "first"),
        ("ftw", {"first": 2**63}, "first"),
        ("employee-of-the-month", {"first": 4}, "first"),
        ("karriere-poker", {"positions": ["Boss", "Worker"]}, "positions"),
        ("karriere-poker", {"positions": []}, "positions"),
    ],
)
def test_options_out_of_range_are_refused_at_creation(client: FlaskClient, tmp_path: Path, game: str, options: dict[str, Any], field: str) -> None:
    body = {"game": game, "seats": ["Anna", "Ben", "Cem", "Dora"], "options": options}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400 and field in json.dumps(answer.json["fields"])
    record = tmp_path / "poisoned.jsonl"
    record.write_text(json.dumps({"format": "table-record/1", **body}) + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(record)])
    assert result.exit_code == 2 and "line 1: options" in result.output


HEADERS = st.fixed_dictionaries(
    {"format": st.just("table-record/1"), "game": st.sampled_from(sorted(GAMES)),
     "seats": st.lists(st.text(min_size=1, max_size=5), min_size=0, max_size=11)},
    optional={"options": st.dictionaries(st.sampled_from(["first", "positions", "end", "fewest_needs_one", "x"]),
                                         st.none() | st.integers(-2**64, 2**64) | st.lists(st.text(max_size=3), max_size=12)
                                         | st.fixed_dictionaries({"kind": st.sampled_from(["games", "rounds", "open", "x"]), "count": st.integers(-3, 2**64)}),
                                         max_size=3)},
)
EVENT = st.dictionaries(st.sampled_from(["type", "seat", "cards", "card", "dealer", "to", "target", "count", "row", "take", "helpers"]),
                        st.none() | st.integers(-3, 2**64) | st.sampled_from(["deal", "play", "hand", "high", "bid", "start", "void"])
                        | st.lists(st.integers(-1, 70) | st.just("J"), max_size=14), max_size=5)


@settings(max_examples=300, deadline=None)
@given(header=HEADERS, bodies=st.lists(EVENT, max_size=8))
def test_replay_never_raises_on_any_header_or_event(header: dict[str, Any], bodies: list[dict[str, Any]]) -> None:
    lines = [json.dumps(header)] + [json.dumps({**body, "seq": seq}) for seq, body in enumerate(bodies, start=1)]
    try:
        record = read_record("\n".join(lines) + "\n")
    except RecordError:
        return  # a format error: refused with a message
    report(replay(record.header, record.events))  # a verdict, never an exception


# --- 3. no 500 on hostile input ------------------------------------------------------------


def test_hostile_json_is_a_400(client: FlaskClient) -> None:
    table = Table(client, claim=())
    deep = "[" * 20000 + "]" * 20000
    answer = client.post(f"/api/games/{table.id}/events", data=deep, content_type="application/json", headers=bearer(table.host))
    assert answer.status_code == 400 and "nested too deeply" in answer.json["error"]
    for target in (2**63, 2**70):
        huge = table.log({"type": "void", "target": target})
        assert huge.status_code == 400 and "target" in huge.json["fields"]
    assert client.get(f"/api/games/{table.id}/events?after={2**70}").status_code == 200
    surrogate = client.post(f"/api/games/{table.id}/events", data='{"type": "note", "text": "\\ud800"}',
                            content_type="application/json", headers=bearer(table.host))
    assert surrogate.status_code == 400 and "lone surrogate" in surrogate.json["error"]
    digits = '{"format": "table-record/1", "game": "ftw", "seats": ["A", "B"], "options": {"first": ' + "9" * 5000 + "}}\n"
    imported = client.post("/api/games/import", data=digits, content_type="application/jsonl")
    assert imported.status_code == 400 and "line 1: invalid JSON" in imported.json["error"]


@pytest.mark.parametrize(
    "form",
    [
        {"type": "play", "seat": "0", "pick": "abc", "count": "1"},
        {"type": "play", "seat": "0", "pick": "7", "count": "abc"},
        {"type": "play", "seat": "0", "pick": "7", "count": "50000000"},
        {"type": "play", "seat": "0", "pick": "7", "count": "3", "jokers": "99999999"},
        {"type": "void", "target": str(2**70)},
    ],
)
def test_hostile_page_forms_are_answered_clearly(client: FlaskClient, form: dict[str, str]) -> None:
    game_id = client.post("/new", data={"game": "karriere-poker", "seats": "Anna\nBen\nCem\nDora"}).headers["Location"].split("/")[2]
    client.post(f"/g/{game_id}/log", data={"type": "deal", "dealer": "3"}, headers={"HX-Request": "true"})
    answer = client.post(f"/g/{game_id}/log", data=form, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and 'class="flash"' in answer.get_data(as_text=True)
    assert len(client.get(f"/api/games/{game_id}/events", headers={}).json["events"]) == 1


@pytest.mark.parametrize("first", ["²", "abc", "9" * 30])
def test_new_game_form_options_never_crash(client: FlaskClient, first: str) -> None:
    answer = client.post("/new", data={"game": "ftw", "seats": "Anna\nBen", "first": first})
    assert answer.status_code == 400


# --- 5. imports are all or nothing ---------------------------------------------------------


def test_an_import_with_a_bad_line_stores_no_game(client: FlaskClient, app: Flask) -> None:
    text = (EVENTS_DIR / "karriere-poker-4-players.jsonl").read_text(encoding="utf-8").splitlines()
    text[39] = text[39].replace('"type": ', '"type": "nope", "x": ')
    answer = client.post("/api/games/import", data="\n".join(text) + "\n", content_type="application/jsonl")
    assert answer.status_code == 400 and "line 40" in answer.json["error"]
    assert Store(app.config["DATABASE"]).games() == []


def test_an_import_must_say_it_is_a_record(client: FlaskClient) -> None:
    text = (EVENTS_DIR / "ftw-3-players.jsonl").read_text(encoding="utf-8")
    assert client.post("/api/games/import", data=text, content_type="text/plain").status_code == 415


# --- 7. tamper evidence of the whole log ---------------------------------------------------


def stored_game(tmp_path: Path) -> tuple[Store, str]:
    store = Store(tmp_path / "t.sqlite3")
    from referee.tables import Tables

    game = Tables(store).import_record(read_record((EVENTS_DIR / "ftw-3-players.jsonl").read_text(encoding="utf-8")))
    return store, game


def raw(store: Store) -> sqlite3.Connection:
    connection = sqlite3.connect(store.path, isolation_level=None)
    for trigger in ("events_append_only_update", "events_append_only_delete"):
        connection.execute(f"DROP TRIGGER {trigger}")
    return connection


def test_deleting_the_last_row_is_detected(tmp_path: Path) -> None:
    store, game = stored_game(tmp_path)
    last, _ = store.head(game)
    raw(store).execute("DELETE FROM events WHERE game = ? AND seq = ?", [game, last])
    assert Store(store.path).verify() == [f"game {game} seq {last}: the log ends at seq {last - 1}, its head says {last} (rows deleted or forged)"]


def test_a_forged_row_appended_is_detected(tmp_path: Path) -> None:
    from referee.store import chain_hash

    store, game = stored_game(tmp_path)
    last, head = store.head(game)
    line = json.dumps({"seq": last + 1, "type": "note", "text": "forged"})
    raw(store).execute("INSERT INTO events (game, seq, body, hash, stored_at) VALUES (?, ?, ?, ?, 'x')", [game, last + 1, line, chain_hash(head, line)])
    assert "rows deleted or forged" in Store(store.path).verify()[0]


def test_an_edited_row_with_the_chain_recomputed_is_detected_by_the_head_and_the_receipt(tmp_path: Path) -> None:
    from referee.store import chain_hash

    store, game = stored_game(tmp_path)
    _, receipt = store.head(game)
    connection = raw(store)
    rows = connection.execute("SELECT seq, body FROM events WHERE game = ? ORDER BY seq", [game]).fetchall()
    previous = connection.execute("SELECT hash FROM games WHERE id = ?", [game]).fetchone()[0]
    for seq, body in rows:
        body = body.replace('"seat": 1', '"seat": 2') if seq == 5 else body
        previous = chain_hash(previous, body)
        connection.execute("UPDATE events SET body = ?, hash = ? WHERE game = ? AND seq = ?", [body, previous, game, seq])
    assert "rows rewritten" in Store(store.path).verify()[0]
    # Even when the forger moves the head too, the players' receipt catches it.
    connection.execute("UPDATE games SET head_hash = ? WHERE id = ?", [previous, game])
    assert Store(store.path).verify() == []
    result = CliRunner().invoke(main, ["verify", "--db", store.path, "--head", f"{game}:{receipt}"])
    assert result.exit_code == 1 and "another hash than the receipt" in result.output


def test_insert_or_replace_cannot_get_past_the_triggers(tmp_path: Path) -> None:
    store, game = stored_game(tmp_path)
    connection = sqlite3.connect(store.path)
    with pytest.raises(sqlite3.IntegrityError, match="REPLACE is not allowed"):
        connection.execute("INSERT OR REPLACE INTO events (game, seq, body, hash, stored_at) VALUES (?, 1, '{}', 'x', 'x')", [game])


def test_a_receipt_that_matches_verifies(tmp_path: Path) -> None:
    store, game = stored_game(tmp_path)
    _, receipt = store.head(game)
    result = CliRunner().invoke(main, ["verify", "--db", store.path, "--head", f"{game}:{receipt}"])
    assert result.exit_code == 0, result.output


# --- 9. web basics -------------------------------------------------------------------------


def test_language_switch_redirects_only_within_the_site(client: FlaskClient) -> None:
    evil = client.get("/lang/de", headers={"Referer": "http://evil.example/phish"})
    assert evil.headers["Location"] == "/"
    same = client.get("/lang/de", headers={"Referer": "http://localhost/g/abc?x=1"})
    assert same.headers["Location"] == "/g/abc?x=1"


def test_join_links_come_from_the_configured_address_not_the_host_header(client: FlaskClient, app: Flask) -> None:
    app.config["PUBLIC_URL"] = "http://192.168.1.23:8000"
    location = client.post("/new", data={"game": "ftw", "seats": "Anna\nBen"}, base_url="http://evil.example").headers["Location"]
    page = client.get(location, base_url="http://evil.example").get_data(as_text=True)
    assert "http://192.168.1.23:8000/j/" in page and "evil.example" not in page


def test_guessing_codes_in_join_links_is_rate_limited(client: FlaskClient) -> None:
    answers = [client.get(f"/j/ZZZZZ{i}").status_code for i in range(15)]
    assert answers[:10] == [404] * 10 and answers[-1] == 429


def test_security_headers_and_no_caching_of_private_pages(client: FlaskClient) -> None:
    answer = client.get("/")
    csp = answer.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-eval" not in csp
    assert answer.headers["X-Content-Type-Options"] == "nosniff" and answer.headers["Referrer-Policy"] == "same-origin"
    assert answer.headers["Cache-Control"] == "no-store"


def test_the_cookie_is_secure_over_https(client: FlaskClient) -> None:
    answer = client.post("/new", data={"game": "ftw", "seats": "Anna\nBen"}, base_url="https://localhost")
    assert "Secure" in answer.headers["Set-Cookie"]


def test_the_database_file_is_for_its_owner_only(tmp_path: Path) -> None:
    store = Store(tmp_path / "private.sqlite3")
    assert (Path(store.path).stat().st_mode & 0o777) == 0o600


# --- Senators: money, hands and sold sets are secret until the end --------------------------


def test_senators_hands_stay_with_their_seat_and_the_host_until_the_cards_are_sold(client: FlaskClient) -> None:
    table = Table(client, {"game": "senators", "seats": ["Anna", "Ben", "Cem"]}, claim=(0, 1))
    table.log({"type": "hand", "seat": 0, "cards": ["red-4", "red-5", "red-6"]}, table.seats[0])
    for body in ({"type": "event", "kind": "other"}, {"type": "cash-in", "seat": 0}, {"type": "join", "seat": 1, "choice": "pass"},
                 {"type": "join", "seat": 2, "choice": "pass"}):
        assert table.log(body).json["violation"] is None, body
    for headers in ({}, bearer(table.seats[1])):
        assert "red-5" not in every_text(client, table, headers)  # the recorded hand
    assert "red-5" in every_text(client, table, bearer(table.host))
    # A set sold to the bank is laid open (the spec counts its cards as publicly known).
    assert table.log({"type": "sell-set", "seat": 0, "cards": ["red-4", "red-5", "red-6"]}).json["violation"] is None
    assert "red-5" in every_text(client, table, {})
    for headers in ({}, bearer(table.seats[1])):  # each phone shows only its own money
        assert '"money"' not in client.get(f"/api/games/{table.id}", headers=headers).get_data(as_text=True)
    own = client.get(f"/api/games/{table.id}", headers=bearer(table.seats[0])).json
    assert own["view"]["my_money"] == 10 + 4 + 5 + 6 + 15  # the run bonus
    # a seat may not keep the table's books
    assert table.log({"type": "adjust", "seat": 1, "money": 50, "reason": "gift"}, table.seats[1]).status_code == 403


# --- 6. long-poll cannot starve the server -------------------------------------------------


def test_phones_over_the_waiting_cap_are_answered_at_once_with_retry_after(tmp_path: Path) -> None:
    import threading
    import time

    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "w.sqlite3"), "SECRET_KEY": "t",
                      "LONG_POLL_MAX_WAITING": 2, "LONG_POLL_MAX_PER_GAME": 1})
    client = app.test_client()
    one, two = Table(client, FTW, claim=()), Table(client, FTW, claim=())
    waiting = [threading.Thread(target=lambda t=t: app.test_client().get(f"/api/games/{t.id}/events?after=0&wait=3")) for t in (one, two)]
    for thread in waiting:
        thread.start()
    time.sleep(0.3)
    started = time.monotonic()
    # The per-game cap (1) and the total cap (2) are both reached: answered at once.
    for table in (one, Table(client, FTW, claim=())):
        answer = client.get(f"/api/games/{table.id}/events?after=0&wait=3")
        assert answer.status_code == 200 and answer.headers["Retry-After"] == "5"
    page = client.get(f"/g/{one.id}/live?after=0")
    assert 'hx-trigger="load delay:5s' in page.get_data(as_text=True)
    assert time.monotonic() - started < 1.0
    one.log({"type": "note", "text": "wake up"})  # wakes only game one's phone
    waiting[0].join(timeout=2)
    assert not waiting[0].is_alive() and waiting[1].is_alive()
    waiting[1].join()


# --- Ladies & Gentlemen: a team's money is the team's ---------------------------------------


def test_a_teams_money_is_seen_by_its_lady_its_gentleman_and_the_host_only(client: FlaskClient) -> None:
    table = Table(client, {"game": "ladies-and-gentlemen", "seats": ["Anna", "Ben", "Cem", "Dora"]}, claim=(0, 1, 2, 3))
    for body in ({"type": "day", "n": 1}, {"type": "number", "seat": 1, "number": 1}, {"type": "number", "seat": 3, "number": 2}):
        assert table.log(body).json["violation"] is None
    assert table.log({"type": "income", "seat": 1, "amount": 4321, "reason": "contract"}, table.seats[1]).status_code == 201
    for seat in (0, 1):  # Anna and Ben: their team
        seen = every_text(client, table, bearer(table.seats[seat]))
        assert "4321" in seen and client.get(f"/api/games/{table.id}", headers=bearer(table.seats[seat])).json["view"]["team_money"] == 4821
    for headers in ({}, bearer(table.seats[2]), bearer(table.seats[3])):
        seen = every_text(client, table, headers)
        assert "4321" not in seen and "4821" not in seen
    assert "4321" in every_text(client, table, bearer(table.host))


def test_the_record_export_carries_the_head_that_verify_checks(client: FlaskClient, app: Flask, tmp_path: Path) -> None:
    table = Table(client, FTW, claim=())
    table.log({"type": "note", "text": "first"})
    table.log({"type": "end", "reason": "done"})
    assert client.get(f"/api/games/{table.id}/record").status_code == 403  # over, but not revealed yet
    assert client.post(f"/api/games/{table.id}/reveal", headers=bearer(table.host)).json == {"revealed_at": 2}
    exported = client.get(f"/api/games/{table.id}/record")
    seq, digest = exported.headers["X-Table-Head"].split(":")
    assert seq == "2" and client.get(f"/g/{table.id}/record").headers["X-Table-Head"] == f"2:{digest}"
    result = CliRunner().invoke(main, ["verify", "--db", app.config["DATABASE"], "--head", f"{table.id}:{digest}"])
    assert result.exit_code == 0, result.output
    page = client.get(f"/g/{table.id}/result").get_data(as_text=True)
    assert f"{table.id}:{digest}" in page and "<svg" in page.split('id="receipt"')[1]  # the receipt and its QR code


# --- 8. 4xx, never 5xx: the maintainer's pages and every page form --------------------------


@pytest.mark.parametrize("key", ["schlüssel", "ключ" * 8, "é" * 32, "k" * 5000, "a\x00b", "%ff%fe%00", "%C3%28", "\ud800"])
def test_any_rulings_key_is_a_404(client: FlaskClient, key: str) -> None:
    from urllib.parse import quote

    for path in (f"/rulings/{quote(key, safe='%', errors='surrogatepass')}", f"/rulings/{quote(key, safe='%', errors='surrogatepass')}/g.jsonl"):
        assert client.get(path).status_code == 404, path


def test_the_maintainers_link_opens_only_the_games_its_page_lists(app: Flask, client: FlaskClient) -> None:
    # Two FTW?! tables: at the first the host lets Ben's 3 stand because the app is wrong;
    # the second holds Anna's hand. The maintainer's page lists the first: its record opens;
    # the second's (and an unknown game's) does not, by the same link.
    from referee.rulings import maintainer_key

    listed = client.post("/new", data={"game": "ftw", "seats": "Anna\nBen\nCem"}).headers["Location"].split("/")[2]
    for form in ({"type": "high", "seat": "0", "card": "5"}, {"type": "high", "seat": "1", "card": "3"}):
        client.post(f"/g/{listed}/log", data=form)
    client.post(f"/g/{listed}/rule/2", data={"reason": "the app is wrong"})
    private = Table(client, FTW, claim=(0,))
    assert private.log({"type": "hand", "seat": 0, "cards": ANNA_FTW}, private.seats[0]).status_code == 201
    key = maintainer_key(app.config["SECRET_KEY"])
    page = client.get(f"/rulings/{key}").get_data(as_text=True)
    assert f"/rulings/{key}/{listed}.jsonl" in page and private.id not in page
    assert client.get(f"/rulings/{key}/{listed}.jsonl").status_code == 200
    for game_id in (private.id, "nope"):
        answer = client.get(f"/rulings/{key}/{game_id}.jsonl")
        assert answer.status_code == 404 and "hand" not in answer.get_data(as_text=True)


def form_fields() -> list[str]:
    """Every field name the app's forms send (read from the templates, so a new form is fuzzed too)."""
    import re

    from referee.web import resource_dir

    return sorted({name for path in resource_dir("templates").rglob("*.html")
                   for name in re.findall(r'name="([a-z_]+)"', path.read_text(encoding="utf-8"))} - {"viewport", "csrf_token"})


JUNK = st.one_of(st.text(max_size=30), st.text(alphabet="\x00\t\n\u00e9\u202e\ufeff%<>'\"&;-0123456789", max_size=12),
                 st.integers(-(2**70), 2**70).map(str), st.just("x" * 70_000), st.sampled_from(["", "0", "-1", "1e9", "NaN", "core.turn"]),
                 st.sampled_from(sorted(GAMES)), st.sampled_from(sorted({rule for game in GAMES.values() for rule in game.rules})))


def test_no_page_form_answers_5xx_whatever_its_fields_hold(app: Flask) -> None:
    # Every POST route of the pages (new game, join, log, void, rule, reveal, seats, host
    # forms, group forms, imports), on tables of every game, with junk in every field a form
    # has and junk in the path: never a 5xx; a refused request (4xx) stores no event.
    from werkzeug.datastructures import FileStorage
    from io import BytesIO

    from hypothesis import HealthCheck

    host = app.test_client()
    tables = app.extensions["referee"].tables
    group_id = host.post("/groups", data={"name": "Fuzzers"}).location.rsplit("/", 1)[1]
    games = [host.post("/new", data={"game": name, "seats": "Anna\nBen\nCem\nDora\nEmil", "group": group_id}).headers["Location"].split("/")[2]
             for name in sorted(GAMES)]
    routes = sorted((rule.rule, rule.endpoint) for rule in app.url_map.iter_rules() if "POST" in rule.methods and not rule.endpoint.startswith("api."))
    assert len(routes) >= 15
    fields = form_fields()

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(route=st.sampled_from(routes), game=st.sampled_from([*games, "nope", "\u00e9" * 50]), number=st.integers(0, 2**63),
           form=st.dictionaries(st.sampled_from(fields), st.one_of(JUNK, st.lists(JUNK, max_size=3)), max_size=6),
           event_type=st.sampled_from(sorted({t for g in GAMES.values() for t in g.events} | {"void", "note", "end", "ruling", "nope"})),
           kind=st.one_of(st.sampled_from(sorted(GAMES)), JUNK), off=st.lists(JUNK, max_size=3))
    def post(route: tuple[str, str], game: str, number: int, form: dict[str, Any], event_type: str, kind: str, off: list[str]) -> None:
        path = (route[0].replace("<game_id>", game).replace("<group_id>", group_id)
                .replace("<int:seq>", str(number % 40)).replace("<int:seat>", str(number % 7)).replace("<int:player_id>", str(number)))
        data: dict[str, Any] = {"type": event_type, "game": kind, "off": off, "seat": str(number % 7), **form}
        for name in ("record", "group") if "import" in route[1] else ():
            data[name] = FileStorage(BytesIO(str(form.get(name, "")).encode("utf-8", "surrogatepass")), "junk.json")
        before = {g: tables.store.head(g) for g in games}
        answer = host.post(path, data=data, headers={"HX-Request": "true"} if number % 2 else {})
        assert answer.status_code < 500, (path, data, answer.get_data(as_text=True)[-500:])
        if answer.status_code >= 400:
            assert {g: tables.store.head(g) for g in games} == before, (path, data)

    post()


def test_a_long_matchs_record_is_imported_but_a_long_move_is_refused_in_words(client: FlaskClient) -> None:
    """Files may be large (a long Karriere Poker match's record is far over 64 KB), a move or
    a form may not: each refusal is a 413 in words naming the limit, never Werkzeug's page."""
    header, events = karriere_poker(["Anna", "Ben", "Cem", "Dora"], games=40, seed=3)
    record = write_record(header, events)
    assert len(record) > 150_000
    imported = client.post("/api/games/import", data=record.encode(), content_type="application/jsonl")
    assert imported.status_code == 201, imported.json
    paged = client.post("/import", data={"text": record})
    assert paged.status_code == 302
    game_id = imported.json["id"]
    long_move = client.post(f"/api/games/{game_id}/events", json={"type": "note", "text": "x" * 70_000},
                            headers={"Authorization": f"Bearer {imported.json['host_token']}"})
    assert long_move.status_code == 413 and "at most 64 KB" in long_move.json["error"]
    long_form = client.post("/join", data={"code": "x" * 70_000}, headers={"Accept-Language": "de"})
    assert long_form.status_code == 413 and "höchstens 64 KB" in long_form.get_data(as_text=True)
    assert len(client.get(f"/api/games/{game_id}/events").json["events"]) == len(events)
