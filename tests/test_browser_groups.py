"""A group's evening on real phones (360×640, Debian's Chromium, the real server), in
English and German: the group is made on one phone, its players are tapped into the seats,
a finished game offers BG Stats and leads to the statistics with their charts, a second
phone joins by the group's link, a third (outside) sees nothing, a spelling is merged, and
a renewed link shuts the second phone out until it opens the new one. Past ten games, the
group's page pages back through them. A game started outside the group is put into it
from its host page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from test_browser import api, assert_phone_friendly, browser, phone, phone_in, phones_put_away, server, shot  # noqa: F401 (fixtures)
from test_browser_at_the_table import assert_accessible

pytestmark = pytest.mark.browser
EVENTS = Path(__file__).resolve().parent.parent / "events"

WORDS = {
    "en": {"start": "Start the game", "bgstats": "Log in BG Stats", "statistics": "The group's statistics", "stats": "Statistics",
           "finished": "2 finished games", "wins": "Wins over the evenings", "points": "Points per game: Employee of the Month",
           "merge": "Merge", "compare": "Compare", "versus": "played 2 games together", "offline": "You are offline",
           "new link": "New link", "renewed": "The group has a new link.", "older": "Older games", "newer": "Newer games",
           "add": "Add to the group", "added": "The game belongs to Donnerstagsrunde en now."},
    "de": {"start": "Spiel starten", "bgstats": "In BG Stats eintragen", "statistics": "Statistik der Gruppe", "stats": "Statistik",
           "finished": "2 beendete Spiele", "wins": "Siege über die Spieleabende", "points": "Punkte pro Spiel: Employee of the Month",
           "merge": "Zusammenführen", "compare": "Vergleichen", "versus": "haben 2 Spiele zusammen gespielt", "offline": "Du bist offline",
           "new link": "Neuer Link", "renewed": "Die Gruppe hat einen neuen Link.", "older": "Ältere Spiele", "newer": "Neuere Spiele",
           "add": "Zur Gruppe hinzufügen", "added": "Das Spiel gehört jetzt zu Donnerstagsrunde de."},
}


def play_sample(server: str, page: Page, name: str) -> None:
    """The host's phone logs a sample game's moves (over the API, with the host's token)."""
    game_id = page.url.split("/g/")[1].split("/")[0]
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "referee_token" and c["path"] == f"/g/{game_id}")
    for line in (EVENTS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()[1:]:
        body: dict[str, Any] = {k: v for k, v in json.loads(line).items() if k != "seq"}
        api(server, f"/api/games/{game_id}/events", token, body)


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_group_evening_on_phones(server: str, browser: Browser, language: str) -> None:
    words = WORDS[language]
    host = phone_in(browser, server, language)
    host.goto(server)
    host.fill("input[name=name]", f"Donnerstagsrunde {language}")
    host.locator("form[action='/groups'] button").click()
    expect(host.locator("h1")).to_have_text(f"Donnerstagsrunde {language}")
    group_url = host.url
    shot(host, f"group-empty-{language}")

    # The first game: nobody is in the group yet, the names are typed and join it.
    host.locator("a[href*='game=employee-of-the-month']").click()
    host.fill("#seats", "Anna\nBen\nCem")
    host.check("input[name=plays][value='']")  # nobody plays on this phone
    host.get_by_role("button", name=words["start"]).click()
    play_sample(server, host, "employee-of-the-month-3-players")

    # The second game: the group's players are tapped in seating order, a tap again unseats.
    host.goto(group_url)
    host.locator("a[href*='game=employee-of-the-month']").click()
    for name in ("Anna", "Cem", "Ben", "Cem", "Cem"):
        host.locator(f"button[data-line='{name}']").click()
    expect(host.locator("#seats")).to_have_value("Anna\nBen\nCem")
    expect(host.locator("button[data-line='Anna']")).to_have_attribute("aria-pressed", "true")
    assert_phone_friendly(host)
    assert_accessible(host)
    shot(host, f"group-new-game-{language}")
    host.check("input[name=plays][value='']")  # nobody plays on this phone
    host.get_by_role("button", name=words["start"]).click()
    play_sample(server, host, "employee-of-the-month-3-players")

    # The scores of a finished game: BG Stats, and the group's statistics.
    host.goto(host.url.replace("/host", "/result"))
    bgstats = host.get_by_role("link", name=words["bgstats"])
    assert (bgstats.get_attribute("href") or "").startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    shot(host, f"group-result-{language}")
    host.get_by_role("link", name=words["statistics"]).click()
    expect(host.locator("main")).to_contain_text(words["finished"])
    expect(host.locator("#players")).to_contain_text("Anna")
    # One evening is no line: its wins in a sentence; two plays make the points per game a chart.
    expect(host.locator("figure").first).to_have_attribute("aria-label", words["wins"])
    assert host.locator("figure").first.locator("svg").count() == 0
    assert host.locator("figure svg").count() == 1
    expect(host.locator("figure").nth(1)).to_have_attribute("aria-label", words["points"])
    legend = host.locator("figure svg .legends text").first  # readable at 360 px: at least 14 px on the screen
    assert legend.evaluate("t => t.getBoundingClientRect().height") >= 14
    host.locator("select[name=a]").select_option("Anna")
    host.locator("select[name=b]").select_option("Cem")
    host.get_by_role("button", name=words["compare"]).click()
    expect(host.locator("#versus-result")).to_contain_text(words["versus"])
    assert_phone_friendly(host)
    assert_accessible(host)
    shot(host, f"group-stats-{language}")

    # A friend opens the group's link; someone outside the group sees nothing of it.
    host.goto(group_url)
    link = host.locator(".qr + p a").get_attribute("href") or ""
    friend = phone_in(browser, server, language)
    friend.goto(link.replace(link.split("/groups/")[0], server))
    expect(friend.locator("h1")).to_have_text(f"Donnerstagsrunde {language}")
    # The friend's phone loses the network: a statistics page cannot be had (these pages are
    # not live, nothing is half-sent): the app's offline page says so, not the browser's
    # error; back online, the same page comes.
    friend.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    friend.reload()  # now the app's service worker answers this phone's page loads
    friend.context.set_offline(True)
    friend.goto(f"{group_url}/stats?a=Anna&b=Cem")
    expect(friend.locator("h1")).to_have_text(words["offline"])
    friend.context.set_offline(False)
    friend.goto(f"{group_url}/stats?a=Anna&b=Cem")
    expect(friend.locator("#versus-result")).to_contain_text(words["versus"])
    outsider = phone_in(browser, server, language)
    answer = outsider.goto(group_url)
    assert answer is not None and answer.status == 404 and "Anna" not in outsider.content()

    # Ben was also logged as "ben": the spelling joins the group, then is merged, after a confirmation.
    host.goto(group_url)
    host.locator("a[href*='game=ftw']").click()
    host.fill("#seats", "Anna\nben\nCem")
    host.check("input[name=plays][value='']")  # nobody plays on this phone
    host.get_by_role("button", name=words["start"]).click()
    host.goto(group_url + "#players")
    host.locator("summary").get_by_text("ben", exact=True).click()
    host.once("dialog", lambda dialog: dialog.accept())
    host.locator("details[open] select[name=into]").select_option(label="Ben")
    host.locator("details[open]").get_by_role("button", name=words["merge"]).click()
    expect(host.locator("#players + p + ul")).to_contain_text("ben → Ben")
    assert_phone_friendly(host)
    assert_accessible(host)
    shot(host, f"group-page-{language}")

    # The link went too far: the host renews it, after a confirmation. The friend's phone is
    # out of the group (its page is a 404) until it opens the new link.
    host.once("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name=words["new link"]).click()
    expect(host.locator(".flash.info[role=status]")).to_contain_text(words["renewed"])  # good news, not an alarm
    new_link = host.locator(".qr + p a").get_attribute("href") or ""
    assert new_link != link
    shot(host, f"group-new-link-{language}")
    answer = friend.goto(group_url)
    assert answer is not None and answer.status == 404 and "Anna" not in friend.content()
    friend.goto(new_link.replace(new_link.split("/groups/")[0], server))
    expect(friend.locator("h1")).to_have_text(f"Donnerstagsrunde {language}")

    # Eight more games, tapped in: the group's page shows the newest ten, and pages back.
    for _ in range(8):
        host.goto(f"{server}/new?game=ftw&group={group_url.rsplit('/', 1)[1]}")
        for name in ("Anna", "Ben", "Cem"):
            host.locator(f"button[data-line='{name}']").click()
        host.check("input[name=plays][value='']")  # nobody plays on this phone
        host.get_by_role("button", name=words["start"]).click()
        host.wait_for_url("**/host")  # the new game's page for the host: seats and join codes
    host.goto(group_url)
    expect(host.locator("#games + ul li")).to_have_count(10)
    host.get_by_role("link", name=words["older"]).click()
    expect(host.locator("#games")).to_have_text(words["older"])
    expect(host.locator("#games + ul li")).to_have_count(1)  # the first game of the evening
    expect(host.locator("#games + ul")).to_contain_text("Employee of the Month")
    assert_phone_friendly(host)
    assert_accessible(host)
    shot(host, f"group-older-games-{language}")
    host.get_by_role("link", name=words["newer"]).click()
    expect(host.locator("#games + ul li")).to_have_count(10)

    # A game started from the home page, not the group's: its host puts it into the group.
    host.goto(f"{server}/new?game=ftw")
    host.fill("#seats", "Anna\nBen\nEva")
    host.check("input[name=plays][value='']")  # nobody plays on this phone
    host.get_by_role("button", name=words["start"]).click()
    host.wait_for_url("**/host")
    assert_accessible(host)
    shot(host, f"group-game-to-add-{language}")
    host.get_by_role("button", name=words["add"]).click()
    expect(host.locator(".flash.info[role=status]")).to_contain_text(words["added"])
    assert_phone_friendly(host)
    assert_accessible(host)
    shot(host, f"group-game-added-{language}")
    host.locator(f"a[href='{group_url.split(server)[1]}']").click()
    expect(host.locator("#games + ul li").first).to_contain_text("Anna, Ben, Eva")
    expect(host.locator("#players + p + ul")).to_contain_text("Eva")  # a new name joined the group


HOUSE_WORDS = {
    "en": {"changed": "Changed by the group's host", "off": "House rule added:", "only host": "Only the group's host changes them",
           "named": "The group's house rules for this game:", "sentence": "A player may play out of turn"},
    "de": {"changed": "Vom Gastgeber der Gruppe geändert", "off": "Hausregel eingeführt:", "only host": "Nur der Gastgeber der Gruppe ändert sie",
           "named": "Die Hausregeln der Gruppe für dieses Spiel:", "sentence": "Man darf außer der Reihe spielen"},
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_groups_host_sets_its_house_rules_and_every_member_reads_them(server: str, browser: Browser, language: str) -> None:
    # Anna's phone makes the club and turns "ftw.turn" off: the page says when, and which
    # rule in words. Ben's phone, a member, reads the rules and the change but has no
    # switches. Anna's new FTW?! game names the rule before it is made.
    words = HOUSE_WORDS[language]
    anna = phone_in(browser, server, language)
    anna.goto(server)
    anna.fill("input[name=name]", f"Hausregeln {language}")
    anna.locator("form[action='/groups'] button").click()
    group_url = anna.url
    anna.locator("#house-rules ~ details summary", has_text="FTW?!").click()
    anna.locator("input[name=off][value='ftw.turn']").check()
    anna.locator("input[name=off][value='ftw.turn'] >> xpath=ancestor::form//button").click()
    expect(anna.locator("#house-rule-changes")).to_have_text(words["changed"])
    expect(anna.locator(".house-rule-changes li").first).to_contain_text(words["off"])
    expect(anna.locator(".house-rule-changes li").first).to_contain_text(words["sentence"])  # the switch's sentence, no id
    assert_phone_friendly(anna)
    assert_accessible(anna)
    shot(anna, f"group-house-rule-changes-{language}")

    ben = phone_in(browser, server, language)
    link = anna.locator(".qr + p a").get_attribute("href") or ""
    ben.goto(link.replace(link.split("/groups/")[0], server))
    ben.goto(group_url)
    expect(ben.locator("#house-rules ~ p.muted").last).to_contain_text(words["only host"])
    expect(ben.locator(".house-rules-now")).to_contain_text(words["sentence"])
    assert ben.locator("input[name=off]").count() == 0
    assert_accessible(ben)
    shot(ben, f"group-house-rules-member-{language}")

    anna.locator("a[href*='/new?game=ftw']").first.click()
    expect(anna.locator(".house-rules-named")).to_contain_text(words["named"])
    expect(anna.locator(".house-rules-named")).to_contain_text(words["sentence"])
    assert_phone_friendly(anna)
    assert_accessible(anna)
    shot(anna, f"group-new-game-house-rules-{language}")
