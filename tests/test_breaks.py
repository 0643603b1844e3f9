"""The table takes a break: `pause` and `resume` in every game (`core.pause.order`), the
playing time with the breaks left out, how long each move took, and the table's banner."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from conftest import events, flags, play_out, table
from flask import Flask
from flask.testing import FlaskClient

from referee.bgstats import play
from referee.games import GAMES
from referee.record import RecordError, read_record, write_record
from referee.replay import replay, report
from referee.stats import break_since, playing_time, timed_moves

KP = table("karriere-poker", "Anna Ben Cem Dora")
DEAL = {"type": "deal", "dealer": 3}  # Anna, on Dora's left, leads
PAUSE, RESUME = {"type": "pause"}, {"type": "resume"}


def at(clock: str, body: dict[str, Any]) -> dict[str, Any]:
    """An event logged at a time of the evening of 20 November 2026 ("20:15")."""
    return {**body, "at": f"2026-11-20T{clock}:00+01:00"}


# --- replay -------------------------------------------------------------------------------


def test_a_pause_during_a_break_and_a_resume_with_no_break_are_core_pause_order() -> None:
    # Anna taps Pause for the pizza, Ben taps it too a moment later; after the pizza both tap
    # Resume: the second tap of each is core.pause.order, and the table is playing again.
    fold = play_out(KP, DEAL, PAUSE, PAUSE, RESUME, RESUME)
    assert flags(fold) == {3: "core.pause.order", 5: "core.pause.order"}
    assert report(fold)["violations"][0]["message"] == "The table is on a break already: resume first."
    assert report(fold)["violations"][1]["message"] == "The table is not on a break: there is nothing to resume."
    assert fold.paused is False
    assert flags(play_out(KP, DEAL, RESUME)) == {2: "core.pause.order"}  # no break to end


def test_core_pause_order_nearest_legal_case_is_a_break_and_its_end_and_moves_in_it_are_judged_as_ever() -> None:
    # Anna leads a 5 during the break (legal: moves are judged as ever), Cem plays out of
    # turn during it (kp.turn, as ever); after the break Ben passes. The game is the one
    # played without the break.
    moves = [{"type": "play", "seat": 0, "cards": [5]}, {"type": "play", "seat": 2, "cards": [6]}]
    fold = play_out(KP, DEAL, PAUSE, *moves, RESUME, {"type": "pass", "seat": 1}, PAUSE, RESUME)
    assert flags(fold) == {4: "kp.turn"}
    assert fold.state == play_out(KP, DEAL, *moves, {"type": "pass", "seat": 1}).state
    assert play_out(KP, DEAL, PAUSE).paused is True


def test_a_voided_pause_is_no_break_so_its_resume_is_flagged() -> None:
    fold = play_out(KP, DEAL, PAUSE, {"type": "void", "target": 2, "reason": "tapped by mistake"}, RESUME)
    assert flags(fold) == {4: "core.pause.order"}
    assert fold.voided == (2,) and fold.paused is False


def test_after_the_end_a_pause_or_resume_is_core_game_over() -> None:
    # DESIGN allows only voids, notes and rulings after the end: the playing time is over.
    fold = play_out(KP, DEAL, PAUSE, {"type": "end", "reason": "out of time"}, RESUME, PAUSE)
    assert flags(fold) == {4: "core.game.over", 5: "core.game.over"}
    assert fold.outcome is not None


def test_a_ruling_cannot_let_a_flagged_pause_stand() -> None:
    fold = play_out(KP, DEAL, PAUSE, PAUSE, {"type": "ruling", "target": 3, "reason": "we-agreed"})
    assert flags(fold) == {3: "core.pause.order", 4: "core.ruling.target"}
    assert fold.violation_at(4).message == "This ruling cannot let event 3 stand: event 3 is a pause, not a player's move."  # type: ignore[union-attr]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_knows_pause_and_resume_and_writes_them_canonically(name: str) -> None:
    header = table(name, ["Anna", "Ben", "Cem", "Dora"][: max(GAMES[name].min_players, 3)])
    text = write_record(header, events(header, at("20:15", {**PAUSE, "by": 1}), RESUME))
    assert text.splitlines()[1:] == ['{"seq": 1, "type": "pause", "at": "2026-11-20T20:15:00+01:00", "by": 1}', '{"seq": 2, "type": "resume"}']
    assert write_record(header, read_record(text).events) == text
    with pytest.raises(RecordError, match="line 2: .*reason"):
        read_record(text.replace('"type": "pause",', '"type": "pause", "reason": "pizza",'))


def test_the_cli_report_of_a_game_with_breaks_is_the_report_without_them() -> None:
    moves = [DEAL, {"type": "play", "seat": 0, "cards": [5]}, {"type": "pass", "seat": 1}]
    with_breaks = report(play_out(KP, moves[0], PAUSE, RESUME, *moves[1:], PAUSE))
    without = report(play_out(KP, *moves))
    assert {**with_breaks, "events": 0} == {**without, "events": 0}


# --- the playing time ---------------------------------------------------------------------


def timed_fold(*bodies: dict[str, Any]) -> tuple[Any, list[dict[str, Any]]]:
    logged = events(KP, *bodies)
    return replay(KP, logged), logged


def test_the_playing_time_leaves_the_breaks_out() -> None:
    # 20:00 deal, 20:10 Anna leads, 20:15 pause, 20:45 resume, 21:00 Ben passes:
    # (20:10 - 20:00) + (20:15 - 20:10) + (21:00 - 20:45) = 10 + 5 + 15 = 30 minutes,
    # the 30 minutes of the break left out of the 60 from the first event to the last.
    fold, logged = timed_fold(at("20:00", DEAL), at("20:10", {"type": "play", "seat": 0, "cards": [5]}), at("20:15", PAUSE),
                              at("20:45", RESUME), at("21:00", {"type": "pass", "seat": 1}))
    assert playing_time(fold, logged) == timedelta(minutes=30)


def test_a_break_not_resumed_ends_with_the_last_event() -> None:
    # 20:00 deal, 20:40 pause, 21:30 a note: 40 minutes played; the break runs to 21:30.
    fold, logged = timed_fold(at("20:00", DEAL), at("20:40", PAUSE), at("21:30", {"type": "note", "text": "Cem went home"}))
    assert playing_time(fold, logged) == timedelta(minutes=40)
    assert break_since(fold, logged) is not None and break_since(fold, logged).strftime("%H:%M") == "20:40"  # type: ignore[union-attr]


def test_an_event_without_a_time_is_taken_at_the_time_before_it() -> None:
    # 20:00 deal, Anna's lead logged without a time, 20:20 pause, a resume without a time,
    # 21:00 Ben passes: 20:00-20:20 played (20 min); the resume counts from 20:20, so
    # 20:20-21:00 is played too (40 min): 60 minutes. With no time at all: no playing time.
    fold, logged = timed_fold(at("20:00", DEAL), {"type": "play", "seat": 0, "cards": [5]}, at("20:20", PAUSE), RESUME,
                              at("21:00", {"type": "pass", "seat": 1}))
    assert playing_time(fold, logged) == timedelta(minutes=60)
    assert playing_time(*timed_fold(DEAL, PAUSE, RESUME)) is None


def test_a_flagged_or_voided_pause_is_no_break() -> None:
    # 20:00 deal, 20:10 pause, 20:15 a second pause (core.pause.order: changes nothing),
    # 20:30 resume, 20:40 a pause voided at 20:50: 10 + 0 (break) + 10 + 10 = 30 minutes.
    fold, logged = timed_fold(at("20:00", DEAL), at("20:10", PAUSE), at("20:15", PAUSE), at("20:30", RESUME), at("20:40", PAUSE),
                              at("20:50", {"type": "void", "target": 5}))
    assert flags(fold) == {3: "core.pause.order"}
    assert playing_time(fold, logged) == timedelta(minutes=30)


def test_each_move_took_the_playing_time_since_the_event_before_it() -> None:
    # 20:00 deal; 20:01 Anna leads (60 s); 20:03 Ben passes (120 s); 20:04 pause; 20:14
    # resume; 20:16 Cem plays (120 s: from the resume, the break left out); 20:17 Ben plays
    # out of turn (kp.turn: not a move the game took, no time kept).
    fold, logged = timed_fold(at("20:00", DEAL), at("20:01", {"type": "play", "seat": 0, "cards": [5]}), at("20:03", {"type": "pass", "seat": 1}),
                              at("20:04", PAUSE), at("20:14", RESUME), at("20:16", {"type": "play", "seat": 2, "cards": [6]}),
                              at("20:17", {"type": "play", "seat": 1, "cards": [7]}))
    assert flags(fold) == {7: "kp.turn"}
    assert timed_moves(fold, logged) == [(2, 0, 60.0), (3, 1, 120.0), (6, 2, 120.0)]


def test_bg_stats_carries_the_playing_time() -> None:
    # A table ended at 21:00 after a deal at 20:00 and a break from 20:20 to 20:35: 45 minutes.
    fold, logged = timed_fold(at("20:00", DEAL), at("20:20", PAUSE), at("20:35", RESUME), at("21:00", {"type": "end", "reason": "late"}))
    assert play("friday", fold, logged)["durationMin"] == 45


# --- the table and the result page ---------------------------------------------------------


def new_game(client: FlaskClient, seats: list[str]) -> str:
    answer = client.post("/new", data={"game": "karriere-poker", "seats": "\n".join(seats)})
    assert answer.status_code == 302
    return str(answer.headers["Location"].split("/")[2])


def tap(phone: FlaskClient, game_id: str, **form: Any) -> str:
    answer = phone.post(f"/g/{game_id}/log", data={k: str(v) for k, v in form.items()}, headers={"HX-Request": "true"})
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def test_any_seat_pauses_with_one_tap_every_phone_says_since_when_and_the_host_resumes(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client, ["Anna", "Ben", "Cem", "Dora"])
    tap(client, game_id, type="deal", dealer=3)
    ben = app.test_client()
    code = app.extensions["referee"].access.join_code(game_id)
    assert ben.post(f"/g/{game_id}/seats/1", data={"code": code}).status_code == 302  # Ben's phone takes his seat
    assert 'data-break="pause"' in ben.get(f"/g/{game_id}").get_data(as_text=True)
    page = tap(ben, game_id, type="pause")
    [pause] = [e for e in app.extensions["referee"].tables.store.events(game_id) if e["type"] == "pause"]
    assert pause["by"] == 1
    clock = re.escape(pause["at"][11:16])
    watcher = app.test_client().get(f"/g/{game_id}").get_data(as_text=True)
    for shown in (page, watcher):
        assert re.search(rf'Break since <time datetime="[^"]+" data-clock>{clock} UTC</time>', shown), shown
        assert 'data-break="pause"' not in shown
    assert 'data-break="resume"' in page and 'data-break="resume"' not in watcher  # a spectator taps nothing
    assert "The table takes a break." in watcher
    client.set_cookie("lang", "de")
    german = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Pause seit <time" in german and ">Weiter</button>" in german and "Der Tisch macht eine Pause." in german
    after = tap(client, game_id, type="resume")
    assert "Pause seit" not in after and 'data-break="pause"' in after and "Der Tisch spielt nach der Pause weiter." in after


def test_a_second_tap_of_pause_is_flagged_for_the_phone_that_tapped_it(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client, ["Anna", "Ben", "Cem", "Dora"])
    tap(client, game_id, type="pause")
    page = tap(client, game_id, type="pause")  # sent from an old page: the break had begun
    assert 'data-rule="core.pause.order"' in page and "The table is on a break already: resume first." in page


def test_the_result_page_shows_the_playing_time_without_the_breaks(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client, ["Anna", "Ben", "Cem", "Dora"])
    tables = app.extensions["referee"].tables
    # 20:00 deal, 20:30 pause, 21:15 resume, 21:20 end: 30 + 5 = 35 minutes.
    for body in (at("20:00", DEAL), at("20:30", PAUSE), at("21:15", RESUME), at("21:20", {"type": "end", "reason": "late"})):
        tables.append(game_id, body)
    assert "Playing time, breaks left out: 35 min" in client.get(f"/g/{game_id}/result").get_data(as_text=True)
    client.set_cookie("lang", "de")
    assert "Spielzeit ohne Pausen: 35 Min." in client.get(f"/g/{game_id}/result").get_data(as_text=True)


# --- statistics ----------------------------------------------------------------------------


def test_a_pause_changes_no_event_of_the_api_but_its_own(client: FlaskClient, app: Flask) -> None:
    game_id = new_game(client, ["Anna", "Ben", "Cem", "Dora"])
    tap(client, game_id, type="pause")
    [stored] = client.get(f"/api/games/{game_id}/events").json["events"]
    assert (stored["type"], stored["by"]) == ("pause", "host")
    assert json.loads(client.get(f"/api/games/{game_id}").get_data(as_text=True))["violations"] == []


def finished_kp(tables: Any, game_id: str, players: int, start: str, minutes_after_break: int) -> None:
    """A Karriere Poker game ended by the table: the last seat deals, Anna leads 1 minute
    later, Ben passes 2 minutes after her, a 30-minute break, the end `minutes_after_break` later."""
    hour, minute = map(int, start.split(":"))

    def clock(after: int) -> str:
        return f"{hour + (minute + after) // 60:02d}:{(minute + after) % 60:02d}"

    for after, body in ((0, {"type": "deal", "dealer": players - 1}), (1, {"type": "play", "seat": 0, "cards": [5]}), (3, {"type": "pass", "seat": 1}), (3, PAUSE), (33, RESUME),
                        (33 + minutes_after_break, {"type": "end", "reason": "late"})):
        tables.append(game_id, at(clock(after), body))
    tables.reveal(game_id)  # the host confirms the end: the game counts


def test_the_group_statistics_show_the_average_playing_time_and_who_took_longest_until_the_host_switches_it_off(client: FlaskClient, app: Flask) -> None:
    referee = app.extensions["referee"]
    client.post("/groups", data={"name": "Donnerstagsrunde"})
    [group] = referee.groups.named()
    group_id = group["id"]
    for start, names, after_break in (("19:00", "Anna Ben Cem Dora", 17), ("20:00", "Anna Ben Cem Dora", 27), ("21:00", "Anna Ben Cem Dora Emil", 7)):
        answer = client.post("/new", data={"game": "karriere-poker", "group": group_id, "seats": "\n".join(names.split())})
        finished_kp(referee.tables, answer.location.split("/")[2], len(names.split()), start, after_break)
    # Playing times: 3 + 17 = 20 and 3 + 27 = 30 minutes at 4 players (average 25), 3 + 7 = 10 at 5.
    lengths = referee.tables.plays.summary(group_id)["lengths"]
    assert lengths == [{"kind": "karriere-poker", "players": 4, "games": 2, "minutes": 25},
                       {"kind": "karriere-poker", "players": 5, "games": 1, "minutes": 10}]
    # Anna's leads took 60 s each, Ben's passes 120 s: Ben took longest (the middle of 120, 120, 120).
    assert referee.tables.plays.move_times(group_id) == [{"name": "Ben", "median_seconds": 120, "moves": 3},
                                                         {"name": "Anna", "median_seconds": 60, "moves": 3}]
    ben = app.test_client()
    ben.get(f"/groups/join/{group['code']}")
    page = re.sub(r">\s+<", "><", ben.get(f"/groups/{group_id}/stats").get_data(as_text=True))
    assert "<td>Karriere Poker</td><td>4</td><td>2</td><td class=\"nowrap\">25 min</td>" in page
    assert "<td>Ben</td><td class=\"nowrap\">2 min 00 s</td><td>3</td>" in page and "Switch it off" not in page
    assert ben.post(f"/groups/{group_id}/move-times", data={"shown": "0"}).status_code == 403  # only the group's host
    assert client.post(f"/groups/{group_id}/move-times", data={"shown": "no"}).status_code == 400
    assert client.post(f"/groups/{group_id}/move-times", data={"shown": "0"}).status_code == 302
    page = ben.get(f"/groups/{group_id}/stats").get_data(as_text=True)
    assert "Who took longest to move" not in page and "25 min" in page
    hosting = client.get(f"/groups/{group_id}/stats").get_data(as_text=True)
    assert "The group's host has switched this off." in hosting and "Show it" in hosting
    client.set_cookie("lang", "de")
    client.post(f"/groups/{group_id}/move-times", data={"shown": "1"})
    german = client.get(f"/groups/{group_id}/stats").get_data(as_text=True)
    assert "Wer am längsten für einen Zug brauchte" in german and "2 Min. 00 s" in german and "Ausschalten" in german
