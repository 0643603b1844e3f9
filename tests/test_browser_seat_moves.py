"""A seat changes phones, on phones (360×640, Debian's Chromium, the real server), in
English and German: Anna moves her seat to her new phone with the code and QR her old one
shows; the host frees Ben's seat and every phone is told; the host who has kept score past
Anna's hand is refused "I play this seat" in words."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from test_browser import api, assert_phone_friendly, browser, phone, phone_in, phones_put_away, server, shot, token_of  # noqa: F401 (fixtures)
from test_browser_at_the_table import assert_accessible

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"start": "Start the game", "move": "Move this seat to another phone", "take": "Take Anna's seat", "you": "You are",
           "watching": "You are watching", "free": "Free this seat", "waits": "Ben's seat waits for a new phone.", "freed": "Before the first event the host handed Ben's seat to a new phone.",
           "play": "I play this seat", "refused": "so the host can no longer play a seat", "join": "Join code", "join button": "Join"},
    "de": {"start": "Spiel starten", "move": "Diesen Platz auf ein anderes Handy umziehen", "take": "Platz von Anna übernehmen", "you": "Du bist",
           "watching": "Du schaust zu", "free": "Platz freigeben", "waits": "Der Platz von Ben wartet auf ein neues Handy.",
           "freed": "Vor dem ersten Ereignis hat der Gastgeber den Platz von Ben einem neuen Handy gegeben.",
           "play": "Diesen Platz spiele ich", "refused": "darum kann der Gastgeber keinen Platz mehr spielen", "join": "Beitrittscode", "join button": "Beitreten"},
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_anna_moves_her_seat_the_host_frees_bens_and_cannot_start_to_play(server: str, browser: Browser, language: str) -> None:
    words = WORDS[language]
    host = phone_in(browser, server, language)
    host.goto(f"{server}/new?game=ftw")
    host.fill("#seats", "Anna\nBen\nCem")
    host.check("input[name=plays][value='']")  # nobody plays on this phone
    host.get_by_role("button", name=words["start"]).click()
    code = host.locator(".code").inner_text().strip()
    game = host.url.split("/g/")[1].split("/")[0]
    anna, ben = phone_in(browser, server, language), phone_in(browser, server, language)
    for page, name in ((anna, "Anna"), (ben, "Ben")):
        page.goto(f"{server}/j/{code}")
        if name == "Ben":
            expect(page.get_by_role("button", name="Anna", exact=True)).to_be_disabled()
            assert_accessible(page)
            assert_phone_friendly(page)
            shot(page, f"seat-moves-seats-{language}")
        page.get_by_role("button", name=name, exact=True).click()
        expect(page.locator("#table")).to_contain_text(f"{words['you']} {name}")

    # The host frees Ben's seat (his phone is lost): every phone is told.
    host.goto(f"{server}/g/{game}/host")
    host.once("dialog", lambda dialog: dialog.accept())  # it cannot be undone: asked first
    host.get_by_role("button", name=words["free"]).nth(1).click()
    assert_accessible(host)
    assert_phone_friendly(host)
    shot(host, f"seat-moves-host-freed-{language}")
    anna.reload()
    expect(anna.locator("#table")).to_contain_text(words["waits"])  # not taken yet; the history tells the hand-over
    anna.goto(f"{server}/g/{game}/history")
    expect(anna.locator("main .seat-change")).to_have_text(words["freed"])
    assert_accessible(anna)
    shot(anna, f"seat-moves-history-{language}")
    anna.goto(f"{server}/g/{game}")
    ben.reload()
    expect(ben.locator("#table")).to_contain_text(words["watching"])

    # Anna logs her hand; then her old phone shows the code and QR for her new one.
    api(server, f"/api/games/{game}/events", token_of(anna), {"type": "hand", "seat": 0, "cards": list(range(1, 13))})
    anna.reload()
    anna.get_by_role("button", name=words["move"]).click()
    move_code = anna.locator(".code").inner_text().strip()
    expect(anna.locator(".qr svg")).to_be_visible()
    assert_accessible(anna)
    assert_phone_friendly(anna)
    shot(anna, f"seat-moves-code-{language}")
    new = phone_in(browser, server, language)  # the new phone types the code it reads off the old one
    new.goto(server)
    new.get_by_role("textbox", name=words["join"]).fill(move_code.lower())
    new.get_by_role("button", name=words["join button"], exact=True).click()
    expect(new.locator("#move-code")).to_have_value(move_code)
    assert_accessible(new)
    assert_phone_friendly(new)
    shot(new, f"seat-moves-take-{language}")
    new.get_by_role("button", name=words["take"]).click()
    expect(new.locator("#table")).to_contain_text(f"{words['you']} Anna")
    assert api(server, f"/api/games/{game}/events", token_of(new))["events"][0]["cards"] == list(range(1, 13))  # her hand came along
    shot(new, f"seat-moves-new-phone-{language}")
    anna.goto(f"{server}/g/{game}")
    expect(anna.locator("#table")).to_contain_text(words["watching"])

    # The host has kept score past Anna's hand: "I play this seat" is refused, in words.
    host.goto(f"{server}/g/{game}/host")
    host.once("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name=words["play"]).first.click()
    expect(host.locator(".flash.error")).to_contain_text(words["refused"])
    assert_accessible(host)
    assert_phone_friendly(host)
    shot(host, f"seat-moves-host-refused-{language}")
