"""Ladies & Gentlemen with the courtesan and gossip (`ladies-and-gentlemen`).

Reference: docs/games/ (made from this module). Teams of a lady and her gentleman, six days of
morning (outcome only), afternoon (shopping) and evening (bills), then the Ball. A team's
money is secret to the team until the reveal; nothing else is. Decisions where the spec is
silent:
- What makes money secret is `income` (a private event, its amount entered by the table);
  bills are public. Once a gentleman has earned income, his money is unknown to anyone
  outside his team (`money` None in what they may know), so a bill is judged on public
  information alone: `lg.money.short` flags it only while his money is public (no
  income yet); after that a bill beyond his money is a clash, never a flag, seen by the
  host and his team at once and by everyone at the reveal.
- `day`, `window` and `ball` are table events (`ball` names the shopper in `seat`; the
  host logs it). `number` and `income` name the gentleman.
- Morning events (`number`, `window`) come before the day's first `visit`; a second
  `number` of one gentleman or a second `window` of one boutique the same day: `lg.phase`.
  `income` is logged in the morning or the afternoon (in the evening: `lg.phase`).
- A shopper alone in a boutique takes as she likes and need not pass; in a shared
  boutique the turn goes round the shoppers who have not passed. The afternoon ends with
  the first `give`, `bill` or `done` (a take or pass after it: `lg.phase`).
- Card names are unique in the game: a `take` of a card that is held, handed, paid or
  deferred (not back under its deck) is `lg.bill.card`, the spec's rule for a card that
  is not where the event says.
- A `discount` names the window card of the gentleman's team boutique (not handed to
  him). The card it names is judged by `lg.bill.discount` alone, as the spec says: any
  other card, a window card already settled, or one of another boutique is
  `lg.bill.discount`, never `lg.bill.card`. A discount after the lady discarded a gossip
  card that evening (she took that instead) is `lg.bill.discount` too.
- `keep` is possible once every gentleman is done and before the next `day` (or the Ball);
  without it, the courtesan's returned cards go back under their decks.
- Gossip cards may be passed in any phase of a day; to someone who is not another
  shopper: `lg.role`. Received cards are passed on first; `discard-gossip` takes one the
  lady started with.
- Players act at the same time, so `view.turn` is always null; `view.to_act` names who
  the table waits for (a shopper alone in a boutique counts until she passes or the
  evening begins; once only such shoppers are left, the gentlemen not done are waited
  for too, since a lone shopper need not pass). The phone's turn bar says "Your turn" to
  each of them.
- At the Ball a tie of gifts and money (or of elegance and money) makes every tied party
  win, or be excluded; if a scandal excludes every team, no team wins.
- A game the table ends before every shopper's elegance is entered has no Ball: no
  winner, no ranking, only the gifts and (shown at the end) the money it reached.
- A move the table lets stand (a `ruling`, or a rule its `house_rules` turn off) applies
  this module's effect as for a legal move, where the state has a place for it (`referee.replay`):
  - out of turn: a take or pass out of turn in a shared boutique is the mover's turn; the
    turn goes on round from her, and those she passed over take when it comes round to
    them. A take or pass in a boutique whose order she is not in (she did not visit it,
    or before every shopper has visited) moves no turn there.
  - wrong amount: a `discount` of another card than his window card pays half the price
    of the card it names, which is paid like that card (to his lady, or to the courtesan
    marked with his team); a window card (his or another boutique's) goes to his lady.
  - no meaning (the state stays, `"applied": false`): a bill for a card not handed to him
    (a discount: a card that is neither handed to him nor a window card), a `give` of a
    card the giver does not hold unpaid (the spec's list).
  - a gentleman's `visit` or a lady's `done` does not hold up the afternoon or the evening.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from .base import Event, Game, NoMeaning, Outcome, Phrase, Result, Seat, Termination, Violation, because, broken, ended_early, evolve, made

# The roles as a flag's sentence says them, with their article.
ROLE_WORDS = {"lady": Phrase("a lady"), "gentleman": Phrase("a gentleman"), "courtesan": Phrase("a courtesan")}
DAYS = 6
KINDS = ("wardrobe", "servant")
RECENT = 8  # cards of a boutique a phone offers again once they are back under its deck
DEFER_FEE = 100
GOSSIP_CARDS = 3
START_MONEY = {5: 1500, 7: 1200, 9: 1000}  # per gentleman with a courtesan; else 500
HANDED = ("taken", "deferred", "given")  # the places of a card handed to its gentleman as a bill


class CardField(fields.Nested):
    """A taken card: {name, kind, price, stars}."""

    def __init__(self, **kwargs: Any) -> None:
        schema = Schema.from_dict({
            "name": fields.String(required=True, validate=validate.Length(min=1, max=60)),
            "kind": fields.String(required=True, validate=validate.OneOf(KINDS)),
            "price": fields.Integer(strict=True, required=True, validate=validate.Range(0, 100_000)),
            "stars": fields.Integer(strict=True, required=True, validate=validate.Range(0, 100)),
        }, name="Card")
        super().__init__(schema, **kwargs)


def card_name(**kwargs: Any) -> fields.String:
    return fields.String(validate=validate.Length(min=1, max=60), **kwargs)


class Options(Schema):
    teams = fields.List(fields.List(fields.Integer(strict=True), validate=validate.Length(equal=2)), validate=validate.Length(max=5),
                        metadata={"description": "[lady seat, gentleman seat] pairs (default: the other seats in order, lady first)"})
    courtesan = fields.Integer(strict=True, allow_none=True, metadata={"description": "the courtesan's seat, or null (default: the last seat when the count is odd)"})
    gossip = fields.Boolean(load_default=False, metadata={"description": "play with the gossip cards"})


def seat_roles(seats: int, options: Mapping[str, Any]) -> tuple[tuple[tuple[int, int], ...], int | None]:
    """The teams (lady, gentleman) and the courtesan; raises ValidationError if they do not
    cover every seat exactly once, or a courtesan is missing or extra."""
    courtesan = options["courtesan"] if "courtesan" in options else (seats - 1 if seats % 2 else None)
    if "teams" in options:
        teams = tuple((lady, gentleman) for lady, gentleman in options["teams"])
    else:
        others = [s for s in range(seats) if s != courtesan]
        teams = tuple(zip(others[::2], others[1::2]))
    covered = [s for team in teams for s in team] + ([courtesan] if courtesan is not None else [])
    if sorted(covered) != list(range(seats)):
        raise ValidationError({"teams": ["Teams and the courtesan must cover every seat exactly once."]})
    if (courtesan is not None) != (seats % 2 == 1):
        raise ValidationError({"courtesan": ["A courtesan plays exactly when the number of players is odd."]})
    return teams, courtesan


@dataclass(frozen=True)
class Card:
    name: str
    kind: str
    price: int
    stars: int
    shopper: int  # who took it
    place: str  # "taken", "given", "deferred", "kept", "returned-to-courtesan", "paid", "window"
    gentleman: int | None = None  # who settles it (or paid it)


@dataclass(frozen=True)
class Boutique:
    """Who shops here today, in take order, whose turn it is, and who passed."""

    order: tuple[int, ...] = ()
    next: int = 0  # index into order
    passed: frozenset[int] = frozenset()


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    teams: tuple[tuple[int, int], ...]
    courtesan: int | None
    gossip_variant: bool
    money: Mapping[int, int | None]  # per gentleman; None: unknown to whoever holds this state
    day: int = 0
    numbers: Mapping[int, int] = field(default_factory=dict)  # gentleman -> number today
    windows: Mapping[str, Card] = field(default_factory=dict)  # boutique -> window card today
    visits: Mapping[int, str] = field(default_factory=dict)  # shopper -> boutique today
    boutiques: Mapping[str, Boutique] = field(default_factory=dict)
    servants: Mapping[int, int] = field(default_factory=dict)  # servant cards taken this visit
    evening: bool = False
    billing: bool = False  # the first bill or done of the evening is logged
    cards: Mapping[str, Card] = field(default_factory=dict)  # every card out of the decks
    settled: frozenset[str] = frozenset()  # cards settled this evening
    done: frozenset[int] = frozenset()  # gentlemen done this evening
    paid_lady: Mapping[int, int] = field(default_factory=dict)  # this evening, per gentleman
    paid_courtesan: Mapping[int, int] = field(default_factory=dict)
    discounted: frozenset[int] = frozenset()  # teams (lady seat) whose gentleman took the discount today
    discarded: frozenset[int] = frozenset()  # ladies who discarded a gossip card today
    kept: bool = False
    gifts: Mapping[int, int] = field(default_factory=dict)  # stars a gentleman paid for the courtesan
    gossip_own: Mapping[int, int] = field(default_factory=dict)  # gossip cards a shopper started with, still held
    gossip_received: Mapping[int, int] = field(default_factory=dict)
    gossiped: frozenset[int] = frozenset()  # shoppers who passed a gossip card today
    ball: Mapping[int, int] = field(default_factory=dict)  # shopper -> elegance entered
    earned: frozenset[int] = frozenset()  # gentlemen who logged income: their money is their team's secret
    seen: Mapping[str, tuple[tuple[str, str, int, int], ...]] = field(default_factory=dict)  # boutique -> its last cards taken (name, kind, price, stars)

    # --- roles: the seating never changes after the start, so each is worked out once and
    # `evolve` carries it to every later state with the rest (asked on most events) ---
    @cached_property
    def ladies(self) -> tuple[int, ...]:
        return tuple(lady for lady, _ in self.teams)

    @cached_property
    def gentlemen(self) -> tuple[int, ...]:
        return tuple(gentleman for _, gentleman in self.teams)

    @cached_property
    def shoppers(self) -> tuple[int, ...]:
        return (*self.ladies, *(() if self.courtesan is None else (self.courtesan,)))

    def gentleman_of(self, lady: int) -> int:
        return next(g for l, g in self.teams if l == lady)

    def lady_of(self, gentleman: int) -> int:
        return next(l for l, g in self.teams if g == gentleman)

    def boutique_of(self, gentleman: int) -> str:
        return f"team-{self.lady_of(gentleman)}"

    def role(self, seat: int) -> str:
        return "courtesan" if seat == self.courtesan else "lady" if seat in self.ladies else "gentleman"

    # --- the day ---
    @property
    def day_over(self) -> bool:
        return self.day > 0 and self.done >= frozenset(self.gentlemen)  # a lady's done (ruled) leaves the day to end

    @property
    def all_visited(self) -> bool:
        return set(self.visits) >= set(self.shoppers)  # a gentleman's visit (ruled) leaves the afternoon to go on

    def handed_to(self, gentleman: int) -> list[Card]:
        """The cards he settles this evening: his lady's of today and deferred from
        yesterday, and the courtesan's cards given to him."""
        return [c for c in self.cards.values() if c.gentleman == gentleman and c.place in HANDED]

    def to_give(self) -> list[Card]:
        """The courtesan's unpaid cards she has not handed on yet this evening."""
        if self.courtesan is None:  # asked before every bill
            return []
        return [c for c in self.cards.values() if c.shopper == self.courtesan and c.place in ("taken", "kept")]

    @property
    def over(self) -> bool:
        return bool(self.ball) and len(self.ball) == len(self.shoppers)  # asked after every event


class LadiesAndGentlemen(Game[State]):
    name = "ladies-and-gentlemen"
    title = "Ladies & Gentlemen"
    min_players = 4
    scoring = (
        "After six days the table enters each shopper's elegance at the Ball; each gossip card held costs 1. "
        "Without the courtesan the most elegant lady's team wins (a tie: the richer gentleman). With her: "
        "if she is the most elegant (ties favour her) she wins with the gentleman who gave her the finest gifts; "
        "if she is the least elegant, scandal: the gentleman with the poorest gifts is excluded with his lady; "
        "otherwise the most elegant lady's team wins. `scores`: elegance; `result`: money, gifts, the scandal, "
        "the winners and why."
    )
    max_players = 10
    rules = {
        "lg.role": "an action by a player whose role cannot do it",
        "lg.phase": "an event out of its phase or day",
        "lg.number": "a number outside 1..G, or two gentlemen with the same number the same day",
        "lg.visit": "a second visit the same day, or a take or pass in a boutique she did not visit",
        "lg.take.order": "a take or pass out of turn in a shared boutique, or by a shopper who passed",
        "lg.take.servant": "a second servant card in one visit",
        "lg.bill.card": "a bill for a card not handed to this gentleman, or settled twice; a give of a card the courtesan does not hold",
        "lg.bill.defer": "deferring a courtesan's card",
        "lg.bill.discount": "a discount on a card that is not his team's window card, or when that boutique had a visitor today",
        "lg.bill.ratio": "done while he paid for more courtesan cards than lady cards this evening",
        "lg.money.short": "a payment larger than his money",
        "lg.keep": "the courtesan keeps more than 3 cards, or cards not returned to her unpaid this evening, or keeps twice",
        "lg.gossip": "gossip without the variant, a second gossip card the same day, no card to give, a discard not allowed",
    }
    # What a table allows that turns a rule off (its house rule), in the rules' order.
    allows = {
        "lg.role": "Any player may make any move",
        "lg.phase": "Events may come out of their phase or day",
        "lg.number": "Number tokens may be any number, and shared",
        "lg.visit": "A shopper may visit twice, and shop where she did not visit",
        "lg.take.order": "Shoppers may take out of turn, and after passing",
        "lg.take.servant": "A shopper may take several servant cards in one visit",
        "lg.bill.card": "Any card may be billed or handed on",
        "lg.bill.defer": "A courtesan's card may be deferred",
        "lg.bill.discount": "Any card may be had at half price",
        "lg.bill.ratio": "A gentleman may pay for more of the courtesan's cards than of his lady's",
        "lg.money.short": "A gentleman may pay more than he has",
        "lg.keep": "The courtesan may keep any cards",
        "lg.gossip": "Gossip may be passed and discarded freely",
    }
    events = {
        "day": {"n": fields.Integer(strict=True, required=True, validate=validate.Range(1, 100))},
        "number": {"seat": Seat(required=True), "number": fields.Integer(strict=True, required=True, validate=validate.Range(-100, 100))},
        "window": {"boutique": fields.String(required=True, validate=validate.Regexp(r"^team-\d{1,2}$")), "card": CardField(required=True)},
        "income": {"seat": Seat(required=True), "amount": fields.Integer(strict=True, required=True, validate=validate.Range(0, 1_000_000)),
                   "reason": fields.String(required=True, validate=validate.Length(min=1, max=200))},
        "visit": {"seat": Seat(required=True), "boutique": fields.String(required=True, validate=validate.Regexp(r"^team-\d{1,2}$"))},
        "take": {"seat": Seat(required=True), "boutique": fields.String(required=True, validate=validate.Regexp(r"^team-\d{1,2}$")),
                 "card": CardField(required=True)},
        "pass": {"seat": Seat(required=True), "boutique": fields.String(required=True, validate=validate.Regexp(r"^team-\d{1,2}$"))},
        "give": {"seat": Seat(required=True), "card": card_name(required=True), "to": Seat(required=True)},
        "bill": {"seat": Seat(required=True), "card": card_name(required=True),
                 "choice": fields.String(required=True, validate=validate.OneOf(["pay", "return", "defer", "discount"]))},
        "done": {"seat": Seat(required=True)},
        "keep": {"seat": Seat(required=True), "cards": fields.List(card_name(), required=True, validate=validate.Length(max=20))},
        "gossip": {"seat": Seat(required=True), "to": Seat(required=True)},
        "discard-gossip": {"seat": Seat(required=True)},
        "ball": {"seat": Seat(required=True), "elegance": fields.Integer(strict=True, required=True, validate=validate.Range(-1000, 1000))},
    }
    options = Options
    private_events = frozenset({"income"})
    host_events = frozenset({"ball"})
    revealed_view = frozenset({"money"})  # everyone's money at the end: shown once the host reveals

    def handlers(self) -> Mapping[str, Any]:
        return {
            "day": (self._day_checks, self._day),
            "number": (self._number_checks, self._number),
            "window": (self._window_checks, self._window),
            "income": (self._income_checks, self._income),
            "visit": (self._visit_checks, self._visit),
            "take": (self._shop_checks, self._take),
            "pass": (self._shop_checks, self._pass),
            "give": (self._give_checks, self._give),
            "bill": (self._bill_checks, self._bill),
            "done": (self._done_checks, self._done),
            "keep": (self._keep_checks, self._keep),
            "gossip": (self._gossip_checks, self._gossip),
            "discard-gossip": (self._discard_checks, self._discard),
            "ball": (self._ball_checks, self._ball),
        }

    def initial(self, seats: Sequence[str], options: Mapping[str, Any]) -> State:
        teams, courtesan = seat_roles(len(seats), options)
        start = START_MONEY[len(seats)] if courtesan is not None else 500
        shoppers = [lady for lady, _ in teams] + ([courtesan] if courtesan is not None else [])
        gossip = GOSSIP_CARDS if options["gossip"] else 0
        return State(
            names=tuple(seats), teams=teams, courtesan=courtesan, gossip_variant=options["gossip"],
            money={g: start for _, g in teams}, gifts={g: 0 for _, g in teams},
            gossip_own={s: gossip for s in shoppers}, gossip_received={s: 0 for s in shoppers},
        )

    def beside(self, move: Event, event: Event) -> bool:
        """Several shoppers and gentlemen act at once. What does not conflict, so a move made
        before it stands: a note, the host's book-keeping (the Ball, a window card) or
        another team's income; for a `number`, another gentleman's other number (the same
        number: lg.number, one of them is wrong); for a `visit`, another shopper's visit
        (any boutique: the spec lets shoppers share one); for a `take` or `pass`, a take or
        pass in another boutique; for a `bill` or `done`, the bills and dones of other
        gentlemen. Anything else (the same boutique, the same gentleman, a new phase)
        conflicts."""
        kind, other_seat = event["type"], event.get("seat") != move.get("seat")
        if kind in ("note", "window") or kind in self.host_events or (kind in self.private_events and other_seat):
            return True
        if move["type"] == "number":
            return kind == "number" and other_seat and event["number"] != move["number"]
        if move["type"] == "visit":
            return kind == "visit" and other_seat
        if move["type"] in ("take", "pass"):
            return kind in ("take", "pass") and bool(event["boutique"] != move["boutique"])
        if move["type"] in ("bill", "done"):
            return kind in ("bill", "done") and other_seat
        return False

    def card_errors(self, start: State, event: Event) -> dict[str, list[str]]:
        """A boutique that no team owns is a format error, like a seat outside `seats`."""
        boutique = event.get("boutique")
        if boutique is None or boutique in self._boutiques(start):
            return {}
        return {"boutique": [f"{boutique!r} is not a boutique of this game (the boutiques: {', '.join(self._boutiques(start))})."]}

    def sharing(self, state: State, seat: int) -> frozenset[int]:
        """A team's money is the team's: the lady and the gentleman see it."""
        team = next((t for t in state.teams if seat in t), (seat,))
        return frozenset(team)

    def knowing(self, state: State, seats: frozenset[int]) -> State:
        """The money of gentlemen outside `seats` who earned income is unknown."""
        hidden = [g for g in state.earned if g not in seats]
        if not hidden:
            return state
        return evolve(state, money={g: None if g in hidden else money for g, money in state.money.items()})

    # --- checks -----------------------------------------------------------------------

    def _role(self, state: State, seat: int, allowed: str, doing: Phrase) -> Iterator[Violation]:
        role = state.role(seat)
        if role not in allowed.split():
            yield broken("lg.role", "%(name)s is %(role)s; %(role)s cannot %(doing)s.", name=state.names[seat], role=ROLE_WORDS[role], doing=doing)

    def _in_day(self, state: State) -> Iterator[Violation]:
        if state.day == 0:
            yield broken("lg.phase", "No day has started yet: log the day first.")
        elif state.ball:  # entries come only after the last day
            yield broken("lg.phase", "The Ball has begun.")

    def _morning(self, state: State, what: Phrase) -> Iterator[Violation]:
        yield from self._in_day(state)
        if state.visits or state.evening:
            yield broken("lg.phase", "%(what)s belongs to the morning, before the first visit.", what=what)

    def _day_checks(self, state: State, event: Event) -> Iterator[Violation]:
        n = event["n"]
        if n > DAYS:
            yield broken("lg.phase", "The game lasts %(DAYS)s days; then comes the Ball.", DAYS=DAYS)
        elif n != state.day + 1:
            yield broken("lg.phase", "Day %(n)s cannot start now: the next day is day %(value)s.", n=n, value=state.day + 1)
        elif state.day and not state.day_over:
            yield self._not_over(state)

    def _number_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, number = event["seat"], event["number"]
        yield from self._role(state, seat, "gentleman", Phrase("take a number token"))
        yield from self._morning(state, Phrase("A number token"))
        if seat in state.numbers:
            yield broken("lg.phase", "%(name)s already has number %(numbers)s today.", name=state.names[seat], numbers=state.numbers[seat])
        g = len(state.teams)
        if not 1 <= number <= g:
            yield broken("lg.number", "Number tokens are 1–%(g)s, not %(number)s.", g=g, number=number)
        elif number in state.numbers.values():
            holder = next(s for s, n in state.numbers.items() if n == number)
            yield broken("lg.number", "%(holder)s already has number %(number)s today.", holder=state.names[holder], number=number)

    def _window_checks(self, state: State, event: Event) -> Iterator[Violation]:
        yield from self._morning(state, Phrase("A window card"))
        boutique = event["boutique"]  # one of the boutiques: the record checks it (card_errors)
        if boutique in state.windows:
            yield broken("lg.phase", "%(boutique)s already has its window card today.", boutique=boutique)
        yield from self._card_free(state, event["card"]["name"])

    def _boutiques(self, state: State) -> list[str]:
        return [f"team-{lady}" for lady in state.ladies]

    def _card_free(self, state: State, name: str) -> Iterator[Violation]:
        card = state.cards.get(name)
        if card is not None and card.place != "window":
            yield broken("lg.bill.card", "%(name)s is not in a deck: it is already with %(shopper)s.", name=name, shopper=state.names[card.shopper])

    def _income_checks(self, state: State, event: Event) -> Iterator[Violation]:
        yield from self._role(state, event["seat"], "gentleman", Phrase("earn income"))
        yield from self._in_day(state)
        if state.evening:
            yield broken("lg.phase", "Income is logged in the morning or the afternoon.")

    def _visit_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, boutique = event["seat"], event["boutique"]
        yield from self._role(state, seat, "lady courtesan", Phrase("go shopping"))
        yield from self._in_day(state)
        if len(state.numbers) < len(state.gentlemen):
            yield broken("lg.phase", "Every gentleman takes his number token before the first visit.")
        if state.evening:
            yield broken("lg.phase", "The afternoon is over.")
        if seat in state.visits:
            yield broken("lg.visit", "%(name)s already visits %(visits)s today.", name=state.names[seat], visits=state.visits[seat])

    def _shop_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, boutique = event["seat"], event["boutique"]
        name = state.names[seat]
        yield from self._role(state, seat, "lady courtesan", Phrase("go shopping"))
        yield from self._in_day(state)
        if not state.all_visited:
            yield broken("lg.phase", "Shopping starts when every shopper has chosen her boutique.")
        elif state.evening:
            yield broken("lg.phase", "The afternoon is over.")
        if state.visits.get(seat) != boutique:
            yield broken("lg.visit", "%(name)s did not visit %(boutique)s today.", name=name, boutique=boutique)
        shop = state.boutiques.get(boutique, Boutique())  # no take order before every shopper has visited, or where nobody did
        if seat in shop.passed:
            yield broken("lg.take.order", "%(name)s has passed and is out of %(boutique)s for today.", name=name, boutique=boutique)
        elif len(shop.order) > 1 and shop.order[shop.next] != seat:
            yield broken("lg.take.order", "In %(boutique)s it is %(name)s's turn, not %(name2)s's.", boutique=boutique, name=state.names[shop.order[shop.next]], name2=name)
        if event["type"] == "take":
            if event["card"]["kind"] == "servant" and state.servants.get(seat, 0) >= 1:
                yield broken("lg.take.servant", "%(name)s already has a servant card from this visit.", name=name)
            yield from self._card_free(state, event["card"]["name"])

    def _evening(self, state: State) -> Iterator[Violation]:
        yield from self._in_day(state)
        if not state.all_visited:
            missing = [state.names[s] for s in state.shoppers if s not in state.visits]
            yield broken("lg.phase", "The evening starts once every shopper has visited (%(names)s not yet).", names=tuple(missing))

    def _give_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, to = event["seat"], event["to"]
        yield from self._role(state, seat, "courtesan", Phrase("hand cards to the gentlemen"))
        if state.role(to) != "gentleman":
            yield broken("lg.role", "%(to)s is not a gentleman; the courtesan hands her cards to gentlemen.", to=state.names[to])
        yield from self._evening(state)
        if state.billing:
            yield broken("lg.phase", "The courtesan hands on her cards before the first bill.")
        if self._unpaid(state, seat, event["card"]) is None:
            yield broken("lg.bill.card", "The courtesan does not hold %(card)s unpaid.", card=event['card'])

    @staticmethod
    def _unpaid(state: State, seat: int, name: str) -> Card | None:
        """The card of this shopper's she may hand on (taken today or kept), or None."""
        card = state.cards.get(name)
        return card if card is not None and card.shopper == seat and card.place in ("taken", "kept") else None

    def _gentleman_evening(self, state: State, event: Event, doing: Phrase) -> Iterator[Violation]:
        seat = event["seat"]
        yield from self._role(state, seat, "gentleman", doing)
        yield from self._evening(state)
        if state.to_give():
            yield broken("lg.phase", "The courtesan still holds %(cards)s to hand on.", cards=tuple(c.name for c in state.to_give()))
        if seat in state.done:
            yield broken("lg.phase", "%(name)s is done for this evening.", name=state.names[seat])

    def _bill_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, name, choice = event["seat"], event["card"], event["choice"]
        yield from self._gentleman_evening(state, event, Phrase("pay bills"))
        if state.role(seat) != "gentleman":
            return  # no team: no bills, boutique or window of his to judge the card by
        card = state.cards.get(name)
        if choice == "discount":  # the card a discount names is judged by lg.bill.discount alone (the spec)
            yield from self._discount_checks(state, seat, name)
        elif name in state.settled:
            yield broken("lg.bill.card", "%(card)s was settled already this evening.", card=name)
        elif not self._handed(card, seat):
            yield broken("lg.bill.card", "%(card)s is not a bill of %(name)s this evening.", card=name, name=state.names[seat])
        if card is None:
            return  # no such card: no price to judge the bill by
        if choice == "defer" and card.shopper == state.courtesan:
            yield broken("lg.bill.defer", "A courtesan's card is paid or returned, never deferred.")
        cost, money = self._cost(card, choice), state.money[seat]
        if money is not None and cost > money:
            yield broken("lg.money.short", "%(name)s cannot pay £%(cost)s.", name=state.names[seat], cost=cost)

    @staticmethod
    def _handed(card: Card | None, gentleman: int) -> bool:
        """Whether the card is one of his bills this evening (not settled yet)."""
        return card is not None and card.gentleman == gentleman and card.place in HANDED

    def _discount_checks(self, state: State, seat: int, name: str) -> Iterator[Violation]:
        boutique, lady = state.boutique_of(seat), state.lady_of(seat)
        window, card = state.windows.get(boutique), state.cards.get(name)
        if window is None or window.name != name or card is None or card.place != "window":
            yield broken("lg.bill.discount", "Only the window card of %(boutique_of)s can be had at a discount.", boutique_of=boutique)
        elif boutique in state.visits.values():
            yield broken("lg.bill.discount", "%(boutique_of)s had a visitor today: no discount.", boutique_of=boutique)
        elif lady in state.discarded:
            yield broken("lg.bill.discount", "%(lady)s discarded a gossip card instead of the discount today.", lady=state.names[lady])

    @staticmethod
    def _spent(money: int | None, cost: int) -> int | None:
        return None if money is None else money - cost

    @staticmethod
    def _cost(card: Card, choice: str) -> int:
        return {"pay": card.price, "defer": DEFER_FEE, "discount": -(-card.price // 2), "return": 0}[choice]

    def _done_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat = event["seat"]
        yield from self._gentleman_evening(state, event, Phrase("settle bills"))
        open_bills = [c.name for c in state.handed_to(seat) if c.name not in state.settled]
        if open_bills:
            yield broken("lg.phase", "%(name)s has not settled %(cards)s yet.", name=state.names[seat], cards=tuple(open_bills))
        lady, courtesan = state.paid_lady.get(seat, 0), state.paid_courtesan.get(seat, 0)
        if courtesan > lady:
            yield broken("lg.bill.ratio", "%(name)s paid %(courtesan)s courtesan card(s) but only %(lady)s of his lady's this evening.", name=state.names[seat], courtesan=courtesan, lady=lady)

    def _keep_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, names = event["seat"], event["cards"]
        yield from self._role(state, seat, "courtesan", Phrase("keep cards"))
        yield from self._in_day(state)
        if not state.day_over:
            yield broken("lg.phase", "The courtesan keeps cards once every gentleman is done.")
        if state.kept:
            yield broken("lg.keep", "The courtesan has kept her cards for this evening already.")
        if len(names) > 3 or len(set(names)) != len(names):
            yield broken("lg.keep", "The courtesan keeps at most 3 different cards, not %(count)s.", count=len(names))
        returned = {c.name for c in state.cards.values() if c.place == "returned-to-courtesan"}
        strangers = [n for n in names if n not in returned]
        if strangers:
            yield broken("lg.keep", "%(cards)s did not come back to the courtesan unpaid this evening.", cards=tuple(strangers))

    def _gossip_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, to = event["seat"], event["to"]
        yield from self._role(state, seat, "lady courtesan", Phrase("pass gossip"))
        if to == seat or to not in state.shoppers:
            yield broken("lg.role", "Gossip goes to another shopper, not to %(to)s.", to=state.names[to])
        yield from self._in_day(state)
        if not state.gossip_variant:
            yield broken("lg.gossip", "This game is played without gossip.")
        elif seat in state.gossiped:
            yield broken("lg.gossip", "%(name)s has passed a gossip card today already.", name=state.names[seat])
        elif state.gossip_own.get(seat, 0) + state.gossip_received.get(seat, 0) == 0:
            yield broken("lg.gossip", "%(name)s holds no gossip card.", name=state.names[seat])

    def _discard_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat = event["seat"]
        yield from self._role(state, seat, "lady", Phrase("discard gossip for her boutique"))
        yield from self._evening(state)
        if state.day_over:
            yield broken("lg.phase", "Gossip is discarded before the last gentleman is done.")
        boutique = f"team-{seat}"
        if not state.gossip_variant:
            yield broken("lg.gossip", "This game is played without gossip.")
        elif state.gossip_own.get(seat, 0) == 0:
            yield broken("lg.gossip", "%(name)s holds none of the gossip cards she started with.", name=state.names[seat])
        elif seat in state.discarded:
            yield broken("lg.gossip", "%(name)s has discarded a gossip card today already.", name=state.names[seat])
        elif boutique in state.visits.values():
            yield broken("lg.gossip", "%(boutique)s had a visitor today.", boutique=boutique)
        elif seat in state.discounted:
            yield broken("lg.gossip", "%(name)s took the discount today.", name=state.names[state.gentleman_of(seat)])

    def _ball_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat = event["seat"]
        yield from self._role(state, seat, "lady courtesan", Phrase("be scored at the Ball"))
        if state.day < DAYS or not state.day_over:
            yield broken("lg.phase", "The Ball comes after day %(DAYS)s is over.", DAYS=DAYS)
        elif seat in state.ball:
            yield broken("lg.phase", "%(name)s's elegance is entered already.", name=state.names[seat])

    def _not_over(self, state: State) -> Violation:
        if not state.all_visited:
            return broken("lg.phase", "Day %(day)s is not over yet: visits are missing.", day=state.day)
        waiting = tuple(state.names[g] for g in state.gentlemen if g not in state.done)
        return broken("lg.phase", "Day %(day)s is not over yet: %(names)s not done.", day=state.day, names=waiting)

    # --- effects ----------------------------------------------------------------------

    def _day(self, state: State, event: Event) -> State:
        cards = dict(state.cards)
        for name, card in state.cards.items():
            if card.place == "window":
                del cards[name]  # the window card goes back to its boutique
            elif card.place == "returned-to-courtesan":
                del cards[name]  # not kept: under its deck
        return evolve(
            state, day=event["n"], numbers={}, windows={}, visits={}, boutiques={}, servants={}, evening=False, billing=False,
            cards=cards, settled=frozenset(), done=frozenset(), paid_lady={}, paid_courtesan={}, discounted=frozenset(),
            discarded=frozenset(), kept=False, gossiped=frozenset(),
        )

    def _number(self, state: State, event: Event) -> State:
        return evolve(state, numbers={**state.numbers, event["seat"]: event["number"]})

    def _window(self, state: State, event: Event) -> State:
        raw = event["card"]
        card = Card(raw["name"], raw["kind"], raw["price"], raw["stars"], -1, "window")
        return evolve(state, windows={**state.windows, event["boutique"]: card}, cards={**state.cards, card.name: card})

    def _income(self, state: State, event: Event) -> State:
        seat, money = event["seat"], state.money[event["seat"]]
        return evolve(state, money={**state.money, seat: None if money is None else money + event["amount"]}, earned=state.earned | {seat})

    def _visit(self, state: State, event: Event) -> State:
        visits = {**state.visits, event["seat"]: event["boutique"]}
        state = evolve(state, visits=visits)
        if not state.all_visited:
            return state
        return evolve(state, boutiques={b: Boutique(self._take_order(state, b)) for b in sorted(set(visits.values()))})

    def _take_order(self, state: State, boutique: str) -> tuple[int, ...]:
        """Ladies by their gentleman's number, lowest first; the courtesan always second."""
        def number(shopper: int) -> int:  # a gentleman shopping (ruled) by his own; a number not logged (ruled) as 0
            return state.numbers.get(state.gentleman_of(shopper) if shopper in state.ladies else shopper, 0)

        ladies = sorted((s for s, b in state.visits.items() if b == boutique and s != state.courtesan), key=number)
        if state.courtesan is not None and state.visits.get(state.courtesan) == boutique:
            ladies.insert(min(1, len(ladies)), state.courtesan)
        return tuple(ladies)

    def _advance(self, shop: Boutique, passed: frozenset[int]) -> Boutique:
        """The next shopper round the boutique who has not passed."""
        n = len(shop.order)
        for step in range(1, n + 1):
            index = (shop.next + step) % n
            if shop.order[index] not in passed:
                return evolve(shop, next=index, passed=passed)
        return evolve(shop, passed=passed)

    def _take(self, state: State, event: Event) -> State:
        seat, raw = event["seat"], event["card"]
        gentleman = None if seat == state.courtesan else state.gentleman_of(seat)
        card = made(Card, name=raw["name"], kind=raw["kind"], price=raw["price"], stars=raw["stars"], shopper=seat, place="taken", gentleman=gentleman)
        servants = {**state.servants, seat: state.servants.get(seat, 0) + (raw["kind"] == "servant")}
        seen = (*(c for c in state.seen.get(event["boutique"], ()) if c[0] != card.name), (card.name, card.kind, card.price, card.stars))
        return evolve(state, cards={**state.cards, card.name: card}, servants=servants, seen={**state.seen, event["boutique"]: seen[-RECENT:]},
                       boutiques=self._turn_taken(state, event, frozenset()))

    def _pass(self, state: State, event: Event) -> State:
        return evolve(state, boutiques=self._turn_taken(state, event, frozenset({event["seat"]})))

    def _turn_taken(self, state: State, event: Event, passing: frozenset[int]) -> Mapping[str, Boutique]:
        """The boutiques after the mover's take or pass: the turn goes on round from her (out
        of turn, where the table let it stand, too: those she passed over keep their turns).
        A shopper outside the boutique's order (ruled) moves no turn there."""
        boutique, seat = event["boutique"], event["seat"]
        shop = state.boutiques.get(boutique)
        if shop is None or seat not in shop.order:
            return state.boutiques
        return {**state.boutiques, boutique: self._advance(evolve(shop, next=shop.order.index(seat)), shop.passed | passing)}

    def _give(self, state: State, event: Event) -> State:
        held = self._unpaid(state, event["seat"], event["card"])
        if held is None:
            raise NoMeaning("a give of a card she does not hold")
        card = evolve(held, place="given", gentleman=event["to"])
        return evolve(state, evening=True, cards={**state.cards, card.name: card})

    def _bill(self, state: State, event: Event) -> State:
        seat, choice = event["seat"], event["choice"]
        card = state.cards[event["card"]]
        window = card.place == "window"
        if not (self._handed(card, seat) or (choice == "discount" and window)):
            raise NoMeaning("a bill for a card not handed to him")
        cards = dict(state.cards)
        changes: dict[str, Any] = {}  # copies of the tallies this bill changes, and only those
        from_courtesan = card.shopper == state.courtesan
        if choice in ("pay", "discount"):
            shopper = state.lady_of(seat) if window else card.shopper  # a card at a discount is paid like the card it is
            cards[card.name] = evolve(card, place="paid", gentleman=seat, shopper=shopper)
            if from_courtesan:
                changes["paid_courtesan"] = {**state.paid_courtesan, seat: state.paid_courtesan.get(seat, 0) + 1}
                changes["gifts"] = {**state.gifts, seat: state.gifts[seat] + card.stars}
            else:
                changes["paid_lady"] = {**state.paid_lady, seat: state.paid_lady.get(seat, 0) + 1}
            if choice == "discount":
                changes["discounted"] = state.discounted | {state.lady_of(seat)}
        elif choice == "defer":
            cards[card.name] = evolve(card, place="deferred-new")
        elif from_courtesan:
            cards[card.name] = evolve(card, place="returned-to-courtesan", gentleman=None)
        else:
            del cards[card.name]  # back under its deck
        return evolve(state, changes, evening=True, billing=True, cards=cards, settled=state.settled | {card.name},
                      money={**state.money, seat: self._spent(state.money[seat], self._cost(card, choice))})

    def _done(self, state: State, event: Event) -> State:
        done = state.done | {event["seat"]}
        state = evolve(state, evening=True, billing=True, done=done)
        if not state.day_over:
            return state
        # The day is over: deferred cards come back tomorrow; a lady's unsettled cards
        # cannot remain (done needs every bill settled).
        cards = {n: (evolve(c, place="deferred") if c.place == "deferred-new" else c) for n, c in state.cards.items()}
        return evolve(state, cards=cards)

    def _keep(self, state: State, event: Event) -> State:
        cards = dict(state.cards)
        for name, card in state.cards.items():
            if card.place == "returned-to-courtesan":
                if name in event["cards"]:
                    cards[name] = evolve(card, place="kept")
                else:
                    del cards[name]
        return evolve(state, cards=cards, kept=True)

    def _gossip(self, state: State, event: Event) -> State:
        seat, to = event["seat"], event["to"]
        own, received = dict(state.gossip_own), dict(state.gossip_received)
        if received[seat]:
            received[seat] -= 1
        else:
            own[seat] -= 1
        received[to] += 1
        return evolve(state, gossip_own=own, gossip_received=received, gossiped=state.gossiped | {seat})

    def _discard(self, state: State, event: Event) -> State:
        seat = event["seat"]
        return evolve(state, gossip_own={**state.gossip_own, seat: state.gossip_own[seat] - 1}, discarded=state.discarded | {seat})

    def _ball(self, state: State, event: Event) -> State:
        return evolve(state, ball={**state.ball, event["seat"]: event["elegance"]})

    def completed(self, state: State, body: dict[str, Any]) -> dict[str, Any]:
        """A card tapped on a phone (kind, price, stars) gets a fresh name, "wardrobe-4": the
        first of its kind not yet in the game, so two tables of shoppers never collide."""
        card = body.get("card")
        if body.get("type") in ("take", "window") and isinstance(card, dict) and not card.get("name") and card.get("kind") in KINDS:
            taken = {*state.cards, *(c.name for c in state.windows.values())}
            number = next(n for n in itertools.count(1) if f"{card['kind']}-{n}" not in taken)
            body = {**body, "card": {"name": f"{card['kind']}-{number}", **{k: v for k, v in card.items() if k != "name"}}}
        return body

    # --- the end, the view and the result ---------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if state.over:
            return Outcome(Termination.FINISHED, "every shopper's elegance is entered: the Ball is over")
        return None

    def phase(self, state: State) -> str:
        """before, morning, afternoon (visits), shopping (takes), evening, night (the day is
        over: the courtesan keeps, the next day may start), ball, over."""
        if state.over:
            return "over"
        if state.day == 0:
            return "before"
        if state.day_over:
            return "ball" if state.day == DAYS else "night"
        if state.evening:
            return "evening"
        if state.all_visited:
            return "shopping"
        return "afternoon" if state.visits else "morning"

    @staticmethod
    def _to_act(state: State, phase: str) -> list[int]:
        """Who the table waits for now (players act at once in this game, not in turns):
        gentlemen without a number in the morning, shoppers without a boutique in the
        afternoon, whose turn it is in each boutique until its shoppers have passed, then a
        courtesan with cards to hand on, and once she has handed them all, the gentlemen not
        done with their bills (lg.phase: no bill before her last give). The host's day and
        Ball are not a player's turn."""
        if phase == "morning":
            numbers_missing = [g for g in state.gentlemen if g not in state.numbers]
            if numbers_missing:
                return numbers_missing
            phase = "afternoon"  # every number is in: the shoppers choose their boutiques
        if phase == "afternoon":
            return [s for s in state.shoppers if s not in state.visits]
        if phase == "shopping":
            turns = [shop.order[shop.next] for shop in state.boutiques.values() if shop.order and shop.order[shop.next] not in shop.passed]
            if any(len(shop.order) > 1 and shop.order[shop.next] not in shop.passed for shop in state.boutiques.values()):
                return turns
            # Only shoppers alone in a boutique are left: they need not pass, so the evening may begin.
            return turns + [s for s in LadiesAndGentlemen._evening_turns(state) if s not in turns]
        if phase == "evening":
            return LadiesAndGentlemen._evening_turns(state)
        return []

    @staticmethod
    def _evening_turns(state: State) -> list[int]:
        """The courtesan while she holds cards to hand on; then the gentlemen not done."""
        if state.to_give():
            return [state.courtesan]  # type: ignore[list-item]  # to_give is empty without her
        return [g for g in state.gentlemen if g not in state.done]

    def view(self, state: State, seat: int | None, outcome: Outcome | None = None) -> dict[str, Any]:
        names = state.names
        over = state.over or outcome is not None
        phase = "over" if over else self.phase(state)
        view: dict[str, Any] = {
            "phase": phase,
            "day": state.day,
            "days": DAYS,
            "turn": None,
            "to_act": [names[s] for s in self._to_act(state, phase)],
            # The night: a courtesan with cards returned unpaid may keep some before the host's next day.
            "may_act": [names[state.courtesan]] if phase in ("night", "ball") and state.courtesan is not None and not state.kept
            and any(c.place == "returned-to-courtesan" for c in state.cards.values()) else [],
            "roles": {names[s]: state.role(s) for s in range(len(names))},
            "teams": [{"lady": names[l], "gentleman": names[g], "boutique": f"team-{l}"} for l, g in state.teams],
            "boutique_names": {f"team-{l}": names[l] for l in state.ladies},
            "courtesan": None if state.courtesan is None else names[state.courtesan],
            "numbers": {names[g]: n for g, n in state.numbers.items()},
            "windows": {b: {"name": c.name, "price": c.price, "stars": c.stars} for b, c in state.windows.items()},
            "visits": {names[s]: b for s, b in state.visits.items()},
            "boutiques": {b: {"order": [names[s] for s in shop.order], "turn": names[shop.order[shop.next]] if len(shop.order) > 1 and shop.order[shop.next] not in shop.passed else None,
                              "passed": [names[s] for s in sorted(shop.passed)]} for b, shop in state.boutiques.items()},
            "to_give": [self._card_json(state, c) for c in state.to_give()],
            "bills": {names[g]: [{**self._card_json(state, c), "settled": c.name in state.settled} for c in state.handed_to(g)]
                      for g in state.gentlemen},
            "settled": sorted(state.settled),
            "paid": {names[g]: {"lady": state.paid_lady.get(g, 0), "courtesan": state.paid_courtesan.get(g, 0)} for g in state.gentlemen},
            "done": [names[g] for g in sorted(state.done)],
            # Whose bills the phones offer: the gentlemen not done, once the courtesan has handed on every card.
            "billing": [] if state.to_give() else [names[g] for g in state.gentlemen if g not in state.done],
            "returned": [c.name for c in state.cards.values() if c.place == "returned-to-courtesan"],
            "wardrobes": {names[s]: [self._card_json(state, c) for c in state.cards.values() if c.place == "paid" and c.shopper == s]
                          for s in state.shoppers},
            "gifts": {names[g]: state.gifts[g] for g in state.gentlemen},
            "gossip": {names[s]: state.gossip_own[s] + state.gossip_received[s] for s in state.shoppers} if state.gossip_variant else {},
            "ball": {names[s]: e for s, e in state.ball.items()},
            "recent": {b: [{"name": n, "kind": k, "price": p, "stars": st} for n, k, p, st in cards if n not in state.cards][::-1]
                       for b, cards in state.seen.items()},
            "window_free": {names[g]: state.boutique_of(g) not in state.visits.values() for g in state.gentlemen},
        }
        # Who may take or pass in her boutique now: alone there, or on her turn, until she passes.
        view["may_take"] = [name for name, b in view["visits"].items() if phase == "shopping" and name not in view["boutiques"][b]["passed"]
                            and view["boutiques"][b]["turn"] in (None, name)]
        if over:
            view["money"] = {names[g]: state.money[g] for g in state.gentlemen if state.money[g] is not None}
        elif seat is not None and seat != state.courtesan:
            team = next(t for t in state.teams if seat in t)
            view["team_money"] = state.money[team[1]]
        return view

    def house_view(self, view: dict[str, Any], off: frozenset[str]) -> dict[str, Any]:
        """The controls a rule off gives back; every other rule off hides nothing.

        lg.bill.defer    Defer on the courtesan's cards too
        lg.take.order    every shopper in a boutique takes and passes, out of turn and after passing
        lg.phase         a gentleman's bills before the courtesan's last give, and after his
                         Done (the other phase-bound forms stay in their phases: a table that
                         plays out of phase logs it from the host's phone or the API)
        lg.role, lg.number, lg.visit, lg.take.servant, lg.bill.card, lg.bill.discount,
        lg.keep, lg.gossip: nothing given back: each form is its role's, on the cards the
                         day put before it (typed names and any number reach the API)
        lg.bill.ratio, lg.money.short: nothing: Pay is offered whatever was paid
        """
        view = dict(view)
        if "lg.bill.defer" in off:
            view["defer_courtesan"] = True
        if "lg.take.order" in off:
            view["may_take"] = list(view["visits"]) if view["phase"] == "shopping" else []
        if "lg.phase" in off:
            view["billing"] = [team["gentleman"] for team in view["teams"]]
        return view

    def _card_json(self, state: State, card: Card) -> dict[str, Any]:
        return {"name": card.name, "kind": card.kind, "price": card.price, "stars": card.stars,
                "from": state.names[card.shopper] if card.shopper >= 0 else None,
                "courtesan": card.shopper == state.courtesan and state.courtesan is not None}

    def explain(self, state: State, applied: Sequence[Event]) -> dict[str, list[dict[str, Any]]]:
        """The Ball: the elegance the table entered, less 1 for each gossip card still held."""
        if not state.over or None in state.money.values():
            return {}
        names = state.names
        items: dict[str, list[dict[str, Any]]] = {}
        for event in applied:
            if event["type"] == "ball":
                items[names[event["seat"]]] = [because(event["elegance"], [event["seq"]], "elegance entered at the Ball")]
        for shopper in state.shoppers:
            held = state.gossip_own[shopper] + state.gossip_received[shopper]
            if held:
                passed_to = [e["seq"] for e in applied if e["type"] == "gossip" and e["to"] == shopper]
                items[names[shopper]].append(because(-held, passed_to, "%(count)s gossip card held at the Ball" if held == 1
                                                     else "%(count)s gossip cards held at the Ball", count=held))
        return items

    def elegance(self, state: State) -> dict[int, int]:
        """Elegance at the Ball after gossip: each gossip card held costs 1."""
        return {s: e - state.gossip_own[s] - state.gossip_received[s] for s, e in state.ball.items()}

    def result(self, state: State, outcome: Outcome | None = None) -> Result:
        names = state.names
        over = state.over
        detail: dict[str, Any] = {
            "gifts": {names[g]: state.gifts[g] for g in state.gentlemen},
            "days": state.day,
        }
        if over or outcome is not None:
            detail["money"] = {names[g]: state.money[g] for g in state.gentlemen if state.money[g] is not None}
        if not over or None in state.money.values():  # a tie may turn on money this reader may not know
            return Result({}, [], detail, ended_early=ended_early(outcome))
        elegance = self.elegance(state)
        winners, excluded, why, scandal = self._ball_verdict(state, elegance)
        detail.update(
            elegance={names[s]: elegance[s] for s in state.shoppers},
            scandal=scandal,
            excluded=[names[s] for s in sorted(excluded)],
            winners=[names[s] for s in sorted(winners)],
            why=why,
        )
        return Result({names[s]: elegance[s] for s in state.shoppers}, self._ranking(state, elegance, winners, excluded), detail,
                      winners=detail["winners"])

    def _ball_verdict(self, state: State, elegance: Mapping[int, int]) -> tuple[set[int], set[int], str, bool]:
        """(winners, excluded, the sentence, whether a scandal happened)."""
        names, courtesan = state.names, state.courtesan
        money = self._known_money(state)
        ladies = list(state.ladies)
        if courtesan is not None:
            best_lady = max(elegance[l] for l in ladies)
            worst_lady = min(elegance[l] for l in ladies)
            mine = elegance[courtesan]
            gents = list(state.gentlemen)
            if mine >= best_lady:  # ties go in her favour
                chosen = self._top(gents, lambda g: (state.gifts[g], money[g]))
                who = " and ".join(names[g] for g in chosen)
                return ({courtesan, *chosen}, set(),
                        f"{names[courtesan]}, the courtesan, is the most elegant at the Ball ({mine}); she wins with {who}, "
                        f"who gave her the finest gifts ({state.gifts[chosen[0]]} stars)" + (", the richer of the tied" if len(chosen) == 1 and
                        sum(1 for g in gents if state.gifts[g] == state.gifts[chosen[0]]) > 1 else "") + ".", False)
            if mine < worst_lady:
                fewest = self._top(gents, lambda g: (-state.gifts[g], -money[g]))
                excluded = {s for g in fewest for s in (g, state.lady_of(g))}
                left = [l for l in ladies if l not in excluded]
                who = " and ".join(names[g] for g in fewest)
                sentence = (f"Scandal: {names[courtesan]}, the courtesan, is the least elegant ({mine}); {who} gave her the "
                            f"poorest gifts ({state.gifts[fewest[0]]} stars) and {'are' if len(fewest) > 1 else 'is'} excluded with "
                            f"{'their ladies' if len(fewest) > 1 else 'his lady'}.")
                if not left:
                    return set(), excluded, sentence + " No team is left to win.", True
                winners, reason = self._best_team(state, elegance, left)
                return winners, excluded, f"{sentence} {reason}", True
        winners, reason = self._best_team(state, elegance, ladies)
        return winners, set(), reason, False

    @staticmethod
    def _known_money(state: State) -> dict[int, int]:
        """Every gentleman's money, where the reader knows all of it (the Ball's ties)."""
        return {g: m for g, m in state.money.items() if m is not None}

    @staticmethod
    def _top(seats: list[int], key: Any) -> list[int]:
        best = max(key(s) for s in seats)
        return [s for s in seats if key(s) == best]

    def _best_team(self, state: State, elegance: Mapping[int, int], ladies: list[int]) -> tuple[set[int], str]:
        names, money = state.names, self._known_money(state)
        top = self._top(ladies, lambda l: (elegance[l], money[state.gentleman_of(l)]))
        winners = {s for l in top for s in (l, state.gentleman_of(l))}
        tied = sum(1 for l in ladies if elegance[l] == elegance[top[0]]) > 1
        teams = " and ".join(f"{names[l]} and {names[state.gentleman_of(l)]}" for l in top)
        sentence = f"{teams} win: {'the most elegant ladies' if len(top) > 1 else names[top[0]] + ' is the most elegant lady'} ({elegance[top[0]]})"
        if tied and len(top) == 1:
            sentence += f", and {names[state.gentleman_of(top[0])]} is the richer gentleman of the tie"
        return winners, sentence + "."

    def _ranking(self, state: State, elegance: Mapping[int, int], winners: set[int], excluded: set[int]) -> list[list[str]]:
        """Winners first; then parties by elegance (a team as one, the courtesan above ladies
        equal to her); excluded teams last. Names inside a tier in seat order."""
        names = state.names
        parties: list[tuple[tuple[int, int], list[int]]] = []
        for lady, gentleman in state.teams:
            members = [s for s in (lady, gentleman) if s not in winners and s not in excluded]
            if members:
                parties.append(((elegance[lady], 0), members))
        if state.courtesan is not None and state.courtesan not in winners:
            parties.append(((elegance[state.courtesan], 1), [state.courtesan]))
        tiers: dict[tuple[int, int], list[int]] = {}
        for key, members in parties:
            tiers.setdefault(key, []).extend(members)
        ranking = [sorted(winners)] if winners else []
        ranking += [sorted(tiers[key]) for key in sorted(tiers, reverse=True)]
        if excluded:
            ranking.append(sorted(excluded))
        return [[names[s] for s in tier] for tier in ranking]
