"""The sample records of `events/`: built from seeded simulations, with table mistakes mixed in.

`referee samples DIR` rewrites them and their expected replay outputs; the golden test
replays each record and compares. Regenerate only when a rule change is meant to change
the outcome, and read the diff.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .record import Header, read_record, write_record
from .replay import replay, report
from .simulate import employee_of_the_month, ftw_game, karriere_poker, ladies_gentlemen_game, senators_game

Sample = tuple[Header, list[dict[str, Any]]]


def with_mistakes(events: list[dict[str, Any]], mistakes: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Insert mistaken events before the legal event at each index; renumber seqs.

    A mistake may be a void: its `target` counts back from it ("-1": the event just
    before), so a table's "oops, withdraw that" reads naturally.
    """
    out: list[dict[str, Any]] = []
    for index, event in enumerate(events):
        for mistake in mistakes.get(index, []):
            entry = {**mistake, "seq": len(out) + 1}
            if entry["type"] == "void":
                entry["target"] = entry["seq"] + mistake["target"]
            out.append(entry)
        out.append({**event, "seq": len(out) + 1})
    return [_ordered(e) for e in out]


def _ordered(event: dict[str, Any]) -> dict[str, Any]:
    return {"seq": event["seq"], **{k: v for k, v in event.items() if k != "seq"}}


def kp_four_players() -> Sample:
    header, events = karriere_poker(["Anna", "Ben", "Cem", "Dora"], games=3, seed=4)
    return Header(header.game, header.seats, header.options, title="Freitagsrunde, drei Spiele"), events


def kp_five_players_with_flags() -> Sample:
    """Two games; an out-of-turn play voided, a short raise voided and redone, a lead pass left flagged."""
    header, events = karriere_poker(["Anna", "Ben", "Cem", "Dora", "Emil"], games=2, seed=5, hands=False)
    plays = [i for i, e in enumerate(events) if e["type"] == "play"]
    first_lead = plays[0]
    raise_at = next(i for i in plays[1:] if events[i - 1]["type"] == "play" and len(events[i]["cards"]) > 1)
    leader = events[first_lead]["seat"]
    mistakes = {
        first_lead: [
            {"type": "pass", "seat": leader},  # flagged kp.lead.pass, left in the record
            {"type": "play", "seat": (leader + 1) % 5, "cards": [2]},  # flagged kp.turn
            {"type": "void", "target": -1, "reason": "tapped too early"},
        ],
        raise_at: [
            {"type": "play", "seat": events[raise_at]["seat"], "cards": events[raise_at]["cards"][:1]},
            {"type": "note", "text": "Played one card too few; corrected below."},
            {"type": "void", "target": -2, "reason": "one card too few"},
        ],
    }
    titled = Header(header.game, header.seats, header.options, title="Fünf am Küchentisch")
    return titled, with_mistakes(events, mistakes)


def kp_eight_players() -> Sample:
    header, events = karriere_poker(["Anna", "Ben", "Cem", "Dora", "Emil", "Fay", "Gus", "Hal"], games=2, seed=8)
    return header, events


def eotm_three_players() -> Sample:
    header, events = employee_of_the_month(["Anna", "Ben", "Cem"], seed=3)
    return Header(header.game, header.seats, header.options, title="Büro-Abend"), events


def eotm_five_players_with_flags() -> Sample:
    """A bid out of turn voided; a bid on a card not in the row voided, another left flagged."""
    header, events = employee_of_the_month(["Anna", "Ben", "Cem", "Dora", "Emil"], seed=6, options={"first": 2})
    bids = [i for i, e in enumerate(events) if e["type"] == "bid"]
    first_bid, later_bid = bids[0], bids[10]
    bidder = events[first_bid]["seat"]
    mistakes = {
        first_bid: [
            {"type": "bid", "seat": (bidder + 2) % 5, "card": events[first_bid]["card"]},
            {"type": "void", "target": -1, "reason": "logged on the wrong phone"},
        ],
        later_bid: [
            {"type": "bid", "seat": events[later_bid]["seat"], "card": "boss-10" if events[later_bid]["card"] != "boss-10" else "colleague-10"},
            {"type": "void", "target": -1, "reason": "misread the card"},
            {"type": "bid", "seat": events[later_bid]["seat"], "card": "colleague-1"},
        ],
    }
    return header, with_mistakes(events, mistakes)


def ftw_three_players() -> Sample:
    header, events = ftw_game(["Anna", "Ben", "Cem"], seed=13)
    return Header(header.game, header.seats, header.options, title="FTW?! am Sonntag"), events


def ftw_six_players_with_flags() -> Sample:
    """A wrong card voided, a reveal during play left flagged, a take not in the pile voided."""
    header, events = ftw_game(["Anna", "Ben", "Cem", "Dora", "Emil", "Fay"], seed=16, hands=False)
    highs = [i for i, e in enumerate(events) if e["type"] == "high" and i > 0 and events[i - 1]["type"] == "high"]
    lows = [i for i, e in enumerate(events) if e["type"] == "low"]
    at_high, at_low = highs[3], lows[2]
    mover = events[at_high]["seat"]
    mistakes = {
        at_high: [
            {"type": "high", "seat": mover, "card": 1},
            {"type": "void", "target": -1, "reason": "wrong card tapped"},
            {"type": "reveal", "seat": mover, "cards": [59, 60]},
        ],
        at_low: [
            {**events[at_low], "take": 61 - 1 if events[at_low]["take"] != 60 else 59},
            {"type": "void", "target": -1, "reason": "took another card"},
        ],
    }
    return header, with_mistakes(events, mistakes)


def senators_three_players() -> Sample:
    header, events = senators_game(["Anna", "Ben", "Cem"], seed=3)
    return Header(header.game, header.seats, header.options, title="Senat am Samstag"), events


def senators_five_players() -> Sample:
    """Five players, hands not recorded (unseen hand cards used in sets), offices in play."""
    return senators_game(["Anna", "Ben", "Cem", "Dora", "Emil"], seed=11, hands=False)


def senators_four_players_with_flags() -> Sample:
    """A bid out of turn voided; a decide by the wrong seat voided; a too-low bid left flagged."""
    header, events = senators_game(["Anna", "Ben", "Cem", "Dora"], seed=4)
    bids = [i for i, e in enumerate(events) if e["type"] == "bid" and e["bids"]]
    decides = [i for i, e in enumerate(events) if e["type"] == "decide"]
    first_bid, decide = bids[0], decides[1]
    bidder = events[first_bid]["seat"]
    mistakes = {
        first_bid: [
            {"type": "bid", "seat": (bidder + 1) % 4, "bids": {}},
            {"type": "void", "target": -1, "reason": "Cem tapped too early"},
            {"type": "bid", "seat": bidder, "bids": {card: 0 for card in events[first_bid]["bids"]}},
        ],
        decide: [
            {**events[decide], "seat": (events[decide]["seat"] + 1) % 4},
            {"type": "void", "target": -1, "reason": "logged on the wrong phone"},
        ],
    }
    return Header(header.game, header.seats, header.options, title="Senat mit Fehlern"), with_mistakes(events, mistakes)


def lg_four_players() -> Sample:
    header, events = ladies_gentlemen_game(["Anna", "Ben", "Cem", "Dora"], seed=4, gossip=True)
    return Header(header.game, header.seats, header.options, title="Ein Ball zu viert"), events


def lg_five_players_courtesan_wins() -> Sample:
    return ladies_gentlemen_game(["Anna", "Ben", "Cem", "Dora", "Emil"], seed=2, verdict="courtesan")


def lg_seven_players_scandal() -> Sample:
    return ladies_gentlemen_game(["Anna", "Ben", "Cem", "Dora", "Emil", "Fay", "Gus"], seed=2, verdict="scandal")


def lg_six_players_with_flags() -> Sample:
    """A gentleman shopping voided; a visit before all numbers voided; a lady paying a bill left flagged."""
    header, events = ladies_gentlemen_game(["Anna", "Ben", "Cem", "Dora", "Emil", "Fay"], seed=6)
    visit = next(i for i, e in enumerate(events) if e["type"] == "visit")
    bill = next(i for i, e in enumerate(events) if e["type"] == "bill")
    number = next(i for i, e in enumerate(events) if e["type"] == "number")
    mistakes = {
        number: [
            {"type": "visit", "seat": 0, "boutique": "team-0"},  # lg.phase: numbers first
            {"type": "void", "target": -1, "reason": "numbers first"},
        ],
        visit: [
            {"type": "visit", "seat": 1, "boutique": "team-0"},  # lg.role: Ben is a gentleman
            {"type": "void", "target": -1, "reason": "Ben tapped on Anna's phone"},
        ],
        bill: [{**events[bill], "seat": 0}],  # lg.role: Anna does not pay; left flagged
    }
    titled = Header(header.game, header.seats, header.options, title="Ball mit Fehlern")
    return titled, with_mistakes(events, mistakes)


SAMPLES: dict[str, Callable[[], Sample]] = {
    "ladies-and-gentlemen-4-players": lg_four_players,
    "ladies-and-gentlemen-5-players-courtesan-wins": lg_five_players_courtesan_wins,
    "ladies-and-gentlemen-6-players-flags": lg_six_players_with_flags,
    "ladies-and-gentlemen-7-players-scandal": lg_seven_players_scandal,
    "senators-3-players": senators_three_players,
    "senators-4-players-flags": senators_four_players_with_flags,
    "senators-5-players": senators_five_players,
    "ftw-3-players": ftw_three_players,
    "ftw-6-players-flags": ftw_six_players_with_flags,
    "employee-of-the-month-3-players": eotm_three_players,
    "employee-of-the-month-5-players-flags": eotm_five_players_with_flags,
    "karriere-poker-4-players": kp_four_players,
    "karriere-poker-5-players-flags": kp_five_players_with_flags,
    "karriere-poker-8-players": kp_eight_players,
}


def write_samples(folder: Path) -> list[Path]:
    """Write every sample record and its expected `replay --json` output."""
    written = []
    for name, build in SAMPLES.items():
        header, built = build()
        events = read_record(write_record(header, built)).events  # canonical key order, checked
        record = folder / f"{name}.jsonl"
        record.write_text(write_record(header, events), encoding="utf-8")
        expected = report(replay(header, events), events=events)
        (folder / f"{name}.expected.json").write_text(
            json.dumps(expected, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
        written.append(record)
    return written
