"""Moves at the same moment: a phone's move made before it saw the latest events is stored
as it stands where those events leave it meaning the same (`Game.stands_beside`), and
refused as stale otherwise. Pairs of concurrent moves per game, conflicting and not.

| game | stands beside | conflicts with |
|---|---|---|
| every game | a note; another seat's private record (a hand) | any other move (turns: it changes whose turn it is); the seat's own record |
| Karriere Poker | another giver's exchange | an exchange by the same giver; a deal, a play |
| FTW?! | another seat's reveal of other cards | a reveal naming one of the same cards; a play |
| Employee of the Month, Senators | (nothing more: one player acts at a time; Senators bids in seat order) | |
| Ladies & Gentlemen | a take in another boutique; another gentleman's bill or done; the host's book-keeping | a take in the same boutique; the same gentleman's bill; a new phase |
"""

from __future__ import annotations

from typing import Any

import pytest
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
    assert not game.stands_beside({"type": "visit", "seat": 0, "boutique": "team-0"}, [{"type": "visit", "seat": 2, "boutique": "team-2"}])


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
