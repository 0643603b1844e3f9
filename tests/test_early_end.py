"""The end tells the truth: a game the table ends early names no winner unless its rules
name one, and neither the pages, the CLI, the statistics nor BG Stats make one up; the
Karriere Poker match winner is told to every phone before the host reveals the hands, and
the reveal reaches the phones that wait for it at once."""

from __future__ import annotations

import io
import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import EVENTS_DIR
from flask import Flask
from flask.testing import FlaskClient

from referee.bgstats import play
from referee.cli import main
from referee.record import Record, read_record, write_record
from referee.replay import replay, report
from referee.tables import Tables
from referee.web import create_app

OUT_OF_TIME = {"type": "end", "reason": "out of time"}
SAMPLES = sorted(p.stem for p in EVENTS_DIR.glob("*.jsonl"))


def sample(name: str) -> Record:
    return read_record((EVENTS_DIR / f"{name}.jsonl").read_text(encoding="utf-8"))


def cut_short(name: str, keep: int | None = None) -> Record:
    """A sample the table ends (out of time) halfway through, or after `keep` events."""
    record = sample(name)
    kept = list(record.events[: len(record.events) // 2 if keep is None else keep])
    return Record(record.header, (*kept, {"seq": len(kept) + 1, **OUT_OF_TIME}))


def stored(tables: Tables, record: Record) -> str:
    game_id = tables.create(record.header)
    for event in record.events:
        tables.append(game_id, {k: v for k, v in event.items() if k != "seq"})
    if tables.fold(game_id).game.private_events:
        tables.reveal(game_id)
    return game_id


# --- the result: a value --------------------------------------------------------------------------


@pytest.mark.parametrize("name", SAMPLES)
def test_a_game_the_table_ends_halfway_names_no_winner(name: str) -> None:
    record = cut_short(name)
    shown = report(replay(record.header, record.events))
    assert shown["finished"] and shown["ended_early"] is True
    if name == "karriere-poker-4-players":  # game 1 was over: its Boss, Anna, wins the match (the module's decision)
        assert shown["winners"] == ["Anna"] and shown["result"]["winner"] == "Anna"
    else:
        assert shown["winners"] == []
    played_out = report(replay(record.header, sample(name).events))
    assert played_out["ended_early"] is False and played_out["winners"]  # the rules' own end names its winners


def test_karriere_poker_ended_before_any_game_finished_has_no_ranking_and_nobody_wins() -> None:
    record = cut_short("karriere-poker-8-players", keep=20)
    shown = report(replay(record.header, record.events))
    assert shown["ranking"] == []  # the seat order is no order of play
    assert shown["winners"] == [] and shown["result"]["winner"] is None


def test_ladies_and_gentlemen_ended_before_the_ball_has_no_ball_result() -> None:
    record = cut_short("ladies-and-gentlemen-5-players-courtesan-wins")
    shown = report(replay(record.header, record.events))
    assert shown["ranking"] == [] and shown["winners"] == [] and "why" not in shown["result"]


def test_the_cli_report_says_ended_early_and_no_winner(tmp_path: Path) -> None:
    path = tmp_path / "short.jsonl"
    record = cut_short("senators-5-players")
    path.write_text(write_record(record.header, record.events), encoding="utf-8")
    lines = CliRunner().invoke(main, ["replay", str(path)]).output.splitlines()
    assert "Ended early: out of time" in lines and "No winner" in lines
    path.write_text((EVENTS_DIR / "senators-5-players.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    lines = CliRunner().invoke(main, ["replay", str(path)]).output.splitlines()
    assert "Game over: the 4th war was drawn" in lines and "Winner: Emil" in lines


# --- statistics and BG Stats ----------------------------------------------------------------------


@pytest.mark.parametrize("name", [n for n in SAMPLES if n != "karriere-poker-4-players"])
def test_statistics_and_bg_stats_count_no_win_for_a_game_ended_early(tables: Tables, name: str) -> None:
    record = cut_short(name)
    game_id = stored(tables, record)
    [kept] = tables.plays.plays(seats=True)
    assert kept.ended_early and kept.winners == [] and not any(seat.won for seat in kept.seats)
    shown = tables.plays.summary()
    assert all((p["played"], p["won"], p["win_rate"]) == (1, 0, None) for p in shown["players"])  # no rate: never won or lost
    assert (shown["games"], shown["ended_early"]) == (1, 1)
    assert shown["evenings"][0]["games"][0]["ended_early"] is True
    assert all(p["last"][0]["decided"] is False for p in shown["players"])
    exported = play(game_id, tables.fold(game_id), tables.store.events(game_id))
    assert not any(p["winner"] for p in exported["players"]) and "Ended early" in exported["comments"]


def test_a_game_ended_early_is_played_but_left_out_of_the_win_rate(tables: Tables) -> None:
    stored(tables, sample("ftw-3-players"))  # Anna and Cem win with 25
    stored(tables, cut_short("ftw-3-players"))  # nobody wins
    anna = next(p for p in tables.plays.summary()["players"] if p["name"] == "Anna")
    assert (anna["played"], anna["won"], anna["win_rate"]) == (2, 1, 1.0)
    assert anna["games"]["ftw"] == {"played": 2, "won": 1, "decided": 1, "average": anna["games"]["ftw"]["average"], "best": 25}


@pytest.mark.parametrize(("language", "said"), [
    ("en", "0 finished games · 1 game ended early · 1 evening"),
    ("de", "0 beendete Spiele · 1 Spiel vorzeitig beendet · 1 Spieleabend"),
])
def test_five_friends_whose_poker_ended_early_read_no_win_rate_and_no_loss(client: FlaskClient, language: str, said: str) -> None:
    """The evening's Karriere Poker ended before anyone was Boss: nobody won or lost it."""
    client.set_cookie("lang", language)
    record = cut_short("karriere-poker-5-players-flags", keep=5)
    group = {"format": "table-group/1", "name": "Friday friends", "players": [{"name": name} for name in record.header.seats],
             "games": [{"id": "kp1", "created_at": "2026-11-28T19:00:00", "seats": list(record.header.seats), "record": write_record(record.header, record.events)}]}
    answer = client.post("/groups/import", data={"group": (io.BytesIO(json.dumps(group).encode()), "group.json")}, content_type="multipart/form-data")
    page = client.get(answer.headers["Location"] + "/stats").get_data(as_text=True)
    assert said in " ".join(re.sub(r"<[^>]+>", " ", page).split())
    players = re.search(r'<table id="players">(.*?)</table>', page, re.S).group(1)  # type: ignore[union-attr]
    assert "0%" not in players and players.count("<td>–</td>") == len(record.header.seats)
    per_game = re.search(r'<table class="per-game"[^>]*>(.*?)</table>', page, re.S).group(1)  # type: ignore[union-attr]
    assert "0/1" not in per_game and per_game.count("<td>–</td>") == len(record.header.seats)
    csv_rows = client.get(answer.headers["Location"] + "/plays.csv").get_data(as_text=True).splitlines()[1:]
    assert csv_rows and all(row.split(",")[9] == "" for row in csv_rows)  # won: neither 1 nor 0


def test_a_karriere_poker_match_ended_after_a_game_counts_its_boss_as_winner(tables: Tables) -> None:
    game_id = stored(tables, cut_short("karriere-poker-4-players"))
    [kept] = tables.plays.plays(seats=True)
    assert kept.ended_early and kept.winners == ["Anna"]
    anna = next(p for p in tables.plays.summary()["players"] if p["name"] == "Anna")
    assert (anna["won"], anna["win_rate"], anna["last"][0]["decided"]) == (1, 1.0, True)
    exported = play(game_id, tables.fold(game_id), tables.store.events(game_id))
    assert [p["name"] for p in exported["players"] if p["winner"]] == ["Anna"]


def test_bg_stats_gives_tied_players_one_rank_and_a_game_without_ranking_no_ranks(tables: Tables) -> None:
    game_id = stored(tables, sample("ftw-3-players"))
    ranks = {p["name"]: (p["rank"], p["winner"]) for p in play(game_id, tables.fold(game_id), tables.store.events(game_id))["players"]}
    assert ranks == {"Anna": (1, True), "Cem": (1, True), "Ben": (3, False)}  # two players above Ben: third
    early = stored(tables, cut_short("ladies-and-gentlemen-4-players"))
    assert all("rank" not in p and not p["winner"] for p in play(early, tables.fold(early), tables.store.events(early))["players"])


# --- the pages --------------------------------------------------------------------------------------


def imported(client: FlaskClient, record: Record) -> str:
    answer = client.post("/import", data={"text": write_record(record.header, record.events)})
    return str(answer.headers["Location"].split("/")[2])


@pytest.mark.parametrize(("language", "said"), [("en", "Ended early: nobody wins. (out of time)"),
                                                ("de", "Vorzeitig beendet: niemand gewinnt. (out of time)")])
def test_the_pages_say_ended_early_and_name_no_winner(client: FlaskClient, language: str, said: str) -> None:
    client.get(f"/lang/{language}")
    game_id = imported(client, cut_short("employee-of-the-month-3-players"))
    for path in (f"/g/{game_id}", f"/g/{game_id}/result"):
        page = client.get(path).get_data(as_text=True)
        assert said in page and "Ben wins" not in page and "Ben gewinnt" not in page  # Ben leads, and does not win
    result = client.get(f"/g/{game_id}/result").get_data(as_text=True)
    assert {"en": "Standings when the table ended the game", "de": "Stand beim Spielende durch den Tisch"}[language] in result


@pytest.mark.parametrize(("name", "language", "said"), [
    ("karriere-poker-5-players-flags", "en", "No game finished: no standings."),
    ("karriere-poker-5-players-flags", "de", "Kein Spiel beendet: kein Stand."),
    ("ladies-and-gentlemen-4-players", "en", "No standings: the table ended the game before its rules ranked anyone."),
])
def test_a_game_ended_before_anyone_was_ranked_says_there_are_no_standings(client: FlaskClient, name: str, language: str, said: str) -> None:
    # Five friends end their Karriere Poker before game 1 is over: the seat order is no ranking.
    client.get(f"/lang/{language}")
    game_id = imported(client, cut_short(name, keep=5))
    page = client.get(f"/g/{game_id}/result").get_data(as_text=True)
    assert f'<p id="no-standings">{said}</p>' in page
    assert "<ol>" not in page and "Standings when the table ended the game" not in page and "Boss and Tellerwäscher games" not in page
    finished = client.get(f"/g/{imported(client, sample(name))}/result").get_data(as_text=True)  # played to the rules' end: ranked
    assert "<ol>" in finished and 'id="no-standings"' not in finished


def test_an_end_without_a_reason_is_said_in_german(client: FlaskClient) -> None:
    record = sample("ftw-3-players")
    game_id = imported(client, Record(record.header, (*record.events[:10], {"seq": 11, "type": "end"})))
    client.get("/lang/de")
    assert "Vorzeitig beendet: niemand gewinnt. (der Tisch hat das Spiel beendet)" in client.get(f"/g/{game_id}").get_data(as_text=True)


def test_ladies_and_gentlemen_ended_before_the_ball_promises_no_ball_and_offers_no_bg_stats(client: FlaskClient) -> None:
    game_id = imported(client, cut_short("ladies-and-gentlemen-4-players"))
    page = client.get(f"/g/{game_id}/result").get_data(as_text=True)
    assert "no Ball, no winner" in page and "its result appears" not in page and 'id="bgstats"' not in page
    finished = imported(client, sample("ladies-and-gentlemen-4-players"))
    assert 'id="bgstats"' in client.get(f"/g/{finished}/result").get_data(as_text=True)


# --- Karriere Poker: the match winner at once; the reveal pushed ------------------------------------


@pytest.fixture
def seat_app(database: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})


def kp_match_over(app: Flask) -> tuple[str, str, str]:
    """The four-player match played to its end over the API: (game id, host token, Ben's token)."""
    client = app.test_client()
    record = sample("karriere-poker-4-players")
    created = client.post("/api/games", json={"game": "karriere-poker", "seats": list(record.header.seats), "options": record.header.options}).json
    ben = client.post(f"/api/games/{created['id']}/seats/1", json={"code": created["join_code"]}).json["token"]
    for event in record.events:
        body = {k: v for k, v in event.items() if k != "seq"}
        assert client.post(f"/api/games/{created['id']}/events", json=body, headers={"Authorization": f"Bearer {created['host_token']}"}).status_code == 201
    return created["id"], created["host_token"], ben


def test_every_phone_is_told_the_match_winner_before_the_reveal_and_no_hand(seat_app: Flask) -> None:
    game_id, host, ben = kp_match_over(seat_app)
    told = seat_app.test_client().get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {ben}"}).json
    assert told["finished"] and not told["revealed"]
    assert told["winners"] == ["Cem"] and told["result"]["winner"] == "Cem"
    phone = seat_app.test_client()
    phone.set_cookie("referee_token", ben, path=f"/g/{game_id}")
    page = phone.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Game over: 3 games played; Cem is Boss and wins" in page and "The host confirms the end" not in page
    anna_hand = sample("karriere-poker-4-players").events[1]
    assert json.dumps(anna_hand["cards"]) not in phone.get(f"/api/games/{game_id}/events", headers={"Authorization": f"Bearer {ben}"}).get_data(as_text=True)


def test_a_phone_waiting_for_the_reveal_is_answered_at_once(seat_app: Flask) -> None:
    game_id, host, ben = kp_match_over(seat_app)
    phone = seat_app.test_client()
    phone.set_cookie("referee_token", ben, path=f"/g/{game_id}")
    waiting = phone.get(f"/g/{game_id}").get_data(as_text=True)
    assert "awaiting=reveal" in waiting  # the phone asks to be woken by the reveal too
    seq = report_seq(seat_app, game_id, host)
    answered: dict[str, Any] = {}

    def long_poll() -> None:
        started = time.monotonic()
        answered["page"] = phone.get(f"/g/{game_id}/live?after={seq}&awaiting=reveal").get_data(as_text=True)
        answered["seconds"] = time.monotonic() - started

    poll = threading.Thread(target=long_poll)
    poll.start()
    time.sleep(0.5)
    assert "page" not in answered  # nothing new yet: it waits
    host_phone = seat_app.test_client()
    assert host_phone.post(f"/api/games/{game_id}/reveal", headers={"Authorization": f"Bearer {host}"}).status_code == 200
    poll.join(timeout=10)
    assert answered["seconds"] < 1.5 and "awaiting=reveal" not in answered["page"]


def report_seq(app: Flask, game_id: str, host: str) -> int:
    return int(app.test_client().get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {host}"}).json["seq"])
