"""The table's own screen and a result to share, through the real app: every sample is
played to its last move by the host, then read on the board by the host's phone, a seat's
phone and a stranger, in English and German; the host then reveals, and the result is
shared as an image with a link preview."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import EVENTS_DIR
from flask.testing import FlaskClient
from markupsafe import escape
from language import foreign_runs, visible_text
from test_every_word import spoken

from referee.games import GAMES
from referee.games.base import places
from referee.record import read_record, write_record

SAMPLES = sorted(EVENTS_DIR.glob("*.jsonl"))
CSRF = re.compile(r'(X-CSRFToken": "|name="csrf_token" value=")[^"]*')


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def played_to_the_end(client: FlaskClient, path: Path) -> tuple[str, str, Any]:
    """The sample stored without its last event, which the host then logs: the game is over
    as at the table, its secrets not yet revealed. The game id, the host's token, the record."""
    record = read_record(path.read_text(encoding="utf-8"))
    *before, last = record.events
    made = client.post("/api/games/import", data=write_record(record.header, before).encode(), content_type="application/jsonl").json
    game_id, host_token = made["id"], made["host_token"]
    body = {key: value for key, value in last.items() if key not in ("seq", "by")}
    assert client.post(f"/api/games/{game_id}/events", json=body, headers=bearer(host_token)).status_code == 201
    return game_id, host_token, record


def phone(client: FlaskClient, game_id: str, token: str | None, language: str) -> FlaskClient:
    """Another phone, in `language`, holding `token` (None: a stranger's)."""
    other = client.application.test_client()
    other.set_cookie("lang", language)
    if token:
        other.set_cookie("referee_token", token, path=f"/g/{game_id}")
    return other


def page(reader: FlaskClient, path: str) -> str:
    answer = reader.get(path)
    assert answer.status_code == 200, (path, answer.status_code)
    return CSRF.sub(r"\1CSRF", answer.get_data(as_text=True))


def panel(html: str) -> str:
    """The game's own panel of the public state (cards to beat, row, pile, senate, teams)."""
    return html[html.index('<div class="panel">'):html.index('<span id="actions"></span>')]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("sample", SAMPLES, ids=[path.stem for path in SAMPLES])
def test_the_board_and_the_shared_result_tell_exactly_what_a_spectator_is_told(client: FlaskClient, sample: Path, language: str) -> None:
    game_id, host_token, record = played_to_the_end(client, sample)
    game = GAMES[record.header.game]
    seat_token = client.post(f"/api/games/{game_id}/seats/0", json={}, headers=bearer(host_token)).json["token"]
    host, seat, stranger = (phone(client, game_id, token, language) for token in (host_token, seat_token, None))
    board = page(stranger, f"/g/{game_id}/board")
    # Whoever opens the board, it is the same board: a host's or a seat's phone lent to the
    # middle of the table shows none of its own secrets.
    assert page(host, f"/g/{game_id}/board") == page(seat, f"/g/{game_id}/board") == board
    # It shows the spectator's table, large: the same panel of the public state.
    spectators_table = page(stranger, f"/g/{game_id}")
    assert panel(board) == panel(spectators_table)
    assert "Your hand" not in board and "Deine Hand" not in board
    text = visible_text(board)
    for words in sorted(spoken(sample), key=len, reverse=True):  # the table's own words: names, title, notes
        text = text.replace(words, " ")
    assert foreign_runs(text, language) == []
    revealed_now = not game.private_events or game.outcome_is_public
    shared = stranger.get(f"/g/{game_id}/result.svg")
    if not revealed_now:
        # Over, but the host has not revealed: no standings, no image, no preview of the result.
        assert 'aria-label="Final standings"' not in board and 'aria-label="Endstand"' not in board
        assert shared.status_code == 404 and "not revealed" in shared.get_data(as_text=True)
        assert stranger.get(f"/g/{game_id}/result.png").status_code == 404  # nor as a PNG
        assert 'property="og:image"' not in page(host, f"/g/{game_id}/result")  # the host sees every secret; the preview does not
        assert 'id="share"' not in page(host, f"/g/{game_id}/result")
        assert host.post(f"/api/games/{game_id}/reveal", headers=bearer(host_token)).status_code == 200
        board = page(stranger, f"/g/{game_id}/board")
        shared = stranger.get(f"/g/{game_id}/result.svg")
    told = client.get(f"/api/games/{game_id}").json  # what a spectator is told, as JSON
    assert shared.status_code == 200 and shared.mimetype == "image/svg+xml"
    image = shared.get_data(as_text=True)
    for name in record.header.seats:
        assert name in image
    lines = re.findall(r'<tspan font-weight="700">(\d+)\.</tspan>(.*?)</text>', image)
    assert [[name.split(" (")[0].strip() for name in line.split(" ·")] for _, line in lines] == told["ranking"]
    assert [int(place) for place, _ in lines] == [places(told["ranking"])[tier[0]] for tier in told["ranking"]]  # a tie shares its place: 1, 1, 3
    for name, score in told["scores"].items():
        assert f"{name} ({score})" in image
    winner_line = re.search(r'<text id="winner"[^>]*>(.*?)</text>', image).group(1)  # type: ignore[union-attr]
    assert {name for name in record.header.seats if name in winner_line} == set(told["winners"])
    assert escape(record.header.title or game.title) in image
    # The board names the winner and the standings, tier by tier.
    standings = re.search(r'<ol class="standings"[^>]*>(.*?)</ol>', board)
    assert standings is not None
    assert [re.findall(r"<strong>(.*?)</strong>", tier) for tier in re.findall(r"<li[^>]*>(.*?)</li>", standings.group(1))] == told["ranking"]
    result_page = page(stranger, f"/g/{game_id}/result")
    assert f'<meta property="og:image" content="http://localhost/g/{game_id}/result.png">' in result_page  # previews show no SVG
    preview = stranger.get(f"/g/{game_id}/result.png")
    assert preview.status_code == 200 and preview.mimetype == "image/png"
    assert re.search(r'<meta property="og:title" content="[^"]+">', result_page) and 'property="og:description"' in result_page
    assert f'href="/g/{game_id}/result.png" download=' in result_page


def test_an_early_end_names_no_winner_on_the_board_nor_in_the_image(client: FlaskClient) -> None:
    answer = client.post("/api/games", json={"game": "ftw", "seats": ["Anna", "Ben", "Cem"], "title": "Short evening"}).json
    game_id, host = answer["id"], answer["host_token"]
    for body in ({"type": "high", "seat": 0, "card": 7}, {"type": "high", "seat": 1, "card": 9}, {"type": "end", "reason": "the pizza came"}):
        client.post(f"/api/games/{game_id}/events", json=body, headers=bearer(host))
    client.post(f"/api/games/{game_id}/reveal", headers=bearer(host))
    stranger = phone(client, game_id, None, "en")
    board = page(stranger, f"/g/{game_id}/board")
    assert "Ended early: nobody wins." in board and "the pizza came" in board
    image = page(stranger, f"/g/{game_id}/result.svg")
    assert "Ended early: nobody wins." in image and " wins." not in image.replace("nobody wins.", "")
    assert "Short evening" in image and "Anna, Ben, Cem" in image
    german = page(phone(client, game_id, None, "de"), f"/g/{game_id}/result.svg")
    assert "Anna, Ben, Cem" in german and "Ended early" not in german


def test_the_board_follows_the_game_and_shows_the_last_move_with_its_flag(client: FlaskClient) -> None:
    answer = client.post("/api/games", json={"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"]}).json
    game_id, host = answer["id"], answer["host_token"]
    client.post(f"/api/games/{game_id}/events", json={"type": "deal", "dealer": 3}, headers=bearer(host))
    client.post(f"/api/games/{game_id}/events", json={"type": "play", "seat": 0, "cards": [5, 5]}, headers=bearer(host))
    stranger = phone(client, game_id, None, "en")
    board = page(stranger, f"/g/{game_id}/board")
    assert "Ben's turn" in board and '<span class="card top">5</span>' in board
    assert re.search(r"Last move:</span> Anna plays 5 5", board)
    client.post(f"/api/games/{game_id}/events", json={"type": "play", "seat": 2, "cards": [9, 9]}, headers=bearer(host))  # Cem, out of turn
    live = page(stranger, f"/g/{game_id}/board/live?after=2")  # the long-poll answers with the new board at once
    assert 'data-seq="3"' in live and re.search(r"Last move:</span> Cem plays 9 9", live)
    assert '<strong class="bad">⚑ ' in live and "(kp.turn)" in live
    assert re.search(r'hx-get="/g/[^/]+/board/live\?after=3"', live)  # and asks for the next
    assert "Ben's turn" in live  # the flagged move is skipped: still Ben's turn


def test_the_host_page_opens_the_board_by_qr_and_bad_addresses_are_404s(client: FlaskClient) -> None:
    made = client.post("/new", data={"game": "ftw", "seats": "Anna\nBen\nCem"})
    game_id = made.headers["Location"].split("/")[2]
    host_page = page(client, f"/g/{game_id}/host")
    assert f'<a href="http://localhost/g/{game_id}/board">' in host_page and host_page.count("<svg") == 2  # the join QR and the board's
    assert client.get("/g/nosuchgame/board").status_code == 404
    assert client.get("/g/nosuchgame/result.svg").status_code == client.get("/g/nosuchgame/result.png").status_code == 404
    not_over = client.get(f"/g/{game_id}/result.svg")
    assert not_over.status_code == 404 and "not over" in not_over.get_data(as_text=True)
    assert client.get(f"/g/{game_id}/board/live?after=banana").status_code == 200  # a bad seq is the start


def test_the_board_shows_the_open_bills_of_the_evening(client: FlaskClient) -> None:
    record = read_record((EVENTS_DIR / "ladies-and-gentlemen-4-players.jsonl").read_text(encoding="utf-8"))
    # Day 1 up to Anna's first take: Ben's bill for gown-3 is open.
    made = client.post("/api/games/import", data=write_record(record.header, record.events[:8]).encode(), content_type="application/jsonl").json
    board = page(phone(client, made["id"], None, "en"), f"/g/{made['id']}/board")
    assert "Bills of Ben" not in board
    last = {key: value for key, value in record.events[8].items() if key not in ("seq", "by")}
    client.post(f"/api/games/{made['id']}/events", json=last, headers=bearer(made["host_token"]))
    board = page(phone(client, made["id"], None, "en"), f"/g/{made['id']}/board")
    assert re.search(r"Bills of Ben</strong>: <span class=\"card\">gown-3 £300 1★</span>", board)


@pytest.mark.parametrize(("language", "since", "turn"), [("en", "Break since", "Dora's turn"), ("de", "Pause seit", "Dora ist dran")])
def test_during_a_break_the_board_says_since_when_large_and_claims_no_turn(client: FlaskClient, language: str, since: str, turn: str) -> None:
    # Anna leads a 5, Ben passes, Cem raises with a 6: Dora's turn, and the table takes a break at 21:14.
    answer = client.post("/api/games", json={"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"]}).json
    game_id, host = answer["id"], answer["host_token"]
    for body in ({"type": "deal", "dealer": 3}, {"type": "play", "seat": 0, "cards": [5]}, {"type": "pass", "seat": 1},
                 {"type": "play", "seat": 2, "cards": [6]}):
        client.post(f"/api/games/{game_id}/events", json=body, headers=bearer(host))
    stranger = phone(client, game_id, None, language)
    assert f'<p class="board-turn" role="status">{turn}</p>' in page(stranger, f"/g/{game_id}/board")
    client.post(f"/api/games/{game_id}/events", json={"type": "pause", "at": "2026-11-28T21:14:00+00:00"}, headers=bearer(host))
    board = page(stranger, f"/g/{game_id}/board")
    large = re.search(r'<p class="board-turn" role="status" data-paused>(.*?)</p>', board, re.S)
    assert large is not None and large.group(1).startswith(f'{since} <time datetime="2026-11-28T21:14:00+00:00" data-clock>21:14 UTC</time>')
    assert turn not in board  # a break holds every turn
    back = {"type": "resume", "at": "2026-11-28T21:30:00+00:00"}
    client.post(f"/api/games/{game_id}/events", json=back, headers=bearer(host))
    board = page(stranger, f"/g/{game_id}/board/live?after=5")
    assert f'<p class="board-turn" role="status">{turn}</p>' in board and since not in board
