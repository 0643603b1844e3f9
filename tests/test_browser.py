"""Real phones, simulated: Playwright drives Debian's Chromium at 360×640 against the real
server (gevent, a real SQLite file). Screenshots land in test-artifacts/."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
PHONE = {"width": 360, "height": 640}
SERVER_DB: list[Path] = []  # the server's SQLite file, for tests that play the one who edits it


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("browser")
    port = free_port()
    # Up to 56 phones may wait for news at once (a phone over the cap would see
    # news only after its Retry-After). A phone closed by an earlier test frees its place
    # within a second: the server peeks at its connection and sees it closed.
    command = [sys.executable, "-c", "from referee.cli import main; main()", "serve", "--port", str(port), "--max-waiting", "56",
               "--db", str(folder / "browser.sqlite3")]
    log = folder / "server.log"  # a file, not a pipe nobody reads
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=folder, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        process.kill()
        process.wait()
        raise RuntimeError(f"server did not start: {log.read_text(errors='replace')}")
    SERVER_DB.append(folder / "browser.sqlite3")
    yield f"http://127.0.0.1:{port}"
    process.kill()
    process.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "the browser tests need Debian's chromium: apt-get install -y chromium"
    # The app's service worker fetches pages itself. Playwright 1.45 (the lowest we allow) puts
    # those fetches under its offline emulation only with this switch; 1.65 does so anyway.
    os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"],
        )
        yield chromium
        chromium.close()


OPEN_PHONES: list[BrowserContext] = []


def phone(browser: Browser) -> BrowserContext:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="en-GB")
    OPEN_PHONES.append(context)
    return context


def phone_in(browser: Browser, server: str, language: str) -> Page:
    """A phone whose app speaks `language`."""
    page = phone(browser).new_page()
    page.context.add_cookies([{"name": "lang", "value": language, "url": server}])
    return page


@pytest.fixture(autouse=True)
def phones_put_away() -> Iterator[None]:
    """Each test's phones are closed after it, so they stop polling the shared server."""
    yield
    while OPEN_PHONES:
        OPEN_PHONES.pop().close()


def new_table(browser: Browser, server: str, game: str, seats: list[str], joining: tuple[str, ...]) -> tuple[Page, dict[str, Page]]:
    """The host starts a game on one phone; each of `joining` joins with the code on its own."""
    host = phone(browser).new_page()
    host.goto(f"{server}/new?game={game}")
    host.fill("#seats", "\n".join(seats))
    host.check("input[name=plays][value='']")  # nobody plays on this phone
    host.get_by_role("button", name="Start the game").click()
    code = host.locator(".code").inner_text().strip()
    phones: dict[str, Page] = {}
    for name in joining:
        page = phone(browser).new_page()
        page.goto(server)
        page.fill("input[name=code]", code)
        page.get_by_role("button", name="Join").click()
        page.get_by_role("button", name=name).click()
        expect(page.locator("#table")).to_contain_text(f"You are {name}")
        phones[name] = page
    return host, phones


def wait_until(page: Page, expression: str, timeout: float = 5.0) -> None:
    """Polls `expression` with page.evaluate. Playwright's wait_for_function evals its predicate
    inside the page once the first check fails, and the app's Content-Security-Policy refuses eval."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"still false after {timeout} s: {expression}"
        page.wait_for_timeout(50)


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def assert_phone_friendly(page: Page) -> None:
    """No horizontal scroll at 360 px; every visible button at least 44 px tall."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    heights = page.eval_on_selector_all(
        "button:not([disabled]), a.button", "els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44, heights


IN_SIGHT = """(selector) => {
  const bar = document.querySelector('.turnbar');
  const bottom = innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
  const shown = [...document.querySelectorAll(selector)].filter(e => e.getClientRects().length);
  return shown.length === 0 ? null : shown.some(e => { const r = e.getBoundingClientRect(); return r.top >= -1 && r.bottom <= bottom + 1; });
}"""


def assert_beat_in_sight(page: Page) -> None:
    """What the player must beat (the cards on the table, the auction, the open bill) is
    wholly in sight above the turn bar, wherever the table shows any."""
    where = page.evaluate("[scrollY, innerHeight, ...[...document.querySelectorAll('#table [data-beat]')].map(e => [e.tagName, Math.round(e.getBoundingClientRect().top), Math.round(e.getBoundingClientRect().bottom)])]")
    assert page.evaluate(IN_SIGHT, "#table [data-beat]") is not False, f"nothing to beat in sight at {page.url}: {where}"


def test_four_phones_play_a_karriere_poker_round_with_a_flag_voided_and_relogged(server: str, browser: Browser) -> None:
    host = phone(browser).new_page()
    host.goto(server)
    assert_phone_friendly(host)
    host.get_by_role("link", name="New: Karriere Poker").click()
    host.fill("#seats", "Anna\nBen\nCem\nDora")
    host.check("input[name=plays][value='']")  # nobody plays on this phone
    host.get_by_role("button", name="Start the game").click()
    code = host.locator(".code").inner_text().strip()
    assert len(code) == 6
    shot(host, "kp-host-code")

    phones: dict[str, Page] = {}
    for name in ("Anna", "Ben", "Cem", "Dora"):
        page = phone(browser).new_page()
        page.goto(server)
        page.fill("input[name=code]", code.lower())
        page.get_by_role("button", name="Join").click()
        page.get_by_role("button", name=name).click()
        expect(page.locator("#table")).to_contain_text(f"You are {name}")
        phones[name] = page

    host.get_by_role("link", name="To the table").click()
    host.select_option("#dealer", label="Dora")
    host.get_by_role("button", name="Cards are dealt").click()
    for name, page in phones.items():
        expect(page.locator("#table")).to_contain_text("Your turn" if name == "Anna" else "Anna's turn", timeout=8000)
    assert_phone_friendly(phones["Anna"])

    # Anna leads three 7s; Ben answers with two 9s: kp.raise.count, on every phone within seconds.
    anna = phones["Anna"]
    anna.select_option("#count", "3")
    anna.locator("button[name=pick][value='7']").click()
    ben = phones["Ben"]
    expect(ben.locator("#table")).to_contain_text("Your turn", timeout=8000)
    assert_beat_in_sight(ben)  # his turn came: the three 7s are in sight
    ben.evaluate("window.scrollTo(0, 0)")
    ben.locator(".turnbar a[href='#actions']").click()  # "Your move": what to beat and the cards in one screen
    assert ben.evaluate(IN_SIGHT, "#actions ~ h2 + [data-beat]") and ben.evaluate(IN_SIGHT, "button[name=pick][value='13']")
    shot(ben, "kp-your-move")
    ben.select_option("#count", "2")
    ben.locator("button[name=pick][value='9']").click()
    expect(ben.locator("#table[data-seq='3']")).to_be_attached()
    assert_beat_in_sight(ben)  # after his move: the table, not only Latest
    for name, page in phones.items():
        flag = page.locator(".flag[data-rule='kp.raise.count']")
        expect(flag).to_be_visible(timeout=8000)
        expect(flag).to_contain_text("Ben played two 9s, but the lead was three cards.")
        shot(page, f"kp-flag-{name}")
    expect(host.locator(".flag[data-rule='kp.raise.count']")).to_be_visible(timeout=8000)
    expect(host.locator(".flag a[href$='#kp.raise.count']")).to_be_visible()

    # Ben voids it with one tap and logs three 9s; Cem and Dora pass.
    ben.get_by_role("button", name="Void this move").click()
    for page in phones.values():
        expect(page.locator(".flag")).to_have_count(0, timeout=8000)
    ben.select_option("#count", "3")
    ben.locator("button[name=pick][value='9']").click()
    for name in ("Cem", "Dora"):
        expect(phones[name].locator("#table")).to_contain_text("Your turn", timeout=8000)
        phones[name].locator(".turnbar").get_by_role("button", name="Pass").click()  # one tap, in sight
    for page in phones.values():
        expect(page.locator("#table")).to_contain_text("Ben's turn" if page is not ben else "Your turn", timeout=8000)
    shot(ben, "kp-round-won-by-ben")

    history = phones["Cem"]
    history.get_by_role("link", name="History").click()
    expect(history.locator("li#e3 .voided")).to_be_visible()
    expect(history.locator("li#e3 .flag")).to_contain_text("kp.raise.count")
    history.get_by_role("link", name="Jump to the first violation").click()
    expect(history.locator("#then")).to_contain_text("The table after event 3")
    shot(history, "kp-history")


def test_a_short_ftw_game_is_played_to_its_result_table(server: str, browser: Browser) -> None:
    host, _ = new_table(browser, server, "ftw", ["Anna", "Ben"], ())
    host.get_by_role("link", name="To the table").click()
    for round_number, starter in ((1, 0), (2, 1)):  # 21 moves and 2 reveals a round
        # the starter lays 1, 3, 5, …, the other 2, 4, 6, … until the starter holds one card
        for card in range(1, 22):
            section = host.locator("#table")
            seq = int(section.get_attribute("data-seq") or 0)
            host.fill("#high-card", str(card))
            host.get_by_role("button", name="Lay").click()
            expect(host.locator(f"#table[data-seq='{seq + 1}']")).to_be_attached(timeout=6000)
            assert_beat_in_sight(host)
        expect(host.locator("#table")).to_contain_text("Reveal the hands")
        last, other = (starter, 1 - starter)
        host.fill(f"#reveal-{last}", "33")
        host.locator(f"#reveal-{last} + button").click()
        expect(host.locator(f"#table[data-seq='{23 * round_number - 1}']")).to_be_attached(timeout=6000)
        host.fill(f"#reveal-{other}", "30 25")
        host.locator(f"#reveal-{other} + button").click()
        expect(host.locator(f"#table[data-seq='{23 * round_number}']")).to_be_attached(timeout=6000)
    expect(host.locator("#table")).to_contain_text("Game over")
    host.get_by_role("link", name="Scores").click()
    sheet = host.locator("#round-sheet")
    expect(sheet).to_be_visible()
    # each round: the starter's 33 scores 33; the other's 30 - 25 = 5. Totals 38 each: a tie.
    expect(sheet.locator("tr").nth(3)).to_contain_text("38")
    expect(host.locator("ol li").first).to_contain_text("Anna (38), Ben (38)")
    assert host.locator("figure svg").count() == 1
    assert_phone_friendly(host)
    shot(host, "ftw-result")


def test_bens_ftw_reveal_names_the_10_he_took_once_however_he_taps(server: str, browser: Browser) -> None:
    host, phones = new_table(browser, server, "ftw", ["Anna", "Ben"], ("Ben",))
    ben = phones["Ben"]
    game_id = ben.url.rstrip("/").split("/g/")[1].split("/")[0]
    # Anna lays 10, Ben takes it with a low 5; then Anna lays 11, 13, … 29 and Ben 12, 14, … 28, until
    # Anna holds one card: Ben holds the 10 the table saw him take, and 33 and 35.
    moves = [{"type": "high", "seat": 0, "card": 10}, {"type": "low", "seat": 1, "card": 5, "take": 10}]
    moves += [{"type": "high", "seat": k % 2, "card": 11 + k} for k in range(19)]
    for move in moves:
        api(server, f"/api/games/{game_id}/events", token_of(host), move)
    form = ben.locator("form:has(#reveal-1)")
    expect(form).to_contain_text("Already filled in: 10. Tap the other cards left in your hand.", timeout=8000)
    expect(ben.locator("#reveal-1")).to_have_value("10")

    def card(n: int) -> Any:
        return form.locator(f"button[data-append='{n}']")

    expect(card(10)).to_have_attribute("aria-pressed", "true")  # the grid shows it chosen
    for n in (10, 33, 35, 35):  # he taps his hand as he holds it, the 10 too, and 35 twice: each named once
        card(n).click()
    expect(ben.locator("#reveal-1")).to_have_value("10 33 35")
    expect(card(35)).to_have_attribute("aria-pressed", "true")
    form.locator("button[data-undo]").click()  # a card tapped by mistake comes off with "Remove the last card"
    expect(ben.locator("#reveal-1")).to_have_value("10 33")
    card(35).click()
    reveal = form.get_by_role("button", name="Reveal").last  # below the grid: no scrolling back
    expect(reveal).to_be_in_viewport()
    shot(ben, "ftw-reveal-filled-in")
    reveal.click()
    expect(ben.locator("#table")).to_have_attribute("data-seq", str(len(moves) + 1), timeout=8000)
    last = api(server, f"/api/games/{game_id}/events", token_of(host))["events"][-1]
    assert (last["type"], sorted(last["cards"]), last["violation"]) == ("reveal", [10, 33, 35], None)


SAMPLE_RECORDS = sorted((Path(__file__).resolve().parent.parent / "events").glob("*.jsonl"))


@pytest.fixture(scope="module")
def imported(server: str) -> dict[str, str]:
    """Every sample record imported once: name -> game id."""
    import json
    import urllib.request

    ids = {}
    for path in SAMPLE_RECORDS:
        request = urllib.request.Request(f"{server}/api/games/import", data=path.read_bytes(), headers={"Content-Type": "application/jsonl"})
        with urllib.request.urlopen(request) as answer:
            ids[path.stem] = json.loads(answer.read())["id"]
    return ids


@pytest.mark.parametrize("language", ["en", "de"])
def test_every_results_page_fits_a_phone_without_breaking_words(server: str, browser: Browser, imported: dict[str, str], language: str) -> None:
    context = phone(browser)
    context.add_cookies([{"name": "lang", "value": language, "url": server}])
    page = context.new_page()
    for name, game_id in imported.items():
        for path in (f"/g/{game_id}/result", f"/g/{game_id}"):
            page.goto(f"{server}{path}")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (name, path)
            broken = page.eval_on_selector_all(
                "td, th",
                "els => els.filter(e => e.offsetParent).filter(e => { const s = getComputedStyle(e);"
                " return s.overflowWrap !== 'normal' || s.wordBreak !== 'normal' || e.scrollWidth > e.clientWidth + 1 })"
                ".map(e => e.textContent.trim())",
            )
            assert broken == [], (name, path, broken[:5])
            # Nothing is clipped: every table fits its box at 360 px, no column hidden off to the side.
            clipped = page.eval_on_selector_all(".scroll", "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.getAttribute('aria-label'))")
            assert clipped == [], (name, path, clipped)
            shot(page, f"{'result' if path.endswith('result') else 'table'}-{name}-{language}")
    context.close()


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_serious_accessibility_violation_on_each_games_pages(server: str, browser: Browser, imported: dict[str, str], language: str) -> None:
    # axe-core (the axe-playwright-python wheel's copy, nothing downloaded) over the table,
    # the history and the scores of a sample of each game with flags, and of each way a
    # Ladies & Gentlemen Ball ends, as a spectator would open them (the seat phones and the
    # group pages are checked where they are played).
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    context = phone(browser)
    context.add_cookies([{"name": "lang", "value": language, "url": server}])
    page = context.new_page()
    found = []
    for name, game_id in imported.items():
        if not name.endswith(("-flags", "courtesan-wins", "scandal")):
            continue
        for path in (f"/g/{game_id}", f"/g/{game_id}/history", f"/g/{game_id}/result"):
            page.goto(f"{server}{path}")
            violations = axe.run(page).response["violations"]
            found += [(name, path, v["id"], v["impact"], [n["html"][:120] for n in v["nodes"]][:3]) for v in violations if v["impact"] in ("serious", "critical")]
    assert found == []


def test_a_live_update_never_wipes_what_a_player_is_typing(server: str, browser: Browser) -> None:
    host, phones = new_table(browser, server, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"], ("Anna",))
    anna = phones["Anna"]
    host.get_by_role("link", name="To the table").click()
    host.get_by_role("button", name="Cards are dealt").click()
    expect(anna.locator("#table")).to_contain_text("Ben's turn", timeout=8000)  # Anna dealt
    expect(anna.locator("#table[data-seq='1']")).to_be_attached()

    # Anna types her hand slowly; meanwhile the host logs Ben's lead. Her table shows the
    # news at once, and her field keeps what she typed, open and focused.
    anna.get_by_text("Log my hand").click()
    hand = anna.get_by_label("My cards as dealt")
    hand.press_sequentially("1 2 2", delay=100)
    host.locator("button[name=pick][value='5']").click()
    expect(anna.locator("#table[data-seq='2']")).to_be_attached(timeout=5000)
    expect(anna.locator("#table")).to_contain_text("5 by Ben")
    expect(anna.get_by_label("My cards as dealt")).to_have_value("1 2 2")
    anna.keyboard.type(" 5", delay=200)
    expect(anna.get_by_label("My cards as dealt")).to_have_value("1 2 2 5")
    shot(anna, "live-update-kept-input")


def in_sight(page: Page, selector: str) -> bool:
    """Whether the element is wholly inside the 360×640 screen as it is, without scrolling."""
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] and box["x"] + box["width"] <= PHONE["width"] + 1


def test_the_turn_bar_is_in_sight_without_scrolling(server: str, browser: Browser) -> None:
    host, phones = new_table(browser, server, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"], ("Anna", "Ben"))
    anna, ben = phones["Anna"], phones["Ben"]
    host.get_by_role("link", name="To the table").click()
    host.select_option("#dealer", label="Dora")
    host.get_by_role("button", name="Cards are dealt").click()
    expect(anna.locator(".turnbar.mine")).to_contain_text("Your turn", timeout=8000)
    assert in_sight(anna, ".turnbar") and anna.title().startswith("▶ Your turn")
    assert anna.evaluate("getComputedStyle(document.querySelector('.turnbar')).backgroundColor") != ben.evaluate(
        "getComputedStyle(document.querySelector('.turnbar')).backgroundColor")  # coloured for the player whose turn it is
    expect(ben.locator(".turnbar")).to_contain_text("Anna's turn")
    shot(anna, "turn-bar-your-turn")
    anna.locator(".turnbar").get_by_role("link", name="Your move").click()
    assert in_sight(anna, "button[name=pick][value='7']")  # the move is one tap away
    anna.locator("button[name=pick][value='7']").click()
    expect(ben.locator(".turnbar.mine")).to_contain_text("Your turn", timeout=8000)
    assert in_sight(ben, ".turnbar button:has-text('Pass')")
    ben.locator(".turnbar").get_by_role("button", name="Pass").click()
    expect(ben.locator(".turnbar")).to_contain_text("Cem's turn", timeout=8000)
    expect(ben).not_to_have_title("▶ Your turn · Karriere Poker · Table Referee")

    # The host logs two 8s for Cem over Anna's single 7: flagged; the host's bar shows the
    # flag with its Void, in sight, and one tap (and the confirmation page) withdraws it. (First the
    # host's phone shows Ben's pass: its form then names Cem.)
    expect(host.locator(".turnbar")).to_contain_text("Log for Cem", timeout=8000)
    host.select_option("#count", "2")
    host.locator("button[name=pick][value='8']").click()
    bar = host.locator(".turnbar")
    expect(bar).to_contain_text("kp.raise.count", timeout=8000)
    assert in_sight(host, ".turnbar button:has-text('Void')")
    bar.get_by_role("button", name="Void").click()  # the confirmation names what the void will flag: nothing here
    expect(host.locator(".void-flags")).to_contain_text("No later move is flagged by it.")
    host.locator("form[action*='/void/'] button.danger").click()
    expect(host.locator(".flag[data-rule='kp.raise.count']")).to_have_count(0, timeout=8000)
    expect(bar).not_to_contain_text("kp.raise.count")


def test_employee_of_the_month_cards_by_tapping_and_a_refusal_keeps_the_input(server: str, browser: Browser) -> None:
    host, _ = new_table(browser, server, "employee-of-the-month", ["Anna", "Ben", "Cem"], ())
    host.get_by_role("link", name="To the table").click()
    row = host.locator("#row")
    row.fill("c3 x7")  # a typo: refused in players' words, and what was sent comes back
    host.locator("label.pick:has(input[name=distrust][value='2'])").click()
    host.locator("label.pick:has(input[name=points][value='plus-4'])").click()
    host.get_by_role("button", name="Start").click()
    expect(host.locator(".flash[role=alert]")).to_contain_text("“x7” is not a favour card", timeout=8000)
    expect(host.locator("#row")).to_have_value("c3 x7")
    expect(host.locator("input[name=distrust][value='2']")).to_be_checked()
    expect(host.locator("input[name=points][value='plus-4']")).to_be_checked()
    shot(host, "eotm-start-refused-kept")
    host.locator("button[data-undo=row]").click()
    for token in ("b10", "c7", "c1", "b2", "b5", "c9"):
        host.locator(f"button[data-append='{token}']").click()
    expect(host.locator("#row")).to_have_value("c3 b10 c7 c1 b2 b5 c9")
    assert_phone_friendly(host)
    host.get_by_role("button", name="Start").click()
    expect(host.locator(".turnbar")).to_contain_text("Anna's turn", timeout=8000)
    expect(host.locator("#table")).to_contain_text("Boss\u00a010")
    shot(host, "eotm-started-by-tapping")


PAGES = ("", "/new?game=senators", "/import", "/g/{id}", "/g/{id}/host", "/g/{id}/seats", "/g/{id}/history",
         "/g/{id}/history?at=3", "/g/{id}/result", "/rules/{game}?rule={rule}")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_screenshot_of_every_page_in_english_and_german(server: str, browser: Browser, imported: dict[str, str], language: str) -> None:
    context = phone(browser)
    context.add_cookies([{"name": "lang", "value": language, "url": server}])
    page = context.new_page()
    for sample, game, rule in (("karriere-poker-5-players-flags", "karriere-poker", "kp.turn"),
                               ("employee-of-the-month-5-players-flags", "employee-of-the-month", "eotm.turn"),
                               ("senators-4-players-flags", "senators", "sen.turn")):
        for path in PAGES:
            url = path.format(id=imported[sample], game=game, rule=rule)
            page.goto(f"{server}{url}")
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], (language, url)
            assert page.locator("html").get_attribute("lang") == language
            name = url.strip("/").replace("/", "-").replace("?", "-").replace("=", "-").replace(imported[sample], sample) or "home"
            shot(page, f"page-{name}-{language}")


def api(server: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    import json
    import urllib.request

    request = urllib.request.Request(f"{server}{path}", data=None if body is None else json.dumps(body).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def token_of(page: Page) -> str:
    return next(c["value"] for c in page.context.cookies() if c["name"] == "referee_token")


@pytest.mark.parametrize("language", ["en", "de"])
def test_secrets_wait_for_the_hosts_reveal_and_a_phone_warns_of_a_rewritten_log(server: str, browser: Browser, language: str) -> None:
    import json
    import sqlite3

    from referee.record import canonical
    from referee.store import chain_hash

    host, phones = new_table(browser, server, "senators", ["Anna", "Ben", "Cem"], ("Anna", "Ben"))
    anna, ben = phones["Anna"], phones["Ben"]
    for page in (host, anna, ben):
        page.context.add_cookies([{"name": "lang", "value": language, "url": server}])
    game_id = anna.url.rstrip("/").split("/g/")[1].split("/")[0]
    anna_token = token_of(anna)
    api(server, f"/api/games/{game_id}/events", anna_token, {"type": "hand", "seat": 0, "cards": ["red-7", "blue-1", "green-2"]})
    ben_token = token_of(ben)
    api(server, f"/api/games/{game_id}/events", ben_token, {"type": "event", "kind": "other"})
    # Anna, the active player, auctions blue-1, a card of her own recorded hand: Ben's phone
    # sees a plain auction; the host's phone sees the clash.
    api(server, f"/api/games/{game_id}/events", anna_token, {"type": "auction", "seat": 0, "cards": ["blue-1"]})
    host.goto(f"{server}/g/{game_id}")
    expect(host.locator(".flag.clash")).to_contain_text("sen.card.unknown", timeout=8000)
    shot(host, f"privacy-clash-{language}")
    ben.goto(f"{server}/g/{game_id}")
    card = {"en": {"blue-1": "blue 1", "red-7": "red 7"}, "de": {"blue-1": "blau 1", "red-7": "rot 7"}}[language]  # shown in the phone's language
    expect(ben.locator("#table")).to_contain_text(card["blue-1"])
    expect(ben.locator(".flag.clash")).to_have_count(0)
    assert card["red-7"] not in ben.locator("body").inner_text()
    # Ben's bid, a war after each turn: the 4th war, logged by Ben's phone, ends the game.
    api(server, f"/api/games/{game_id}/events", ben_token, {"type": "bid", "seat": 1, "bids": {}})
    api(server, f"/api/games/{game_id}/events", token_of(host), {"type": "bid", "seat": 2, "bids": {}})
    for _ in range(4):
        api(server, f"/api/games/{game_id}/events", ben_token, {"type": "event", "kind": "war"})
        state = api(server, f"/api/games/{game_id}", ben_token)
        if not state["finished"]:
            active = state["view"]["turn"]
            api(server, f"/api/games/{game_id}/events", token_of(host), {"type": "blackmail", "seat": state["seats"].index(active)})
    ben.goto(f"{server}/g/{game_id}")
    waiting = "Game over? The host confirms the end" if language == "en" else "Spiel vorbei? Der Gastgeber bestätigt das Ende"
    expect(ben.locator("#table")).to_contain_text(waiting)
    assert card["red-7"] not in ben.locator("body").inner_text()
    shot(ben, f"privacy-awaiting-reveal-{language}")
    host.goto(f"{server}/g/{game_id}")
    assert_phone_friendly(host)
    shot(host, f"privacy-host-confirms-{language}")
    host.once("dialog", lambda dialog: dialog.accept())
    host.locator("form[action$='/reveal'] button").click()
    ben.goto(f"{server}/g/{game_id}/history")
    expect(ben.locator("main")).to_contain_text(card["red-7"])
    # Whoever can write the database rewrites the whole chain consistently: verify cannot
    # tell, but Ben's phone kept the witness of the last event it saw.
    ben.goto(f"{server}/g/{game_id}")
    expect(ben.locator("#table")).to_be_visible()
    ben.wait_for_timeout(300)  # the phone stores its witness
    with sqlite3.connect(SERVER_DB[0]) as db:
        db.execute("DROP TRIGGER IF EXISTS events_append_only_update")
        root = db.execute("SELECT hash FROM games WHERE id = ?", [game_id]).fetchone()[0]
        rows = db.execute("SELECT seq, body FROM events WHERE game = ? ORDER BY seq", [game_id]).fetchall()
        previous = root
        for seq, body in rows:
            if seq == 2:
                body = canonical({**json.loads(body), "name": "Plague"})
            previous = chain_hash(previous, body)
            db.execute("UPDATE events SET body = ?, hash = ? WHERE game = ? AND seq = ?", [body, previous, game_id, seq])
        db.execute("UPDATE games SET head_hash = ? WHERE id = ?", [previous, game_id])
        db.execute("DELETE FROM snapshots WHERE game = ?", [game_id])
        db.executescript("CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;")
    ben.reload()
    warning = ben.locator("#witness-warning")
    expect(warning).to_be_visible(timeout=8000)
    expect(warning).to_contain_text(str(len(rows)))
    assert in_sight(ben, "#witness-warning")
    shot(ben, f"privacy-witness-warning-{language}")
    warning.get_by_role("button").click()
    expect(warning).to_be_hidden()


WAKE_LOCK_SPY = """
window.__wakeLocks = 0;
Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: {request: function (kind) {
  window.__wakeLocks += 1; return Promise.resolve({release: function () { return Promise.resolve(); }});
}}});
"""


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_phone_that_goes_offline_says_so_and_catches_up_when_back(server: str, browser: Browser, language: str) -> None:
    host, phones = new_table(browser, server, "ftw", ["Anna", "Ben", "Cem"], ("Ben",))
    ben = phones["Ben"]
    ben.context.add_cookies([{"name": "lang", "value": language, "url": server}])
    ben.reload()
    status = ben.locator("#live-status")
    expect(status).to_be_hidden()
    ben.context.set_offline(True)
    expect(status).to_be_visible(timeout=3000)  # within 3 s of losing the server
    expect(status).to_contain_text("Offline" if language == "en" else "Offline", timeout=3000)
    shot(ben, f"live-offline-{language}")
    game_id = ben.url.rstrip("/").split("/g/")[1].split("/")[0]
    api(server, f"/api/games/{game_id}/events", token_of(host), {"type": "high", "seat": 0, "card": 17})  # meanwhile
    ben.wait_for_timeout(1500)
    ben.context.set_offline(False)
    expect(status).to_be_hidden(timeout=20000)  # reconnected with backoff, no reload
    expect(ben.locator("#table")).to_contain_text("17")


def test_the_screen_is_kept_awake_at_the_table_and_the_choice_is_kept(server: str, browser: Browser) -> None:
    host = phone(browser).new_page()
    host.add_init_script(WAKE_LOCK_SPY)
    host.goto(f"{server}/new?game=ftw")
    host.fill("#seats", "Anna\nBen\nCem")
    host.check("input[name=plays][value='']")  # nobody plays on this phone
    host.get_by_role("button", name="Start the game").click()
    host.get_by_role("link", name="To the table").click()
    expect(host.locator("#keep-awake")).to_be_checked()
    wait_until(host, "window.__wakeLocks >= 1")
    host.locator("#keep-awake").uncheck()
    host.reload()
    expect(host.locator("#keep-awake")).not_to_be_checked()
    assert host.evaluate("window.__wakeLocks") == 0  # off, and remembered
    without = phone(browser).new_page()  # a browser without the API: nothing breaks
    without.add_init_script("Object.defineProperty(navigator, 'wakeLock', {configurable: true, value: undefined});")
    errors: list[str] = []
    without.on("pageerror", lambda error: errors.append(str(error)))
    without.goto(host.url)
    expect(without.locator("#table")).to_be_visible()
    assert errors == []


def test_the_app_can_be_added_to_the_home_screen(server: str, browser: Browser) -> None:
    page = phone(browser).new_page()
    page.goto(server)
    href = page.locator("link[rel=manifest]").get_attribute("href")
    manifest = page.evaluate(f"fetch({href!r}).then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["name"] == "Table Referee"
    for icon in manifest["icons"]:
        size = int(icon["sizes"].split("x")[0])
        loaded = page.evaluate(f"new Promise(done => {{ const i = new Image(); i.onload = () => done([i.naturalWidth, i.naturalHeight]); i.src = {icon['src']!r}; }})")
        assert loaded == [size, size]
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    expect(page.locator("main")).to_contain_text("Add to Home Screen")


def test_a_move_tapped_offline_is_sent_once_when_back_and_a_stale_one_is_refused_with_the_input_kept(server: str, browser: Browser) -> None:
    host, phones = new_table(browser, server, "ftw", ["Anna", "Ben", "Cem"], ("Anna",))
    anna = phones["Anna"]
    game_id = anna.url.rstrip("/").split("/g/")[1].split("/")[0]

    def highs() -> list[tuple[int, int]]:
        return [(e["seat"], e["card"]) for e in api(server, f"/api/games/{game_id}/events", token_of(host))["events"] if e["type"] == "high"]

    # Offline, Anna lays 30 while the host logs a move for Ben: when she is back, her tap is
    # refused as stale (a note meanwhile would have let it stand), with her 30 put back.
    anna.context.set_offline(True)
    anna.locator("#high-card").fill("30")
    anna.locator("#high-card").press("Enter")
    expect(anna.locator("#outbox-status")).to_contain_text("Waiting to send: 1", timeout=8000)
    shot(anna, "outbox-waiting")
    api(server, f"/api/games/{game_id}/events", token_of(host), {"type": "high", "seat": 1, "card": 9})  # a move meanwhile (Ben's, out of turn: flagged)
    anna.context.set_offline(False)
    expect(anna.locator("#table .flash[role=alert]")).to_contain_text("The table changed", timeout=20000)
    expect(anna.locator("#high-card")).to_have_value("30")
    expect(anna.locator("#outbox-status")).to_be_hidden()
    assert highs() == [(1, 9)]
    # Offline again, she lays 5: sent when she is back, stored exactly once.
    anna.context.set_offline(True)
    anna.locator("#high-card").fill("5")
    anna.locator("#high-card").press("Enter")
    expect(anna.locator("#outbox-status")).to_contain_text("Waiting to send: 1", timeout=8000)
    anna.context.set_offline(False)
    expect(anna.locator("#outbox-status")).to_be_hidden(timeout=20000)
    expect(anna.locator(".turnbar")).to_contain_text("Ben", timeout=5000)
    assert highs() == [(1, 9), (0, 5)]
