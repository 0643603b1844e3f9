"""A host who plays is a player: told what the seat is told, with the host's powers kept.

At most tables the phone that starts the game belongs to one of the players. Such a host
says which seat is theirs (when the game is made, or later on the host page), every phone
is told so, and it cannot be taken back: from then on the host's token and pages tell
exactly what that seat's do. Only a host who plays no seat is trusted with every secret.
The property over random games is in test_privacy.py (the twins); here, the story.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from conftest import raw
from flask.testing import FlaskClient

from referee.store import Store
from referee.web import create_app
from test_api import Table, bearer

KP = {"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"]}
ANNA = [1, 2, 2, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13]


@pytest.fixture
def app(database: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})


def test_ben_hosts_and_plays_he_is_not_told_annas_hand_but_keeps_every_host_power(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, {**KP, "host_seat": 1}, claim=(0,))
    spectator = client.get(f"/api/games/{table.id}").json
    assert spectator["host_seat"] == 1  # every phone is told which seat the host plays
    assert client.get(f"/api/games/{table.id}", headers=bearer(table.host)).json["you"] == {"role": "host", "seat": 1}
    assert table.log({"type": "deal", "dealer": 3}).status_code == 201
    table.log({"type": "hand", "seat": 0, "cards": ANNA}, table.seats[0])
    # Ben's own hand, with two jokers, and Anna's: fine. A third joker, logged by Ben the
    # host for Cem, clashes with the deck: that is Cem's and the trusted host's to know.
    assert table.log({"type": "hand", "seat": 1, "cards": ["J", "J", *range(1, 12)]}).json["violation"] is None
    events = client.get(f"/api/games/{table.id}/events", headers=bearer(table.host)).json["events"]
    assert events[1] == {"seq": 2, "type": "hand", "seat": 0, "withheld": True, "violation": None, "voided": False, "withdrawn": None}
    assert events[2]["cards"] == ["J", "J", *range(1, 12)]  # his own
    state = client.get(f"/api/games/{table.id}", headers=bearer(table.host)).json
    assert "Anna" not in str(state["view"].get("hands", {})) and state["clashes"] == []
    assert client.get(f"/api/games/{table.id}/record", headers=bearer(table.host)).status_code == 403  # it holds Anna's hand
    page_client = app.test_client()
    page_client.set_cookie("referee_token", table.host, path=f"/g/{table.id}")
    page = page_client.get(f"/g/{table.id}").get_data(as_text=True)
    assert "You are the host and play Ben" in page and "Anna&#39;s hand" not in page
    # The host's powers: a move for Anna, a void of it, the end, and the reveal.
    played = table.log({"type": "play", "seat": 0, "cards": [13]})
    assert played.status_code == 201 and played.json["event"]["by"] == "host"
    assert table.log({"type": "void", "target": played.json["seq"], "reason": "wrong card"}).status_code == 201
    assert table.log({"type": "end", "reason": "time"}).status_code == 201
    assert client.post(f"/api/games/{table.id}/reveal", headers=bearer(table.host)).status_code == 200
    revealed = client.get(f"/api/games/{table.id}/events", headers=bearer(table.host)).json["events"]
    assert revealed[1]["cards"] == ANNA  # revealed: everyone's now


def test_the_host_says_later_which_seat_is_theirs_and_it_cannot_change(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}, claim=(0, 2))
    table.log({"type": "note", "text": "we shuffle"}, table.seats[0])
    assert 1 not in {s["seat"] for s in client.post("/api/join", json={"code": table.code}).json["seats"] if s["claimed"]}
    assert client.post(f"/api/games/{table.id}/host-seat", json={"seat": 1}, headers=bearer(table.seats[0])).status_code == 403
    assert client.post(f"/api/games/{table.id}/host-seat", json={"seat": 3}, headers=bearer(table.host)).json["fields"] == {
        "seat": ["There are 3 seats (0 to 2)."]}
    assert client.post(f"/api/games/{table.id}/host-seat", json={"seat": 1}, headers=bearer(table.host)).json == {"host_seat": 1}
    # Every phone is told from when: after event 1, the note.
    assert client.get(f"/api/games/{table.id}").json["seat_changes"] == [{"seq": 1, "seat": 1, "kind": "host-plays"}]
    assert "The host plays Ben from event 1 on." in app.test_client().get(f"/g/{table.id}/history").get_data(as_text=True)
    table.log({"type": "hand", "seat": 0, "cards": list(range(1, 13))}, table.seats[0])
    assert "cards" not in client.get(f"/api/games/{table.id}/events", headers=bearer(table.host)).json["events"][1]
    again = client.post(f"/api/games/{table.id}/host-seat", json={"seat": 2}, headers=bearer(table.host))
    assert again.status_code == 409 and "plays seat 1 already" in again.json["error"]
    assert {s["seat"] for s in client.post("/api/join", json={"code": table.code}).json["seats"] if s["claimed"]} == {0, 1, 2}
    # Not even the database lets it change.
    store = Store(app.config["DATABASE"])
    with pytest.raises(store.db.IntegrityError, match="cannot change"):
        raw(store, "UPDATE games SET host_seat = NULL")


def test_a_host_who_has_kept_score_past_a_secret_cannot_start_to_play(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}, claim=(0, 2))
    table.log({"type": "hand", "seat": 0, "cards": list(range(1, 13))}, table.seats[0])
    assert client.get(f"/api/games/{table.id}/events", headers=bearer(table.host)).json["events"][0]["cards"] == list(range(1, 13))
    # The host has been told Anna's hand: playing Ben now would play with it in mind.
    refused = client.post(f"/api/games/{table.id}/host-seat", json={"seat": 1}, headers=bearer(table.host))
    assert refused.status_code == 409 and "one was logged at event 1" in refused.json["error"]
    assert client.get(f"/api/games/{table.id}").json["host_seat"] is None
    # On the host page too, in words.
    host = app.test_client()
    host.set_cookie("referee_token", table.host, path=f"/g/{table.id}")
    page = host.post(f"/g/{table.id}/seats/1", follow_redirects=True).get_data(as_text=True)
    assert "another seat&#39;s private record has been logged, so the host can no longer play a seat" in page
    host.set_cookie("lang", "de")
    page = host.post(f"/g/{table.id}/seats/1", follow_redirects=True).get_data(as_text=True)
    assert "darum kann der Gastgeber keinen Platz mehr spielen" in page
    assert client.get(f"/api/games/{table.id}").json["seat_changes"] == []


def test_a_seat_for_the_host_outside_the_table_is_refused_naming_it(app: Flask) -> None:
    client = app.test_client()
    for seat, problem in ((4, ["There are 4 seats (0 to 3)."]), (-1, ["Must be greater than or equal to 0."]), ("1", ["Not a valid integer."])):
        answer = client.post("/api/games", json={**KP, "host_seat": seat})
        assert answer.status_code == 400 and answer.json["fields"] == {"host_seat": problem}


def test_the_new_game_form_asks_who_plays_on_this_phone_and_the_table_tells_everyone(app: Flask) -> None:
    host = app.test_client()
    form = host.get("/new?game=senators").get_data(as_text=True)
    assert "Who plays on this phone?" in form and "Nobody plays on this phone" in form
    made = host.post("/new", data={"game": "senators", "seats": "Anna\nBen\nCem", "plays": "Cem"})
    game_id = made.headers["Location"].split("/")[2]
    assert "You are the host and play Cem" in host.get(f"/g/{game_id}").get_data(as_text=True)
    assert "the host plays Cem" in app.test_client().get(f"/g/{game_id}").get_data(as_text=True)
    assert "played on the host's phone" in app.test_client().get(f"/g/{game_id}/seats").get_data(as_text=True)
    assert "I play this seat" not in host.get(f"/g/{game_id}/host").get_data(as_text=True)  # it is chosen for good
    refused = host.post(f"/g/{game_id}/seats/0", follow_redirects=True).get_data(as_text=True)
    assert "This phone plays Cem already; that cannot change before the reveal." in refused
    wrong = host.post("/new", data={"game": "senators", "seats": "Anna\nBen\nCem", "plays": "Dora"})
    assert wrong.status_code == 400 and "“Dora” is not one of the players" in wrong.get_data(as_text=True)


def test_a_host_who_plays_no_seat_is_still_told_everything(client: FlaskClient) -> None:
    table = Table(client, {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}, claim=(0,))
    table.log({"type": "hand", "seat": 0, "cards": list(range(1, 13))}, table.seats[0])
    assert client.get(f"/api/games/{table.id}/events", headers=bearer(table.host)).json["events"][0]["cards"] == list(range(1, 13))
    assert client.get(f"/api/games/{table.id}", headers=bearer(table.host)).json["host_seat"] is None


LG = {"game": "ladies-and-gentlemen", "seats": ["Anna", "Ben", "Cem", "Dora"], "options": {"gossip": True}, "host_seat": 0}
LG_OPENING = [{"type": "day", "n": 1}, {"type": "number", "seat": 1, "number": 1}, {"type": "number", "seat": 3, "number": 2}]


def test_a_host_who_plays_cannot_read_another_teams_money_by_claiming_a_seat_nobody_held(app: Flask) -> None:
    # Anna hosts and plays; Dora's phone logs her income. Cem (Dora's lady) has no phone yet,
    # and the join code is the host's too: a first claim of Cem's seat now is told nothing
    # private, whatever Dora earned, until the reveal.
    told = []
    for amount in (300, 600):
        client = app.test_client()
        table = Table(client, LG, claim=(3,))
        for event in LG_OPENING:
            assert table.log(event).status_code == 201
        assert table.log({"type": "income", "seat": 3, "amount": amount, "reason": "contract"}, table.seats[3]).status_code == 201
        claimed = client.post(f"/api/games/{table.id}/seats/2", json={"code": table.code})
        assert claimed.status_code == 201
        state = client.get(f"/api/games/{table.id}", headers=bearer(claimed.json["token"])).json
        assert state["you"] == {"role": "seat", "seat": 2, "blind": True}
        events = client.get(f"/api/games/{table.id}/events", headers=bearer(claimed.json["token"])).json["events"]
        told.append((state["view"], [{k: v for k, v in e.items() if k != "at"} for e in events]))  # the twins were logged moments apart
    assert told[0] == told[1]


def test_a_player_who_joins_after_others_logged_their_hands_reads_his_own(app: Flask) -> None:
    # The nearest legal case: Anna (the host) and Cem logged their hands before Ben sat
    # down. Nothing in the log is Ben's, so his first claim is not blind: he reads the hand
    # he logs, and neither of theirs.
    client = app.test_client()
    table = Table(client, {**KP, "host_seat": 0}, claim=(2,))
    table.log({"type": "deal", "dealer": 3})
    table.log({"type": "hand", "seat": 0, "cards": ANNA})
    table.log({"type": "hand", "seat": 2, "cards": ANNA}, table.seats[2])
    ben = client.post(f"/api/games/{table.id}/seats/1", json={"code": table.code}).json["token"]
    assert client.get(f"/api/games/{table.id}", headers=bearer(ben)).json["you"] == {"role": "seat", "seat": 1}
    table.log({"type": "hand", "seat": 1, "cards": [3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9]}, ben)
    events = client.get(f"/api/games/{table.id}/events", headers=bearer(ben)).json["events"]
    assert [e.get("withheld", False) for e in events[1:]] == [True, True, False]
    assert events[3]["cards"] == [3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9]


def test_a_hand_the_playing_host_logged_for_a_seat_nobody_held_is_not_told_to_its_first_claim(app: Flask) -> None:
    # Anna hosts and plays FTW?!; she logs a hand for Cem (two cards: it clashes with the
    # hand's size). Whether it was flagged is Cem's to know; a token the host makes for Cem's
    # seat by the join code is blind, so it tells the host nothing her own answer withheld.
    client = app.test_client()
    table = Table(client, {"game": "ftw", "seats": ["Anna", "Ben", "Cem"], "host_seat": 0}, claim=())
    logged = table.log({"type": "hand", "seat": 2, "cards": [4, 5]})
    assert logged.json["violation"] is None  # withheld from the host who plays Anna
    cem = client.post(f"/api/games/{table.id}/seats/2", json={"code": table.code}).json["token"]
    events = client.get(f"/api/games/{table.id}/events", headers=bearer(cem)).json["events"]
    assert client.get(f"/api/games/{table.id}", headers=bearer(cem)).json["you"]["blind"] is True
    assert events[0]["withheld"] is True and events[0]["violation"] is None


def test_a_host_who_plays_ftw_and_logs_bens_move_is_offered_every_card_not_her_hand(app: Flask) -> None:
    # Anna hosts, plays and logged her hand; at Ben's turn her phone logs for him. The cards
    # it offers are his choice: every card above the top, never her own hand under his name.
    client = app.test_client()
    table = Table(client, {"game": "ftw", "seats": ["Anna", "Ben", "Cem"], "host_seat": 0}, claim=())
    anna = list(range(1, 13))
    table.log({"type": "hand", "seat": 0, "cards": anna})
    assert table.log({"type": "high", "seat": 0, "card": 5}).json["violation"] is None
    phone = app.test_client()
    phone.set_cookie("referee_token", table.host, path=f"/g/{table.id}")
    page = phone.get(f"/g/{table.id}").get_data(as_text=True)
    controls = page[page.index('<span id="actions">'):]
    assert "Logging for Ben" in controls
    offered = [int(n) for n in re.findall(r'<button name="card" value="(\d+)"', controls)]
    assert offered[:31] == list(range(6, 37))  # the high grid: 6 to 36, whatever Anna holds
