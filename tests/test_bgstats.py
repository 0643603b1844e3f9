"""A finished game as a BG Stats play (`referee export GAME --format bgstats`), field by field."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from conftest import EVENTS_DIR

from referee.cli import main
from referee.record import read_record, write_record


def exported(tmp_path: Path, sample: str, game_id: str, record_text: str | None = None) -> tuple[int, str]:
    db = str(tmp_path / "games.sqlite3")
    path = tmp_path / f"{sample}.jsonl"
    path.write_text(record_text or (EVENTS_DIR / f"{sample}.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["import", str(path), "--id", game_id, "--db", db]).exit_code == 0
    result = runner.invoke(main, ["export", game_id, "--format", "bgstats", "--db", db])
    return result.exit_code, result.output


def test_a_senators_game_with_a_tie_on_senators_is_a_play_with_ranks_and_one_winner(tmp_path: Path) -> None:
    # senators-4-players-flags: Anna 11 senators (5 money), Dora 11 (1), Cem 10, Ben 5. Seat 0 starts.
    record = read_record((EVENTS_DIR / "senators-4-players-flags.jsonl").read_text(encoding="utf-8"))
    header = record.header.__class__(record.header.game, record.header.seats, record.header.options, record.header.title, "2026-11-20T19:30:00+01:00")
    times = {1: "2026-11-20T19:30:00+01:00", len(record.events): "2026-11-20T21:05:00+01:00"}
    timed = [{**e, "at": times[e["seq"]]} if e["seq"] in times else e for e in record.events]
    code, output = exported(tmp_path, "senators-4-players-flags", "friday-senate", write_record(header, timed))
    assert code == 0, output
    play = json.loads(output)
    assert play["sourceName"] == "Table Referee" and play["sourcePlayId"] == "friday-senate"
    assert play["playDate"] == "2026-11-20 19:30:00"  # the header's started_at, as the table's clock said it
    assert play["durationMin"] == 95  # the playing time: the first event at 19:30 to the last at 21:05, no break
    assert play["game"] == {"name": "Senators", "highestWins": True, "noPoints": False, "sourceGameId": "senators"}
    assert "the 4th war was drawn" in play["comments"]
    by_name = {p["name"]: p for p in play["players"]}
    assert [(n, by_name[n]["score"], by_name[n]["rank"], by_name[n]["winner"]) for n in ("Anna", "Dora", "Cem", "Ben")] == [
        ("Anna", 11, 1, True), ("Dora", 11, 2, False), ("Cem", 10, 3, False), ("Ben", 5, 4, False)]
    assert by_name["Anna"]["startPlayer"] and not by_name["Ben"]["startPlayer"]
    assert by_name["Ben"]["sourcePlayerId"] == "friday-senate:1"


def test_karriere_poker_has_no_points_and_an_unfinished_game_is_no_play(tmp_path: Path) -> None:
    code, output = exported(tmp_path, "karriere-poker-4-players", "kp")
    play = json.loads(output)
    assert code == 0 and play["game"]["noPoints"] is True and all("score" not in p for p in play["players"])
    assert [p["name"] for p in play["players"] if p["winner"]] == ["Cem"]
    assert "durationMin" not in play  # its events carry no time
    text = (EVENTS_DIR / "ftw-3-players.jsonl").read_text(encoding="utf-8")
    unfinished = "".join(text.splitlines(keepends=True)[:10])
    code, output = exported(tmp_path / "..", "ftw-3-players", "early", unfinished)
    assert code == 1 and "game early is not finished" in output


def test_tied_players_and_teams_share_a_rank_and_the_next_rank_counts_everyone_above(tmp_path: Path) -> None:
    # ftw-3-players: Anna and Cem tie for first (both win), Ben is third, not second.
    code, output = exported(tmp_path, "ftw-3-players", "ftw")
    ranks = {p["name"]: (p["rank"], p["winner"]) for p in json.loads(output)["players"]}
    assert code == 0 and ranks == {"Anna": (1, True), "Cem": (1, True), "Ben": (3, False)}
    # ladies-and-gentlemen-6-players-flags: three teams of two; Emil and Fay win together,
    # Anna and Ben are 3rd (two players above them), Cem and Dora 5th.
    code, output = exported(tmp_path, "ladies-and-gentlemen-6-players-flags", "lg")
    ranks = {p["name"]: (p["rank"], p["winner"]) for p in json.loads(output)["players"]}
    assert code == 0 and ranks == {"Emil": (1, True), "Fay": (1, True), "Anna": (3, False), "Ben": (3, False),
                                   "Cem": (5, False), "Dora": (5, False)}
