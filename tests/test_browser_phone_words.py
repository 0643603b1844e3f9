"""Words and room on a 360×640 phone (Debian's Chromium, the real server), in English and
German: the New game form asks by the typed names who plays on this phone and who starts,
History reads in sentences with step buttons that stay under the thumb, and a group of
five reads every column of its statistics and every name of a chart's legend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from test_browser import assert_phone_friendly, browser, phone, phone_in, phones_put_away, server, shot  # noqa: F401 (fixtures)
from test_browser_at_the_table import assert_accessible

pytestmark = pytest.mark.browser
EVENTS = Path(__file__).resolve().parent.parent / "events"

WORDS = {
    "en": {"who": "Who plays on this phone?", "nobody": "Nobody plays on this phone", "ben": "I play: Ben", "start": "Start the game",
           "plays": "This phone plays Ben", "import": "Import and replay", "dealt": "Anna logs the hand: red 7, yellow 2, orange 7.",
           "withdrawn": "Event 8 withdrawn", "one point": "So far one point", "one on": "One event on"},
    "de": {"who": "Wer spielt auf diesem Handy?", "nobody": "Niemand spielt auf diesem Handy", "ben": "Ich spiele: Ben", "start": "Spiel starten",
           "plays": "Dieses Handy spielt Ben", "import": "Importieren und nachspielen", "dealt": "Anna trägt die Hand ein: rot 7, gelb 2, orange 7.",
           "withdrawn": "Ereignis 8 zurückgezogen", "one point": "Bisher ein Punkt", "one on": "Ein Ereignis weiter"},
}
FITS = """() => [...document.querySelectorAll('table')].filter(t => t.getClientRects().length)
  .map(t => [t.closest('.scroll') ? t.closest('.scroll').clientWidth : t.clientWidth, t.scrollWidth])"""
LEGEND_INSIDE = """() => [...document.querySelectorAll('svg.pygal-chart')].map(svg => {
  const box = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('.legends .legend text')].map(t => { const r = t.getBoundingClientRect();
    return [t.textContent, r.left >= box.left - 1 && r.right <= Math.min(box.right, innerWidth) + 1 && r.bottom <= box.bottom + 1]; });
})"""


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_new_game_form_asks_by_name_who_plays_here_and_who_starts(server: str, browser: Browser, language: str) -> None:
    words = WORDS[language]
    host = phone_in(browser, server, language)
    host.goto(f"{server}/new?game=ftw")
    host.fill("#seats", "Anna\nBen\nCem")
    expect(host.locator("#plays")).to_contain_text(words["who"])
    expect(host.locator("#plays label")).to_have_count(4)  # each typed name, and nobody
    expect(host.locator("#first option")).to_have_text(["Anna", "Ben", "Cem"])
    expect(host.locator("input[name=plays]:checked")).to_have_count(0)
    host.get_by_role("button", name=words["start"]).click()  # nothing chosen: the form asks, nothing is made
    assert "/new" in host.url and host.evaluate("document.querySelector('input[name=plays]').validity.valueMissing")
    host.fill("#seats", "Anna\nBen\nCem\nDora")  # a name more: offered at once, the choice so far kept
    host.get_by_label(words["ben"]).check()
    host.fill("#seats", "Anna\nBen\nCem\nDora\nEmil")
    expect(host.get_by_label(words["ben"])).to_be_checked()
    host.select_option("#first", "Dora")
    assert_phone_friendly(host)
    assert host.evaluate("[...document.querySelectorAll('#plays label')].every(l => l.getBoundingClientRect().right <= innerWidth)")
    assert_accessible(host)
    shot(host, f"words-new-game-{language}")
    host.get_by_role("button", name=words["start"]).click()
    expect(host.locator("main")).to_contain_text(words["plays"])


@pytest.mark.parametrize("language", ["en", "de"])
def test_history_reads_in_sentences_and_its_step_buttons_stay_put(server: str, browser: Browser, language: str) -> None:
    words = WORDS[language]
    page = phone_in(browser, server, language)
    page.goto(f"{server}/import")
    page.fill("#text", (EVENTS / "senators-4-players-flags.jsonl").read_text(encoding="utf-8"))
    page.get_by_role("button", name=words["import"]).click()
    expect(page.locator("#e1")).to_contain_text(words["dealt"])
    expect(page.locator("#e9")).to_contain_text(words["withdrawn"])
    page.locator("#e6 > a").click()
    places = []
    for _ in range(3):
        step = page.get_by_role("link", name=words["one on"])
        places.append(step.bounding_box())
        step.click()
        page.wait_for_load_state()
    assert places[0] == places[1] == places[2], places
    assert_phone_friendly(page)
    assert_accessible(page)
    shot(page, f"words-history-{language}")


def group_file(tmp: Path) -> Path:
    """A group of five whose evening held a Karriere Poker match and an Employee of the Month."""
    names = ("karriere-poker-5-players-flags", "employee-of-the-month-5-players-flags")
    games = [{"id": f"g{n}", "created_at": "2026-11-20T20:00:00+00:00", "seats": ["Anna", "Ben", "Cem", "Dora", "Emil"],
              "record": (EVENTS / f"{name}.jsonl").read_text(encoding="utf-8")} for n, name in enumerate(names)]
    path = tmp / "group.json"
    path.write_text(json.dumps({"format": "table-group/1", "name": "Fünf", "players": [{"name": n} for n in games[0]["seats"]], "games": games}))
    return path


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_group_of_five_reads_every_column_and_legend_on_a_phone(server: str, browser: Browser, language: str, tmp_path: Path) -> None:
    page = phone_in(browser, server, language)
    page.goto(server)
    page.set_input_files("#group-file", str(group_file(tmp_path)))
    page.locator("#group-file + button").click()
    page.locator("a[href$='/stats']").first.click()
    expect(page.locator("table.per-game")).to_have_count(2)
    assert all(scrolled <= shown for shown, scrolled in page.evaluate(FITS)), page.evaluate(FITS)
    expect(page.locator("figure").first).to_contain_text(WORDS[language]["one point"])  # one evening: no chart, a sentence
    assert_phone_friendly(page)
    assert_accessible(page)
    shot(page, f"words-group-stats-{language}")

    page.goto(f"{server}/import")  # six players' running totals: every name in the legend in sight
    page.fill("#text", (EVENTS / "ftw-6-players-flags.jsonl").read_text(encoding="utf-8"))
    page.locator("form button.primary").click()
    page.goto(page.url.replace("/history", "/result"))
    legends = page.evaluate(LEGEND_INSIDE)
    assert legends and all(len(chart) == 6 and all(inside for _, inside in chart) for chart in legends), legends
    shot(page, f"words-chart-legend-{language}")
