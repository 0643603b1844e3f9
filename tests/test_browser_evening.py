"""The evening's flow, on phones (360×640, Debian's Chromium, the real server), in English
and German: a move tapped twice on a slow connection is one move and no error; FTW?!'s
card numbers stay on one line; the end names the winner and the standings at once on
every phone."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect

from test_browser import IN_SIGHT, SERVER_DB, api, assert_beat_in_sight, browser, new_table, phone, phones_put_away, server, shot, token_of  # noqa: F401 (fixtures)
from test_browser_at_the_table import speak

pytestmark = pytest.mark.browser
EVENTS = Path(__file__).resolve().parent.parent / "events"


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_double_tap_on_a_slow_connection_is_one_move_and_no_error(server: str, browser: Browser, language: str) -> None:
    host, phones = new_table(browser, server, "ftw", ["Anna", "Ben", "Cem"], ("Anna",))
    anna = phones["Anna"]
    speak(anna, language, server)

    def slowly(route: Route) -> None:
        time.sleep(0.3)  # 300 ms to the server, as on a bad table Wi-Fi
        route.continue_()

    # Numbers 10–36 stay on one line: every card button is as tall as the "1".
    heights = anna.locator("#table form:has(input[value=high]) .grid .pick").evaluate_all("cards => cards.map(c => Math.round(c.getBoundingClientRect().height))")
    assert heights and max(heights) == min(heights), heights
    shot(anna, f"evening-cards-{language}")
    anna.route("**/log", slowly)
    anna.locator("#high-card").fill("7")
    # Two taps 150 ms apart, the first one's answer still on its way (the browser's own timer).
    anna.evaluate("() => { const form = document.querySelector('#high-card').form; form.requestSubmit(); setTimeout(() => form.requestSubmit(), 150); }")
    expect(anna.locator("#table")).to_have_attribute("data-seq", "1")
    anna.wait_for_timeout(1200)
    expect(anna.locator("#table")).to_have_attribute("data-seq", "1")  # one move stored
    assert anna.locator("#table .flash").count() == 0  # and no error about her own move
    shot(anna, f"evening-one-tap-one-move-{language}")


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_end_names_the_winner_and_the_standings_on_every_phone(server: str, browser: Browser, language: str) -> None:
    host = phone(browser).new_page()
    speak(host, language, server)
    host.goto(f"{server}/import")
    host.fill("textarea[name=text]", (EVENTS / "employee-of-the-month-3-players.jsonl").read_text(encoding="utf-8"))
    host.locator("form button").last.click()
    game_url = host.url.split("/history")[0]
    watcher = phone(browser).new_page()
    speak(watcher, language, server)
    watcher.goto(game_url)
    expected = json.loads((EVENTS / "employee-of-the-month-3-players.expected.json").read_text(encoding="utf-8"))
    winner = expected["ranking"][0][0]
    status = watcher.locator("#table .turn").first
    expect(status).to_contain_text(winner)
    standings = watcher.locator("ol.standings li")
    expect(standings).to_have_count(len(expected["ranking"]))
    expect(standings.first).to_contain_text(f"{winner} {expected['scores'][winner]}")
    shot(watcher, f"evening-game-over-{language}")


WORDS = {"en": {"offline": "You are offline; your moves wait here.", "page": "You are offline"},
         "de": {"offline": "Du bist offline; deine Züge warten hier.", "page": "Du bist offline"}}


@pytest.mark.parametrize("language", ["en", "de"])
def test_offline_a_reload_shows_the_table_as_last_seen_and_back_never_strands_a_seat(server: str, browser: Browser, language: str) -> None:
    host, phones = new_table(browser, server, "ftw", ["Anna", "Ben", "Cem"], ("Ben",))
    ben = phones["Ben"]
    speak(ben, language, server)
    table_url = ben.url
    ben.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    ben.reload()  # the worker now serves this page, and keeps it
    expect(ben.locator("#table")).to_be_visible()
    ben.context.set_offline(True)
    ben.reload()
    expect(ben.locator("#offline-banner")).to_contain_text(WORDS[language]["offline"])
    expect(ben.locator("#table")).to_be_visible()  # the table as it was last seen
    shot(ben, f"offline-reload-{language}")
    ben.goto(table_url + "/history")  # never loaded on this phone
    expect(ben.locator("h1")).to_have_text(WORDS[language]["page"])
    shot(ben, f"offline-page-{language}")
    ben.context.set_offline(False)
    # Back to the seat picker: a phone that holds a seat goes back to its table.
    ben.goto(table_url + "/seats")
    expect(ben).to_have_url(table_url)
    expect(ben.locator("#table")).to_be_visible()


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_hand_is_logged_by_tapping_cards_with_their_counts_joker_included(server: str, browser: Browser, language: str) -> None:
    # Karriere Poker: Ben taps his 13 dealt cards (two 2s, three 7s, a joker …); each
    # button shows how many of its card the hand holds; one tap takes the last one back.
    host, phones = new_table(browser, server, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"], ("Ben",))
    ben = phones["Ben"]
    speak(ben, language, server)
    host.get_by_role("link", name="To the table").click()
    host.get_by_role("button", name="Cards are dealt").click()
    expect(ben.locator("#table[data-seq='1']")).to_be_attached()
    ben.locator("summary", has_text={"en": "Log my hand", "de": "Meine Hand"}[language]).click()
    grid = ben.locator("#hand-cards ~ .grid")
    hand = ["2", "2", "3", "5", "7", "7", "7", "9", "10", "11", "12", "13", "J", "4"]
    for card in hand:
        grid.locator(f"button[data-append='{card}']").click()
    ben.locator("button[data-undo=hand-cards]").click()  # the 4 was a slip
    expect(grid.locator("button[data-append='7']")).to_have_attribute("data-count", "3")
    expect(grid.locator("button[data-append='J']")).to_have_attribute("data-count", "1")
    assert grid.locator("button[data-append='4']").get_attribute("data-count") is None
    shot(ben, f"evening-hand-grid-{language}")
    ben.locator("#hand-cards").locator("xpath=..").locator("button.primary").click()
    expect(ben.locator("#table[data-seq='2']")).to_be_attached()
    shown = ben.locator(".panel p", has_text={"en": "Your hand", "de": "Deine Hand"}[language]).locator(".card")
    expect(shown).to_have_count(13)
    assert host.locator("#hand-cards").count() == 0  # a hand is its seat's own


def ben_bids_higher(page: Page) -> None:
    page.locator("form button[name=card][value='boss-7']").click()


def ben_raises(page: Page) -> None:
    page.select_option("#count", "2")
    page.locator("button[name=pick][value='9']").click()


def ben_lays_higher(page: Page) -> None:
    page.locator("form:has(input[value=high]) button[name=card][value='20']").click()


# Each game: its seats, what the table logs before Ben's turn (through the API), and Ben's move on his phone.
TURNS: dict[str, tuple[list[str], list[dict[str, Any]], Callable[[Page], None]]] = {
    "karriere-poker": (["Anna", "Ben", "Cem", "Dora"], [{"type": "deal", "dealer": 3}, {"type": "play", "seat": 0, "cards": [7, 7]}], ben_raises),
    "ftw": (["Anna", "Ben", "Cem"], [{"type": "high", "seat": 0, "card": 5}], ben_lays_higher),
    "employee-of-the-month": (["Anna", "Ben", "Cem"], [
        {"type": "start", "row": ["colleague-9", "boss-1", "boss-7", "colleague-10", "colleague-4", "boss-10", "colleague-10"], "distrust": 4, "points": "popularity-6"},
        {"type": "bid", "seat": 0, "card": "colleague-4"}], ben_bids_higher),
}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game", sorted(TURNS))
def test_what_to_beat_stays_in_sight_when_the_turn_comes_on_your_move_and_after_it(server: str, browser: Browser, game: str, language: str) -> None:
    # Ben reads the bottom of his table (Latest) when Anna's move comes in: his turn has
    # come, so what he must beat is brought into sight. "Your move" shows it right above his
    # controls, in one screen. After his move it is still in sight, not only Latest.
    seats, before, move = TURNS[game]
    host, phones = new_table(browser, server, game, seats, ("Ben",))
    ben = phones["Ben"]
    speak(ben, language, server)
    game_id = ben.url.split("/g/")[1].split("/")[0]
    for body in before[:-1]:
        api(server, f"/api/games/{game_id}/events", token_of(host), body)
    expect(ben.locator(f"#table[data-seq='{len(before) - 1}']")).to_be_attached()
    ben.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    api(server, f"/api/games/{game_id}/events", token_of(host), before[-1])
    expect(ben.locator(f"#table[data-seq='{len(before)}'] .turnbar.mine")).to_be_attached()
    assert_beat_in_sight(ben)
    ben.evaluate("window.scrollTo(0, 0)")
    ben.locator(".turnbar a[href='#actions']").click()
    assert ben.evaluate(IN_SIGHT, "#actions ~ * [data-beat], #actions ~ [data-beat]")
    assert ben.evaluate(IN_SIGHT, "#actions ~ form button, #actions ~ form label.pick")  # his controls, in the same screen
    shot(ben, f"evening-your-move-{game}-{language}")
    move(ben)
    expect(ben.locator(f"#table[data-seq='{len(before) + 1}']")).to_be_attached()
    assert_beat_in_sight(ben)
