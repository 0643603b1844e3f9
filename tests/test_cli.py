"""The `referee` command: the DESIGN.md replay contract, import/export, verify, help texts."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EVENTS_DIR
from postgres import Cluster

from referee.cli import main

FLAGGED = EVENTS_DIR / "karriere-poker-5-players-flags.jsonl"
CLEAN = EVENTS_DIR / "karriere-poker-4-players.jsonl"


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def test_replay_json_follows_the_contract() -> None:
    code, output = run("replay", str(FLAGGED), "--json")
    shown = json.loads(output)
    assert code == 1  # violations found
    assert set(shown) >= {"game", "events", "finished", "violations", "voided", "scores", "ranking", "result"}
    assert shown["game"] == "karriere-poker" and shown["finished"] is True
    assert shown["violations"][0] == {"seq": 2, "rule": "kp.lead.pass", "message": "Ben starts this round and must play, not pass."}
    assert shown["voided"] == [3, 6]
    assert shown["scores"] == {}
    assert all(len(tier) == 1 for tier in shown["ranking"])


def test_replay_exit_0_without_violations_and_a_readable_report() -> None:
    code, output = run("replay", str(CLEAN))
    assert code == 0
    assert "No violations." in output and "Game over: 3 games played" in output


def test_replay_exit_2_names_the_line_of_a_malformed_record(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl"
    lines = CLEAN.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if '"type": "play"' in line)
    lines[number] = lines[number].replace('"type": "play"', '"type": "plya"')
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, output = run("replay", str(broken), "--json")
    assert code == 2
    assert f"line {number + 1}: type: unknown event type 'plya'" in output


def test_replay_upto_stops_at_a_seq() -> None:
    code, output = run("replay", str(FLAGGED), "--json", "--upto", "2")
    shown = json.loads(output)
    assert (code, shown["events"], shown["finished"]) == (1, 2, False)
    assert [v["seq"] for v in shown["violations"]] == [2]


def test_import_then_export_is_byte_identical(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    code, game_id = run("import", str(FLAGGED), "--db", db)
    assert code == 0
    code, exported = run("export", game_id.strip(), "--db", db)
    assert code == 0
    assert exported == FLAGGED.read_text(encoding="utf-8")
    code, listing = run("games", "--db", db)
    assert listing.splitlines()[0].split() == ["id", "game", "events", "started", "players"]
    assert listing.splitlines()[1].split()[:3] == [game_id.strip(), "karriere-poker", "184"]


def test_import_of_a_malformed_record_stores_nothing(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(CLEAN.read_text(encoding="utf-8").replace('"seq": 7,', '"seq": 8,'), encoding="utf-8")
    code, output = run("import", str(bad), "--db", db)
    assert code == 2 and f"{bad}: line 8: seq: expected 7, found 8" in output  # as replay says it
    assert run("games", "--db", db)[1].startswith("no games yet")


def test_export_of_an_unknown_game_is_a_clear_error(tmp_path: Path) -> None:
    code, output = run("export", "nope", "--db", str(tmp_path / "t.sqlite3"))
    assert code == 1 and "no game 'nope'" in output


def test_verify_passes_and_then_names_an_edited_row(tmp_path: Path) -> None:
    db = str(tmp_path / "t.sqlite3")
    game_id = run("import", str(CLEAN), "--db", db)[1].strip()
    assert run("verify", "--db", db) == (0, "ok: every hash chain is intact, every snapshot's seal holds\n")
    raw = sqlite3.connect(db)
    raw.execute("DROP TRIGGER events_append_only_update")
    raw.execute("UPDATE events SET body = body || ' ' WHERE seq = 40")
    raw.commit()
    raw.close()
    code, output = run("verify", "--db", db)
    assert code == 1
    assert output.splitlines()[0] == f"game {game_id} seq 40: its hash does not match (the row was edited)"


def test_verify_without_a_database_says_so(tmp_path: Path) -> None:
    code, output = run("verify", "--db", str(tmp_path / "none.sqlite3"))
    assert code == 1 and "no database" in output


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_has_help_text(command: str) -> None:
    assert main.commands[command].help, f"{command} has no docstring"
    code, output = run(command, "--help")
    assert code == 0 and " ".join(main.commands[command].help.split()[:6]) in " ".join(output.split())


def test_the_installed_console_script_runs() -> None:
    referee = Path(sys.executable).parent / "referee"
    assert referee.exists(), "the package must install a `referee` command"
    done = subprocess.run([referee, "replay", str(CLEAN), "--json"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)["finished"] is True


def test_a_database_url_is_never_made_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A URL of a database the app does not keep its store in is refused; a PostgreSQL
    # server that does not answer is one line naming it (and no password). No file is made.
    monkeypatch.chdir(tmp_path)
    code, output = run("games", "--db", "mysql://referee@localhost/referee")
    assert code == 2 and "mysql://… is not a database this app keeps its store in" in output
    monkeypatch.setenv("REFEREE_DB", "sqlite://x/y")
    code, output = run("games")
    assert code == 2 and "sqlite://… is not a database" in output
    code, output = run("games", "--db", "postgresql://referee:secret@127.0.0.1:1/referee")
    assert code == 1 and output.startswith("Error: cannot reach the database at postgresql://referee:…@127.0.0.1:1/referee") and "secret" not in output
    assert list(tmp_path.iterdir()) == []


def test_a_store_of_a_newer_version_is_refused_untouched(tmp_path: Path) -> None:
    from referee.store import SCHEMA_VERSION

    db = tmp_path / "newer.sqlite3"
    assert run("demo", "--db", str(db))[0] == 0
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE meta SET value = ? WHERE key = 'schema'", [str(SCHEMA_VERSION + 1)])
    before = db.read_bytes()
    code, output = run("games", "--db", str(db))
    assert code == 1 and f"written by a newer Table Referee (store layout {SCHEMA_VERSION + 1}; this one knows up to {SCHEMA_VERSION})" in output
    assert db.read_bytes() == before


def test_an_old_store_without_a_layout_version_is_brought_up_to_date(tmp_path: Path) -> None:
    from referee.store import SCHEMA_VERSION

    db = tmp_path / "old.sqlite3"
    assert run("demo", "--db", str(db))[0] == 0
    with sqlite3.connect(db) as connection:
        connection.execute("DELETE FROM meta WHERE key = 'schema'")
    code, output = run("verify", "--db", str(db))
    assert code == 0
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (str(SCHEMA_VERSION),)


def test_copy_makes_a_whole_store_anew_all_or_nothing(tmp_path: Path) -> None:
    # Every sample and a group in a store; `referee copy` into another folder: every game
    # exports byte-identical, every receipt (head hash) verifies on the copy, the group and
    # the statistics are there. A target that holds a game is refused untouched.
    source = tmp_path / "club" / "referee.sqlite3"
    for path in sorted(EVENTS_DIR.glob("*.jsonl")):
        assert run("import", str(path), "--db", str(source))[0] == 0
    assert run("group", "create", "Freitagsrunde", "--db", str(source))[0] == 0
    target = tmp_path / "backup" / "copy.sqlite3"
    code, output = run("copy", str(source), str(target))
    assert code == 0 and "copied 14 games" in output, output
    games = [line.split()[0] for line in run("games", "--db", str(source))[1].splitlines()[1:] if line.strip()]
    assert len(games) == 14
    receipts = []
    for game in games:
        assert run("export", game, "--db", str(target))[1] == run("export", game, "--db", str(source))[1]
        head = run("export", game, "--db", str(source), "--output", str(tmp_path / "r.jsonl"))[1].split()[3]
        receipts += ["--head", f"{game}:{head}"]
    assert run("verify", *receipts, "--db", str(target))[0] == 0
    assert "Freitagsrunde" in run("group", "list", "--db", str(target))[1]
    assert run("stats", "--json", "--db", str(target))[1] == run("stats", "--json", "--db", str(source))[1]
    before = target.read_bytes()
    code, output = run("copy", str(source), str(target))
    assert code == 1 and "is not empty" in output and target.read_bytes() == before
    assert not list(target.parent.glob("*.partial"))


def test_copy_between_the_backends_keeps_every_game_byte_identical(tmp_path: Path, postgres: Cluster, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every sample and a group in a SQLite store, copied into PostgreSQL and from there into
    # a new SQLite file: every game exports byte-identical, every receipt verifies on both
    # copies, groups and statistics are there. A second copy into the full PostgreSQL
    # database is refused and changes nothing.
    monkeypatch.setenv("REFEREE_SECRET_KEY_FILE", str(tmp_path / "secret_key"))
    source, back = tmp_path / "club" / "referee.sqlite3", tmp_path / "back" / "referee.sqlite3"
    for path in sorted(EVENTS_DIR.glob("*.jsonl")):
        assert run("import", str(path), "--db", str(source))[0] == 0
    assert run("group", "create", "Freitagsrunde", "--db", str(source))[0] == 0
    database = postgres.new_database()
    assert run("copy", str(source), database) == (0, f"copied 14 games into {database}; every hash chain verified\n")
    assert run("copy", database, str(back))[0] == 0
    games = [line.split()[0] for line in run("games", "--db", str(source))[1].splitlines()[1:] if line.strip()]
    receipts = []
    for game in games:
        exported = run("export", game, "--db", str(source))[1]
        assert run("export", game, "--db", database)[1] == exported == run("export", game, "--db", str(back))[1]
        receipts += ["--head", f"{game}:{run('export', game, '--db', str(source), '--output', str(tmp_path / 'r.jsonl'))[1].split()[3]}"]
    for copy in (database, str(back)):
        assert run("verify", *receipts, "--db", copy)[0] == 0
        assert "Freitagsrunde" in run("group", "list", "--db", copy)[1]
        assert run("stats", "--json", "--db", copy)[1] == run("stats", "--json", "--db", str(source))[1]
        assert run("games", "--db", copy)[1] == run("games", "--db", str(source))[1]  # newest first, as stored
    code, output = run("copy", str(source), database)
    assert code == 1 and "is not empty" in output and len(run("games", "--db", database)[1].splitlines()) == 15
