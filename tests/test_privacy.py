"""Noninterference, as a property: two tables that differ only in one seat's secret tell
every other reader exactly the same, whatever is logged, voided and read.

Each example plays one random sequence twice through the real app on a real SQLite file:
in table A the secret seat records one secret, in table B another (random, legal or not).
Every other move is the same in both, logged by the seat it belongs to (so flagged moves,
clashes and voids are all in play). Another seat and a spectator read the game after the
moves: the JSON state and events, the long-poll, the answer to their own moves, and the
pages (table, history, a history step, scores). Their two transcripts must be equal,
byte for byte once the game ids are named alike. The host, who sees everything, does
not reveal: that is the one act that makes secrets public (tested on its own below).
"""

from __future__ import annotations

import difflib
import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from referee.web import create_app

EXAMPLES = int(os.environ.get("PRIVACY_EXAMPLES", "25"))
RAN: Counter[str] = Counter()  # probe sequences run per game, all of them equal (else the test failed)
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

CSRF = re.compile(r'(X-CSRFToken": "|name="csrf_token" value=")[^"]*')
Step = tuple[str, Any]
TURN = -1  # a move by whoever's turn it is  # ("secret", None) | ("move", (seat, body)) | ("void", k) | ("read", None)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Twins:
    """The same table twice (A and B), every seat claimed; one observing seat and a spectator."""

    def __init__(self, app: Flask, header: dict[str, Any], observer: int) -> None:
        self.host_client = app.test_client()
        self.ids: list[str] = []
        self.hosts: list[str] = []
        self.seats: list[dict[int, str]] = []
        for _ in "AB":
            made = self.host_client.post("/api/games", json=header).json
            self.ids.append(made["id"])
            self.hosts.append(made["host_token"])
            self.seats.append({s: self.host_client.post(f"/api/games/{made['id']}/seats/{s}", json={}, headers=bearer(made["host_token"])).json["token"]
                               for s in range(len(header["seats"]))})
        self.observer = observer
        self.readers = {"seat": app.test_client(), "spectator": app.test_client()}
        for twin, game_id in enumerate(self.ids):
            self.readers["seat"].set_cookie("referee_token", self.seats[twin][observer], path=f"/g/{game_id}")
        self.transcripts: list[list[str]] = [[], []]
        self.seq = 0

    def said(self, twin: int, what: str, text: str) -> None:
        # The game id differs between the twins, and the CSRF token carries the second it was signed.
        text = CSRF.sub(r"\1CSRF", text.replace(self.ids[twin], "GAME"))
        self.transcripts[twin].append(f"{what}\n{text}")

    def log(self, seat: int | None, bodies: tuple[dict[str, Any], dict[str, Any]]) -> None:
        """One move in both tables, by its seat (None: the host); the observer's answers are kept."""
        for twin in (0, 1):
            token = self.hosts[twin] if seat is None else self.seats[twin][seat]
            answer = self.host_client.post(f"/api/games/{self.ids[twin]}/events", json=bodies[twin], headers=bearer(token))
            assert answer.status_code in (201, 400), answer.get_data(as_text=True)
            if seat == self.observer:
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
                headers = bearer(self.seats[twin][self.observer]) if role == "seat" else {}
                paths = [f"/api/games/{game_id}", f"/api/games/{game_id}/events?after=0", f"/api/games/{game_id}/events?after={self.seq}&wait=0.01"]
                if pages:
                    paths += [f"/g/{game_id}", f"/g/{game_id}/history", f"/g/{game_id}/history?at={max(self.seq - 1, 0)}", f"/g/{game_id}/result",
                              f"/g/{game_id}/live?after={self.seq}", f"/api/games/{game_id}/record"]
                for path in paths:
                    answer = client.get(path, headers=headers if path.startswith("/api/") else {})
                    self.said(twin, f"{role} {path.replace(game_id, 'GAME')}", f"{answer.status_code} {answer.get_data(as_text=True)}")

    def run(self, steps: list[Step], secret_seat: int, secrets: tuple[dict[str, Any], dict[str, Any]]) -> None:
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
            elif kind == "read":
                self.read(pages=True)
            self.read(pages=False)
        self.read(pages=True)
        for a, b in zip(*self.transcripts, strict=True):
            if a != b:
                diff = "\n".join(difflib.unified_diff(a.splitlines(), b.splitlines(), "A", "B", lineterm="", n=2))
                pytest.fail(f"a reader was told something that depends on another seat's secret:\n{a.splitlines()[0]}\n{diff[:4000]}")


def probe(game: str, steps: list[Step], secret_seat: int, secrets: tuple[dict[str, Any], dict[str, Any]], header: dict[str, Any], observer: int,
          folder: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(folder / f"{game}-{RAN[game]}.sqlite3"), "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False,
                      "LONG_POLL_SECONDS": 0.01})
    Twins(app, {"game": game, **header}, observer).run(steps, secret_seat, secrets)
    RAN[game] += 1


def steps_of(moves: st.SearchStrategy[tuple[int, dict[str, Any]]]) -> st.SearchStrategy[list[Step]]:
    """A random mix of the secret (logged again and again: probing), moves, voids and reads."""
    step = st.one_of(
        st.tuples(st.just("secret"), st.none()),
        st.tuples(st.just("move"), moves),
        st.tuples(st.just("move"), moves),
        st.tuples(st.just("move"), moves),
        st.tuples(st.just("void"), st.integers(0, 60)),
        st.tuples(st.just("read"), st.none()),
    )
    return st.lists(step, min_size=3, max_size=14).map(lambda steps: [("secret", None), *steps])


SLOW = settings(max_examples=EXAMPLES, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate), suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


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


@SLOW
@given(steps=steps_of(kp_moves), secrets=st.tuples(kp_hand, kp_hand))
def test_karriere_poker_tells_nobody_else_of_a_recorded_hand(tmp_path: Path, steps: list[Step], secrets: Any) -> None:
    probe("karriere-poker", [("move", (None, {"type": "deal", "dealer": 3})), *steps], 0, secrets,
          {"seats": ["Anna", "Ben", "Cem", "Dora"]}, 1, tmp_path)


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


@SLOW
@given(steps=steps_of(ftw_moves), secrets=st.tuples(ftw_hand, ftw_hand))
def test_ftw_tells_nobody_else_of_a_recorded_hand(tmp_path: Path, steps: list[Step], secrets: Any) -> None:
    probe("ftw", steps, 0, secrets, {"seats": ["Anna", "Ben", "Cem"]}, 1, tmp_path)


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


@SLOW
@given(steps=steps_of(sen_moves), secrets=st.tuples(sen_hand, sen_hand))
def test_senators_tells_nobody_else_of_recorded_starting_cards(tmp_path: Path, steps: list[Step], secrets: Any) -> None:
    probe("senators", steps, 0, secrets, {"seats": ["Anna", "Ben", "Cem"]}, 1, tmp_path)


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


@SLOW
@given(steps=steps_of(lg_moves), secrets=st.tuples(lg_income, lg_income))
def test_ladies_and_gentlemen_tell_nobody_outside_the_team_of_its_money(tmp_path: Path, steps: list[Step], secrets: Any) -> None:
    probe("ladies-and-gentlemen", [*LG_SETUP, *steps], 1, secrets, {"seats": ["Anna", "Ben", "Cem", "Dora"]}, 2, tmp_path)


def test_zz_every_game_with_secrets_ran_its_probes() -> None:
    """Runs after the properties (by name): each game ran its examples, all equal; the
    counts go to test-artifacts/noninterference.json for the record."""
    games = ["karriere-poker", "ftw", "senators", "ladies-and-gentlemen"]
    if not all(RAN[game] for game in games):
        pytest.fail(f"the noninterference properties did not run in this session: {dict(RAN)} (run the whole file)")
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "noninterference.json").write_text(json.dumps({game: RAN[game] for game in games}) + "\n", encoding="utf-8")
    assert all(RAN[game] >= min(EXAMPLES, 10) for game in games), dict(RAN)


# --- the reveal, and each way of probing the issue named -----------------------------------------


@pytest.fixture
def twins_app(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "twins.sqlite3"), "SECRET_KEY": "test", "WTF_CSRF_ENABLED": False})
