"""What every game shares: the rule violation, the end of a game, and the game contract.

A game is pure: it turns (state, event) into a new state or a `Violation`, and never does
I/O. Events reach a game already checked against its schemas (see `referee.record`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Generic, TypeVar

from marshmallow import Schema, fields

Event = Mapping[str, Any]
S = TypeVar("S")


@dataclass(frozen=True)
class Violation:
    """An event that breaks a rule: the rule id of the spec and a sentence for the table.

    `audience` is set by replay, never by a game: who may read this flag before the
    secrets are revealed. None: everyone (a flag judged on public information); a set of
    seats: those seats and the host (a flag on a private event, judged on its own seat's
    records; a clash, see `referee.replay`).
    """

    rule: str
    message: str
    audience: frozenset[int] | None = None
    # The message as the game words it before its values are put in (a %-format) and the
    # values themselves (names, numbers, card tokens, `Count`s): a phone says it in its own
    # language with its own card names. Empty for a message made whole (`broken` makes both).
    template: str = ""
    values: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"


def broken(rule: str, template: str, **values: Any) -> Violation:
    """A violation of `rule`: its English sentence is `template` with `values` put in, and
    both are kept, so that a phone can word the same sentence in German (`web.words`)."""
    return Violation(rule, template % {key: english(value) for key, value in values.items()}, template=template, values=tuple(values.items()))


def because(points: int, seqs: Sequence[int], template: str, **values: Any) -> dict[str, Any]:
    """An item of `Game.explain`: `points`, the events behind them, and why in English
    (`template` with `values` put in); like `broken`, it keeps both (`said`), so that a phone
    words the reason in its own language (`web.words.said_words`)."""
    return {"points": points, "why": template % {key: english(value) for key, value in values.items()}, "seqs": list(seqs),
            "said": (template, tuple(values.items()))}


def english(value: Any) -> str:
    """A value as the games' English sentences put it: a list joined with commas."""
    return ", ".join(map(str, value)) if isinstance(value, tuple) else str(value)


@dataclass(frozen=True)
class Count:
    """A count of cards as players say it: 'three 7s', 'one card', 'two jokers'."""

    count: int
    noun: str  # "card", "joker" or a card's number

    def __str__(self) -> str:
        return card_count(self.count, self.noun)


@dataclass(frozen=True)
class Phrase:
    """Words of a game's own in a flag's sentence ('go shopping', 'a lady'): a phone says
    them in its language (each is in the catalogue, found where `Phrase` is written)."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Word:
    """A value the game's English sentence words its own way (`text`: 'boss 7') that a phone
    names as it names it elsewhere (`token`: the card 'boss-7', the kind 'boss')."""

    token: str | int
    text: str

    def __str__(self) -> str:
        return self.text


class Termination(Enum):
    """Why a game is over."""

    FINISHED = "finished"  # the rules ended it
    TABLE_END = "ended"  # the table logged `end`


@dataclass(frozen=True)
class Outcome:
    """The end of a game, as a value with its reason."""

    termination: Termination
    reason: str


@dataclass(frozen=True)
class Result:
    """Scores (name -> points; empty where a game has none), tiers best first, details, and
    the end as a value: `winners` are whom the rules name (none before the end, and none
    in a game the table ended early unless its rules still name one: each game's
    docstring says); `ended_early` that the table's `end` came before the rules' end."""

    scores: dict[str, int]
    ranking: list[list[str]]
    detail: dict[str, Any] = field(default_factory=dict)
    winners: list[str] = field(default_factory=list)
    ended_early: bool = False


def ended_early(outcome: Outcome | None) -> bool:
    """Whether the table ended the game before its rules did (an `end` event)."""
    return outcome is not None and outcome.termination is Termination.TABLE_END


class Seat(fields.Integer):
    """A seat index; the record binds it to the header's seat count."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)


def card_count(count: int, noun: str, plural: str | None = None) -> str:
    """'one 9', 'three 7s': card counts as players say them."""
    words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    number = words[count] if count < len(words) else str(count)
    return f"{number} {noun if count == 1 else plural or noun + 's'}"


def places(ranking: Sequence[Sequence[str]]) -> dict[str, int]:
    """Each name's place, as sport counts it: a tie shares the place, and the next tier's
    place counts everyone above (tiers [Anna, Ben], [Cem]: 1, 1, 3). A team is a tier."""
    placed: dict[str, int] = {}
    for tier in ranking:
        place = len(placed) + 1
        placed.update(dict.fromkeys(tier, place))
    return placed


def ranking_by_score(scores: Mapping[str, int]) -> list[list[str]]:
    """Tiers of names by score, best first; equal scores share a tier."""
    tiers: dict[int, list[str]] = {}
    for name, points in scores.items():
        tiers.setdefault(points, []).append(name)
    return [tiers[points] for points in sorted(tiers, reverse=True)]


def evolve(state: S, changes: Mapping[str, Any] | None = None, /, **more: Any) -> S:
    """A copy of a frozen state with some fields changed: `changes` (a dict), `more` or both.

    What `dataclasses.replace` does, without re-running `__init__` over every field: a
    fold makes one of these per event, so this is the hot path of every replay. A move
    that gathers its changes in a dict passes it as it is (unpacking it as keywords would
    build it again). The states are frozen dataclasses without `__post_init__` or slots.
    """
    fields_of_copy = state.__dict__.copy()
    if changes:
        fields_of_copy.update(changes)
    if more:
        fields_of_copy.update(more)
    copy = object.__new__(type(state))
    object.__setattr__(copy, "__dict__", fields_of_copy)  # frozen: set past the dataclass
    return copy


def made(cls: type[S], **fields: Any) -> S:
    """A frozen dataclass from every one of its fields, without the generated `__init__`
    (which sets each field through `object.__setattr__`): for the small records a fold
    makes per event, like a taken card. No defaults are filled in."""
    made_object = object.__new__(cls)
    object.__setattr__(made_object, "__dict__", fields)
    return made_object


def replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """A copy of a tuple with one item replaced: per-seat values in frozen state."""
    return items[:index] + (value,) + items[index + 1 :]


class NoMeaning(ValueError):
    """Raised by an effect for a move that has no meaning where it stands (DESIGN.md: a pass
    before the lead, a bid naming a card not in the row): such a move, ruled or legal only by
    a house rule, changes nothing, and replay lists it as not applied. A legal move never
    raises it: the checks refuse every such move."""


Check = Callable[[S, Event], Iterator[Violation]]
Effect = Callable[[S, Event], S]


class Game(Generic[S]):
    """The game contract. Subclasses state their facts first, then their rules.

    `handlers` maps each event type to (checks, effect): the checks yield every rule the
    event breaks, the effect folds a legal event into a new state. `apply` reports the
    broken rule that comes first in `rules`, the spec's table order (DESIGN.md). The checks
    go on after a broken rule (the table may have turned it off, and then the next one is
    reported); they stop only where the later checks have no meaning without it.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules: ClassVar[dict[str, str]]  # rule id -> when it is broken, in spec order
    allows: ClassVar[dict[str, str]]  # rule id -> what a table that turns it off allows (a house rule's sentence)
    scoring: ClassVar[str]  # how the game is won and scored, for its reference page
    events: ClassVar[dict[str, dict[str, fields.Field[Any]]]]  # type -> fields, in record order
    options: ClassVar[type[Schema]]
    private_events: ClassVar[frozenset[str]] = frozenset()  # shown only to their seat until the end
    result_is_private: ClassVar[bool] = False  # the score table reveals private holdings
    host_events: ClassVar[frozenset[str]] = frozenset()  # the table's book-keeping: logged by the host
    # Whether any seat's phone logs the table's own next event (a deal, the next prize) when
    # no player is to act; else the host's phone does (the event card, the next day).
    seats_log_table: ClassVar[bool] = False
    revealed_view: ClassVar[frozenset[str]] = frozenset()  # view keys shown to others only once the host reveals
    # Who won turns on public events only (Karriere Poker's positions): every phone is shown
    # the result at the end, before the host reveals the secrets (which it never shows).
    outcome_is_public: ClassVar[bool] = False

    def sharing(self, state: S, seat: int) -> frozenset[int]:
        """The seats that may see `seat`'s private information (its team, where a game has
        teams); the host always may."""
        return frozenset({seat})

    def knowing(self, state: S, seats: frozenset[int]) -> S:
        """The state as someone would have it who knows every public event but only the
        private records of `seats`: the others' are taken out, and whatever was worked out
        from them. Every event is judged on such a state (replay), and every view before
        the reveal is made from one, so no answer can depend on a secret its reader does
        not hold. A game without private events returns `state` itself; so does a game
        whose state holds nothing private of anyone outside `seats` (the cheap case)."""
        return state

    def stands_beside(self, move: Event, meanwhile: Sequence[Event]) -> bool:
        """Whether `move`, made on a phone that had not seen the events `meanwhile`, means
        the same and is as legal as when it was made, so it is stored as it stands.
        Otherwise the move is refused as stale and made again."""
        return all(self.beside(move, event) for event in meanwhile)

    def beside(self, move: Event, event: Event) -> bool:
        """The game's conflict table, one pair at a time: whether `event`, logged meanwhile,
        leaves `move` as it was. Here: a note, and another seat's private record (a move is
        judged on public information, so it never depends on one). A game where several
        players act at once says more."""
        return event["type"] == "note" or (event["type"] in self.private_events and event.get("seat") != move.get("seat"))

    def card_errors(self, start: S, event: Event) -> dict[str, list[str]]:
        """Format errors that depend on the header (a colour not in play, a boutique no team
        owns); `start` is the state before the first event. {} if none."""
        return {}

    def completed(self, state: S, body: dict[str, Any]) -> dict[str, Any]:
        """A move from a phone with what the phone leaves to the app filled in (a fresh card
        name in Ladies & Gentlemen); most games take it as it is."""
        return body

    @property
    def hides_anything(self) -> bool:
        """Whether a record of an unfinished game holds something not every seat may see."""
        return bool(self.private_events) or self.result_is_private

    def handlers(self) -> Mapping[str, tuple[Check[S], Effect[S]]]:
        raise NotImplementedError

    def initial(self, seats: Sequence[str], options: Mapping[str, Any]) -> S:
        """The state before the first event; `options` are loaded with their defaults."""
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        """The end of the game when its rules have ended it, else None."""
        raise NotImplementedError

    def view(self, state: S, seat: int | None, outcome: Outcome | None = None) -> dict[str, Any]:
        """What `seat` (None: a spectator) may see, whose turn it is and what is legal now.

        `outcome` is how the game ended, when the table ended it with `end`.
        """
        raise NotImplementedError

    def house_view(self, view: dict[str, Any], off: frozenset[str]) -> dict[str, Any]:
        """`view` at a table whose house rules turn the rules `off`: a move only such a rule
        forbade is offered again (its control shows). Most rules off hide nothing."""
        return view

    def result(self, state: S, outcome: Outcome | None = None) -> Result:
        """Scores, ranking and the game's scoring table for the state reached.

        `outcome` is how the game ended, when the table ended it with `end`.
        """
        raise NotImplementedError

    def explain(self, state: S, applied: Sequence[Event]) -> dict[str, list[dict[str, Any]]]:
        """Why each player has his score: per name, items {points, why, seqs, said} (`because`)
        whose points add up exactly to `result(state).scores[name]`; `applied` are the events folded into
        `state`, in order, each with its seq (flagged and withdrawn ones left out). {} for a
        game without points."""
        return {}

    def apply(self, state: S, event: Event) -> S | Violation:
        """The state after a legal event, or the first rule (in spec order) it breaks."""
        broken = self.first_broken(state, event)
        return self.effect(state, event) if broken is None else broken

    def first_broken(self, state: S, event: Event, off: frozenset[str] = frozenset()) -> Violation | None:
        """The first rule (in spec order) the event breaks in this state, or None; rules
        `off` (the table's house rules) are never broken: the next broken rule is reported,
        exactly as if the rules off were not in the table.

        This runs for every event of a replay, so it is a plain loop."""
        first, order = None, self._rule_order
        for violation in self._handlers[event["type"]][0](state, event):
            if (first is None or order[violation.rule] < order[first.rule]) and violation.rule not in off:
                first = violation
        return first

    def effect(self, state: S, event: Event) -> S:
        """The state after an event judged legal."""
        return self._handlers[event["type"]][1](state, event)

    def load_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Options with their defaults; raises marshmallow.ValidationError on bad ones."""
        loaded: dict[str, Any] = self._options_schema.load(dict(options))
        return loaded

    def __init__(self) -> None:
        self._handlers = self.handlers()
        self._rule_order = {rule: index for index, rule in enumerate(self.rules)}
        self._options_schema = self.options()  # made once: a schema's fields are deep-copied per instance
        unknown = {t for t in self._handlers} ^ set(self.events)
        assert not unknown, f"{self.name}: events and handlers differ: {unknown}"
