"""Whom an answer was rendered for: the service worker keeps a game's offline copy per
reader (tests/test_browser_offline.py), so every answer under /g/<game> names its reader
in X-Reader, one per token and seat, never the token itself."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient


def reader(phone: FlaskClient, path: str) -> str | None:
    return phone.get(path).headers.get("X-Reader")


def test_every_phone_is_its_own_reader_and_a_host_who_starts_to_play_is_a_new_one(app: Flask, client: FlaskClient) -> None:
    app.config["LONG_POLL_SECONDS"] = 0
    answer = client.post("/new", data={"game": "karriere-poker", "seats": "Anna\nBen\nCem\nDora"})
    game_id = answer.headers["Location"].split("/")[2]
    table = f"/g/{game_id}"
    code = re.search(r'class="code"[^>]*>(\w+)<', client.get(f"{table}/host").get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    hosting = reader(client, table)
    assert hosting and {reader(client, f"{table}{page}") for page in ("/host", "/history", "/result", "/live?after=0")} == {hosting}

    anna, ben, watcher = app.test_client(), app.test_client(), app.test_client()
    assert anna.post(f"{table}/seats/0", data={"code": code}).status_code == 302
    assert ben.post(f"{table}/seats/1", data={"code": code}).status_code == 302
    readers = [reader(phone, table) for phone in (client, anna, ben, watcher)]
    assert len(set(readers)) == 4  # the host, Anna, Ben and a spectator: four readers
    tokens = [cookie.value for phone in (client, anna, ben) if (cookie := phone.get_cookie("referee_token", path=table))]
    assert len(tokens) == 3 and not any(token in said for token in tokens for said in readers if said)

    # The host starts to play Cem: the same token, a new reader.
    assert client.post(f"{table}/seats/2").status_code == 302
    assert reader(client, table) not in readers
    # The host frees Anna's seat: her phone reads as a spectator now.
    assert client.post(f"{table}/host/release/0").status_code == 302
    assert reader(anna, table) == reader(watcher, table)
    # Outside a game's pages nobody is named: the home page, the API, a game that does not exist.
    assert client.get("/").headers.get("X-Reader") is None
    api = client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert api.status_code == 200 and api.headers.get("X-Reader") is None
    assert reader(watcher, "/g/no-such-game") is None


def test_a_move_kept_for_anna_is_never_stored_when_the_phone_now_holds_bens_seat(app: Flask, client: FlaskClient) -> None:
    """The phone names the reader a move was tapped for (`reader`, from the page); the server
    stores it only for that reader, so a seat freed and taken again between the check the
    phone makes and its send cannot slip Anna's kept move in as Ben's."""
    app.config["LONG_POLL_SECONDS"] = 0
    answer = client.post("/new", data={"game": "karriere-poker", "seats": "Anna\nBen\nCem\nDora"})
    game_id = answer.headers["Location"].split("/")[2]
    table = f"/g/{game_id}"
    code = re.search(r'class="code"[^>]*>(\w+)<', client.get(f"{table}/host").get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    phone = app.test_client()
    assert phone.post(f"{table}/seats/0", data={"code": code}).status_code == 302
    annas = reader(phone, table)
    assert client.post(f"{table}/host/release/0").status_code == 302
    assert phone.post(f"{table}/seats/1", data={"code": code}).status_code == 302
    bens = reader(phone, table)
    assert bens != annas

    refused = phone.post(f"{table}/log", data={"type": "note", "text": "tapped by Anna", "reader": annas}, headers={"HX-Request": "true"})
    assert refused.status_code == 200 and "tapped for whoever held this phone before" in refused.get_data(as_text=True)
    stored = phone.post(f"{table}/log", data={"type": "note", "text": "tapped by Ben", "reader": bens}, headers={"HX-Request": "true"})
    assert "tapped for whoever" not in stored.get_data(as_text=True)
    record = client.get(f"{table}/record").get_data(as_text=True)
    assert "tapped by Ben" in record and "tapped by Anna" not in record
