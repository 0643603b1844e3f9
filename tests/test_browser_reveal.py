"""The end of a Karriere Poker match on phones (360×640, Debian's Chromium, the real
server), in English and German: the last play names the match winner on Ben's phone at
once, before the host reveals the hands; the host's "Confirm the end and reveal" asks
once (dismissed, nothing happens), and once confirmed the reveal reaches Ben's phone
within a second, without a reload."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import EVENTS_DIR
from playwright.sync_api import Browser, Dialog, Page, expect

from referee.record import read_record
from test_browser import api, assert_phone_friendly, browser, phone, phones_put_away, server, shot  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"winner": "Game over: 3 games played; Cem is Boss and wins", "reveal": "Confirm the end and reveal",
           "asks": "Reveal every seat's cards and money to everyone, for good?", "record": "Download record"},
    "de": {"winner": "Spiel vorbei: Cem gewinnt. (3 Spiele gespielt; Cem ist Boss und gewinnt)", "reveal": None,
           "asks": "Karten und Geld aller Plätze für alle aufdecken, endgültig?", "record": None},
}


def post(server: str, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(f"{server}{path}", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def at_the_table(browser: Browser, server: str, game_id: str, token: str, language: str) -> Page:
    """A phone holding `token` for the game, in `language`, at its table."""
    page = phone(browser).new_page()
    host_name = urlsplit(server).hostname
    page.context.add_cookies([{"name": "lang", "value": language, "url": server},
                              {"name": "referee_token", "value": token, "domain": host_name, "path": f"/g/{game_id}"}])
    page.goto(f"{server}/g/{game_id}")
    expect(page.locator("#table")).to_be_visible()
    return page


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_match_winner_shows_at_once_and_the_reveal_asks_once_and_reaches_ben_within_a_second(
        server: str, browser: Browser, language: str) -> None:
    record = read_record((EVENTS_DIR / "karriere-poker-4-players.jsonl").read_text(encoding="utf-8"))
    created = post(server, "/api/games", {"game": "karriere-poker", "seats": list(record.header.seats), "options": record.header.options})
    game_id, host_token = created["id"], created["host_token"]
    ben_token = post(server, f"/api/games/{game_id}/seats/1", {"code": created["join_code"]})["token"]
    *before_the_end, last = [{k: v for k, v in e.items() if k != "seq"} for e in record.events]
    for body in before_the_end:
        api(server, f"/api/games/{game_id}/events", host_token, body)
    host = at_the_table(browser, server, game_id, host_token, language)
    ben = at_the_table(browser, server, game_id, ben_token, language)
    ben.wait_for_timeout(300)  # Ben's phone waits for news

    # Cem's last play ends game 3, and the match: Ben's phone names the winner at once, no hand.
    api(server, f"/api/games/{game_id}/events", host_token, last)
    expect(ben.locator("#table .turn").first).to_contain_text(WORDS[language]["winner"], timeout=2000)
    assert "awaiting=reveal" in (ben.locator("#table").get_attribute("hx-get") or "")
    expect(ben.locator("#table a[href$='/record']")).to_have_count(0)  # the hands are still secret
    assert_phone_friendly(ben)
    shot(ben, f"reveal-winner-before-the-reveal-{language}")

    # The host taps "Confirm the end and reveal": it asks once. Dismissed, nothing happens.
    host.reload()
    button = host.locator("form[action$='/reveal'] button")
    if WORDS[language]["reveal"]:
        expect(button).to_have_text(WORDS[language]["reveal"])
    assert_phone_friendly(host)
    shot(host, f"reveal-host-confirms-{language}")
    asked: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    host.once("dialog", dismiss)
    button.click()
    host.wait_for_timeout(500)
    assert len(asked) == 1 and asked[0].startswith(WORDS[language]["asks"])
    expect(button).to_be_visible()  # not revealed
    assert "awaiting=reveal" in (ben.locator("#table").get_attribute("hx-get") or "")

    # Confirmed: Ben's phone is shown the reveal within a second, without a reload.
    def accept(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    host.once("dialog", accept)
    tapped = time.monotonic()
    button.click()
    expect(ben.locator("#table a[href$='/record']")).to_have_count(1, timeout=3000)
    arrived = time.monotonic() - tapped
    assert len(asked) == 2 and arrived < 1.0, arrived
    assert "awaiting=reveal" not in (ben.locator("#table").get_attribute("hx-get") or "")
    expect(ben.locator("#table .turn").first).to_contain_text(WORDS[language]["winner"])
    expect(host.locator("form[action$='/reveal']")).to_have_count(0)
    shot(ben, f"reveal-arrived-{language}")
