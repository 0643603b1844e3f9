"""Karriere Poker test helpers: play a game out to a chosen finishing order."""

from __future__ import annotations

from typing import Any

from referee.games import karriere_poker as kp
from referee.games.base import Violation
from referee.record import Header
from referee.replay import Fold, replay


def deal(dealer: int | None = None) -> dict[str, Any]:
    return {"type": "deal"} if dealer is None else {"type": "deal", "dealer": dealer}


def play(seat: int, *cards: int | str) -> dict[str, Any]:
    return {"type": "play", "seat": seat, "cards": list(cards)}


def pass_(seat: int) -> dict[str, Any]:
    return {"type": "pass", "seat": seat}


def exchange(seat: int, to: int, *cards: int | str, count: int | None = None) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "exchange", "seat": seat, "to": to}
    if cards:
        event["cards"] = list(cards)
    if count is not None:
        event["count"] = count
    return event


def hand(seat: int, *cards: int | str) -> dict[str, Any]:
    return {"type": "hand", "seat": seat, "cards": list(cards)}


def finish_game(state: kp.State, order: list[int]) -> list[dict[str, Any]]:
    """Legal plays (public checks only) that end the current game with seats out in `order`.

    The seat due out next sheds cards in big sets; everyone else leads single low cards
    and passes otherwise. Asserts the order was reached.
    """
    game = kp.KarrierePoker()
    bodies: list[dict[str, Any]] = []
    supply = {n: state.seat_count for n in range(1, 14)}
    supply[14] = state.jokers
    while state.playing:
        target = next(s for s in order if state.sizes[s] > 0)
        seat = state.turn
        assert seat is not None
        size = state.sizes[seat]
        body: dict[str, Any]
        if state.leader == seat:
            if seat == target:
                number = max((n for n in range(1, 14) if supply[n]), key=lambda n: min(supply[n], size))
                count = min(supply[number], size)
            else:
                number, count = min(n for n in range(1, 14) if supply[n]), 1
            body = play(seat, *[number] * count)
        else:
            higher = [n for n in range(state.top_value + 1, 15) if supply[n] >= state.lead_count]
            if seat == target and higher and state.lead_count <= size:
                body = play(seat, *[kp.JOKER if higher[0] == 14 else higher[0]] * state.lead_count)
            else:
                body = pass_(seat)
        after = game.apply(state, {"seq": 0, **body})
        assert not isinstance(after, Violation), (body, after)
        if body["type"] == "play":
            supply[kp.card_index(body["cards"][0])] -= len(body["cards"])
        state = after
        bodies.append(body)
    assert list(state.finished[-1]) == order, (state.finished[-1], order)
    return bodies


def match(header: Header, *orders: list[int], dealer: int = 3, exchanges: bool = True) -> list[dict[str, Any]]:
    """Bodies of whole games finishing in `orders`; game 1 dealt by `dealer`.

    From game 2 the pairs exchange counts only (no hands logged).
    """
    bodies: list[dict[str, Any]] = []
    for number, order in enumerate(orders):
        bodies.append(deal(dealer if number == 0 else None))
        state: kp.State = _fold(header, bodies).state
        if exchanges:
            for giver, receiver, count in state.exchanges_missing():
                bodies.append(exchange(giver, receiver, count=count))
            state = _fold(header, bodies).state
        bodies.extend(finish_game(state, order))
    return bodies


def _fold(header: Header, bodies: list[dict[str, Any]]) -> Fold:
    return replay(header, [{**b, "seq": i} for i, b in enumerate(bodies, start=1)])
