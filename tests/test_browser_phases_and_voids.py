"""On a phone (360×640, Debian's Chromium, the real server), in English and German: the
courtesan's hand-on comes before the gentlemen's bills, a house rule has its button and its
sentence, and a void names the moves it will flag before the host confirms it."""

from __future__ import annotations

import json

import pytest
from conftest import EVENTS_DIR
from playwright.sync_api import Browser, Page, expect

from test_browser import assert_phone_friendly, browser, phone, phones_put_away, server, shot  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

KP = {"format": "table-record/1", "game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"], "options": {}}
WORDS = {
    "en": {"pass": "Pass", "house": "The starting player may pass", "void": "Void event 4?", "flagged": "Then 2 later moves are flagged:",
           "pay": "Pay", "turn": "Emil's turn"},
    "de": {"pass": "Passen", "house": "Der Spieler, der die Runde beginnt, darf passen", "void": "Ereignis 4 zurückziehen?",
           "flagged": "Dann werden 2 spätere Züge markiert:", "pay": "Bezahlen", "turn": "Emil ist dran"},
}


def imported(browser: Browser, server: str, language: str, lines: list[dict]) -> Page:
    """The host's phone after importing a record: the table it left."""
    page = phone(browser).new_page()
    page.context.add_cookies([{"name": "lang", "value": language, "url": server}])
    page.goto(server + "/import")
    page.fill("#text", "\n".join(json.dumps(line, ensure_ascii=False) for line in lines) + "\n")
    page.locator("form button.primary").click()
    page.goto(page.url.split("/history")[0])
    return page


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_courtesan_hands_on_before_the_bills_a_house_rule_has_its_button_and_a_void_says_what_it_does(
        server: str, browser: Browser, language: str) -> None:
    words = WORDS[language]
    # The evening of the five-player sample, just before Emil, the courtesan, hands on her first card.
    sample = (EVENTS_DIR / "ladies-and-gentlemen-5-players-courtesan-wins.jsonl").read_text(encoding="utf-8").splitlines()
    first_give = next(i for i, line in enumerate(sample) if json.loads(line).get("type") == "give")
    host = imported(browser, server, language, [json.loads(line) for line in sample[:first_give]])
    expect(host.locator(".turnbar .status")).to_have_text(words["turn"])
    expect(host.locator("form:has(input[name=type][value=give])").first).to_be_visible()
    expect(host.locator("form:has(input[name=type][value=bill])")).to_have_count(0)
    assert_phone_friendly(host)
    shot(host, f"lg-courtesan-hands-on-{language}")

    # Karriere Poker under the house rule "the starting player may pass": Pass at Anna's lead.
    host = imported(browser, server, language, [{**KP, "house_rules": {"off": ["kp.lead.pass"]}}, {"seq": 1, "type": "deal", "dealer": 3}])
    expect(host.locator(".house-rules")).to_contain_text(words["house"])
    expect(host.locator(".turnbar").get_by_role("button", name=words["pass"], exact=True)).to_be_visible()
    assert_phone_friendly(host)
    shot(host, f"kp-house-rule-pass-{language}")

    # Cem's 9 out of turn stands by the table's ruling (event 4), Dora raises after him; voiding the ruling flags both again.
    host = imported(browser, server, language, [KP, {"seq": 1, "type": "deal", "dealer": 3}, {"seq": 2, "type": "play", "seat": 0, "cards": [5]},
                                                 {"seq": 3, "type": "play", "seat": 2, "cards": [9]}, {"seq": 4, "type": "ruling", "target": 3, "reason": "we agreed"},
                                                 {"seq": 5, "type": "play", "seat": 3, "cards": [10]}])
    host.locator("form[action$='/void/4'] button").click()
    expect(host.locator("h1")).to_have_text(words["void"])
    expect(host.locator("main")).to_contain_text(words["flagged"])
    expect(host.locator(".void-flags .flag")).to_have_count(2)
    assert_phone_friendly(host)
    shot(host, f"void-preview-{language}")
    host.locator("form[method=post] button.danger").click()
    expect(host.locator("#table .flag[data-rule='kp.turn']")).to_have_count(2)
