"""The pages through the real Flask app: escaping, CSRF, the seat cookie, language, results."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import EVENTS_DIR
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from kp_helpers import finish_game

from referee.record import Header
from referee.replay import replay
from referee.web import create_app

EVIL = "<script>alert(1)</script>"


def new_game(client: FlaskClient, game: str, seats: list[str], **form: str) -> str:
    answer = client.post("/new", data={"game": game, "seats": "\n".join(seats), **form})
    assert answer.status_code == 302, answer.data[:500]
    return answer.headers["Location"].split("/")[2]


def log(client: FlaskClient, game_id: str, **form: Any) -> Any:
    return client.post(f"/g/{game_id}/log", data={k: str(v) for k, v in form.items()}, headers={"HX-Request": "true"})


def page_paths(game_id: str) -> list[str]:
    return ["/", f"/g/{game_id}", f"/g/{game_id}/host", f"/g/{game_id}/seats", f"/g/{game_id}/history",
            f"/g/{game_id}/history?at=1", f"/g/{game_id}/result", f"/g/{game_id}/live?after=99"]


def test_names_notes_and_reasons_are_escaped_on_every_page(client: FlaskClient, app: Flask) -> None:
    app.config["LONG_POLL_SECONDS"] = 0
    game_id = new_game(client, "karriere-poker", [EVIL, "Ben", "Cem", "Dora"], title=EVIL)
    log(client, game_id, type="deal", dealer=3)
    log(client, game_id, type="note", text=EVIL)
    log(client, game_id, type="pass", seat=0)  # flagged: names the player in the message
    client.post(f"/g/{game_id}/void/3", data={"reason": EVIL})
    for path in page_paths(game_id):
        body = client.get(path).get_data(as_text=True)
        assert EVIL not in body, path
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in client.get(f"/g/{game_id}/history").get_data(as_text=True)


def test_forms_without_a_csrf_token_are_refused(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.sqlite3"), "SECRET_KEY": "test"})
    client = app.test_client()
    assert client.post("/new", data={"game": "ftw", "seats": "A\nB"}).status_code == 400
    page = client.get("/new?game=ftw").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]
    assert client.post("/new", data={"game": "ftw", "seats": "A\nB", "csrf_token": token}).status_code == 302
    # the JSON API authenticates with bearer tokens and needs no CSRF token
    assert client.post("/api/games", json={"game": "ftw", "seats": ["A", "B"]}).status_code == 201


def test_the_seat_cookie_is_httponly_samesite_and_opens_only_its_own_game(client: FlaskClient) -> None:
    first = new_game(client, "ftw", ["Anna", "Ben"])
    second = client.post("/api/games", json={"game": "ftw", "seats": ["Cem", "Dora"]}).json["id"]
    code = client.get(f"/g/{first}/host").get_data(as_text=True)
    join_code = re.search(r'class="code"[^>]*>(\w+)<', code).group(1)  # type: ignore[union-attr]
    phone = client.application.test_client()
    claimed = phone.post(f"/g/{first}/seats/1", data={"code": join_code})
    cookie = claimed.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and f"Path=/g/{first}" in cookie
    assert "You are <strong>Ben</strong>" in phone.get(f"/g/{first}").get_data(as_text=True)
    token = re.search(r"referee_token=([^;]+)", cookie).group(1)  # type: ignore[union-attr]
    phone.set_cookie("referee_token", token, path=f"/g/{second}")
    assert "You are watching" in phone.get(f"/g/{second}").get_data(as_text=True)


def test_a_wrong_join_code_does_not_give_a_seat(client: FlaskClient) -> None:
    game_id = new_game(client, "ftw", ["Anna", "Ben"])
    phone = client.application.test_client()
    assert phone.post(f"/g/{game_id}/seats/0", data={"code": "AAAAAA"}).status_code == 403
    assert phone.post("/join", data={"code": "AAAAAA"}).status_code == 404


def test_pages_work_read_only_without_javascript(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    assert client.post(f"/g/{game_id}/log", data={"type": "deal", "dealer": "3"}).status_code == 302  # plain form post
    client.post(f"/g/{game_id}/log", data={"type": "play", "seat": "0", "pick": "7", "count": "3", "jokers": "0"})
    spectator = client.application.test_client()
    page = spectator.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Ben's turn" in page and page.count('class="card top"') == 3
    assert "<form" not in page.split("<h2>Latest</h2>")[0].split('class="panel"')[1]  # no actions for a spectator


def test_a_flag_shows_with_its_rule_and_can_be_voided_by_its_author(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    log(client, game_id, type="deal", dealer=3)
    log(client, game_id, type="play", seat=0, pick=7, count=3, jokers=0)
    flagged = log(client, game_id, type="play", seat=1, pick=9, count=2, jokers=0).get_data(as_text=True)
    assert "Ben played two 9s, but the lead was three cards." in flagged
    assert f'href="/rules/karriere-poker?rule=kp.raise.count&amp;back=/g/{game_id}#kp.raise.count"' in flagged
    voided = client.post(f"/g/{game_id}/void/3", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "data-rule=" not in voided
    assert 'id="kp.raise.count"' in client.get("/rules/karriere-poker").get_data(as_text=True)


def test_history_jumps_to_the_first_violation_and_shows_the_table_then(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    log(client, game_id, type="deal", dealer=3)
    log(client, game_id, type="play", seat=0, pick=7, count=3, jokers=0)
    log(client, game_id, type="pass", seat=2)
    page = client.get(f"/g/{game_id}/history").get_data(as_text=True)
    assert f"/g/{game_id}/history?at=3#e3" in page
    then = client.get(f"/g/{game_id}/history?at=2").get_data(as_text=True)
    assert "The table after event 2" in then and then.count('class="card top"') == 3


def test_german_from_the_browser_and_a_switch(client: FlaskClient) -> None:
    assert "Einem Spiel beitreten" in client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"}).get_data(as_text=True)
    client.get("/lang/en")
    assert "Join a game" in client.get("/", headers={"Accept-Language": "de-DE"}).get_data(as_text=True)
    client.get("/lang/de")
    body = client.get("/new?game=karriere-poker").get_data(as_text=True)
    assert "Tellerwäscher" in body and "Neues Spiel" in body


@pytest.mark.parametrize(
    ("record", "marks"),
    [
        ("employee-of-the-month-3-players.jsonl", ['id="majority"', "Majority table"]),
        ("ftw-3-players.jsonl", ['id="round-sheet"', "<svg", "Running totals"]),
        ("karriere-poker-4-players.jsonl", ['id="positions"', "Winner", "Boss and Tellerwäscher games"]),
    ],
)
def test_imported_records_show_their_scoring_table(client: FlaskClient, record: str, marks: list[str]) -> None:
    text = (EVENTS_DIR / record).read_text(encoding="utf-8")
    imported = client.post("/import", data={"text": text})
    assert imported.status_code == 302
    game_id = imported.headers["Location"].split("/")[2]
    page = client.get(f"/g/{game_id}/result").get_data(as_text=True)
    for mark in marks:
        assert mark in page
    assert client.get(f"/g/{game_id}/record").get_data(as_text=True) == text


def test_the_next_exchange_table_between_games(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    header = Header("karriere-poker", ("Anna", "Ben", "Cem", "Dora"))
    log(client, game_id, type="deal", dealer=3)
    state = replay(header, [{"seq": 1, "type": "deal", "dealer": 3}]).state
    for body in finish_game(state, [1, 0, 3, 2]):
        client.post(f"/api/games/{game_id}/events", data=json.dumps(body), content_type="application/json",
                    headers={"Authorization": "Bearer " + host_token(client, game_id)})
    page = client.get(f"/g/{game_id}/result").get_data(as_text=True)
    assert "Ben (Boss) gives Cem (Tellerwäscher) the 2 lowest cards; Cem gives back the 2 highest." in page


def host_token(client: FlaskClient, game_id: str) -> str:
    cookie = client.get_cookie("referee_token", path=f"/g/{game_id}")
    assert cookie is not None
    return cookie.value


def test_an_import_that_is_not_a_record_names_the_line(client: FlaskClient) -> None:
    page = client.post("/import", data={"text": '{"format": "table-record/1"}\n'})
    assert page.status_code == 400 and "line 1:" in page.get_data(as_text=True)


def test_the_host_page_has_the_code_and_an_svg_qr_code(client: FlaskClient) -> None:
    game_id = new_game(client, "ftw", ["Anna", "Ben"])
    page = client.get(f"/g/{game_id}/host").get_data(as_text=True)
    assert re.search(r'class="code"[^>]*>[A-Z2-9]{6}<', page) and "<svg" in page
    assert client.application.test_client().get(f"/g/{game_id}/host").status_code == 302  # not the host: to the table


def test_employee_of_the_month_is_played_through_the_forms(client: FlaskClient) -> None:
    game_id = new_game(client, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    start = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert 'name="row"' in start and 'name="distrust"' in start
    log(client, game_id, type="start", row="boss-9 colleague-1 colleague-5 boss-3 colleague-3 boss-6 colleague-8",
        distrust=2, points="plus-4")
    page = log(client, game_id, type="bid", seat=0, card="colleague-3").get_data(as_text=True)
    assert 'name="card" value="boss-9"' in page and "Ben's turn" in page
    page = log(client, game_id, type="bid", seat=1, card="boss-9").get_data(as_text=True)  # the top card wins at once
    assert "New favour card" in page
    page = log(client, game_id, type="reveal", favour="boss-2", distrust=3, points="popularity-5").get_data(as_text=True)
    assert "Auction 2 / 32" in page and "Ben's turn" in page
    flagged = log(client, game_id, type="bid", seat=1, card="boss-7").get_data(as_text=True)
    assert 'data-rule="eotm.bid.row"' in flagged


def test_karriere_poker_exchange_buttons_between_games(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    header = Header("karriere-poker", ("Anna", "Ben", "Cem", "Dora"))
    log(client, game_id, type="deal", dealer=3)
    state = replay(header, [{"seq": 1, "type": "deal", "dealer": 3}]).state
    token = host_token(client, game_id)
    for body in finish_game(state, [0, 1, 2, 3]):
        client.post(f"/api/games/{game_id}/events", json=body, headers={"Authorization": "Bearer " + token})
    page = log(client, game_id, type="deal").get_data(as_text=True)  # Dora, the Tellerwäscher, deals game 2
    assert "Anna gives Dora 2 cards" in page and "Ben gives Cem 1 card" in page
    page = log(client, game_id, type="exchange", seat=0, to=3, count=2).get_data(as_text=True)
    assert "Anna gives Dora 2 cards</button>" not in page and "Dora gives Anna 2 cards</button>" in page
    assert "Anna gives Dora 2 cards.</span>" in page  # Latest tells the exchange in a sentence
    german = client.get(f"/g/{game_id}", headers={"Accept-Language": "de"}).get_data(as_text=True)
    assert "Dora gibt Anna 2 Karten" in german and "Ben gibt Cem 1 Karte" in german


def test_a_logged_hand_shows_only_on_its_own_phone(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    code = re.search(r'class="code"[^>]*>(\w+)<', client.get(f"/g/{game_id}/host").get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    anna, ben = client.application.test_client(), client.application.test_client()
    anna.post(f"/g/{game_id}/seats/0", data={"code": code})
    ben.post(f"/g/{game_id}/seats/1", data={"code": code})
    log(client, game_id, type="deal", dealer=3)
    anna.post(f"/g/{game_id}/log", data={"type": "hand", "seat": "0", "cards": "1 2 2 5 5 6 7 8 9 10 11 12 13"})
    assert "Your hand" in anna.get(f"/g/{game_id}").get_data(as_text=True)
    for phone in (ben, client.application.test_client()):
        table = phone.get(f"/g/{game_id}").get_data(as_text=True)
        history = phone.get(f"/g/{game_id}/history").get_data(as_text=True)
        assert "Your hand" not in table and "1 2 2 5 5" not in table + history
        assert "(private)" in history
    assert phone.get(f"/g/{game_id}/record").status_code == 403


def test_only_the_host_or_the_author_sees_the_void_button(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    log(client, game_id, type="deal", dealer=3)
    log(client, game_id, type="deal", dealer=3)  # a table event flagged kp.deal.dealer: it has no seat
    assert "Void this move" in client.get(f"/g/{game_id}").get_data(as_text=True)  # the host
    watcher = client.application.test_client().get(f"/g/{game_id}").get_data(as_text=True)
    assert 'data-rule="kp.deal.dealer"' in watcher and "Void this move" not in watcher


def game_sentences(path: Path) -> set[str]:
    """The sentences a game module words its flags and scores with: each `broken` template,
    each `Phrase`, each `because` template (either of a choice), and each template chosen
    before it is handed to `broken` (a %-format)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "because":
            choices = [node.args[2]]
            while choices:
                choice = choices.pop()
                if isinstance(choice, ast.IfExp):
                    choices += [choice.body, choice.orelse]
                elif isinstance(choice, ast.Constant):
                    found.add(choice.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("broken", "Phrase"):
            text = node.args[1 if node.func.id == "broken" else 0]
            if isinstance(text, ast.Constant) and isinstance(text.value, str):
                found.add(text.value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and "%(" in node.value and node.value.endswith("."):
            found.add(node.value)
    return found


def test_every_ui_string_and_flag_sentence_has_a_german_translation() -> None:
    from babel.messages.pofile import read_po

    top = Path(__file__).resolve().parent.parent
    with (top / "referee/web/translations/de/LC_MESSAGES/messages.po").open("rb") as po:
        catalog = read_po(po)
    untranslated = [m.id for m in catalog if m.id and (not m.string or m.fuzzy or (isinstance(m.string, tuple) and not all(m.string)))]
    assert untranslated == []  # the catalogue itself: every entry German, none fuzzy
    german = {m.id[0] if isinstance(m.id, tuple) else m.id for m in catalog if m.id and m.string}
    used = set()
    for path in [*(top / "templates").rglob("*.html"), *(top / "referee/web").glob("*.py")]:
        quoted = r"""(?:\b_|gettext|ngettext)\(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')"""
        used |= {ast.literal_eval(match.group(1)) for match in re.finditer(quoted, path.read_text(encoding="utf-8"))}
    for path in [top / "referee/replay.py", *(top / "referee/games").glob("*.py")]:
        used |= game_sentences(path)
    assert sorted(used - german) == []


def test_any_event_can_be_voided_by_its_author_or_the_host(client: FlaskClient) -> None:
    # The host taps Pass for Cem just as Cem's own pass arrives: "Dora passes" is stored,
    # legal. The host voids it from the latest events, with a confirmation.
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    log(client, game_id, type="deal", dealer=3)
    log(client, game_id, type="play", seat=0, cards="5")
    log(client, game_id, type="pass", seat=1)
    log(client, game_id, type="pass", seat=2)
    page = log(client, game_id, type="pass", seat=3).get_data(as_text=True)
    assert "logged by the host for Dora" in page
    assert 'aria-label="Void event 5"' in page and f'action="/g/{game_id}/void/5"' in page  # it opens the confirmation first
    after = client.post(f"/g/{game_id}/void/5", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "voided by event 6" in after
    events = client.get(f"/api/games/{game_id}/events").json["events"]
    assert events[4]["voided"] is True and events[4]["withdrawn"] == {"rule": None, "message": None, "voided_by": 6}
    assert 'aria-label="Void event 5"' not in after  # already withdrawn
    assert 'aria-label="Void event 5"' not in client.get(f"/g/{game_id}/history").get_data(as_text=True)
    assert 'aria-label="Void event 4"' in client.get(f"/g/{game_id}/history").get_data(as_text=True)


def test_a_stale_tap_is_refused_and_the_fresh_table_shown(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    log(client, game_id, type="deal", dealer=3)
    log(client, game_id, type="play", seat=0, cards="12", expected_seq=1)
    # A phone that still shows event 1 taps "13": nothing is stored.
    stale = log(client, game_id, type="play", seat=0, cards="13", expected_seq=1).get_data(as_text=True)
    # It says what changed meanwhile: event 2, Anna's play of a 12.
    assert "The table changed meanwhile: Anna plays 12. Check and tap again." in stale and 'data-seq="2"' in stale
    assert len(client.get(f"/api/games/{game_id}/events").json["events"]) == 2
    assert 'hx-vals=\'{"expected_seq": 2}\'' in stale  # every form of the fresh table sends its seq


def test_a_move_tapped_twice_is_stored_once_and_never_reported_against_itself(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    log(client, game_id, type="deal", dealer=3)
    log(client, game_id, type="play", seat=0, cards="12", expected_seq=1)
    again = log(client, game_id, type="play", seat=0, cards="12", expected_seq=1).get_data(as_text=True)  # the second tap
    assert "changed meanwhile" not in again and "Check and tap again" not in again and 'data-seq="2"' in again
    assert len(client.get(f"/api/games/{game_id}/events").json["events"]) == 2


def import_sample(client: FlaskClient, name: str) -> str:
    text = (EVENTS_DIR / f"{name}.jsonl").read_text(encoding="utf-8")
    return client.post("/api/games/import", data=text.encode(), content_type="application/jsonl").json["id"]


def test_history_pages_long_games_filters_flags_and_steps_through_the_replay(client: FlaskClient) -> None:
    game_id = import_sample(client, "karriere-poker-5-players-flags")  # 184 events
    first = client.get(f"/g/{game_id}/history").get_data(as_text=True)
    assert 'id="e100"' in first and 'id="e101"' not in first and 'page=2' in first
    assert 'id="e184"' in client.get(f"/g/{game_id}/history?page=2").get_data(as_text=True)
    flags_only = client.get(f"/g/{game_id}/history?only=flags").get_data(as_text=True)
    # the flags (Ben's lead pass 2; Cem's early play 3 and short raise 6, both voided) and
    # the corrections (voids 4 and 8), nothing else
    assert re.findall(r'id="e(\d+)"', flags_only) == ["2", "3", "4", "6", "8"]
    step = client.get(f"/g/{game_id}/history?at=3").get_data(as_text=True)
    assert "The table after event 3" in step and "at=2#then" in step and "at=4#then" in step


def test_the_rules_page_quotes_the_cited_rule_and_leads_back(client: FlaskClient) -> None:
    page = client.get("/rules/karriere-poker?rule=kp.raise.count&back=/g/abc123").get_data(as_text=True)
    assert '<li id="kp.raise.count" class="cited">' in page and "The rule cited" in page
    assert 'href="/g/abc123"' in page and "Back to the table" in page
    evil = client.get("/rules/karriere-poker?rule=nope&back=http://evil.example/").get_data(as_text=True)
    assert "evil.example" not in evil and "The rule cited" not in evil


def test_the_ball_result_says_who_won_and_why(client: FlaskClient) -> None:
    game_id = import_sample(client, "ladies-and-gentlemen-7-players-scandal")
    page = client.get(f"/g/{game_id}/result").get_data(as_text=True)
    expected = json.loads((EVENTS_DIR / "ladies-and-gentlemen-7-players-scandal.expected.json").read_text(encoding="utf-8"))
    assert html_text(expected["result"]["why"]) in page and "Scandal: excluded from the Ball" in page
    for name, elegance in expected["scores"].items():
        assert f"<td>{elegance}</td>" in page, name
    assert 'class="voided"><td>Cem &amp; Dora' in page  # the excluded team


def html_text(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


def test_the_joker_menu_logs_what_it_says(client: FlaskClient) -> None:
    # "3 cards, 1 joker" on a 9 is 9 9 J: three cards, one of them a joker.
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    log(client, game_id, type="deal", dealer=3)
    log(client, game_id, type="play", seat=0, pick=9, count=3, jokers=1)
    assert client.get(f"/api/games/{game_id}/events").json["events"][1]["cards"] == [9, 9, "J"]
    page = log(client, game_id, type="play", seat=1, pick=10, count=1, jokers=1).get_data(as_text=True)
    assert "1 cards cannot hold 1 jokers and a 10." in page
    assert len(client.get(f"/api/games/{game_id}/events").json["events"]) == 2


def test_the_host_sees_claimed_seats_and_can_free_one(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client, "ftw", ["Anna", "Ben"])
    code = app.extensions["referee"].access.join_code(game_id)
    phone = app.test_client()
    assert phone.post(f"/g/{game_id}/seats/1", data={"code": code}).status_code == 302
    page = client.get(f"/g/{game_id}/host").get_data(as_text=True)
    assert re.search(r"Ben · <strong>claimed by a phone</strong>", page) and "Anna · <span class=\"muted\">free" in page
    assert phone.post(f"/g/{game_id}/host/release/1").status_code == 403  # only the host
    assert client.post(f"/g/{game_id}/host/release/1").status_code == 302
    assert "Ben&#39;s seat is free again." in client.get(f"/g/{game_id}/host").get_data(as_text=True)
    # Ben's old phone is a spectator now; a new phone can take the seat.
    assert "You are watching" in phone.get(f"/g/{game_id}").get_data(as_text=True)
    assert app.test_client().post(f"/g/{game_id}/seats/1", data={"code": code}).status_code == 302


def test_results_say_no_empty_brackets_no_gifts_without_a_courtesan_and_a_tie_decided_by_money(client: FlaskClient) -> None:
    # Ladies & Gentlemen with four players: no courtesan, so no gifts; the gentlemen have no
    # elegance of their own, so no "Ben ()" in the ranking.
    page = client.get(f"/g/{import_sample(client, 'ladies-and-gentlemen-4-players')}/result").get_data(as_text=True)
    assert "Gifts" not in page and "()" not in page
    # With the courtesan the gifts are there.
    assert "<th>Gifts</th>" in client.get(f"/g/{import_sample(client, 'ladies-and-gentlemen-5-players-courtesan-wins')}/result").get_data(as_text=True)
    # Senators, 4 players: Anna and Dora both end with 11 senators; Anna has 5 money, Dora 1.
    senators = import_sample(client, "senators-4-players-flags")
    tie = "Anna and Dora have 11 senators each: Anna wins with more money (5 to 1)."
    assert tie in client.get(f"/g/{senators}/result").get_data(as_text=True)
    client.get("/lang/de")
    assert "Anna und Dora haben je 11 Senatoren: Anna gewinnt mit mehr Geld (5 zu 1)." in client.get(f"/g/{senators}/result").get_data(as_text=True)
    ball = client.get(f"/g/{import_sample(client, 'ladies-and-gentlemen-5-players-courtesan-wins')}/result").get_data(as_text=True)
    # Emil, the courtesan, 21 elegance (Anna 14, Cem 20), wins with Ben, who gave her 5 stars.
    assert "Emil, die Kurtisane, ist die Eleganteste auf dem Ball (21) und gewinnt mit Ben" in ball and "(5 Sterne)" in ball


def test_a_stale_senators_tap_says_what_changed_in_a_sentence(client: FlaskClient) -> None:
    # Cem's phone still shows the auction before Ben's bid, and Cem bids: refused, and told
    # that Ben bid 4 on red-3 meanwhile (in German too).
    game_id = new_game(client, "senators", ["Anna", "Ben", "Cem"])
    log(client, game_id, type="event", kind="other")
    log(client, game_id, type="auction", seat=0, cards="red-3 blue-7")
    log(client, game_id, type="bid", seat=1, **{"bids.red-3": "4"})
    stale = log(client, game_id, type="bid", seat=2, expected_seq=2, **{"bids.red-3": "5"}).get_data(as_text=True)
    assert "The table changed meanwhile: Ben bids 4 on red 3. Check and tap again." in stale
    client.get("/lang/de")
    stale = log(client, game_id, type="bid", seat=2, expected_seq=2, **{"bids.red-3": "5"}).get_data(as_text=True)
    assert "Der Tisch hat sich inzwischen geändert: Ben bietet 4 auf rot 3. Bitte prüfen und erneut tippen." in stale


def test_no_bid_sends_no_bid_whatever_price_was_tapped(client: FlaskClient) -> None:
    # Ben tapped 3 on red-3, then thought better of it and tapped "No bid": he passes.
    game_id = new_game(client, "senators", ["Anna", "Ben", "Cem"])
    log(client, game_id, type="event", kind="other")
    log(client, game_id, type="auction", seat=0, cards="red-3")
    log(client, game_id, type="bid", seat=1, no_bid="1", **{"bids.red-3": "3"})
    assert client.get(f"/api/games/{game_id}/events").json["events"][-1]["bids"] == {}
    log(client, game_id, type="bid", seat=2, **{"bids.red-3": "3"})
    assert client.get(f"/api/games/{game_id}/events").json["events"][-1]["bids"] == {"red-3": 3}


def test_an_ftw_card_is_laid_in_one_tap_on_its_button_though_the_typed_field_beside_it_is_empty(client: FlaskClient) -> None:
    # htmx sends the form's fields, the empty "other" among them, then the card button tapped.
    game_id = new_game(client, "ftw", ["Anna", "Ben"])
    high = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert '<button name="card" value="12" class="pick">12</button>' in high
    tapped = [("type", "high"), ("seat", "0"), ("card", ""), ("card", "12")]
    client.post(f"/g/{game_id}/log", data=MultiDict(tapped), headers={"HX-Request": "true"})
    # Ben's low: the card to take stands before his cards, the top card chosen, so one tap on his 5 is the move.
    low = client.get(f"/g/{game_id}").get_data(as_text=True).split('value="low"')[1]
    assert low.index('name="take" value="12" checked') < low.index('<button name="card" value="5" class="pick">5</button>')
    tapped = [("type", "low"), ("seat", "1"), ("take", "12"), ("card", ""), ("card", "5")]
    client.post(f"/g/{game_id}/log", data=MultiDict(tapped), headers={"HX-Request": "true"})
    events = client.get(f"/api/games/{game_id}/events").json["events"]
    assert [(e["type"], e["seat"], e["card"], e.get("take")) for e in events] == [("high", 0, 12, None), ("low", 1, 5, 12)]
    assert [e["violation"] for e in events] == [None, None]
