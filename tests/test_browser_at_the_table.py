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

from one_tap import OneTap
from test_browser import ARTIFACTS, api, assert_beat_in_sight, assert_phone_friendly, browser, new_table, phone, phones_put_away, server, shot, token_of  # noqa: F401 (fixtures)

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"your turn": "Your turn", "turn": "{}'s turn", "waiting": "Waiting for: {}", "event": "Event", "auction": "Auction",
           "bid": "Bid", "no bid": "No bid", "price for": "Price for {}", "sell": "Sell", "buy": "Buy", "blackmail": "Blackmail (+3)",
           "demand": "Demand", "keep": "Pay and keep it", "cash in": "Cash in", "pass": "Pass", "buy senators": "Buy",
           "done": "Done cashing in", "sell senator": "Sell a senator for 5", "money": "Your money: {}", "red": "red", "blue": "blue",
           "green": "green", "take": "Take: wardrobe", "pay": "Pay", "return": "Return", "done tonight": "Done for tonight",
           "changed": "The table changed meanwhile", "price": "Price"},
    "de": {"your turn": "Du bist dran", "turn": "{} ist dran", "waiting": "Wir warten auf: {}", "event": "Ereignis", "auction": "Versteigerung",
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
        self.seq = 0  # the table's last event: every move goes through here
        self.one_tap = OneTap("")  # whether the first control is in view when the turn comes to a phone
        self.last: Page | None = None

    def move(self, name: str, page: Page, *taps: Locator, confirm: bool = False) -> None:
        """Once the phone shows the table as it is, tap each control in turn; the move is
        stored when the phone shows the next event."""
        seq = self.seq
        at(page, seq)
        self.arrived(page)
        self.seq += 1
        if confirm:
            page.once("dialog", lambda dialog: dialog.accept())
        for control in taps:
            control.click()
        self.per_move[name].append(len(taps) + confirm)
        self.one_tap.tapped(name, len(taps) + confirm)
        expect(page.locator(f"#table[data-seq='{seq + 1}']")).to_be_attached(timeout=4000)
        assert_beat_in_sight(page)

    def arrived(self, page: Page) -> None:
        """Where the turn has come to this phone (since its last move): is its first control in view?"""
        if page is not self.last and page.locator(".turnbar.mine").count():
            self.one_tap.arrive(page, self.seq + 1)
        self.last = page

    def save(self, game: str) -> dict[str, int]:
        most = {move: max(counts) for move, counts in self.per_move.items()}
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"taps-{game}.json").write_text(json.dumps(most, indent=1), encoding="utf-8")
        self.one_tap.walk = game
        figures = self.one_tap.save()
        assert self.one_tap.share() >= 0.95, figures
        return most


def assert_accessible(page: Page) -> None:
    """axe-core finds no serious or critical violation on this phone's page (forms included)."""
    from axe_playwright_python.sync_playwright import Axe

    violations = Axe().run(page).response["violations"]
    assert [(v["id"], [n["html"][:100] for n in v["nodes"]][:2]) for v in violations if v["impact"] in ("serious", "critical")] == []


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
    # The host's book-keeping is the host's to void: no seat's phone offers it.
    void_1 = {"en": "Void event 1", "de": "Ereignis 1 zurückziehen"}[language]
    expect(host.get_by_role("button", name=void_1)).to_have_count(1)
    for page in (anna, ben, cem):
        expect(page.get_by_role("button", name=void_1)).to_have_count(0)

    # Anna auctions three revealed cards by tapping them: red-3, blue-7, green-1.
    taps.move("auction (3 cards)", anna, anna.get_by_label(f"{w['red']} 3", exact=True), anna.get_by_label(f"{w['blue']} 7", exact=True),
              anna.get_by_label(f"{w['green']} 1", exact=True), anna.get_by_role("button", name=w["auction"], exact=True))

    # Ben bids: his bar is green and jumps to his form; Anna's and Cem's name Ben.
    at(ben, 2)
    expect(bar(ben)).to_have_text("▶ " + w["your turn"])
    expect(bar(anna)).to_have_text(w["turn"].format("Ben"))
    expect(bar(cem)).to_have_text(w["turn"].format("Ben"))
    taps.arrived(ben)  # before the screenshot below moves his screen
    ben.locator(".turnbar a[href='#actions']").click()
    price_red = ben.get_by_role("radiogroup", name=w["price for"].format(f"{w['red']} 3"), exact=True)
    expect(price_red).to_be_in_viewport()
    assert_phone_friendly(ben)
    assert_accessible(ben)
    shot(ben, f"senators-bid-{language}")
    taps.move("bid", ben, price_red.get_by_text("4", exact=True), ben.get_by_role("button", name=w["bid"], exact=True))

    at(cem, 3)
    expect(bar(cem)).to_have_text("▶ " + w["your turn"])
    taps.move("bid (two cards)", cem, cem.get_by_role("radiogroup", name=w["price for"].format(f"{w['red']} 3"), exact=True).get_by_text("5", exact=True),
              cem.get_by_role("radiogroup", name=w["price for"].format(f"{w['blue']} 7"), exact=True).get_by_text("2", exact=True),
              cem.get_by_role("button", name=w["bid"], exact=True))

    # Anna decides: each decision asks first, naming the card, the bidder and the price.
    at(anna, 4)
    expect(bar(anna)).to_have_text("▶ " + w["your turn"])
    red = anna.locator("form", has_text=f"{w['red']} 3")
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
    taps.move("demand", ben, ben.get_by_label(f"{w['blue']} 7 · Anna"), ben.get_by_role("radiogroup", name=w["price"], exact=True).get_by_text("3", exact=True),
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
    assert_accessible(host)
    shot(cem, f"senators-after-cash-in-{language}")
    most = taps.save(f"senators-{language}")
    assert most["auction (3 cards)"] == 4  # one tap per card, then Auction
    assert all(count <= 3 for move, count in most.items() if move != "auction (3 cards)"), most


LG = {
    "en": {"start": "Start day {}", "number": "Number token of {}", "visits": "{} visits", "passes": "{} passes", "keep": "Keep",
           "hand": "Hand {}", "wardrobe": "wardrobe {}", "servant": "servant {}", "take servant": "Take: servant",
           "took": "Anna takes wardrobe 1 (£200, 2★) in Anna's boutique.", "again": "Take wardrobe 1 again"},
    "de": {"start": "Tag {} beginnen", "number": "Zahlenplättchen von {}", "visits": "{} besucht", "passes": "{} passt", "keep": "Behalten",
           "hand": "Garderobe 2 (£100, 3★) geben an", "wardrobe": "Garderobe {}", "servant": "Dienstmädchen {}", "take servant": "Nehmen: Dienstmädchen",
           "took": "Anna nimmt Garderobe 1 (£200, 2★) in der Boutique von Anna.", "again": "Garderobe 1 wieder nehmen"},
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_ladies_and_gentlemen_day_on_six_phones_says_who_acts_and_takes_only_taps(server: str, browser: Browser, language: str) -> None:
    w, lg = WORDS[language], LG[language]
    seats = ["Anna", "Ben", "Cem", "Dora", "Emil"]  # teams Anna–Ben, Cem–Dora; Emil the courtesan
    host, phones = new_table(browser, server, "ladies-and-gentlemen", seats, tuple(seats))
    anna, ben, cem, dora, emil = (phones[name] for name in seats)
    host.get_by_role("link", name="To the table").click()
    for page in (host, *phones.values()):
        speak(page, language, server)
    taps = Taps()
    word = w["waiting"]

    taps.move("day", host, host.get_by_role("button", name=lg["start"].format(1)))
    # The morning: both gentlemen are waited for, each told it is his turn.
    at(anna, 1)
    expect(bar(anna)).to_have_text(word.format("Ben, Dora"))
    expect(bar(ben)).to_have_text("▶ " + w["your turn"])
    taps.move("number", ben, ben.locator("form", has_text=lg["number"].format("Ben")).get_by_role("button", name="1", exact=True))
    taps.move("number", dora, dora.locator("form", has_text=lg["number"].format("Dora")).get_by_role("button", name="2", exact=True))
    # The afternoon: the shoppers choose, each with one tap.
    at(anna, 3)
    expect(bar(ben)).to_have_text(word.format("Anna, Cem, Emil"))
    taps.move("visit", anna, anna.locator("form", has_text=lg["visits"].format("Anna")).get_by_role("button", name="Anna"))
    taps.move("visit", cem, cem.locator("form", has_text=lg["visits"].format("Cem")).get_by_role("button", name="Anna"))
    taps.move("visit", emil, emil.locator("form", has_text=lg["visits"].format("Emil")).get_by_role("button", name="Cem"))

    # Shopping: Anna goes first in her shared boutique, Emil shops alone in Cem's.
    at(cem, 6)
    expect(bar(cem)).to_have_text(word.format("Anna, Emil"))
    expect(bar(anna)).to_have_text("▶ " + w["your turn"])
    expect(bar(emil)).to_have_text("▶ " + w["your turn"])
    take = anna.locator("form").filter(has=anna.locator("input[value=take]")).last
    taps.move("take (new card)", anna, take.get_by_role("radiogroup", name=w["price"]).get_by_text("£200", exact=True),
              take.get_by_text("2★", exact=True), take.get_by_role("button", name=w["take"]))
    expect(anna.locator(".news")).to_have_text(lg["took"])
    expect(cem.locator(".news")).to_have_text(lg["took"])
    at(cem, 7)
    expect(bar(cem)).to_have_text("▶ " + w["your turn"])
    taps.move("pass", cem, cem.get_by_role("button", name=lg["passes"].format("Cem")))
    taps.move("pass", anna, anna.get_by_role("button", name=lg["passes"].format("Anna")))
    at(ben, 9)
    expect(ben.locator("#table")).not_to_contain_text("turn: Cem")
    # Only Emil is left, alone in a boutique: she need not pass, so the gentlemen may begin.
    expect(bar(ben)).to_have_text("▶ " + w["your turn"])
    expect(bar(anna)).to_have_text(word.format("Emil, Ben, Dora"))
    emil_take = emil.locator("form").filter(has=emil.locator("input[value=take]")).last
    taps.move("take (new card)", emil, emil_take.get_by_role("radiogroup", name=w["price"]).get_by_text("£100", exact=True),
              emil_take.get_by_text("3★", exact=True), emil_take.get_by_role("button", name=w["take"]))
    emil_take = emil.locator("form").filter(has=emil.locator("input[value=take]")).last
    taps.move("take (new card)", emil, emil_take.get_by_role("radiogroup", name=w["price"]).get_by_text("£300", exact=True),
              emil_take.get_by_text("4★", exact=True), emil_take.get_by_role("button", name=lg["take servant"]))

    # The evening: the courtesan hands on her cards; the gentlemen settle, each move asking first.
    taps.move("give", emil, emil.locator("form", has_text=lg["wardrobe"].format(2)).get_by_role("button", name="Ben"))
    taps.move("give", emil, emil.locator("form", has_text=lg["servant"].format(1)).get_by_role("button", name="Dora"))
    at(ben, 13)
    for card in (1, 2):
        taps.move("bill", ben, ben.locator("form", has_text=lg["wardrobe"].format(card)).get_by_role("button", name=w["return"], exact=True), confirm=True)
    taps.move("done", ben, ben.get_by_role("button", name=w["done tonight"]), confirm=True)
    at(dora, 16)
    taps.move("bill", dora, dora.locator("form", has_text=lg["servant"].format(1)).get_by_role("button", name=w["return"], exact=True), confirm=True)
    expect(bar(anna)).to_have_text(w["turn"].format("Dora"))
    taps.move("done", dora, dora.get_by_role("button", name=w["done tonight"]), confirm=True)
    at(emil, 18)
    expect(bar(emil)).not_to_contain_text(w["your turn"])
    taps.move("keep", emil, emil.get_by_label(lg["servant"].format(1)), emil.get_by_role("button", name=lg["keep"], exact=True))

    # Day 2: Anna shops alone in her boutique; the card returned under its deck is offered again.
    taps.move("day", host, host.get_by_role("button", name=lg["start"].format(2)))
    taps.move("number", ben, ben.locator("form", has_text=lg["number"].format("Ben")).get_by_role("button", name="1", exact=True))
    taps.move("number", dora, dora.locator("form", has_text=lg["number"].format("Dora")).get_by_role("button", name="2", exact=True))
    taps.move("visit", anna, anna.locator("form", has_text=lg["visits"].format("Anna")).get_by_role("button", name="Anna"))
    taps.move("visit", cem, cem.locator("form", has_text=lg["visits"].format("Cem")).get_by_role("button", name="Cem"))
    taps.move("visit", emil, emil.locator("form", has_text=lg["visits"].format("Emil")).get_by_role("button", name="Cem"))
    at(anna, 25)
    taps.move("take (a card seen before)", anna, anna.get_by_role("button", name=lg["again"]))
    expect(anna.locator(".news")).to_contain_text(lg["wardrobe"].format(1))
    assert_phone_friendly(anna)
    assert_accessible(anna)
    assert_accessible(ben)
    shot(anna, f"lg-day-2-{language}")
    shot(ben, f"lg-gentleman-{language}")
    most = taps.save(f"ladies-and-gentlemen-{language}")
    assert all(count <= 3 for count in most.values()), most


def test_a_refusal_stands_at_the_control_that_was_tapped_and_says_what_changed(server: str, browser: Browser) -> None:
    # Anna's phone misses the news (its live channel held back) while a take for Cem is
    # logged in her boutique; Anna then taps her own take: refused, next to her form, naming
    # Cem's move. Then she misses Emil's take in another boutique: hers stands beside it.
    seats = ["Anna", "Ben", "Cem", "Dora", "Emil"]
    host, phones = new_table(browser, server, "ladies-and-gentlemen", seats, ("Anna",))
    anna = phones["Anna"]
    host.get_by_role("link", name="To the table").click()
    taps = Taps()
    taps.move("day", host, host.get_by_role("button", name="Start day 1"))
    taps.move("number", host, host.locator("form", has_text="Number token of Ben").get_by_role("button", name="1", exact=True))
    taps.move("number", host, host.locator("form", has_text="Number token of Dora").get_by_role("button", name="2", exact=True))
    for shopper, boutique in (("Anna", "Anna"), ("Cem", "Anna"), ("Emil", "Cem")):
        taps.move("visit", host, host.locator("form", has_text=f"{shopper} visits").get_by_role("button", name=boutique))
    at(anna, 6)
    anna.route("**/live?**", lambda route: None)  # the phone hears nothing more:
    anna.evaluate("htmx.trigger('#table', 'retry')")  # its next poll replaces the one under way, and is held
    anna.wait_for_timeout(300)
    game_id = anna.url.split("/g/")[1].split("/")[0]
    # Cem's take in Anna's boutique (out of order: flagged, but logged): it conflicts with hers.
    api(server, f"/api/games/{game_id}/events", token_of(host),
        {"type": "take", "seat": 2, "boutique": "team-0", "card": {"name": "wardrobe 1", "kind": "wardrobe", "price": 100, "stars": 1}})
    form = anna.locator("form").filter(has=anna.locator("input[value=take]")).last
    form.get_by_role("radiogroup", name="Price").get_by_text("£500", exact=True).click()
    form.get_by_text("3★", exact=True).click()
    form.get_by_role("button", name="Take: wardrobe").click()
    refusal = anna.locator(".flash[role=alert]")
    expect(refusal).to_contain_text("The table changed meanwhile: Cem takes wardrobe 1 (£100, 1★) in Anna's boutique")
    expect(refusal).to_be_in_viewport()
    # It stands right after the form Anna tapped, which has her input back.
    assert refusal.evaluate("e => e.previousElementSibling.querySelector('input[value=take]') !== null")
    assert refusal.evaluate("e => e.previousElementSibling.querySelector('input[name=\"card.price\"][value=\"500\"]').checked")
    shot(anna, "refusal-at-the-control")
    # An update from another phone never wipes her half-made move: a note comes in, her choices stay.
    anna.unroute("**/live?**")
    anna.evaluate("htmx.trigger('#table', 'retry')")
    api(server, f"/api/games/{game_id}/events", token_of(host), {"type": "note", "text": "tea"})
    at(anna, 8)
    kept = anna.locator("form").filter(has=anna.locator("input[value=take]")).last
    assert kept.locator('input[name="card.price"][value="500"]').is_checked() and kept.locator('input[name="card.stars"][value="3"]').is_checked()
    # Deaf again, she misses Emil's take in Cem's boutique: her take, tapped again, stands beside it.
    anna.route("**/live?**", lambda route: None)
    anna.evaluate("htmx.trigger('#table', 'retry')")
    anna.wait_for_timeout(300)
    host.reload()
    taps.seq = 8
    emil = host.locator("form").filter(has=host.locator("input[name=seat][value='4']")).filter(has=host.locator("input[value=take]")).last
    taps.move("take", host, emil.get_by_role("radiogroup", name="Price").get_by_text("£100", exact=True), emil.get_by_text("1★", exact=True),
              emil.get_by_role("button", name="Take: wardrobe"))
    anna.locator("form").filter(has=anna.locator("input[value=take]")).last.get_by_role("button", name="Take: wardrobe").click()
    expect(anna.locator("#table")).to_have_attribute("data-seq", "10")
    assert anna.locator(".flash[role=alert]").count() == 0
