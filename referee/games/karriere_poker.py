"""Karriere Poker (`karriere-poker`): a climbing game played as a match of several games.

Reference: docs/games/ (made from this module). Decisions where the rules are silent:
- A `hand` before the game's deal is flagged `kp.deal.missing`.
- From game 2 a `deal` may omit `dealer`: the Tellerwäscher deals by rule.
- `hand` may be logged at any time of its game: it is the hand as dealt; what the seat
  has given, received and played since is applied to it. A seat logs its hand once per
  game: a second `hand` after one that was accepted, or one that contradicts what the
  seat already played or gave, is flagged `kp.hand.deal`. A flagged try does not count.
- Secrets: a recorded hand is its seat's alone until the reveal. A hand is judged on
  public information and the seat's own events; a play or an exchange on public
  information only. So `kp.hand.cards`, `kp.exchange.cards` and a `kp.hand.deal` that
  only another seat's recorded hand shows never flag: they are clashes, for the host
  (and the seat whose hand shows it) until the reveal.
- An `exchange` without `cards` (only `count`): when the giver's dealt hand is known he
  is taken to have given what the rule demands, for the count named (his own hand goes on); the receiver's
  hand becomes unknown for the rest of this game (sizes stay exact): what he received
  is the giver's secret.
- The match winner when the table ends the match early (`end` event): the Boss of the
  last finished game, whatever the `end` option; no loser. With no finished game nobody
  wins and there is no ranking (no standings: the seat order is no order of play).
- Who won turns on the positions only, which are public: every phone is told the match
  winner the moment the positions decide it; the hands stay hidden until the reveal.
- A move the table lets stand (a `ruling`, or a rule its `house_rules` turn off) applies
  this module's effect as for a legal move (DESIGN, "as if legal"), and a rule off leaves
  the rules after it to judge the move. Out of turn: a raise or pass is the mover's turn
  (a pass while a round must be led is then `kp.lead.pass`), and the round goes on
  clockwise from him; those he passed over keep their turns. A lead out of turn starts the
  orbit from its player. Not higher: the raise is the cards to beat. Wrong amount: a raise
  of another count is the cards to beat, and the lead's count stays the count to raise
  with; an exchange moves the hand sizes by the cards named (else the `count` named), and
  its cards are judged as the lowest (highest) that many. Where a rule off leaves a move
  standing that the rules cannot place: a mixed play shows its lowest number; a play of
  more cards than the seat holds leaves it with none; an exchange between seats that are
  no pair moves the cards but is no pair's exchange (the missing ones stay missing) and,
  without `cards`, leaves both hands unknown; a first `deal` without a dealer is the last
  seat's; from game 2 the dealer named holds the leftover cards; a `deal` while a game is
  played deals that game anew. No meaning: anything before the deal, and a pass before
  the lead, change nothing (listed as not applied).
- A `deal` while a game is still being played is `kp.deal.dealer` (the spec says so). A
  recorded hand clashes over more copies of a number than the deck has only where it
  holds that number itself (hands logged after it that hold none do not clash).
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from .base import (
    Event,
    Game,
    Outcome,
    Result,
    Seat,
    Termination,
    Count,
    NoMeaning,
    Violation,
    broken,
    card_count,
    ended_early,
    evolve,
    replace_at,
)

POSITIONS = (
    "Boss",
    "Geschäftsführer",
    "Manager",
    "Abteilungsleiter",
    "Meister",
    "Geselle",
    "Azubi",
    "Tellerwäscher",
)
JOKER = "J"
JOKER_VALUE = 14  # jokers alone rank above 13
HAND_SIZE = 13
JOKERS_BY_PLAYERS = {4: 2, 5: 2, 6: 3, 7: 3, 8: 4}
# Exchange counts, pair by pair: position i gives/takes with position n-1-i.
EXCHANGE_COUNTS = {4: (2, 1), 5: (2, 1), 6: (3, 2, 1), 7: (3, 2, 1), 8: (4, 3, 2, 1)}

Counts = tuple[int, ...]  # a multiset of cards: index 1..13 numbers, 14 jokers
NO_CARDS: Counts = (0,) * 15


def card_index(card: int | str) -> int:
    return JOKER_VALUE if card == JOKER else int(card)


def to_counts(cards: Sequence[int | str]) -> Counts:
    counts = [0] * 15
    for card in cards:
        counts[JOKER_VALUE if card == JOKER else card] += 1  # type: ignore[index]
    return tuple(counts)


def add(a: Counts, b: Counts, sign: int = 1) -> Counts:
    return tuple(map(operator.add if sign > 0 else operator.sub, a, b))


Play = tuple[tuple[int, int], ...]  # (card index, copies), lowest index first


@lru_cache(maxsize=1024)
def kinds(cards: tuple[int | str, ...]) -> Play:
    """The places of a multiset a play touches: one or two, so the checks and the fold look
    at these only. The first index is the number the play shows (jokers, index 14, take
    the number they go with). Cached: the same few plays come again and again."""
    counts = to_counts(cards)
    return tuple((index, copies) for index, copies in enumerate(counts) if copies)


def moved(counts: Counts, play: Play, sign: int = 1) -> Counts:
    """`counts` with a play's cards added (or taken away, sign -1)."""
    result = list(counts)
    for index, count in play:
        result[index] += sign * count
    return tuple(result)


def deck_has(supply: Counts, index: int) -> Count:
    """How many of one card the deck has, as 'four 7s'."""
    return Count(supply[index], "joker" if index == JOKER_VALUE else str(index))


def sorted_cards(counts: Counts) -> list[int | str]:
    """Lowest first, jokers last (they are the highest cards)."""
    cards: list[int | str] = []
    for index, count in enumerate(counts):
        cards.extend([JOKER if index == JOKER_VALUE else index] * count)
    return cards


def describe(cards: Sequence[int | str]) -> str:
    """Cards as a player says them: 'three 7s', 'two jokers', 'two 9s (one a joker)'."""
    numbers = sorted({c for c in cards if c != JOKER}, key=int)
    jokers = sum(1 for c in cards if c == JOKER)
    if not numbers:
        return card_count(jokers, "joker")
    if len(numbers) > 1:
        return ", ".join(str(c) for c in cards)
    text = card_count(len(cards), str(numbers[0]))
    if jokers:
        text += f" ({card_count(jokers, 'joker')} among them)" if jokers > 1 else " (one a joker)"
    return text


@dataclass(frozen=True)
class Played:
    """The cards of a play in a flag's sentence: 'three 7s' (`describe`); a phone names each card."""

    cards: tuple[int | str, ...]

    def __str__(self) -> str:
        return describe(self.cards)


def play_value(cards: Sequence[int | str]) -> int:
    """The number a play shows: jokers take the number they go with, alone they are 14."""
    numbers = [int(c) for c in cards if c != JOKER]
    return numbers[0] if numbers else JOKER_VALUE


class Card(fields.Field[int | str]):
    """A Karriere Poker card: a number 1–13 or "J" (a joker)."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> int | str:
        if value == JOKER or (type(value) is int and 1 <= value <= 13):
            return value  # type: ignore[no-any-return]
        raise ValidationError(f'{value!r} is not a card of this game (1–13 or "J").')


def cards_field(**kwargs: Any) -> fields.List[int | str]:
    return fields.List(Card(), validate=validate.Length(min=1, max=40), **kwargs)


class EndOption(Schema):
    kind = fields.String(
        required=True, validate=validate.OneOf(["games", "boss-streak", "dishwasher-streak", "open"])
    )
    count = fields.Integer(strict=True, validate=validate.Range(min=1))

    @validates_schema
    def _count_needed(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["kind"] != "open" and "count" not in data:
            raise ValidationError(f"{data['kind']!r} needs a count", "count")


class Options(Schema):
    positions = fields.List(fields.String(validate=validate.Length(min=1, max=40)),
                            metadata={"description": "the position names, best first, one per player (default: Boss … Tellerwäscher, middle ones dropped)"})
    end = fields.Nested(EndOption, load_default=lambda: {"kind": "open"},
                        metadata={"description": 'how the match ends: {"kind": "games" | "boss-streak" | "dishwasher-streak", "count": N} or {"kind": "open"}'})


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    positions: tuple[str, ...]  # position names, best first
    end: Mapping[str, Any]
    jokers: int
    supply: Counts  # copies of each card in the deck: 0, one per player of 1-13, the jokers
    finished: tuple[tuple[int, ...], ...] = ()  # each finished game: seats best first
    dealers: tuple[int, ...] = ()  # the dealer of each game
    playing: bool = False  # a game has been dealt and is not over
    order: tuple[int, ...] = ()  # turn order ("clockwise") of the current game
    rank: tuple[int, ...] = ()  # position index held during this game (from game 2)
    sizes: tuple[int, ...] = ()
    dealt: tuple[Counts | None, ...] = ()  # known hands as dealt
    changes: tuple[Counts | None, ...] = ()  # received - given - played; None: unknown
    played: Counts = NO_CARDS  # cards played this game, for the deck supply
    pairs: tuple[tuple[int, int, int], ...] = ()  # (better, worse, count) exchanging this game
    exchanged: frozenset[tuple[int, int]] = frozenset()  # (giver, receiver) done
    out: tuple[int, ...] = ()  # seats out this game, in the order they went out
    leader: int | None = None  # who must lead now; None while an orbit runs
    pending: tuple[int, ...] = ()  # seats still to act in this round, in order
    lead_count: int = 0
    top_value: int = 0
    top_cards: tuple[int | str, ...] = ()
    top_seat: int | None = None
    round_won_by: int | None = None  # who won the round that just ended (until the next play)

    def hand(self, seat: int) -> Counts | None:
        """The seat's current hand, where its dealt hand and every change since are known
        (kept as dealt + changes, so a play updates one tuple, not two)."""
        dealt, change = self.dealt[seat], self.changes[seat]
        return None if dealt is None or change is None else add(dealt, change)

    @property
    def game_number(self) -> int:
        return len(self.dealers)

    @property
    def seat_count(self) -> int:
        return len(self.names)

    @property
    def turn(self) -> int | None:
        if not self.playing or self.exchanges_missing():
            return None
        return self.leader if self.leader is not None else self.pending[0]

    def exchanges_missing(self) -> list[tuple[int, int, int]]:
        """(giver, receiver, count) still to be logged in this game."""
        if len(self.exchanged) == 2 * len(self.pairs):
            return []
        missing = []
        for better, worse, count in self.pairs:
            for giver, receiver in ((better, worse), (worse, better)):
                if (giver, receiver) not in self.exchanged:
                    missing.append((giver, receiver, count))
        return missing


def exchange_pairs(by_rank: tuple[int, ...]) -> tuple[tuple[int, int, int], ...]:
    """Who exchanges with whom, and how many cards, for seats listed best first."""
    n = len(by_rank)
    return tuple((by_rank[i], by_rank[n - 1 - i], count) for i, count in enumerate(EXCHANGE_COUNTS[n]))


class KarrierePoker(Game[State]):
    name = "karriere-poker"
    title = "Karriere Poker"
    seats_log_table = True  # any phone logs the deal
    min_players = 4
    scoring = (
        "No points. Each game ranks the players by the order they went out: the first out is Boss, the next the "
        "next position, the last one holding cards is Tellerwäscher. From game 2 the players sit by rank and "
        "exchange cards (Boss and Tellerwäscher most). The match ends by the `end` option; its winner is the Boss "
        "(of the last game, or of the streak). `ranking`: the positions of the last finished game; `result`: every "
        "game's positions, Boss and Tellerwäscher counts, and the exchange for the next game."
    )
    max_players = 8
    rules = {
        "kp.deal.dealer": "game 1: missing dealer; from game 2: the dealer is not the Tellerwäscher",
        "kp.deal.missing": "a play/pass/exchange before the game's deal",
        "kp.exchange.pair": "an exchange between seats that are not a pair, or a pair exchanging twice",
        "kp.exchange.count": "the wrong number of cards for that pair",
        "kp.exchange.missing": "a play or pass while exchanges of this game are still missing",
        "kp.exchange.cards": "(hand known) the giver did not give his lowest / highest cards",
        "kp.turn": "not this seat's turn (includes a player who is out)",
        "kp.lead.pass": "the starting player passed",
        "kp.play.mixed": "cards of more than one number",
        "kp.raise.count": "a raise with a different number of cards than the lead",
        "kp.raise.higher": "a raise not higher than the last cards played",
        "kp.hand.size": "more cards played than the seat holds",
        "kp.deck.supply": "more copies of a number, or more jokers, played in one game than exist",
        "kp.hand.cards": "(hand known) a card the seat does not hold",
        "kp.hand.deal": "a hand whose size or contents cannot have been dealt",
    }
    # What a table allows that turns a rule off (its house rule), in the rules' order.
    allows = {
        "kp.deal.dealer": "Anyone may deal",
        "kp.deal.missing": "Play may begin before the deal is logged",
        "kp.exchange.pair": "Any two players may exchange, a pair more than once",
        "kp.exchange.count": "An exchange may be of any number of cards",
        "kp.exchange.missing": "Play may begin before every exchange is made",
        "kp.exchange.cards": "A giver may give any of his cards",
        "kp.turn": "A player may play out of turn",
        "kp.lead.pass": "The starting player may pass",
        "kp.play.mixed": "Cards of different numbers may be played together",
        "kp.raise.count": "A raise may have another number of cards than the lead",
        "kp.raise.higher": "A raise need not be higher",
        "kp.hand.size": "A player may play more cards than he holds",
        "kp.deck.supply": "More copies of a card may be played than the deck holds",
        "kp.hand.cards": "A player may play cards his logged hand does not hold",
        "kp.hand.deal": "A logged hand need not fit the deal",
    }
    events = {
        "deal": {"dealer": Seat()},
        "hand": {"seat": Seat(required=True), "cards": cards_field(required=True)},
        "exchange": {
            "seat": Seat(required=True),
            "to": Seat(required=True),
            "cards": cards_field(),
            "count": fields.Integer(strict=True, validate=validate.Range(min=1, max=40)),
        },
        "play": {"seat": Seat(required=True), "cards": cards_field(required=True)},
        "pass": {"seat": Seat(required=True)},
    }
    options = Options
    private_events = frozenset({"hand"})
    outcome_is_public = True  # the positions decide the match

    def handlers(self) -> Mapping[str, Any]:
        return {
            "deal": (self._deal_checks, self._deal),
            "hand": (self._hand_checks, self._hand),
            "exchange": (self._exchange_checks, self._exchange),
            "play": (self._play_checks, self._play),
            "pass": (self._play_checks, self._pass),
        }

    def load_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        loaded = super().load_options(options)
        if "positions" in loaded:
            names = loaded["positions"]
            if not names or len(set(names)) != len(names) or names[0] != "Boss" or names[-1] != "Tellerwäscher":
                raise ValidationError(
                    {"positions": ['Positions must differ, the first "Boss", the last "Tellerwäscher".']}
                )
        return loaded

    def knowing(self, state: State, seats: frozenset[int]) -> State:
        """Recorded hands of other seats taken out (a hand's changes count only with it)."""
        dealt = state.dealt
        if dealt.count(None) == len(dealt) or all(hand is None or seat in seats for seat, hand in enumerate(dealt)):
            return state
        return evolve(state, dealt=tuple(hand if seat in seats else None for seat, hand in enumerate(dealt)))

    def initial(self, seats: Sequence[str], options: Mapping[str, Any]) -> State:
        n = len(seats)
        positions = options.get("positions", [*POSITIONS[: n - 1], POSITIONS[-1]])
        if len(positions) != n:
            raise ValidationError({"positions": [f"Give {n} positions, one per player."]})
        jokers = JOKERS_BY_PLAYERS[n]
        return State(tuple(seats), tuple(positions), options["end"], jokers, (0, *(n,) * 13, jokers))

    # --- checks: each yields the rules an event breaks ---------------------------------

    def beside(self, move: Event, event: Event) -> bool:
        """Between games the givers exchange at once: an exchange stands beside another
        giver's exchange (each pair is its own), as beside a note or another's hand."""
        if move["type"] == "exchange" and event["type"] == "exchange" and event["seat"] != move["seat"]:
            return True
        return super().beside(move, event)

    def _deal_checks(self, state: State, event: Event) -> Iterator[Violation]:
        dealer = event.get("dealer")
        if not state.finished and dealer is None:
            yield broken("kp.deal.dealer", "The first deal must name the dealer.")
        if state.finished and dealer is not None and dealer != state.finished[-1][-1]:
            dishwasher = state.names[state.finished[-1][-1]]
            yield broken("kp.deal.dealer", "%(dealer)s cannot deal: the Tellerwäscher, %(dishwasher)s, deals from game 2 on.", dealer=state.names[dealer], dishwasher=dishwasher)
        if state.playing:
            holding = [state.names[s] for s in state.order if state.sizes[s] > 0]
            yield broken("kp.deal.dealer", "Game %(game_number)s is still being played (%(list)s hold cards); the next deal comes after it ends.", game_number=state.game_number, list=', '.join(holding))

    def _hand_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, cards = event["seat"], to_counts(event["cards"])
        name = state.names[seat]
        if not state.playing:
            yield broken("kp.deal.missing", "%(name)s's hand is logged before the deal.", name=name)
            return  # no game to judge the hand against (a move before the deal has no meaning)
        expected = self._dealt_size(state, seat)
        # The first reason it cannot have been dealt (a phone words each one whole).
        others = [h for s, h in enumerate(state.dealt) if s != seat and h is not None]
        short = self._over_supply(state, add(cards, tuple(map(sum, zip(NO_CARDS, *others)))), cards)
        change = state.changes[seat]
        if state.dealt[seat] is not None:
            yield broken("kp.hand.deal", "%(name)s's hand is already logged in this game.", name=name)
        elif sum(cards) != expected:
            yield broken("kp.hand.deal", "This hand cannot have been dealt: %(name)s was dealt %(expected)s cards, not %(count)s.",
                         name=name, expected=expected, count=sum(cards))
        elif short:
            yield broken("kp.hand.deal", "This hand cannot have been dealt: the deck has only %(count)s.", count=short)
        elif change is not None and min(add(cards, change)) < 0:
            yield broken("kp.hand.deal", "This hand cannot have been dealt: %(name)s has already played or given cards this hand does not hold.", name=name)

    def _exchange_checks(self, state: State, event: Event) -> Iterator[Violation]:
        giver, receiver = event["seat"], event["to"]
        names = state.names
        if not state.playing:
            yield broken("kp.deal.missing", "%(giver)s exchanges before the deal.", giver=names[giver])
            return  # no game to judge it in (a move before the deal has no meaning)
        pair = self._pair(state, giver, receiver)
        if pair is None:
            yield self._not_a_pair(state, giver, receiver)
            return  # the pair says how many cards and which: without one neither can be judged
        if (giver, receiver) in state.exchanged:
            yield broken("kp.exchange.pair", "%(giver)s has already given %(receiver)s cards in this game.", giver=names[giver], receiver=names[receiver])
        better, worse, count = pair
        given = self._given(event)
        if given != count:
            yield broken("kp.exchange.count", "%(giver)s gave %(receiver)s %(count)s; this pair exchanges %(count2)s.", giver=names[giver], receiver=names[receiver], count=Count(given, "card"), count2=Count(count, "card"))
        dealt = state.dealt[giver]
        if dealt is not None and "cards" in event:  # judged for the count given: the lowest (highest) that many
            due = self._due_cards(dealt, given, lowest=giver == better)
            if to_counts(event["cards"]) != to_counts(due):
                template = ("%(giver)s must give %(receiver)s the %(count)s lowest cards dealt (%(due)s), not %(given)s." if giver == better
                            else "%(giver)s must give %(receiver)s the %(count)s highest cards dealt (%(due)s), not %(given)s.")
                yield broken("kp.exchange.cards", template, giver=names[giver], receiver=names[receiver], count=given, due=tuple(due), given=tuple(event["cards"]))

    def _play_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat = event["seat"]
        name = state.names[seat]
        if not state.playing:
            yield broken("kp.deal.missing", "%(name)s acts before game %(game_number)s is dealt.", name=name, game_number=state.game_number + 1)
            return  # no game to judge it in (a move before the deal has no meaning)
        missing = state.exchanges_missing()
        if missing:
            giver, receiver, count = missing[0]
            yield broken("kp.exchange.missing", "Play waits for the exchange: %(giver)s has yet to give %(receiver)s %(count)s.", giver=state.names[giver], receiver=state.names[receiver], count=Count(count, "card"))
        # From here the move is judged as the mover's turn (a move out of turn that stands is).
        leader = state.leader
        turn = leader if leader is not None else state.pending[0]  # state.turn, were the exchanges done
        if seat != turn:
            yield self._not_your_turn(state, seat, turn)
        if event["type"] == "pass":
            if leader is not None:
                yield broken("kp.lead.pass", "%(name)s starts this round and must play, not pass.", name=name)
            return  # a pass names no cards
        cards = event["cards"]
        played = kinds(tuple(cards))
        if len(played) - (played[-1][0] == JOKER_VALUE) > 1:
            yield broken("kp.play.mixed", "%(name)s played %(cards)s: all cards must show one number.", name=name, cards=Played(tuple(cards)))
        if leader is None:  # a raise; a mixed play shows its lowest number (as the effect takes it)
            if len(cards) != state.lead_count:
                yield broken("kp.raise.count", "%(name)s played %(cards)s, but the lead was %(count)s.", name=name, cards=Played(tuple(cards)), count=Count(state.lead_count, "card"))
            if played[0][0] <= state.top_value:
                yield broken("kp.raise.higher", "%(name)s played %(cards)s, not higher than %(cards2)s.", name=name, cards=Played(tuple(cards)), cards2=Played(tuple(state.top_cards)))
        if len(cards) > state.sizes[seat]:
            yield broken("kp.hand.size", "%(name)s played %(count)s but holds only %(sizes)s.", name=name, count=Count(len(cards), "card"), sizes=state.sizes[seat])
        before, supply = state.played, state.supply
        for index, copies in played:
            if before[index] + copies > supply[index]:
                yield broken("kp.deck.supply", "%(name)s played %(cards)s, but the deck has only %(deck_has)s.", name=name, cards=Played(tuple(cards)), deck_has=deck_has(supply, index))
                break
        dealt, change = state.dealt[seat], state.changes[seat]
        if dealt is not None and change is not None:  # the hand is known
            for index, copies in played:
                if dealt[index] + change[index] < copies:
                    held = "%(name)s played %(cards)s, but does not hold it." if len(cards) == 1 else "%(name)s played %(cards)s, but does not hold them."
                    yield broken("kp.hand.cards", held, name=name, cards=Played(tuple(cards)))
                    break

    # --- effects: each folds a legal event into a new state ------------------------------

    def _deal(self, state: State, event: Event) -> State:
        n = state.seat_count
        if state.finished:
            order = state.finished[-1]
            rank = tuple(order.index(s) for s in range(n))
            dealer = event.get("dealer", order[-1])
            leader = order[0]
        else:
            order, rank, dealer = tuple(range(n)), (), event.get("dealer", n - 1)
            leader = (dealer + 1) % n
        sizes = [HAND_SIZE] * n
        if state.finished:
            sizes[dealer] += state.jokers
        return evolve(
            state,
            dealers=(*(state.dealers[:-1] if state.playing else state.dealers), dealer),  # a deal in a game deals it anew
            playing=True,
            order=order,
            rank=rank,
            sizes=tuple(sizes),
            dealt=(None,) * n,
            changes=(NO_CARDS,) * n,
            played=NO_CARDS,
            pairs=exchange_pairs(order) if state.finished else (),
            exchanged=frozenset(),
            out=(),
            leader=leader,
            pending=(),
            lead_count=0,
            top_value=0,
            top_cards=(),
            top_seat=None,
            round_won_by=None,
        )

    def _hand(self, state: State, event: Event) -> State:
        if not state.playing:
            raise NoMeaning("a hand before the deal")
        return evolve(state, dealt=replace_at(state.dealt, event["seat"], to_counts(event["cards"])))

    def _exchange(self, state: State, event: Event) -> State:
        if not state.playing:
            raise NoMeaning("an exchange before the deal")
        giver, receiver = event["seat"], event["to"]
        pair, count, dealt = self._pair(state, giver, receiver), self._given(event), state.dealt[giver]
        if "cards" in event:
            cards: Counts | None = to_counts(event["cards"])
        elif pair is not None and dealt is not None:
            cards = to_counts(self._due_cards(dealt, count, lowest=giver == pair[0]))
        else:  # not known: the giver's hand is not, or no pair says which cards he owes
            cards = None
        changes = list(state.changes)
        for seat, sign in ((giver, -1), (receiver, 1)):
            change = changes[seat]
            changes[seat] = None if cards is None or change is None else add(change, cards, sign)
        if "cards" not in event:  # what the giver's hand says he gave is his secret
            changes[receiver] = None
        sizes = list(state.sizes)
        sizes[giver] -= count
        sizes[receiver] += count
        return evolve(
            state,
            sizes=tuple(sizes),
            changes=tuple(changes),
            exchanged=state.exchanged | {(giver, receiver)} if pair is not None else state.exchanged,  # the pairs' exchanges only
        )

    def _play(self, state: State, event: Event) -> State:
        if not state.playing:
            raise NoMeaning("a play before the deal")
        seat, cards = event["seat"], event["cards"]
        played, change = kinds(tuple(cards)), state.changes[seat]
        sizes = replace_at(state.sizes, seat, max(0, state.sizes[seat] - len(cards)))
        if state.leader is not None:  # a lead: everyone else still holding cards acts once
            start = state.order.index(seat)
            clockwise = state.order[start + 1 :] + state.order[:start]
            pending, lead_count = tuple([s for s in clockwise if sizes[s] > 0]), len(cards)
        else:
            pending, lead_count = self._still_to_act(state, seat), state.lead_count
        state = evolve(
            state,
            {  # a dict, not keywords: plays are half of a game
                "sizes": sizes,
                "changes": state.changes if change is None else replace_at(state.changes, seat, moved(change, played, -1)),
                "played": moved(state.played, played),
                "out": (*state.out, seat) if sizes[seat] == 0 < state.sizes[seat] else state.out,
                "leader": None,
                "lead_count": lead_count,
                "pending": pending,
                "top_value": played[0][0],
                "top_cards": tuple(cards),
                "top_seat": seat,
                "round_won_by": None,
            },
        )
        return self._after_turn(state)

    def _pass(self, state: State, event: Event) -> State:
        if not state.playing or state.leader is not None:
            raise NoMeaning("a pass before the deal or before the lead")
        return self._after_turn(evolve(state, pending=self._still_to_act(state, event["seat"])))

    @staticmethod
    def _still_to_act(state: State, seat: int) -> tuple[int, ...]:
        """Who still acts in this round once `seat` has raised or passed: play goes on
        clockwise from the mover, also after a move out of turn that stands (the players it
        passed over keep their turns and act when the order comes round to them)."""
        pending = state.pending
        if pending[:1] == (seat,):  # the one whose turn it was: nearly every move
            return pending[1:]
        order = state.order
        start, n = order.index(seat), len(order)
        return tuple(sorted((s for s in pending if s != seat), key=lambda s: (order.index(s) - start) % n))

    def _after_turn(self, state: State) -> State:
        """End the game when one player holds cards; start a new round after the orbit."""
        if len(state.sizes) - state.sizes.count(0) == 1:  # one player still holds cards
            last = next(s for s in state.order if state.sizes[s] > 0)
            return evolve(
                state,
                finished=(*state.finished, (*state.out, last)),
                playing=False,
                pending=(),
                leader=None,
            )
        if state.pending:
            return state
        winner = state.top_seat
        assert winner is not None
        leader = winner if state.sizes[winner] > 0 else self._successor(state, winner)
        return evolve(state, leader=leader, lead_count=0, top_value=0, top_cards=(), top_seat=None, round_won_by=winner)

    def _successor(self, state: State, winner: int) -> int:
        """Who leads when the round's winner has gone out."""
        if not state.rank:  # game 1: the next player counter-clockwise who holds cards
            start = state.order.index(winner)
            counter_clockwise = [state.order[(start - k) % len(state.order)] for k in range(1, len(state.order))]
            return next(s for s in counter_clockwise if state.sizes[s] > 0)
        by_rank = state.order  # from game 2 the seating is the rank order
        position = state.rank[winner]
        for neighbour in (position - 1, position + 1):
            if 0 <= neighbour < len(by_rank) and state.sizes[by_rank[neighbour]] > 0:
                return by_rank[neighbour]
        return next(s for s in by_rank if state.sizes[s] > 0)

    # --- helpers ------------------------------------------------------------------------

    @staticmethod
    def _pair(state: State, giver: int, receiver: int) -> tuple[int, int, int] | None:
        """The pair (better, worse, count) these two seats form in this game, if they form one."""
        return next((p for p in state.pairs if {p[0], p[1]} == {giver, receiver} and giver != receiver), None)

    @staticmethod
    def _given(event: Event) -> int:
        """How many cards an exchange gives: the cards named, else the count."""
        return len(event["cards"]) if "cards" in event else event.get("count", 0)

    def _dealt_size(self, state: State, seat: int) -> int:
        return HAND_SIZE + (state.jokers if state.finished and seat == state.dealers[-1] else 0)

    def _over_supply(self, state: State, counts: Counts, held: Counts) -> Count | None:
        """What the deck has of a card these counts exceed it in ('four 7s'), or None: only for the numbers
        `held` has (a hand clashes over the numbers it holds, not over copies that other
        hands hold too many of)."""
        supply = state.supply
        if not any(map(operator.gt, counts, supply)):
            return None
        over = [i for i, (count, most) in enumerate(zip(counts, supply)) if count > most and held[i]]
        return deck_has(supply, over[0]) if over else None

    @staticmethod
    def _due_cards(dealt: Counts, count: int, lowest: bool) -> list[int | str]:
        """The `count` lowest (or highest) cards of a dealt hand, lowest first."""
        due: list[int | str] = []
        for index in range(1, 15) if lowest else range(14, 0, -1):
            due.extend([JOKER if index == JOKER_VALUE else index] * min(dealt[index], count - len(due)))
            if len(due) == count:
                break
        return due if lowest else due[::-1]

    def _not_a_pair(self, state: State, giver: int, receiver: int) -> Violation:
        names = state.names
        if not state.finished:
            return broken("kp.exchange.pair", "There is no exchange in the first game.")
        partner = next((p[1] if p[0] == giver else p[0] for p in state.pairs if giver in p[:2]), None)
        if partner is None:
            return broken("kp.exchange.pair", "%(giver)s (%(position)s) does not exchange in this game.", giver=names[giver], position=self._position(state, giver))
        return broken("kp.exchange.pair", "%(giver)s exchanges with %(partner)s, not with %(receiver)s.", giver=names[giver], partner=names[partner], receiver=names[receiver])

    def _not_your_turn(self, state: State, seat: int, turn: int) -> Violation:
        name = state.names[seat]
        if state.sizes[seat] == 0:
            return broken("kp.turn", "%(name)s has gone out and takes no more turns this game.", name=name)
        if seat in state.pending:
            return broken("kp.turn", "It is %(turn)s's turn, not %(name)s's.", turn=state.names[turn], name=name)
        if state.leader is None:
            return broken("kp.turn", "%(name)s has already acted in this round; it is %(turn)s's turn.", name=name, turn=state.names[turn])
        return broken("kp.turn", "%(turn)s starts this round, not %(name)s.", turn=state.names[turn], name=name)

    def _position(self, state: State, seat: int) -> str:
        return state.positions[state.rank[seat]] if state.rank else ""

    # --- the end, the view and the result -----------------------------------------------

    def outcome(self, state: State) -> Outcome | None:
        games = state.finished
        if state.playing or not games:  # the end is only decided between games
            return None
        kind, count = state.end["kind"], state.end.get("count", 0)
        if kind == "open":
            return None
        boss = state.names[games[-1][0]]
        if kind == "games" and len(games) >= count:
            return Outcome(Termination.FINISHED, f"{len(games)} games played; {boss} is Boss and wins")
        if kind == "boss-streak" and self._streak(games, 0) >= count:
            return Outcome(Termination.FINISHED, f"{boss} is Boss for the {ordinal(count)} game in a row and wins")
        if kind == "dishwasher-streak" and self._streak(games, -1) >= count:
            loser = state.names[games[-1][-1]]
            return Outcome(
                Termination.FINISHED,
                f"{loser} is Tellerwäscher for the {ordinal(count)} time in a row and loses; {boss} wins",
            )
        return None

    @staticmethod
    def _streak(games: tuple[tuple[int, ...], ...], place: int) -> int:
        """How many of the last games in a row the same seat finished at `place`."""
        seat, streak = games[-1][place], 0
        for game in reversed(games):
            if game[place] != seat:
                break
            streak += 1
        return streak

    def view(self, state: State, seat: int | None, outcome: Outcome | None = None) -> dict[str, Any]:
        names = state.names
        turn = state.turn
        phase = "deal"
        if self.outcome(state) or outcome:
            phase, turn = "over", None
        elif state.playing:
            phase = "exchange" if state.exchanges_missing() else "lead" if state.leader is not None else "raise"
        legal: list[str] = []
        if phase == "over":
            legal = []
        elif phase == "deal":
            legal = ["deal"]
        elif phase == "exchange":
            legal = ["exchange", "hand"]
        elif seat is None or seat == turn:
            legal = ["play"] if phase == "lead" else ["play", "pass"]
        # Between games the table shows the game just played: every player's position (the
        # Tellerwäscher too), no cards left on the table.
        just_played = state.finished[-1] if state.finished and not state.playing else None
        view: dict[str, Any] = {
            "game": state.game_number,
            "phase": phase,
            "turn": None if turn is None else names[turn],
            # Who the table waits for: the givers of missing exchanges, else whose turn it is.
            "to_act": list(dict.fromkeys(names[g] for g, _, _ in state.exchanges_missing())) if phase == "exchange"
            else [] if turn is None or phase in ("deal", "over") else [names[turn]],
            "legal": legal,
            "order": [names[s] for s in state.order] or list(names),
            "sizes": {names[s]: state.sizes[s] for s in range(len(names))} if state.playing else {},
            "out": [{"player": names[s], "position": state.positions[i]} for i, s in enumerate(just_played or state.out)],
            "table": {
                "cards": [] if just_played else list(state.top_cards),
                "by": None if just_played or state.top_seat is None else names[state.top_seat],
                "lead_count": state.lead_count,
                "still_to_act": [names[s] for s in state.pending],
            },
            "exchanges_missing": [
                {"giver": names[g], "receiver": names[r], "count": c} for g, r, c in state.exchanges_missing()
            ]
            if state.playing
            else [],
            "positions": {names[s]: self._position(state, s) for s in range(len(names))} if state.rank else {},
            "round_won_by": None if state.round_won_by is None or not state.playing else names[state.round_won_by],
            # Who the deal form offers as dealer: anyone in game 1; from game 2 the Tellerwäscher deals by rule.
            "dealers": list(names) if phase == "deal" and not state.finished else [],
            # Who leads once the exchanges are made (a table that does not wait for them lets him lead now).
            "leader": names[state.leader] if phase == "exchange" and state.leader is not None else None,
        }
        hand = state.hand(seat) if seat is not None and state.playing else None
        if hand is not None:
            view["hand"] = sorted_cards(hand)
        return view

    def house_view(self, view: dict[str, Any], off: frozenset[str]) -> dict[str, Any]:
        """The controls a rule off gives back; every other rule off hides nothing.

        kp.deal.dealer      from game 2 the deal names any dealer (a deal within a game, which
                            deals it anew, keeps no button: no table redeals by a tap)
        kp.exchange.count   each exchange picks its count
        kp.exchange.missing the leader leads while exchanges are missing
        kp.turn             every seat holding cards plays and passes (`may_act`)
        kp.lead.pass        Pass at a lead (it hands nothing on: DESIGN, no meaning)
        kp.deal.missing     nothing: a move before the deal has no meaning
        kp.exchange.pair    nothing given back: a phone gives only along the pairs (another
                            exchange goes through the API)
        kp.exchange.cards   nothing: the phone gives by count, never names the cards
        kp.play.mixed       nothing given back: a play taps one number (and jokers)
        kp.raise.count, kp.raise.higher, kp.hand.size, kp.deck.supply, kp.hand.cards:
                            nothing: any number, any count up to 8
        kp.hand.deal        nothing: the hand form is always offered
        """
        view, phase = dict(view), view["phase"]
        if "kp.deal.dealer" in off and phase == "deal":
            view["dealers"] = view["order"]
        if "kp.exchange.count" in off:
            view["exchange_counts"] = list(range(1, HAND_SIZE + 1))
        if "kp.exchange.missing" in off and view["leader"] is not None:
            view["turn"] = view["leader"]
        if "kp.turn" in off and view["turn"] is not None:
            view["may_act"] = [name for name in view["order"] if view["sizes"].get(name)]
            if phase in ("lead", "raise"):
                view["legal"] = ["play"] if phase == "lead" else ["play", "pass"]
        if "kp.lead.pass" in off and phase == "lead" and "play" in view["legal"]:
            view["legal"] = [*view["legal"], "pass"]
        return view

    def result(self, state: State, outcome: Outcome | None = None) -> Result:
        names, positions = state.names, state.positions
        games = state.finished
        last = games[-1] if games else None
        ranking = [[names[s]] for s in last] if last else []
        match_over = self.outcome(state) or outcome
        winner = loser = None
        if match_over is not None and last is not None:  # ended early too: the Boss of the last finished game
            winner = names[last[0]]
            if state.end["kind"] == "dishwasher-streak" and self.outcome(state) is not None:
                loser = names[last[-1]]
        detail = {
            "positions": list(positions),
            "games": [
                {
                    "game": number,
                    "dealer": names[state.dealers[number - 1]],
                    "finish": [{"position": positions[i], "player": names[s]} for i, s in enumerate(game)],
                }
                for number, game in enumerate(games, start=1)
            ],
            "winner": winner,
            "loser": loser,
            "boss_games": {name: sum(1 for g in games if names[g[0]] == name) for name in names},
            "dishwasher_games": {name: sum(1 for g in games if names[g[-1]] == name) for name in names},
            "next_exchange": []
            if last is None or match_over is not None
            else [
                {
                    "better": names[better],
                    "better_position": positions[last.index(better)],
                    "worse": names[worse],
                    "worse_position": positions[last.index(worse)],
                    "count": count,
                }
                for better, worse, count in exchange_pairs(last)
            ],
        }
        return Result(scores={}, ranking=ranking, detail=detail, winners=[winner] if winner else [], ended_early=ended_early(outcome))


def ordinal(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")
