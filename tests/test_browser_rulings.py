"""The table decides, on phones (360×640, Debian's Chromium, the real server), in English
and German: the host lets Ben's flagged move stand in one tap, Ben's phone shows it as
standing with the reason, the Scores page asks what the official rules would say, and a
group switches a rule off for its next games."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from test_browser import browser, new_table, phone, phones_put_away, server, shot  # noqa: F401 (fixtures)
from test_browser_at_the_table import assert_accessible, speak

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"stand": "Let it stand:", "chip": "house rule", "stands": "stands by the table's ruling", "official": "What would the official rules say?",
           "judged": "Judged by the official rules", "group": "Create", "house rules": "House rules", "save": "Save the house rules",
           "not played": "House rules: A high card need not be higher than the top card"},
    "de": {"stand": "Gelten lassen:", "chip": "Hausregel", "stands": "gilt durch Schiedsspruch des Tisches", "official": "Was sagen die offiziellen Regeln?",
           "judged": "Nach den offiziellen Regeln beurteilt", "group": None, "house rules": "Hausregeln", "save": "Hausregeln speichern",
           "not played": "Hausregeln: Hoch muss nicht höher als die oberste Karte sein"},
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_host_lets_bens_move_stand_and_every_phone_shows_it(server: str, browser: Browser, language: str) -> None:
    words = WORDS[language]
    host, phones = new_table(browser, server, "ftw", ["Anna", "Ben", "Cem"], ("Ben",))
    ben = phones["Ben"]
    for page in (host, ben):
        speak(page, language, server)
    host.goto(host.url.rsplit("/host", 1)[0])
    table = host.url
    for seat, card in (("0", "5"), ("1", "3")):  # Anna lays 5; the host logs a 3 for Ben, which does not beat it
        host.evaluate("""([seat, card]) => { const f = document.querySelector('form[action$="/log"]');
            const d = new FormData(f); d.set('type', 'high'); d.set('seat', seat); d.set('card', card);
            return fetch(f.action, {method: 'POST', body: d}); }""", [seat, card])
    host.goto(table)
    expect(host.locator(".flag[data-rule='ftw.high.not-higher']")).to_be_visible()
    expect(host.get_by_text(words["stand"])).to_be_visible()
    assert_accessible(host)
    shot(host, f"ruling-offered-{language}")
    host.get_by_role("button", name=words["chip"], exact=True).click()
    expect(host.locator(".flag.ruled")).to_contain_text(words["stands"])
    expect(ben.locator(".flag.ruled")).to_contain_text(words["stands"], timeout=8000)  # live, on Ben's phone
    expect(ben.locator(".flag.ruled")).to_contain_text(words["chip"])
    shot(ben, f"ruling-on-bens-phone-{language}")
    host.goto(table + "/result")
    host.get_by_role("link", name=words["official"]).click()
    expect(host.locator("main")).to_contain_text(words["judged"])
    assert_accessible(host)
    shot(host, f"ruling-official-scores-{language}")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_group_switches_a_rule_off_for_its_next_games(server: str, browser: Browser, language: str) -> None:
    words = WORDS[language]
    page = phone(browser).new_page()
    page.context.add_cookies([{"name": "lang", "value": language, "url": server}])
    page.goto(server)
    page.fill("input[name=name]", f"Rulers {language}")
    page.locator("form[action='/groups'] button").click()
    expect(page.locator("#house-rules")).to_have_text(words["house rules"])
    page.locator("#house-rules ~ details summary", has_text="FTW?!").click()
    page.locator("input[name=off][value='ftw.high.not-higher']").check()
    page.locator("input[name=off][value='ftw.high.not-higher'] >> xpath=ancestor::form//button").click()
    expect(page.locator("input[name=off][value='ftw.high.not-higher']")).to_be_checked()
    assert_accessible(page)
    shot(page, f"group-house-rules-{language}")
    page.locator("a[href*='/new?game=ftw']").first.click()
    page.fill("#seats", "Anna\nBen\nCem")
    page.check("input[name=plays][value='']")  # nobody plays on this phone
    page.locator("form button.primary").last.click()
    page.goto(page.url.rsplit("/host", 1)[0])
    expect(page.locator("#table .house-rules")).to_contain_text(words["not played"])
    shot(page, f"house-rules-at-the-table-{language}")
