"""Employee of the Month (`employee-of-the-month`): auctions over a shared row of favours.

Reference: docs/games/ (made from this module). Decisions where the rules are silent:
- Card notation is a format question, card values a rule question: "colleague-11" is a
  well-formed card and flagged `eotm.card.range`; "colleague-x" is a format error.
- An auction is "running" from its first bid or pass; a `reveal` then, or a second one
  before that auction, is `eotm.reveal.unexpected`. After the 32nd auction the game is
  over, so any later event is `core.game.over`.
- A bid on the card that is already the high bid (it is turned, but still in the row)
  is `eotm.bid.higher`, not `eotm.bid.row`.
- `view`: a seat sees its own won cards; everyone sees how many cards of each deck each
  player holds; all won cards are public once the game is over.
- A move the table lets stand (a `ruling`, or a rule its `house_rules` turn off) applies
  this module's effect as for a legal move (DESIGN, "as if legal"), and a rule off leaves
  the rules after it to judge the move. Out of turn: the bid or pass is the mover's turn,
  and the auction goes on clockwise from him; a player who had passed and whose bid
  stands is back in the auction. Not higher: the bid is the high bid. Wrong amount: a
  `start` with another number of row cards starts with the cards named. No meaning: a bid
  or pass before the start or with no prize out, and a bid naming a card not in the row,
  change nothing (listed as not applied), and are judged no further.
- `eotm.deck.supply` judges the kinds an event reveals: once an over-supply is let stand,
  reveals without that kind go on unflagged; another card of it is flagged again.
- A game the table ends before the 32nd auction names no winner: the majority table of
  the cards won so far is shown as the standings it reached, and ranks by it.
"""

from __future__ import annotations

import re
from functools import cache
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from .base import (Event, Game, NoMeaning, Outcome, Result, Seat, Termination, Violation, Word, because, broken, ended_early, evolve,
                   ranking_by_score, replace_at)

AUCTIONS = 32
ROW_SIZE = 7
SUPPLY = {"colleague": 24, "boss": 16, "distrust": 32, "plus": 23, "popularity": 9}
KINDS = tuple(SUPPLY)
RANGES = {"colleague": (1, 10), "boss": (1, 10), "distrust": (1, 5), "plus": (1, 6), "popularity": (2, 8)}
FAVOUR = re.compile(r"(colleague|boss)-(\d+)")
POINTS = re.compile(r"(plus|popularity)-(\d+)")


@cache  # a few dozen cards, looked up on every bid of a replay
def kind_and_value(card: str | int) -> tuple[str, int]:
    """("boss", 7) for "boss-7"; ("distrust", 3) for 3."""
    if isinstance(card, int):
        return "distrust", card
    kind, value = card.rsplit("-", 1)
    return kind, int(value)


@cache
def rank(card: str) -> tuple[int, int]:
    """Favour card order: value first; at equal value boss above colleague."""
    kind, value = kind_and_value(card)
    return value, 1 if kind == "boss" else 0


class PatternCard(fields.String):
    """A card in record notation, e.g. "boss-7"."""

    def __init__(self, pattern: re.Pattern[str], example: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.pattern, self.example = pattern, example

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> str:
        text = super()._deserialize(value, attr, data, **kwargs)
        if not self.pattern.fullmatch(text):
            raise ValidationError(f"{value!r} is not a card of this game (like {self.example!r}).")
        return text


def favour(**kwargs: Any) -> PatternCard:
    return PatternCard(FAVOUR, "colleague-5", **kwargs)


def points(**kwargs: Any) -> PatternCard:
    return PatternCard(POINTS, "plus-3", **kwargs)


def distrust(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kwargs)


class Options(Schema):
    first = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0),
                           metadata={"description": "the seat holding the first-bid card at the start"})
    fewest_needs_one = fields.Boolean(load_default=True, metadata={"description": "a player with no favours of a type cannot be fewest for it"})


@dataclass(frozen=True)
class Won:
    """What one player has won: favour cards, distrust values, points cards."""

    favours: tuple[str, ...] = ()
    distrust: tuple[int, ...] = ()
    points: tuple[str, ...] = ()


@dataclass(frozen=True)
class Auction:
    number: int
    winner: int | None
    card: str | None
    distrust: int
    points: str


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    first: int
    fewest_needs_one: bool
    started: bool = False
    row: tuple[str, ...] = ()  # ascending by rank
    prize: tuple[int, str] | None = None  # (distrust, points) of the coming auction
    auctions: tuple[Auction, ...] = ()
    running: bool = False  # the current auction has seen a bid or pass
    high: tuple[str, int] | None = None  # (card, seat) of the high bid
    passed: frozenset[int] = frozenset()
    turn: int = 0
    revealed: tuple[int, ...] = (0,) * len(KINDS)  # cards of each kind revealed, in KINDS order
    won: tuple[Won, ...] = ()

    @property
    def holder(self) -> int:
        """Who holds the first-bid card in the coming or running auction."""
        return (self.first + len(self.auctions)) % len(self.names)


class EmployeeOfTheMonth(Game[State]):
    name = "employee-of-the-month"
    title = "Employee of the Month"
    seats_log_table = True  # any phone starts the game and reveals the next prize
    min_players = 2
    scoring = (
        "Per player: plus points, popularity, distrust, and per favour type (colleague, boss) the sum of the "
        "values won. Per type, the fewest (with `fewest_needs_one`: among those holding one) add their "
        "popularity and the most (a total of at least 1) subtract their distrust; ties all score, and one player "
        "may score both. Score = plus + what the majority table gives. Highest wins; ties share. `result`: the "
        "majority table and every auction."
    )
    max_players = 6
    rules = {
        "eotm.start": "a second start, a start without 7 row cards, or any other event before start",
        "eotm.reveal.missing": "a bid or pass while the next prize has not been revealed",
        "eotm.reveal.unexpected": "a reveal while an auction is running, or a second reveal before its auction",
        "eotm.card.range": "a card value outside its deck's range",
        "eotm.deck.supply": "more cards of a kind revealed than the deck holds",
        "eotm.turn": "not this seat's turn, or a seat that already passed in this auction",
        "eotm.bid.row": "the card is not in the row",
        "eotm.bid.higher": "the card does not rank strictly above the current high bid",
    }
    # What a table allows that turns a rule off (its house rule), in the rules' order.
    allows = {
        "eotm.start": "Events may come before the start, and the start more than once",
        "eotm.reveal.missing": "Bidding may begin before the next prize is revealed",
        "eotm.reveal.unexpected": "The next prize may be revealed at any time",
        "eotm.card.range": "Cards of any value may be logged",
        "eotm.deck.supply": "More cards of a kind may be revealed than the deck holds",
        "eotm.turn": "A player may bid out of turn, and after passing",
        "eotm.bid.row": "A bid may name a card that is not in the row",
        "eotm.bid.higher": "A bid need not rank above the high bid",
    }
    events = {
        "start": {
            "row": fields.List(favour(), required=True, validate=validate.Length(max=40)),
            "distrust": distrust(required=True),
            "points": points(required=True),
        },
        "reveal": {"favour": favour(required=True), "distrust": distrust(required=True), "points": points(required=True)},
        "bid": {"seat": Seat(required=True), "card": favour(required=True)},
        "pass": {"seat": Seat(required=True)},
    }
    options = Options
    result_is_private = True  # favour totals and distrust would tell what each player holds

    def handlers(self) -> Mapping[str, Any]:
        return {
            "start": (self._start_checks, self._start),
            "reveal": (self._reveal_checks, self._reveal),
            "bid": (self._bid_checks, self._bid),
            "pass": (self._bid_checks, self._pass),
        }

    def initial(self, seats: Sequence[str], options: Mapping[str, Any]) -> State:
        if options["first"] >= len(seats):
            raise ValidationError({"first": [f"There is no seat {options['first']}."]})
        return State(
            tuple(seats),
            options["first"],
            options["fewest_needs_one"],
            won=(Won(),) * len(seats),
            turn=options["first"],
        )

    # --- checks ---------------------------------------------------------------------

    def _start_checks(self, state: State, event: Event) -> Iterator[Violation]:
        if state.started:
            yield broken("eotm.start", "The game has already started; the table starts once.")
        if len(event["row"]) != ROW_SIZE:
            yield broken("eotm.start", "The row starts with 7 favour cards, not %(count)s.", count=len(event['row']))
        cards = [*event["row"], event["distrust"], event["points"]]
        yield from self._card_checks(state, cards)

    def _reveal_checks(self, state: State, event: Event) -> Iterator[Violation]:
        if not state.started:
            yield broken("eotm.start", "The table must start the game (the row and the first prize) first.")
        if state.running:
            yield broken("eotm.reveal.unexpected", "An auction is running; the next prize comes after it.")
        elif state.prize is not None:
            yield broken("eotm.reveal.unexpected", "The next prize is already revealed.")
        yield from self._card_checks(state, [event["favour"], event["distrust"], event["points"]])

    def _card_checks(self, state: State, cards: list[str | int]) -> Iterator[Violation]:
        adding = {kind_and_value(card)[0] for card in cards}  # a kind over its deck stays so once ruled: judge what is added
        revealed = {kind: count for kind, count in zip(KINDS, self._count(state, cards)) if kind in adding}
        for card in cards:
            kind, value = kind_and_value(card)
            low, high = RANGES[kind]
            if not low <= value <= high:
                yield broken("eotm.card.range", "%(card)s does not exist: %(kind)s cards are %(low)s–%(high)s.", card=Word(card, display(card)), kind=Word(kind, kind), low=low, high=high)
        for kind, count in revealed.items():
            if count > SUPPLY[kind]:
                yield broken("eotm.deck.supply", "The deck has only %(SUPPLY)s %(kind)s cards; this would make %(count)s.", SUPPLY=SUPPLY[kind], kind=Word(kind, kind), count=count)

    def _bid_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, name = event["seat"], state.names[event["seat"]]
        # A bid or pass before the start or with no prize out has no meaning: nothing to judge it in.
        if not state.started:
            yield broken("eotm.start", "The table must start the game (the row and the first prize) first.")
            return
        if state.prize is None:
            yield broken("eotm.reveal.missing", "The next prize has not been revealed yet.")
            return
        card = event.get("card")
        if card is not None:
            kind, value = kind_and_value(card)
            low, high = RANGES[kind]
            if not low <= value <= high:
                yield broken("eotm.card.range", "%(card)s does not exist: %(kind)s cards are %(low)s–%(high)s.", card=Word(card, display(card)), kind=Word(kind, kind), low=low, high=high)
        if seat in state.passed:
            yield broken("eotm.turn", "%(name)s has passed and is out of this auction.", name=name)
        elif seat != state.turn:
            yield broken("eotm.turn", "It is %(turn)s's turn, not %(name)s's.", turn=state.names[state.turn], name=name)
        if card is None:
            return  # a pass names no card
        if card not in state.row:  # a bid naming a card not in the row has no meaning: whether it is higher is not judged
            yield broken("eotm.bid.row", "%(name)s bid %(card)s, which is not in the row.", name=name, card=Word(card, display(card)))
        elif state.high is not None and rank(card) <= rank(state.high[0]):
            yield broken("eotm.bid.higher", "%(name)s bid %(card)s, not above the high bid %(card2)s.", name=name, card=Word(card, display(card)), card2=Word(state.high[0], display(state.high[0])))

    # --- effects --------------------------------------------------------------------

    def _start(self, state: State, event: Event) -> State:
        return evolve(
            state,
            started=True,
            row=tuple(sorted(event["row"], key=rank)),
            prize=(event["distrust"], event["points"]),
            revealed=self._count(state, [*event["row"], event["distrust"], event["points"]]),
        )

    def _reveal(self, state: State, event: Event) -> State:
        return evolve(
            state,
            row=tuple(sorted((*state.row, event["favour"]), key=rank)),
            prize=(event["distrust"], event["points"]),
            revealed=self._count(state, [event["favour"], event["distrust"], event["points"]]),
        )

    @staticmethod
    def _count(state: State, cards: list[str | int]) -> tuple[int, ...]:
        revealed = list(state.revealed)
        for card in cards:
            revealed[KINDS.index(kind_and_value(card)[0])] += 1
        return tuple(revealed)

    def _bid(self, state: State, event: Event) -> State:
        seat, card = event["seat"], event["card"]
        if state.prize is None or card not in state.row:
            raise NoMeaning("a bid before the start, with no prize out, or naming a card not in the row")
        if rank(card) == rank(state.row[-1]):
            return self._close(evolve(state, running=True, high=(card, seat)), winner=seat)
        return self._next_turn(state, seat, (card, seat), state.passed - {seat})  # a bid that stands is back in

    def _pass(self, state: State, event: Event) -> State:
        if state.prize is None:
            raise NoMeaning("a pass before the start or with no prize out")
        seat = event["seat"]
        return self._next_turn(state, seat, state.high, state.passed | {seat})

    def _next_turn(self, state: State, actor: int, high: tuple[str, int] | None, passed: frozenset[int]) -> State:
        """After a bid or pass (one state copy: this runs for most events): the auction
        closes when nobody or only the high bidder is still in, else the next seat bids."""
        n = len(state.names)
        still_in = [s for s in range(n) if s not in passed]
        if not still_in or (high is not None and still_in == [high[1]]):
            winner = high[1] if still_in and high is not None else None
            return self._close(evolve(state, running=True, high=high, passed=passed), winner=winner)
        following = actor
        while True:
            following = (following + 1) % n
            if following not in passed:
                return evolve(state, running=True, high=high, passed=passed, turn=following)

    def _close(self, state: State, winner: int | None) -> State:
        """End the auction: the winner takes card and prize; a wash discards the top card."""
        assert state.prize is not None
        distrust_card, points_card = state.prize
        row = list(state.row)
        won = state.won
        if winner is None:
            card = None
            row.pop()  # the highest row card leaves the game
        else:
            assert state.high is not None
            card = state.high[0]
            row.remove(card)
            mine = won[winner]
            won = replace_at(
                won,
                winner,
                Won((*mine.favours, card), (*mine.distrust, distrust_card), (*mine.points, points_card)),
            )
        auctions = (*state.auctions, Auction(len(state.auctions) + 1, winner, card, distrust_card, points_card))
        holder = (state.first + len(auctions)) % len(state.names)
        return evolve(
            state, row=tuple(row), prize=None, auctions=auctions, running=False, high=None,
            passed=frozenset(), won=won, turn=holder,
        )

    # --- the end, the view and the result -------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        if len(state.auctions) >= AUCTIONS:
            return Outcome(Termination.FINISHED, f"all {AUCTIONS} auctions are over")
        return None

    def view(self, state: State, seat: int | None, outcome: Outcome | None = None) -> dict[str, Any]:
        names = state.names
        over = outcome is not None or self.outcome(state) is not None
        phase = "start" if not state.started else "over" if over else "reveal" if state.prize is None else "auction"
        holdings = {}
        for s, mine in enumerate(state.won):
            counts: dict[str, Any] = {"favours": len(mine.favours), "distrust": len(mine.distrust), "points": len(mine.points)}
            if over or s == seat:
                counts.update(
                    {"favour_cards": list(mine.favours), "distrust_cards": list(mine.distrust), "points_cards": list(mine.points)}
                )
            holdings[names[s]] = counts
        legal = {"start": ["start"], "reveal": ["reveal"], "over": []}.get(phase, ["bid", "pass"])
        return {
            "phase": phase,
            "auction": min(len(state.auctions) + (0 if phase == "reveal" else 1), AUCTIONS),
            "turn": names[state.turn] if phase == "auction" else None,
            "to_act": [names[state.turn]] if phase == "auction" else [],  # the row and the prize: the table's
            "first_bid": names[state.holder],
            "legal": legal if phase != "auction" or seat in (None, state.turn) else [],
            "row": list(state.row),
            "prize": None if state.prize is None else {"distrust": state.prize[0], "points": state.prize[1]},
            "high_bid": None if state.high is None else {"card": state.high[0], "by": names[state.high[1]]},
            # The row cards a bid may name: those above the high bid (a lower one cannot win).
            "biddable": [card for card in state.row if state.high is None or rank(card) > rank(state.high[0])],
            "passed": [names[s] for s in sorted(state.passed)],
            "holdings": holdings,
        }

    def house_view(self, view: dict[str, Any], off: frozenset[str]) -> dict[str, Any]:
        """The controls a rule off gives back; every other rule off hides nothing.

        eotm.bid.higher        every row card is offered to bid (a lower one becomes the high bid)
        eotm.turn              every seat's phone bids and passes in an auction, also after
                               passing (`may_act`)
        eotm.start             nothing given back: the start is offered once (a move before it has no meaning)
        eotm.reveal.missing, eotm.bid.row: nothing: such a bid has no meaning (DESIGN)
        eotm.reveal.unexpected nothing given back: the next prize is revealed between auctions
        eotm.card.range, eotm.deck.supply: nothing: the pickers offer every card of each deck
        """
        view = dict(view)
        if "eotm.bid.higher" in off:
            view["biddable"] = view["row"]
        if "eotm.turn" in off and view["phase"] == "auction":
            view["may_act"], view["legal"] = list(view["holdings"]), ["bid", "pass"]
        return view

    def explain(self, state: State, applied: Sequence[Event]) -> dict[str, list[dict[str, Any]]]:
        return explain_majority(state, applied)

    def result(self, state: State, outcome: Outcome | None = None) -> Result:
        table = majority_table(state.won, state.fewest_needs_one)
        names = state.names
        scores = {names[s]: row["score"] for s, row in enumerate(table)}
        detail = {
            "majority_table": [{"player": names[s], **row} for s, row in enumerate(table)],
            "auctions": [
                {
                    "auction": a.number,
                    "winner": None if a.winner is None else names[a.winner],
                    "card": a.card,
                    "distrust": a.distrust,
                    "points": a.points,
                }
                for a in state.auctions
            ],
        }
        ranking = ranking_by_score(scores)
        winners = ranking[0] if self.outcome(state) is not None else []
        return Result(scores, ranking, detail, winners=winners, ended_early=ended_early(outcome))


def explain_majority(state: State, applied: Sequence[Event]) -> dict[str, list[dict[str, Any]]]:
    """Each plus card, then each majority-table line that gave or took points. The seqs are
    the events that revealed the prizes of the auctions the player won."""
    names = state.names
    prize_seqs = [e["seq"] for e in applied if e["type"] in ("start", "reveal")]  # auction k's prize: the k-th
    won_at: dict[int, list[Auction]] = {s: [] for s in range(len(names))}
    for auction in state.auctions:
        if auction.winner is not None:
            won_at[auction.winner].append(auction)

    def seqs_of(auctions: Sequence[Auction]) -> list[int]:
        return [prize_seqs[a.number - 1] for a in auctions if a.number <= len(prize_seqs)]

    items: dict[str, list[dict[str, Any]]] = {}
    for seat, row in enumerate(majority_table(state.won, state.fewest_needs_one)):
        mine = won_at[seat]
        points = [(a, *kind_and_value(a.points)) for a in mine]
        listed = [because(value, seqs_of([a]), "plus %(value)s won in auction %(auction)s", value=value, auction=a.number)
                  for a, kind, value in points if kind == "plus"]
        popular = [a for a, kind, _ in points if kind == "popularity"]
        for kind in ("colleague", "boss"):
            if row[f"{kind}_popularity"]:
                listed.append(because(row[f"{kind}_popularity"], seqs_of(popular),
                                      "fewest colleague favours (%(total)s): popularity %(popularity)s counts for him" if kind == "colleague"
                                      else "fewest boss favours (%(total)s): popularity %(popularity)s counts for him",
                                      total=row[kind], popularity=row["popularity"]))
            if row[f"{kind}_distrust"]:
                listed.append(because(row[f"{kind}_distrust"], seqs_of(mine),
                                      "most colleague favours (%(total)s): distrust %(distrust)s counts against him" if kind == "colleague"
                                      else "most boss favours (%(total)s): distrust %(distrust)s counts against him",
                                      total=row[kind], distrust=row["distrust"]))
        items[names[seat]] = listed
    return items


def majority_table(won: Sequence[Won], fewest_needs_one: bool) -> list[dict[str, Any]]:
    """Per player: plus, favour totals, popularity, distrust, what each type gave or took."""
    rows: list[dict[str, Any]] = []
    for mine in won:
        values = {kind: 0 for kind in ("plus", "popularity", "colleague", "boss")}
        for card in (*mine.points, *mine.favours):
            kind, value = kind_and_value(card)
            values[kind] += value
        rows.append({**values, "distrust": sum(mine.distrust)})
    for kind in ("colleague", "boss"):
        totals = [row[kind] for row in rows]
        candidates = [t for t in totals if t >= 1] if fewest_needs_one else totals
        fewest = min(candidates, default=None)
        most = max(totals) if max(totals) >= 1 else None
        for row, total in zip(rows, totals):
            gained = row["popularity"] if total == fewest else 0
            lost = row["distrust"] if total == most else 0
            row[f"{kind}_popularity"] = gained
            row[f"{kind}_distrust"] = -lost
    for row in rows:
        row["score"] = (
            row["plus"] + row["colleague_popularity"] + row["boss_popularity"] + row["colleague_distrust"] + row["boss_distrust"]
        )
    return rows


def display(card: str | int) -> str:
    """A card as a player says it: 'boss 7', 'distrust 3'."""
    kind, value = kind_and_value(card)
    return f"{kind} {value}"
