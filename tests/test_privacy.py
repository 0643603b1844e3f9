"""Noninterference, as a property: two tables that differ only in one seat's secret tell
every other reader exactly the same, whatever is logged, voided and read.

Each example plays one random sequence twice through the real app on a real SQLite file:
in table A the secret seat records one secret, in table B another (random, legal or not).
Every other move is the same in both, logged by the seat it belongs to (so flagged moves,
clashes, voids and the host's rulings are all in play). Another seat, a spectator and a member of
the game's group who holds no seat (membership never widens sight) read the game after the
moves: the JSON state and events, the long-poll, the answer to their own moves, and the
pages (table, history, a history step, scores, and the table's own screen, its board, with its
long-poll and the result image to share, SVG and PNG). Their two transcripts must be equal,
byte for byte once the game ids are named alike. Each property runs twice, half its
examples each: once with a host who plays no seat (trusted with everything), once with a
host who plays the observing seat (a host who plays is a player): then the host's phone
and token are readers too, and so are the answers to what the host logs (voids, the
table's events). Between the moves seats change phones: the host hands a seat on over the
API, frees it on the host page for a new phone to claim with the join code, or a seat
moves itself with its one-time code; a second seat reads too, and, where the host plays,
so does the last token made by a hand-over (the new phone may be the host's own: it is
blind to the seat's earlier secrets). The host does not reveal: that is the one act
that makes secrets public (tested on its own below).
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from referee.web import create_app
from test_api import Table, bearer

EXAMPLES = int(os.environ.get("PRIVACY_EXAMPLES", "16"))  # per game (half on PostgreSQL), half with a host who plays; each reads every page
RAN: Counter[str] = Counter()  # probe sequences run per game, all of them equal (else the test failed)
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

CSRF = re.compile(r'(X-CSRFToken": "|name="csrf_token" value=")[^"]*')
READER = re.compile(r'(data-reader=")[0-9a-f]*')  # names the token that reads (its offline copy's key): random per twin
Step = tuple[str, Any]
STOPPED_CLOCK = lambda: "2026-11-26T20:00:00+00:00"  # noqa: E731
TURN = -1  # a move by whoever's turn it is  # ("secret", None) | ("move", (seat, body)) | ("void", k) | ("read", None)


class Twins:
    """The same table twice (A and B), every seat claimed; one observing seat and a spectator."""

    def __init__(self, app: Flask, header: dict[str, Any], observer: int, host_plays: bool = False) -> None:
        self.host_client = app.test_client()
        self.host_plays = host_plays
        header = {**header, "host_seat": observer} if host_plays else header
        self.app = app
        self.ids: list[str] = []
        self.hosts: list[str] = []
        self.codes: list[str] = []
        self.seats: list[dict[int, str]] = []
        for _ in "AB":
            made = self.host_client.post("/api/games", json=header).json
            self.ids.append(made["id"])
            self.hosts.append(made["host_token"])
            self.codes.append(made["join_code"])
            self.host_client.set_cookie("referee_token", made["host_token"], path=f"/g/{made['id']}")
            self.seats.append({s: self.host_client.post(f"/api/games/{made['id']}/seats/{s}", json={}, headers=bearer(made["host_token"])).json["token"]
                               for s in range(len(header["seats"]))})
        self.observer = observer
        self.other = observer  # a second seat that reads, set by `run` (neither the secret's nor the observer's)
        self.readers = {"seat": app.test_client(), "other": app.test_client(), "spectator": app.test_client(), "member": self.member(app, header)}
        self.made: list[str | None] = [None, None]  # the last token a host who plays made for a seat (a phone of the host's)
        if host_plays:
            self.readers["host"] = app.test_client()
            self.readers["made"] = app.test_client()
        self.transcripts: list[list[str]] = [[], []]
        self.seq = 0

    def member(self, app: Flask, header: dict[str, Any]) -> FlaskClient:
        """A phone of the group both twins are games of: Zoe, a player of it seated at neither."""
        groups = app.extensions["referee"].groups
        group_id = groups.create("Runde")
        for game_id in self.ids:
            groups.seat(group_id, game_id, list(header["seats"]))
        phone = app.test_client()
        phone.get(f"/groups/join/{groups.group(group_id)['code']}")
        assert phone.post(f"/groups/{group_id}/me", data={"name": "Zoe"}).status_code == 302
        return phone

    def said(self, twin: int, what: str, text: str) -> None:
        # The game id differs between the twins, and the CSRF token carries the second it was signed.
        text = READER.sub(r"\1READER", CSRF.sub(r"\1CSRF", text.replace(self.ids[twin], "GAME")))
        self.transcripts[twin].append(f"{what}\n{text}")

    def log(self, seat: int | None, bodies: tuple[dict[str, Any], dict[str, Any]]) -> None:
        """One move in both tables, by its seat (None: the host); the observer's answers are kept."""
        for twin in (0, 1):
            token = self.hosts[twin] if seat is None else self.seats[twin][seat]
            answer = self.host_client.post(f"/api/games/{self.ids[twin]}/events", json=bodies[twin], headers=bearer(token))
            assert answer.status_code in (201, 400), answer.get_data(as_text=True)
            if seat == self.observer or (seat is None and self.host_plays):
                self.said(twin, "answer", f"{answer.status_code} {answer.get_data(as_text=True)}")
        self.seq = self.host_client.get(f"/api/games/{self.ids[0]}", headers=bearer(self.hosts[0])).json["seq"]

    def turn(self) -> int:
        view = self.host_client.get(f"/api/games/{self.ids[0]}", headers=bearer(self.hosts[0])).json
        names = view["seats"]
        waiting = view["view"].get("turn") or (view["view"].get("to_act") or [names[0]])[0]
        return int(names.index(waiting))

    def read(self, pages: bool) -> None:
        for twin, game_id in enumerate(self.ids):
            for role, client in self.readers.items():
                # The phone's token as it is now: seats change phones between reads.
                token = {"seat": self.seats[twin][self.observer], "other": self.seats[twin][self.other], "host": self.hosts[twin],
                         "made": self.made[twin]}.get(role)
                if role == "made" and token is None:
                    continue
                if token is not None:
                    client.set_cookie("referee_token", token, path=f"/g/{game_id}")
                headers = bearer(token) if token is not None else {}
                paths = [f"/api/games/{game_id}", f"/api/games/{game_id}/events?after=0", f"/api/games/{game_id}/events?after={self.seq}&wait=0.01"]
                if pages:
                    paths += [f"/g/{game_id}", f"/g/{game_id}/history", f"/g/{game_id}/history?at={max(self.seq - 1, 0)}", f"/g/{game_id}/result",
                              f"/g/{game_id}/live?after={self.seq}", f"/api/games/{game_id}/record",
                              f"/g/{game_id}/board", f"/g/{game_id}/board/live?after={self.seq}", f"/g/{game_id}/result.svg", f"/g/{game_id}/result.png"]
                for path in paths:
                    answer = client.get(path, headers=headers if path.startswith("/api/") else {})
                    said = answer.get_data().hex() if answer.mimetype == "image/png" else answer.get_data(as_text=True)  # the PNG byte for byte
                    self.said(twin, f"{role} {path.replace(game_id, 'GAME')}", f"{answer.status_code} {said}")

    def change_phones(self, kind: str, seat: int) -> None:
        """A seat changes phones in both twins: the host hands it on (`handover`, over the
        API), frees it and a new phone claims it with the join code (`free`, on the pages),
        or its own phone moves it with a one-time code (`moved`). Told to the observer:
        whether it worked (the tokens are random)."""
        for twin, game_id in enumerate(self.ids):
            if kind == "handover" or (kind == "free" and self.host_plays and seat == self.observer):  # the host's own seat: its second phone
                answer = self.host_client.post(f"/api/games/{game_id}/seats/{seat}", json={}, headers=bearer(self.hosts[twin]))
                status, token = answer.status_code, answer.json["token"]
            elif kind == "free":
                assert self.host_client.post(f"/g/{game_id}/host/release/{seat}").status_code == 302
                phone = self.app.test_client()
                status = phone.post(f"/g/{game_id}/seats/{seat}", data={"code": self.codes[twin]}).status_code
                token = phone.get_cookie("referee_token", path=f"/g/{game_id}").value  # type: ignore[union-attr]
            else:
                code = self.host_client.post(f"/api/games/{game_id}/move-code", headers=bearer(self.seats[twin][seat])).json["move_code"]
                answer = self.host_client.post(f"/api/games/{game_id}/seats/{seat}", json={"move_code": code})
                status, token = answer.status_code, answer.json["token"]
            if self.host_plays and (kind != "moved" or self.seats[twin][seat] == self.made[twin]):
                self.made[twin] = token  # the new phone may be the host's own: it reads too
            self.seats[twin][seat] = token
            self.said(twin, f"{kind} {seat}", str(status))

    def run(self, steps: list[Step], secret_seat: int, secrets: tuple[dict[str, Any], dict[str, Any]]) -> None:
        self.other = max(set(self.seats[0]) - {secret_seat, self.observer})
        changing = (secret_seat, self.other, self.observer)  # the seats that change phones, the secret's most often
        for kind, value in steps:
            if kind == "secret":
                self.log(secret_seat, secrets)
            elif kind == "move":
                seat, body = value
                if seat == TURN:  # whoever the table waits for (the same in both twins: it is public)
                    seat = self.turn()
                    body = {**body, "seat": seat}
                self.log(seat, (body, body))
            elif kind == "void" and self.seq:
                self.log(None, ({"type": "void", "target": 1 + value % self.seq, "reason": "probe"},) * 2)  # type: ignore[arg-type]
            elif kind == "rule" and self.seq:  # the host lets a move stand: public, judged on public information
                self.log(None, ({"type": "ruling", "target": 1 + value % self.seq, "reason": "probe"},) * 2)  # type: ignore[arg-type]
            elif kind in ("handover", "free", "moved"):
                self.change_phones(kind, changing[value % 4 % 3])
            elif kind == "read":
                self.read(pages=True)
            self.read(pages=False)
        self.read(pages=True)
        for a, b in zip(*self.transcripts, strict=True):
            if a != b:
                diff = "\n".join(difflib.unified_diff(a.splitlines(), b.splitlines(), "A", "B", lineterm="", n=2))
                pytest.fail(f"a reader was told something that depends on another seat's secret:\n{a.splitlines()[0]}\n{diff[:4000]}")


def probe(game: str, steps: list[Step], secret_seat: int, secrets: tuple[dict[str, Any], dict[str, Any]], header: dict[str, Any], observer: int,
          new_database: Callable[[str], str], host_plays: bool) -> None:
    app = create_app({"TESTING": True, "DATABASE": new_database(f"{game}-{RAN[game]}"), "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "LONG_POLL_SECONDS": 0.01})
    # The server stamps each event with the time it was logged: the twins' moves are logged
    # moments apart, so the clock stands still here (a time is public, never a secret).
    with patch("referee.web.api.now", STOPPED_CLOCK), patch("referee.web.pages.now", STOPPED_CLOCK):
        Twins(app, {"game": game, **header}, observer, host_plays).run(steps, secret_seat, secrets)
    RAN[f"{game}, the host playing the observer's seat" if host_plays else game] += 1  # every sequence so far told the two twins' readers the same: kept for the record
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "noninterference.json").write_text(json.dumps(dict(RAN), sort_keys=True) + "\n", encoding="utf-8")


def steps_of(moves: st.SearchStrategy[tuple[int, dict[str, Any]]]) -> st.SearchStrategy[list[Step]]:
    """A random mix of the secret (logged again and again: probing), moves, voids and reads."""
    step = st.one_of(
        st.tuples(st.just("secret"), st.none()),
        st.tuples(st.just("move"), moves),
        st.tuples(st.just("move"), moves),
        st.tuples(st.just("move"), moves),
        st.tuples(st.just("void"), st.integers(0, 60)),
        st.tuples(st.just("rule"), st.integers(0, 60)),
        st.tuples(st.sampled_from(["handover", "free", "moved"]), st.integers(0, 60)),
        st.tuples(st.just("read"), st.none()),
    )
    return st.lists(step, min_size=3, max_size=14).map(lambda steps: [("secret", None), *steps])


HOST_PLAYS = pytest.mark.parametrize("host_plays", [False, True], ids=["host-referee", "host-plays"])
SLOW = settings(deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate), suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
PROPERTIES: dict[str, Callable[[int], Any]] = {}  # a game's property test, made for a number of probe sequences


def noninterference(**strategies: st.SearchStrategy[Any]) -> Callable[[Callable[..., None]], Any]:
    """A game's noninterference property over random sequences drawn from `strategies`: here
    with EXAMPLES sequences, half with a host who plays; test_privacy_on_postgresql makes it
    again from PROPERTIES with fewer (the pages and the fold are the same code there; only
    the store differs)."""
    def decorate(body: Callable[..., None]) -> Any:
        def property_test(examples: int) -> Any:
            return HOST_PLAYS(settings(SLOW, max_examples=(examples + 1) // 2)(given(**strategies)(body)))
        PROPERTIES[body.__name__] = property_test
        return property_test(EXAMPLES)
    return decorate


# --- Karriere Poker: Anna's recorded hand ------------------------------------------------------

KP_VALUES = [1, 2, 3, 4, 5, "J"]  # few values, so moves often touch the secret hand's cards
KP_DECK = [*(v for v in range(1, 14) for _ in range(4)), "J", "J"]
kp_hand = st.lists(st.sampled_from([*KP_DECK[:24], "J", "J"]), min_size=12, max_size=14).map(lambda cards: {"type": "hand", "seat": 0, "cards": cards})
kp_seat = st.sampled_from([TURN, TURN, TURN, 0, 1, 2, 3])
kp_moves = st.one_of(
    st.tuples(kp_seat, st.builds(lambda v, k: {"type": "play", "cards": [v] * k}, st.sampled_from(KP_VALUES), st.integers(1, 2))),
    st.tuples(kp_seat, st.just({"type": "pass"})),
    st.tuples(st.just(1), kp_hand.map(lambda hand: {**hand, "seat": 1})),
).map(lambda pair: (pair[0], {**pair[1], "seat": pair[0]}))


@noninterference(steps=steps_of(kp_moves), secrets=st.tuples(kp_hand, kp_hand))
def test_karriere_poker_tells_nobody_else_of_a_recorded_hand(new_database: Callable[[str], str], steps: list[Step], secrets: Any, host_plays: bool) -> None:
    probe("karriere-poker", [("move", (None, {"type": "deal", "dealer": 3})), *steps], 0, secrets,
          {"seats": ["Anna", "Ben", "Cem", "Dora"]}, 1, new_database, host_plays)


# --- FTW?!: Anna's recorded hand ---------------------------------------------------------------

ftw_card = st.integers(1, 16)  # a small part of the deck, so moves often name the secret hand's cards
ftw_hand = st.lists(ftw_card, min_size=11, max_size=12, unique=True).map(lambda cards: {"type": "hand", "seat": 0, "cards": cards})
ftw_seat = st.sampled_from([TURN, TURN, TURN, 0, 1, 2])
ftw_moves = st.one_of(
    st.tuples(ftw_seat, st.builds(lambda c: {"type": "high", "card": c}, ftw_card)),
    st.tuples(ftw_seat, st.builds(lambda c, t: {"type": "low", "card": c, "take": t}, ftw_card, ftw_card)),
    st.tuples(ftw_seat, st.builds(lambda c, h: {"type": "boost", "card": c, "helpers": [h]}, ftw_card, ftw_card)),
    st.tuples(st.integers(0, 2), st.builds(lambda cards: {"type": "reveal", "cards": cards}, st.lists(ftw_card, max_size=3, unique=True))),
    st.tuples(st.just(1), ftw_hand),
).map(lambda pair: (pair[0], {**pair[1], "seat": pair[0]}))


@noninterference(steps=steps_of(ftw_moves), secrets=st.tuples(ftw_hand, ftw_hand))
def test_ftw_tells_nobody_else_of_a_recorded_hand(new_database: Callable[[str], str], steps: list[Step], secrets: Any, host_plays: bool) -> None:
    probe("ftw", steps, 0, secrets, {"seats": ["Anna", "Ben", "Cem"]}, 1, new_database, host_plays)


# --- Senators: Anna's starting cards -----------------------------------------------------------

SEN_CARDS = [f"{colour}-{value}" for colour in ("red", "blue") for value in range(1, 5)]  # few: moves often name secret cards
sen_card = st.sampled_from(SEN_CARDS)
sen_hand = st.lists(sen_card, min_size=3, max_size=3).map(lambda cards: {"type": "hand", "seat": 0, "cards": cards})
sen_moves = st.one_of(
    st.tuples(st.none(), st.sampled_from([{"type": "event", "kind": "other"}, {"type": "event", "kind": "war"}])),
    st.tuples(st.sampled_from([TURN, TURN, 0]), st.builds(lambda cards: {"type": "auction", "cards": cards}, st.lists(sen_card, min_size=1, max_size=3))),
    st.tuples(st.integers(0, 2), st.builds(lambda c, p: {"type": "bid", "bids": {c: p}}, sen_card, st.integers(1, 30))),
    st.tuples(st.integers(0, 2), st.builds(lambda c, ch: {"type": "decide", "card": c, "choice": ch}, sen_card, st.sampled_from(["sell", "buy"]))),
    st.tuples(st.sampled_from([TURN, 0, 1]), st.sampled_from([{"type": "cash-in"}, {"type": "blackmail"}, {"type": "done"}, {"type": "sell-senator"}])),
    st.tuples(st.integers(0, 2), st.builds(lambda ch: {"type": "join", "choice": ch}, st.sampled_from(["pay", "pass"]))),
    st.tuples(st.sampled_from([0, 0, 1, TURN]), st.builds(lambda cards: {"type": "sell-set", "cards": cards}, st.lists(sen_card, min_size=3, max_size=3, unique=True))),
    st.tuples(st.just(1), sen_hand.map(lambda hand: {**hand, "seat": 1})),
).map(lambda pair: (pair[0], pair[1] if pair[0] is None else {**pair[1], "seat": pair[0]}))


@noninterference(steps=steps_of(sen_moves), secrets=st.tuples(sen_hand, sen_hand))
def test_senators_tells_nobody_else_of_recorded_starting_cards(new_database: Callable[[str], str], steps: list[Step], secrets: Any, host_plays: bool) -> None:
    probe("senators", steps, 0, secrets, {"seats": ["Anna", "Ben", "Cem"]}, 1, new_database, host_plays)


# --- Ladies & Gentlemen: the income of Ben (Anna's gentleman) ----------------------------------

lg_card = st.builds(lambda n, price: {"name": f"gown-{n}", "kind": "wardrobe", "price": price, "stars": 1}, st.integers(1, 4), st.sampled_from([100, 400, 700]))
lg_income = st.sampled_from([0, 100, 300, 900]).map(lambda amount: {"type": "income", "seat": 1, "amount": amount, "reason": "market"})
# Day 1 up to the afternoon's takes: Anna's gown costs £700, more than Ben's £500 unless he earned income.
LG_SETUP: list[Step] = [("move", (None, {"type": "day", "n": 1})), ("move", (1, {"type": "number", "seat": 1, "number": 1})),
                        ("move", (3, {"type": "number", "seat": 3, "number": 2})),
                        ("move", (0, {"type": "visit", "seat": 0, "boutique": "team-0"})), ("move", (2, {"type": "visit", "seat": 2, "boutique": "team-2"})),
                        ("move", (0, {"type": "take", "seat": 0, "boutique": "team-0", "card": {"name": "gown-1", "kind": "wardrobe", "price": 700, "stars": 2}})),
                        ("move", (2, {"type": "take", "seat": 2, "boutique": "team-2", "card": {"name": "gown-2", "kind": "wardrobe", "price": 400, "stars": 1}}))]
lg_moves = st.one_of(
    st.tuples(st.sampled_from([0, 2]), st.builds(lambda b: {"type": "visit", "boutique": b}, st.sampled_from(["team-0", "team-2"]))),
    st.tuples(st.sampled_from([0, 2]), st.builds(lambda b, card: {"type": "take", "boutique": b, "card": card}, st.sampled_from(["team-0", "team-2"]), lg_card)),
    st.tuples(st.sampled_from([1, 1, 3]), st.builds(lambda n, ch: {"type": "bill", "card": f"gown-{n}", "choice": ch}, st.integers(1, 3),
                                                    st.sampled_from(["pay", "pay", "defer", "return"]))),
    st.tuples(st.sampled_from([1, 3]), st.just({"type": "done"})),
    st.tuples(st.just(3), st.builds(lambda a: {"type": "income", "amount": a, "reason": "contract"}, st.integers(0, 900))),
).map(lambda pair: (pair[0], {**pair[1], "seat": pair[0]}))


@noninterference(steps=steps_of(lg_moves), secrets=st.tuples(lg_income, lg_income))
def test_ladies_and_gentlemen_tell_nobody_outside_the_team_of_its_money(new_database: Callable[[str], str], steps: list[Step], secrets: Any, host_plays: bool) -> None:
    probe("ladies-and-gentlemen", [*LG_SETUP, *steps], 1, secrets, {"seats": ["Anna", "Ben", "Cem", "Dora"]}, 2, new_database, host_plays)


# --- the reveal, and each way of probing the issue named -----------------------------------------


@pytest.fixture
def twins_app(database: str) -> Flask:
    return create_app({"TESTING": True, "DATABASE": database, "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})


def two_tables(client: FlaskClient, body: dict[str, Any]) -> tuple[Table, Table]:
    return Table(client, body, claim=tuple(range(len(body["seats"])))), Table(client, body, claim=tuple(range(len(body["seats"]))))


def answers(table: Table, seat: int, bodies: list[dict[str, Any]]) -> list[Any]:
    """What `seat` is told when it logs each body and voids it again (a probe)."""
    told = []
    for body in bodies:
        answer = table.log(body, table.seats[seat])
        told.append((answer.status_code, answer.json["violation"]))
        table.log({"type": "void", "target": answer.json["seq"], "reason": "probe"}, table.seats[seat])
    return told


def test_probing_with_hands_tells_the_same_whatever_another_seat_holds(twins_app: Flask) -> None:
    client = twins_app.test_client()
    ftw = {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}
    a, b = two_tables(client, ftw)
    a.log({"type": "hand", "seat": 0, "cards": list(range(1, 13))}, a.seats[0])
    b.log({"type": "hand", "seat": 0, "cards": list(range(13, 25))}, b.seats[0])
    probes = [{"type": "hand", "seat": 1, "cards": [card, *range(25, 36)]} for card in range(1, 25)]  # one card at a time
    assert answers(a, 1, probes) == answers(b, 1, probes)
    assert all(told == (201, None) for told in answers(a, 1, probes[:3]))  # nothing flags: not even "already logged"

    sen = {"game": "senators", "seats": ["Anna", "Ben", "Cem"]}
    a, b = two_tables(client, sen)
    a.log({"type": "hand", "seat": 0, "cards": ["red-7", "blue-1", "green-2"]}, a.seats[0])
    b.log({"type": "hand", "seat": 0, "cards": ["red-8", "blue-3", "green-4"]}, b.seats[0])
    probes = [{"type": "hand", "seat": 1, "cards": ["red-7", "purple-1", "purple-2"]}, {"type": "hand", "seat": 1, "cards": ["red-8", "purple-1", "purple-2"]}]
    assert answers(a, 1, probes) == answers(b, 1, probes) == [(201, None), (201, None)]

    kp = {"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"]}
    a, b = two_tables(client, kp)
    for table, jokers in ((a, ["J", "J"]), (b, [])):
        table.log({"type": "deal", "dealer": 3})
        table.log({"type": "hand", "seat": 0, "cards": [*jokers, *[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13][: 13 - len(jokers)]]}, table.seats[0])
    probes = [{"type": "hand", "seat": 1, "cards": ["J", "J", *range(1, 12)]}]  # with Anna's two jokers, more than the deck has
    assert answers(a, 1, probes) == answers(b, 1, probes) == [(201, None)]
    # Left standing, the host sees the clash at once, with the reason; Ben does not.
    a.log(probes[0], a.seats[1])
    assert client.get(f"/api/games/{a.id}", headers=bearer(a.seats[1])).json["clashes"] == []
    clashes = client.get(f"/api/games/{a.id}", headers=bearer(a.host)).json["clashes"]
    assert clashes and clashes[0]["rule"] == "kp.hand.deal" and "the deck has only two jokers" in clashes[0]["message"]


def test_an_auction_of_a_card_in_a_recorded_hand_is_a_clash_for_that_seat_and_the_host_only(twins_app: Flask) -> None:
    client = twins_app.test_client()
    table = Table(client, {"game": "senators", "seats": ["Anna", "Ben", "Cem"]}, claim=(0, 1, 2))
    table.log({"type": "hand", "seat": 1, "cards": ["red-7", "blue-1", "green-2"]}, table.seats[1])
    table.log({"type": "event", "kind": "other"})
    assert table.log({"type": "auction", "seat": 0, "cards": ["red-7"]}, table.seats[0]).json["violation"] is None
    for reader, sees in ((table.host, True), (table.seats[1], True), (table.seats[0], False), (table.seats[2], False), (None, False)):
        text = client.get(f"/api/games/{table.id}", headers=bearer(reader) if reader else {}).get_data(as_text=True)
        assert ("sen.card.unknown" in text) == sees, reader
        page_client = twins_app.test_client()
        if reader:
            page_client.set_cookie("referee_token", reader, path=f"/g/{table.id}")
        assert ("sen.card.unknown" in page_client.get(f"/g/{table.id}").get_data(as_text=True)) == sees


def test_an_ending_logged_by_a_seat_reveals_nothing_until_the_host_confirms(twins_app: Flask) -> None:
    client = twins_app.test_client()
    table = Table(client, {"game": "senators", "seats": ["Anna", "Ben", "Cem"]}, claim=(0, 1, 2))
    table.log({"type": "hand", "seat": 0, "cards": ["red-7", "blue-1", "green-2"]}, table.seats[0])
    for turn in range(4):  # four wars, each turn with a blackmail: the 4th war ends the game
        assert table.log({"type": "event", "kind": "war"}, table.seats[1]).json["violation"] is None
        if turn < 3:
            table.log({"type": "blackmail", "seat": turn % 3}, table.seats[turn % 3])
    spectator = client.get(f"/api/games/{table.id}").json
    assert spectator["finished"] and not spectator["revealed"]
    assert spectator["ranking"] is None and spectator["result"] is None and "money" not in spectator["view"]
    page = twins_app.test_client().get(f"/g/{table.id}").get_data(as_text=True)
    assert "Game over? The host confirms the end" in page and "red-7" not in page
    assert twins_app.test_client().get(f"/g/{table.id}/history?at={spectator['seq']}").get_data(as_text=True).count("red-7") == 0
    # Ben voids the war: the game goes on, and nothing was ever revealed.
    last = spectator["seq"]
    table.log({"type": "void", "target": last, "reason": "it was a plague"}, table.seats[1])
    assert "red-7" not in client.get(f"/api/games/{table.id}").get_data(as_text=True)
    assert client.post(f"/api/games/{table.id}/reveal", headers=bearer(table.host)).status_code == 409  # not over
    assert client.post(f"/api/games/{table.id}/reveal", headers=bearer(table.seats[0])).status_code == 403
    # The 4th war again; the host confirms: every secret is shown, for good.
    table.log({"type": "event", "kind": "war"}, table.seats[1])
    revealed = client.post(f"/api/games/{table.id}/reveal", headers=bearer(table.host))
    assert revealed.status_code == 200
    assert "red-7" in client.get(f"/api/games/{table.id}").get_data(as_text=True)
    table.log({"type": "void", "target": revealed.json["revealed_at"], "reason": "oops"})
    after_void = client.get(f"/api/games/{table.id}").json
    assert not after_void["finished"] and after_void["revealed"] and "red-7" in json.dumps(after_void["view"]) + json.dumps(client.get(f"/api/games/{table.id}/events").json)


def test_history_shows_each_step_as_the_viewer_saw_it_then(twins_app: Flask) -> None:
    client = twins_app.test_client()
    table = Table(client, {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}, claim=(0, 1, 2))
    table.log({"type": "hand", "seat": 0, "cards": list(range(1, 13))}, table.seats[0])
    table.log({"type": "high", "seat": 0, "card": 12}, table.seats[0])
    table.log({"type": "end", "reason": "time"})  # the host ends it over the API: no reveal yet
    table.log({"type": "void", "target": 3, "reason": "not yet"})
    spectator = twins_app.test_client()
    for at in range(0, 5):
        assert "[1, 2, 3" not in spectator.get(f"/g/{table.id}/history?at={at}").get_data(as_text=True)
        assert "Anna&#39;s hand" not in spectator.get(f"/g/{table.id}/history?at={at}").get_data(as_text=True)
    assert "withheld" in json.dumps(client.get(f"/api/games/{table.id}/events").json["events"][0])


def test_a_crafted_snapshot_never_runs_and_an_edited_one_is_never_used(tmp_path: Path) -> None:
    import pickle
    import sqlite3

    from referee.cli import main as cli
    from referee.record import read_record
    from referee.store import Store
    from referee.tables import FINGERPRINT, Tables
    from click.testing import CliRunner

    path = tmp_path / "referee.sqlite3"
    record = read_record((Path(__file__).resolve().parent.parent / "events" / "karriere-poker-8-players.jsonl").read_text(encoding="utf-8"))
    tables = Tables(Store(path), snapshot_every=50)
    game_id = tables.import_record(record)
    honest = tables.fold(game_id)
    assert Store(path).snapshots(), "snapshots are kept"
    assert CliRunner().invoke(cli, ["verify", "--db", str(path)]).exit_code == 0

    class Boom:
        def __reduce__(self) -> Any:
            return (Path(tmp_path / "pwned").write_text, ("ran",))

    with sqlite3.connect(path) as db:  # whoever can write the file plants a pickle, then edits a sealed fold
        seq = db.execute("SELECT MAX(seq) FROM snapshots").fetchone()[0]
        db.execute("UPDATE snapshots SET fold = ? WHERE seq = ?", [pickle.dumps(Boom()), seq])
        first = db.execute("SELECT MIN(seq) FROM snapshots").fetchone()[0]
        blob = db.execute("SELECT fold FROM snapshots WHERE seq = ?", [first]).fetchone()[0]
        edited = blob[:32] + blob[32:].replace(b'"top_value":6', b'"top_value":9', 1)  # a changed fold, the old seal
        assert edited != blob
        db.execute("UPDATE snapshots SET fold = ? WHERE seq = ?", [edited, first])
    verified = CliRunner().invoke(cli, ["verify", "--db", str(path)])
    assert verified.exit_code == 1
    for broken in (seq, first):
        assert f"game {game_id} seq {broken}: the snapshot fails its seal" in verified.output
    cold = Tables(Store(path), snapshot_every=50).fold(game_id)  # neither is used: the game is replayed from its log
    assert not (tmp_path / "pwned").exists()
    assert cold.state == honest.state and cold.violations == honest.violations
    # The replay kept fresh, sealed snapshots in their place.
    assert CliRunner().invoke(cli, ["verify", "--db", str(path)]).exit_code == 0
    assert FINGERPRINT in {row[3] for row in Store(path).snapshots()}


def test_a_join_code_that_is_not_text_is_a_400_and_counts_as_a_wrong_try(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "j.sqlite3"), "SECRET_KEY": "t", "WTF_CSRF_ENABLED": False, "JOIN_RATE_LIMIT": "2 per minute"})
    client = app.test_client()
    body = b'{"code": "\\ud800AB"}'
    assert client.post("/api/join", data=body, content_type="application/json").status_code == 400
    assert client.post("/api/join", data=body, content_type="application/json").status_code == 400
    assert client.post("/api/join", json={"code": "ABCDEF"}).status_code == 429  # both tries counted


def test_the_language_switch_goes_back_only_to_this_sites_own_paths(client: FlaskClient) -> None:
    for referrer in ("http://localhost//evil.example/x", "http://localhost/\\evil.example", "http://evil.example/g/1", "javascript:alert(1)"):
        answer = client.get("/lang/de", headers={"Referer": referrer})
        assert answer.status_code == 302 and answer.headers["Location"] == "/", referrer
    assert client.get("/lang/de", headers={"Referer": "http://localhost/rules/ftw?rule=ftw.turn"}).headers["Location"] == "/rules/ftw?rule=ftw.turn"


def test_the_home_page_lists_only_this_browsers_games(client: FlaskClient, app: Flask) -> None:
    mine = client.post("/new", data={"game": "ftw", "seats": "Anna\nBen\nCem"})
    assert mine.status_code == 302
    other = app.test_client()
    theirs = Table(other, {"game": "senators", "seats": ["Xaver", "Yvonne", "Zoe"], "title": "Zoe's secret night"}, claim=())
    assert "Anna, Ben, Cem" in client.get("/").get_data(as_text=True)
    home = other.get("/").get_data(as_text=True)
    assert "Zoe" not in home and "Anna" not in home and theirs.id not in home


def test_verify_names_a_missing_head_and_says_which_receipt_matched(tmp_path: Path) -> None:
    import sqlite3

    from click.testing import CliRunner

    from referee.cli import main as cli
    from referee.store import Store

    path = tmp_path / "referee.sqlite3"
    store = Store(path)
    game_id = one_ftw_game(store)
    seq, head = store.head(game_id)
    matched = CliRunner().invoke(cli, ["verify", "--db", str(path), "--head", f"{game_id}:{head}"])
    assert matched.exit_code == 0 and f"receipt matched: game {game_id} seq {seq} {head}" in matched.output
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET head_seq = NULL")
    broken = CliRunner().invoke(cli, ["verify", "--db", str(path), "--head", f"{game_id}:{head}"])
    assert broken.exit_code == 1 and f"game {game_id}: its head is missing" in broken.output
    assert "Traceback" not in broken.output


def one_ftw_game(store: Any) -> str:
    from referee.record import parse_header

    game_id: str = store.create_game(parse_header({"format": "table-record/1", "game": "ftw", "seats": ["A", "B"], "options": {}}, None))
    store.append(game_id, {"type": "high", "seat": 0, "card": 3})
    return game_id


def test_every_phone_is_a_witness_the_witness_chain_changes_when_the_log_is_rewritten(tmp_path: Path) -> None:
    import sqlite3

    from referee.store import Store, chain_hash
    from referee.tables import Tables

    path = tmp_path / "referee.sqlite3"
    tables = Tables(Store(path))
    game_id = one_ftw_game(tables.store)
    tables.append(game_id, {"type": "high", "seat": 1, "card": 5})
    kept = tables.witness(game_id, 2)
    with sqlite3.connect(path) as db:  # a consistent rewrite of the whole chain: verify cannot tell
        db.execute("DROP TRIGGER events_append_only_update")
        root = db.execute("SELECT hash FROM games").fetchone()[0]
        line1 = '{"seq":1,"type":"high","seat":0,"card":4}'
        line2 = db.execute("SELECT body FROM events WHERE seq = 2").fetchone()[0]
        h1 = chain_hash(root, line1)
        h2 = chain_hash(h1, line2)
        db.execute("UPDATE events SET body = ?, hash = ? WHERE seq = 1", [line1, h1])
        db.execute("UPDATE events SET hash = ? WHERE seq = 2", [h2])
        db.execute("UPDATE games SET head_hash = ?", [h2])
    assert Store(path).verify() == []
    assert tables.witness(game_id, 2) != kept  # the phone that kept the witness of event 2 sees it
    assert Tables(Store(path)).witness(game_id, 2) != kept


def test_a_seat_is_told_its_own_clash_as_its_own_records_show_it(twins_app: Flask) -> None:
    # Found by the property above: Ben lays 16, missing from his recorded hand. In table A
    # Anna's recorded hand holds 16 too; the whole truth then names her hand first. Ben must
    # be told only what his own hand shows, the same in both tables.
    client = twins_app.test_client()
    a, b = two_tables(client, {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]})
    for table, anna in ((a, [16, *range(1, 12)]), (b, [*range(1, 13)])):
        table.log({"type": "hand", "seat": 0, "cards": anna}, table.seats[0])
        table.log({"type": "hand", "seat": 1, "cards": list(range(20, 32))}, table.seats[1])
        table.log({"type": "high", "seat": 0, "card": 2}, table.seats[0])
        assert table.log({"type": "high", "seat": 1, "card": 16}, table.seats[1]).json["violation"] is None
    told = [client.get(f"/api/games/{table.id}", headers=bearer(table.seats[1])).json["clashes"] for table in (a, b)]
    assert told[0] == told[1] == [{"seq": 4, "rule": "ftw.hand.cards", "message": "Ben played 16, which is not in Ben's hand."}]
    host_a = client.get(f"/api/games/{a.id}", headers=bearer(a.host)).json["clashes"]
    assert host_a == [{"seq": 4, "rule": "ftw.card.seen", "message": "Ben cannot hold card 16: it is in Anna's hand."}]
