"""The shared result as a PNG, for the link previews of messengers that show no SVG: the
FTW?! evening of the sample, ended by the table after a round or two, its result page
sent to a group chat. The PNG says what the SVG says (one card), 1200×630, in the
reader's language, the same picture for the same standings and none before the reveal."""

from __future__ import annotations

import re
from dataclasses import replace
from io import BytesIO

from conftest import EVENTS_DIR
from flask.testing import FlaskClient
from PIL import Image
from test_board import bearer, page, phone

from referee.record import read_record, write_record
from referee.web.share_image import card, png

FTW = read_record((EVENTS_DIR / "ftw-3-players.jsonl").read_text(encoding="utf-8"))


def ended_after(client: FlaskClient, events: int, seats: list[str] | None = None) -> str:
    """The sample's table (its players renamed to `seats`) ended early by the host after its
    first `events` events and revealed: Anna 16, Ben 1, Cem 0 after 60, Anna 25, Cem 13,
    Ben 10 after 100. The game id."""
    header = FTW.header if seats is None else replace(FTW.header, seats=tuple(seats))
    made = client.post("/api/games/import", data=write_record(header, FTW.events[:events]).encode(), content_type="application/jsonl").json
    host = bearer(made["host_token"])
    assert client.post(f"/api/games/{made['id']}/events", json={"type": "end", "reason": "the pizza came"}, headers=host).status_code == 201
    assert client.post(f"/api/games/{made['id']}/reveal", headers=host).status_code == 200
    return str(made["id"])


def picture(reader: FlaskClient, game_id: str) -> bytes:
    answer = reader.get(f"/g/{game_id}/result.png")
    assert answer.status_code == 200 and answer.mimetype == "image/png", answer.status_code
    image = Image.open(BytesIO(answer.data))
    assert (image.format, image.size) == ("PNG", (1200, 630))
    return answer.data


def test_the_link_preview_of_the_result_page_is_a_png_the_crawlers_can_fetch(client: FlaskClient) -> None:
    game_id = ended_after(client, 100)
    result_page = page(phone(client, game_id, None, "en"), f"/g/{game_id}/result")
    meta = dict(re.findall(r'<meta property="(og:image[:a-z]*)" content="([^"]*)">', result_page))
    assert meta["og:image"] == f"http://localhost/g/{game_id}/result.png"
    assert (meta["og:image:type"], meta["og:image:width"], meta["og:image:height"]) == ("image/png", "1200", "630")
    crawler = client.application.test_client()  # no cookie, no language: what a link preview fetches
    picture(crawler, game_id)
    # The share button shares, or downloads, the same file.
    assert f'href="/g/{game_id}/result.png" download="ftw-{game_id}.png"' in result_page


def test_the_same_standings_give_the_same_picture_and_other_scores_another(client: FlaskClient) -> None:
    stranger = phone(client, "", None, "en")
    after_the_first_round, a_little_later, after_the_second_round = (ended_after(client, events) for events in (60, 80, 100))
    first = picture(stranger, after_the_first_round)
    assert picture(stranger, after_the_first_round) == first
    assert picture(stranger, a_little_later) == first  # another table, but Anna 16, Ben 1, Cem 0 as well
    assert picture(stranger, after_the_second_round) != first  # Anna 25, Cem 13, Ben 10


def test_a_german_phone_gets_the_german_card(client: FlaskClient) -> None:
    game_id = ended_after(client, 60)
    english, german = (phone(client, game_id, None, language) for language in ("en", "de"))
    assert picture(german, game_id) != picture(english, game_id)
    # One card says both: the SVG a German phone gets says what its PNG shows.
    card = page(german, f"/g/{game_id}/result.svg")
    assert "Vorzeitig beendet: niemand gewinnt." in card and "Spieler: Anna, Ben, Cem" in card and "Ended early" not in card


def test_juergen_and_joergen_are_told_apart_on_the_card(client: FlaskClient) -> None:
    # A font without umlauts draws ü and ö as the same empty box.
    stranger = phone(client, "", None, "de")
    juergen, joergen = (ended_after(client, 60, [name, "Ben", "Cem"]) for name in ("Jürgen", "Jörgen"))
    assert "1. Jürgen (16)" in re.sub(r"<[^>]+>", "", page(stranger, f"/g/{juergen}/result.svg"))
    assert picture(stranger, juergen) != picture(stranger, joergen)


def test_no_picture_of_a_game_not_over_nor_of_none(client: FlaskClient) -> None:
    made = client.post("/api/games", json={"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}).json
    for path in (f"/g/{made['id']}/result.png", "/g/nosuchgame/result.png"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.mimetype != "image/png", path
    assert "not over" in client.get(f"/g/{made['id']}/result.png").get_data(as_text=True)



def test_a_title_is_one_line_and_an_old_title_with_a_break_still_draws(client: FlaskClient) -> None:
    # "Abend\nmit Pizza" once reached the store from a crafted form and broke the picture
    # (Pillow measures no text of several lines; an SVG with a NUL does not parse). A title
    # is refused where it holds a control character or a line break, naming it; one kept
    # from before is drawn on one line.
    for title in ("Abend\nmit Pizza", "Abend\r\nmit Pizza", "Abend\u2029mit Pizza", "Abend\x00", "\u202eazziP"):
        refused = client.post("/api/games", json={"game": "ftw", "seats": ["Anna", "Ben", "Cem"], "title": title})
        assert refused.status_code == 400 and "a title is one line" in str(refused.json["fields"]["title"]), refused.json
        imported = client.post("/api/games/import", data=write_record(replace(FTW.header, title=title), FTW.events[:3]).encode(),
                               content_type="application/jsonl")
        assert imported.status_code == 400 and "title" in imported.json["error"], imported.json
    shared = {"title": "Abend\nmit\x1cPizza", "game": "FTW?!", "date": "28.11.2026", "winner": "Anna wins", "end": "",
              "standings": [{"place": 1, "names": ["Anna"], "scores": [3]}], "players": "Anna"}
    assert card(shared).title == "Abend mit Pizza"
    assert Image.open(BytesIO(png(card(shared)))).size == (1200, 630)
