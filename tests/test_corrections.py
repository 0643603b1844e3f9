"""Corrections that clean the record (issue: the corrections contract) and the newcomer's stumbles."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import EVENTS_DIR, events, table
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import cli, store
from referee.cli import main
from referee.record import write_record

KP = table("karriere-poker", "Anna Ben Cem Dora")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def corrected_record(tmp_path: Path) -> Path:
    """Ben raises with two 9s on three 7s (flagged), the table voids it, Ben plays three 9s."""
    body = events(
        KP,
        {"type": "deal", "dealer": 3},
        {"type": "play", "seat": 0, "cards": [7, 7, 7]},
        {"type": "play", "seat": 1, "cards": [9, 9]},
        {"type": "void", "target": 3, "reason": "Ben meant three 9s"},
        {"type": "play", "seat": 1, "cards": [9, 9, 9]},
    )
    path = tmp_path / "corrected.jsonl"
    path.write_text(write_record(KP, body), encoding="utf-8")
    return path


def test_a_corrected_record_exits_0_and_lists_its_withdrawn_flag(tmp_path: Path) -> None:
    code, output = run("replay", str(corrected_record(tmp_path)), "--json")
    shown = json.loads(output)
    assert code == 0
    assert shown["violations"] == [] and shown["voided"] == [3]
    assert shown["withdrawn"] == [
        {"seq": 3, "rule": "kp.raise.count", "message": "Ben played two 9s, but the lead was three cards.", "voided_by": 4}
    ]


def test_the_readable_report_shows_the_correction(tmp_path: Path) -> None:
    code, output = run("replay", str(corrected_record(tmp_path)))
    assert code == 0 and "No violations." in output
    assert "seq 3: voided by seq 4 (Ben played two 9s, but the lead was three cards. [kp.raise.count])" in output


def test_a_standing_flag_still_exits_1(tmp_path: Path) -> None:
    path = corrected_record(tmp_path)
    path.write_text(path.read_text(encoding="utf-8") + '{"seq": 6, "type": "pass", "seat": 1}\n', encoding="utf-8")
    code, output = run("replay", str(path), "--json")
    assert code == 1 and [v["seq"] for v in json.loads(output)["violations"]] == [6]


def test_replay_of_a_missing_or_unreadable_file_exits_2(tmp_path: Path) -> None:
    code, output = run("replay", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in output and "missing.jsonl" in output
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'\xff\xfe not utf-8')
    assert run("replay", str(latin))[0] == 2


def test_note_and_void_are_accepted_after_the_end_other_events_are_core_game_over(tmp_path: Path) -> None:
    body = events(KP, {"type": "deal", "dealer": 3}, {"type": "end", "reason": "late"},
                  {"type": "note", "text": "Anna had to leave"}, {"type": "pass", "seat": 0})
    path = tmp_path / "ended.jsonl"
    path.write_text(write_record(KP, body), encoding="utf-8")
    shown = json.loads(run("replay", str(path), "--json")[1])
    assert [(v["seq"], v["rule"]) for v in shown["violations"]] == [(4, "core.game.over")]
    with path.open("a", encoding="utf-8") as more:
        more.write('{"seq": 5, "type": "void", "target": 2, "reason": "ended by mistake"}\n')
    code, output = run("replay", str(path), "--json")
    shown = json.loads(output)
    # With the end withdrawn, Anna's pass is judged again: the leader may not pass.
    assert shown["finished"] is False and [(v["seq"], v["rule"]) for v in shown["violations"]] == [(4, "kp.lead.pass")]


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=9, max_size=9))
def test_game_ids_never_start_with_a_dash(monkeypatch_bytes: bytes) -> None:
    # Feed token_urlsafe every possible first byte: ids that would start with "-" are drawn again.
    import base64

    draws = iter([base64.urlsafe_b64encode(monkeypatch_bytes).decode(), "Abcdefghijkl"])
    original = store.secrets.token_urlsafe
    store.secrets.token_urlsafe = lambda n=None: next(draws)
    try:
        game_id = store.new_game_id()
    finally:
        store.secrets.token_urlsafe = original
    assert not game_id.startswith("-") and len(game_id) == 12


def test_real_game_ids_are_url_safe_and_work_on_the_command_line(tmp_path: Path) -> None:
    ids = [store.new_game_id() for _ in range(5000)]
    assert len(set(ids)) == 5000
    assert all(not i.startswith("-") and set(i) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") for i in ids)
    db = str(tmp_path / "t.sqlite3")
    game_id = run("import", str(EVENTS_DIR / "ftw-3-players.jsonl"), "--db", db)[1].strip()
    assert run("export", game_id, "--db", db)[0] == 0


class FakeProbe:
    """A UDP socket whose "connect" picks the address of the default route."""

    def __init__(self, *args: Any) -> None: ...
    def __enter__(self) -> FakeProbe: return self
    def __exit__(self, *args: Any) -> None: ...
    def connect(self, address: Any) -> None: ...
    def getsockname(self) -> tuple[str, int]: return ("192.168.1.23", 40000)


def test_lan_address_when_the_hostname_resolves_to_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: [(socket.AF_INET, 0, 0, "", ("127.0.1.1", 0))])
    monkeypatch.setattr(socket, "socket", FakeProbe)
    assert cli.lan_addresses() == ["192.168.1.23"]


def test_every_non_loopback_address_is_listed_default_route_first(monkeypatch: pytest.MonkeyPatch) -> None:
    resolved = [(socket.AF_INET, 0, 0, "", (a, 0)) for a in ("10.0.0.5", "192.168.1.23", "127.0.0.1")]
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: resolved)
    monkeypatch.setattr(socket, "socket", FakeProbe)
    assert cli.lan_addresses() == ["192.168.1.23", "10.0.0.5"]


def test_serve_on_all_interfaces_prints_the_lan_address_or_warns(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from gevent import monkey

    from referee.web import server

    class Listening:  # bound, as server.listen leaves it; serve_forever() would serve forever
        def serve_forever(self) -> None:
            pass

    monkeypatch.setattr(monkey, "patch_all", lambda: None)  # not in the test process
    monkeypatch.setattr(server, "listen", lambda *a, **k: Listening())
    monkeypatch.setattr(cli, "lan_addresses", lambda: ["192.168.1.23"])
    code, output = run("serve", "--host", "0.0.0.0", "--port", "8123", "--db", str(tmp_path / "s.sqlite3"))
    assert code == 0 and "http://192.168.1.23:8123/" in output and "127.0.0.1" not in output
    monkeypatch.setattr(cli, "lan_addresses", lambda: [])
    output = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--db", str(tmp_path / "s.sqlite3")]).output
    assert "Warning: this machine has no address on a network" in output


def test_a_busy_port_is_one_line_naming_it_and_nothing_says_open(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from gevent import monkey

    monkeypatch.setattr(monkey, "patch_all", lambda: None)  # not in the test process
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port), "--db", str(tmp_path / "s.sqlite3")])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == [f"Error: cannot listen on 127.0.0.1:{port} (Address already in use): "
                                                  f"the port is taken; try another, e.g. referee serve --port {port + 1}"]


def test_help_names_the_db_option() -> None:
    code, output = run("--help")
    assert code == 0 and "--db" in output


def test_demo_twice_stores_each_sample_once(tmp_path: Path) -> None:
    db = str(tmp_path / "demo.sqlite3")
    first = run("demo", "--db", db)[1]
    second = run("demo", "--db", db)[1]
    samples = len(list(EVENTS_DIR.glob("*.jsonl")))
    assert first.count("\n") == samples and "stored already" not in first
    assert second.count("stored already") == samples
    assert len(run("games", "--db", db)[1].splitlines()) == 1 + samples  # a header, then one line a game


def test_history_strikes_through_a_withdrawn_flag_with_the_voids_reason(client: FlaskClient) -> None:
    text = corrected_record(Path(client.application.instance_path)).read_text(encoding="utf-8")
    game_id = client.post("/api/games/import", data=text.encode(), content_type="application/jsonl").json["id"]
    page = client.get(f"/g/{game_id}/history").get_data(as_text=True)
    assert 'class="flag withdrawn"' in page and "<s><strong>⚑</strong> Ben played two 9s" in page
    assert "voided by event 4" in page and "Ben meant three 9s" in page
    table_page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "data-rule=" not in table_page  # the table counts only standing flags
