"""The offline copy on a phone (360×640, Debian's Chromium, the real server, Playwright's
offline mode), in English and German: it is its reader's own (one phone that holds Anna's
seat and then Ben's; a host who starts to play a seat), and so are the moves waiting in its
outbox; it is the last table the phone showed (live updates included), says so in one line,
and back online the page catches up by itself; the phone keeps the copies of the 20 games
it used last."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from test_browser import api, browser, new_table, phone, phones_put_away, server, shot, token_of, wait_until  # noqa: F401 (fixtures)
from test_browser_at_the_table import speak

pytestmark = pytest.mark.browser
EVENTS = Path(__file__).resolve().parent.parent / "events"
WORDS = {"en": {"offline": "You are offline", "reconnecting": "Reconnecting…", "hand": "Your hand", "waiting": "Waiting to send: {}",
                "dropped": "2 moves tapped for Anna were not sent: ", "no seat": "this phone holds no seat now",
                "bens": "this phone now holds Ben's seat"},
         "de": {"offline": "Du bist offline", "reconnecting": "Verbindung wird wiederhergestellt…", "hand": "Deine Hand",
                "waiting": "Wartet auf Versand: {}", "dropped": "2 Züge, für Anna getippt, wurden nicht gesendet: ",
                "no seat": "Dieses Handy hat jetzt keinen Platz", "bens": "Dieses Handy hat jetzt den Platz von Ben"}}

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


def says_offline_in_one_line(page: Page, language: str) -> None:
    """A copy shown offline says it once: the banner's words with the age of the copy, in
    the live status; no second line about being offline."""
    status = page.locator("#live-status")
    expect(status).to_be_visible(timeout=5000)
    expect(status).to_contain_text(WORDS[language]["offline"])
    expect(status).to_contain_text(" · ")  # … · last update 3 s ago
    expect(page.locator("#offline-banner")).to_be_hidden()
    said = [line for line in page.locator("[role=status]:visible, [role=alert]:visible").all_inner_texts() if "offline" in line.lower()]
    assert len(said) == 1, said


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
    host.once("dialog", lambda dialog: dialog.accept())  # "Free Anna's seat?"
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
    says_offline_in_one_line(handy, language)
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
    says_offline_in_one_line(host, language)
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
    expect(ben.locator("#table")).to_have_attribute("data-seq", "76")  # the last table it saw, not event 0
    says_offline_in_one_line(ben, language)  # it runs: it knows it is offline, and how old the copy is
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


OPENING = [(0, 1), (1, 2), (2, 3)]  # (seat, card): the round's first three highs, logged by the host
# Where "To beat" stands on the screen: [top, bottom, the status line's bottom, the turn bar's top].
TO_BEAT = """() => {
  const beat = document.querySelector('#actions ~ [data-beat]').getBoundingClientRect();
  return [beat.top, beat.bottom, document.getElementById('live-bar').getBoundingClientRect().bottom,
          document.querySelector('.turnbar').getBoundingClientRect().top];
}"""


def annas_two_moves_wait_offline_and_the_host_frees_her_seat(browser: Browser, server: str, language: str) -> tuple[Page, Page, str]:
    """After the OPENING, Anna's phone, offline, shows "To beat: 3" right below its status line;
    she taps her 4 twice (one move waits, and what to beat stays in sight), thinks again and
    lays 12: both wait on the phone, as hers. Meanwhile the host frees her seat on his phone.
    Returns her phone, the host's, the code."""
    host, phones = new_table(browser, server, "ftw", ["Anna", "Ben", "Cem"], ("Anna",))
    handy = phones["Anna"]
    speak(handy, language, server)
    for seat, card in OPENING:
        api(server, f"/api/games/{game_of(handy)}/events", token_of(host), {"type": "high", "seat": seat, "card": card})
    expect(handy.locator("#table")).to_have_attribute("data-seq", "3")
    handy.context.set_offline(True)
    expect(handy.locator("#live-status")).to_be_visible(timeout=5000)
    top, _, below_status, _ = handy.evaluate(TO_BEAT)
    handy.evaluate(f"window.scrollBy(0, {top - below_status - 8})")
    handy.evaluate("window.failed = 0; document.addEventListener('htmx:sendError', e => { if (e.detail.requestConfig.verb === 'post') window.failed++; })")
    for tapped in (1, 2):  # her 4, and her 4 again
        handy.locator("form:has(input[value=high]) button[name=card][value='4']").click()
        wait_until(handy, f"window.failed === {tapped}")
        expect(handy.locator("#outbox-status")).to_have_text(WORDS[language]["waiting"].format(1))
    top, bottom, below_status, bar = handy.evaluate(TO_BEAT)
    assert below_status <= top and bottom <= bar, "the banner of waiting moves hides what to beat"
    shot(handy, f"outbox-waits-below-the-pile-{language}")
    handy.locator("#high-card").fill("12")
    handy.locator("#high-card").press("Enter")
    expect(handy.locator("#outbox-status")).to_have_text(WORDS[language]["waiting"].format(2), timeout=8000)
    host.reload()
    host.once("dialog", lambda dialog: dialog.accept())  # "Free Anna's seat?"
    host.locator("#seats li", has_text="Anna").get_by_role("button").click()
    return handy, host, host.locator(".code").inner_text().strip()


def highs(server: str, host: Page, game_id: str) -> list[tuple[int, int]]:
    return [(e["seat"], e["card"]) for e in api(server, f"/api/games/{game_id}/events", token_of(host))["events"] if e["type"] == "high"]


@pytest.mark.parametrize("language", ["en", "de"])
def test_moves_anna_tapped_offline_are_never_sent_as_bens_when_the_phone_takes_his_seat(server: str, browser: Browser, language: str) -> None:
    handy, host, code = annas_two_moves_wait_offline_and_the_host_frees_her_seat(browser, server, language)
    words = WORDS[language]
    game_id = game_of(handy)
    # Still offline, the phone is handed to Ben, who opens the join address: the app's offline page.
    handy.goto(f"{server}/j/{code}")
    expect(handy.locator("h1")).to_have_text(words["offline"])

    # Online again, he takes his seat: Anna's moves are not sent with his token, and the page says so.
    handy.context.set_offline(False)
    handy.reload()
    handy.get_by_role("button", name="Ben").click()
    expect(handy.locator("#table > p.muted strong").first).to_have_text("Ben")
    dropped = handy.locator("#outbox-dropped")
    expect(dropped.locator("p")).to_have_text(words["dropped"] + words["bens"])
    expect(handy.locator("#outbox-status")).to_be_hidden()
    assert dropped.evaluate("e => e.getBoundingClientRect().bottom") <= 640  # in sight without scrolling
    shot(handy, f"outbox-dropped-bens-seat-{language}")
    handy.wait_for_timeout(1500)  # time enough for a kept move to go out, were one still kept
    assert highs(server, host, game_id) == OPENING

    # Once read, it is gone for good.
    dropped.get_by_role("button").click()
    expect(dropped).to_be_hidden()
    handy.reload()
    expect(handy.locator("#table > p.muted strong").first).to_have_text("Ben")
    expect(dropped).to_be_hidden()


def test_a_phone_whose_seat_was_freed_while_offline_says_at_once_that_her_moves_were_not_sent(server: str, browser: Browser) -> None:
    handy, host, code = annas_two_moves_wait_offline_and_the_host_frees_her_seat(browser, server, "en")
    game_id = game_of(handy)
    # Online again on Anna's page, the phone learns it reads as a spectator now, before sending anything.
    handy.context.set_offline(False)
    dropped = handy.locator("#outbox-dropped")
    expect(dropped.locator("p")).to_have_text(WORDS["en"]["dropped"] + WORDS["en"]["no seat"], timeout=20000)
    expect(handy.locator("#table > p.muted").first).to_contain_text("You are watching")  # the page is a spectator's now
    expect(handy.locator("#outbox-status")).to_be_hidden()
    shot(handy, "outbox-dropped-spectator")
    # Ben takes the seat on this phone: the page still says what happened, in his words.
    handy.goto(f"{server}/j/{code}")
    handy.get_by_role("button", name="Ben").click()
    expect(dropped.locator("p")).to_have_text(WORDS["en"]["dropped"] + WORDS["en"]["bens"])
    assert highs(server, host, game_id) == OPENING


def test_a_phone_that_followed_21_tables_keeps_the_copies_of_the_20_it_used_last(server: str, browser: Browser) -> None:
    tables = [api(server, "/api/games", "", {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]})["id"] for _ in range(21)]
    watcher = phone(browser).new_page()
    watcher.goto(server)
    wait_until(watcher, "navigator.serviceWorker.controller !== null")  # the app's service worker serves this phone

    def follow(game_id: str) -> None:
        watcher.goto(f"{server}/g/{game_id}")
        kept(watcher, 'data-seq="0"')

    for game_id in tables[:20]:
        follow(game_id)
    follow(tables[0])  # the first table again: used last but one
    follow(tables[20])
    deadline = time.monotonic() + 5
    while (games := {game for game, *_ in copies(watcher)}) != set(tables) - {tables[1]}:
        assert time.monotonic() < deadline, f"kept {len(games)} games; missing {set(tables) - games}"
        watcher.wait_for_timeout(100)

    watcher.context.set_offline(True)
    watcher.goto(f"{server}/g/{tables[0]}")
    expect(watcher.locator("#table")).to_have_attribute("data-seq", "0")  # kept
    watcher.goto(f"{server}/g/{tables[1]}")
    expect(watcher.locator("h1")).to_have_text(WORDS["en"]["offline"])  # dropped: the app's offline page
    shot(watcher, "offline-copy-dropped-21st")
    watcher.context.set_offline(False)
