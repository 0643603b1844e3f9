"""Statistics of finished games: kept when a game finishes (or reopens), checked by hand
on the samples and against replays of random finished games; durations and evenings;
`referee stats`."""

from __future__ import annotations

import csv
import io
import json
import re
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import EVENTS_DIR
from flask.testing import FlaskClient
from hypothesis import example, given, settings
from hypothesis import strategies as st

from referee.cli import main
from referee.record import Record, read_record, write_record
from referee.replay import replay
from referee.simulate import employee_of_the_month, ftw_game, karriere_poker, ladies_gentlemen_game, senators_game
from referee.store import Store
from referee.tables import Tables


def sample(name: str) -> Any:
    return read_record((EVENTS_DIR / f"{name}.jsonl").read_text(encoding="utf-8"))


def samples_db(tmp_path: Path) -> str:
    db = str(tmp_path / "samples.sqlite3")
    tables = Tables(Store(db))
    for path in sorted(EVENTS_DIR.glob("*.jsonl")):
        tables.import_record(read_record(path.read_text(encoding="utf-8")), path.stem)
    return db


def stats_json(db: str, *more: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["stats", "--db", db, "--json", *more])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.output))


def test_the_samples_statistics_checked_by_hand(tmp_path: Path) -> None:
    shown = stats_json(samples_db(tmp_path))
    assert shown["games"] == 14  # every sample is finished
    players = {p["name"]: p for p in shown["players"]}
    anna = players["Anna"]
    # Anna holds seat 0 in all 14 samples. She is in the first tier of: employee-of-the-month-3 (24),
    # ftw-3 (25, tied with Cem), ftw-6 (95), ladies-and-gentlemen-4 (with Ben), senators-4 (11, on money): 5.
    assert (anna["played"], anna["won"], anna["win_rate"]) == (14, 5, round(5 / 14, 3))
    # FTW?!: Anna 25 and 95 -> average (25 + 95) / 2 = 60.0, best 95; Cem 25 and 80 -> 52.5, best 80.
    assert {k: anna["games"]["ftw"][k] for k in ("played", "won", "average", "best")} == {"played": 2, "won": 2, "average": 60.0, "best": 95}
    assert (players["Cem"]["games"]["ftw"]["average"], players["Cem"]["games"]["ftw"]["best"]) == (52.5, 80)
    # Karriere Poker, the Boss of each game: 4 players Anna, Cem, Cem; 5 players Cem, Cem; 8 players Cem, Ben.
    # Cem: 2 + 2 + 1 = 5 times Boss, at most twice in a row (within one match). The Tellerwäscher: 4 players
    # Ben, Anna, Dora; 5 players Dora, Dora; 8 players Emil, Hal. Dora: 1 + 2 = 3, twice in a row.
    kp_cem, kp_dora = players["Cem"]["games"]["karriere-poker"], players["Dora"]["games"]["karriere-poker"]
    assert (kp_cem["played"], kp_cem["boss"], kp_cem["boss_streak"], kp_cem["dishwasher"]) == (3, 5, 2, 0)
    assert (kp_dora["dishwasher"], kp_dora["dishwasher_streak"], kp_dora["boss"]) == (3, 2, 0)
    # Ladies & Gentlemen: Emil is the courtesan with 5 players and wins; Gus with 7 and loses in a scandal
    # that excludes Cem and Dora.
    lg = {n: players[n]["games"]["ladies-and-gentlemen"] for n in ("Emil", "Gus", "Cem")}
    assert (lg["Emil"]["courtesan"], lg["Emil"]["courtesan_won"]) == (1, 1)
    assert (lg["Gus"]["courtesan"], lg["Gus"]["courtesan_won"], lg["Gus"]["scandals"]) == (1, 0, 1)
    assert (lg["Cem"]["scandals"], lg["Cem"]["excluded"]) == (1, 1)
    # Senators: Emil 11 senators with 5 players, his only Senators game: best 11.
    assert players["Emil"]["games"]["senators"]["best"] == 11
    assert anna["last"][0]["kind"] in {"employee-of-the-month", "ftw", "karriere-poker", "ladies-and-gentlemen", "senators"}
    assert len(anna["last"]) == 5


def test_stats_without_json_is_a_readable_table(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["stats", "--db", samples_db(tmp_path)])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split() == ["player", "played", "won", "win", "rate"]
    assert lines[1].split() == ["Anna", "14", "5", "36%"]
    assert lines[-1] == "14 finished games, 1 evenings"
    missing = CliRunner().invoke(main, ["stats", "--db", str(tmp_path / "none.sqlite3")])
    assert missing.exit_code == 1 and "no database at" in missing.output


def test_a_game_counts_from_the_move_that_ends_it_until_a_void_reopens_it(tables: Tables) -> None:
    record = sample("employee-of-the-month-3-players")  # no secret that the host must reveal first: it counts at its end
    game_id = tables.create(record.header)
    counted = []
    for event in record.events:
        body = {k: v for k, v in event.items() if k != "seq"}
        tables.append(game_id, body)
        counted.append(bool(tables.plays.plays(seats=True)))
    assert counted == [False] * (len(record.events) - 1) + [True]
    last = len(record.events)
    tables.append(game_id, {"type": "void", "target": last, "reason": "Anna had not passed yet"})
    assert tables.plays.plays(seats=True) == []  # unfinished again: no longer counted
    tables.append(game_id, {k: v for k, v in record.events[-1].items() if k != "seq"})
    [play] = tables.plays.plays(seats=True)
    assert [s.score for s in play.seats] == [24, -2, -4] and play.winners == ["Anna"]


def test_a_game_with_secrets_counts_only_once_the_host_reveals_it(tables: Tables) -> None:
    record = sample("senators-3-players")
    game_id = tables.create(record.header)
    for event in record.events:
        tables.append(game_id, {k: v for k, v in event.items() if k != "seq"})
    assert tables.fold(game_id).outcome is not None
    assert tables.plays.plays(seats=True) == []  # over, but its money is secret until the host confirms the end
    tables.reveal(game_id)
    [play] = tables.plays.plays(seats=True)
    assert {s.name: s.score for s in play.seats} == {"Anna": 15, "Ben": 14, "Cem": 16}


def timed(name: str, start: str, times: dict[int, str]) -> Any:
    """A sample as played at a given time: started at `start`, event seq -> its `at`."""
    record = sample(name)
    events = tuple({**e, "at": times[e["seq"]]} if e["seq"] in times else e for e in record.events)
    return replace(record, header=replace(record.header, started_at=start), events=events)


def test_durations_and_evenings(tables: Tables) -> None:
    last = len(sample("ftw-3-players").events)
    ftw = timed("ftw-3-players", "2026-11-20T19:00:00+01:00", {1: "2026-11-20T19:00:00+01:00", last: "2026-11-20T19:40:00+01:00"})
    eotm_record = sample("employee-of-the-month-3-players")
    eotm = timed("employee-of-the-month-3-players", "2026-11-20T20:00:00+01:00",
                 {1: "2026-11-20T20:02:00+01:00", len(eotm_record.events): "2026-11-20T21:10:00+01:00"})
    later = timed("ftw-3-players", "2026-11-27T19:30:00+01:00", {1: "2026-11-27T19:30:00+01:00", last: "2026-11-27T20:15:00+01:00"})
    for record in (ftw, eotm, later):
        tables.import_record(record)
    plays = tables.plays.plays()
    # The playing time runs from the first event's time (not the header's started_at) to the last's:
    # 19:00-19:40, 20:02-21:10, 19:30-20:15.
    assert [p.minutes for p in plays] == [40, 68, 45]
    nights = tables.plays.summary()["evenings"]
    # 20:00 follows 19:40 within 4 hours: one evening of 40 + 68 = 108 minutes; a week later another.
    assert [(n["date"], n["minutes"], len(n["games"])) for n in nights] == [("2026-11-27", 45, 1), ("2026-11-20", 108, 2)]
    assert nights[1]["games"][0]["winners"] == ["Anna", "Cem"]


def test_head_to_head_counts_who_finished_ahead(tables: Tables) -> None:
    for name in ("ftw-3-players", "ftw-6-players-flags", "employee-of-the-month-3-players"):
        tables.import_record(sample(name))
    # ftw-3: Anna 25 = Cem 25 (level); ftw-6: Anna 95 > Cem 80; eotm-3: Anna 24 > Cem -4.
    assert tables.plays.head_to_head(None, "Anna", "Cem") == {
        "players": ["Anna", "Cem"], "together": 3, "ahead": {"Anna": 2, "Cem": 0}, "level": 1}
    assert tables.plays.head_to_head(None, "Anna", "Fay")["together"] == 1


def test_the_csv_has_a_row_per_player_per_game(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["stats", "--db", samples_db(tmp_path), "--csv"])
    rows = list(csv.DictReader(io.StringIO(result.output)))
    # 14 samples: 3+5 (EotM) + 3+6 (FTW?!) + 4+5+8 (KP) + 4+5+6+7 (L&G) + 3+4+5 (Senators) = 68 seats
    assert len(rows) == 68
    ftw_anna = next(r for r in rows if r["game_id"] == "ftw-6-players-flags" and r["player"] == "Anna")
    assert (ftw_anna["score"], ftw_anna["rank"], ftw_anna["won"], ftw_anna["seat"], ftw_anna["minutes"]) == ("95", "1", "1", "0", "")
    kp = next(r for r in rows if r["game_id"] == "karriere-poker-4-players" and r["player"] == "Dora")
    assert (kp["score"], kp["rank"], kp["won"]) == ("", "4", "0")


def test_a_store_from_before_statistics_is_filled_in_once_and_rebuild_writes_the_same(tmp_path: Path) -> None:
    db = samples_db(tmp_path)
    before = stats_json(db)
    store = Store(db)
    store.db.execute("DROP TABLE play_seats")
    store.db.execute("DROP TABLE plays")
    store.db.execute("DROP TABLE meta")
    store.close()
    assert stats_json(db) == before  # opened again: every game's rows written from its log
    assert stats_json(db, "--rebuild") == before


NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay", "Gus"]


def simulated(kind: str, players: int, seed: int) -> Any:
    if kind == "karriere-poker":
        return karriere_poker(NAMES[: max(players, 4)], 3, seed)
    if kind == "employee-of-the-month":
        return employee_of_the_month(NAMES[: min(players, 6)], seed)
    if kind == "ftw":
        return ftw_game(NAMES[: min(players, 6)], seed)
    if kind == "senators":
        return senators_game(NAMES[: min(players, 5)], seed)
    return ladies_gentlemen_game(NAMES[: max(players, 4)], seed, gossip=True)


@settings(max_examples=8, deadline=None)
@given(games=st.lists(st.tuples(st.sampled_from(["karriere-poker", "employee-of-the-month", "ftw", "senators", "ladies-and-gentlemen"]),
                                st.integers(3, 7), st.integers(0, 2**32)), min_size=1, max_size=4))
@example(games=[("ladies-and-gentlemen", 5, 8587)])  # a scandal leaves no team: Emil, the courtesan, ranks first and does not win
def test_the_kept_statistics_are_those_of_the_replayed_games(games: list[tuple[str, int, int]]) -> None:
    with tempfile.TemporaryDirectory() as folder:  # a fresh store for every example, a repeated one too
        check_kept_statistics(Tables(Store(Path(folder) / "stats.sqlite3")), games)


def check_kept_statistics(tables: Tables, games: list[tuple[str, int, int]]) -> None:
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    best: dict[str, int] = {}
    for kind, players, seed in games:
        header, events = simulated(kind, players, seed)
        record = Record(header, tuple(events))
        tables.import_record(record)
        result = replay(header, events).result()
        played.update(header.seats)
        won.update(result.winners)  # whom the rules name: an L&G scandal that leaves no team ranks the courtesan first, and nobody wins
        if kind == "ftw":
            for name, points in result.scores.items():
                best[name] = max(best.get(name, points), points)
    shown = {p["name"]: p for p in tables.plays.summary()["players"]}
    assert {n: (p["played"], p["won"]) for n, p in shown.items()} == {n: (played[n], won[n]) for n in played}
    assert {n: p["games"]["ftw"]["best"] for n, p in shown.items() if "ftw" in p["games"]} == best
    assert tables.plays.summary()["games"] == len(games)


def test_who_took_longest_to_move_and_the_average_playing_time_per_player_count(tables: Tables) -> None:
    # An FTW?! evening, its events logged a minute apart but for a 20-minute break after the
    # 3rd (pause 19:03, resume 19:23): every move takes 60 s (the one after the resume counts
    # from the resume), and the playing time is a minute per event after the first, less the
    # minute of the resume itself.
    record = sample("ftw-3-players")
    clock = [19 * 60 + seq - 1 + (19 if seq >= 5 else 0) for seq in range(1, len(record.events) + 3)]
    bodies = [*record.events[:3], {"type": "pause"}, {"type": "resume"}, *record.events[3:]]
    timed_events = tuple({**body, "seq": seq, "at": f"2026-11-20T{clock[seq - 1] // 60:02d}:{clock[seq - 1] % 60:02d}:00+01:00"}
                         for seq, body in enumerate(bodies, start=1))
    tables.import_record(replace(record, events=timed_events))
    [played] = tables.plays.summary()["lengths"]
    # The first event at 19:00, the last (n events) at 19:00 + (n - 1) + 19 minutes, less the break of 20.
    assert played == {"kind": "ftw", "players": 3, "games": 1, "minutes": len(timed_events) - 2}
    paces = tables.plays.move_times(None)
    assert {p["name"] for p in paces} == {"Anna", "Ben", "Cem"} and {p["median_seconds"] for p in paces} == {60}


@pytest.mark.parametrize(("language", "played", "help_said"), [
    ("en", "2 <small class=\"muted\">(1 ended early)</small>", "counts as played, not in the win rate"),
    ("de", "2 <small class=\"muted\">(1 vorzeitig beendet)</small>", "zählt als gespielt, aber nicht für die Siegquote"),
])
def test_the_players_table_says_which_played_games_the_win_rate_leaves_out(client: FlaskClient, language: str, played: str, help_said: str) -> None:
    # The club's FTW?! evening: Anna and Cem win the first game; the second ends early with
    # nobody winning. Anna played 2, won 1, and her win rate is 100%: the table says why.
    client.set_cookie("lang", language)
    record = sample("ftw-3-players")
    half = list(record.events[: len(record.events) // 2])
    short = write_record(record.header, [*half, {"seq": len(half) + 1, "type": "end", "reason": "out of time"}])
    group = {"format": "table-group/1", "name": "Club", "players": [{"name": name} for name in record.header.seats],
             "games": [{"id": game_id, "created_at": f"2026-11-28T{hour}:00:00", "seats": list(record.header.seats), "record": text}
                       for game_id, hour, text in (("full", 19, write_record(record.header, record.events)), ("short", 21, short))]}
    answer = client.post("/groups/import", data={"group": (io.BytesIO(json.dumps(group).encode()), "group.json")}, content_type="multipart/form-data")
    page = client.get(answer.headers["Location"] + "/stats").get_data(as_text=True)
    rows = re.findall(r"<tr><td>(\w+)</td><td>(.*?)</td><td>(\d+)</td><td>(.*?)</td></tr>", page.split('<table id="players">')[1].split("</table>")[0])
    assert ("Anna", played, "1", "100%") in rows and ("Ben", played, "0", "0%") in rows
    assert help_said in page.split('id="win-rate-help">')[1].split("</p>")[0]
