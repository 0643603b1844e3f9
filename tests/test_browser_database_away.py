"""The phone while the database is away (360×640, Debian's Chromium, `referee serve` on a
throwaway PostgreSQL that is stopped and started under it), in English and German: a move
tapped meanwhile waits in the phone's outbox and the page says why, with no error dialog;
once the database is back the phone asks again when the server said (Retry-After), not
after its own growing pause, so the move is stored, once, within 5 s, and the page shows it
and is live again without a reload."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator

import psycopg
import pytest
from playwright.sync_api import Browser, Dialog, Page, expect

from postgres import Cluster
from test_browser import browser, new_table, phones_put_away, shot  # noqa: F401 (fixtures)
from test_browser_at_the_table import speak
from test_live import serve

pytestmark = pytest.mark.browser
WORDS = {"en": {"away": "The database is not answering; your move waits on this phone and is sent again",
                "waiting": "Waiting to send: 1", "reconnecting": "Reconnecting…"},
         "de": {"away": "Die Datenbank antwortet nicht; dein Zug wartet auf diesem Handy und wird noch einmal gesendet",
                "waiting": "Wartet auf Versand: 1", "reconnecting": "Verbindung wird wiederhergestellt…"}}


@pytest.fixture(scope="module")
def night() -> Iterator[tuple[Cluster, str, str]]:
    """A PostgreSQL cluster of this module's own, and a server on it: (cluster, database, address)."""
    cluster = Cluster()
    database = cluster.new_database()
    server, base = serve(database)
    try:
        deadline = time.monotonic() + 30  # a loaded machine may take a while to start it
        while not answers(base):
            assert time.monotonic() < deadline and server.poll() is None, "the server did not start"
            time.sleep(0.2)
        yield cluster, database, base
    finally:
        server.kill()
        server.wait()
        cluster.stop()


def answers(base: str) -> bool:
    """Whether the server serves its home page."""
    try:
        with urllib.request.urlopen(base, timeout=5) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def stored(database: str, game_id: str) -> list[dict[str, object]]:
    """The game's events as the store holds them, read from the database itself."""
    with psycopg.connect(database) as connection:
        return [json.loads(body) for (body,) in connection.execute("SELECT body FROM events WHERE game = %s ORDER BY seq", [game_id])]


def outbox(page: Page, game_id: str) -> list[dict[str, object]]:
    """The moves waiting on the phone, as it keeps them."""
    return list(json.loads(page.evaluate(f"localStorage.getItem('table-referee:outbox:{game_id}')") or "[]"))


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_move_tapped_while_the_database_is_away_waits_on_the_phone_and_is_stored_within_5_s_of_its_return(
        night: tuple[Cluster, str, str], browser: Browser, language: str) -> None:
    cluster, database, base = night
    words = WORDS[language]
    host, phones = new_table(browser, base, "ftw", ["Anna", "Ben", "Cem"], ("Anna",))
    anna = phones["Anna"]
    speak(anna, language, base)
    game_id = anna.url.split("/g/")[1].split("/")[0].split("?")[0]
    host.goto(f"{base}/g/{game_id}")  # the host follows the table, tapping nothing
    speak(host, language, base)
    dialogs: list[str] = []

    def said(dialog: Dialog) -> None:  # an error dialog would be a bug: noted, and put away
        dialogs.append(dialog.message)
        dialog.dismiss()

    anna.on("dialog", said)
    anna.evaluate("window.notReloaded = true")

    # The database goes away mid-evening: the live updates fail, and the phones say they are not live.
    cluster.halt()
    for page in (anna, host):
        expect(page.locator("#live-status")).to_contain_text(words["reconnecting"], timeout=5000)
    anna.locator("#high-card").fill("30")
    anna.locator("#high-card").press("Enter")
    waiting = anna.locator("#outbox-status")
    expect(waiting).to_contain_text(words["away"], timeout=5000)
    expect(waiting).to_contain_text(words["waiting"])
    expect(anna.locator("#high-card")).to_be_visible()  # the table stays as it was, no error page
    assert [move["path"] for move in outbox(anna, game_id)] == [f"/g/{game_id}/log"]  # kept on the phone, through a reload too
    shot(anna, f"database-away-move-waits-{language}")
    anna.wait_for_timeout(3000)  # away a while: a phone's own pause would have grown past the server's 2 s
    expect(waiting).to_contain_text(words["away"])

    # Back: within 5 s the move is in the store, once, and on both phones, live again.
    cluster.start()
    back = time.monotonic()
    while not (highs := [e for e in stored(database, game_id) if e["type"] == "high"]):
        assert time.monotonic() - back < 5, "the kept move was not stored within 5 s of the database's return"
        time.sleep(0.1)
    assert [(e["seat"], e["card"]) for e in highs] == [(0, 30)]
    for page in (anna, host):
        expect(page.locator("#table")).to_have_attribute("data-seq", str(highs[0]["seq"]), timeout=5000)
        expect(page.locator("#live-status")).to_be_hidden()
    assert time.monotonic() - back < 5
    expect(waiting).to_be_hidden()
    assert outbox(anna, game_id) == []
    assert anna.evaluate("window.notReloaded") and dialogs == []
    shot(anna, f"database-back-move-stored-{language}")
