"""The table-record/1 format: every kind of format error names its line; writing is canonical."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from marshmallow import ValidationError

from referee.record import RecordError, event_schema, parse_event, parse_header, read_record, write_record

HEADER = '{"format": "table-record/1", "game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"], "options": {}}'


def record(*lines: str, header: str = HEADER) -> str:
    return "\n".join([header, *lines]) + "\n"


def error_of(text: str) -> RecordError:
    with pytest.raises(RecordError) as caught:
        read_record(text)
    return caught.value


def test_a_canonical_record_is_written_back_byte_identical() -> None:
    text = record(
        '{"seq": 1, "type": "deal", "dealer": 3, "at": "2026-11-22T19:00:00+00:00", "by": "host"}',
        '{"seq": 2, "type": "play", "seat": 0, "cards": [7, 7, "J"], "id": "c-1"}',
        '{"seq": 3, "type": "note", "text": "Ben bringt Kuchen – schön"}',
        '{"seq": 4, "type": "void", "target": 2, "reason": "wrong seat"}',
    )
    parsed = read_record(text)
    assert write_record(parsed.header, parsed.events) == text


def test_writing_puts_keys_in_canonical_order_and_is_stable() -> None:
    messy = record('{"cards": [7], "seat": 0, "type": "play", "seq": 1}',
                   header='{"options": {}, "seats": ["Anna", "Ben", "Cem", "Dora"], "game": "karriere-poker", "format": "table-record/1"}')
    once = write_record(*_parts(messy))
    assert once.splitlines()[1] == '{"seq": 1, "type": "play", "seat": 0, "cards": [7]}'
    assert once.splitlines()[0] == HEADER
    assert write_record(*_parts(once)) == once


def _parts(text: str):  # type: ignore[no-untyped-def]
    parsed = read_record(text)
    return parsed.header, parsed.events


def test_optional_header_keys_are_kept() -> None:
    header = HEADER[:-1] + ', "title": "Freitagsrunde", "started_at": "2026-11-20T20:15:00+01:00"}'
    text = record(header=header)
    parsed = read_record(text)
    assert parsed.header.title == "Freitagsrunde"
    assert write_record(parsed.header, parsed.events) == text


@pytest.mark.parametrize(
    ("lines", "line", "words"),
    [
        (['{"seq": 1, "type": "deal", "dealer": 3'], 2, "invalid JSON"),
        (['{"seq": 1, "type": "shuffle"}'], 2, "unknown event type 'shuffle'"),
        (['{"seq": 1, "type": "play", "seat": 0}'], 2, "cards: Missing data"),
        (['{"seq": 1, "type": "play", "seat": 0, "cards": "7"}'], 2, "cards: Not a valid list"),
        (['{"seq": 1, "type": "play", "seat": 0, "cards": [14]}'], 2, "not a card of this game"),
        (['{"seq": 1, "type": "play", "seat": 0, "cards": [true]}'], 2, "not a card of this game"),
        (['{"seq": 1, "type": "play", "seat": 4, "cards": [7]}'], 2, "There is no seat 4"),
        (['{"seq": 1, "type": "play", "seat": "0", "cards": [7]}'], 2, "seat: Not a valid integer"),
        (['{"seq": 1, "type": "pass", "seat": 0, "mood": "grumpy"}'], 2, "mood: Unknown field"),
        (['{"seq": 1, "type": "deal", "dealer": 3, "seat": 1}'], 2, "seat: Unknown field"),
        (['{"seq": 2, "type": "deal", "dealer": 3}'], 2, "seq: expected 1, found 2"),
        (['{"seq": 1, "type": "deal", "dealer": 3}', '{"seq": 1, "type": "pass", "seat": 0}'], 3, "seq: expected 2"),
        (['{"seq": "1", "type": "deal", "dealer": 3}'], 2, "seq: Not a valid integer"),
        (['{"type": "deal", "dealer": 3}'], 2, "seq: Missing data"),
        (['{"seq": 1, "dealer": 3}'], 2, "type: Missing data"),
        (['{"seq": 1, "type": "deal", "dealer": 3}', ""], 3, "empty line"),
        (['[1, 2]'], 2, "must be a JSON object"),
        (['{"seq": 1, "type": "deal", "dealer": 3, "at": "yesterday"}'], 2, "not an ISO 8601 time"),
        (['{"seq": 1, "type": "deal", "dealer": 3, "by": "Anna"}'], 2, 'seat index or "host"'),
        (['{"seq": 1, "type": "deal", "dealer": 3, "by": 9}'], 2, "There is no seat 9"),
        (['{"seq": 1, "type": "void"}'], 2, "target: Missing data"),
        (['{"seq": 1, "type": "note"}'], 2, "text: Missing data"),
    ],
)
def test_event_format_errors_name_the_line(lines: list[str], line: int, words: str) -> None:
    error = error_of(record(*lines))
    assert error.line == line
    assert str(error).startswith(f"line {line}: ")
    assert words in str(error)


@pytest.mark.parametrize(
    ("header", "words"),
    [
        ("not json", "invalid JSON"),
        ('["table-record/1"]', "header must be a JSON object"),
        (HEADER.replace("table-record/1", "table-record/2"), "format: must be 'table-record/1'"),
        (HEADER.replace("karriere-poker", "skat"), "game: Must be one of"),
        (HEADER.replace('"Dora"', '"Anna"'), "player names must differ"),
        (HEADER.replace(', "Cem", "Dora"', ""), "for 4–8 players, not 2"),
        (HEADER.replace('{}', '{"speed": "fast"}'), "options.speed: Unknown field"),
        (HEADER.replace('{}', '{"end": {"kind": "games"}}'), "options.end.count: 'games' needs a count"),
        (HEADER.replace('{}', '{"end": {"kind": "games", "count": 0}}'), "options.end.count"),
        (HEADER.replace(', "options": {}', ', "options": {}, "colour": "red"'), "colour: Unknown field"),
        ('{"format": "table-record/1", "game": "karriere-poker"}', "seats: Missing data"),
    ],
)
def test_header_format_errors_name_line_1(header: str, words: str) -> None:
    error = error_of(record(header=header))
    assert error.line == 1
    assert words in str(error)


def test_an_empty_record_is_refused() -> None:
    assert error_of("").line == 1


def test_field_errors_are_kept_for_the_api() -> None:
    error = error_of(record('{"seq": 1, "type": "play", "seat": 0, "cards": [7, 99]}'))
    assert error.errors == {"cards": {1: ["99 is not a card of this game (1–13 or \"J\")."]}}
    json.dumps(error.errors, default=str)  # serialisable for a 400 answer


ODD_VALUES = [True, False, None, 0, -1, 1, 3, 99, 2**60, 1.5, "", "x", "J", "host", "2026-11-22T19:00:00Z", [], [1], ["J", 7], [True], {}, {"a": 1}, {"7": 3}]


def loaded_or_errors(load, obj):
    try:
        return "loaded", load(dict(obj))
    except ValidationError as error:
        return "errors", error.messages


def test_compiled_event_checks_load_what_marshmallow_loads_and_refuse_what_it_refuses() -> None:
    """The one validation of a move (plain checks compiled from the schemas) against the
    schemas themselves: sample events of every type, and each of its fields set to odd values, left
    out, or joined by an unknown one."""
    compared = refused = 0
    for path in sorted(Path("events").glob("*.jsonl")):
        record = read_record(path.read_text(encoding="utf-8"))
        header, seen = record.header, Counter()
        for event in record.events:
            seen[event["type"]] += 1
            if seen[event["type"]] > 3:
                continue  # three of each type per sample are plenty
            loader = event_schema(header.game, len(header.seats), event["type"])
            variants = [event, {**event, "unknown": 1}]
            for name in event:
                variants.append({k: v for k, v in event.items() if k != name})
                variants.extend({**event, name: value} for value in ODD_VALUES)
            for variant in variants:
                fast, slow = loaded_or_errors(loader.load, variant), loaded_or_errors(loader.schema.load, variant)
                assert fast == slow, (path.name, variant)
                compared += 1
                refused += fast[0] == "errors"
    assert compared > 2_000 and 0 < refused < compared  # both sides of the check were used


LG_HEADER = {"format": "table-record/1", "game": "ladies-and-gentlemen", "seats": ["Anna", "Ben", "Cem", "Dora", "Emil"], "options": {}}


@pytest.mark.parametrize(
    "event",
    [
        '{"type": "note", "text": "TEXT"}',  # a value
        '{"type": "take", "seat": 0, "boutique": "team-0", "card": {"name": "TEXT", "kind": "servant", "price": 1, "stars": 0}}',
        '{"type": "keep", "seat": 4, "cards": ["Hat", "TEXT"]}',  # in a list
    ],
    ids=["value", "nested object", "list"],
)
def test_a_lone_surrogate_anywhere_in_an_event_is_refused(event: str) -> None:
    header = parse_header(LG_HEADER)
    with pytest.raises(RecordError, match="lone surrogate"):
        parse_event(header, {**json.loads(event.replace("TEXT", "x\\udfffy")), "seq": 1}, 1)
    assert parse_event(header, {**json.loads(event.replace("TEXT", "x\\u00e9y")), "seq": 1}, 1)  # é is fine


def test_a_lone_surrogate_in_a_header_key_is_refused() -> None:
    with pytest.raises(RecordError, match="lone surrogate"):
        parse_header({**LG_HEADER, "options": {"\udc00": True}})
    # Joined strings stay apart: a high and a low surrogate in two strings are still two lone ones.
    with pytest.raises(RecordError, match="lone surrogate"):
        parse_header({**LG_HEADER, "title": "\ud83d", "seats": ["\ude00", "Ben", "Cem", "Dora", "Emil"]})
