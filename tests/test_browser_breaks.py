"""The table's break on phones (360×640, Debian's Chromium, the real server), in English and
German: a seat taps Pause, every phone says since when, the host taps Resume; the result
page says how long the game was played, its breaks left out."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Browser, expect

from test_browser import assert_phone_friendly, browser, new_table, phone, phones_put_away, server, shot  # noqa: F401 (fixtures)
from test_browser_at_the_table import speak

pytestmark = pytest.mark.browser
WORDS = {"en": {"pause": "Pause", "resume": "Resume", "since": "Break since", "said": "The table takes a break.",
                "played": "Playing time, breaks left out: 35 min"},
         "de": {"pause": "Pause", "resume": "Weiter", "since": "Pause seit", "said": "Der Tisch macht eine Pause.",
                "played": "Spielzeit ohne Pausen: 35 Min."}}


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_seat_pauses_every_phone_says_since_when_and_the_host_resumes(server: str, browser: Browser, language: str) -> None:
    words = WORDS[language]
    host, phones = new_table(browser, server, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"], ("Anna",))
    anna = phones["Anna"]
    host.goto(anna.url)
    for page in (anna, host):
        speak(page, language, server)
    expect(anna.locator("button[data-break=pause]")).to_have_text(words["pause"])
    shot(anna, f"break-pause-button-{language}")
    anna.locator("button[data-break=pause]").click()  # one tap
    banner = anna.locator("#break")
    expect(banner).to_contain_text(words["since"])
    # The time of day in the phone's own clock, without "UTC" once the page has shown it.
    expect(banner.locator("time[data-clock]")).to_have_text(re.compile(r"^\d\d:\d\d$"))
    expect(anna.locator("#table")).to_contain_text(words["said"])
    expect(anna.locator("button[data-break=pause]")).to_have_count(0)
    assert_phone_friendly(anna)
    shot(anna, f"break-seat-{language}")
    expect(host.locator("#break")).to_contain_text(words["since"])  # the live update
    resume = host.locator("#break button[data-break=resume]")
    expect(resume).to_have_text(words["resume"])
    assert resume.bounding_box()["y"] < 640  # type: ignore[index]  # in sight at the top of the phone
    shot(host, f"break-host-{language}")
    resume.click()
    expect(anna.locator("#break")).to_have_count(0)
    expect(anna.locator("button[data-break=pause]")).to_contain_text(words["pause"])


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_result_page_shows_the_playing_time_without_the_breaks(server: str, browser: Browser, language: str) -> None:
    # 20:00 the deal, 20:30 a break until 21:15, 21:20 the table ends: 30 + 5 = 35 minutes.
    lines = [{"format": "table-record/1", "game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"], "options": {}},
             {"seq": 1, "type": "deal", "dealer": 3, "at": "2026-11-20T20:00:00+01:00"},
             {"seq": 2, "type": "pause", "at": "2026-11-20T20:30:00+01:00", "by": 1},
             {"seq": 3, "type": "resume", "at": "2026-11-20T21:15:00+01:00", "by": "host"},
             {"seq": 4, "type": "end", "reason": "late", "at": "2026-11-20T21:20:00+01:00", "by": "host"}]
    host = phone(browser).new_page()
    host.goto(f"{server}/import")
    speak(host, language, server)
    host.fill("textarea[name=text]", "\n".join(json.dumps(line) for line in lines) + "\n")
    host.locator("form button").last.click()
    host.goto(host.url.split("/history")[0] + "/result")
    expect(host.locator("#playing-time")).to_have_text(WORDS[language]["played"])
    assert_phone_friendly(host)
    shot(host, f"break-playing-time-{language}")
