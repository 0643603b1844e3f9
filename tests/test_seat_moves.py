"""A seat changes phones without changing hands (docs/privacy.md, every hand-off).

Anna's phone moves her seat to her new phone with a one-time code, keeping everything.
When a phone is lost, the host hands its seat on: every phone is told, the history shows
it, and where the host plays a seat, the new phone is told none of the seat's earlier
secrets until the reveal (the player holds the real cards), so a host who plays can never
read another hand through a token of its own making. Two phones never hold one seat, even
when they ask two server processes at the same moment.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from conftest import query, raw
from referee.store import Store
from referee.web import create_app
from test_api import Table, bearer
from test_live import post, serve

FTW = {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}
ANNA = list(range(1, 13))


@pytest.fixture
def app(database: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})


def annas_cards(client: FlaskClient, table: Table, token: str) -> list[int] | None:
    """Anna's recorded hand as this token is told it (None: withheld)."""
    return client.get(f"/api/games/{table.id}/events", headers=bearer(token)).json["events"][0].get("cards")


def test_anna_moves_her_seat_to_her_new_phone_keeping_everything(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, FTW, claim=(0,))
    table.log({"type": "hand", "seat": 0, "cards": ANNA}, table.seats[0])
    for stranger in (table.host, None):  # only the seat's own phone moves it
        assert client.post(f"/api/games/{table.id}/move-code", headers=bearer(stranger) if stranger else {}).status_code == 403
    code = client.post(f"/api/games/{table.id}/move-code", headers=bearer(table.seats[0])).json["move_code"]
    assert client.post(f"/api/games/{table.id}/seats/1", json={"move_code": code}).status_code == 403  # Ben's seat: not this code's
    moved = client.post(f"/api/games/{table.id}/seats/0", json={"move_code": code})
    assert moved.status_code == 201 and annas_cards(client, table, moved.json["token"]) == ANNA
    assert client.get(f"/api/games/{table.id}", headers=bearer(table.seats[0])).status_code == 403  # the old phone is out
    assert client.post(f"/api/games/{table.id}/seats/0", json={"move_code": code}).status_code == 403  # once only
    # Nothing changed hands: no phone is told of it.
    assert client.get(f"/api/games/{table.id}").json["seat_changes"] == []


def test_a_move_code_expires_and_a_new_one_ends_the_last(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, FTW, claim=(0,))
    first = client.post(f"/api/games/{table.id}/move-code", headers=bearer(table.seats[0])).json["move_code"]
    second = client.post(f"/api/games/{table.id}/move-code", headers=bearer(table.seats[0])).json["move_code"]
    assert client.post(f"/api/games/{table.id}/seats/0", json={"move_code": first}).status_code == 403
    raw(Store(app.config["DATABASE"]), "UPDATE move_codes SET expires = 0")
    assert client.post(f"/api/games/{table.id}/seats/0", json={"move_code": second}).status_code == 403
    assert client.get(f"/api/games/{table.id}", headers=bearer(table.seats[0])).json["you"] == {"role": "seat", "seat": 0}


def test_anna_moves_her_seat_on_the_pages_with_the_code_her_phone_shows(app: Flask) -> None:
    table = Table(app.test_client(), FTW, claim=())
    old = app.test_client()
    old.post(f"/g/{table.id}/seats/0", data={"code": table.code})
    table.log({"type": "hand", "seat": 0, "cards": ANNA}, old.get_cookie("referee_token", path=f"/g/{table.id}").value)  # type: ignore[union-attr]
    assert "Move this seat to another phone" in old.get(f"/g/{table.id}").get_data(as_text=True)
    shown = old.post(f"/g/{table.id}/move").get_data(as_text=True)
    assert "The code works once, for 10 minutes" in shown and "<svg" in shown
    link = shown.split(f'href="http://localhost/g/{table.id}/take/0?code=')[1].split('"')[0]
    new = app.test_client()
    asked = new.get(f"/g/{table.id}/take/0?code={link}").get_data(as_text=True)
    assert "Take Anna's seat" in asked  # asked first: a link preview never uses the code up
    taken = new.post(f"/g/{table.id}/take/0", data={"code": link}, follow_redirects=True).get_data(as_text=True)
    assert "You are" in taken and "<strong>Anna</strong>" in taken
    assert "You are watching" in old.get(f"/g/{table.id}").get_data(as_text=True)
    again = app.test_client().post(f"/g/{table.id}/take/0", data={"code": link})
    assert again.status_code == 403 and "it was used, or it is too old" in again.get_data(as_text=True)


def test_cems_new_phone_types_the_move_code_into_the_join_box_and_is_asked_to_take_his_seat(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, FTW, claim=(2,))
    code = client.post(f"/api/games/{table.id}/move-code", headers=bearer(table.seats[2])).json["move_code"]
    typed = f"{code[:4].lower()} {code[4:]}"  # as read off Cem's old phone
    found = client.post("/api/join", json={"code": typed})
    assert found.status_code == 200 and (found.json["id"], found.json["moves_seat"]) == (table.id, 2)
    new = app.test_client()
    asked = new.post("/join", data={"code": typed}, follow_redirects=True).get_data(as_text=True)
    assert "Take Cem's seat" in asked and f'value="{code}"' in asked  # asked first: nothing taken yet
    assert new.post(f"/g/{table.id}/take/2", data={"code": code}).status_code == 302
    gone = new.post("/join", data={"code": typed})  # used: no game, no seat
    assert gone.status_code == 404 and f"No game has the code {typed}." in gone.get_data(as_text=True)
    assert client.post("/api/join", json={"code": code}).status_code == 404


def test_typed_move_codes_share_the_join_codes_limit_of_wrong_tries(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, FTW, claim=(0,))
    code = client.post(f"/api/games/{table.id}/move-code", headers=bearer(table.seats[0])).json["move_code"]
    tries = [client.post("/join", data={"code": f"WRONG{i}"}).status_code for i in range(6)]
    tries += [client.post("/api/join", json={"code": f"WRONG{i}"}).status_code for i in range(6)]
    assert tries[:10] == [404] * 10 and tries[-1] == 429
    assert client.post("/join", data={"code": code}).status_code == 429  # even the right one waits a minute


def test_the_host_hands_a_lost_phones_seat_on_and_every_phone_is_told(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, FTW, claim=(0, 1))
    table.log({"type": "hand", "seat": 0, "cards": ANNA}, table.seats[0])
    handed = client.post(f"/api/games/{table.id}/seats/0", json={}, headers=bearer(table.host))
    # A host who keeps score is trusted: Anna's new phone keeps her hand; the lost one is out.
    assert handed.status_code == 201 and annas_cards(client, table, handed.json["token"]) == ANNA
    assert client.get(f"/api/games/{table.id}", headers=bearer(table.seats[0])).status_code == 403
    assert client.get(f"/api/games/{table.id}").json["seat_changes"] == [{"seq": 1, "seat": 0, "kind": "handed-on"}]
    ben = app.test_client()
    ben.set_cookie("referee_token", table.seats[1], path=f"/g/{table.id}")
    assert "After event 1 the host handed Anna's seat to a new phone." in ben.get(f"/g/{table.id}").get_data(as_text=True)
    ben.set_cookie("lang", "de")
    history = ben.get(f"/g/{table.id}/history").get_data(as_text=True)
    assert "Nach Ereignis 1 hat der Gastgeber den Platz von Anna einem neuen Handy gegeben." in history


def test_a_host_who_plays_ben_cannot_read_annas_hand_through_a_token_of_its_own_making(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, {**FTW, "host_seat": 1}, claim=(0,))
    assert client.post(f"/api/games/{table.id}/seats/1", json={"code": table.code}).status_code == 409  # the host's phone plays Ben
    table.log({"type": "hand", "seat": 0, "cards": ANNA}, table.seats[0])
    # Over the API: a token for Anna's seat, blind to her hand until the reveal.
    made = client.post(f"/api/games/{table.id}/seats/0", json={}, headers=bearer(table.host)).json["token"]
    assert annas_cards(client, table, made) is None
    assert client.get(f"/api/games/{table.id}", headers=bearer(made)).json["you"] == {"role": "seat", "seat": 0, "blind": True}
    # Moving it on keeps it blind.
    code = client.post(f"/api/games/{table.id}/move-code", headers=bearer(made)).json["move_code"]
    moved = client.post(f"/api/games/{table.id}/seats/0", json={"move_code": code}).json["token"]
    assert annas_cards(client, table, moved) is None
    # On the pages: the host frees Anna's seat, a second browser claims it with the join code.
    host = app.test_client()
    host.set_cookie("referee_token", table.host, path=f"/g/{table.id}")
    freed = host.post(f"/g/{table.id}/host/release/0", follow_redirects=True).get_data(as_text=True)
    assert "Anna&#39;s seat is free again." in freed and "told none of that seat's secrets logged before" in freed
    second = app.test_client()
    second.post(f"/g/{table.id}/seats/0", data={"code": table.code})
    token = second.get_cookie("referee_token", path=f"/g/{table.id}").value  # type: ignore[union-attr]
    assert annas_cards(client, table, token) is None
    assert "Anna&#39;s hand" not in second.get(f"/g/{table.id}").get_data(as_text=True)
    # The reveal shows it to everyone, the new phone too.
    table.log({"type": "end", "reason": "time"})
    assert client.post(f"/api/games/{table.id}/reveal", headers=bearer(table.host)).status_code == 200
    assert annas_cards(client, table, token) == ANNA


def test_a_seat_handed_on_before_any_secret_keeps_its_own(app: Flask) -> None:
    client = app.test_client()
    table = Table(client, {**FTW, "host_seat": 1}, claim=(0,))
    made = client.post(f"/api/games/{table.id}/seats/0", json={}, headers=bearer(table.host)).json["token"]
    table.log({"type": "hand", "seat": 0, "cards": ANNA}, made)
    assert annas_cards(client, table, made) == ANNA


def test_twenty_phones_racing_for_one_seat_over_two_server_processes_get_one_token(database: str) -> None:
    # Two `referee serve` processes on one store; 20 phones claim Ben's seat at once, half
    # through each: exactly one is answered with a token, and only that token works.
    (a, base_a), (b, base_b) = serve(database), serve(database)
    try:
        for _ in range(3):
            _, made = post(f"{base_a}/api/games", FTW)
            game, code = made["id"], str(made["join_code"])
            answers: list[tuple[int, dict[str, object]]] = []
            start = threading.Barrier(20)

            def phone(base: str) -> None:
                start.wait()
                answers.append(post(f"{base}/api/games/{game}/seats/1", {"code": code}))

            phones = [threading.Thread(target=phone, args=(base,)) for base in (base_a, base_b) * 10]
            for each in phones:
                each.start()
            for each in phones:
                each.join(30)
            assert sorted(status for status, _ in answers) == [201] + [409] * 19
            token = next(str(body["token"]) for status, body in answers if status == 201)
            for base in (base_a, base_b):
                assert post(f"{base}/api/games/{game}/move-code", {}, token)[0] == 201
            assert query(database, f"SELECT COUNT(*) FROM tokens WHERE game = '{game}' AND seat = 1") == [(1,)]
    finally:
        for process in (a, b):
            process.kill()
            process.wait()


def test_an_older_store_where_two_phones_held_one_seat_keeps_the_first(tmp_path: Path) -> None:
    path = str(tmp_path / "old.sqlite3")
    store = Store(path)  # made as a store of layout 5 was: no unique seat, no blind tokens
    raw(store, "DROP INDEX tokens_one_per_seat", "ALTER TABLE tokens DROP COLUMN blind", "UPDATE meta SET value = '5' WHERE key = 'schema'",
        "INSERT INTO tokens (hash, game, role, seat, created_at) VALUES ('b', 'g', 'seat', 1, '2026-11-27T20:00:01+00:00')",
        "INSERT INTO tokens (hash, game, role, seat, created_at) VALUES ('a', 'g', 'seat', 1, '2026-11-27T20:00:00+00:00')")
    store.close()
    Store(path).close()
    assert query(path, "SELECT hash FROM tokens") == [("a",)]
    assert query(path, "SELECT value FROM meta WHERE key = 'schema'") == [("6",)]


def test_a_phone_whose_seat_the_host_hands_on_is_told_at_once_not_at_its_next_poll(app: Flask) -> None:
    """Anna's phone waits for news; the host frees her seat (the phone is lost): the wait ends
    within a second and the answer is a spectator's, without Anna's hand."""
    app.config["LONG_POLL_SECONDS"] = 20
    table = Table(app.test_client(), FTW, claim=())
    phone = app.test_client()
    phone.post(f"/g/{table.id}/seats/0", data={"code": table.code})
    table.log({"type": "hand", "seat": 0, "cards": ANNA}, phone.get_cookie("referee_token", path=f"/g/{table.id}").value)  # type: ignore[union-attr]
    page = phone.get(f"/g/{table.id}").get_data(as_text=True)
    poll = page.split('hx-get="')[1].split('"')[0].replace("&amp;", "&")
    assert "seats=0" in poll
    answers: list[tuple[float, str]] = []

    def wait() -> None:
        started = time.monotonic()
        text = phone.get(poll).get_data(as_text=True)
        answers.append((time.monotonic() - started, text))

    waiting = threading.Thread(target=wait)
    waiting.start()
    time.sleep(0.3)
    assert table.client.post(f"/api/games/{table.id}/seats/0", json={}, headers=bearer(table.host)).status_code == 201  # handed on
    waiting.join(timeout=10)
    (took, text), = answers
    assert took < 2, took  # the half-second head check sees the hand-over, not the 20 s timeout
    assert "Move this seat to another phone" not in text and "seats=1" in text
