"""What a hostile client found between the moves, each now closed: the receipt of a game
whose secrets are not revealed, a blind seat testing guesses of its seat's earlier record,
and requests that got a 500 (docs/privacy.md)."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from test_api import Table, bearer

KP = {"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"], "host_seat": 0}
BEN = [1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]


def receipts(app: Flask, bens_hand: list[int]) -> list[str]:
    """The Scores page of a Karriere Poker game ended before the reveal, as a spectator and
    the host who plays Anna read it: Ben's recorded hand is `bens_hand`."""
    client = app.test_client()
    table = Table(client, KP, claim=(1,))
    table.log({"type": "deal", "dealer": 3})
    table.log({"type": "hand", "seat": 1, "cards": bens_hand}, table.seats[1])
    table.log({"type": "end", "reason": "late"})
    host = app.test_client()
    host.set_cookie("referee_token", table.host, path=f"/g/{table.id}")
    pages = [app.test_client().get(f"/g/{table.id}/result").get_data(as_text=True), host.get(f"/g/{table.id}/result").get_data(as_text=True)]
    return [page.replace(table.id, "ID") for page in pages]


def test_the_receipt_of_a_game_with_unrevealed_hands_is_shown_only_once_they_are_revealed(app: Flask) -> None:
    # The receipt is the log's chain hash, which covers Ben's hand: shown before the reveal,
    # anyone could try hands against it. Twins that differ only in Ben's hand read the same.
    one, other = receipts(app, BEN), receipts(app, [*BEN[:-1], 13])
    assert all('id="receipt"' not in page for page in one + other)
    when = r'name="csrf_token" value="[^"]+"|"X-CSRFToken": "[^"]+"|\d{4}-\d\d-\d\d%20\d\d%3A\d\d%3A\d\d'  # per request, per second
    masked = [re.sub(when, "", page) for page in one + other]
    assert masked[:2] == masked[2:]


def test_a_blind_seat_is_told_the_same_whether_its_guess_of_the_earlier_record_is_right(app: Flask) -> None:
    # The host plays Anna; Ben logs his income; the host hands Ben's seat on: the new phone is
    # blind. It sends an income as a stale tap: right guess or wrong, the same answer.
    client = app.test_client()
    table = Table(client, {"game": "ladies-and-gentlemen", "seats": ["Anna", "Ben", "Cem", "Dora"], "host_seat": 0}, claim=(1,))
    before = len(table.events())
    table.log({"type": "income", "seat": 1, "amount": 300, "reason": "contract"}, table.seats[1])
    handed = client.post(f"/api/games/{table.id}/seats/1", json={}, headers=bearer(table.host))
    assert handed.status_code == 201 and handed.json.get("blind", True)
    blind = app.test_client()
    blind.set_cookie("referee_token", handed.json["token"], path=f"/g/{table.id}")
    answers = []
    for guess in (300, 200):
        answer = blind.post(f"/g/{table.id}/log", data={"type": "income", "amount": guess, "reason": "contract", "expected_seq": before},
                            headers={"HX-Request": "true"})
        answers.append(re.sub(r'name="csrf_token" value="[^"]+"', "", answer.get_data(as_text=True)))
    assert answers[0] == answers[1] and "changed meanwhile" in answers[0]


def test_requests_that_once_got_a_500_get_a_4xx(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}, claim=(0,))
    for kind in ([], {}, [None]):  # not an event type: 400 for a seat as for the host
        assert table.log({"type": kind}, table.seats[0]).status_code == 400
        assert table.log({"type": kind}).status_code == 400
    assert client.get(f"/g/{table.id}/void/9223372036854775808").status_code == 404
    seat = app.test_client()
    seat.set_cookie("referee_token", table.seats[0], path=f"/g/{table.id}")
    refused = seat.post(f"/g/{table.id}/log", data={"type": "note", "text": "hi", "reader": "é"}, headers={"HX-Request": "true"})
    assert refused.status_code == 200 and "tapped for whoever held this phone before" in refused.get_data(as_text=True)
    group = client.post("/groups", data={"name": "Club"}).location.rsplit("/", 1)[1]
    assert client.post(f"/groups/{group}/players/{10**25}", data={"name": "x"}).status_code == 302
    assert client.post(f"/groups/{group}/players/1", data={"into": str(10**25)}).status_code == 302
