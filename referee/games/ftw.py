"""FTW?! (`ftw`): a shedding game with a shared climbing pile and helper cards.

Reference: docs/games/ (made from this module). Decisions where the rules are silent:
- Where each card is, this round, is tracked as a public place: on the pile, in a seat's
  helper row, out of the game, in a seat's hand (taken with `low`), or revealed by a
  seat. `ftw.card.seen` fires for a card whose known place is not the acting seat's
  hand; a card the seat itself played this round may reappear in its logged `hand` (the
  hand as it was after the pass). Recorded hands are kept apart (`hands`): they are
  their seats' secrets until the reveal, and a move is judged on public places only, a
  hand on public places and the seat's own records. A card that only another seat's
  recorded hand holds, and `ftw.hand.cards`, are clashes, never flags: the host sees
  them at once (and the seat whose hand shows them), everyone at the reveal.
- A logged `hand` is checked like a revealed one: its size must be the round's start
  size (`ftw.reveal.count`), its cards exist (`ftw.card.range`) and are not known to be
  elsewhere (`ftw.card.seen`). A card named twice in one list is `ftw.card.seen`.
- A helper out of the card range is not one of the seat's helpers: `ftw.boost.helper`.
- The pile keeps every card (house rule: laid overlapping), so `low` may take any of them.
- A seat logs its hand at most once per round: a second `hand` after an accepted one is
  `ftw.reveal.twice` (the spec has no own id for it; a hand is the private twin of a
  reveal). A flagged try does not count.
- A move the table lets stand (a `ruling`, or a rule its `house_rules` turn off) applies
  this module's effect as for a legal move (DESIGN, "as if legal"), and a rule off leaves
  the rules after it to judge the move. Out of turn (also in the reveal phase): the move
  is the mover's turn, and play goes on from his left neighbour. Not higher: the card is
  the top card. Wrong amount: a reveal scores the cards named; a boost adds the helpers
  named, and they leave the game, also ones not in the seat's row. A boost on an empty
  pile beats it with any sum; a low there has no meaning (nothing to take: it is
  `ftw.low.take` when `ftw.low.empty` is off) and, let stand, changes nothing (listed as
  not applied).
- The seed's one house rule, the overlapping pile (every value in it visible), is how the
  app always referees FTW?!: it is no rule id, so `house_rules` cannot turn it off.
- A game the table ends before every player has started a round names no winner: the
  totals of the rounds played are shown as the standings it reached, and rank by them.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from .base import (Event, Game, NoMeaning, Outcome, Result, Seat, Termination, Violation, because, broken, ended_early, evolve, ranking_by_score,
                   replace_at)

Place = tuple[str, int]  # ("pile" | "helper" | "out" | "hand" | "revealed", seat or -1)
PILE: Place = ("pile", -1)
OUT: Place = ("out", -1)


def card_range(players: int) -> int:
    return 36 if players <= 3 else 48 if players == 4 else 60


def start_size(players: int) -> int:
    return 10 if players == 6 else 12


def round_score(cards: Sequence[int]) -> int:
    """The highest card minus the sum of all others; below zero counts as 0."""
    return max(0, max(cards) - (sum(cards) - max(cards))) if cards else 0


def card(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kwargs)


def card_list(**kwargs: Any) -> fields.List[int]:
    return fields.List(card(), validate=validate.Length(max=60), **kwargs)


class Options(Schema):
    first = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0), metadata={"description": "the seat that starts round 1"})


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    first: int
    top_card: int  # the highest card for this player count: cards are 1..top_card
    round: int = 0  # 0-based index of the round being played or revealed
    revealing: bool = False  # the round has ended: hands are being revealed
    turn: int = 0
    sizes: tuple[int, ...] = ()
    pile: tuple[int, ...] = ()
    helpers: tuple[tuple[int, ...], ...] = ()  # each seat's unused helper cards
    places: Mapping[int, Place] = field(default_factory=dict)  # publicly known places this round
    hands: tuple[frozenset[int] | None, ...] = ()  # whole hands, where logged: private
    played: tuple[frozenset[int], ...] = ()  # cards each seat laid down this round
    revealed: tuple[tuple[int, ...] | None, ...] = ()
    sheet: tuple[tuple[int, ...], ...] = ()  # per finished round, the score of each seat

    @property
    def seat_count(self) -> int:
        return len(self.names)

    @property
    def over(self) -> bool:
        return len(self.sheet) == self.seat_count

    def known(self, seat: int) -> frozenset[int]:
        """The cards known to be in a seat's hand: read from `places`, so a move updates
        one mapping, not two."""
        places = self.places  # compared in C: a reveal asks this of a whole round's places
        return frozenset(compress(places, map(operator.eq, places.values(), repeat(("hand", seat)))))

    def starter(self, round_index: int) -> int:
        return (self.first + round_index) % self.seat_count


class Ftw(Game[State]):
    name = "ftw"
    title = "FTW?!"
    min_players = 2
    scoring = (
        "As many rounds as players. When a round ends every seat reveals its hand and scores its highest card "
        "minus the sum of its other cards, at least 0. The most points after the last round wins; a tie shares "
        "the win. `result`: the round sheet and each round's starting player."
    )
    max_players = 6
    rules = {
        "ftw.turn": "not this seat's turn, or an action during the reveal phase",
        "ftw.reveal.twice": "a seat reveals twice in one round, or reveals while the round is still being played",
        "ftw.card.range": "a card outside this player count's range",
        "ftw.card.seen": "a card whose place is known this round and is not this seat's hand",
        "ftw.high.not-higher": "high with a card not higher than the top card",
        "ftw.low.empty": "low or boost on an empty pile",
        "ftw.low.not-lower": "low or boost with a card not lower than the top card",
        "ftw.low.take": "take is not a card in the pile",
        "ftw.boost.helper": "a helper that is not one of this seat's unused helpers, or none given",
        "ftw.boost.sum": "card plus helpers does not beat the top card",
        "ftw.reveal.count": "a revealed hand whose size differs from the tracked hand size",
        "ftw.reveal.known": "a revealed hand that lacks a card known to be in that seat's hand",
        "ftw.hand.cards": "(hand known) a played card the seat does not hold",
    }
    # What a table allows that turns a rule off (its house rule), in the rules' order.
    allows = {
        "ftw.turn": "A player may play out of turn, also while hands are revealed",
        "ftw.reveal.twice": "A hand may be revealed twice, or before the round ends",
        "ftw.card.range": "Cards outside the range may be logged",
        "ftw.card.seen": "A card may be played wherever it is known to be",
        "ftw.high.not-higher": "A high card need not be higher than the top card",
        "ftw.low.empty": "Low or boost may go on an empty pile",
        "ftw.low.not-lower": "Low or boost need not be lower than the top card",
        "ftw.low.take": "A player may take a card that is not in the pile",
        "ftw.boost.helper": "Any helper may boost, or none",
        "ftw.boost.sum": "A boost need not beat the top card",
        "ftw.reveal.count": "A revealed hand may differ in size from the one counted",
        "ftw.reveal.known": "A revealed hand may lack a card known to be in it",
        "ftw.hand.cards": "A player may play cards his logged hand does not hold",
    }
    events = {
        "hand": {"seat": Seat(required=True), "cards": card_list(required=True)},
        "high": {"seat": Seat(required=True), "card": card(required=True)},
        "low": {"seat": Seat(required=True), "card": card(required=True), "take": card(required=True)},
        "boost": {"seat": Seat(required=True), "card": card(required=True), "helpers": card_list(required=True)},
        "reveal": {"seat": Seat(required=True), "cards": card_list(required=True)},
    }
    options = Options
    private_events = frozenset({"hand"})

    def handlers(self) -> Mapping[str, Any]:
        return {
            "hand": (self._hand_checks, self._hand),
            "high": (self._move_checks, self._high),
            "low": (self._move_checks, self._low),
            "boost": (self._move_checks, self._boost),
            "reveal": (self._reveal_checks, self._reveal),
        }

    def knowing(self, state: State, seats: frozenset[int]) -> State:
        """Recorded hands of other seats taken out."""
        hands = state.hands
        if hands.count(None) == len(hands) or all(hand is None or seat in seats for seat, hand in enumerate(hands)):
            return state
        return evolve(state, hands=tuple(hand if seat in seats else None for seat, hand in enumerate(hands)))

    def initial(self, seats: Sequence[str], options: Mapping[str, Any]) -> State:
        if options["first"] >= len(seats):
            raise ValidationError({"first": [f"There is no seat {options['first']}."]})
        return self._new_round(State(tuple(seats), options["first"], card_range(len(seats))), 0)

    def _new_round(self, state: State, round_index: int) -> State:
        n = state.seat_count
        return evolve(
            state,
            round=round_index,
            revealing=False,
            turn=state.starter(round_index),
            sizes=(start_size(n),) * n,
            pile=(),
            helpers=((),) * n,
            places={},
            hands=(None,) * n,
            played=(frozenset(),) * n,
            revealed=(None,) * n,
        )

    # --- checks ---------------------------------------------------------------------

    def _out_of_range(self, state: State, cards: Iterable[int]) -> tuple[Violation, ...]:
        """ftw.card.range for the first card outside this player count's range, if any
        (a plain function, not a generator: every move runs these checks)."""
        top = state.top_card
        for number in cards:
            if not 1 <= number <= top:
                return (broken("ftw.card.range", "There is no card %(number)s: with %(seat_count)s players the cards are 1–%(top)s.", number=number, seat_count=state.seat_count, top=top),)
        return ()

    def _seen(self, state: State, seat: int, cards: Sequence[int], allow_played: bool = False) -> tuple[Violation, ...]:
        """ftw.card.seen for the first card the seat cannot hold (its place is known
        elsewhere, or it is named twice), if any."""
        name, places = state.names[seat], state.places
        recorded = [(other, hand) for other, hand in enumerate(state.hands) if hand is not None and other != seat]
        if len(set(cards)) == len(cards) and not any(map(places.__contains__, cards)) and not recorded:
            return ()  # no card named twice, none with a known place: the common case, in C
        for number in cards:
            place = places.get(number)
            if len(cards) > 1 and cards.count(number) > 1:
                return (broken("ftw.card.seen", "%(name)s names card %(number)s twice; each number exists once.", name=name, number=number),)
            if place is None:  # another seat's recorded hand: known only to those who may know it
                place = next((("hand", other) for other, hand in recorded if number in hand), None)
            if place is None or place == ("hand", seat) or (allow_played and number in state.played[seat]):
                continue
            return (self._seen_at(state, name, number, place),)
        return ()

    def _hand_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, cards = event["seat"], event["cards"]
        if state.hands[seat] is not None:
            yield broken("ftw.reveal.twice", "%(name)s's hand is already logged this round.", name=state.names[seat])
        yield from self._out_of_range(state, cards)
        yield from self._seen(state, seat, cards, allow_played=True)
        size = start_size(state.seat_count)
        if len(cards) != size:
            yield broken("ftw.reveal.count", "%(name)s's hand has %(count)s cards; hands hold %(size)s after the pass.", name=state.names[seat], count=len(cards), size=size)

    def _move_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, kind, played = event["seat"], event["type"], event["card"]
        name = state.names[seat]
        if state.revealing:
            yield broken("ftw.turn", "Round %(value)s is over; hands are being revealed.", value=state.round + 1)
        elif seat != state.turn:
            yield broken("ftw.turn", "It is %(turn)s's turn, not %(name)s's.", turn=state.names[state.turn], name=name)
        # The one card a move names (two for a low) is checked in line; the helpers word the flag.
        if not 1 <= played <= state.top_card or (kind == "low" and not 1 <= event["take"] <= state.top_card):
            yield from self._out_of_range(state, (played, event["take"]) if kind == "low" else (played,))
        place = state.places.get(played)
        if (place is not None and place != ("hand", seat)) or state.hands.count(None) < len(state.hands):
            yield from self._seen(state, seat, (played,))
        top = state.pile[-1] if state.pile else None
        if kind == "high":
            if top is not None and played <= top:
                yield broken("ftw.high.not-higher", "%(name)s's %(played)s does not beat the top card %(top)s.", name=name, played=played, top=top)
        else:
            if top is None:
                yield broken("ftw.low.empty", "The pile is empty: %(name)s must put a card on it (high).", name=name)
            elif played >= top:
                yield broken("ftw.low.not-lower", "%(name)s's %(played)s is not lower than the top card %(top)s.", name=name, played=played, top=top)
            if kind == "low" and event["take"] not in state.pile:
                yield broken("ftw.low.take", "%(name)s takes %(take)s, which is not in the pile.", name=name, take=event['take'])
            if kind == "boost":
                yield from self._boost_checks(state, event, top)
        hand = state.hands[seat]
        if hand is not None and played not in hand:
            yield broken("ftw.hand.cards", "%(name)s played %(played)s, which is not in %(name)s's hand.", name=name, played=played)

    def _boost_checks(self, state: State, event: Event, top: int | None) -> Iterator[Violation]:
        """The helpers, then the sum of the helpers named (an empty pile: any sum beats it)."""
        seat, helpers = event["seat"], event["helpers"]
        name = state.names[seat]
        mine = list(state.helpers[seat])
        if not helpers:
            yield broken("ftw.boost.helper", "%(name)s boosts without naming a helper card.", name=name)
        for helper in helpers:
            if helper not in mine:
                yield broken("ftw.boost.helper", "%(helper)s is not one of %(name)s's unused helper cards.", helper=helper, name=name)
                break
            mine.remove(helper)
        total = event["card"] + sum(helpers)
        if top is not None and total <= top:
            sum_text = " + ".join(map(str, [event["card"], *helpers]))
            yield broken("ftw.boost.sum", "%(name)s's %(sum_text)s = %(total)s does not beat the top card %(top)s.", name=name, sum_text=sum_text, total=total, top=top)

    def _reveal_checks(self, state: State, event: Event) -> Iterator[Violation]:
        seat, cards = event["seat"], event["cards"]
        name = state.names[seat]
        if not state.revealing:
            yield broken("ftw.reveal.twice", "Round %(value)s is still being played; hands are revealed when it ends.", value=state.round + 1)
        elif state.revealed[seat] is not None:
            yield broken("ftw.reveal.twice", "%(name)s has already revealed this round.", name=name)
        yield from self._out_of_range(state, cards)
        yield from self._seen(state, seat, cards)
        if len(cards) != state.sizes[seat]:
            yield broken("ftw.reveal.count", "%(name)s reveals %(count)s cards but holds %(sizes)s.", name=name, count=len(cards), sizes=state.sizes[seat])
        missing = sorted(state.known(seat) - set(cards))
        if missing:
            yield broken("ftw.reveal.known", "%(name)s's revealed hand lacks %(list)s, known to be in it.", name=name, list=', '.join(map(str, missing)))

    # --- effects --------------------------------------------------------------------

    def _hand(self, state: State, event: Event) -> State:
        seat, cards = event["seat"], frozenset(event["cards"])
        hand = (cards - state.played[seat]) | state.known(seat)
        return evolve(state, hands=replace_at(state.hands, seat, hand))

    def _laid_down(self, state: State, seat: int, played: int, places: dict[int, Place], size: int) -> dict[str, Any]:
        """The changes when a card leaves a seat's hand (for the pile or the helper row),
        with the places of the cards the move shifts and the hand's new size; the move adds
        its own and makes one copy of the state (a move is the hot path of every replay).
        Then the next seat's turn, or the reveal when the mover holds one card."""
        changes: dict[str, Any] = {
            "places": {**state.places, **places},
            "played": replace_at(state.played, seat, state.played[seat] | {played}),
            "sizes": replace_at(state.sizes, seat, size),
        }
        hand = state.hands[seat]
        if hand is not None:
            changes["hands"] = replace_at(state.hands, seat, hand - {played})
        if size == 1:
            changes["revealing"] = True
        else:
            changes["turn"] = (seat + 1) % len(state.names)
        return changes

    def _high(self, state: State, event: Event) -> State:
        seat, played = event["seat"], event["card"]
        changes = self._laid_down(state, seat, played, {played: PILE}, state.sizes[seat] - 1)
        changes["pile"] = (*state.pile, played)
        return evolve(state, changes)

    def _low(self, state: State, event: Event) -> State:
        if not state.pile:
            raise NoMeaning("a low on an empty pile: nothing to take")
        seat, played, take = event["seat"], event["card"], event["take"]
        changes = self._laid_down(state, seat, played, {played: ("helper", seat), **{c: OUT for c in state.pile}, take: ("hand", seat)}, state.sizes[seat])
        hands = changes.get("hands", state.hands)
        if hands[seat] is not None:
            changes["hands"] = replace_at(hands, seat, hands[seat] | {take})
        changes["pile"] = ()
        changes["helpers"] = replace_at(state.helpers, seat, (*state.helpers[seat], played))
        return evolve(state, changes)

    def _boost(self, state: State, event: Event) -> State:
        seat, played, used = event["seat"], event["card"], event["helpers"]
        unused = list(state.helpers[seat])
        for helper in used:  # the helpers named leave the game, also ones not his (ruled)
            if helper in unused:
                unused.remove(helper)
        changes = self._laid_down(state, seat, played, {played: PILE, **{h: OUT for h in used}}, state.sizes[seat] - 1)
        changes["pile"] = (*state.pile, played)
        changes["helpers"] = replace_at(state.helpers, seat, tuple(unused))
        return evolve(state, changes)

    def _reveal(self, state: State, event: Event) -> State:
        seat, cards = event["seat"], tuple(event["cards"])
        state = evolve(
            state,
            revealed=replace_at(state.revealed, seat, cards),
            places={**state.places, **{c: ("revealed", seat) for c in cards}},
            hands=replace_at(state.hands, seat, None),
        )
        if any(hand is None for hand in state.revealed):
            return state
        scores = tuple(round_score(hand or ()) for hand in state.revealed)
        state = evolve(state, sheet=(*state.sheet, scores))
        return state if state.over else self._new_round(state, state.round + 1)

    # --- the end, the view and the result -------------------------------------------

    def beside(self, move: Event, event: Event) -> bool:
        """At the end of a round every player reveals at once: a reveal stands beside
        another seat's reveal of other cards, as beside a note or another's hand."""
        if move["type"] == "reveal" and event["type"] == "reveal" and event["seat"] != move["seat"]:
            return not set(move["cards"]) & set(event["cards"])  # a card both name: one of them is wrong
        return super().beside(move, event)

    def _seen_at(self, state: State, name: str, number: int, place: Place) -> Violation:
        """A card named that is known to be elsewhere: where it is."""
        kind, seat = place
        owner = state.names[seat] if seat >= 0 else ""
        template = {
            "pile": "%(name)s cannot hold card %(number)s: it is on the pile.",
            "out": "%(name)s cannot hold card %(number)s: it is out of the game.",
            "helper": "%(name)s cannot hold card %(number)s: it is in %(owner)s's helper row.",
            "hand": "%(name)s cannot hold card %(number)s: it is in %(owner)s's hand.",
            "revealed": "%(name)s cannot hold card %(number)s: it is revealed by %(owner)s.",
        }[kind]
        return broken("ftw.card.seen", template, name=name, number=number, **({"owner": owner} if owner else {}))

    def outcome(self, state: State) -> Outcome | None:
        if len(state.sheet) == len(state.names):  # state.over, in line: this runs after every event
            return Outcome(Termination.FINISHED, f"all {state.seat_count} rounds are played")
        return None

    def view(self, state: State, seat: int | None, outcome: Outcome | None = None) -> dict[str, Any]:
        names = state.names
        phase = "over" if state.over or outcome else "reveal" if state.revealing else "play"
        moves = ["high", "low", "boost"] if state.pile else ["high"]  # what the pile allows, whoever moves
        if phase == "play":
            legal = moves if seat is None or seat == state.turn else []
        elif phase == "reveal":
            legal = ["reveal"] if seat is None or state.revealed[seat] is None else []
        else:
            legal = []
        view: dict[str, Any] = {
            "phase": phase,
            "round": min(state.round + 1, state.seat_count),
            "rounds": state.seat_count,
            "starter": names[state.starter(state.round)],
            "turn": names[state.turn] if phase == "play" else None,
            "to_act": [names[state.turn]] if phase == "play" else [names[s] for s, h in enumerate(state.revealed) if h is None] if phase == "reveal" else [],
            "legal": legal,
            "pile": list(state.pile),
            "top": state.pile[-1] if state.pile else None,
            "sizes": {names[s]: state.sizes[s] for s in range(state.seat_count)},
            "helpers": {names[s]: list(state.helpers[s]) for s in range(state.seat_count)},
            "revealed": {names[s]: list(h) for s, h in enumerate(state.revealed) if h is not None},
            "totals": self._totals(state),
            "card_range": card_range(state.seat_count),
            "moves": moves if phase == "play" else [],
        }
        if seat is not None:
            hand = state.hands[seat]
            view["hand"] = sorted(hand) if hand is not None else None
            view["known"] = sorted(state.known(seat))
        return {**view, **self._chips(view, frozenset())}

    @staticmethod
    def _chips(view: dict[str, Any], off: frozenset[str]) -> dict[str, list[int]]:
        """The cards each move's grid offers: above the top card for a high, below it for a
        low or boost, unless the table turned that rule off (the field to type a card takes
        any); from the seat's logged hand (`high_cards`, `low_cards`; every card while none
        is logged) and from every card (`high_any`, `low_any`: a host who plays logs another
        seat's move, and her own hand is no choice of his)."""
        top, every = view["top"], range(1, view["card_range"] + 1)

        def grids(cards: Iterable[int]) -> tuple[list[int], list[int]]:
            cards = list(cards)
            return ([c for c in cards if top is None or c > top or "ftw.high.not-higher" in off],
                    [c for c in cards if top is None or c < top or "ftw.low.not-lower" in off])
        (high, low), (high_any, low_any) = grids(view.get("hand") or every), grids(every)
        return {"high_cards": high, "low_cards": low, "high_any": high_any, "low_any": low_any}

    def house_view(self, view: dict[str, Any], off: frozenset[str]) -> dict[str, Any]:
        """The controls a rule off gives back; every other rule off hides nothing.

        ftw.turn            every seat's phone plays while the round is played (`may_act`;
                            in the reveal phase no move is offered: the round is over)
        ftw.high.not-higher the high grid offers every card, not only those above the top
        ftw.low.not-lower   the low and boost grids offer every card, not only those below it
        ftw.low.empty       Boost on an empty pile (a low there takes nothing: no meaning)
        ftw.card.seen, ftw.hand.cards, ftw.reveal.count, ftw.reveal.known, ftw.boost.sum:
                            nothing: the typed field takes any card, a reveal any list
        ftw.card.range      nothing given back: the typed field stops at the range's top
        ftw.low.take        nothing given back: a low takes a card of the pile
        ftw.boost.helper    nothing given back: a boost ticks the seat's own helpers
        ftw.reveal.twice    nothing given back: a hand is revealed once, when the round ends
        """
        view = {**view, **self._chips(view, off)}
        if "ftw.low.empty" in off and view["moves"] == ["high"]:
            view["moves"] = ["high", "boost"]
            view["legal"] = view["moves"] if view["legal"] else []
        if "ftw.turn" in off and view["phase"] == "play":
            view["may_act"], view["legal"] = list(view["sizes"]), view["moves"]
        return view

    def explain(self, state: State, applied: Sequence[Event]) -> dict[str, list[dict[str, Any]]]:
        """FTW?!: each round's score from the hand its player revealed."""
        names = state.names
        items: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
        reveals = [e for e in applied if e["type"] == "reveal"]
        for number, sheet in enumerate(state.sheet):
            this_round = reveals[number * state.seat_count:(number + 1) * state.seat_count]
            for event in this_round:
                cards = event["cards"]
                best, rest = (max(cards), sum(cards) - max(cards)) if cards else (0, 0)
                items[names[event["seat"]]].append(because(
                    sheet[event["seat"]], [event["seq"]],
                    "round %(round)s: highest card %(best)s minus the others %(rest)s, at least 0" if best < rest
                    else "round %(round)s: highest card %(best)s minus the others %(rest)s", round=number + 1, best=best, rest=rest))
        return items

    def _totals(self, state: State) -> dict[str, int]:
        return {name: sum(scores[s] for scores in state.sheet) for s, name in enumerate(state.names)}

    def result(self, state: State, outcome: Outcome | None = None) -> Result:
        names = state.names
        scores = self._totals(state)
        detail = {
            "rounds": [
                {"round": r + 1, "starter": names[state.starter(r)], "scores": dict(zip(names, sheet))}
                for r, sheet in enumerate(state.sheet)
            ],
            "starters": [names[state.starter(r)] for r in range(state.seat_count)],
            "totals": scores,
        }
        ranking = ranking_by_score(scores)
        winners = ranking[0] if self.outcome(state) is not None else []
        return Result(scores, ranking, detail, winners=winners, ended_early=ended_early(outcome))
