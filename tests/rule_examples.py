"""One record per rule id whose last event is a player's move flagged with that rule.

Most are found by a seeded search: random legal games (`referee.simulate`) with one move
put in where it does not belong (another seat, a value from elsewhere in the game, a card
more or less); the shortest record found for each rule is kept. A few rules the search
does not reach are built from the games' own tests. Rules that only clashes or private
records break (a recorded hand) have no public flag to rule on: they are listed apart.

Some rules also have `after_off`: records whose header turns an earlier rule off
(`house_rules`) and whose last move breaks both, so this rule fires (the checks after a
rule that is off still run), from the games' own tests.

Regenerate the committed file with `python tests/rule_examples.py` (from the project's
top folder); tests/test_rulings.py reads it.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

TOP = Path(__file__).resolve().parent.parent
FILE = Path(__file__).resolve().parent / "rule-examples.json"
NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay", "Gus", "Hal"]
TRIES_PER_GAME = 200  # simulated games per game kind, 300 put-in moves each
PRIVATE_ONLY = {  # broken only by a private record (a hand), or seen only as a clash of a public move
    "kp.exchange.cards", "kp.hand.cards", "kp.hand.deal", "ftw.hand.cards",
}  # tests/test_rulings.py shows a ruling on such a record is refused


def simulated(kind: str, seed: int) -> tuple[Any, list[dict[str, Any]]]:
    from referee import simulate as sim

    if kind == "karriere-poker":
        return sim.karriere_poker(NAMES[: 4 + seed % 3], 2, seed, hands=False)
    if kind == "employee-of-the-month":
        return sim.employee_of_the_month(NAMES[: 3 + seed % 3], seed)
    if kind == "ftw":
        return sim.ftw_game(NAMES[: 2 + seed % 4], seed, hands=False)
    if kind == "senators":
        return sim.senators_game(NAMES[: 3 + seed % 3], seed, hands=False)
    return sim.ladies_gentlemen_game(NAMES[: 4 + seed % 3], seed, gossip=bool(seed % 2))


def put_in(rng: random.Random, events: list[dict[str, Any]]) -> dict[str, Any]:
    """A move of the game changed a little: another seat, a value from elsewhere, a card more or less."""
    body = copy.deepcopy(rng.choice(events))
    body.pop("seq")
    for key in [k for k in body if k != "type"]:
        if rng.random() < 0.35:
            pool = [e[key] for e in events if key in e]
            body[key] = copy.deepcopy(rng.choice(pool))
        if isinstance(body[key], list) and body[key] and rng.random() < 0.2:
            body[key] = body[key][:-1] if rng.random() < 0.5 else [*body[key], body[key][0]]
    return body


def searched() -> dict[str, dict[str, Any]]:
    from referee.games import GAMES
    from referee.record import RecordError, parse_event, write_record
    from referee.replay import start, step

    found: dict[str, tuple[int, str]] = {}
    for kind, game in GAMES.items():
        rng = random.Random(kind)
        for seed in range(TRIES_PER_GAME):
            header, events = simulated(kind, seed)
            folds = [start(header)]
            for event in events:
                folds.append(step(folds[-1], event))
            for _ in range(300):
                at = rng.randrange(len(events))
                try:
                    event = parse_event(header, {**put_in(rng, events), "seq": at + 1}, at + 1)
                except RecordError:
                    continue
                flag = step(folds[at], event).violation_at(at + 1)
                if flag is None or flag.audience is not None or flag.rule not in game.rules:
                    continue
                if flag.rule not in found or at < found[flag.rule][0]:
                    found[flag.rule] = (at, write_record(header, [*events[:at], event]))
    return {rule: {"record": record} for rule, (_, record) in found.items()}


def built() -> dict[str, dict[str, Any]]:
    """The rules the search does not reach, from the games' own tests."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from conftest import events as numbered, table
    from referee.record import write_record
    import test_employee_of_the_month as eotm
    import test_ftw as ftw
    import test_karriere_poker as kp
    import test_ladies_gentlemen as lg
    import test_senators as sen

    cases = {
        "kp.exchange.count": (kp.KP, [*kp.GAME_1, kp.deal(), kp.exchange(kp.ANNA, kp.DORA, count=1)]),
        "eotm.card.range": (table("employee-of-the-month", "Anna Ben Cem"), [eotm.START, eotm.bid(eotm.ANNA, "boss-11")]),
        "ftw.card.range": (table("ftw", "Anna Ben Cem"), [ftw.high(ftw.ANNA, 37)]),
        "sen.eliminated": (sen.SEN, [*[sen.ev("sell-senator", sen.CEM)] * 5, sen.ev("sell-senator", sen.CEM)]),
        "sen.senators.none": (sen.SEN, [sen.ev("adjust", sen.ANNA, senators=-6, reason="plague")]),
        "lg.bill.ratio": (lg.FIVE, [*lg.morning(1), *lg.EMIL_ALONE, lg.take(lg.ANNA, "team-0", "hat"), lg.take(lg.EMIL, "team-2", "fan", stars=3),
                                    lg.ev("give", lg.EMIL, card="fan", to=lg.BEN), lg.ev("bill", lg.BEN, card="fan", choice="pay"),
                                    lg.ev("bill", lg.BEN, card="hat", choice="return"), lg.ev("done", lg.BEN)]),
    }
    return {rule: {"record": write_record(header, numbered(header, *bodies))} for rule, (header, bodies) in cases.items()}


def after_off() -> dict[str, list[str]]:
    """rule id -> records under a house rule where this rule fires after the one off: the
    first case of each game's own list (`OFF_THEN_LATER` in its tests)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from conftest import events as numbered, house
    from referee.record import write_record
    import test_employee_of_the_month as eotm
    import test_ftw as ftw
    import test_karriere_poker as kp

    found: dict[str, list[str]] = {}
    for header, cases in ((kp.KP, kp.OFF_THEN_LATER), (eotm.TABLE, eotm.OFF_THEN_LATER), (ftw.TWO, ftw.OFF_THEN_LATER)):
        off, story, later, _ = cases[0]
        relaxed = house(header, off)
        found.setdefault(later, []).append(write_record(relaxed, numbered(relaxed, *story)))
    return found


def examples() -> dict[str, dict[str, Any]]:
    """rule id -> {"record": text, and for some "after_off": [texts]}, as committed."""
    loaded: dict[str, dict[str, Any]] = json.loads(FILE.read_text(encoding="utf-8"))
    return loaded


if __name__ == "__main__":
    sys.path.insert(0, str(TOP))
    made = {**searched(), **built()}
    for rule, records in after_off().items():
        made[rule]["after_off"] = records
    FILE.write_text(json.dumps(dict(sorted(made.items())), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(made)} rules, {FILE.stat().st_size // 1024} KiB")
