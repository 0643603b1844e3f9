"""The table's own screen and a result to share, in Debian's Chromium against the real
server: the board on a phone (360×640), a tablet (1024×768) and a TV (1280×720), in English
and German, read from two metres, live, screen kept on; the share button on a phone, where
headless Chromium has no share sheet (the download) and where one is given (the PNG)."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Page, expect

from test_browser import ARTIFACTS, OPEN_PHONES, WAKE_LOCK_SPY, api, browser, phones_put_away, server, shot, wait_until  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser
EVENTS = Path(__file__).resolve().parent.parent / "events"
SCREENS = {"phone": {"width": 360, "height": 640}, "tablet": {"width": 1024, "height": 768}, "tv": {"width": 1280, "height": 720}}


def screen(browser: Browser, size: str, language: str = "en") -> BrowserContext:
    context = browser.new_context(viewport=SCREENS[size], locale="de-DE" if language == "de" else "en-GB", is_mobile=size == "phone",
                                  has_touch=size != "tv", accept_downloads=True)
    OPEN_PHONES.append(context)  # closed after the test (phones_put_away)
    return context


def spectator(server: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A request without a token: a new game, or what a spectator is told."""
    request = urllib.request.Request(f"{server}{path}", data=None if body is None else json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def kp_table(server: str) -> tuple[str, str]:
    """A Karriere Poker table where Anna has led two 5s: Ben's turn. The game id and the host's token."""
    made = spectator(server, "/api/games", {"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"], "title": "Freitag"})
    for body in ({"type": "deal", "dealer": 3}, {"type": "play", "seat": 0, "cards": [5, 5]}):
        api(server, f"/api/games/{made['id']}/events", made["host_token"], body)
    return made["id"], made["host_token"]


def serious(page: Page) -> list[Any]:
    from axe_playwright_python.sync_playwright import Axe

    return [(v["id"], [n["html"][:120] for n in v["nodes"]][:3]) for v in Axe().run(page).response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", list(SCREENS))
def test_the_board_is_read_from_two_metres_on_a_phone_a_tablet_and_a_tv(server: str, browser: Browser, size: str, language: str) -> None:
    game_id, _ = kp_table(server)
    page = screen(browser, size, language).new_page()
    page.goto(f"{server}/g/{game_id}/board")
    expect(page.locator(".board-turn")).to_have_text("Ben ist dran" if language == "de" else "Ben's turn")
    card = page.locator(".board .card.top").first
    expect(card).to_have_text("5")
    px = float(card.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    if size == "tv":
        assert px >= 48, px  # the current cards, from across the table
    assert page.evaluate("document.documentElement.scrollWidth") <= SCREENS[size]["width"]
    assert serious(page) == []
    shot(page, f"board-{size}-{language}")


def test_the_board_follows_every_move_within_a_second_and_keeps_the_screen_on(server: str, browser: Browser) -> None:
    game_id, host = kp_table(server)
    page = screen(browser, "tv").new_page()
    page.add_init_script(WAKE_LOCK_SPY)
    page.goto(f"{server}/g/{game_id}/board")
    expect(page.locator("#keep-awake")).to_be_checked()
    wait_until(page, "window.__wakeLocks >= 1")
    page.wait_for_timeout(300)  # the board's long-poll is waiting
    for seat, cards, seq in ((1, [7, 7], 3), (2, [9, 9], 4)):
        api(server, f"/api/games/{game_id}/events", host, {"type": "play", "seat": seat, "cards": cards})
        moved = time.monotonic()
        wait_until(page, f"document.querySelector('#table').dataset.seq === '{seq}'", timeout=1.0)
        assert time.monotonic() - moved <= 1.0
    expect(page.locator("[data-last]")).to_contain_text("Cem plays 9 9")
    expect(page.locator(".board .card.top").first).to_have_text("9")
    # Dora's turn: Ben lays two 4s. The board names his move and its flag at once.
    api(server, f"/api/games/{game_id}/events", host, {"type": "play", "seat": 1, "cards": [4, 4]})  # Ben, not his turn, and lower
    expect(page.locator("[data-last] .bad")).to_be_visible(timeout=1000)
    shot(page, "board-live-flag-tv")
    without = screen(browser, "tablet").new_page()  # a browser without the Wake Lock API: nothing breaks
    without.add_init_script("Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: undefined});")
    errors: list[str] = []
    without.on("pageerror", lambda error: errors.append(str(error)))
    without.goto(f"{server}/g/{game_id}/board")
    expect(without.locator(".board-turn")).to_have_text("Dora's turn")
    assert errors == []


def finished_sample(server: str, name: str) -> str:
    request = urllib.request.Request(f"{server}/api/games/import", data=(EVENTS / f"{name}.jsonl").read_bytes(), headers={"Content-Type": "application/jsonl"})
    with urllib.request.urlopen(request) as answer:
        return str(json.loads(answer.read())["id"])


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_end_on_the_board_and_the_result_shared_from_a_phone(server: str, browser: Browser, language: str) -> None:
    game_id = finished_sample(server, "ftw-3-players")
    told = spectator(server, f"/api/games/{game_id}")
    tv = screen(browser, "tv", language).new_page()
    tv.goto(f"{server}/g/{game_id}/board")
    expect(tv.locator("[data-end]")).to_contain_text(" & ".join(told["winners"]))
    expect(tv.locator(".board .standings li")).to_have_count(len(told["ranking"]))
    assert serious(tv) == []
    shot(tv, f"board-game-over-tv-{language}")
    # No share sheet in headless Chromium: the button downloads the image.
    phone = screen(browser, "phone", language).new_page()
    phone.goto(f"{server}/g/{game_id}/result")
    share = phone.locator("#share")
    expect(share).to_have_text("Ergebnis teilen" if language == "de" else "Share the result")
    assert phone.evaluate("typeof navigator.share") == "undefined"
    with phone.expect_download() as download:
        share.click()
    assert download.value.suggested_filename == f"ftw-{game_id}.png"
    with Image.open(download.value.path()) as image:
        assert (image.format, image.size) == ("PNG", (1200, 630))
    fetched = phone.evaluate("fetch(document.getElementById('share').href).then(a => a.arrayBuffer()).then(b => Array.from(new Uint8Array(b)))")
    assert Path(download.value.path()).read_bytes() == bytes(fetched)  # the server's card, as this phone is told it
    download.value.save_as(ARTIFACTS / f"result-image-{language}.png")  # what the phone shares
    assert serious(phone) == []
    shot(phone, f"result-share-phone-{language}")
    viewer = browser.new_page(viewport={"width": 1200, "height": 630}, locale="de-DE" if language == "de" else "en-GB")  # the same card as an SVG
    viewer.goto(f"{server}/g/{game_id}/result.svg")
    viewer.screenshot(path=str(ARTIFACTS / f"result-image-svg-{language}.png"))
    viewer.close()


SHARE_SPY = """
window.__shared = null;
navigator.canShare = function (data) { return true; };
navigator.share = function (data) {
  window.__shared = {title: data.title, text: data.text, url: data.url, files: (data.files || []).map(function (f) { return [f.name, f.type, f.size]; })};
  return Promise.resolve();
};
"""


def test_a_phone_with_a_share_sheet_shares_the_standings_as_a_png_with_the_link(server: str, browser: Browser) -> None:
    game_id = finished_sample(server, "karriere-poker-4-players")
    phone = screen(browser, "phone").new_page()
    phone.add_init_script(SHARE_SPY)
    phone.goto(f"{server}/g/{game_id}/result")
    phone.locator("#share").click()
    wait_until(phone, "window.__shared !== null")
    shared = phone.evaluate("window.__shared")
    assert shared["url"] == f"{server}/g/{game_id}/result" and "Cem wins." in shared["text"]
    (name, kind, size), = shared["files"]
    assert name == f"karriere-poker-{game_id}.png" and kind == "image/png" and size > 5000
