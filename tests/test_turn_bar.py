"""The turn bar tells the truth, step by step through every sample.

Each sample is logged event by event into a real store; after every event the table is
rendered for the host, each seat's phone and a spectator, and each bar is compared with
the game's own `to_act`: the seat it waits for reads "Your turn", the others name whom
the table waits for, and when it waits for no player, a phone that offers a button for
the table's next event never reads that the host logs it. The controls follow the bar:
a seat the table waits for has a move to make, and a seat it does not wait for is offered
no move but those its game lets a player make at any time (`ANY_TIME`).
"""

from __future__ import annotations

import html
import re
import pytest
from conftest import EVENTS_DIR
from flask import Flask, render_template

from referee.access import SPECTATOR, Caller
from referee.record import read_record
from referee.web import referee
from referee.web.pages import table_context

SAMPLES = sorted(path.stem for path in EVENTS_DIR.glob("*.jsonl"))
HOST_LOGS = "Waiting for the host to log"


def bar_of(page: str) -> tuple[str, str | None]:
    """The bar's words and its button (None: no button)."""
    nav = page[page.index('<nav class="turnbar'):page.index("</nav>")]
    status = html.unescape(re.sub(r"<[^>]+>", "", re.search(r'<strong class="status">(.*?)</strong>', nav, re.S)[1]).replace("▶ ", "").strip())  # type: ignore[index]
    button = re.search(r'<a class="button primary" href="#actions">(.*?) ↓</a>', nav)
    return status, None if button is None else button[1]


def table_forms(page: str) -> set[str]:
    """The event types of the forms this phone offers under the table (not its notes or votes)."""
    actions = page[page.index('<span id="actions">'):page.index('<nav class="turnbar')]
    return set(re.findall(r'name="type" value="([\w-]+)"', actions))


@pytest.mark.parametrize("sample", SAMPLES)
def test_the_bar_tells_the_truth_at_every_step_of_every_sample(app: Flask, sample: str) -> None:
    record = read_record((EVENTS_DIR / f"{sample}.jsonl").read_text(encoding="utf-8"))
    names = list(record.header.seats)
    with app.test_request_context("/"):
        tables = referee().tables
        game_id = tables.create(record.header)
        phones: list[tuple[str | None, Caller]] = [("host", Caller("host")), ("spectator", SPECTATOR)]
        phones += [(name, Caller("seat", seat)) for seat, name in enumerate(names)]
        checked = 0
        for event in record.events:
            fold = tables.append(game_id, {k: v for k, v in event.items() if k != "seq"}).fold
            if fold.outcome is not None:
                break
            view = fold.game.view(fold.state, None)
            to_act = view["to_act"]
            for who, caller in phones:
                page = render_template("table_panel.html", **table_context(game_id, fold, caller))
                status, button = bar_of(page)
                me = who if caller.role == "seat" else None
                where = f"{sample} event {fold.seq}, {who}'s phone: {status!r}"
                # Besides the moves of any time, the table's own event when it waits for no player.
                moves = table_forms(page) - ANY_TIME[fold.header.game] - (set() if to_act else TABLE_EVENTS[fold.header.game])
                if me in to_act:
                    assert moves, f"{where}: no control for the turn"
                elif me is not None and me not in fold.game.view(fold.state, caller.seat).get("may_act", []):
                    assert not moves, f"{where}: offers {moves} out of turn"
                if me in to_act:
                    assert status == "Your turn" and button == "Your move", where
                elif len(to_act) == 1:
                    assert status == f"{to_act[0]}'s turn", where
                elif to_act:
                    assert status == "Waiting for: " + ", ".join(to_act), where
                else:
                    logs_table = caller.is_host or (caller.role == "seat" and fold.game.seats_log_table)
                    may_act = fold.game.view(fold.state, caller.seat).get("may_act", [])
                    if me in may_act:
                        assert status.startswith("Your move if you want") and button == "Your move", where
                    elif logs_table:
                        assert status == "The table's turn: log it here" and button == "Log it", where
                    else:
                        assert HOST_LOGS in status or "then the host logs" in status, where
                        # The phone offers no form for the event the table waits for.
                        assert button is None and not table_forms(page) & TABLE_EVENTS[fold.header.game], where
                if caller.role == "spectator":
                    assert button is None and table_forms(page) == set(), where
                checked += 1
        assert checked > 100


# The moves a game lets a player make whether or not the table waits for him: a private record
# (a hand, an income), Senators' sale of a senator, the L&G gossip and a lady's discard.
ANY_TIME: dict[str, set[str]] = {
    "karriere-poker": {"hand"},
    "employee-of-the-month": set(),
    "ftw": {"hand"},
    "senators": {"hand", "sell-senator"},
    "ladies-and-gentlemen": {"income", "gossip", "discard-gossip"},
}

# The events a table logs when it waits for no player: a deal, a prize, an event card, a day.
TABLE_EVENTS: dict[str, set[str]] = {
    "karriere-poker": {"deal"},
    "employee-of-the-month": {"start", "reveal"},
    "ftw": set(),
    "senators": {"event"},
    "ladies-and-gentlemen": {"day", "ball"},
}


def test_a_blackmailer_may_demand_more_while_the_table_waits_for_the_event_card(app: Flask) -> None:
    from test_senators import ANNA, AUCTION, BEN, EVENT, SEN, ev

    done = [*AUCTION, ev("decide", ANNA, card="red-3", choice="sell"), ev("decide", ANNA, card="blue-7", choice="buy")]
    with app.test_request_context("/"):
        tables = referee().tables
        game_id = tables.create(SEN)
        for body in [*done, EVENT, ev("blackmail", BEN), ev("demand", BEN, target=ANNA, card="blue-7", price=2)]:
            fold = tables.append(game_id, body).fold
        assert fold.violations == () and fold.game.view(fold.state, None)["to_act"] == ["Anna"]
        fold = tables.append(game_id, ev("answer", ANNA, choice="sell")).fold
        anna, ben, host = (render_template("table_panel.html", **table_context(game_id, fold, caller))
                           for caller in (Caller("seat", ANNA), Caller("seat", BEN), Caller("host")))
    assert bar_of(ben) == ("Your move if you want; then the table moves on", "Your move") and "demand" in table_forms(ben)
    assert bar_of(anna) == ("Ben may still act; then the host logs the table's next event", None)
    assert bar_of(host) == ("The table's turn: log it here", "Log it") and "event" in table_forms(host)


def test_the_gentlemen_wait_for_the_courtesan_to_hand_on_her_cards_before_their_bills(app: Flask) -> None:
    # The evening of the five-player sample: Emil, the courtesan, holds cards to hand on.
    record = read_record((EVENTS_DIR / "ladies-and-gentlemen-5-players-courtesan-wins.jsonl").read_text(encoding="utf-8"))
    names = list(record.header.seats)
    with app.test_request_context("/"):
        tables = referee().tables
        game_id = tables.create(record.header)
        for event in record.events:
            fold = tables.append(game_id, {k: v for k, v in event.items() if k != "seq"}).fold
            if fold.state.to_give() and fold.state.all_visited:
                break
        view = fold.game.view(fold.state, None)
        courtesan, gentlemen = view["courtesan"], [team["gentleman"] for team in view["teams"]]
        assert view["to_act"][-1] == courtesan and not set(gentlemen) & set(view["to_act"])
        pages = {name: render_template("table_panel.html", **table_context(game_id, fold, Caller("seat", names.index(name))))
                 for name in [courtesan, *gentlemen]}
    assert bar_of(pages[courtesan]) == ("Your turn", "Your move") and "give" in table_forms(pages[courtesan])
    for name in gentlemen:
        assert bar_of(pages[name])[0] in (f"{courtesan}'s turn", "Waiting for: " + ", ".join(view["to_act"]))
        assert not {"bill", "done"} & table_forms(pages[name]) and ">Pay<" not in pages[name]
