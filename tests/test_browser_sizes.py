"""Issue 39's features at a phone's (360×640), a tablet's (768×1024) and a TV's (1920×1080)
size, in Debian's Chromium against the real server, in English and German, light and dark:
the live table's Pause, a finished game's result with its playing time and Share, and the
group's statistics with the playing times and every player's rating, in rows and in the
chart with its dates. Whatever the screen, nothing scrolls sideways, nothing is cut off or
covered, the text is large enough for it (a TV's for the sofa) in lines short enough to
read, and axe-core finds nothing (contrast AA included). The board has its own sizes test."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Locator, Page, expect

from test_browser import OPEN_PHONES, browser, phones_put_away, server, shot  # noqa: F401 (fixtures)
from test_browser_board import kp_table
from test_browser_themes import EVENINGS

pytestmark = pytest.mark.browser
EVENTS = Path(__file__).resolve().parent.parent / "events"
SCREENS = {"phone": {"width": 360, "height": 640}, "tablet": {"width": 768, "height": 1024}, "tv": {"width": 1920, "height": 1080}}
PLAYERS = ["Anna", "Ben", "Cem", "Dora"]
BREAK_AFTER, BREAK_MINUTES = 60, 20  # the FTW evening's break: after its 60th event, for 20 minutes
WORDS = {"en": {"pause": "Pause", "share": "Share the result", "played": "Playing time, breaks left out: 2 h 16 min",
                "chart": "Ratings over the evenings", "evenings": [date for _, date in EVENINGS]},
         "de": {"pause": "Pause", "share": "Ergebnis teilen", "played": "Spielzeit ohne Pausen: 2 Std. 16 Min.",
                "chart": "Wertungen über die Spieleabende", "evenings": [".".join(reversed(date.split("-"))) for _, date in EVENINGS]}}
TEXT_PX = {"phone": 18, "tablet": 18, "tv": 22}  # the text at least: a TV is read from the sofa
SHOWN_IN = {"phone": "de", "tablet": "en", "tv": "en"}  # the screenshots' language: German's long words on the narrowest screen
WCAG_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]}}  # axe's rules for WCAG 2.2 AA

# Why a person would say an element is not there: empty, beyond the screen's sides, clipped
# by a box that scrolls or hides its overflow (a table's scroller, the chart's SVG), or
# covered by something else once scrolled to (the turn bar, a sticky line).
NOT_SEEN = """(e, width) => {
  e.scrollIntoView({block: 'center', inline: 'nearest'});
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height) return 'not shown';
  if (r.left < -1 || r.right > width + 1) return `beyond the screen: ${Math.round(r.left)}..${Math.round(r.right)}`;
  for (let box = e.parentElement; box; box = box.parentElement) {
    const s = getComputedStyle(box);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const b = box.getBoundingClientRect();
    const inside = r.left >= b.left - 1 && r.right <= b.right + 1 && r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
    if (!inside) return `cut off by ${box.tagName} ${box.className.baseVal ?? box.className}`;
  }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit && e.contains(hit) ? '' : `covered by ${hit && hit.outerHTML.slice(0, 80)}`;
}"""


def timed_group_file() -> bytes:
    """The group's four evenings as the phones logged them: from 19:00 a move a minute; at
    FTW a 20-minute break after the 60th move, so its 136 moves, the pause and the resume
    span 157 minutes, 136 of them played."""
    games = []
    for sample, date in EVENINGS:
        header, *lines = (EVENTS / f"{sample}.jsonl").read_text(encoding="utf-8").splitlines()
        moves = [json.loads(line) for line in lines]
        if sample.startswith("ftw"):
            moves[BREAK_AFTER:BREAK_AFTER] = [{"type": "pause", "by": "host"}, {"type": "resume", "by": "host"}]
        start, breaks = datetime.fromisoformat(f"{date}T19:00:00+00:00"), timedelta(0)
        for seq, move in enumerate(moves, start=1):
            breaks += timedelta(minutes=BREAK_MINUTES) if move["type"] == "resume" else timedelta(0)
            move.update(seq=seq, at=(start + timedelta(minutes=seq) + breaks).isoformat())
        record = "\n".join(json.dumps(line) for line in [{**json.loads(header), "started_at": start.isoformat()}, *moves]) + "\n"
        games.append({"seats": json.loads(header)["seats"], "record": record})
    return json.dumps({"format": "table-group/1", "name": "Freitagsrunde", "players": [{"name": p} for p in PLAYERS], "games": games}).encode()


@pytest.fixture(scope="module")
def evening(server: str, browser: Browser) -> dict[str, Any]:
    """A live Karriere Poker table (its host's token) and a group of four timed evenings,
    imported in a browser whose cookies (the group's membership) every screen takes."""
    live, host_token = kp_table(server)
    importer = browser.new_context()
    page = importer.new_page()
    page.goto(server)
    page.set_input_files("#group-file", files=[{"name": "group.json", "mimeType": "application/json", "buffer": timed_group_file()}])
    page.locator("form:has(#group-file) button").click()
    expect(page.locator("h1")).to_have_text("Freitagsrunde")
    stats = page.url.removeprefix(server) + "/stats"
    page.goto(server + stats)
    ftw = page.locator("#evenings a", has_text="FTW?! am Sonntag").get_attribute("href")
    cookies = importer.cookies()
    importer.close()
    return {"live": live, "host_token": host_token, "stats": stats, "result": ftw, "cookies": cookies}


def problems_on(page: Page, where: str, seen: dict[str, Locator]) -> list[tuple[str, str, str]]:
    """What a person at this screen would find wrong: sideways scrolling, a key element
    (`seen`, by what it is) not in sight, and what axe finds. The screen's own width, not
    innerWidth: a phone's browser widens its layout to take in what sticks out."""
    found = []
    width = page.viewport_size["width"]  # type: ignore[index]
    if page.evaluate("document.scrollingElement.scrollWidth") > width:
        found.append((where, "scrolls sideways", str(page.evaluate("document.scrollingElement.scrollWidth"))))
    for what, element in seen.items():
        why = element.evaluate(NOT_SEEN, width) if element.count() == 1 else f"{element.count()} found"
        if why:
            found.append((where, what, why))
    found.extend((where, v["id"], str([n["html"][:100] for n in v["nodes"]][:2])) for v in Axe().run(page, options=WCAG_AA).response["violations"])
    return found


def reading(page: Page) -> tuple[float, float]:
    """The text's size in px, and the column's width in ems: over 40, lines grow too long to read."""
    text, column = page.evaluate("[parseFloat(getComputedStyle(document.body).fontSize), document.querySelector('main').clientWidth]")
    return text, column / text


@pytest.mark.parametrize("size", list(SCREENS))
def test_pause_result_and_ratings_fit_the_screen_in_both_languages_and_themes(server: str, browser: Browser, evening: dict[str, Any], size: str) -> None:
    context = browser.new_context(viewport=SCREENS[size], is_mobile=size != "tv", has_touch=size != "tv")
    OPEN_PHONES.append(context)
    context.add_cookies([*evening["cookies"], {"name": "referee_token", "value": evening["host_token"], "url": f"{server}/g/{evening['live']}"}])
    page = context.new_page()
    found = []
    for language in ("en", "de"):
        words = WORDS[language]
        for theme in ("light", "dark"):
            context.add_cookies([{"name": "lang", "value": language, "url": server}, {"name": "theme", "value": theme, "url": server}])
            where = f"{size} {language} {theme}"
            page.goto(f"{server}/g/{evening['live']}")  # the host's phone at the live table
            expect(page.locator("html")).to_have_attribute("data-theme", theme)
            pause = page.locator("button[data-break=pause]")
            expect(pause).to_have_text(words["pause"])
            found += problems_on(page, f"{where} table", {"Pause": pause})
            if language == SHOWN_IN[size]:
                shot(page, f"sizes-table-{size}-{language}-{theme}")
            page.goto(server + evening["result"])
            expect(page.locator("#playing-time")).to_have_text(words["played"])
            expect(page.locator("#share")).to_have_text(words["share"])
            found += problems_on(page, f"{where} result", {"playing time": page.locator("#playing-time"), "Share": page.locator("#share")})
            text_px, column_em = reading(page)
            if text_px < TEXT_PX[size] or column_em > 40:
                found.append((f"{where} result", "hard to read", f"{text_px} px text in lines of {column_em:.0f} em"))
            if language == SHOWN_IN[size]:
                shot(page, f"sizes-result-{size}-{language}-{theme}")
            page.goto(server + evening["stats"])
            seen = {"playing times": page.locator("#lengths-table")}
            chart = page.locator(f"figure[aria-label='{words['chart']}']")
            for name in PLAYERS:
                seen[f"{name}'s rating"] = page.locator("table.ratings[data-game=all] tr", has=page.get_by_role("cell", name=name, exact=True))
                seen[f"{name} in the chart's legend"] = chart.locator(".legends text", has_text=name)
            for date in words["evenings"]:  # whole, under the chart: "2025-03-06", not "2025-0…"
                seen[f"the chart's {date}"] = chart.locator(".axis.x text", has_text=date)
            found += problems_on(page, f"{where} statistics", seen)
            if language == SHOWN_IN[size]:
                shot(page, f"sizes-statistics-{size}-{language}-{theme}")
    assert found == []
