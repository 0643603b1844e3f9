"""The JSON API, through the real Flask app and a real SQLite file."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from datetime import datetime
from typing import Any

import pytest
from conftest import EVENTS_DIR, everything_stored
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.access import CODE_ALPHABET
from referee.web import create_app

KP = {"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"]}
ANNA_HAND = [1, 2, 2, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13]


@pytest.fixture
def app(database: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test"})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Table:
    """A game created over the API, with its host token and a seat token per claimed seat."""

    def __init__(self, client: FlaskClient, body: dict[str, Any] = KP, claim: tuple[int, ...] = (0, 1)) -> None:
        answer = client.post("/api/games", json=body)
        assert answer.status_code == 201, answer.json
        self.client, self.id = client, answer.json["id"]
        self.code, self.host = answer.json["join_code"], answer.json["host_token"]
        self.seats = {}
        for seat in claim:
            claimed = client.post(f"/api/games/{self.id}/seats/{seat}", json={"code": self.code})
            assert claimed.status_code == 201, claimed.json
            self.seats[seat] = claimed.json["token"]

    def log(self, body: dict[str, Any], token: str | None = None, **kwargs: Any) -> Any:
        headers = {**bearer(token or self.host), **kwargs.pop("headers", {})}
        return self.client.post(f"/api/games/{self.id}/events", json=body, headers=headers, **kwargs)

    def events(self) -> list[dict[str, Any]]:
        return self.client.get(f"/api/games/{self.id}/events", headers=bearer(self.host)).json["events"]


# --- creating, joining, claiming -----------------------------------------------------------------


def test_a_game_is_dated_when_started_and_an_event_keeps_the_time_its_client_gives(client: FlaskClient) -> None:
    table = Table(client, claim=())
    header = json.loads(client.get(f"/api/games/{table.id}/record", headers=bearer(table.host)).get_data(as_text=True).splitlines()[0])
    assert datetime.fromisoformat(header["started_at"]).tzinfo is not None
    assert table.log({"type": "deal", "dealer": 3, "at": "2026-11-20T20:15:00+01:00"}).json["event"]["at"] == "2026-11-20T20:15:00+01:00"
    wrong = table.log({"type": "note", "text": "late", "at": "yesterday"})
    assert wrong.status_code == 400 and wrong.json["fields"] == {"at": ["'yesterday' is not an ISO 8601 time."]} and len(table.events()) == 1


def test_create_returns_id_join_code_and_host_token(client: FlaskClient) -> None:
    table = Table(client, claim=())
    assert len(table.code) == 6 and set(table.code) <= set(CODE_ALPHABET)
    assert len(table.host) >= 32
    state = client.get(f"/api/games/{table.id}", headers=bearer(table.host)).json
    assert state["you"] == {"role": "host", "seat": None}
    assert state["seats"] == KP["seats"] and state["seq"] == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "skat", "seats": ["A", "B", "C"]}, "game"),
        ({"game": "ftw", "seats": ["A"]}, "seats"),
        ({"game": "ftw", "seats": ["A", "B"], "options": {"turbo": True}}, "options"),
        ({"game": "ftw", "seats": ["A", "B"], "colour": "red"}, "colour"),
        ({"game": "ftw"}, "seats"),
        ({"game": "ftw", "seats": "A B"}, "seats"),
    ],
)
def test_create_with_bad_fields_is_400_naming_the_field(client: FlaskClient, body: dict[str, Any], field: str) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400
    assert field in answer.json["fields"]


def test_bad_bodies_get_clear_4xx(client: FlaskClient) -> None:
    assert client.post("/api/games", data="{}", content_type="text/plain").status_code == 415
    invalid = client.post("/api/games", data="{not json", content_type="application/json")
    assert invalid.status_code == 400 and "invalid JSON" in invalid.json["error"]
    assert client.post("/api/games", json=[1, 2]).status_code == 400
    huge = client.post("/api/games", json={"game": "ftw", "seats": ["A" * 70_000, "B"]})
    assert huge.status_code == 413 and huge.json["error"]
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/games/nope").json == {"error": "no game 'nope'"}
    assert client.delete("/api/games").status_code == 405


def test_join_lists_seats_and_claims(client: FlaskClient) -> None:
    table = Table(client, claim=(1,))
    joined = client.post("/api/join", json={"code": table.code.lower()[:3] + " " + table.code.lower()[3:]})
    assert joined.status_code == 200 and joined.json["id"] == table.id
    assert [s["claimed"] for s in joined.json["seats"]] == [False, True, False, False]
    assert client.post(f"/api/games/{table.id}/seats/1", json={"code": table.code}).status_code == 409
    assert client.post(f"/api/games/{table.id}/seats/2", json={"code": "WRONG1"}).status_code == 403
    assert client.post(f"/api/games/{table.id}/seats/9", json={"code": table.code}).status_code == 404


def test_the_host_hands_a_seat_to_a_new_phone(client: FlaskClient) -> None:
    table = Table(client, claim=(1,))
    new = client.post(f"/api/games/{table.id}/seats/1", json={}, headers=bearer(table.host))
    assert new.status_code == 201
    assert client.get(f"/api/games/{table.id}", headers=bearer(table.seats[1])).status_code == 403  # old phone
    assert client.get(f"/api/games/{table.id}", headers=bearer(new.json["token"])).json["you"] == {"role": "seat", "seat": 1}


def test_join_code_guessing_is_rate_limited(client: FlaskClient) -> None:
    table = Table(client, claim=())
    statuses = [client.post("/api/join", json={"code": f"ZZZZZ{n}"}).status_code for n in range(2, 10)]
    statuses += [client.post("/api/join", json={"code": "ZZZZZZ"}).status_code for _ in range(4)]
    assert statuses[:10] == [404] * 10 and statuses[10:] == [429, 429]
    assert client.post("/api/join", json={"code": table.code}).status_code == 429  # this client is blocked for now


def test_tokens_are_stored_only_as_hashes(client: FlaskClient, app: Flask) -> None:
    table = Table(client)
    dump = everything_stored(app.config["DATABASE"])
    for token in [table.host, *table.seats.values()]:
        assert token not in dump


# --- logging events ------------------------------------------------------------------------------


def test_an_illegal_move_is_stored_and_answered_with_its_violation(client: FlaskClient) -> None:
    table = Table(client)
    assert table.log({"type": "deal", "dealer": 3}).status_code == 201
    answer = table.log({"type": "pass", "seat": 0}, table.seats[0])
    assert answer.status_code == 201
    assert answer.json["violation"] == {"rule": "kp.lead.pass", "message": "Anna starts this round and must play, not pass."}
    logged = answer.json["event"]
    assert datetime.fromisoformat(logged.pop("at")).tzinfo is not None  # stamped with when it was logged
    assert logged == {"seq": 2, "type": "pass", "seat": 0, "by": 0}
    assert [e["seq"] for e in table.events()] == [1, 2]


def test_a_format_error_is_400_with_the_field_and_stores_nothing(client: FlaskClient) -> None:
    table = Table(client)
    for body in ({"type": "play", "seat": 0, "cards": [14]}, {"type": "shuffle"}, {"type": "deal", "dealer": "Dora"},
                 {"type": "pass", "seat": 0, "seq": 1}, {"type": "pass"}, {"seat": 0}):
        answer = table.log(body)
        assert answer.status_code == 400, body
        assert answer.json["fields"], body
    assert table.events() == []


def test_expected_seq_mismatch_is_409_with_the_current_seq(client: FlaskClient) -> None:
    table = Table(client)
    assert table.log({"type": "deal", "dealer": 3, "expected_seq": 0}).status_code == 201
    stale = table.log({"type": "play", "seat": 0, "cards": [5], "expected_seq": 0})
    assert stale.status_code == 409 and stale.json["current_seq"] == 1
    assert len(table.events()) == 1


def test_an_idempotent_retry_returns_the_first_answer_and_stores_nothing(client: FlaskClient) -> None:
    table = Table(client)
    table.log({"type": "deal", "dealer": 3})
    first = table.log({"type": "play", "seat": 0, "cards": [5]}, headers={"Idempotency-Key": "phone-a:7"})
    again = [table.log({"type": "play", "seat": 0, "cards": [5]}, headers={"Idempotency-Key": "phone-a:7"}) for _ in range(2)]
    assert first.status_code == 201 and [a.status_code for a in again] == [201, 201]
    assert all(a.json == first.json for a in again)
    assert len(table.events()) == 2


def test_a_retry_answers_as_the_first_time_even_after_the_flag_changed(client: FlaskClient) -> None:
    # Ben plays out of turn (flagged kp.turn); the deal is then voided, so Ben's play is
    # judged again (now kp.deal.missing or similar). The retry still gets the first answer.
    table = Table(client)
    table.log({"type": "deal", "dealer": 3})
    first = table.log({"type": "play", "seat": 1, "cards": [5]}, headers={"Idempotency-Key": "k1"})
    assert first.json["violation"]["rule"] == "kp.turn"
    table.log({"type": "void", "target": 1, "reason": "wrong dealer"})
    assert table.events()[1]["violation"]["rule"] != "kp.turn"
    retry = table.log({"type": "play", "seat": 1, "cards": [5]}, headers={"Idempotency-Key": "k1"})
    assert (retry.status_code, retry.json) == (201, first.json)


def test_an_idempotency_key_belongs_to_the_token_that_used_it(client: FlaskClient) -> None:
    # Anna and Ben happen to use the same key: each stores its own event.
    table = Table(client)
    table.log({"type": "deal", "dealer": 3})
    anna = table.log({"type": "play", "seat": 0, "cards": [5]}, token=table.seats[0], headers={"Idempotency-Key": "same"})
    ben = table.log({"type": "pass", "seat": 1}, token=table.seats[1], headers={"Idempotency-Key": "same"})
    assert (anna.json["seq"], ben.json["seq"]) == (2, 3)
    assert ben.json["event"]["type"] == "pass"
    again = table.log({"type": "pass", "seat": 1}, token=table.seats[1], headers={"Idempotency-Key": "same"})
    assert again.json == ben.json and len(table.events()) == 3


def test_long_poll_returns_as_soon_as_another_phone_logs(client: FlaskClient, app: Flask) -> None:
    table = Table(client)
    table.log({"type": "deal", "dealer": 3})

    def later() -> None:
        time.sleep(0.3)
        app.test_client().post(f"/api/games/{table.id}/events", json={"type": "play", "seat": 0, "cards": [5]}, headers=bearer(table.host))

    threading.Thread(target=later).start()
    started = time.monotonic()
    answer = client.get(f"/api/games/{table.id}/events?after=1&wait=10")
    assert time.monotonic() - started < 5
    assert [e["seq"] for e in answer.json["events"]] == [2]
    # a phone that was asleep catches up with everything after its last seq
    assert [e["seq"] for e in client.get(f"/api/games/{table.id}/events?after=0").json["events"]] == [1, 2]


def test_voids_and_flags_show_in_the_event_list(client: FlaskClient) -> None:
    table = Table(client)
    table.log({"type": "deal", "dealer": 3})
    table.log({"type": "play", "seat": 1, "cards": [5]})
    table.log({"type": "void", "target": 2, "reason": "Ben was early"})
    events = table.events()
    # A withdrawn event is no standing violation; its flag from when it was logged stays.
    assert events[1]["violation"] is None and events[1]["voided"] is True
    assert events[1]["withdrawn"] == {"rule": "kp.turn", "message": "Anna starts this round, not Ben.", "voided_by": 3}
    assert events[2]["violation"] is None and events[2]["withdrawn"] is None
    state = client.get(f"/api/games/{table.id}", headers=bearer(table.host)).json
    assert state["violations"] == [] and state["voided"] == [2]
    assert state["withdrawn"] == [{"seq": 2, "rule": "kp.turn", "message": "Anna starts this round, not Ben.", "voided_by": 3}]


def test_export_and_import_round_trip(client: FlaskClient) -> None:
    text = (EVENTS_DIR / "karriere-poker-5-players-flags.jsonl").read_text(encoding="utf-8")
    imported = client.post("/api/games/import", data=text.encode(), content_type="application/jsonl")
    assert imported.status_code == 201
    exported = client.get(f"/api/games/{imported.json['id']}/record")
    assert exported.status_code == 200 and exported.data.decode() == text
    broken = client.post("/api/games/import", data=text.replace('"seq": 5,', '"seq": 50,').encode(), content_type="application/jsonl")
    assert broken.status_code == 400 and "line 6: seq: expected 5, found 50" in broken.json["error"]


def test_the_openapi_document_lists_every_endpoint(client: FlaskClient) -> None:
    doc = client.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) == {
        "/api/games", "/api/games/import", "/api/join", "/api/games/{game_id}/seats/{seat}",
        "/api/games/{game_id}", "/api/games/{game_id}/events", "/api/games/{game_id}/record",
        "/api/games/{game_id}/reveal", "/api/games/{game_id}/witness/{seq}", "/api/games/{game_id}/host-seat",
        "/api/games/{game_id}/move-code",
    }
    assert "AppendEvent" in doc["components"]["schemas"]


# --- who may do what -----------------------------------------------------------------------------


CALLERS = ["none", "other game", "other seat", "own seat", "host"]


def token_for(caller: str, table: Table, other: Table) -> dict[str, str]:
    return {
        "none": {},
        "other game": bearer(other.host),
        "other seat": bearer(table.seats[1]),
        "own seat": bearer(table.seats[0]),
        "host": bearer(table.host),
    }[caller]


@pytest.mark.parametrize(
    ("method", "path", "body", "expected"),
    [
        ("get", "", None, [200, 403, 200, 200, 200]),
        ("get", "/events", None, [200, 403, 200, 200, 200]),
        ("get", "/record", None, [403, 403, 403, 403, 200]),
        ("post", "/events", {"type": "play", "seat": 0, "cards": [5]}, [401, 403, 403, 201, 201]),
        ("post", "/events", {"type": "note", "text": "coffee"}, [401, 403, 201, 201, 201]),
        ("post", "/events", {"type": "end"}, [401, 403, 403, 403, 201]),
        ("post", "/events", {"type": "void", "target": 2}, [401, 403, 403, 403, 201]),  # the host logged Anna's move
        ("post", "/seats/3", {}, [403, 403, 403, 403, 201]),
    ],
)
def test_auth_matrix(client: FlaskClient, method: str, path: str, body: dict[str, Any] | None, expected: list[int]) -> None:
    for caller, status in zip(CALLERS, expected):
        table, other = Table(client), Table(client)
        table.log({"type": "deal", "dealer": 3})
        table.log({"type": "play", "seat": 0, "cards": [5]})  # seq 2: Anna's move
        url = f"/api/games/{table.id}{path}"
        kwargs: dict[str, Any] = {"headers": token_for(caller, table, other)}
        if body is not None:
            kwargs["json"] = body
        answer = getattr(client, method)(url, **kwargs)
        assert answer.status_code == status, (caller, answer.json if answer.is_json else answer.data[:100])


def test_a_seat_voids_only_what_it_logged_itself(client: FlaskClient) -> None:
    table = Table(client, {"game": "senators", "seats": ["Anna", "Ben", "Cem"]}, claim=(0, 1))
    adjust = table.log({"type": "adjust", "seat": 1, "senators": -1, "reason": "the censor"}).json["seq"]  # the host's books
    refused = table.log({"type": "void", "target": adjust, "reason": "not me"}, table.seats[1])
    assert refused.status_code == 403 and "what the host logged, the host voids" in refused.json["error"]
    table.log({"type": "event", "kind": "other"})
    own = table.log({"type": "blackmail", "seat": 0}, table.seats[0]).json["seq"]
    assert table.log({"type": "void", "target": own}, table.seats[1]).status_code == 403  # Ben cannot void Anna's
    assert table.log({"type": "void", "target": own}, table.seats[0]).status_code == 201  # Anna voids her own
    assert table.log({"type": "void", "target": adjust}).status_code == 201  # the host voids his


def test_a_seat_cannot_claim_to_be_logged_by_someone_else(client: FlaskClient) -> None:
    table = Table(client)
    assert table.log({"type": "note", "text": "x", "by": "host"}, table.seats[0]).status_code == 403
    assert table.log({"type": "note", "text": "x", "by": 0}, table.seats[0]).status_code == 201
    assert client.get(f"/api/games/{table.id}", headers={"Authorization": "Basic abc"}).status_code == 401


# --- private information -------------------------------------------------------------------------


def every_body(client: FlaskClient, table: Table, headers: dict[str, str]) -> str:
    paths = ["", "/events", "/events?after=0", "/record"]
    return "\n".join(client.get(f"/api/games/{table.id}{p}", headers=headers).get_data(as_text=True) for p in paths)


def test_a_recorded_hand_is_never_shown_to_another_seat_or_a_spectator(client: FlaskClient) -> None:
    table = Table(client)
    table.log({"type": "deal", "dealer": 3})
    logged = table.log({"type": "hand", "seat": 0, "cards": ANNA_HAND}, table.seats[0])
    assert logged.json["event"]["cards"] == ANNA_HAND  # the seat's own answer has it
    table.log({"type": "play", "seat": 0, "cards": [2, 2]}, table.seats[0])
    secret = json.dumps([1, 5, 5, 6], separators=(",", ":"))[1:-1]  # part of her hand, as jsonify writes lists
    whole = json.dumps(ANNA_HAND, separators=(",", ":"))
    for headers in ({}, bearer(table.seats[1])):
        bodies = every_body(client, table, headers)
        assert whole not in bodies and secret not in bodies
    assert secret in every_body(client, table, bearer(table.seats[0]))
    assert whole in every_body(client, table, bearer(table.host))


def test_won_cards_and_the_score_table_stay_private_until_the_end(client: FlaskClient) -> None:
    body = {"game": "employee-of-the-month", "seats": ["Anna", "Ben", "Cem"]}
    table = Table(client, body, claim=(0, 1))
    row = ["boss-9", "colleague-1", "colleague-5", "boss-3", "colleague-3", "boss-6", "colleague-8"]
    table.log({"type": "start", "row": row, "distrust": 2, "points": "popularity-7"})
    table.log({"type": "bid", "seat": 0, "card": "boss-9"}, table.seats[0])  # Anna wins boss-9, 2, popularity-7
    for headers in ({}, bearer(table.seats[1])):
        state = client.get(f"/api/games/{table.id}", headers=headers).json
        assert state["result"] is None and state["scores"] is None
        assert "favour_cards" not in state["view"]["holdings"]["Anna"]
        assert state["view"]["holdings"]["Anna"]["favours"] == 1
    own = client.get(f"/api/games/{table.id}", headers=bearer(table.seats[0])).json
    assert own["view"]["holdings"]["Anna"]["points_cards"] == ["popularity-7"]
    table.log({"type": "end", "reason": "done"})
    public = client.get(f"/api/games/{table.id}").json
    # boss: Anna alone holds 9 -> fewest (+7 popularity) and most (-2 distrust); colleague:
    # nobody holds one. Anna 0 + 7 - 2 = 5; Ben and Cem 0.
    assert public["scores"] == {"Anna": 5, "Ben": 0, "Cem": 0}
    assert public["view"]["holdings"]["Anna"]["favour_cards"] == ["boss-9"]


# --- fuzzing -------------------------------------------------------------------------------------

HOSTILE = st.integers(2**63, 2**70) | st.just("\ud800") | st.just("x\udfffy")  # beyond SQLite, lone surrogates
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 2**40) | st.floats(allow_nan=False) | st.text(max_size=20) | HOSTILE,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=12,
)
FIELDS = st.sampled_from(["type", "seat", "cards", "dealer", "to", "count", "target", "text", "expected_seq", "by", "game", "seats", "options", "code", "card", "helpers", "take", "row"])
BODIES = st.one_of(JSON, st.dictionaries(FIELDS, JSON, max_size=6), st.builds(lambda t, d: {"type": t, **d},
    st.sampled_from(["deal", "hand", "play", "pass", "exchange", "void", "note", "end"]), st.dictionaries(FIELDS, JSON, max_size=4)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=BODIES, target=st.sampled_from(["games", "events", "join", "seat", "import", "get"]), as_host=st.booleans(), query=st.text(max_size=12))
def test_fuzzed_requests_never_get_a_5xx(client: FlaskClient, body: Any, target: str, as_host: bool, query: str) -> None:
    game = client.post("/api/games", json=KP).json
    headers = bearer(game["host_token"]) if as_host else {}
    base = f"/api/games/{game['id']}"
    if target == "games":
        answer = client.post("/api/games", json=body)
    elif target == "events":
        answer = client.post(f"{base}/events", json=body, headers=headers)
    elif target == "join":
        answer = client.post("/api/join", json=body)
    elif target == "seat":
        answer = client.post(f"{base}/seats/0", json=body, headers=headers)
    elif target == "import":
        answer = client.post("/api/games/import", data=json.dumps(body), content_type="application/jsonl")
    else:
        answer = client.get(f"{base}/events", query_string={"after": query, "wait": "0"}, headers=headers)
    assert answer.status_code < 500, (target, body, answer.data[:300])
