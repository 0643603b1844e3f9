"""Dark evenings on real phones (360×640, Debian's Chromium, the real server): the app
follows the phone's light or dark setting, the Light/dark switch keeps a choice on this
phone, every main page passes axe (contrast AA included) in both themes, and the group's
statistics with its ratings fit a phone in both themes, in English and German."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from test_browser import (ARTIFACTS, PHONE, OPEN_PHONES, assert_phone_friendly, browser, imported, phones_put_away, server,  # noqa: F401 (fixtures)
                          shot)
from test_browser_at_the_table import assert_accessible

pytestmark = pytest.mark.browser
EVENTS = Path(__file__).resolve().parent.parent / "events"
DARK_PAPER, LIGHT_PAPER = "rgb(18, 20, 22)", "rgb(255, 255, 255)"
WORDS = {"en": {"switch": "Light/dark", "light": "Light", "dark": "Dark", "auto": "Auto (as the phone is set)", "ratings": "Ratings",
                "chart": "Ratings over the evenings"},
         "de": {"switch": "Hell/Dunkel", "light": "Hell", "dark": "Dunkel", "auto": "Automatisch (wie am Handy eingestellt)",
                "ratings": "Wertungen", "chart": "Wertungen über die Spieleabende"}}
# A group's four evenings: (sample record, the evening's date); the file stays under the 64 KB a request may carry.
EVENINGS = [("employee-of-the-month-3-players", "2025-03-06"), ("ftw-3-players", "2025-03-13"),
            ("ladies-and-gentlemen-4-players", "2025-03-27"), ("karriere-poker-4-players", "2025-04-03")]


def phone_set_to(browser: Browser, scheme: str, language: str = "en", server: str = "") -> Page:
    """A phone whose own setting is light or dark, its app in `language`."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-GB", color_scheme=scheme)
    OPEN_PHONES.append(context)
    if server:
        context.add_cookies([{"name": "lang", "value": language, "url": server}])
    return context.new_page()


def paper(page: Page) -> str:
    return str(page.evaluate("getComputedStyle(document.body).backgroundColor"))


def choose(page: Page, language: str, choice: str) -> None:
    """Tap the Light/dark switch in the bar, then a choice."""
    page.locator("details.theme summary").click()
    page.get_by_role("link", name=WORDS[language][choice], exact=True).click()


def test_the_app_follows_the_phones_setting_until_the_switch_keeps_another_choice(server: str, browser: Browser) -> None:
    evening = phone_set_to(browser, "dark")
    evening.goto(server)
    assert paper(evening) == DARK_PAPER  # the phone is dark: so is the app
    shot(evening, "theme-home-dark")
    choose(evening, "en", "light")
    assert paper(evening) == LIGHT_PAPER
    evening.goto(f"{server}/new?game=ftw")
    assert paper(evening) == LIGHT_PAPER  # kept on this phone, on every page
    expect(evening.locator("details.theme a[aria-current]")).to_have_text("Light")
    choose(evening, "en", "auto")
    assert paper(evening) == DARK_PAPER  # as the phone is set again
    day = phone_set_to(browser, "light")
    day.goto(server)
    assert paper(day) == LIGHT_PAPER
    choose(day, "en", "dark")
    assert paper(day) == DARK_PAPER
    assert_accessible(day)
    shot(day, "theme-home-switched-dark")
    assert day.goto(f"{server}/theme/sepia").status == 404  # type: ignore[union-attr]


def group_file(name: str) -> bytes:
    """A group's file: the four evenings' records, each started on its evening."""
    games = []
    for sample, date in EVENINGS:
        header, *lines = (EVENTS / f"{sample}.jsonl").read_text(encoding="utf-8").splitlines()
        started = {**json.loads(header), "started_at": f"{date}T19:00:00+00:00"}
        games.append({"seats": started["seats"], "record": "\n".join([json.dumps(started), *lines]) + "\n"})
    players = sorted({seat for game in games for seat in game["seats"]})
    return json.dumps({"format": "table-group/1", "name": name, "players": [{"name": p} for p in players], "games": games}).encode()


def import_group(page: Page, server: str, name: str) -> str:
    """The group's file imported on this phone (its member and host): the group's page."""
    page.goto(server)
    page.set_input_files("#group-file", files=[{"name": "group.json", "mimeType": "application/json", "buffer": group_file(name)}])
    page.locator("form:has(#group-file) button").click()
    expect(page.locator("h1")).to_have_text(name)
    return page.url


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_every_main_page_passes_axe_in_both_themes(server: str, browser: Browser, imported: dict[str, str], theme: str) -> None:
    # A phone set to dark: as it is, and switched to Light on the app's own switch.
    page = phone_set_to(browser, "dark")
    page.goto(server)
    if theme == "light":
        choose(page, "en", "light")
    expected = DARK_PAPER if theme == "dark" else LIGHT_PAPER
    found = []

    def check(path: str) -> None:
        """The page (or the one shown, for no path) is in the theme and axe finds nothing serious."""
        if path:
            page.goto(f"{server}{path}")
        assert paper(page) == expected, path
        violations = Axe().run(page).response["violations"]
        found.extend((path, v["id"], [n["html"][:100] for n in v["nodes"]][:2]) for v in violations if v["impact"] in ("serious", "critical"))

    check("/")
    check("/new?game=ladies-and-gentlemen")
    page.fill("#seats", "Anna\nBen\nCem\nDora")
    page.check("input[name=plays][value='']")
    page.get_by_role("button", name="Start the game").click()
    check("")  # the host page
    shot(page, f"theme-host-{theme}")
    for kind in ("karriere-poker-5-players-flags", "employee-of-the-month-5-players-flags", "ftw-6-players-flags", "senators-4-players-flags",
                 "ladies-and-gentlemen-5-players-courtesan-wins"):
        for path in (f"/g/{imported[kind]}", f"/g/{imported[kind]}/history", f"/g/{imported[kind]}/result"):
            check(path)
    shot(page, f"theme-result-{theme}")
    group_url = import_group(page, server, f"Dunkle Runde {theme}")
    check(group_url.removeprefix(server))
    check(group_url.removeprefix(server) + "/stats")
    assert found == []


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("language", ["en", "de"])
def test_the_groups_ratings_fit_a_phone_in_both_themes(server: str, browser: Browser, language: str, theme: str) -> None:
    words = WORDS[language]
    page = phone_set_to(browser, theme, language, server)
    group_url = import_group(page, server, f"Bewertete Runde {language} {theme}")
    page.goto(f"{group_url}/stats#ratings")
    expect(page.locator("#ratings")).to_have_text(words["ratings"])
    # Overall, best first: the rating column falls; one table per game beside it.
    rows = page.locator("table.ratings[data-game=all] tr").all_inner_texts()[1:]
    names = [row.split("\t")[0] for row in rows]
    ratings = [float(row.split("\t")[1].replace(",", ".")) for row in rows]
    assert sorted(names) == ["Anna", "Ben", "Cem", "Dora"] and ratings == sorted(ratings, reverse=True)
    assert all(re.fullmatch(r"\d+ ± \d+", row.split("\t")[2]) for row in rows)
    assert page.locator("table.ratings").count() == 1 + len(EVENINGS)  # all games, and each game
    chart = page.locator(f"figure[aria-label='{words['chart']}'] svg")
    expect(chart).to_be_visible()
    assert chart.evaluate("s => s.getBoundingClientRect().width") <= PHONE["width"]
    legend = chart.locator(".legends text").first  # readable on the phone, in the theme's ink
    assert legend.evaluate("t => getComputedStyle(t).fill") == page.evaluate("getComputedStyle(document.body).color")
    assert paper(page) == (DARK_PAPER if theme == "dark" else LIGHT_PAPER)
    assert_phone_friendly(page)
    assert_accessible(page)
    shot(page, f"ratings-{theme}-{language}")
    page.locator("#ratings").evaluate("h => h.scrollIntoView()")  # what the phone shows: the ratings, then the chart
    page.screenshot(path=str(ARTIFACTS / f"ratings-{theme}-{language}-screen.png"))
    chart.screenshot(path=str(ARTIFACTS / f"ratings-chart-{theme}-{language}.png"))
