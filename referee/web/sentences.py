"""Every event of every game as a sentence in the phone's language.

History, Latest and "the table changed meanwhile" read as a table says it ("Ben plays
7 7.", "The host let event 18 stand: we agreed."), never as the record's field names. A
private event another seat logged is withheld from this reader: who logged what kind of
event is public, and its sentence says no more than that.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from flask_babel import gettext, ngettext

from .words import boutique_text, card_text, reason_words

Event = Mapping[str, Any]
Names = Sequence[str]


def event_sentence(game: str, event: Event, names: Names) -> str:
    """The sentence of one event (`event` as this reader may see it); a type no game words
    (none in a valid record) is named as it is."""
    name = names[event["seat"]] if event.get("seat") is not None else ""
    if event.get("withheld"):
        return WITHHELD.get(event["type"], lambda: gettext("%(name)s logs something private."))() % {"name": name}
    wording = COMMON.get(event["type"]) or GAMES.get(game, {}).get(event["type"])
    return wording(event, name, names) if wording else str(event["type"])


def cards(values: Sequence[Any]) -> str:
    """Cards as the table names them: "7 7 Joker", "rot 5, blau 3"."""
    if all(isinstance(value, int) or value == "J" for value in values):
        return " ".join(gettext("Joker") if value == "J" else str(value) for value in values)
    return ", ".join(card_text(value) for value in values)


def common_end(event: Event, name: str, names: Names) -> str:
    reason = event.get("reason")
    return gettext("The table ends the game: %(reason)s.", reason=reason) if reason else gettext("The table ends the game.")


def kp_exchange(event: Event, name: str, names: Names) -> str:
    to = names[event["to"]]
    if event.get("cards"):
        return gettext("%(name)s gives %(to)s %(cards)s.", name=name, to=to, cards=cards(event["cards"]))
    return ngettext("%(name)s gives %(to)s %(num)s card.", "%(name)s gives %(to)s %(num)s cards.", event.get("count", 0), name=name, to=to)


def senators_adjust(event: Event, name: str, names: Names) -> str:
    """The table's book-keeping: what changes for whom and why ("Ben: +6 money (tax refund).")."""
    changes = []
    if event.get("money"):
        changes.append(gettext("%(change)+d money", change=event["money"]))
    if event.get("senators"):
        changes.append(ngettext("%(change)+d senator", "%(change)+d senators", abs(event["senators"]), change=event["senators"]))
    said = ", ".join(changes) or gettext("no change")
    if event.get("office"):
        return gettext("%(name)s plays the %(office)s: %(changes)s (%(reason)s).", name=name, office=card_text(event["office"]), changes=said, reason=reason_words(event["reason"]))
    return gettext("%(name)s: %(changes)s (%(reason)s).", name=name, changes=said, reason=reason_words(event["reason"]))


def senators_event(event: Event, name: str, names: Names) -> str:
    card = event.get("name")
    if event["kind"] == "war":
        return gettext("The event card is a war: %(card)s.", card=card) if card else gettext("The event card is a war.")
    return gettext("The event card: %(card)s.", card=card) if card else gettext("The event card is drawn: no war.")


def senators_bid(event: Event, name: str, names: Names) -> str:
    bids = ", ".join(gettext("%(price)s on %(card)s", price=price, card=card_text(card)) for card, price in event["bids"].items())
    return gettext("%(name)s bids %(bids)s.", name=name, bids=bids) if bids else gettext("%(name)s does not bid.", name=name)


def with_office(sentence: str, event: Event) -> str:
    """A Senators move made with an office card ("… (as consul)")."""
    return sentence if not event.get("office") else gettext("%(move)s (as %(office)s)", move=sentence.rstrip("."), office=card_text(event["office"])) + "."


def lg_card(event: Event) -> dict[str, Any]:
    """A Ladies & Gentlemen card in full: its name, price and stars."""
    card = event["card"]
    return {"card": card_text(card["name"]), "price": card["price"], "stars": card["stars"]}


def lg_bill(event: Event, name: str, names: Names) -> str:
    said = {"pay": gettext("%(name)s pays for %(card)s."), "return": gettext("%(name)s returns %(card)s."),
            "defer": gettext("%(name)s defers %(card)s to tomorrow (£100)."),
            "discount": gettext("%(name)s takes the window card %(card)s at half price.")}[event["choice"]]
    return said % {"name": name, "card": card_text(event["card"])}


Wording = Callable[[Event, str, Names], str]

COMMON: dict[str, Wording] = {
    "void": lambda e, name, names: gettext("Event %(target)s withdrawn: %(reason)s.", target=e["target"], reason=reason_words(e.get("reason") or "voided-at-the-table")),
    "note": lambda e, name, names: gettext("Note: “%(text)s”", text=e["text"]),
    "pause": lambda e, name, names: gettext("The table takes a break."),
    "resume": lambda e, name, names: gettext("The table plays on after the break."),
    "end": common_end,
    "ruling": lambda e, name, names: gettext("The host let event %(target)s stand: %(reason)s.", target=e["target"], reason=reason_words(e.get("reason") or "we-agreed")),
}

HAND: Wording = lambda e, name, names: gettext("%(name)s logs the hand: %(cards)s.", name=name, cards=cards(e["cards"]))
PASS: Wording = lambda e, name, names: gettext("%(name)s passes.", name=name)

GAMES: dict[str, dict[str, Wording]] = {
    "karriere-poker": {
        "deal": lambda e, name, names: gettext("%(name)s deals.", name=names[e["dealer"]]) if e.get("dealer") is not None else gettext("The cards are dealt."),
        "hand": HAND,
        "exchange": kp_exchange,
        "play": lambda e, name, names: gettext("%(name)s plays %(cards)s.", name=name, cards=cards(e["cards"])),
        "pass": PASS,
    },
    "employee-of-the-month": {
        "start": lambda e, name, names: gettext("The row is laid out: %(row)s; the first prize is distrust %(distrust)s and %(points)s.",
                                                row=cards(e["row"]), distrust=e["distrust"], points=card_text(e["points"])),
        "reveal": lambda e, name, names: gettext("%(favour)s joins the row; the next prize is distrust %(distrust)s and %(points)s.",
                                                 favour=card_text(e["favour"]), distrust=e["distrust"], points=card_text(e["points"])),
        "bid": lambda e, name, names: gettext("%(name)s bids %(card)s.", name=name, card=card_text(e["card"])),
        "pass": PASS,
    },
    "ftw": {
        "hand": HAND,
        "high": lambda e, name, names: gettext("%(name)s plays %(card)s high.", name=name, card=e["card"]),
        "low": lambda e, name, names: gettext("%(name)s lays %(card)s low and takes %(take)s.", name=name, card=e["card"], take=e["take"]),
        "boost": lambda e, name, names: gettext("%(name)s boosts %(card)s with %(helpers)s.", name=name, card=e["card"], helpers=cards(e["helpers"])),
        "reveal": lambda e, name, names: gettext("%(name)s reveals %(cards)s.", name=name, cards=cards(e["cards"])),
    },
    "senators": {
        "hand": HAND,
        "event": senators_event,
        "adjust": senators_adjust,
        "sell-senator": lambda e, name, names: gettext("%(name)s sells a senator for 5.", name=name),
        "auction": lambda e, name, names: gettext("%(name)s auctions %(cards)s.", name=name, cards=cards(e["cards"])),
        "bid": senators_bid,
        "decide": lambda e, name, names: (gettext("%(name)s sells %(card)s.") if e["choice"] == "sell" else gettext("%(name)s buys %(card)s."))
        % {"name": name, "card": card_text(e["card"])},
        "blackmail": lambda e, name, names: gettext("%(name)s blackmails.", name=name),
        "demand": lambda e, name, names: gettext("%(name)s demands %(card)s from %(target)s for %(price)s.", name=name, card=card_text(e["card"]),
                                                 target=names[e["target"]], price=e["price"]),
        "answer": lambda e, name, names: gettext("%(name)s sells the demanded card.", name=name) if e["choice"] == "sell"
        else gettext("%(name)s keeps the demanded card.", name=name),
        "cash-in": lambda e, name, names: gettext("%(name)s cashes in.", name=name),
        "join": lambda e, name, names: gettext("%(name)s pays 5 and cashes in.", name=name) if e["choice"] == "pay" else gettext("%(name)s passes.", name=name),
        "sell-set": lambda e, name, names: with_office(gettext("%(name)s sells the set %(cards)s to the bank.", name=name, cards=cards(e["cards"])), e),
        "buy-senators": lambda e, name, names: with_office(ngettext("%(name)s buys %(num)s senator.", "%(name)s buys %(num)s senators.", e["count"], name=name), e),
        "done": lambda e, name, names: gettext("%(name)s has finished cashing in.", name=name),
    },
    "ladies-and-gentlemen": {
        "day": lambda e, name, names: gettext("Day %(n)s begins.", n=e["n"]),
        "number": lambda e, name, names: gettext("%(name)s takes number token %(number)s.", name=name, number=e["number"]),
        "window": lambda e, name, names: gettext("%(card)s (£%(price)s, %(stars)s★) goes into the window of %(boutique)s.",
                                                 boutique=boutique_text(names, e["boutique"]), **lg_card(e)),
        "income": lambda e, name, names: gettext("%(name)s's income: £%(amount)s (%(reason)s).", name=name, amount=e["amount"], reason=reason_words(e["reason"])),
        "visit": lambda e, name, names: gettext("%(name)s visits %(boutique)s.", name=name, boutique=boutique_text(names, e["boutique"])),
        "take": lambda e, name, names: gettext("%(name)s takes %(card)s (£%(price)s, %(stars)s★) in %(boutique)s.", name=name,
                                               boutique=boutique_text(names, e["boutique"]), **lg_card(e)),
        "pass": lambda e, name, names: gettext("%(name)s passes in %(boutique)s.", name=name, boutique=boutique_text(names, e["boutique"])),
        "give": lambda e, name, names: gettext("%(name)s hands %(card)s to %(to)s.", name=name, card=card_text(e["card"]), to=names[e["to"]]),
        "bill": lg_bill,
        "done": lambda e, name, names: gettext("%(name)s is done for tonight.", name=name),
        "keep": lambda e, name, names: gettext("%(name)s keeps %(cards)s for the next evening.", name=name, cards=cards(e["cards"])) if e["cards"]
        else gettext("%(name)s keeps no card for the next evening.", name=name),
        "gossip": lambda e, name, names: gettext("%(name)s passes a gossip card to %(to)s.", name=name, to=names[e["to"]]),
        "discard-gossip": lambda e, name, names: gettext("%(name)s discards a gossip card.", name=name),
        "ball": lambda e, name, names: gettext("%(name)s's elegance at the Ball: %(elegance)s.", name=name, elegance=e["elegance"]),
    },
}

# What a reader is told of another seat's private event: who logged what kind.
WITHHELD: dict[str, Callable[[], str]] = {
    "hand": lambda: gettext("%(name)s logs the hand (private)."),
    "income": lambda: gettext("%(name)s logs an income (private)."),
}
