"""The database password is never printed: not by any command (its success, its refusals,
"cannot reach"), not by the server's start-up lines, not in a log or a traceback, whatever
form the URL gives it (user:pass@, ?password=, a password with / or @, percent-encoded)."""

from __future__ import annotations

import logging
import subprocess
import sys
import time
import traceback
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import EVENTS_DIR
from postgres import Cluster

from referee.cli import main
from referee.database import shown

PIECES = ("Kx7qJ", "Zw9vB")  # the password's two halves: neither may show, not even a piece of it
CLEAN = EVENTS_DIR / "ftw-3-players.jsonl"


def url_forms(base: str) -> dict[str, str]:
    """A database URL (postgresql://referee@host:port/db) with the password in every form."""
    scheme, rest = base.split("://")
    user, at = rest.split("@", 1)
    first, second = PIECES
    return {
        "user:pass@": f"{scheme}://{user}:{first}{second}@{at}",
        "?password=": f"{scheme}://{user}@{at}?sslmode=disable&password={first}{second}",
        "a / typed as it is": f"{scheme}://{user}:{first}/{second}@{at}",
        "an @ typed as it is": f"{scheme}://{user}:{first}@{second}@{at}",
        "a / percent-encoded": f"{scheme}://{user}:{first}%2F{second}@{at}",
        "an @ percent-encoded in the query": f"{scheme}://{user}@{at}?pass%77ord={first}%40{second}",
    }


READABLE = ("user:pass@", "?password=", "a / percent-encoded", "an @ percent-encoded in the query")


def assert_no_password(*texts: str) -> None:
    for text in texts:
        for piece in PIECES:
            assert piece not in text, text


def run(caplog: pytest.LogCaptureFixture, *args: str) -> tuple[int, str]:
    """A command as a shell runs it: its exit code and all it says (stdout and stderr, which
    `output` holds together in every click this project allows, any traceback, the log),
    checked to hold no piece of the password."""
    result = CliRunner().invoke(main, list(args))
    crashed = "" if result.exception is None or isinstance(result.exception, SystemExit) else "".join(traceback.format_exception(*result.exc_info))
    assert_no_password(result.output, crashed, caplog.text)
    assert not crashed, crashed  # a refusal in words, never a traceback
    return result.exit_code, result.output


def commands_with_a_store(group: click.Group = main, prefix: tuple[str, ...] = ()) -> set[tuple[str, ...]]:
    """Every command that opens a store (`--db`, or `copy`'s two stores)."""
    found = set()
    for name, command in group.commands.items():
        if isinstance(command, click.Group):
            found |= commands_with_a_store(command, (*prefix, name))
        elif any(p.name in ("db_path", "source", "target") for p in command.params):
            found.add((*prefix, name))
    return found


def every_command(url: str, group_file: Path, sqlite: str) -> dict[tuple[str, ...], list[str]]:
    """Each command that opens a store, given the store at `url`."""
    db = ["--db", url]
    return {
        ("games",): ["games", *db], ("verify",): ["verify", *db], ("stats",): ["stats", *db], ("demo",): ["demo", *db],
        ("import",): ["import", str(CLEAN), *db], ("export",): ["export", "nope", *db], ("rulings",): ["rulings", *db],
        ("rules",): ["rules", "ftw", "--group", "Club", *db], ("group", "create"): ["group", "create", "Club", *db],
        ("group", "list"): ["group", "list", *db], ("group", "link"): ["group", "link", "Club", *db],
        ("group", "add"): ["group", "add", "Club", "nope", *db], ("group", "export"): ["group", "export", "Club", *db],
        ("group", "import"): ["group", "import", str(group_file), *db], ("group", "rename"): ["group", "rename", "Club", "A", "B", *db],
        ("group", "merge"): ["group", "merge", "Club", "A", "B", *db], ("copy",): ["copy", url, sqlite],
    }


def test_every_command_that_opens_a_store_is_checked(tmp_path: Path) -> None:
    assert set(every_command("postgresql://x@y/z", tmp_path, "")) | {("serve",)} == commands_with_a_store()


@pytest.mark.parametrize("form", list(url_forms("postgresql://referee@127.0.0.1:1/referee")))
def test_shown_never_holds_the_password(form: str) -> None:
    url = url_forms("postgresql://referee@127.0.0.1:1/referee")[form]
    said = shown(url)
    assert_no_password(said)
    assert said.startswith("postgresql://") and ("127.0.0.1:1/referee" in said) == (form in READABLE)
    assert shown("instance/referee.sqlite3") == "instance/referee.sqlite3"


@pytest.mark.parametrize("form", list(url_forms("postgresql://referee@127.0.0.1:1/referee")))
def test_no_command_names_the_password_of_a_database_that_does_not_answer(
        form: str, tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    # Port 1: nothing listens. Every command says in one line that it cannot reach (or read)
    # the URL, with the password left out, and makes no file of it.
    caplog.set_level(logging.DEBUG)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("REFEREE_SECRET_KEY_FILE", str(tmp_path / "secret_key"))
    url = url_forms("postgresql://referee@127.0.0.1:1/referee")[form]
    group_file = tmp_path / "group.json"
    group_file.write_text('{"format": "table-group/1", "name": "Club", "players": [], "games": []}', encoding="utf-8")
    for args in every_command(url, group_file, str(tmp_path / "copy.sqlite3")).values():
        code, output = run(caplog, *args)
        expected = "cannot reach the database at postgresql://referee" if form in READABLE else "cannot read the database URL postgresql://…:"
        assert code == 1 and output.startswith(f"Error: {expected}"), (args, output)
    sqlite = tmp_path / "club.sqlite3"
    assert run(caplog, "group", "create", "Club", "--db", str(sqlite))[0] == 0
    code, output = run(caplog, "copy", str(sqlite), url)  # the URL as the target
    assert code == 1 and "Error: cannot re" in output
    assert not [path for path in tmp_path.rglob("*") if "127" in path.name or "postgres" in path.name]


def test_a_store_at_a_url_with_a_password_is_used_and_the_password_never_shown(
        tmp_path: Path, postgres: Cluster, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    # The test cluster lets anyone in (trust): the password is sent and not needed. A club's
    # store copied into PostgreSQL by each form of the URL: done, refused as not empty, then
    # every command on it, then the store marked as of a newer layout: refused. No piece of
    # the password in anything said.
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("REFEREE_SECRET_KEY_FILE", str(tmp_path / "secret_key"))
    club = str(tmp_path / "club.sqlite3")
    assert run(caplog, "import", str(CLEAN), "--db", club)[0] == 0
    assert run(caplog, "group", "create", "Club", "--db", club)[0] == 0
    group_file = tmp_path / "group.json"
    assert run(caplog, "group", "export", "Club", "-o", str(group_file), "--db", club)[0] == 0
    for form in READABLE:
        url = url_forms(postgres.new_database())[form]
        code, output = run(caplog, "copy", club, url)
        assert code == 0 and output.startswith("copied 1 games into postgresql://referee") and "…" in output, output
        code, output = run(caplog, "copy", club, url)
        assert code == 1 and "is not empty" in output
        for args in every_command(url, group_file, str(tmp_path / f"back-{len(form)}.sqlite3")).values():
            code, output = run(caplog, *args)
            assert code in (0, 1) and "Error: cannot" not in output, (args, output)  # done, or refused for what it asks
        from referee.store import SCHEMA_VERSION

        import psycopg

        with psycopg.connect(url) as connection:
            connection.execute("UPDATE meta SET value = %s WHERE key = 'schema'", [str(SCHEMA_VERSION + 1)])
        for args in (["games", "--db", url], ["copy", url, str(tmp_path / "newer.sqlite3")], ["copy", club, url]):
            code, output = run(caplog, *args)
            assert code == 1 and "written by a newer Table Referee" in output, (args, output)
    for form in set(url_forms("postgresql://x@y/z")) - set(READABLE):  # typed as they are: refused, the URL unread
        code, output = run(caplog, "games", "--db", url_forms(postgres.new_database())[form])
        assert code == 1 and "percent-encoded (%2F %40" in output


def serve(url: str, port: int, folder: Path) -> tuple[int | None, str]:
    """`referee serve` on a store at `url`: its exit code (None: it served) and all it said
    until it served or stopped."""
    log = folder / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-c", "from referee.cli import main; main()", "serve", "--port", str(port), "--db", url],
                                   cwd=folder, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and process.poll() is None and "Open http" not in log.read_text(encoding="utf-8"):
            time.sleep(0.1)
        code = process.poll()
    finally:
        process.terminate()
        process.wait(10)
    return code, log.read_text(encoding="utf-8")


def test_the_servers_start_up_lines_never_name_the_password(tmp_path: Path, postgres: Cluster, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    monkeypatch.setenv("REFEREE_SECRET_KEY_FILE", str(tmp_path / "secret_key"))
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, said = serve(url_forms("postgresql://referee@127.0.0.1:1/referee")["?password="], port, tmp_path)
    assert code == 1 and "cannot reach the database at postgresql://referee@127.0.0.1:1/referee?sslmode=disable&password=…" in said
    assert_no_password(said)
    code, said = serve(url_forms(postgres.new_database())["a / percent-encoded"], port, tmp_path)
    assert code is None and f"Open http://127.0.0.1:{port}/" in said
    assert_no_password(said)


def test_a_url_that_lost_a_slash_is_refused_by_every_command_without_its_password(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    # "postgresql:/…" (one slash, as a shell or Path() leaves it) is no path of a file to make,
    # and no URL to read: every command refuses it as a bad --db, naming no piece of it.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("REFEREE_SECRET_KEY_FILE", str(tmp_path / "secret_key"))
    mangled = url_forms("postgresql://referee@127.0.0.1:1/referee")["user:pass@"].replace("://", ":/")
    group_file = tmp_path / "group.json"
    group_file.write_text("{}", encoding="utf-8")
    for args in every_command(mangled, group_file, str(tmp_path / "copy.sqlite3")).values():
        code, output = run(caplog, *args)
        assert code == 2 and "postgresql:/… is not a URL: a database URL begins postgresql://" in output, (args, output)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["group.json"]
