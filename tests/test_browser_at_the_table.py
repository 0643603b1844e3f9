"""Senators and Ladies & Gentlemen at a real table: every player on a phone of their own
(360×640, Debian's Chromium, the real server), in English and German. Each phone's turn
bar names who the table waits for; cards are tapped, never typed; a move that gives
something up asks first; a refusal stands at the control that was tapped. The taps of
each move are counted and written to test-artifacts/taps-<game>.json."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from test_browser import ARTIFACTS, assert_phone_friendly, browser, new_table, phone, phones_put_away, server, shot  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"your turn": "Your turn", "turn": "{}'s turn", "waiting": "Waiting for: {}", "event": "Event", "auction": "Auction",
           "bid": "Bid", "no bid": "No bid", "price for": "Price for {}", "sell": "Sell", "buy": "Buy", "blackmail": "Blackmail (+3)",
           "demand": "Demand", "keep": "Pay and keep it", "cash in": "Cash in", "pass": "Pass", "buy senators": "Buy",
           "done": "Done cashing in", "sell senator": "Sell a senator for 5", "money": "Your money: {}", "red": "red", "blue": "blue",
           "green": "green", "take": "Take: wardrobe", "pay": "Pay", "return": "Return", "done tonight": "Done for tonight",
           "changed": "The table changed meanwhile", "price": "Price"},
    "de": {"your turn": "Du bist dran", "turn": "{} ist dran", "waiting": "Es fehlt: {}", "event": "Ereignis", "auction": "Auktion",
           "bid": "Bieten", "no bid": "Kein Gebot", "price for": "Preis für {}", "sell": "Verkaufen", "buy": "Kaufen",
           "blackmail": "Erpressen (+3)", "demand": "Fordern", "keep": "Zahlen und behalten", "cash in": "Einlösen", "pass": "Passen",
           "buy senators": "Kaufen", "done": "Fertig mit Einlösen", "sell senator": "Einen Senator für 5 verkaufen", "money": "Dein Geld: {}",
           "red": "rot", "blue": "blau", "green": "grün", "take": "Nehmen: Garderobe", "pay": "Bezahlen", "return": "Zurückgeben",
           "done tonight": "Fertig für heute Abend", "changed": "Der Tisch hat sich inzwischen geändert", "price": "Preis"},
}


class Taps:
    """Counts the taps of each move (a confirmation's OK counts as one) and types nothing."""

    def __init__(self) -> None:
        self.per_move: dict[str, list[int]] = defaultdict(list)
        self.counting: list[int] = []

    def move(self, name: str, page: Page, *taps: Locator, confirm: bool = False) -> None:
        """Tap each control in turn; the move is stored once the phone shows the next event."""
        seq = int(page.locator("#table").get_attribute("data-seq") or 0)
        if confirm:
            page.once("dialog", lambda dialog: dialog.accept())
        for control in taps:
            control.click()
        self.per_move[name].append(len(taps) + confirm)
        expect(page.locator(f"#table[data-seq='{seq + 1}']")).to_be_attached(timeout=4000)

    def save(self, game: str) -> dict[str, int]:
        most = {move: max(counts) for move, counts in self.per_move.items()}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"taps-{game}.json").write_text(json.dumps(most, indent=1), encoding="utf-8")
        return most


def speak(page: Page, language: str, server: str) -> None:
    page.context.add_cookies([{"name": "lang", "value": language, "url": server}])
    page.reload()


def bar(page: Page) -> Locator:
    return page.locator(".turnbar .status")


def at(page: Page, seq: int) -> None:
    expect(page.locator(f"#table[data-seq='{seq}']")).to_be_attached(timeout=4000)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_senators_round_on_four_phones_says_who_acts_and_takes_only_taps(server: str, browser: Browser, language: str) -> None:
    w = WORDS[language]
    host, phones = new_table(browser, server, "senators", ["Anna", "Ben", "Cem"], ("Anna", "Ben", "Cem"))
    anna, ben, cem = phones["Anna"], phones["Ben"], phones["Cem"]
    host.get_by_role("link", name="To the table").click()
    for page in (host, anna, ben, cem):
        speak(page, language, server)
    taps = Taps()

    # The host draws the event card: Anna acts, and every other phone says so.
    taps.move("event", host, host.get_by_role("button", name=w["event"], exact=True))
    for page in (anna, ben, cem):
        at(page, 1)
    expect(bar(anna)).to_have_text("▶ " + w["your turn"])
    expect(anna.locator(".turnbar.mine")).to_be_visible()
    for page in (ben, cem, host):
        expect(bar(page)).to_have_text(w["turn"].format("Anna"))
    expect(anna.locator("#table")).to_contain_text(w["money"].format(10))

    # Anna auctions three revealed cards by tapping them: red-3, blue-7, green-1.
    taps.move("auction (3 cards)", anna, anna.get_by_label(f"{w['red']}-3", exact=True), anna.get_by_label(f"{w['blue']}-7", exact=True),
              anna.get_by_label(f"{w['green']}-1", exact=True), anna.get_by_role("button", name=w["auction"], exact=True))

    # Ben bids: his bar is green and jumps to his form; Anna's and Cem's name Ben.
    at(ben, 2)
    expect(bar(ben)).to_have_text("▶ " + w["your turn"])
    expect(bar(anna)).to_have_text(w["turn"].format("Ben"))
    expect(bar(cem)).to_have_text(w["turn"].format("Ben"))
    ben.locator(".turnbar a[href='#actions']").click()
    price_red = ben.get_by_role("radiogroup", name=w["price for"].format(f"{w['red']}-3"), exact=True)
    expect(price_red).to_be_in_viewport()
    assert_phone_friendly(ben)
    shot(ben, f"senators-bid-{language}")
    taps.move("bid", ben, price_red.get_by_text("4", exact=True), ben.get_by_role("button", name=w["bid"], exact=True))

    at(cem, 3)
    expect(bar(cem)).to_have_text("▶ " + w["your turn"])
    taps.move("bid (two cards)", cem, cem.get_by_role("radiogroup", name=w["price for"].format(f"{w['red']}-3"), exact=True).get_by_text("5", exact=True),
              cem.get_by_role("radiogroup", name=w["price for"].format(f"{w['blue']}-7"), exact=True).get_by_text("2", exact=True),
              cem.get_by_role("button", name=w["bid"], exact=True))

    # Anna decides: each decision asks first, naming the card, the bidder and the price.
    at(anna, 4)
    expect(bar(anna)).to_have_text("▶ " + w["your turn"])
    red = anna.locator("form", has_text=f"{w['red']}-3")
    taps.move("decide", anna, red.get_by_role("button", name=w["sell"], exact=True), confirm=True)
    taps.move("decide", anna, anna.get_by_role("button", name=w["buy"], exact=True), confirm=True)
    # Anna 10 + 5 - 2 = 13; Cem 16 - 5 + 2 = 13.
    expect(anna.locator("#table")).to_contain_text(w["money"].format(13))
    expect(cem.locator("#table")).to_contain_text(w["money"].format(13))

    # Selling a senator asks first; "Cancel" logs nothing.
    seq = int(anna.locator("#table").get_attribute("data-seq") or 0)
    anna.once("dialog", lambda dialog: dialog.dismiss())
    anna.get_by_role("button", name=w["sell senator"]).click()
    anna.wait_for_timeout(300)
    assert int(anna.locator("#table").get_attribute("data-seq") or 0) == seq

    # Ben's turn: blackmail, and a demand of Anna's face-up blue-7 in three taps; Anna's
    # bar then says it is her turn to answer.
    taps.move("event", host, host.get_by_role("button", name=w["event"], exact=True))
    at(ben, seq + 1)
    taps.move("blackmail", ben, ben.get_by_role("button", name=w["blackmail"]))
    taps.move("demand", ben, ben.get_by_label(f"{w['blue']}-7 · Anna"), ben.get_by_role("radiogroup", name=w["price"], exact=True).get_by_text("3", exact=True),
              ben.get_by_role("button", name=w["demand"], exact=True))
    at(anna, seq + 3)
    expect(bar(anna)).to_have_text("▶ " + w["your turn"])
    expect(bar(ben)).to_have_text(w["turn"].format("Anna"))
    taps.move("answer", anna, anna.get_by_role("button", name=w["keep"]), confirm=True)

    # Cem's turn: a cash-in. Anna and Ben pass in turn, each told when it is theirs; Cem buys.
    taps.move("event", host, host.get_by_role("button", name=w["event"], exact=True))
    at(cem, seq + 5)
    taps.move("cash-in", cem, cem.get_by_role("button", name=w["cash in"]))
    at(anna, seq + 6)
    expect(bar(anna)).to_have_text("▶ " + w["your turn"])
    expect(bar(cem)).to_have_text(w["turn"].format("Anna"))
    taps.move("join", anna, anna.locator("form").filter(has=anna.locator("input[value=join]")).get_by_role("button", name=w["pass"], exact=True))
    at(ben, seq + 7)
    expect(bar(ben)).to_have_text("▶ " + w["your turn"])
    taps.move("join", ben, ben.locator("form").filter(has=ben.locator("input[value=join]")).get_by_role("button", name=w["pass"], exact=True))
    at(cem, seq + 8)
    expect(bar(cem)).to_have_text("▶ " + w["your turn"])
    taps.move("buy senators", cem, cem.locator("form").filter(has=cem.locator("input[value=buy-senators]")).get_by_role("button", name=w["buy senators"], exact=True))
    taps.move("done", cem, cem.get_by_role("button", name=w["done"]))
    expect(bar(anna)).not_to_contain_text(w["your turn"])
    assert_phone_friendly(cem)
    shot(cem, f"senators-after-cash-in-{language}")
    most = taps.save(f"senators-{language}")
    assert most["auction (3 cards)"] == 4  # one tap per card, then Auction
    assert all(count <= 3 for move, count in most.items() if move != "auction (3 cards)"), most
