"""A host who plays, on phones (360×640, Debian's Chromium, the real server), in English
and German: the New game form asks which seat is the host's, every phone is told, and the
host's phone is told nothing of Anna's logged hand, while keeping the host's buttons."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from test_browser import browser, phone, phones_put_away, server, shot  # noqa: F401 (fixtures)
from test_browser_at_the_table import assert_accessible

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"start": "Start the game", "seat": "I play: Ben", "plays": "This phone plays Ben",
           "you": "You are the host and play Ben", "join": "Join", "told": "the host plays Ben", "host's phone": "played on the host's phone",
           "log hand": "Log my hand (optional, private)", "save": "Save", "private": "(private)", "history": "History", "end": "End the game now"},
    "de": {"start": "Spiel starten", "seat": "Ich spiele: Ben", "plays": "Dieses Handy spielt Ben",
           "you": None, "join": None, "told": "der Gastgeber spielt Ben", "host's phone": "wird auf dem Handy des Gastgebers gespielt",
           "log hand": None, "save": None, "private": None, "history": None, "end": None},
}
ANNA = "3 6 8 10 13 14 15 17 19 21 28 29"


@pytest.mark.parametrize("language", ["en", "de"])
def test_ben_hosts_and_plays_and_his_phone_is_told_only_bens_share(server: str, browser: Browser, language: str) -> None:
    host = phone(browser).new_page()
    host.context.add_cookies([{"name": "lang", "value": language, "url": server}])
    host.goto(f"{server}/new?game=ftw")
    host.fill("#seats", "Anna\nBen\nCem")
    expect(host.locator("input[name=plays]:checked")).to_have_count(0)  # no choice made for the host
    host.get_by_label(WORDS[language]["seat"]).check()
    expect(host.locator("input[name=plays]:checked")).to_have_value("Ben")
    assert_accessible(host)
    shot(host, f"host-player-new-game-{language}")
    host.locator("form button.primary").last.click()
    expect(host.locator("main")).to_contain_text(WORDS[language]["plays"])
    code = host.locator(".code").inner_text().strip()
    assert_accessible(host)
    shot(host, f"host-player-host-page-{language}")

    anna = phone(browser).new_page()
    anna.context.add_cookies([{"name": "lang", "value": language, "url": server}])
    anna.goto(f"{server}/j/{code}")
    expect(anna.locator("main")).to_contain_text(WORDS[language]["host's phone"])
    expect(anna.get_by_role("button", name="Ben", exact=True)).to_be_disabled()
    assert_accessible(anna)
    shot(anna, f"host-player-seats-{language}")
    anna.get_by_role("button", name="Anna", exact=True).click()
    expect(anna.locator("#table")).to_contain_text(WORDS[language]["told"])
    if language == "en":  # Anna logs her hand on her phone
        anna.get_by_text(WORDS["en"]["log hand"]).click()
        anna.locator("input[name=cards]").last.fill(ANNA)
        anna.get_by_role("button", name=WORDS["en"]["save"]).click()
        expect(anna.locator("#table")).to_have_attribute("data-seq", "1")

    host.goto(host.url.rsplit("/host", 1)[0])
    if language == "en":
        expect(host.locator("#table")).to_contain_text(WORDS["en"]["you"])
        expect(host.locator("#table")).to_contain_text(WORDS["en"]["end"])  # still the host
    table_text = host.locator("#table").inner_text()
    assert WORDS[language]["told"] not in table_text  # that line is for the others
    shot(host, f"host-player-table-{language}")
    host.goto(host.url + "/history")
    history = host.locator("main").inner_text()
    if language == "en":
        assert WORDS["en"]["private"] in history and "28 29" not in history
    assert_accessible(host)
    shot(host, f"host-player-history-{language}")
