"""Your move in one screen, in one tap: a sample game replayed at a table of phones (360×640,
Debian's Chromium, the real server), in English and German. Each player taps his own moves
on his phone (the host logs the deal, the hands, the prizes); whenever the turn comes to a
phone, what to beat and the first control are in sight above the turn bar. The figures go
to test-artifacts/one-tap.json (tests/one_tap.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from one_tap import OneTap
from test_browser import (ARTIFACTS, OPEN_PHONES, PHONE, api, assert_beat_in_sight, browser, new_table, phones_put_away, server, shot,  # noqa: F401 (fixtures)
                          token_of)
from test_browser_at_the_table import assert_accessible, speak

pytestmark = pytest.mark.browser
EVENTS = Path(__file__).resolve().parent.parent / "events"
BAR_PASS = ".turnbar form:has(input[value=pass]) button"


def kp_play(page: Page, event: dict[str, Any]) -> int:
    """A play: how many cards and jokers where they differ from what the form holds, then the number."""
    cards = event["cards"]
    number = next((card for card in cards if card != "J"), "J")
    taps = 0
    if page.input_value("#count") != str(len(cards)):
        page.select_option("#count", str(len(cards)))
        taps += 1
    if number != "J" and "J" in cards:
        page.select_option("#jokers", str(cards.count("J")))
        taps += 1
    page.locator(f"button[name=pick][value='{number}']").click()
    return taps + 1


def bar_pass(page: Page, event: dict[str, Any]) -> int:
    page.locator(BAR_PASS).click()
    return 1


def eotm_bid(page: Page, event: dict[str, Any]) -> int:
    page.locator(f"form button[name=card][value='{event['card']}']").first.click()
    return 1


def ftw_high(page: Page, event: dict[str, Any]) -> int:
    """One tap: the card."""
    page.locator(f"form:has(input[name=type][value=high]) button[name=card][value='{event['card']}']").click()
    return 1


def ftw_low(page: Page, event: dict[str, Any]) -> int:
    """One tap, the card, when the pile card taken is the top one (chosen already); another is tapped first."""
    form = page.locator("form:has(input[name=type][value=low])")
    taps = 1
    if not form.locator(f"input[name=take][value='{event['take']}']").is_checked():
        form.locator("label.pick", has=page.locator(f"input[value='{event['take']}']")).click()
        taps += 1
    form.locator(f"button[name=card][value='{event['card']}']").click()
    return taps


def ftw_boost(page: Page, event: dict[str, Any]) -> int:
    """The card, each helper, then Boost."""
    form = page.locator("form:has(input[name=type][value=boost])")
    form.locator(".grid label.pick", has_text=str(event["card"])).get_by_text(str(event["card"]), exact=True).click()
    for helper in event["helpers"]:
        form.locator(f"input[name=helpers][value='{helper}']").check()
    form.locator("button.primary").click()
    return 2 + len(event["helpers"])


def ftw_one_tap_moves(events: list[dict[str, Any]]) -> dict[str, list[int]]:
    """The taps a high and a low should take: one, the card; a low that takes another card than
    the top one (the card laid last: a low empties the pile) taps that card first."""
    taps: dict[str, list[int]] = {"high": [], "low": []}
    top = None
    for event in events:
        if event["type"] in taps:
            taps[event["type"]].append(2 if event["type"] == "low" and event["take"] != top else 1)
        top = event["card"] if event["type"] in ("high", "boost") else top
    return taps


def ftw_reveal(page: Page, event: dict[str, Any]) -> int:
    """The hand the phone logged is there already: one tap, when it is right."""
    field = page.locator(f"#reveal-{event['seat']}")
    assert sorted(map(int, field.input_value().split())) == sorted(event["cards"]), "the reveal is prefilled from the hand this phone knows"
    field.locator("xpath=..").locator("button.primary").click()
    return 1


# Each game: a sample, how many of its events are replayed, and the moves its players tap (the rest the host logs).
WALKS: dict[str, tuple[str, int, dict[str, Callable[[Page, dict[str, Any]], int]]]] = {
    "karriere-poker": ("karriere-poker-4-players", 79, {"play": kp_play, "pass": bar_pass}),
    "employee-of-the-month": ("employee-of-the-month-3-players", 45, {"bid": eotm_bid, "pass": bar_pass}),
    "ftw": ("ftw-3-players", 46, {"high": ftw_high, "low": ftw_low, "boost": ftw_boost, "reveal": ftw_reveal}),
}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game", sorted(WALKS))
def test_when_the_turn_comes_what_to_beat_and_the_first_control_are_in_one_screen(server: str, browser: Browser, game: str, language: str) -> None:
    sample, count, tapped = WALKS[game]
    lines = (EVENTS / f"{sample}.jsonl").read_text(encoding="utf-8").splitlines()
    seats = json.loads(lines[0])["seats"]
    events = [json.loads(line) for line in lines[1:count + 1]]
    host, phones = new_table(browser, server, game, seats, tuple(seats))
    for page in phones.values():
        speak(page, language, server)
    game_id = host.url.split("/g/")[1].split("/")[0]
    walk = OneTap(f"{game}-{language}")
    last_mover = None
    for event in events:
        seq, body = event["seq"], {k: v for k, v in event.items() if k not in ("seq", "at", "by", "id")}
        if event["type"] not in tapped:
            api(server, f"/api/games/{game_id}/events", token_of(host), body)
            last_mover = None
            continue
        page = phones[seats[event["seat"]]]
        expect(page.locator(f"#table[data-seq='{seq - 1}']")).to_be_attached(timeout=8000)
        if last_mover != event["seat"] and page.locator(".turnbar.mine").count():
            if walk.arrive(page, seq) and event["type"] not in walk.taps:  # the phone's screen (not the whole page) at the first turn of each kind
                page.screenshot(path=str(ARTIFACTS / f"one-tap-{game}-{event['type']}-{language}.png"))
            assert_beat_in_sight(page)
        walk.tapped(event["type"], tapped[event["type"]](page, event))
        expect(page.locator(f"#table[data-seq='{seq}']")).to_be_attached(timeout=8000)
        assert page.locator("#table .flag").count() == 0, f"event {seq} was flagged"
        last_mover = event["seat"]
    if game == "karriere-poker":  # the phone that made game 1's last move sees that it is over
        over = page.locator(".news", has_text={"en": "Game 1 is over", "de": "Spiel 1 ist vorbei"}[language])
        expect(over.first).to_be_in_viewport()
        shot(page, f"one-tap-game-over-{language}")
    assert_accessible(page)
    figures = walk.save()
    if game == "ftw":  # a high is one tap, and so is a low that takes the top card
        assert {move: walk.taps[move] for move in ("high", "low")} == ftw_one_tap_moves(events), figures["taps per move"]
    assert walk.share() >= 0.95, figures
    assert max(count for counts in walk.taps.values() for count in counts) <= 3, figures["taps per move"]


def test_without_javascript_enter_lays_the_typed_ftw_card_and_a_card_button_its_own(server: str, browser: Browser) -> None:
    """The FTW?! forms post as plain forms too: Enter in the typed field presses no card button."""
    host, phones = new_table(browser, server, "ftw", ["Anna", "Ben", "Cem"], ("Anna", "Ben"))
    game_id = host.url.split("/g/")[1].split("/")[0]
    plain: dict[str, Page] = {}
    for name, page in phones.items():  # the same seats, on phones without JavaScript
        context = browser.new_context(viewport=PHONE, java_script_enabled=False)
        OPEN_PHONES.append(context)
        context.add_cookies(page.context.cookies())
        plain[name] = context.new_page()
        plain[name].goto(page.url)
    # Anna types 30 and presses Enter: her 30 is laid, not the first card button's 1.
    plain["Anna"].fill("#high-card", "30")
    plain["Anna"].press("#high-card", "Enter")
    expect(plain["Anna"].locator("#table")).to_have_attribute("data-seq", "1")
    # Ben taps his 33: one tap.
    plain["Ben"].reload()
    plain["Ben"].locator("form:has(input[value=high]) button[name=card][value='33']").click()
    expect(plain["Ben"].locator("#table")).to_have_attribute("data-seq", "2")
    events = api(server, f"/api/games/{game_id}/events", token_of(host))["events"]
    assert [(e["seat"], e["type"], e["card"], e["violation"]) for e in events] == [(0, "high", 30, None), (1, "high", 33, None)]


def test_an_ftw_card_button_tapped_offline_waits_on_the_phone_and_is_laid_when_back(server: str, browser: Browser) -> None:
    host, phones = new_table(browser, server, "ftw", ["Anna", "Ben", "Cem"], ("Anna",))
    anna = phones["Anna"]
    game_id = host.url.split("/g/")[1].split("/")[0]
    # Offline, Anna taps her 12: the card button's value waits with the move, and goes out when she is back.
    anna.context.set_offline(True)
    anna.locator("form:has(input[value=high]) button[name=card][value='12']").click()
    expect(anna.locator("#outbox-status")).to_contain_text("Waiting to send: 1", timeout=8000)
    anna.context.set_offline(False)
    expect(anna.locator("#table")).to_have_attribute("data-seq", "1", timeout=20000)
    events = api(server, f"/api/games/{game_id}/events", token_of(host))["events"]
    assert [(e["seat"], e["type"], e["card"]) for e in events] == [(0, "high", 12)]
