"""A rule the table turned off gives back every button it hid.

Each story plays a table twice, once with the rule off and once playing by it: where it is
off, the phone shows the control for the move the rule forbade, and the move made with it is
stored and not flagged; where the rule is played, the control is not there.
"""

from __future__ import annotations

import html
import re
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from referee.games import GAMES
from referee.games import karriere_poker as kp
from referee.record import FORMAT, parse_header
from kp_helpers import deal, finish_game
from test_api import Table
from test_house_rules_and_voids import page_of
from test_turn_bar import bar_of, table_forms

KP = {"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"]}
FTW = {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}
EOTM = {"game": "employee-of-the-month", "seats": ["Anna", "Ben", "Cem"]}
SENATORS = {"game": "senators", "seats": ["Anna", "Ben", "Cem"]}
LG = {"game": "ladies-and-gentlemen", "seats": ["Anna", "Ben", "Cem", "Dora", "Emil"]}  # Emil is the courtesan


def table_at(app: Flask, body: dict[str, Any], off: list[str], *moves: dict[str, Any]) -> Table:
    """A table playing without the rules `off` (none: by every rule), every seat claimed, `moves` logged by the host."""
    referee = app.extensions["referee"]
    table = Table.__new__(Table)
    table.client = app.test_client()
    header = {"format": FORMAT, **body, "options": {}, **({"house_rules": {"off": off}} if off else {})}
    table.id = referee.tables.create(parse_header(header, None))
    table.code, table.host = referee.access.open_table(table.id)
    table.seats = {seat: table.client.post(f"/api/games/{table.id}/seats/{seat}", json={"code": table.code}).json["token"]
                   for seat in range(len(body["seats"]))}
    for move in moves:
        assert table.log(move).json["violation"] is None, move
    return table


def phone(app: Flask, table: Table, seat: int) -> tuple[FlaskClient, str]:
    """A seat's phone and the table page it shows."""
    client = page_of(app, table, table.seats[seat])
    return client, client.get(f"/g/{table.id}").get_data(as_text=True)


def bar(page: str) -> tuple[str, str | None]:
    """The turn bar's words and its button."""
    return bar_of(page[page.index('<nav class="turnbar'):])


def controls(page: str) -> str:
    """The part of the page with this phone's controls (under the table, above the bar)."""
    return page[page.index('<span id="actions">'):page.index('<nav class="turnbar')]


def tap(client: FlaskClient, table: Table, page: str, kind: str, **fields: str) -> dict[str, Any]:
    """Send the phone's form for a move of `kind` with its hidden fields, `fields` filled in;
    returns the event stored, with the rule it broke (None: none)."""
    form = next(f for f in re.findall(r"<form .*?</form>", controls(page), re.S) if f'name="type" value="{kind}"' in f)
    hidden = {name: html.unescape(value) for name, value in re.findall(r'<input type="hidden" name="([\w.]+)" value="([^"]*)"', form)}
    assert client.post(f"/g/{table.id}/log", data={**hidden, **fields}).status_code in (200, 302)
    fold = client.application.extensions["referee"].tables.fold(table.id)
    violation = fold.violation_at(fold.seq)
    return {**table.events()[-1], "rule": None if violation is None else violation.rule}


# --- Karriere Poker ---------------------------------------------------------------------------


def test_with_turns_off_ben_plays_while_anna_leads(app: Flask) -> None:
    table = table_at(app, KP, ["kp.turn"], deal(3))
    ben, page = phone(app, table, 1)
    assert "play" in table_forms(page) and bar(page) == ("Anna's turn", "Your move")
    assert tap(ben, table, page, "play", pick="5", count="1", jokers="0") == {**table.events()[-1], "cards": [5], "seat": 1, "rule": None}
    strict = table_at(app, KP, [], deal(3))
    assert "play" not in table_forms(phone(app, strict, 1)[1]) and bar(phone(app, strict, 1)[1]) == ("Anna's turn", None)


def test_with_turns_off_a_host_who_plays_plays_as_herself_and_by_the_rules_logs_for_the_one_on_turn(app: Flask) -> None:
    # Ben hosts and plays. With turns off his phone is a player's first: its controls are
    # his own seat's ("Your move", seat 1, logged as his own move). Playing by the rule, his
    # phone logs for Anna, who leads, and says so in the bar and above the controls.
    for off, said, actor in ((["kp.turn"], "Your move", "1"), ([], "Log for Anna", "0")):
        referee = app.extensions["referee"]
        header = {"format": FORMAT, **KP, "options": {}, **({"house_rules": {"off": off}} if off else {})}
        table = Table.__new__(Table)
        table.client, table.id = app.test_client(), referee.tables.create(parse_header(header, None), host_seat=1)
        table.code, table.host = referee.access.open_table(table.id)
        assert table.log(deal(3)).json["violation"] is None
        host = page_of(app, table, table.host)
        page = host.get(f"/g/{table.id}").get_data(as_text=True)
        assert bar(page) == ("Anna's turn", said)
        assert f'<input type="hidden" name="seat" value="{actor}">' in controls(page)
        assert ("Logging for Anna" in controls(page)) == (actor == "0")
        played = tap(host, table, page, "play", pick="5", count="1", jokers="0")
        assert (played["seat"], played["by"], played["rule"]) == ((1, 1, None) if off else (0, "host", None))


def second_game() -> list[dict[str, Any]]:
    """Game 1 dealt by Dora and played out Anna, Ben, Cem, Dora."""
    game = kp.KarrierePoker()
    state = game.apply(game.initial(KP["seats"], game.load_options({})), {"seq": 1, **deal(3)})
    assert isinstance(state, kp.State)
    return [deal(3), *finish_game(state, [0, 1, 2, 3])]


def test_with_any_dealer_allowed_the_deal_of_game_2_names_its_dealer(app: Flask) -> None:
    table = table_at(app, KP, ["kp.deal.dealer"], *second_game())
    cem, page = phone(app, table, 2)
    assert 'name="dealer"' in controls(page) and '<option value="3" selected>Dora</option>' in page  # the Tellerwäscher by default
    assert tap(cem, table, page, "deal", dealer="1")["rule"] is None and table.events()[-1]["dealer"] == 1
    strict = table_at(app, KP, [], *second_game())
    assert 'name="dealer"' not in controls(phone(app, strict, 2)[1])


def test_with_any_exchange_count_allowed_dora_picks_how_many_cards_she_gives(app: Flask) -> None:
    table = table_at(app, KP, ["kp.exchange.count"], *second_game(), deal())
    dora, page = phone(app, table, 3)
    assert '<option selected>2</option>' in controls(page) and "Dora gives Anna cards" in page
    assert tap(dora, table, page, "exchange", count="3") == {**table.events()[-1], "seat": 3, "to": 0, "count": 3, "rule": None}
    strict = table_at(app, KP, [], *second_game(), deal())
    page = phone(app, strict, 3)[1]
    assert 'name="count" value="2"' in controls(page) and "<select" not in controls(page).split("Log my hand")[0]


def test_when_play_need_not_wait_for_the_exchange_the_boss_leads_at_once(app: Flask) -> None:
    table = table_at(app, KP, ["kp.exchange.missing"], *second_game(), deal())
    anna, page = phone(app, table, 0)
    assert {"exchange", "play"} <= table_forms(page)
    assert tap(anna, table, page, "play", pick="7", count="1", jokers="0")["rule"] is None
    strict = table_at(app, KP, [], *second_game(), deal())
    assert "play" not in table_forms(phone(app, strict, 0)[1])


# --- FTW?! ------------------------------------------------------------------------------------


def chips(page: str, kind: str) -> list[int]:
    """The card buttons of a move's form."""
    form = next(f for f in re.findall(r"<form .*?</form>", controls(page), re.S) if f'name="type" value="{kind}"' in f)
    return [int(n) for n in re.findall(r'<button name="card" value="(\d+)"', form)]


def test_with_turns_off_in_ftw_cem_lays_a_card_on_annas_turn(app: Flask) -> None:
    table = table_at(app, FTW, ["ftw.turn"])
    cem, page = phone(app, table, 2)
    assert "high" in table_forms(page)
    assert tap(cem, table, page, "high", card="9")["rule"] is None
    assert "high" not in table_forms(phone(app, table_at(app, FTW, []), 2)[1])


def test_a_high_card_need_not_be_higher_so_every_card_is_offered(app: Flask) -> None:
    table = table_at(app, FTW, ["ftw.high.not-higher"], {"type": "high", "seat": 0, "card": 20})
    ben, page = phone(app, table, 1)
    assert chips(page, "high") == list(range(1, 37))
    assert tap(ben, table, page, "high", card="3")["rule"] is None
    strict = table_at(app, FTW, [], {"type": "high", "seat": 0, "card": 20})
    assert chips(phone(app, strict, 1)[1], "high") == list(range(21, 37))


def test_a_low_card_need_not_be_lower_so_every_card_is_offered(app: Flask) -> None:
    table = table_at(app, FTW, ["ftw.low.not-lower"], {"type": "high", "seat": 0, "card": 20})
    ben, page = phone(app, table, 1)
    assert chips(page, "low") == list(range(1, 37))
    assert tap(ben, table, page, "low", card="30", take="20")["rule"] is None
    strict = table_at(app, FTW, [], {"type": "high", "seat": 0, "card": 20})
    assert chips(phone(app, strict, 1)[1], "low") == list(range(1, 20))


def test_with_boosts_on_an_empty_pile_allowed_the_view_offers_boost_but_no_low() -> None:
    game = GAMES["ftw"]
    view = game.view(game.initial(FTW["seats"], game.load_options({})), 0)
    assert view["moves"] == ["high"]
    assert game.house_view(view, frozenset({"ftw.low.empty"}))["moves"] == ["high", "boost"]


# --- Employee of the Month, Senators, Ladies & Gentlemen ---------------------------------------

START = {"type": "start", "row": ["colleague-9", "boss-1", "boss-7", "colleague-10", "colleague-4", "boss-10", "colleague-3"],
         "distrust": 4, "points": "popularity-6"}


def test_with_turns_off_in_an_auction_cem_bids_before_anna(app: Flask) -> None:
    table = table_at(app, EOTM, ["eotm.turn"], START)
    cem, page = phone(app, table, 2)
    assert {"bid", "pass"} <= table_forms(page) and bar(page) == ("Anna's turn", "Your move")
    answer = cem.post(f"/g/{table.id}/log", data={"type": "bid", "card": "boss-7"})  # the bid buttons send the card
    assert answer.status_code in (200, 302) and table.events()[-1] == {**table.events()[-1], "seat": 2, "card": "boss-7"}
    assert app.extensions["referee"].tables.fold(table.id).violation_at(2) is None
    assert "bid" not in table_forms(phone(app, table_at(app, EOTM, [], START), 2)[1])


AUCTION = [{"type": "event", "kind": "other"}, {"type": "auction", "seat": 0, "cards": ["red-1", "purple-4", "red-5"]},
           {"type": "bid", "seat": 1, "bids": {"red-5": 3}}]


def test_a_bid_need_not_be_higher_so_prices_start_at_one(app: Flask) -> None:
    table = table_at(app, SENATORS, ["sen.bid.higher"], *AUCTION)
    cem, page = phone(app, table, 2)
    assert 'name="bids.red-5" value="1"' in controls(page)
    assert tap(cem, table, page, "bid", **{"bids.red-5": "1"}) == {**table.events()[-1], "bids": {"red-5": 1}, "rule": None}
    page = phone(app, table_at(app, SENATORS, [], *AUCTION), 2)[1]
    assert 'name="bids.red-5" value="1"' not in controls(page) and 'name="bids.red-5" value="4"' in controls(page)


def test_a_blackmailer_may_ask_a_player_twice_when_the_table_allows_it() -> None:
    game = GAMES["senators"]
    view = {"senators": {"Anna": 5, "Ben": 5, "Cem": 5}, "blackmail": {"demanded": ["Ben"], "targets": ["Cem"], "pending": None}}
    assert game.house_view(view, frozenset({"sen.demand.twice"}))["blackmail"]["targets"] == ["Ben", "Cem"]
    assert game.house_view(view, frozenset({"sen.bid.higher"}))["blackmail"]["targets"] == ["Cem"]


SHOPPING = [{"type": "day", "n": 1}, {"type": "number", "seat": 1, "number": 1}, {"type": "number", "seat": 3, "number": 2},
            {"type": "visit", "seat": 0, "boutique": "team-0"}, {"type": "visit", "seat": 2, "boutique": "team-0"},
            {"type": "visit", "seat": 4, "boutique": "team-2"}]  # Anna takes first in her own boutique, then Cem


def test_with_take_order_off_cem_takes_before_anna_in_her_boutique(app: Flask) -> None:
    table = table_at(app, LG, ["lg.take.order"], *SHOPPING)
    cem, page = phone(app, table, 2)
    assert "take" in table_forms(page)
    taken = tap(cem, table, page, "take", **{"card.price": "300", "card.stars": "1", "card.kind": "wardrobe"})
    assert taken["rule"] is None and taken["seat"] == 2 and taken["card"]["price"] == 300
    assert "take" not in table_forms(phone(app, table_at(app, LG, [], *SHOPPING), 2)[1])


EVENING = [*SHOPPING, {"type": "take", "seat": 0, "boutique": "team-0", "card": {"name": "gown-2", "kind": "wardrobe", "price": 500, "stars": 2}},
           {"type": "pass", "seat": 2, "boutique": "team-0"}, {"type": "pass", "seat": 0, "boutique": "team-0"},
           {"type": "take", "seat": 4, "boutique": "team-2", "card": {"name": "gown-6", "kind": "wardrobe", "price": 200, "stars": 4}}]


def test_out_of_phase_ben_settles_his_bills_before_the_courtesan_hands_on_her_card(app: Flask) -> None:
    table = table_at(app, LG, ["lg.phase"], *EVENING)
    ben, page = phone(app, table, 1)
    assert "bill" in table_forms(page) and 'name="card" value="gown-2"' in controls(page)
    assert tap(ben, table, page, "bill", choice="return") == {**table.events()[-1], "card": "gown-2", "choice": "return", "rule": None}
    assert "bill" not in table_forms(phone(app, table_at(app, LG, [], *EVENING), 1)[1])


# --- Senators: its turn rules off ---------------------------------------------------------------

DRAWN: list[dict[str, Any]] = [{"type": "event", "kind": "other"}]  # Anna's turn: her action is due
BIDDING: list[dict[str, Any]] = [*DRAWN, {"type": "auction", "seat": 0, "cards": ["red-1", "purple-4", "red-5"]}]  # Ben's bid is due
JOINING: list[dict[str, Any]] = [*DRAWN, {"type": "cash-in", "seat": 0}]  # Ben joins or passes first


def seat_of(form_kind: str, page: str) -> str:
    """The seat the phone's form for a move of `form_kind` acts for."""
    form = next(f for f in re.findall(r"<form .*?</form>", controls(page), re.S) if f'name="type" value="{form_kind}"' in f)
    return re.search(r'name="seat" value="(\d+)"', form)[1]  # type: ignore[index]


def test_with_turns_off_in_senators_cem_blackmails_on_annas_turn(app: Flask) -> None:
    table = table_at(app, SENATORS, ["sen.turn"], *DRAWN)
    cem, page = phone(app, table, 2)
    assert {"auction", "blackmail", "cash-in"} <= table_forms(page) and seat_of("auction", page) == "2"
    assert bar(page) == ("Anna's turn", "Your move")
    assert tap(cem, table, page, "blackmail") == {**table.events()[-1], "seat": 2, "by": 2, "rule": None}
    strict = phone(app, table_at(app, SENATORS, [], *DRAWN), 2)[1]
    assert not {"auction", "blackmail", "cash-in"} & table_forms(strict) and bar(strict) == ("Anna's turn", None)


def test_with_turns_off_cem_bids_before_ben_under_his_own_name(app: Flask) -> None:
    table = table_at(app, SENATORS, ["sen.turn"], *BIDDING)
    cem, page = phone(app, table, 2)
    assert "Bids of Cem" in controls(page) and "Bids of Ben" not in controls(page) and seat_of("bid", page) == "2"
    assert tap(cem, table, page, "bid", **{"bids.red-5": "3"}) == {**table.events()[-1], "seat": 2, "bids": {"red-5": 3}, "rule": None}
    assert bar(phone(app, table, 2)[1]) == ("Ben's turn", "Your move")  # Ben still bids; Cem may bid again
    assert "bid" not in table_forms(phone(app, table_at(app, SENATORS, [], *BIDDING), 2)[1])


def test_with_turns_off_cem_passes_on_annas_cash_in_before_ben(app: Flask) -> None:
    table = table_at(app, SENATORS, ["sen.turn"], *JOINING)
    cem, page = phone(app, table, 2)
    assert seat_of("join", page) == "2"
    assert tap(cem, table, page, "join", choice="pass") == {**table.events()[-1], "seat": 2, "choice": "pass", "rule": None}
    assert "join" not in table_forms(phone(app, table_at(app, SENATORS, [], *JOINING), 2)[1])


def test_with_cash_in_steps_at_any_time_cem_buys_a_senator_while_ben_bids_with_his_own_cards_in_sight(app: Flask) -> None:
    # Ben and Cem logged their starting cards; Cem's phone offers his own set, never Ben's cards,
    # and no "Done cashing in": he closes no cash-in.
    hands = [{"type": "hand", "seat": 1, "cards": ["orange-1", "orange-2", "orange-3"]},
             {"type": "hand", "seat": 2, "cards": ["red-7", "green-7", "blue-7"]}]
    table = table_at(app, SENATORS, ["sen.action.order"], *hands, *BIDDING)
    cem, page = phone(app, table, 2)
    assert {"sell-set", "buy-senators"} <= table_forms(page) and "done" not in table_forms(page) and "bid" not in table_forms(page)
    assert 'value="red-7"' in controls(page) and "orange-2" not in page and seat_of("sell-set", page) == "2"
    assert bar(page) == ("Ben's turn", "Your move")
    assert tap(cem, table, page, "buy-senators", count="1") == {**table.events()[-1], "seat": 2, "count": 1, "rule": None}
    strict = phone(app, table_at(app, SENATORS, [], *hands, *BIDDING), 2)[1]
    assert not {"sell-set", "buy-senators"} & table_forms(strict) and bar(strict) == ("Ben's turn", None)


def test_with_turns_off_a_host_who_plays_senators_starts_the_action_as_herself(app: Flask) -> None:
    # Ben hosts and plays. With turns off his phone's action forms are his own seat's; playing
    # by the rule, they log Anna's action, whose turn it is.
    for off, expected in ((["sen.turn"], (1, 1, None)), ([], (0, "host", None))):
        referee = app.extensions["referee"]
        header = {"format": FORMAT, **SENATORS, "options": {}, **({"house_rules": {"off": off}} if off else {})}
        table = Table.__new__(Table)
        table.client, table.id = app.test_client(), referee.tables.create(parse_header(header, None), host_seat=1)
        table.code, table.host = referee.access.open_table(table.id)
        assert table.log(DRAWN[0]).json["violation"] is None
        host = page_of(app, table, table.host)
        page = host.get(f"/g/{table.id}").get_data(as_text=True)
        played = tap(host, table, page, "blackmail")
        assert (played["seat"], played["by"], played["rule"]) == expected


def test_a_senators_seat_that_logged_its_starting_cards_is_not_offered_the_form_again(app: Flask) -> None:
    # A second starting hand would be flagged (sen.turn): once Ben's three cards are logged his
    # phone shows them among his cards and no longer offers the form; Cem's still does.
    table = table_at(app, SENATORS, [])
    assert table.log({"type": "hand", "seat": 1, "cards": ["red-1", "blue-2", "red-3"]}, table.seats[1]).json["violation"] is None
    _, ben = phone(app, table, 1)
    _, cem = phone(app, table, 2)
    assert 'name="type" value="hand"' not in controls(ben) and '<span class="nowrap">red 1</span>' in ben
    assert 'name="type" value="hand"' in controls(cem)
