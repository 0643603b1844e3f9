"""Moves at the same moment: a phone's move made before it saw the latest events is stored
as it stands where those events leave it meaning the same (`Game.stands_beside`), and
refused as stale otherwise. Pairs of concurrent moves per game, conflicting and not.

| game | stands beside | conflicts with |
|---|---|---|
| every game | a note; another seat's private record (a hand) | any other move (turns: it changes whose turn it is); the seat's own record |
| Karriere Poker | another giver's exchange | an exchange by the same giver; a deal, a play |
| FTW?! | another seat's reveal of other cards | a reveal naming one of the same cards; a play |
| Employee of the Month | (nothing more: one player acts at a time) | |
| Senators | a senator sold beside another seat's move (bids come in seat order) | the next event card; an `adjust` of the seller |
| Ladies & Gentlemen | another gentleman's other number; another shopper's visit (any boutique); a take or pass in another boutique; another gentleman's bill or done; the host's book-keeping | the same number; a take in the same boutique; the same gentleman's bill; a new phase |
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.games import GAMES
from test_api import Table
from test_privacy import LG_SETUP


def stale(table: Table, first: tuple[dict[str, Any], str | None], second: tuple[dict[str, Any], str | None]) -> tuple[int, int]:
    """Two phones that both saw the table at its current seq send a move each: the status of each."""
    seen = len(table.events())
    answers = [table.log({**body, "expected_seq": seen}, token) for body, token in (first, second)]
    return answers[0].status_code, answers[1].status_code


NOTE = {"type": "note", "text": "Cem fetches drinks"}
TURN_GAMES = {
    "karriere-poker": ({"seats": ["Anna", "Ben", "Cem", "Dora"]}, [{"type": "deal", "dealer": 3}],
                       {"type": "play", "seat": 0, "cards": [5]}, {"type": "play", "seat": 1, "cards": [7]}),
    "ftw": ({"seats": ["Anna", "Ben", "Cem"]}, [], {"type": "high", "seat": 0, "card": 5}, {"type": "high", "seat": 1, "card": 7}),
    "senators": ({"seats": ["Anna", "Ben", "Cem"]}, [{"type": "event", "kind": "other"}],
                 {"type": "auction", "seat": 0, "cards": ["red-1"]}, {"type": "blackmail", "seat": 0}),
    "employee-of-the-month": ({"seats": ["Anna", "Ben", "Cem"]},
                              [{"type": "start", "row": ["boss-9", "colleague-1", "colleague-5", "boss-3", "colleague-3", "boss-6", "colleague-8"],
                                "distrust": 2, "points": "plus-4"}],
                              {"type": "bid", "seat": 0, "card": "boss-3"}, {"type": "pass", "seat": 1}),
}


@pytest.mark.parametrize("game", sorted(TURN_GAMES))
def test_in_a_game_of_turns_a_move_stands_beside_a_note_and_not_beside_another_move(client: FlaskClient, game: str) -> None:
    header, setup, move, other = TURN_GAMES[game]
    table = Table(client, {"game": game, **header}, claim=(0, 1))
    for body in setup:
        table.log(body)
    assert stale(table, (NOTE, None), (move, table.seats[0])) == (201, 201)  # a note beside a move
    assert stale(table, (other, None), (move, table.seats[0])) == (201, 409)  # the table moved on: tap again
    assert GAMES[game].stands_beside(move, [NOTE]) and not GAMES[game].stands_beside(move, [other])


def lg_table(client: FlaskClient) -> Table:
    table = Table(client, {"game": "ladies-and-gentlemen", "seats": ["Anna", "Ben", "Cem", "Dora"]}, claim=(0, 1, 2, 3))
    for _, (seat, body) in LG_SETUP[:5]:  # day 1, the numbers, the two ladies' visits
        table.log(body)
    return table


def gown(n: int, price: int = 100) -> dict[str, Any]:
    return {"name": f"gown-{n}", "kind": "wardrobe", "price": price, "stars": 1}


def test_two_ladies_take_in_different_boutiques_at_the_same_moment(client: FlaskClient) -> None:
    table = lg_table(client)
    anna = {"type": "take", "seat": 0, "boutique": "team-0", "card": gown(1)}
    cem = {"type": "take", "seat": 2, "boutique": "team-2", "card": gown(2)}
    assert stale(table, (anna, table.seats[0]), (cem, table.seats[2])) == (201, 201)
    assert [e["type"] for e in table.events()[-2:]] == ["take", "take"] and all(e["violation"] is None for e in table.events()[-2:])


def test_two_takes_in_the_same_boutique_conflict(client: FlaskClient) -> None:
    table = lg_table(client)
    anna = {"type": "take", "seat": 0, "boutique": "team-0", "card": gown(1)}
    cem = {"type": "take", "seat": 2, "boutique": "team-0", "card": gown(1)}  # the same card in the same boutique
    assert stale(table, (anna, table.seats[0]), (cem, table.seats[2])) == (201, 409)


def test_gentlemen_settle_their_own_bills_at_once_not_each_others() -> None:
    game = GAMES["ladies-and-gentlemen"]
    ben_pays = {"type": "bill", "seat": 1, "card": "gown-1", "choice": "pay"}
    dora_pays = {"type": "bill", "seat": 3, "card": "gown-2", "choice": "pay"}
    assert game.stands_beside(ben_pays, [dora_pays, {"type": "done", "seat": 3}, NOTE, {"type": "ball", "seat": 0, "elegance": 5}])
    assert not game.stands_beside(ben_pays, [{"type": "bill", "seat": 1, "card": "gown-3", "choice": "return"}])  # his own money changed
    assert not game.stands_beside(ben_pays, [{"type": "day", "n": 2}])  # a new phase
    assert not game.stands_beside({"type": "visit", "seat": 0, "boutique": "team-0"}, [{"type": "visit", "seat": 0, "boutique": "team-2"}])  # her own


def lg_morning(client: FlaskClient, numbers: bool) -> Table:
    """Five at the table, Emil the courtesan: day 1 begins (and, with `numbers`, both gentlemen hold theirs)."""
    table = Table(client, {"game": "ladies-and-gentlemen", "seats": ["Anna", "Ben", "Cem", "Dora", "Emil"]}, claim=(0, 1, 2, 3, 4))
    table.log({"type": "day", "n": 1})
    if numbers:
        table.log({"type": "number", "seat": 1, "number": 2})
        table.log({"type": "number", "seat": 3, "number": 1})
    return table


def test_two_gentlemen_take_number_tokens_at_once_unless_they_take_the_same(client: FlaskClient) -> None:
    table = lg_morning(client, numbers=False)
    ben, dora = {"type": "number", "seat": 1, "number": 2}, {"type": "number", "seat": 3, "number": 1}
    assert stale(table, (ben, table.seats[1]), (dora, table.seats[3])) == (201, 201)
    assert all(e["violation"] is None for e in table.events())
    # Next morning both grab token 1: the one who was second takes another.
    table = lg_morning(client, numbers=False)
    assert stale(table, (ben | {"number": 1}, table.seats[1]), (dora, table.seats[3])) == (201, 409)


def test_three_shoppers_choose_their_boutiques_at_once_two_of_them_the_same(client: FlaskClient) -> None:
    table = lg_morning(client, numbers=True)
    seen = len(table.events())
    visits = [(0, "team-0"), (2, "team-0"), (4, "team-2")]  # Anna and Cem share Anna's boutique: the spec allows it
    answers = [table.log({"type": "visit", "seat": seat, "boutique": shop, "expected_seq": seen}, table.seats[seat]) for seat, shop in visits]
    assert [a.status_code for a in answers] == [201, 201, 201]
    assert [(e["seat"], e["boutique"], e["violation"]) for e in table.events()[-3:]] == [(s, b, None) for s, b in visits]


def test_a_take_stands_beside_a_pass_in_another_boutique_not_in_her_own() -> None:
    game = GAMES["ladies-and-gentlemen"]
    anna_takes = {"type": "take", "seat": 0, "boutique": "team-0", "card": gown(1)}
    assert game.stands_beside(anna_takes, [{"type": "pass", "seat": 4, "boutique": "team-2"}])
    assert not game.stands_beside(anna_takes, [{"type": "pass", "seat": 2, "boutique": "team-0"}])  # the turn in her boutique moved
    assert not game.stands_beside(anna_takes, [{"type": "give", "seat": 4, "card": "gown-9", "to": 1}])  # the evening began


def test_a_senator_is_sold_while_another_player_bids_but_not_past_the_next_event_card(client: FlaskClient) -> None:
    table = Table(client, {"game": "senators", "seats": ["Anna", "Ben", "Cem"]}, claim=(0, 1, 2))
    table.log({"type": "event", "kind": "other"})
    table.log({"type": "auction", "seat": 0, "cards": ["red-1"]})
    cem_sells = {"type": "sell-senator", "seat": 2}
    assert stale(table, ({"type": "bid", "seat": 1, "bids": {"red-1": 2}}, table.seats[1]), (cem_sells, table.seats[2])) == (201, 201)
    assert all(e["violation"] is None for e in table.events())
    senators = GAMES["senators"]
    assert not senators.stands_beside(cem_sells, [{"type": "event", "kind": "war"}])  # the 4th war may have ended the game
    assert not senators.stands_beside(cem_sells, [{"type": "adjust", "seat": 2, "senators": -1, "reason": "plague"}])  # his own senators


def test_two_phones_take_number_tokens_through_the_page_and_both_are_stored(app: Flask) -> None:
    # Ben's and Dora's phones both show event 1 (the day) and both tap a number token.
    table = lg_morning(app.test_client(), numbers=False)
    phones = {}
    for seat in (1, 3):
        phones[seat] = app.test_client()
        phones[seat].set_cookie("referee_token", table.seats[seat], path=f"/g/{table.id}")
    pages = [phones[seat].post(f"/g/{table.id}/log", data={"type": "number", "number": str(number), "expected_seq": "1"},
                               headers={"HX-Request": "true"}).get_data(as_text=True) for seat, number in ((1, 2), (3, 1))]
    assert all("changed meanwhile" not in page and 'role="alert"' not in page for page in pages)
    assert [(e["seat"], e["number"], e["violation"]) for e in table.events()[1:]] == [(1, 2, None), (3, 1, None)]
    # At another table both tap token 1 on pages that show the day: the second is refused as stale, saying why.
    lg_day = lg_morning(app.test_client(), numbers=False)
    for seat in (1, 3):
        phones[seat].set_cookie("referee_token", lg_day.seats[seat], path=f"/g/{lg_day.id}")
    first, second = (phones[seat].post(f"/g/{lg_day.id}/log", data={"type": "number", "number": "1", "expected_seq": "1"},
                                       headers={"HX-Request": "true"}).get_data(as_text=True) for seat in (1, 3))
    assert "changed meanwhile" not in first and "changed meanwhile" in second and len(lg_day.events()) == 2


def test_a_move_stands_beside_another_seats_private_hand_not_its_own(client: FlaskClient) -> None:
    # Ben logs his hand while Anna plays: neither knew of the other; both stand.
    table = Table(client, {"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"]}, claim=(0, 1))
    table.log({"type": "deal", "dealer": 3})
    bens_hand = {"type": "hand", "seat": 1, "cards": [1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]}
    assert stale(table, (bens_hand, table.seats[1]), ({"type": "play", "seat": 0, "cards": [5]}, table.seats[0])) == (201, 201)
    game = GAMES["karriere-poker"]
    assert not game.stands_beside({"type": "play", "seat": 1, "cards": [5]}, [bens_hand])  # his own hand changes what he holds


def test_givers_exchange_at_once_and_ftw_hands_are_revealed_at_once() -> None:
    kp, ftw = GAMES["karriere-poker"], GAMES["ftw"]
    anna_gives = {"type": "exchange", "seat": 0, "to": 3, "cards": [12, 13]}
    ben_gives = {"type": "exchange", "seat": 1, "to": 2, "cards": [11]}
    assert kp.stands_beside(anna_gives, [ben_gives, NOTE])
    assert not kp.stands_beside(anna_gives, [{"type": "exchange", "seat": 0, "to": 3, "cards": [1, 2]}])  # her own exchange
    assert not kp.stands_beside(anna_gives, [{"type": "deal"}])
    anna_reveals = {"type": "reveal", "seat": 0, "cards": [27, 5]}
    assert ftw.stands_beside(anna_reveals, [{"type": "reveal", "seat": 1, "cards": [30]}])
    assert not ftw.stands_beside(anna_reveals, [{"type": "reveal", "seat": 1, "cards": [27]}])  # both name 27: one is wrong
    assert not ftw.stands_beside(anna_reveals, [{"type": "high", "seat": 1, "card": 9}])
