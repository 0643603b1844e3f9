"""What a tester's evening on five phones (360×640, Debian's Chromium, the real server) met
on the table page, in English and German: offline, Dora still sees what to beat and her
first control under one slim status line; freeing a seat asks first; after Ben logs his hand
at his turn his controls are in sight; seat changes and rulings show only what is news, and
never above what to beat; the end shows the end, not the last trick; the old phone of a
moved seat is told so on its move-code page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from test_browser import api, browser, new_table, phone, phones_put_away, server, shot, token_of  # noqa: F401 (fixtures)
from test_browser_at_the_table import speak

pytestmark = pytest.mark.browser
KP = ["Anna", "Ben", "Cem", "Dora", "Emil"]
WORDS = {"en": {"free": "Free this seat", "waits": "Ben's seat waits for a new phone.", "earlier": "Earlier: 2 seat changes",
                "moved": "Cem's seat is on the new phone now", "watch": "Watch the table", "take": "Take Cem's seat",
                "move": "Move this seat to another phone", "hand": "Log my hand", "watching": "You are watching"},
         "de": {"free": "Platz freigeben", "waits": "Der Platz von Ben wartet auf ein neues Handy.", "earlier": "Früher: 2 Platzwechsel",
                "moved": "Der Platz von Cem ist jetzt auf dem neuen Handy", "watch": "Dem Tisch zuschauen", "take": "Platz von Cem übernehmen",
                "move": "Diesen Platz auf ein anderes Handy umziehen", "hand": "Meine Hand eintragen",
                "watching": "Du schaust zu"}}

# Whether what to beat (the last [data-beat] above the first control) and the first control
# are wholly in one screen: below the status line that sticks at the top, above the turn bar.
ONE_SCREEN = """() => {
  const table = document.getElementById('table'), actions = table.querySelector('#actions');
  const bar = table.querySelector('.turnbar'), live = document.getElementById('live-bar');
  const top = Math.max(0, live.getBoundingClientRect().bottom), bottom = innerHeight - bar.getBoundingClientRect().height;
  const control = [...table.querySelectorAll('button, select, input:not([type=hidden]), label.pick')].filter(e =>
    e.getClientRects().length && !bar.contains(e) && (actions.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING))[0];
  const beat = [...table.querySelectorAll('[data-beat]')].filter(e => e.getClientRects().length
    && e.getBoundingClientRect().top <= control.getBoundingClientRect().top).pop();
  const seen = e => { const r = e.getBoundingClientRect(); return r.top >= top - 1 && r.bottom <= bottom + 1; };
  return [seen(control), !beat || seen(beat), Math.round(top), scrollY, Math.round(control.getBoundingClientRect().top), control.outerHTML.slice(0, 80), Math.round(bottom)];
}"""


def game_of(page: Page) -> str:
    return page.url.split("/g/")[1].split("/")[0].split("?")[0]


def to_act(server: str, game_id: str, host: Page) -> list[str]:
    return list(api(server, f"/api/games/{game_id}", token_of(host))["view"]["to_act"])


def cem_leads_a_2(server: str, host: Page, game_id: str) -> None:
    """The deal (Ben deals, so Cem leads) and Cem's lead of one 2: Dora is to beat it."""
    api(server, f"/api/games/{game_id}/events", token_of(host), {"type": "deal", "dealer": 1})
    assert to_act(server, game_id, host) == ["Cem"]
    api(server, f"/api/games/{game_id}/events", token_of(host), {"type": "play", "seat": 2, "cards": [2]})
    assert to_act(server, game_id, host) == ["Dora"]


@pytest.mark.parametrize("language", ["en", "de"])
def test_offline_dora_still_sees_the_2_to_beat_and_her_first_card_below_one_slim_line(server: str, browser: Browser, language: str) -> None:
    host, phones = new_table(browser, server, "karriere-poker", KP, ("Dora",))
    dora = phones["Dora"]
    speak(dora, language, server)
    cem_leads_a_2(server, host, game_of(dora))
    dora.goto(dora.url)
    dora.wait_for_timeout(300)
    assert dora.evaluate(ONE_SCREEN)[:2] == [True, True], dora.evaluate(ONE_SCREEN)
    dora.wait_for_timeout(1500)  # the service worker keeps this table for Dora
    dora.context.set_offline(True)
    dora.reload()
    expect(dora.locator("#live-status")).to_be_visible(timeout=5000)
    dora.wait_for_timeout(300)
    control, beat, top = dora.evaluate(ONE_SCREEN)[:3]
    shot(dora, f"walk-offline-dora-{language}")
    assert control and beat, (control, beat, top)
    assert top <= 40, top  # one slim line, however long the sentence is in German
    dora.context.set_offline(False)


@pytest.mark.parametrize("language", ["en", "de"])
def test_freeing_bens_seat_asks_first_and_stands_apart_from_the_routine_taps(server: str, browser: Browser, language: str) -> None:
    host, phones = new_table(browser, server, "karriere-poker", KP, ("Ben",))
    speak(host, language, server)
    speak(phones["Ben"], language, server)
    host.goto(f"{server}/g/{game_of(phones['Ben'])}/host")
    free = host.locator("#seats li", has_text="Ben").get_by_role("button", name=WORDS[language]["free"])
    asked: list[str] = []

    def dismiss(dialog):  # type: ignore[no-untyped-def]
        asked.append(dialog.message)
        dialog.dismiss()

    host.once("dialog", dismiss)
    free.click()
    assert asked and "Ben" in asked[0]
    phones["Ben"].reload()
    expect(phones["Ben"].locator("#table")).not_to_contain_text(WORDS[language]["watching"])  # one tap did nothing
    assert "danger" in (free.get_attribute("class") or "")
    host.once("dialog", lambda dialog: dialog.accept())
    free.click()
    expect(host.locator(".flash.info")).to_be_visible()
    shot(host, f"walk-host-freed-{language}")
    phones["Ben"].reload()
    expect(phones["Ben"].locator("#table")).to_contain_text(WORDS[language]["watching"])


@pytest.mark.parametrize("language", ["en", "de"])
def test_after_ben_logs_his_hand_at_his_lead_his_cards_are_in_sight(server: str, browser: Browser, language: str) -> None:
    host, phones = new_table(browser, server, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"], ("Ben",))
    ben = phones["Ben"]
    speak(ben, language, server)
    game_id = game_of(ben)
    api(server, f"/api/games/{game_id}/events", token_of(host), {"type": "deal", "dealer": 0})
    assert to_act(server, game_id, host) == ["Ben"]
    ben.reload()
    ben.get_by_text(WORDS[language]["hand"]).click()
    ben.locator("#hand-cards").fill("1 2 3 4 5 6 7 8 9 10 11 12 J")
    ben.locator("form:has(#hand-cards) button.primary").click()
    expect(ben.locator("#table[data-seq='2']")).to_be_attached()
    ben.wait_for_timeout(300)
    # Measured before any screenshot: a full-page shot scrolls the page. The phone's screen as
    # Ben sees it is the viewport's.
    assert ben.evaluate(ONE_SCREEN)[:2] == [True, True], ben.evaluate(ONE_SCREEN)
    ben.screenshot(path=f"test-artifacts/walk-ben-after-hand-{language}.png")


@pytest.mark.parametrize("language", ["en", "de"])
def test_three_hand_overs_of_bens_seat_show_as_the_latest_with_the_earlier_folded(server: str, browser: Browser, language: str) -> None:
    host, phones = new_table(browser, server, "karriere-poker", KP, ("Ben", "Dora"))
    dora = phones["Dora"]
    speak(dora, language, server)
    game_id = game_of(dora)
    code = None
    for _ in range(3):  # Ben's seat freed three times; twice a new phone takes it
        host.goto(f"{server}/g/{game_id}/host")
        code = host.locator(".code").inner_text().strip()
        host.once("dialog", lambda dialog: dialog.accept())
        host.locator("#seats li", has_text="Ben").get_by_role("button").click()
        if _ < 2:
            ben = phone(browser).new_page()
            ben.goto(f"{server}/j/{code}")
            ben.get_by_role("button", name="Ben").click()
    cem_leads_a_2(server, host, game_id)
    expect(dora.locator("#table .turnbar.mine")).to_be_visible(timeout=5000)  # her turn comes live, as at the table
    dora.wait_for_timeout(300)
    notes = dora.locator("#table .seat-change")
    expect(notes).to_have_count(1)
    expect(notes).to_have_text(WORDS[language]["waits"])
    expect(dora.locator("#table details.earlier summary")).to_have_text(WORDS[language]["earlier"])
    # Dora's turn: the notices come after what she must beat and her cards.
    assert dora.evaluate("document.querySelector('#table [data-beat]').compareDocumentPosition(document.querySelector('#table .seat-change')) & Node.DOCUMENT_POSITION_FOLLOWING")
    assert dora.evaluate(ONE_SCREEN)[:2] == [True, True]
    shot(dora, f"walk-notices-dora-{language}")


@pytest.mark.parametrize("language", ["en", "de"])
def test_after_the_end_the_table_shows_the_end_not_the_last_trick(server: str, browser: Browser, language: str) -> None:
    host, phones = new_table(browser, server, "karriere-poker", KP, ("Dora",))
    dora = phones["Dora"]
    speak(dora, language, server)
    game_id = game_of(dora)
    cem_leads_a_2(server, host, game_id)
    api(server, f"/api/games/{game_id}/events", token_of(host), {"type": "end", "reason": "out of time"})
    dora.reload()
    expect(dora.locator("#table [data-end]")).to_be_visible()
    expect(dora.locator("#table [data-beat]")).to_have_count(0)
    assert "▶" not in dora.locator("#table .panel").inner_text()
    for words in (("On the table", "Still to act"), ("Auf dem Tisch", "Noch am Zug")):
        for word in words:
            expect(dora.locator("#table")).not_to_contain_text(word)
    shot(dora, f"walk-ended-dora-{language}")


@pytest.mark.parametrize("language", ["en", "de"])
def test_cems_old_phone_is_told_on_its_move_code_page_when_the_new_one_took_the_seat(server: str, browser: Browser, language: str) -> None:
    host, phones = new_table(browser, server, "karriere-poker", KP, ("Cem",))
    cem = phones["Cem"]
    speak(cem, language, server)
    words = WORDS[language]
    cem.get_by_role("button", name=words["move"]).click()
    link = cem.locator("main a[href*='/take/']").get_attribute("href") or ""
    cem.wait_for_timeout(2500)  # a poll or so: nothing is said while the old phone holds the seat
    expect(cem.get_by_text(words["moved"])).to_have_count(0)
    new = phone(browser).new_page()
    new.goto(link)
    new.get_by_role("button", name=words["take"]).click() if language == "en" else new.locator("main form button").first.click()
    expect(new.locator("#table")).to_contain_text("Cem")
    expect(cem.get_by_role("status")).to_contain_text(words["moved"], timeout=6000)
    shot(cem, f"walk-old-cem-{language}")
    cem.get_by_role("link", name=words["watch"]).click()
    expect(cem.locator("#table")).to_contain_text(words["watching"])
