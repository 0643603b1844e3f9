"""Who may do what at a table: join codes, host and seat tokens.

Tokens are random (192 bits), handed out once, stored only as SHA-256 hashes and checked
with a constant-time comparison. A join code is short and easy to read aloud: six
characters without the look-alikes 0/O, 1/I/L.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .games.base import Game
from .replay import EVERYTHING, PUBLIC, Sight
from .store import Store, now

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6


class AccessDenied(Exception):
    """The token is unknown, or belongs to another game."""


class SeatTaken(Exception):
    """The seat has been claimed already; the host can hand out a new token for it."""


class MoveRefused(Exception):
    """A move code that is unknown, used already, expired, or whose seat changed phones since."""


MOVE_CODE_LENGTH = 10  # 31^10 codes, tried under the join-code limit, each valid for minutes
MOVE_CODE_SECONDS = 10 * 60


@dataclass(frozen=True)
class Caller:
    """Who is asking: the host, a seat, or a spectator (no token). A host who plays a seat
    has that `seat`: told what the seat is told, with the host's powers kept. A `blind`
    seat was handed on by a host who plays another seat: told no private record until the
    reveal (see `Access.blind`)."""

    role: str  # "host" | "seat" | "spectator"
    seat: int | None = None
    token_id: str = field(default="", compare=False)  # scopes idempotency keys to the token
    blind: bool = False

    @property
    def is_host(self) -> bool:
        return self.role == "host"

    @property
    def trusted(self) -> bool:
        """The one reader trusted with every secret: a host who plays no seat."""
        return self.is_host and self.seat is None

    @property
    def by(self) -> int | str | None:
        """What the `by` field of an event this caller logs says: "host" or the seat."""
        return "host" if self.is_host else self.seat

    def sight(self, game: Game[Any], state: Any, revealed: bool) -> Sight:
        """What this caller may know: everything once the host has revealed the secrets, and
        a host who plays no seat always; a seat (and a host who plays it) public information
        and its own (its team's, Game.sharing) private records; a spectator and a blind seat
        public information."""
        if revealed or self.trusted:
            return EVERYTHING
        if self.seat is None or self.blind:
            return PUBLIC
        return Sight(False, game.sharing(state, self.seat))

    def idempotency_key(self, key: str | None) -> str | None:
        """A client's key, scoped to this caller's token: another phone's key is its own."""
        return None if key is None else f"{self.token_id}:{key}"


SPECTATOR = Caller("spectator")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def normalise_code(code: str) -> str:
    """Codes are read aloud and typed on phones: ignore case, spaces and dashes."""
    return "".join(code.split()).replace("-", "").upper()


class Access:
    """Tokens and codes in the store (its tables: `join_codes`, `tokens`, `move_codes`,
    `seat_changes`). Each change of who holds a seat is one transaction, and the store's
    unique key on (game, seat) of seat tokens makes a second claim fail in any process."""

    def __init__(self, store: Store, sharing: Callable[[str, int], frozenset[int]] | None = None) -> None:
        self.store = store
        # The seats whose private records a seat's token reads (its team: Game.sharing at the
        # game's state); without a game's state at hand, the seat alone.
        self.sharing = sharing or (lambda game_id, seat: frozenset({seat}))

    def open_table(self, game_id: str) -> tuple[str, str]:
        """A join code and the host token for a new game."""
        host_token = secrets.token_urlsafe(24)
        with self.store.transaction():
            self._insert_token(game_id, host_token, "host", None, False)
        with self.store.lock:
            while True:
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                try:
                    with self.store.transaction():
                        self.store.db.execute("INSERT INTO join_codes (code, game) VALUES (?, ?)", [code, game_id])
                    return code, host_token
                except self.store.db.IntegrityError:
                    continue  # that code is taken: draw another

    def join_code(self, game_id: str) -> str | None:
        with self.store.lock:
            row = self.store.db.execute("SELECT code FROM join_codes WHERE game = ?", [game_id]).fetchone()
        return None if row is None else str(row[0])

    def game_for_code(self, code: str) -> str | None:
        with self.store.lock:
            row = self.store.db.execute("SELECT game FROM join_codes WHERE code = ?", [normalise_code(code)]).fetchone()
        return None if row is None else str(row[0])

    def claimed_seats(self, game_id: str) -> set[int]:
        """The seats a phone holds: by a seat token, or the host's phone (the seat it plays)."""
        with self.store.lock:
            rows = self.store.db.execute("SELECT seat FROM tokens WHERE game = ? AND role = 'seat'", [game_id]).fetchall()
            host_seat = self.store.host_seat(game_id)
        return {int(row[0]) for row in rows} | ({host_seat} if host_seat is not None else set())

    def claim_seat(self, game_id: str, seat: int) -> str:
        """A seat token for a free seat, in one transaction (the store's unique key on the
        seat refuses a second phone, whichever server process it asks); raises SeatTaken."""
        token, teams = secrets.token_urlsafe(24), self.teams(game_id)
        try:
            with self.store.transaction():
                if seat == self.store.host_seat(game_id):
                    raise SeatTaken(f"seat {seat} is played on the host's phone")
                self._insert_token(game_id, token, "seat", seat, self.blind(game_id, seat, teams))
        except self.store.db.IntegrityError:
            raise SeatTaken(f"seat {seat} has been claimed; the host can hand it to a new phone") from None
        return token

    def hand_on(self, game_id: str, seat: int) -> str:
        """The host hands a seat to a new phone (the old one is lost): its earlier tokens stop
        working, every phone is told (`seat_changes`), and the new token is `blind` where
        the rule says so."""
        token, teams = secrets.token_urlsafe(24), self.teams(game_id)
        with self.store.transaction():
            self._free(game_id, seat, always=True)
            self._insert_token(game_id, token, "seat", seat, self.blind(game_id, seat, teams))
        return token

    def free_seat(self, game_id: str, seat: int) -> None:
        """The host frees a seat held by a phone, so another phone can take it: a hand-over,
        told to every phone. A seat no phone holds stays as it is."""
        with self.store.transaction():
            self._free(game_id, seat, always=False)

    def host_plays(self, game_id: str, seat: int) -> int:
        """The host plays `seat` from now on (public, and for good): the seat's own tokens
        stop working, since the host's phone is that seat now. The seat the host plays.
        Raises SecretSeen once another seat's private record is in the log."""
        private = self.store.header(game_id).rules.private_events
        with self.store.transaction():
            played = self.store.set_host_seat(game_id, seat, private)
            if played == seat:
                self.store.db.execute("DELETE FROM tokens WHERE game = ? AND role = 'seat' AND seat = ?", [game_id, seat])
                self.store.db.execute("DELETE FROM move_codes WHERE game = ? AND seat = ?", [game_id, seat])
        return played

    def teams(self, game_id: str) -> list[frozenset[int]]:
        """Per seat, the seats whose private records its token reads: taken before a
        transaction (the game's fold is not read while the store is held)."""
        return [self.sharing(game_id, seat) for seat in range(len(self.store.header(game_id).seats))]

    def blind(self, game_id: str, seat: int, teams: list[frozenset[int]]) -> bool:
        """Whether a new token for `seat` is told no private record until the reveal: the
        host plays another seat, and either the seat was handed on (`free_seat`, `hand_on`)
        and a private record is in the log, or the log already holds a private record this
        token would read and the host's seat does not (a first claim by the join code, which
        the host knows too). The app cannot unlearn those records from its fold, so the new
        phone is told none (the player holds the real cards): a host who plays can never
        read another seat's secrets through a token of its own making."""
        host_seat = self.store.host_seat(game_id)
        if host_seat is None or host_seat == seat:
            return False
        handed, recorded = self._past(game_id, seat)
        if handed:
            return recorded
        unknown_to_host = teams[seat] - teams[host_seat]
        return bool(unknown_to_host) and self._recorded(game_id, unknown_to_host)

    def fresh(self, game_id: str, seat: int) -> bool:
        """Whether a seat has nothing behind it: never handed on, and no private record of
        anyone in the log. Only such a seat is taken by a group member's one tap (the phone
        names its player itself); any other needs the table's join code."""
        handed, recorded = self._past(game_id, seat)
        return not handed and not recorded

    def _past(self, game_id: str, seat: int) -> tuple[bool, bool]:
        """Whether the seat was handed on; whether the log holds any private record."""
        with self.store.lock:
            handed = self.store.db.execute("SELECT 1 FROM seat_changes WHERE game = ? AND seat = ? AND kind = 'handed-on'",
                                           [game_id, seat]).fetchone()
        return handed is not None, self._recorded(game_id)

    def _recorded(self, game_id: str, seats: frozenset[int] | None = None) -> bool:
        """Whether the log holds a private record (of one of `seats`, where given)."""
        private = sorted(self.store.header(game_id).rules.private_events)
        of_seats = f" AND CAST(json_extract(body, '$.seat') AS INTEGER) IN ({', '.join('?' * len(seats))})" if seats else ""
        with self.store.lock:
            return self.store.db.execute(
                f"SELECT 1 FROM events WHERE game = ? AND json_extract(body, '$.type') IN ({', '.join('?' * len(private))}){of_seats} LIMIT 1",
                [game_id, *private, *sorted(seats or ())]).fetchone() is not None

    def move_code(self, game_id: str, caller: Caller) -> str:
        """A one-time code that moves this seat to another phone, keeping everything (valid
        for minutes; a new one ends the last)."""
        assert caller.role == "seat" and caller.seat is not None
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(MOVE_CODE_LENGTH))
        with self.store.transaction():
            self.store.db.execute("DELETE FROM move_codes WHERE game = ? AND seat = ?", [game_id, caller.seat])
            self.store.db.execute("INSERT INTO move_codes (hash, game, seat, blind, expires) VALUES (?, ?, ?, ?, ?)",
                                  [token_hash(code), game_id, caller.seat, int(caller.blind), int(time.time()) + MOVE_CODE_SECONDS])
        return code

    def move_for_code(self, code: str) -> tuple[str, int] | None:
        """The game and seat a live move code moves (None: unknown, used or too old), so a
        typed move code finds its seat as a scanned one does."""
        with self.store.lock:
            row = self.store.db.execute("SELECT game, seat, expires FROM move_codes WHERE hash = ?",
                                        [token_hash(normalise_code(code))]).fetchone()
        return None if row is None or row[2] < time.time() else (str(row[0]), int(row[1]))

    def take_move(self, game_id: str, seat: int, code: str) -> str:
        """The new phone takes `seat` by its move code: a token of its own; the old phone's
        token stops working. Raises MoveRefused."""
        token = secrets.token_urlsafe(24)
        with self.store.transaction():
            row = self.store.db.execute("DELETE FROM move_codes WHERE hash = ? AND game = ? AND seat = ? RETURNING blind, expires",
                                        [token_hash(normalise_code(code)), game_id, seat]).fetchone()
            if row is None or row[1] < time.time():
                raise MoveRefused("this move code is not valid (used, expired, or for another seat)")
            self.store.db.execute("DELETE FROM tokens WHERE game = ? AND role = 'seat' AND seat = ?", [game_id, seat])
            self._insert_token(game_id, token, "seat", seat, bool(row[0]))
        return token

    def caller(self, game_id: str, token: str | None) -> Caller:
        """Who holds `token` at this game; no token is a spectator. Raises AccessDenied."""
        if not token:
            return SPECTATOR
        expected = token_hash(token)
        # Read from the store each time, never from a cache of this process: a seat handed to
        # another phone by another server process stops working here too.
        with self.store.lock:
            row = self.store.db.execute("SELECT hash, game, role, seat, blind FROM tokens WHERE hash = ?", [expected]).fetchone()
        if row is None or not hmac.compare_digest(row[0], expected):
            raise AccessDenied("this token is not valid")
        if row[1] != game_id:
            raise AccessDenied("this token belongs to another game")
        if row[2] == "host":  # the seat the host plays is set once, maybe by another process
            return Caller("host", self.store.host_seat(game_id), expected[:16])
        return Caller(row[2], row[3], expected[:16], bool(row[4]))

    def _free(self, game_id: str, seat: int, always: bool) -> None:
        """Inside a transaction: the seat's tokens and move codes stop working; a hand-over
        (public) if a phone held it, or `always`."""
        held = self.store.db.execute("DELETE FROM tokens WHERE game = ? AND role = 'seat' AND seat = ?", [game_id, seat]).rowcount
        self.store.db.execute("DELETE FROM move_codes WHERE game = ? AND seat = ?", [game_id, seat])
        if held or always:
            self.store.db.execute("INSERT INTO seat_changes (game, seq, seat, kind) SELECT id, head_seq, ?, 'handed-on' FROM games WHERE id = ?",
                                  [seat, game_id])

    def _insert_token(self, game_id: str, token: str, role: str, seat: int | None, blind: bool) -> None:
        self.store.db.execute(
            "INSERT INTO tokens (hash, game, role, seat, created_at, blind) VALUES (?, ?, ?, ?, ?, ?)",
            [token_hash(token), game_id, role, seat, now(), int(blind)],
        )


def visible_event(game: Game[Any], event: Mapping[str, Any], sight: Sight) -> dict[str, Any]:
    """An event as this reader may see it: private events of other seats are withheld (who
    logged what kind of event, and when, is public; what it says is not)."""
    if sight.everything or event["type"] not in game.private_events or event.get("seat") in sight.seats:
        return dict(event)
    return {"seq": event["seq"], "type": event["type"], "seat": event.get("seat"), "withheld": True}


def may_log(game: Game[Any], caller: Caller, event: Mapping[str, Any], target: Mapping[str, Any] | None) -> str | None:
    """Why this caller may not log this event (None: allowed). `target`: what a void withdraws."""
    if caller.role == "spectator":
        return "log in as the host or a seat to log events"
    if caller.is_host:
        return None
    kind = event.get("type")
    if not isinstance(kind, str):
        return None  # not an event at all: the record's schema says so (400), for a seat as for the host
    if "seat" in event and event["seat"] != caller.seat:
        return f"a seat token logs only for its own seat ({caller.seat})"
    if kind == "end":
        return "only the host can end the game"
    if kind == "ruling":
        return "only the host lets a flagged move stand (a ruling of the table)"
    if kind in game.host_events:
        return f"only the host logs {kind} (the table's book-keeping)"
    if kind == "void" and target is not None and target.get("by") != caller.seat:
        return "a seat voids only what it logged itself; what the host logged, the host voids"
    return None
