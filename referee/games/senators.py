"""Senators (`senators`): auctions, blackmail and cash-ins of resource cards for senators.

Reference: docs/games/ (made from this module). Decisions where the rules are silent:
- What is secret: a recorded starting hand, until the reveal. Every other event is public,
  a sold set included (the spec counts its cards as publicly known). Money moves only by
  public events, so it is not a secret in the privacy model's sense: each phone shows only
  its own money until the reveal, as coins behind a screen, but a player who follows
  every move can work it out, as at the real table.
- Each card has a public place: face up or face down before a seat, in the running
  auction, or out of play (sold to the bank, a played office, an undecided auction card
  of an eliminated player). A card with no place is still in a deck or in a starting
  hand. A card "already in play or out of it" is one that has a place. Recorded hands are
  kept apart (`hands`).
- A seat whose hand is not recorded may sell up to 3 resource cards never seen elsewhere
  as his hand cards (the spec's rule); after that such a card is `sen.card.owner`. A move
  is judged as if no hand were recorded: a card that only a recorded hand contradicts (an
  auctioned card in a recorded hand, a sold card missing from the seller's recorded hand)
  is a clash, never a flag: the host sees it at once, the hand's seat too, everyone at
  the reveal. A hand is judged on public places and the seat's own records.
- `event` is a table event; the first one starts seat `first`'s turn, each later one the
  next seat clockwise that still has senators.
- A `demand` outside a blackmail, a `bid` outside the bidding, an action before the
  turn's event or a second action: `sen.turn` (not this phase). An `answer` without a
  pending demand and a `decide` while no auction waits for decisions:
  `sen.action.order`, as the spec lists them.
- `sell-set` takes `office` only for the quaestor and `buy-senators` only for the consul
  (format errors otherwise); a governor is one of a set's three `cards`. A set holds at
  most one governor; with the quaestor it holds resource cards only.
- An office `adjust` needs the office's holder to be cashing in now; any held office may
  be played so (the censor is the one the spec names); the card is discarded.
- When a player is eliminated while a demand to him is pending, the demand is dropped and
  the blackmail is finished (the next `event` may come). While he is cashing in, his
  cash-in ends and the next player's `join` is due. His standing bids are withdrawn: on
  each undecided card the last bid left holds (in legal play the highest; after a ruled
  bid that was not higher, the one that stood last before his); a card with none left
  has no bid and, once the bidding is over, goes to the active player free.
- Bids move no money and are not checked against it; the payer of a `decide` is.
- `ranking` before the end orders by senators only (money is secret); at the end by
  senators, then money. `result` shows money only once the game is over.
- A game the table ends before the 4th war (and before only one player has senators
  left) names no winner: senators, then money rank the standings it reached.
- `adjust` is logged by the host (it is the table's book-keeping, not a move).
- A move the table lets stand (a `ruling`, or a rule its `house_rules` turn off) applies
  this module's effect as for a legal move, where the state has a place for it (`referee.replay`):
  - out of turn: a bid or `join` out of order is the mover's turn; the queue goes on
    clockwise from him, and those he passed over bid (join) when it comes round to them.
    An auction, blackmail or cash-in by another seat makes him the active player: the
    next event card starts his left neighbour's turn. A `decide` or `demand` by another
    seat stands as the active player's (he pays on `buy`, as the check judges it); an
    `answer` by a seat that is not the target as the target's.
  - not higher: the bid becomes the card's high bid, its bidder holds it; a price below
    1 is paid as named. A bid's prices on cards not in the auction name nothing: they
    are dropped, the rest of the bid stands.
  - wrong amount: the effect uses what the move names: every card of an auction of too
    many cards; a "set" that is not one is sold for the sum of its resource values.
  - no meaning (the state stays, `"applied": false`): a bid outside the bidding, a
    `decide` with nothing to decide or of a card decided already, an `answer` with no
    demand (the spec's list), and, as decided here, a `demand` outside a blackmail, a
    `join` while nobody may join, a `done` outside a cash-in (there is nothing they
    could join or close). A demand to an eliminated player is dropped at once; a demand
    while another is pending replaces it.
  - a consul played outside a cash-in lowers only that purchase's price.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from .base import Event, Game, NoMeaning, Outcome, Result, Seat, Termination, Violation, because, broken, ended_early, evolve, replace_at

COLOURS = ("red", "orange", "yellow", "green", "blue", "purple")
OFFICES = ("governor", "censor", "consul", "quaestor")
WARS_TO_END = 4
START_SENATORS = 5
SENATOR_PRICE = 10
SELL_SENATOR = 5
JOIN_PRICE = 5
BLACKMAIL_TAKE = 3
RUN_BONUS = 15

Place = tuple[str, int]  # ("hand" | "up" | "down", seat) or ("auction" | "out", -1)
AUCTION: Place = ("auction", -1)
OUT: Place = ("out", -1)


def resource(card: str) -> tuple[str, int] | None:
    """("red", 7) for "red-7"; None for an office."""
    colour, _, value = card.rpartition("-")
    return (colour, int(value)) if colour and value.isdigit() and not card.startswith("office-") else None


def office_type(card: str) -> str | None:
    """"governor" for "office-governor-red", "censor" for "office-censor"; None for a resource."""
    if not card.startswith("office-"):
        return None
    return card.split("-")[1]


def well_formed(card: str, colours: Sequence[str]) -> bool:
    """Whether `card` names a card of a game with these colours (offices of any type)."""
    parts = card.split("-")
    if parts[0] == "office":
        if len(parts) == 3 and parts[1] == "governor":
            return parts[2] in colours
        return len(parts) == 2 and parts[1] in ("censor", "consul", "quaestor")
    return len(parts) == 2 and parts[0] in colours and parts[1] in {str(v) for v in range(1, 10)}


def set_payout(cards: Sequence[str], quaestor: bool) -> int | None:
    """What the bank pays for these three cards, or None if they are not a set."""
    if len(cards) != 3 or len(set(cards)) != 3:
        return None
    resources = [resource(c) for c in cards]
    governors = [c for c in cards if office_type(c) == "governor"]
    if quaestor:
        return None if None in resources else sum(r[1] for r in resources if r)
    if len(governors) > 1 or len([r for r in resources if r]) + len(governors) != 3:
        return None
    known = [r for r in resources if r]
    options = [known]
    if governors:
        colour = governors[0].split("-", 2)[2]
        options = [[*known, (colour, value)] for value in range(1, 10)]
    best = None
    for hand in options:
        pay = _plain_set(hand)
        if pay is not None and (best is None or pay > best):
            best = pay
    return best


def _plain_set(cards: Sequence[tuple[str, int]]) -> int | None:
    colours = {c for c, _ in cards}
    values = sorted(v for _, v in cards)
    if len(colours) == 1:
        run = values[1] == values[0] + 1 and values[2] == values[1] + 1
        return sum(values) + (RUN_BONUS if run else 0)
    if len(set(values)) == 1:
        return sum(values)
    return None


class Card(fields.String):
    """A card name; the record checks it against the header's colours (Senators.card_errors)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(validate=validate.Length(min=3, max=40), **kwargs)


def money_option(value: Any) -> None:
    if any(type(v) is not int or v < 0 for v in value):
        raise ValidationError("Money must be whole numbers of at least 0.")


class Options(Schema):
    first = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0), metadata={"description": "the starting player"})
    money = fields.List(fields.Raw(), validate=[validate.Length(min=3, max=5), money_option],
                        metadata={"description": "start money per seat (default: 10 for the starting player, 3 more for each seat clockwise)"})
    colours = fields.List(fields.String(validate=validate.Regexp(r"^[^\s\-]{1,20}$", error="A colour is 1 to 20 letters without spaces or dashes.")),
                          load_default=lambda: list(COLOURS),
                          validate=validate.Length(equal=6), metadata={"description": "the 6 colour names of the resource cards"})
    offices = fields.List(fields.String(validate=validate.OneOf(OFFICES)), load_default=lambda: list(OFFICES),
                          validate=validate.Length(max=4), metadata={"description": "the office types in play"})
    consul_price = fields.Integer(strict=True, load_default=5, validate=validate.Range(min=1, max=10),
                                  metadata={"description": "what a senator costs once the consul is played"})

    @validates_schema
    def _distinct(self, data: dict[str, Any], **kwargs: Any) -> None:
        if len(set(data["colours"])) != 6:
            raise ValidationError("The 6 colours must differ.", "colours")
        if "office" in data["colours"]:
            raise ValidationError("'office' names the office cards: it cannot be a colour.", "colours")
        if len(set(data["offices"])) != len(data["offices"]):
            raise ValidationError("Each office type once.", "offices")


@dataclass(frozen=True)
class Auction:
    cards: tuple[str, ...]
    bidders: tuple[int, ...]  # still to bid, in order
    high: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # card -> (price, bidder)
    decided: frozenset[str] = frozenset()
    bids: tuple[tuple[str, int, int], ...] = ()  # every bid on a card of this auction: (card, price, bidder), in order

    @property
    def deciding(self) -> bool:
        return not self.bidders

    @property
    def open_decisions(self) -> list[str]:
        return [c for c in self.cards if c in self.high and c not in self.decided]


@dataclass(frozen=True)
class Blackmail:
    demanded: frozenset[int] = frozenset()
    pending: tuple[int, str, int] | None = None  # (target, card, price)


@dataclass(frozen=True)
class CashIn:
    queue: tuple[int, ...]  # other seats still to join or pass, in order
    casher: int | None = None  # who is cashing in now
    consul: bool = False  # the consul was played in this player's cash-in


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    first: int
    colours: tuple[str, ...]
    offices: frozenset[str]
    consul_price: int
    money: tuple[int, ...]
    senators: tuple[int, ...]
    places: Mapping[str, Place] = field(default_factory=dict)  # public
    hands: tuple[frozenset[str] | None, ...] = ()  # recorded starting cards not yet used: private
    unseen_used: tuple[int, ...] = ()  # cards used that had no public place (hand cards)
    started: bool = False  # the first event card is drawn
    active: int = 0
    action: Auction | Blackmail | CashIn | None = None
    action_done: bool = False
    wars: int = 0
    turns: tuple[tuple[str, tuple[int, ...], tuple[int, ...]], ...] = ()  # (active, senators, money) after each turn

    @property
    def seat_count(self) -> int:
        return len(self.names)

    def alive(self, seat: int) -> bool:
        return self.senators[seat] > 0

    @property
    def alive_seats(self) -> list[int]:
        return [s for s in range(self.seat_count) if self.alive(s)]

    @property
    def over(self) -> bool:
        return self.wars >= WARS_TO_END or self.players_left <= 1

    @property
    def players_left(self) -> int:
        """How many still have senators (asked after every event: no list is built)."""
        return sum(1 for senators in self.senators if senators > 0)

    def others_from_left(self, seat: int) -> tuple[int, ...]:
        """The other seats still in the game, clockwise from `seat`'s left."""
        n = self.seat_count
        return tuple(s for s in ((seat + k) % n for k in range(1, n)) if self.alive(s))

    def cards_of(self, seat: int, *kinds: str) -> list[str]:
        """The seat's cards of these kinds: "up", "down" (public places), "hand" (recorded)."""
        hand = self.hands[seat] if "hand" in kinds else None
        return sorted([*(c for c, (kind, owner) in self.places.items() if owner == seat and kind in kinds), *(hand or ())])


def _start_money(seats: int, first: int) -> tuple[int, ...]:
    """10 for the starting player, 3 more for each seat clockwise from him."""
    return tuple(10 + 3 * ((seat - first) % seats) for seat in range(seats))


class Senators(Game[State]):
    name = "senators"
    title = "Senators"
    min_players = 3
    scoring = (
        "The game ends at the 4th war or when only one player has senators. Most senators wins; a tie goes "
        "to the richer; equal in both share. `scores`: senators; `result`: senators and money after every "
        "turn, the wars, and at the end each player's money and cards."
    )
    max_players = 5
    rules = {
        "sen.eliminated": "an eliminated player acts, or is the seat of an adjust",
        "sen.turn": "not this seat's turn or phase",
        "sen.action.order": "an answer without a pending demand, a decide while no auction waits, a demand to oneself or an eliminated player, cashing-in steps by a seat not cashing in now",
        "sen.auction.cards": "an auction with more than 3 resource cards or more than one office",
        "sen.card.unknown": "a card entering play that is already in play or out of it, or an office type not in play",
        "sen.card.owner": "a card used that the seat does not hold (demands: only face-up cards)",
        "sen.bid.higher": "a price not above the card's current highest bid, or below 1",
        "sen.bid.card": "a bid on a card not in this auction",
        "sen.decide.card": "deciding a card twice, or one without a bid",
        "sen.demand.twice": "a second demand to the same player in one blackmail",
        "sen.set.invalid": "three cards that are not a set (with the offices allowed)",
        "sen.money.short": "a payment larger than the payer's money; an adjust below 0 money",
        "sen.senators.none": "an adjust below 0 senators",
    }
    # What a table allows that turns a rule off (its house rule), in the rules' order.
    allows = {
        "sen.eliminated": "An eliminated player may still act",
        "sen.turn": "A player may act out of turn or phase",
        "sen.action.order": "Answers, decisions, demands and cash-in steps may come at any time",
        "sen.auction.cards": "An auction may offer any cards",
        "sen.card.unknown": "A card may enter play twice, and offices not in play may come",
        "sen.card.owner": "A player may use cards he does not hold",
        "sen.bid.higher": "A bid need not be above the highest bid",
        "sen.bid.card": "A bid may name a card not in the auction",
        "sen.decide.card": "A card may be decided twice, or without a bid",
        "sen.demand.twice": "A blackmailer may ask one player twice",
        "sen.set.invalid": "Any three cards may be sold as a set",
        "sen.money.short": "A player may pay more than he has",
        "sen.senators.none": "Senators may go below 0",
    }
    events = {
        "hand": {"seat": Seat(required=True), "cards": fields.List(Card(), required=True, validate=validate.Length(equal=3))},
        "event": {"kind": fields.String(required=True, validate=validate.OneOf(["war", "other"])),
                  "name": fields.String(validate=validate.Length(max=80))},
        "adjust": {"seat": Seat(required=True), "money": fields.Integer(strict=True, validate=validate.Range(-10**6, 10**6)),
                   "senators": fields.Integer(strict=True, validate=validate.Range(-100, 100)),
                   "reason": fields.String(required=True, validate=validate.Length(min=1, max=200)), "office": Card()},
        "sell-senator": {"seat": Seat(required=True)},
        "auction": {"seat": Seat(required=True), "cards": fields.List(Card(), required=True, validate=validate.Length(min=1, max=8))},
        "bid": {"seat": Seat(required=True),
                "bids": fields.Dict(keys=Card(), values=fields.Integer(strict=True, validate=validate.Range(-10**6, 10**6)),
                                    required=True, validate=validate.Length(max=8))},
        "decide": {"seat": Seat(required=True), "card": Card(required=True),
                   "choice": fields.String(required=True, validate=validate.OneOf(["sell", "buy"]))},
        "blackmail": {"seat": Seat(required=True)},
        "demand": {"seat": Seat(required=True), "target": Seat(required=True), "card": Card(required=True),
                   "price": fields.Integer(strict=True, required=True, validate=validate.Range(1, 10**6))},
        "answer": {"seat": Seat(required=True), "choice": fields.String(required=True, validate=validate.OneOf(["sell", "keep"]))},
        "cash-in": {"seat": Seat(required=True)},
        "join": {"seat": Seat(required=True), "choice": fields.String(required=True, validate=validate.OneOf(["pay", "pass"]))},
        "sell-set": {"seat": Seat(required=True), "cards": fields.List(Card(), required=True, validate=validate.Length(equal=3)),
                     "office": fields.String(validate=validate.Equal("office-quaestor"))},
        "buy-senators": {"seat": Seat(required=True), "count": fields.Integer(strict=True, required=True, validate=validate.Range(1, 100)),
                         "office": fields.String(validate=validate.Equal("office-consul"))},
        "done": {"seat": Seat(required=True)},
    }
    options = Options
    private_events = frozenset({"hand"})
    host_events = frozenset({"adjust"})
    revealed_view = frozenset({"money"})  # everyone's money at the end: shown once the host reveals

    def handlers(self) -> Mapping[str, Any]:
        return {
            "hand": (self._hand_checks, self._hand),
            "event": (self._event_checks, self._event),
            "adjust": (self._adjust_checks, self._adjust),
            "sell-senator": (self._alive_checks, self._sell_senator),
            "auction": (self._auction_checks, self._auction),
            "bid": (self._bid_checks, self._bid),
            "decide": (self._decide_checks, self._decide),
            "blackmail": (self._start_checks, self._blackmail),
            "demand": (self._demand_checks, self._demand),
            "answer": (self._answer_checks, self._answer),
            "cash-in": (self._start_checks, self._cash_in),
            "join": (self._join_checks, self._join),
            "sell-set": (self._sell_set_checks, self._sell_set),
            "buy-senators": (self._buy_checks, self._buy),
            "done": (self._casher_checks, self._done),
        }

    def beside(self, move: Event, event: Event) -> bool:
        """Bids come in seat order, so the only move made at any moment is a senator sold
        to the bank: it stands beside another seat's move or book-keeping (an `adjust` of
        another seat), never beside the next event card (the 4th war ends the game) or an
        `adjust` of the seller (his last senator may be gone)."""
        if move["type"] == "sell-senator" and event.get("seat") not in (None, move["seat"]):
            return True
        return super().beside(move, event)

    def card_errors(self, start: State, event: Event) -> dict[str, list[str]]:
        """Format errors the schema cannot see: card names against the header's colours."""
        colours = start.colours
        names: list[tuple[str, str]] = []
        for key in ("card", "office"):
            if key in event:
                names.append((key, event[key]))
        names += [("cards", c) for c in event.get("cards", [])] + [("bids", c) for c in event.get("bids", {})]
        errors: dict[str, list[str]] = {}
        for key, card in names:
            if not well_formed(card, colours):
                errors.setdefault(key, []).append(f"{card!r} is not a card of this game (colours: {' '.join(colours)}; values 1–9; offices).")
        if event["type"] == "hand" and not errors and any(resource(c) is None for c in event["cards"]):
            errors["cards"] = ["A starting hand is 3 resource cards."]
        return errors

    def initial(self, seats: Sequence[str], options: Mapping[str, Any]) -> State:
        n = len(seats)
        first = options["first"]
        if first >= n:
            raise ValidationError({"first": [f"There is no seat {first}."]})
        money = options.get("money")
        if money is not None and len(money) != n:
            raise ValidationError({"money": [f"Give {n} amounts, one per seat."]})
        return State(
            names=tuple(seats),
            first=first,
            colours=tuple(options["colours"]),
            offices=frozenset(options["offices"]),
            consul_price=options["consul_price"],
            money=tuple(money) if money is not None else _start_money(n, first),
            senators=(START_SENATORS,) * n,
            hands=(None,) * n,
            unseen_used=(0,) * n,
            active=first,
        )

    # --- checks -----------------------------------------------------------------------

    def _alive_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat = event["seat"]
        if not state.alive(seat):
            yield broken("sen.eliminated", "%(name)s has no senators left and is out of the game.", name=state.names[seat])

    def knowing(self, state: State, seats: frozenset[int]) -> State:
        """Recorded hands of other seats taken out."""
        hands = state.hands
        if hands.count(None) == len(hands) or all(hand is None or seat in seats for seat, hand in enumerate(hands)):
            return state
        return evolve(state, hands=tuple(hand if seat in seats else None for seat, hand in enumerate(hands)))

    @staticmethod
    def _in_hand(state: State, card: str, but: int = -1) -> int | None:
        """The seat (other than `but`) whose recorded hand holds `card`, if any."""
        return next((seat for seat, hand in enumerate(state.hands) if seat != but and hand is not None and card in hand), None)

    def _entering(self, state: State, cards: Sequence[str], seat: int = -1) -> Iterator[Violation]:
        for card in cards:
            kind = office_type(card)
            holder = self._in_hand(state, card, seat)
            if kind is not None and kind not in state.offices:
                yield broken("sen.card.unknown", "The %(kind)s office is not in play in this game.", kind=kind)
            elif card in state.places or cards.count(card) > 1:
                yield broken("sen.card.unknown", "%(card)s is already in play or out of it; each card exists once.", card=card)
            elif holder is not None:
                yield broken("sen.card.unknown", "%(card)s is one of %(holder)s's recorded starting cards.", card=card, holder=state.names[holder])

    def _hand_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat = event["seat"]
        yield from self._alive_checks(state, event)
        if state.started:
            yield broken("sen.turn", "Starting hands are logged before the first event card.")
        if state.hands[seat] is not None:
            yield broken("sen.turn", "%(name)s's starting hand is already logged.", name=state.names[seat])
        yield from self._entering(state, event["cards"], seat)

    def _event_checks(self, state: State, event: Event) -> Iterator[Violation]:
        if state.started and not state.action_done:
            yield self._unfinished(state)

    def _adjust_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, name = event["seat"], state.names[event["seat"]]
        yield from self._alive_checks(state, event)
        office = event.get("office")
        if office is not None:
            if not self._cashing(state, seat):
                yield broken("sen.action.order", "%(name)s plays an office only while cashing in.", name=name)
            if state.places.get(office, ("", -1))[1] != seat or state.places[office][0] not in ("up", "down"):
                yield broken("sen.card.owner", "%(name)s does not hold %(office)s.", name=name, office=office)
        if state.money[seat] + event.get("money", 0) < 0:
            yield broken("sen.money.short", "%(name)s has only %(money)s; he must sell senators first.", name=name, money=state.money[seat])
        if state.senators[seat] + event.get("senators", 0) < 0:
            yield broken("sen.senators.none", "%(name)s has only %(senators)s senators.", name=name, senators=state.senators[seat])

    def _active_checks(self, state: State, event: Event) -> Iterator[Violation]:
        """The acting seat is the active player in his action phase."""
        seat = event["seat"]
        yield from self._alive_checks(state, event)
        if not state.started:
            yield broken("sen.turn", "The first event card has not been drawn yet.")
        elif seat != state.active:
            yield broken("sen.turn", "It is %(active)s's turn, not %(name)s's.", active=state.names[state.active], name=state.names[seat])

    def _start_checks(self, state: State, event: Event) -> Iterator[Violation]:
        yield from self._active_checks(state, event)
        if state.action is not None or state.action_done:
            yield broken("sen.turn", "%(active)s has already chosen this turn's action.", active=state.names[state.active])

    def _auction_checks(self, state: State, event: Event) -> Iterator[Violation]:
        yield from self._start_checks(state, event)
        cards = event["cards"]
        offices = [c for c in cards if office_type(c)]
        if len(cards) - len(offices) > 3 or len(offices) > 1:
            yield broken("sen.auction.cards", "An auction shows at most 3 resource cards and one office, not %(value)s and %(count)s.", value=len(cards) - len(offices), count=len(offices))
        yield from self._entering(state, cards)

    def _bid_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, name = event["seat"], state.names[event["seat"]]
        yield from self._alive_checks(state, event)
        auction = state.action
        if not isinstance(auction, Auction):
            yield broken("sen.turn", "No auction is taking bids now.")
            return  # no auction: no cards and no bids to judge the prices against
        if auction.deciding:
            yield broken("sen.turn", "No auction is taking bids now.")
        elif seat != auction.bidders[0]:
            yield (broken("sen.turn", "It is %(bidder)s's bid, not %(name)s's.", bidder=state.names[auction.bidders[0]], name=name) if seat in auction.bidders
                   else broken("sen.turn", "%(name)s does not bid in this auction (once each, not the active player).", name=name))
        for card, price in event["bids"].items():
            if card not in auction.cards:
                yield broken("sen.bid.card", "%(card)s is not in this auction.", card=card)
                continue
            high = auction.high.get(card, (0, -1))[0]
            if price <= high or price < 1:
                yield (broken("sen.bid.higher", "%(name)s bids %(price)s on %(card)s; it must be above %(high)s.", name=name, price=price, card=card, high=high) if high
                       else broken("sen.bid.higher", "%(name)s bids %(price)s on %(card)s; a bid is at least 1.", name=name, price=price, card=card))

    def _decide_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, card = event["seat"], event["card"]
        yield from self._alive_checks(state, event)
        auction = state.action
        if seat != state.active:
            yield broken("sen.turn", "Only %(active)s decides the auction.", active=state.names[state.active])
        if not isinstance(auction, Auction) or not auction.deciding:
            yield broken("sen.action.order", "No auction waits for decisions.")
            return  # nothing to decide: no bid to judge the card or the payment by
        if card not in auction.high or card in auction.decided:
            yield (broken("sen.decide.card", "%(card)s got no bid.", card=card) if card not in auction.high
                   else broken("sen.decide.card", "%(card)s is decided already.", card=card))
            return  # no open bid on the card: no price to pay
        price, bidder = auction.high[card]
        payer = bidder if event["choice"] == "sell" else state.active
        if state.money[payer] < price:
            yield broken("sen.money.short", "%(payer)s cannot pay %(price)s for %(card)s.", payer=state.names[payer], price=price, card=card)

    def _demand_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, target, card = event["seat"], event["target"], event["card"]
        yield from self._active_checks(state, event)
        blackmail = state.action
        if not isinstance(blackmail, Blackmail):
            yield broken("sen.turn", "%(name)s demands cards only in a blackmail.", name=state.names[seat])
        elif blackmail.pending is not None:
            yield broken("sen.turn", "%(name)s has not answered the last demand yet.", name=state.names[blackmail.pending[0]])
        if target == seat or not state.alive(target):
            yield broken("sen.action.order", "A demand goes to another player still in the game.")
        if state.places.get(card) != ("up", target):
            yield broken("sen.card.owner", "%(target)s has no face-up %(card)s.", target=state.names[target], card=card)
        if isinstance(blackmail, Blackmail) and target in blackmail.demanded:
            yield broken("sen.demand.twice", "%(target)s has had a demand in this blackmail already.", target=state.names[target])

    def _answer_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat = event["seat"]
        yield from self._alive_checks(state, event)
        blackmail = state.action
        if not isinstance(blackmail, Blackmail) or blackmail.pending is None:
            yield broken("sen.action.order", "There is no demand to answer.")
            return
        target, card, price = blackmail.pending
        if seat != target:
            yield broken("sen.turn", "The demand is to %(target)s, not %(name)s.", target=state.names[target], name=state.names[seat])
        payer = state.active if event["choice"] == "sell" else target
        if state.money[payer] < price:
            yield broken("sen.money.short", "%(payer)s cannot pay %(price)s.", payer=state.names[payer], price=price)

    def _join_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat = event["seat"]
        yield from self._alive_checks(state, event)
        cash_in = state.action
        if not isinstance(cash_in, CashIn) or not cash_in.queue or cash_in.casher is not None:
            yield broken("sen.turn", "No one may join a cash-in now.")
        elif seat != cash_in.queue[0]:
            yield broken("sen.turn", "It is %(name)s's turn to join or pass, not %(name2)s's.", name=state.names[cash_in.queue[0]], name2=state.names[seat])
        if event["choice"] == "pay" and state.money[seat] < JOIN_PRICE:
            yield broken("sen.money.short", "%(name)s cannot pay %(JOIN_PRICE)s to join.", name=state.names[seat], JOIN_PRICE=JOIN_PRICE)

    def _cashing(self, state: State, seat: int) -> bool:
        return isinstance(state.action, CashIn) and state.action.casher == seat

    def _casher_checks(self, state: State, event: Event) -> Iterator[Violation]:
        yield from self._alive_checks(state, event)
        if not self._cashing(state, event["seat"]):
            yield broken("sen.action.order", "%(name)s is not cashing in now.", name=state.names[event['seat']])

    def _owned(self, state: State, seat: int, cards: Sequence[str]) -> Iterator[Violation]:
        """Cards the seat holds (face up, face down, in its recorded hand), or may use as
        unseen hand cards (no recorded hand, and none of another's recorded hand)."""
        unseen, hand = 0, state.hands[seat]
        for card in cards:
            place = state.places.get(card)
            if place is not None and place[1] == seat and place[0] in ("up", "down"):
                continue
            if hand is not None and card in hand:
                continue
            if place is None and resource(card) and hand is None and self._in_hand(state, card, seat) is None:
                unseen += 1
                continue
            yield broken("sen.card.owner", "%(name)s does not hold %(card)s.", name=state.names[seat], card=card)
            return
        if state.unseen_used[seat] + unseen > 3:
            yield broken("sen.card.owner", "%(name)s has only 3 starting cards; more unseen cards cannot be his.", name=state.names[seat])

    def _sell_set_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, cards = event["seat"], event["cards"]
        yield from self._casher_checks(state, event)
        yield from self._owned(state, seat, [*cards, *([event["office"]] if "office" in event else [])])
        if set_payout(cards, "office" in event) is None:
            yield (broken("sen.set.invalid", "%(cards)s is not a set (with the quaestor: 3 resource cards).", cards=tuple(cards)) if "office" in event
                   else broken("sen.set.invalid", "%(cards)s is not a set: 3 cards of one colour or 3 of one value, at most one governor of their colour.", cards=tuple(cards)))

    def _buy_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat = event["seat"]
        yield from self._casher_checks(state, event)
        if "office" in event:
            yield from self._owned(state, seat, [event["office"]])
        cost = event["count"] * self._senator_price(state, "office" in event)
        if state.money[seat] < cost:
            yield broken("sen.money.short", "%(name)s cannot pay %(cost)s for %(count)s senators.", name=state.names[seat], cost=cost, count=event['count'])

    def _senator_price(self, state: State, consul_now: bool) -> int:
        cash_in = state.action
        consul = consul_now or (isinstance(cash_in, CashIn) and cash_in.consul)
        return state.consul_price if consul else SENATOR_PRICE

    # --- effects ----------------------------------------------------------------------

    def _hand(self, state: State, event: Event) -> State:
        return evolve(state, hands=replace_at(state.hands, event["seat"], frozenset(event["cards"])))

    def _event(self, state: State, event: Event) -> State:
        wars = state.wars + (event["kind"] == "war")
        if not state.started:
            return evolve(state, started=True, wars=wars)
        turns = (*state.turns, (state.names[state.active], state.senators, state.money))
        nxt = state.others_from_left(state.active)
        active = nxt[0] if nxt else state.active
        return evolve(state, active=active, action=None, action_done=False, wars=wars, turns=turns)

    def _pay(self, state: State, payer: int | None, payee: int | None, amount: int) -> State:
        """Move money between seats (None: the bank)."""
        money = state.money
        if payer is not None:
            money = replace_at(money, payer, money[payer] - amount)
        if payee is not None:
            money = replace_at(money, payee, money[payee] + amount)
        return evolve(state, money=money)

    def _adjust(self, state: State, event: Event) -> State:
        seat = event["seat"]
        state = self._pay(state, None, seat, event.get("money", 0))
        if "office" in event:
            state = evolve(state, places={**state.places, event["office"]: OUT})
        return self._senators(state, seat, event.get("senators", 0))

    def _sell_senator(self, state: State, event: Event) -> State:
        seat = event["seat"]
        return self._senators(self._pay(state, None, seat, SELL_SENATOR), seat, -1)

    def _senators(self, state: State, seat: int, change: int) -> State:
        state = evolve(state, senators=replace_at(state.senators, seat, state.senators[seat] + change))
        return state if state.alive(seat) else self._eliminate(state, seat)

    def _eliminate(self, state: State, seat: int) -> State:
        """He leaves every queue; if he was active, his action ends and the turn passes."""
        action = state.action
        if seat == state.active and state.started:
            places = dict(state.places)
            if isinstance(action, Auction):
                places.update({c: OUT for c in action.cards if places.get(c) == AUCTION})
            return evolve(state, places=places, action=None, action_done=True)
        if isinstance(action, Auction):
            # His bids are withdrawn: on each undecided card the last bid left (in legal
            # play the highest) holds again; a card with none left has no bid.
            bidders = tuple(s for s in action.bidders if s != seat)
            bids = tuple(bid for bid in action.bids if bid[2] != seat)
            high = {card: bid for card, bid in action.high.items() if card in action.decided}
            high.update({card: (price, bidder) for card, price, bidder in bids if card not in action.decided})
            return self._after_bid(evolve(state, action=evolve(action, bidders=bidders, high=high, bids=bids)))
        if isinstance(action, Blackmail) and action.pending is not None and action.pending[0] == seat:
            return evolve(state, action=evolve(action, pending=None), action_done=True)  # nothing else waits in a blackmail
        if isinstance(action, CashIn):
            queue = tuple(s for s in action.queue if s != seat)
            casher = None if action.casher == seat else action.casher
            return self._next_casher(state, evolve(action, queue=queue, casher=casher, consul=action.consul and casher is not None))
        return state

    def _taken_up(self, state: State, event: Event) -> State:
        """The action is the mover's: out of turn (ruled), play goes on from him (the next
        event card is his left neighbour's), as after his own turn."""
        return state if event["seat"] == state.active else evolve(state, active=event["seat"])

    def _auction(self, state: State, event: Event) -> State:
        state = self._taken_up(state, event)
        cards = tuple(event["cards"])
        places = {**state.places, **{c: AUCTION for c in cards}}
        auction = Auction(cards, state.others_from_left(state.active))
        return self._after_bid(evolve(state, places=places, action=auction))

    def _bid(self, state: State, event: Event) -> State:
        """Each price names the bidder the card's high bid; play goes on clockwise from him."""
        auction, seat = state.action, event["seat"]
        if not isinstance(auction, Auction) or auction.deciding:
            raise NoMeaning("a bid outside the bidding")
        named = [(card, price, seat) for card, price in event["bids"].items() if card in auction.cards]
        high = {**auction.high, **{card: (price, bidder) for card, price, bidder in named}}
        bidders = self._going_on(state, auction.bidders, seat)
        return self._after_bid(evolve(state, action=evolve(auction, bidders=bidders, high=high, bids=(*auction.bids, *named))))

    @staticmethod
    def _going_on(state: State, queue: tuple[int, ...], mover: int) -> tuple[int, ...]:
        """Who is still to act after the mover (bids, joins): the queue going on clockwise
        from him. After a legal move that is the rest of the queue; after an out-of-turn
        move that stands, those he passed over keep their turns and come last."""
        n = state.seat_count
        return tuple(sorted((s for s in queue if s != mover), key=lambda s: (s - mover) % n))

    def _after_bid(self, state: State) -> State:
        """When the last bid is in, unbid cards go to the active player; the auction may end."""
        auction = state.action
        assert isinstance(auction, Auction)
        if not auction.deciding:
            return state
        places = {**state.places, **{c: ("up", state.active) for c in auction.cards if c not in auction.high and state.places.get(c) == AUCTION}}
        return evolve(state, places=places, action_done=not auction.open_decisions)

    def _decide(self, state: State, event: Event) -> State:
        auction, card = state.action, event["card"]
        if not isinstance(auction, Auction) or not auction.deciding or card not in auction.open_decisions:
            raise NoMeaning("nothing to decide, or decided already")
        price, bidder = auction.high[card]
        if event["choice"] == "sell":
            state = self._pay(state, bidder, state.active, price)
            owner = bidder
        else:
            state = self._pay(state, state.active, bidder, price)
            owner = state.active
        auction = evolve(auction, decided=auction.decided | {card})
        return evolve(state, places={**state.places, card: ("up", owner)}, action=auction, action_done=not auction.open_decisions)

    def _blackmail(self, state: State, event: Event) -> State:
        state = self._taken_up(state, event)
        return evolve(self._pay(state, None, state.active, BLACKMAIL_TAKE), action=Blackmail(), action_done=True)

    def _demand(self, state: State, event: Event) -> State:
        blackmail, target = state.action, event["target"]
        if not isinstance(blackmail, Blackmail):
            raise NoMeaning("a demand outside a blackmail")
        pending = (target, event["card"], event["price"]) if state.alive(target) else None  # nobody left to answer: dropped
        return evolve(state, action=Blackmail(blackmail.demanded | {target}, pending), action_done=pending is None)

    def _answer(self, state: State, event: Event) -> State:
        blackmail = state.action
        if not isinstance(blackmail, Blackmail) or blackmail.pending is None:
            raise NoMeaning("an answer with no demand")
        target, card, price = blackmail.pending
        if event["choice"] == "sell":
            state, owner = self._pay(state, state.active, target, price), state.active
        else:
            state, owner = self._pay(state, target, state.active, price), target
        places = {**state.places, card: ("down", owner)}
        return evolve(state, places=places, action=evolve(blackmail, pending=None), action_done=True)

    def _cash_in(self, state: State, event: Event) -> State:
        state = self._taken_up(state, event)
        return self._next_casher(state, CashIn(state.others_from_left(state.active)))

    def _next_casher(self, state: State, cash_in: CashIn) -> State:
        """With nobody cashing in and nobody left to join, it is the active player's turn."""
        if cash_in.casher is None and not cash_in.queue:
            cash_in = evolve(cash_in, casher=state.active)
        return evolve(state, action=cash_in)

    def _join(self, state: State, event: Event) -> State:
        cash_in, seat = state.action, event["seat"]
        if not isinstance(cash_in, CashIn) or not cash_in.queue or cash_in.casher is not None:
            raise NoMeaning("a join while nobody may join")
        queue = self._going_on(state, cash_in.queue, seat)
        if event["choice"] == "pay":
            state = self._pay(state, seat, state.active, JOIN_PRICE)
            return evolve(state, action=CashIn(queue, seat))
        return self._next_casher(state, CashIn(queue))

    def _use_cards(self, state: State, seat: int, cards: Sequence[str]) -> State:
        unseen = sum(1 for c in cards if c not in state.places)
        places = {**state.places, **{c: OUT for c in cards}}
        hand = state.hands[seat]
        hands = state.hands if hand is None else replace_at(state.hands, seat, hand - set(cards))
        return evolve(state, places=places, hands=hands, unseen_used=replace_at(state.unseen_used, seat, state.unseen_used[seat] + unseen))

    def _sell_set(self, state: State, event: Event) -> State:
        seat, cards = event["seat"], event["cards"]
        payout = set_payout(cards, "office" in event)
        if payout is None:  # not a set, let stand: the bank pays the values of the cards named, no bonus
            payout = sum(value for _, value in filter(None, map(resource, cards)))
        state = self._use_cards(state, seat, [*cards, *([event["office"]] if "office" in event else [])])
        return self._pay(state, None, seat, payout)

    def _buy(self, state: State, event: Event) -> State:
        seat = event["seat"]
        cost = event["count"] * self._senator_price(state, "office" in event)
        if "office" in event:
            cash_in = state.action
            state = self._use_cards(state, seat, [event["office"]])
            if isinstance(cash_in, CashIn):  # outside a cash-in (ruled) the consul lowers only this price
                state = evolve(state, action=evolve(cash_in, consul=True))
        state = self._pay(state, seat, None, cost)
        return evolve(state, senators=replace_at(state.senators, seat, state.senators[seat] + event["count"]))

    def _done(self, state: State, event: Event) -> State:
        cash_in = state.action
        if not isinstance(cash_in, CashIn):
            raise NoMeaning("a done outside a cash-in")
        if event["seat"] == state.active:
            return evolve(state, action=evolve(cash_in, casher=None, consul=False), action_done=True)
        return self._next_casher(state, CashIn(cash_in.queue))

    # --- the end, the view and the result ---------------------------------------------

    def _unfinished(self, state: State) -> Violation:
        """An event while the active player's action is not finished: what it waits for."""
        names, action, active = state.names, state.action, state.names[state.active]
        if action is None:
            return broken("sen.turn", "%(active)s's action is not finished yet: an auction, a blackmail or a cash-in.", active=active)
        if isinstance(action, Auction):
            if action.bidders:
                return broken("sen.turn", "%(active)s's action is not finished yet: %(name)s's bid.", active=active, name=names[action.bidders[0]])
            return broken("sen.turn", "%(active)s's action is not finished yet: decisions on %(cards)s.", active=active, cards=tuple(action.open_decisions))
        if isinstance(action, Blackmail):
            if action.pending:
                return broken("sen.turn", "%(active)s's action is not finished yet: %(name)s's answer.", active=active, name=names[action.pending[0]])
            return broken("sen.turn", "%(active)s's action is not finished yet: nothing.", active=active)
        if action.casher is not None:
            return broken("sen.turn", "%(active)s's action is not finished yet: %(name)s to finish cashing in.", active=active, name=names[action.casher])
        return broken("sen.turn", "%(active)s's action is not finished yet: %(name)s to join or pass.", active=active, name=names[action.queue[0]])

    @staticmethod
    def _to_act(state: State) -> list[int]:
        """Who the table waits for now: the active player, or the bidder, the target of a
        demand, the player to join or the one cashing in. Nobody while the table draws the
        event card (the host logs it), and nobody after a blackmail's demands are answered:
        a blackmail has no closing event, so the table waits for the event card, while the
        blackmailer may still demand (`may_act`)."""
        action = state.action
        if isinstance(action, Blackmail):
            return [action.pending[0]] if action.pending else []
        if not state.started or (state.action_done and not (isinstance(action, CashIn) and action.casher is not None)):
            return []
        if isinstance(action, Auction) and action.bidders:
            return [action.bidders[0]]
        if isinstance(action, CashIn):
            return [action.casher if action.casher is not None else action.queue[0] if action.queue else state.active]
        return [state.active]

    def outcome(self, state: State) -> Outcome | None:
        if state.wars >= WARS_TO_END:
            return Outcome(Termination.FINISHED, "the 4th war was drawn")
        if state.players_left <= 1:
            return Outcome(Termination.FINISHED, "only one player has senators left")
        return None

    def view(self, state: State, seat: int | None, outcome: Outcome | None = None) -> dict[str, Any]:
        names, action = state.names, state.action
        over = state.over or outcome is not None
        phase = "over" if over else "hands" if not state.started else self._phase(state)
        view: dict[str, Any] = {
            "phase": phase,
            "turn": None if over or not state.started else names[state.active],
            "to_act": [] if over else [names[s] for s in self._to_act(state)],
            # Who may still act though the table does not wait for him: the blackmailer, demanding more.
            "may_act": [names[state.active]] if not over and isinstance(action, Blackmail) and action.pending is None else [],
            "wars": state.wars,
            "senators": dict(zip(names, state.senators)),
            "eliminated": [names[s] for s in range(state.seat_count) if not state.alive(s)],
            "face_up": {names[s]: state.cards_of(s, "up") for s in range(state.seat_count)},
            "face_down": {names[s]: len(state.cards_of(s, "down")) for s in range(state.seat_count)},
            "action_done": state.action_done,
            "colours": list(state.colours),
            "offices": sorted(state.offices),
            # What may enter play, as the table publicly knows it: the phone offers these to tap.
            "unseen": {colour: [v for v in range(1, 10) if f"{colour}-{v}" not in state.places] for colour in state.colours},
            "office_cards": [card for card in self.office_cards(state) if card not in state.places],
        }
        if isinstance(action, Auction):
            view["auction"] = {"cards": list(action.cards), "next_bidder": names[action.bidders[0]] if action.bidders else None,
                               "high": {c: {"price": p, "bidder": names[b]} for c, (p, b) in action.high.items()},
                               # The lowest price a bid on each card may name: above its highest bid.
                               "least": {c: action.high[c][0] + 1 if c in action.high else 1 for c in action.cards},
                               "open": action.open_decisions}
        if isinstance(action, Blackmail):
            view["blackmail"] = {"demanded": [names[s] for s in sorted(action.demanded)],
                                 # Whose face-up cards a demand may name: the others still in the game, once each.
                                 "targets": [names[s] for s in range(state.seat_count) if s != state.active and s not in action.demanded and state.alive(s)],
                                 "pending": None if action.pending is None else {"target": names[action.pending[0]], "card": action.pending[1], "price": action.pending[2]}}
        if isinstance(action, CashIn):
            view["cash_in"] = {"casher": None if action.casher is None else names[action.casher],
                               "next_to_join": names[action.queue[0]] if action.queue and action.casher is None else None,
                               "senator_price": self._senator_price(state, False)}
        if over:
            view["money"] = dict(zip(names, state.money))
        if seat is not None:
            own = state.cards_of(seat, "up", "down", "hand")
            view["my_money"] = state.money[seat]
            view["my_cards"] = own
            view["my_sets"] = [{"cards": list(c), "payout": p} for c, p in self.sets_in(own)]
        return view

    def house_view(self, view: dict[str, Any], off: frozenset[str]) -> dict[str, Any]:
        """The controls a rule off gives back; every other rule off hides nothing. A seat's
        phone given a form by a rule off acts for its own seat (a host who plays: hers).

        sen.turn          out of turn: in the action phase every other player still in the
                          game starts an auction, a blackmail or a cash-in (it becomes his
                          turn); while bids or joins are due, each of them bids (again) or
                          joins or passes (`out_of_turn`, `may_act`). Nothing given back
                          for a decide, demand or answer by another seat: it stands as the
                          active player's (the target's) and spends his money, so it goes
                          through the host's phone; nor for a hand after the first event
                          card, a second action, or an event card during an action: the
                          host's phone or the API
        sen.action.order  once the first event card is drawn, every player still in the
                          game sells a set and buys senators at any time, as in a cash-in
                          of his own (`cash_any_time`, `may_act`); nothing for `done`
                          outside one's own cash-in (it would close another's), nor for an
                          answer, decide or demand out of order (no meaning, or to oneself)
        sen.bid.higher    a bid's prices start at 1, whatever the highest bid
        sen.demand.twice  a demand may name a player asked before in this blackmail
        sen.eliminated    nothing given back: the forms are for players still in the game
        sen.senators.none nothing given back: a seat without senators is out (sen.eliminated)
        sen.auction.cards, sen.card.unknown, sen.card.owner, sen.set.invalid: nothing: the
                          cards can be typed
        sen.bid.card, sen.decide.card: nothing given back: a bid or decision names the
                          auction's cards
        sen.money.short   nothing: no control counts money
        """
        view = dict(view)
        if "sen.bid.higher" in off and "auction" in view:
            view["auction"] = {**view["auction"], "least": dict.fromkeys(view["auction"]["least"], 1)}
        if "sen.demand.twice" in off and "blackmail" in view:
            targets = [*view["blackmail"]["targets"], *view["blackmail"]["demanded"]]
            view["blackmail"] = {**view["blackmail"], "targets": [name for name in view["senators"] if name in targets]}
        if {"sen.turn", "sen.action.order"} & off and view["phase"] not in ("hands", "over"):
            alive = [name for name in view["senators"] if name not in view["eliminated"]]
            if "sen.turn" in off and view["phase"] in ("action", "bidding", "joining"):
                view["out_of_turn"] = [name for name in alive if name != view["turn"]]
            if "sen.action.order" in off:
                view["cash_any_time"] = alive
            acting = {*view["may_act"], *view.get("out_of_turn", []), *view.get("cash_any_time", [])}
            view["may_act"] = [name for name in view["senators"] if name in acting]
        return view

    def explain(self, state: State, applied: Sequence[Event]) -> dict[str, list[dict[str, Any]]]:
        """Senators: the 5 at the start, then every senator sold, bought or adjusted."""
        names = state.names
        items = {n: [because(START_SENATORS, [], "%(count)s senators at the start", count=START_SENATORS)] for n in names}
        for event in applied:
            kind, seq = event["type"], [event["seq"]]
            if kind == "sell-senator":
                item = because(-1, seq, "sold a senator to the bank for %(price)s", price=SELL_SENATOR)
            elif kind == "buy-senators":
                count, consul = event["count"], "office" in event
                item = because(count, seq, ("bought %(count)s senator with the consul" if consul else "bought %(count)s senator") if count == 1
                               else "bought %(count)s senators with the consul" if consul else "bought %(count)s senators", count=count)
            elif kind == "adjust" and event.get("senators"):  # the reason: a chip's code or as typed (`web.words.reason_words`)
                item = because(event["senators"], seq, "adjusted by the table: %(reason)s", reason=event["reason"])
            else:
                continue
            items[names[event["seat"]]].append(item)
        return items

    @staticmethod
    def office_cards(state: State) -> list[str]:
        """Every office card of the types in play (a governor per colour)."""
        return [f"office-governor-{c}" for c in state.colours if "governor" in state.offices] + [
            f"office-{kind}" for kind in OFFICES[1:] if kind in state.offices]

    def _phase(self, state: State) -> str:
        action = state.action
        if state.action_done and not (isinstance(action, CashIn) and action.casher is not None):
            return "next-event"
        if action is None:
            return "action"
        if isinstance(action, Auction):
            return "deciding" if action.deciding else "bidding"
        if isinstance(action, Blackmail):
            return "answer" if action.pending else "blackmail"
        return "cashing" if action.casher is not None else "joining"

    @staticmethod
    def sets_in(cards: Sequence[str]) -> list[tuple[tuple[str, ...], int]]:
        """Every set among these cards with what the bank pays, best first (the payout shown
        before a player logs his sale)."""
        found = [(combo, set_payout(combo, False)) for combo in itertools.combinations(sorted(cards), 3)]
        return sorted(((c, p) for c, p in found if p is not None), key=lambda item: -item[1])

    def result(self, state: State, outcome: Outcome | None = None) -> Result:
        names = state.names
        over = state.over or outcome is not None
        scores = dict(zip(names, state.senators))
        key = (lambda s: (state.senators[s], state.money[s])) if over else (lambda s: (state.senators[s], 0))
        tiers: dict[tuple[int, int], list[str]] = {}
        for s in range(state.seat_count):
            tiers.setdefault(key(s), []).append(names[s])
        ranking = [tiers[k] for k in sorted(tiers, reverse=True)]
        played = [*state.turns, (names[state.active], state.senators, state.money)] if state.started else []
        turns = [{"turn": i + 1, "active": active, "senators": dict(zip(names, senators)),
                  **({"money": dict(zip(names, money))} if over else {})}
                 for i, (active, senators, money) in enumerate(played)]
        detail: dict[str, Any] = {"senators": scores, "wars": state.wars, "turns": turns}
        if over:
            detail["money"] = dict(zip(names, state.money))
            detail["cards"] = {names[s]: state.cards_of(s, "up", "down", "hand") for s in range(state.seat_count)}
        winners = ranking[0] if state.over else []
        return Result(scores, ranking, detail, winners=winners, ended_early=ended_early(outcome))
