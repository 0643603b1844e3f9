"""What just happened, said as the table says it: the line above the cards after a move.

Read from the game's view and result after the last move (no replay): a round won, a
player out with a position, a game over with the coming exchange, an auction won, a
round scored, and every move of Ladies & Gentlemen (players act at once there). Sentences go through gettext, so they are German when German is chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_babel import gettext, ngettext

from ..replay import Fold, Sight
from .sentences import event_sentence
from .words import card_text

Event = Mapping[str, Any]


def news(fold: Fold, view: Mapping[str, Any], last: Event | None, sight: Sight) -> list[str]:
    """Sentences about the table's last move (`last`: the latest event, voids and notes
    aside) from what this reader may know (`view` and the result are made for `sight`);
    empty when there is nothing to tell."""
    if last is None or fold.outcome is not None:
        return []
    flag = fold.violation_at(last["seq"])
    if flag is not None and sight.sees(flag.audience):  # a flagged move did not happen: its flag tells
        return []
    tell = TELLERS.get(fold.header.game)
    return tell(lambda: fold.result(sight).detail, view, last, fold.header.seats) if tell else []


Detail = Callable[[], dict[str, Any]]  # the game's result detail, worked out only when a sentence needs it


def karriere_poker(detail_of: Detail, view: Mapping[str, Any], last: Event, names: Sequence[str]) -> list[str]:
    said = []
    player = names[last["seat"]] if "seat" in last else None
    gone = next((out["position"] for out in view["out"] if out["player"] == player), None)  # by this play: he holds no card
    if last["type"] == "play" and gone is not None:
        said.append(gettext("%(name)s is out: %(position)s.", name=player, position=gone))
    if view["round_won_by"] and view["phase"] == "lead":
        winner, leader = view["round_won_by"], view["turn"]
        if winner == leader:
            said.append(gettext("%(name)s wins the round and leads.", name=winner))
        else:
            said.append(gettext("%(name)s wins the round; %(leader)s leads.", name=winner, leader=leader))
    if view["phase"] == "deal" and view["game"] and last["type"] in ("play", "pass"):
        detail = detail_of()  # the finish of the game just over, and the exchange
        game = detail["games"][-1]
        finish = " · ".join(f"{row['position']} {row['player']}" for row in game["finish"])
        said.append(gettext("Game %(number)s is over: %(finish)s.", number=game["game"], finish=finish))
        for pair in detail["next_exchange"]:
            said.append(ngettext(
                "Next game: %(worse)s (%(worse_position)s) gives %(better)s (%(better_position)s) the highest card; %(better)s gives back the lowest.",
                "Next game: %(worse)s (%(worse_position)s) gives %(better)s (%(better_position)s) the %(num)s highest cards; %(better)s gives back the %(num)s lowest.",
                pair["count"], **{k: v for k, v in pair.items() if k != "count"},
            ))
    return said


def employee_of_the_month(detail_of: Detail, view: Mapping[str, Any], last: Event, names: Sequence[str]) -> list[str]:
    if view["phase"] not in ("reveal", "over") or last["type"] not in ("bid", "pass"):
        return []
    auction = detail_of()["auctions"][-1]  # a bid or pass that ended an auction
    if auction["winner"] is None:
        return [gettext("Auction %(number)s: nobody bid.", number=auction["auction"])]
    return [gettext(
        "%(name)s wins auction %(number)s with %(card)s: distrust %(distrust)s and %(points)s.",
        name=auction["winner"], number=auction["auction"], card=card_text(auction["card"]), distrust=auction["distrust"],
        points=card_text(auction["points"]),
    )]


def ftw(detail_of: Detail, view: Mapping[str, Any], last: Event, names: Sequence[str]) -> list[str]:
    if last["type"] != "reveal" or view["phase"] != "play" or view["pile"] or view["round"] == 1:
        return []
    scored = detail_of()["rounds"][-1]
    scores = " · ".join(f"{name} {points}" for name, points in scored["scores"].items())
    return [gettext("Round %(number)s is scored: %(scores)s.", number=scored["round"], scores=scores)]


def senators(detail_of: Detail, view: Mapping[str, Any], last: Event, names: Sequence[str]) -> list[str]:
    if view["phase"] != "deciding" or last["type"] != "bid":
        return []
    return [
        gettext("%(name)s bids most for %(card)s: %(price)s.", name=high["bidder"], card=card_text(card), price=high["price"])
        for card, high in view["auction"]["high"].items()
    ] or [gettext("Nobody bid in this auction.")]


LG_TOLD = ("day", "visit", "take", "pass", "give", "bill", "done")  # public moves (an income is private)


def ladies_and_gentlemen(detail_of: Detail, view: Mapping[str, Any], last: Event, names: Sequence[str]) -> list[str]:
    """Players act at once here, so every public move is told: who took, paid or handed on what."""
    if last["type"] not in LG_TOLD:
        return []
    said = [event_sentence("ladies-and-gentlemen", last, names)]
    if last["type"] == "done" and view["phase"] in ("night", "ball"):
        said.append(gettext("Day %(n)s is over.", n=view["day"]))
    return said


TELLERS: dict[str, Callable[[Detail, Mapping[str, Any], Event, Sequence[str]], list[str]]] = {
    "karriere-poker": karriere_poker,
    "employee-of-the-month": employee_of_the_month,
    "ftw": ftw,
    "senators": senators,
    "ladies-and-gentlemen": ladies_and_gentlemen,
}
