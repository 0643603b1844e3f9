"""A group's evening on five phones (360×640, Debian's Chromium, the real server): each
phone opens the group's link and says whose it is; the host starts Employee of the Month
for the five, and every member's phone, waiting on the group page or its home page, is
offered its seat at once and takes it with one tap, no code. The game over, the host starts
the next with "Again, next dealer" on the finished table, and the one after with "Again,
same seats" on the group page: each phone is offered its seat again where it is. Four
phones speak English, Dora's German."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect
import pytest

from test_browser import api, assert_phone_friendly, browser, phone, phones_put_away, server, shot  # noqa: F401 (fixtures)
from test_browser_at_the_table import assert_accessible

pytestmark = pytest.mark.browser
PLAYERS = ("Anna", "Ben", "Cem", "Dora", "Eva")
LANGUAGE = {"Dora": "de"}
WORDS = {
    "en": {"me": "That is me", "take": "Take {}'s seat", "next": "Next game: Employee of the Month — take your seat",
           "again next": "Again, next dealer", "again same": "Again, same seats"},
    "de": {"me": "Das bin ich", "take": "Platz von {} übernehmen", "next": "Nächstes Spiel: Employee of the Month – nimm deinen Platz ein",
           "again next": "Noch einmal, nächster Geber", "again same": "Noch einmal, gleiche Plätze"},
}
OFFER = 15_000  # ms: the offer comes with the phone's next ask (every 3 s), on a machine shared by many


def words(name: str) -> dict[str, str]:
    return WORDS[LANGUAGE.get(name, "en")]


def sit_down(page: Page, name: str) -> None:
    """The member's phone takes its seat with one tap, where it is."""
    take = page.get_by_role("button", name=words(name)["take"].format(name))
    expect(take).to_be_visible(timeout=OFFER)
    take.click()
    expect(page.locator("#table > p.muted strong").first).to_have_text(name)


def end_game(server: str, host: Page) -> str:
    """The host ends the game (the table stops here); its id."""
    game_id = host.url.split("/g/")[1].split("/")[0]
    token = next(c["value"] for c in host.context.cookies() if c["name"] == "referee_token" and c["path"] == f"/g/{game_id}")
    api(server, f"/api/games/{game_id}/events", token, {"type": "end"})
    return game_id


def test_five_phones_sit_down_in_one_tap_over_three_games(server: str, browser: Browser) -> None:
    phones: dict[str, Page] = {}
    for name in PLAYERS:
        phones[name] = phone(browser).new_page()
        phones[name].context.add_cookies([{"name": "lang", "value": LANGUAGE.get(name, "en"), "url": server}])
    anna = phones["Anna"]
    anna.goto(server)
    anna.fill("input[name=name]", "Freitagsrunde")
    anna.locator("form[action='/groups'] button").click()
    group_url = anna.url
    link = anna.locator(".qr + p a").get_attribute("href") or ""
    for name, page in phones.items():  # each phone says whose it is (new names join the group)
        if name != "Anna":
            page.goto(link.replace(link.split("/groups/")[0], server))
        page.fill("#me-name", name)
        page.get_by_role("button", name=words(name)["me"]).click()
        expect(page.locator("#me")).to_contain_text(name)
    assert_phone_friendly(phones["Dora"])
    assert_accessible(phones["Dora"])
    shot(phones["Dora"], "group-evening-member-de")
    for name in ("Dora", "Eva"):  # these two wait on their home pages, Ben and Cem on the group's
        phones[name].goto(server)

    # Game 1: the host taps the five names in seating order and plays Anna.
    anna.locator("a[href*='game=employee-of-the-month']").click()
    for name in PLAYERS:
        anna.locator(f"button[data-line='{name}']").click()
    anna.check("input[name=plays][value='Anna']")
    anna.get_by_role("button", name="Start the game").click()
    anna.wait_for_url("**/host")
    expect(phones["Eva"].get_by_text(WORDS["en"]["next"])).to_be_visible(timeout=OFFER)  # on the home page, without a reload
    assert_phone_friendly(phones["Eva"])
    assert_accessible(phones["Eva"])
    shot(phones["Eva"], "group-evening-home-offer")
    expect(phones["Dora"].get_by_text(WORDS["de"]["next"])).to_be_visible(timeout=OFFER)
    shot(phones["Dora"], "group-evening-home-offer-de")
    expect(phones["Ben"].get_by_text(WORDS["en"]["next"])).to_be_visible(timeout=OFFER)
    shot(phones["Ben"], "group-evening-group-offer")
    for name in PLAYERS[1:]:
        sit_down(phones[name], name)
    first = end_game(server, anna)

    # Game 2: "Again, next dealer" on the finished table; each phone is offered its seat on its own finished table.
    anna.goto(f"{server}/g/{first}")
    again = anna.get_by_role("button", name=WORDS["en"]["again next"])
    expect(again).to_be_visible()
    assert_phone_friendly(anna)
    assert_accessible(anna)
    shot(anna, "group-evening-again")
    again.click()
    anna.wait_for_url("**/host")
    expect(phones["Cem"].get_by_text(WORDS["en"]["next"])).to_be_visible(timeout=OFFER)
    assert_phone_friendly(phones["Cem"])
    assert_accessible(phones["Cem"])
    shot(phones["Cem"], "group-evening-next-game")
    for name in PLAYERS[1:]:
        sit_down(phones[name], name)
    second = end_game(server, anna)
    assert second != first

    # Game 3: "Again, same seats" on the group page; Ben and Cem wait there, Dora and Eva at home.
    for name, place in (("Ben", group_url), ("Cem", group_url), ("Dora", server), ("Eva", server)):
        phones[name].goto(place)
    anna.goto(group_url)
    assert_phone_friendly(anna)
    assert_accessible(anna)
    shot(anna, "group-evening-group-host")
    anna.get_by_role("button", name=WORDS["en"]["again same"]).click()
    anna.wait_for_url("**/host")
    for name in PLAYERS[1:]:
        sit_down(phones[name], name)
    shot(phones["Dora"], "group-evening-seated-de")
    anna.goto(group_url)
    expect(anna.locator("#games + ul li")).to_have_count(3)  # the evening's three games, one after another
