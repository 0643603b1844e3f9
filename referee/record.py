"""The table record, `table-record/1`: UTF-8 JSON Lines, a header line and one line per event.

Reading checks every line against marshmallow schemas (the envelope, the header, the
game's event vocabulary) and refuses the whole record at the first format error, naming
`line N`. Writing is canonical: keys in a fixed order (header: format, game, seats,
options, house_rules, title, started_at; event: seq, type, the type's fields in spec order, at, by,
id), nested values as given, `json.dumps` separators, no ASCII escaping, "\\n" after
every line. A canonical record read and written again is byte-identical.
"""

from __future__ import annotations

import copy
import json
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property, lru_cache
from typing import Any

from marshmallow import Schema, ValidationError, fields, missing, validate, validates_schema

from .games import find_game, game_names
from .games.base import Game, Seat

FORMAT = "table-record/1"
MAX_SEQ = 2**53  # seqs and targets beyond are refused: SQLite integers are 64-bit
EVENT_KEYS_FIRST = ("seq", "type")
EVENT_KEYS_LAST = ("at", "by", "id")
# Characters a player's name may not hold: they hide (zero-width, bidi overrides), break
# lines, or are no character at all; two names that differ only by them would look alike.
UNSEEN = {"Cc": "a control character", "Cf": "an invisible formatting character (zero-width or bidi)",
          "Co": "a private-use character", "Cn": "an unassigned character", "Cs": "a lone surrogate",
          "Zl": "a line separator", "Zp": "a paragraph separator"}


class RecordError(ValueError):
    """A format error: the record (or request body) is refused and nothing is stored."""

    def __init__(self, reason: str, line: int | None = None, errors: Any = None) -> None:
        self.reason = reason
        self.line = line
        self.errors = errors if errors is not None else {"_": [reason]}
        super().__init__(f"line {line}: {reason}" if line is not None else reason)


def iso8601(value: str) -> None:
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise ValidationError(f"{value!r} is not an ISO 8601 time.") from None


class Logger(fields.Field):
    """Who logged an event: a seat index or "host"."""

    def _deserialize(self, value: Any, attr: Any, data: Any, **kwargs: Any) -> Any:
        if value == "host" or (type(value) is int and value >= 0):
            return value
        raise ValidationError('Must be a seat index or "host".')


ENVELOPE = {
    "seq": fields.Integer(strict=True, required=True, validate=validate.Range(min=1, max=MAX_SEQ)),
    "type": fields.String(required=True),
    "at": fields.String(validate=iso8601),
    "by": Logger(),
    "id": fields.String(validate=validate.Length(min=1, max=200)),
}

COMMON_EVENTS: dict[str, dict[str, fields.Field]] = {
    "void": {
        "target": fields.Integer(strict=True, required=True, validate=validate.Range(max=MAX_SEQ)),
        "reason": fields.String(validate=validate.Length(max=1000)),
    },
    "note": {"text": fields.String(required=True, validate=validate.Length(max=2000))},
    "pause": {},  # the table takes a break: no effect on the game, only on its playing time
    "resume": {},
    "end": {"reason": fields.String(validate=validate.Length(max=1000))},
    "ruling": {
        "target": fields.Integer(strict=True, required=True, validate=validate.Range(max=MAX_SEQ)),
        "reason": fields.String(validate=validate.Length(max=1000)),
    },
}


class HouseRules(Schema):
    """The rules a table does not play by: never checked for its games."""

    off = fields.List(fields.String(), required=True, validate=validate.Length(max=100))


BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")  # would turn the text after them around


def one_line(title: str) -> None:
    """A title is one line of text, read as typed: no control character, line break or bidi
    override (a share image or a page would break or turn it, an SVG would not parse)."""
    for char in title:
        kind = unicodedata.category(char)
        if kind in ("Cc", "Zl", "Zp") or char in BIDI_CONTROLS:
            raise ValidationError(f"holds {UNSEEN[kind]} (U+{ord(char):04X}): a title is one line, read as typed")


class HeaderSchema(Schema):
    format = fields.String(required=True)
    game = fields.String(required=True, validate=validate.OneOf(game_names()))
    seats = fields.List(
        fields.String(validate=validate.Length(min=1, max=40)), required=True
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)
    house_rules = fields.Nested(HouseRules)
    title = fields.String(validate=[validate.Length(max=200), one_line])
    started_at = fields.String(validate=iso8601)

    @validates_schema
    def _check(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["format"] != FORMAT:
            raise ValidationError(f"must be {FORMAT!r}", "format")
        for rule in data.get("house_rules", {}).get("off", []):
            if rule.startswith("core.") or rule not in find_game(data["game"]).rules:
                why = "the table's own rules (core.*) are always played" if rule.startswith("core.") else f"not a rule of {data['game']}"
                raise ValidationError(f"{rule!r} cannot be off: {why}", "house_rules")
        names = [name.strip() for name in data["seats"]]
        if len(set(names)) != len(names):
            raise ValidationError("player names must differ", "seats")
        game = find_game(data["game"])
        if not game.min_players <= len(names) <= game.max_players:
            raise ValidationError(
                f"{game.title} is for {game.min_players}–{game.max_players} players, "
                f"not {len(names)}",
                "seats",
            )


HEADER_SCHEMA = HeaderSchema()  # made once: loading keeps no state in the schema


@dataclass(frozen=True)
class Header:
    """Line 1 of a record: the game, the seats in clockwise order, the options as given."""

    game: str
    seats: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    title: str | None = None
    started_at: str | None = None
    house_rules: tuple[str, ...] = ()  # rule ids this table does not play by (`{"off": [...]}`), as given

    @cached_property
    def off(self) -> frozenset[str]:
        """The rules never checked at this table."""
        return frozenset(self.house_rules)

    @property
    def rules(self) -> Game[Any]:
        """The game module that referees this record."""
        return find_game(self.game)

    @cached_property
    def loaded_options(self) -> dict[str, Any]:
        """The options with their defaults (checked when the header was read)."""
        return self.rules.load_options(self.options)

    @cached_property
    def initial_state(self) -> Any:
        """The game's state before the first event: made when the header is read (which
        checks the options against the seats) and shared by every replay of it (states
        are immutable)."""
        return self.rules.initial(self.seats, self.loaded_options)

    def to_json(self) -> dict[str, Any]:
        line: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "seats": list(self.seats),
            "options": dict(self.options),
        }
        if self.house_rules:
            line["house_rules"] = {"off": list(self.house_rules)}
        if self.title is not None:
            line["title"] = self.title
        if self.started_at is not None:
            line["started_at"] = self.started_at
        return line


@dataclass(frozen=True)
class Record:
    header: Header
    events: tuple[dict[str, Any], ...]


def flatten_errors(messages: Any, prefix: str = "") -> str:
    """marshmallow's nested error messages as one readable phrase: 'cards.0: Not a card.'"""
    if isinstance(messages, dict):
        parts = []
        for key, value in messages.items():
            name = prefix if key == "_schema" else f"{prefix}.{key}" if prefix else str(key)
            parts.append(flatten_errors(value, name))
        return "; ".join(parts)
    if isinstance(messages, list) and all(isinstance(m, str) for m in messages):
        text = " ".join(messages)
        return f"{prefix}: {text}" if prefix else text
    if isinstance(messages, list):
        return "; ".join(flatten_errors(m, prefix) for m in messages)
    return f"{prefix}: {messages}" if prefix else str(messages)


def normal_name(name: str) -> str:
    """A name as typed, as it is kept: Unicode NFC, spaces folded, none at the ends."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_problem(name: str) -> str | None:
    """Why this cannot be a player's name (None: it can): empty, not in its normal form,
    or holding a character that is not seen."""
    for char in name:
        kind = unicodedata.category(char)
        if kind in UNSEEN:
            return f"{name!r} holds {UNSEEN[kind]} (U+{ord(char):04X}); type the name again"
    if not name.strip():
        return "a name must have a letter, not only spaces"
    if normal_name(name) != name:
        return f"{name!r} has spaces at its ends, doubled, or is not in Unicode NFC form; write it as {normal_name(name)!r}"
    return None


def look_alike(name: str) -> str:
    """What tells two names apart at a table: not case, nor compatibility forms."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_names(seats: Iterable[str], line: int | None = 1) -> None:
    """The seats of a new game or of a file from outside: every name readable, no two
    alike (they differ in more than case). RecordError naming the name and the line."""
    seen: dict[str, str] = {}
    for name in seats:
        problem = name_problem(name)
        if problem is None and look_alike(name) in seen:
            problem = f"{seen[look_alike(name)]!r} and {name!r} differ only in upper and lower case: name the players apart"
        if problem is not None:
            raise RecordError(f"seats: {problem}", line, {"seats": [problem]})
        seen[look_alike(name)] = name


def parse_header(obj: Any, line: int | None = 1) -> Header:
    """A header from its JSON object; raises RecordError naming the line."""
    if not isinstance(obj, dict):
        raise RecordError("the header must be a JSON object", line)
    _valid_text(obj, line)
    try:
        data = HEADER_SCHEMA.load(obj)
    except ValidationError as error:
        raise RecordError(flatten_errors(error.messages), line, error.messages) from None
    header = Header(
        game=data["game"],
        seats=tuple(data["seats"]),
        options=data["options"],
        title=data.get("title"),
        started_at=data.get("started_at"),
        house_rules=tuple(data.get("house_rules", {}).get("off", ())),
    )
    try:
        # Options are checked against the seats too (a `first` seat that exists), so a
        # header that is accepted always starts a game.
        header.initial_state  # noqa: B018 (made here, kept for replay)
    except ValidationError as error:
        errors = {"options": error.messages}
        raise RecordError(flatten_errors(errors), line, errors) from None
    return header


class _Slow(Exception):
    """The plain check cannot vouch for a value: marshmallow judges it (and words the error)."""


def _plain_check(item: fields.Field) -> Callable[[Any, str, Any], Any]:
    """A field compiled to a plain function that returns the loaded value, or raises _Slow.

    Strict integers, strings and lists of them are checked by type and the field's own
    validators; any other field runs its own `deserialize`. Only values the field accepts
    pass, and they load to what marshmallow loads them to.
    """
    validators = tuple(item.validators)

    def validated(value: Any) -> Any:
        for validator in validators:
            try:
                if validator(value) is False:
                    raise _Slow
            except ValidationError:
                raise _Slow from None
        return value

    if type(item) in (fields.Integer, Seat) and item.strict:
        return lambda value, name, data: validated(value) if type(value) is int else _slow()
    if type(item) is fields.String:
        return lambda value, name, data: validated(value) if type(value) is str else _slow()
    if type(item) is fields.List:
        inner = _plain_check(item.inner)

        def check_list(value: Any, name: str, data: Any) -> Any:
            if type(value) is not list:
                raise _Slow
            return validated([inner(element, name, data) for element in value])

        return check_list

    def deserialize(value: Any, name: str, data: Any) -> Any:
        # What Field.deserialize does for a value that is there and not None, without its
        # checks for missing and None values (those go to the schema).
        if value is None:
            raise _Slow
        try:
            return validated(item._deserialize(value, name, data))
        except ValidationError:
            raise _Slow from None

    return deserialize


def _slow() -> Any:
    raise _Slow


class EventLoader:
    """An event schema compiled once into plain checks: the one validation of a move.

    A well-formed event (nearly every one) never enters marshmallow's `Schema.load`; any
    doubt (a missing or unknown field, a value a check cannot vouch for) hands the event
    to the schema itself, which gives the errors their usual words.
    """

    def __init__(self, schema: Schema) -> None:
        self.schema = schema
        self.checks = {name: _plain_check(item) for name, item in schema.load_fields.items()}
        self.required = frozenset(name for name, item in schema.load_fields.items() if item.required)
        assert all(item.load_default is missing for item in schema.load_fields.values())

    def load(self, obj: dict[str, Any]) -> dict[str, Any]:
        """The loaded event; raises marshmallow.ValidationError like `Schema.load`."""
        try:
            if not self.required <= obj.keys():
                raise _Slow
            checks = self.checks
            return {name: checks[name](value, name, obj) for name, value in obj.items()}
        except (_Slow, KeyError):
            loaded: dict[str, Any] = self.schema.load(obj)
            return loaded


@lru_cache(maxsize=None)
def event_schema(game_name: str, seat_count: int, event_type: str) -> EventLoader | None:
    """The schema of one event type at a table of `seat_count`; None for an unknown type."""
    game = find_game(game_name)
    own = COMMON_EVENTS[event_type] if event_type in COMMON_EVENTS else game.events.get(event_type)
    if own is None:
        return None
    declared = copy.deepcopy({**ENVELOPE, **own})
    for item in declared.values():
        if isinstance(item, Seat):
            item.validators = [
                *item.validators,
                validate.Range(0, seat_count - 1, error=f"There is no seat {{input}}: seats are 0–{seat_count - 1}."),
            ]
    by = declared["by"]
    by.validators = [*by.validators, _by_in_range(seat_count)]
    schema_class = Schema.from_dict(declared, name=f"{game_name}.{event_type}")
    return EventLoader(schema_class())


def _by_in_range(seat_count: int) -> Any:
    def check(value: Any) -> None:
        if value != "host" and value >= seat_count:
            raise ValidationError(f"There is no seat {value}: seats are 0–{seat_count - 1}.")

    return check


@lru_cache(maxsize=None)
def event_order(game_name: str, event_type: str) -> tuple[str, ...]:
    """The canonical key order of one event type."""
    game = find_game(game_name)
    own = COMMON_EVENTS[event_type] if event_type in COMMON_EVENTS else game.events.get(event_type, {})
    return (*EVENT_KEYS_FIRST, *own, *EVENT_KEYS_LAST)


def parse_event(header: Header, obj: Any, seq: int, line: int | None = None) -> dict[str, Any]:
    """One event, checked and put in canonical key order; `seq` is the one it must carry."""
    if not isinstance(obj, dict):
        raise RecordError("an event must be a JSON object", line)
    event_type = obj.get("type")
    if not isinstance(event_type, str):
        raise RecordError("type: Missing data for required field.", line, {"type": ["Missing data for required field."]})
    schema = event_schema(header.game, len(header.seats), event_type)
    if schema is None:
        known = ", ".join([*header.rules.events, *COMMON_EVENTS])
        reason = f"type: unknown event type {event_type!r} ({header.game} knows: {known})"
        raise RecordError(reason, line, {"type": [reason]})
    try:
        data = schema.load(obj)
    except ValidationError as error:
        raise RecordError(flatten_errors(error.messages), line, error.messages) from None
    if data["seq"] != seq:
        reason = f"seq: expected {seq}, found {data['seq']}"
        raise RecordError(reason, line, {"seq": [reason]})
    if event_type not in COMMON_EVENTS:
        errors = header.rules.card_errors(header.initial_state, data)
        if errors:
            raise RecordError(flatten_errors(errors), line, errors)
    _valid_text(data, line)
    return {key: data[key] for key in event_order(header.game, event_type) if key in data}


def load_json(text: str | bytes, line: int | None = None) -> Any:
    """JSON from a client or a file; hostile input (nesting 20,000 deep, a 5,000-digit
    number, bad bytes) is a RecordError naming what is wrong, never a crash."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"invalid JSON: {error.msg} at column {error.colno}", line) from None
    except RecursionError:
        raise RecordError("invalid JSON: nested too deeply", line) from None
    except ValueError as error:  # e.g. an integer with more digits than Python converts
        raise RecordError(f"invalid JSON: {error}", line) from None


def _valid_text(obj: Any, line: int | None) -> None:
    """Every string can be stored as UTF-8 (JSON allows lone surrogates like "\\ud800")."""
    try:
        _encode_strings(obj)
    except UnicodeEncodeError:
        raise RecordError("text must be valid Unicode: it contains a lone surrogate (\\ud800–\\udfff)", line) from None


def _encode_strings(obj: Any) -> None:
    """Encode every string in a loaded event, keys too, joined: a lone surrogate stays one
    when joined, and one `encode` of a few joined strings is cheaper than one per string."""
    if isinstance(obj, dict):
        "".join(obj).encode("utf-8")  # the keys
        values: Iterable[Any] = obj.values()
    elif isinstance(obj, list):
        values = obj
    else:
        if isinstance(obj, str):
            obj.encode("utf-8")
        return
    "".join([value for value in values if type(value) is str]).encode("utf-8")
    for value in values:
        if isinstance(value, (dict, list)):
            _encode_strings(value)


def read_record(text: str) -> Record:
    """Parse a whole record; raises RecordError at the first format error."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise RecordError("the record is empty: line 1 must be the header", 1)
    header = parse_header(load_json(lines[0], 1), 1)
    check_names(header.seats)
    events = []
    for number, text_line in enumerate(lines[1:], start=2):
        if not text_line.strip():
            raise RecordError("empty line", number)
        events.append(parse_event(header, load_json(text_line, number), number - 1, number))
    return Record(header, tuple(events))


def canonical(obj: Mapping[str, Any]) -> str:
    """One record line: the text that is written, exported and hashed."""
    return _LINE_ENCODER.encode(obj)


_LINE_ENCODER = json.JSONEncoder(ensure_ascii=False)  # json.dumps(obj, ensure_ascii=False), made once


def write_record(header: Header, events: Iterable[Mapping[str, Any]]) -> str:
    """The canonical text of a record."""
    lines = [canonical(header.to_json())]
    lines.extend(canonical(event) for event in events)
    return "\n".join(lines) + "\n"
