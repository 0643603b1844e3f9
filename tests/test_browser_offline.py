"""The offline copy on a phone (360×640, Debian's Chromium, the real server, Playwright's
offline mode), in English and German: it is its reader's own (one phone that holds Anna's
seat and then Ben's; a host who starts to play a seat), it is the last table the phone
showed (live updates included), and back online the page catches up by itself."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from test_browser import api, browser, new_table, phone, phones_put_away, server, shot, token_of  # noqa: F401 (fixtures)
from test_browser_at_the_table import speak

pytestmark = pytest.mark.browser
EVENTS = Path(__file__).resolve().parent.parent / "events"
WORDS = {"en": {"offline": "You are offline", "reconnecting": "Reconnecting…", "hand": "Your hand"},
         "de": {"offline": "Du bist offline", "reconnecting": "Verbindung wird wiederhergestellt…", "hand": "Deine Hand"}}

# Every game page the service worker keeps on this phone: [game, reader, address, page].
COPIES = """async () => {
  const copies = [];
  for (const name of await caches.keys()) {
    if (!name.startsWith('table-referee-copy:')) continue;
    const [, game, reader] = name.split(':');
    const cache = await caches.open(name);
    for (const request of await cache.keys()) copies.push([game, reader, request.url, await (await cache.match(request)).text()]);
  }
  return copies;
}"""


def game_of(page: Page) -> str:
    return page.url.split("/g/")[1].split("/")[0].split("?")[0]


def copies(page: Page) -> list[list[str]]:
    """What the phone keeps for offline, looked at in its own storage."""
    return list(page.evaluate(COPIES))


def kept(page: Page, text: str, other_than: str = "") -> str:
    """The reader the phone keeps this page for, once its copy shows `text` (waits up to 5 s)."""
    url = page.url.split("#")[0]
    deadline = time.monotonic() + 5
    while True:
        found = [reader for game, reader, at, html in copies(page) if at == url and text in html and reader != other_than]
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"no copy of {url} shows {text!r}: {[c[:3] for c in copies(page)]}"
        page.wait_for_timeout(100)


def readers_kept(page: Page, game_id: str) -> set[str]:
    return {reader for game, reader, at, html in copies(page) if game == game_id}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_phone_that_held_annas_seat_and_then_bens_never_shows_annas_hand_offline(server: str, browser: Browser, language: str) -> None:
    host, phones = new_table(browser, server, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"], ("Anna",))
    words = WORDS[language]
    code = host.locator(".code").inner_text().strip()
    handy = phones["Anna"]  # one phone, first Anna's
    speak(handy, language, server)
    game_id = game_of(handy)
    api(server, f"/api/games/{game_id}/events", token_of(host), {"type": "deal", "dealer": 3})
    api(server, f"/api/games/{game_id}/events", token_of(handy), {"type": "hand", "seat": 0, "cards": [2, 6, 6, 8, 8, 9, 10, 11, 11, 12, 12, "J", "J"]})
    expect(handy.locator("#table")).to_contain_text(words["hand"])  # Anna's hand, live on her phone
    annas = kept(handy, words["hand"])
    handy.goto(f"{server}/g/{game_id}/history")
    assert kept(handy, "<main") == annas  # her pages, kept for her

    # Anna's seat is freed on the host's phone; Ben takes his seat on the same phone.
    handy.goto(f"{server}/g/{game_id}")
    host.reload()
    host.locator("#seats li", has_text="Anna").get_by_role("button").click()
    handy.reload()  # her phone reads as a spectator now, and keeps nothing of Anna's
    expect(handy.locator("#table > p.muted").first).not_to_contain_text("Anna")
    assert annas not in readers_kept(handy, game_id)
    handy.goto(f"{server}/j/{code}")
    handy.get_by_role("button", name="Ben").click()
    expect(handy.locator("#table > p.muted strong").first).to_have_text("Ben")
    bens = kept(handy, 'data-seq="2"')
    assert bens != annas
    assert readers_kept(handy, game_id) == {bens}  # Anna's copies are gone from the phone
    assert not any(words["hand"] in html for *_, html in copies(handy))

    handy.context.set_offline(True)
    handy.reload()
    expect(handy.locator("#offline-banner")).to_be_visible()
    expect(handy.locator("#table > p.muted strong").first).to_have_text("Ben")
    assert words["hand"] not in handy.locator("body").inner_text()
    shot(handy, f"offline-copy-bens-{language}")
    handy.goto(f"{server}/g/{game_id}/history")  # Anna's history was kept, for Anna only
    expect(handy.locator("h1")).to_have_text(words["offline"])
    assert words["hand"] not in handy.locator("body").inner_text()
    shot(handy, f"offline-copy-not-annas-history-{language}")
    handy.context.set_offline(False)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_host_who_starts_to_play_a_seat_keeps_none_of_the_hosts_offline_copies(server: str, browser: Browser, language: str) -> None:
    host, _ = new_table(browser, server, "senators", ["Anna", "Ben", "Cem"], ())
    speak(host, language, server)  # the host's page, kept for the host
    game_id = game_of(host)
    hosting = kept(host, 'class="code"')
    host.goto(f"{server}/g/{game_id}")
    assert kept(host, 'data-seq="0"') == hosting
    host.goto(f"{server}/g/{game_id}/host")
    host.once("dialog", lambda dialog: dialog.accept())
    host.locator("#seats li", has_text="Cem").get_by_role("button").click()  # "I play this seat"
    expect(host.locator("#table > p.muted").first).to_contain_text("Cem")
    playing = kept(host, 'data-seq="0"', other_than=hosting)
    assert readers_kept(host, game_id) == {playing}

    host.context.set_offline(True)
    host.reload()
    expect(host.locator("#offline-banner")).to_be_visible()
    expect(host.locator("#table > p.muted").first).to_contain_text("Cem")  # the table as Cem's phone
    shot(host, f"offline-copy-host-plays-{language}")
    host.goto(f"{server}/g/{game_id}/host")  # kept while the host played no seat: dropped
    expect(host.locator("h1")).to_have_text(WORDS[language]["offline"])
    host.context.set_offline(False)


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_offline_reload_at_event_76_shows_event_76_and_back_online_the_page_catches_up(server: str, browser: Browser, language: str) -> None:
    # Employee of the Month: Ben's phone follows the table live (no reload) to event 76.
    host, phones = new_table(browser, server, "employee-of-the-month", ["Anna", "Ben", "Cem"], ("Ben",))
    ben = phones["Ben"]
    speak(ben, language, server)
    game_id = game_of(ben)
    lines = (EVENTS / "employee-of-the-month-3-players.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    moves = [{name: value for name, value in json.loads(line).items() if name != "seq"} for line in lines]
    for move in moves[:76]:
        api(server, f"/api/games/{game_id}/events", token_of(host), move)
    expect(ben.locator("#table")).to_have_attribute("data-seq", "76", timeout=15000)
    kept(ben, 'data-seq="76"')

    ben.context.set_offline(True)
    ben.reload()
    expect(ben.locator("#offline-banner")).to_be_visible()
    expect(ben.locator("#table")).to_have_attribute("data-seq", "76")  # the last table it saw, not event 0
    expect(ben.locator("#live-status")).to_be_visible(timeout=5000)  # it runs: it knows it is offline
    shot(ben, f"offline-reload-event-76-{language}")
    api(server, f"/api/games/{game_id}/events", token_of(host), moves[76])  # meanwhile at the table

    # Back online: "Reconnecting…", then the table as it is now, in a few seconds, no reload.
    ben.evaluate("""() => {
      window.notReloaded = true; window.said = [];
      const status = document.getElementById('live-status');
      new MutationObserver(() => window.said.push(status.hidden ? '' : status.textContent)).observe(status, {attributes: true, childList: true, characterData: true, subtree: true});
    }""")
    ben.context.set_offline(False)
    expect(ben.locator("#table")).to_have_attribute("data-seq", "77", timeout=5000)
    expect(ben.locator("#live-status")).to_be_hidden()
    expect(ben.locator("#offline-banner")).to_have_count(0)
    assert ben.evaluate("window.notReloaded")
    assert any(text.startswith(WORDS[language]["reconnecting"]) for text in ben.evaluate("window.said")), ben.evaluate("window.said")
    shot(ben, f"offline-caught-up-{language}")
    kept(ben, 'data-seq="77"')  # and the copy heals with it
