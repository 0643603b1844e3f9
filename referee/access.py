"""Who may do what at a table: join codes, host and seat tokens.

Tokens are random (192 bits), handed out once, stored only as SHA-256 hashes and checked
with a constant-time comparison. A join code is short and easy to read aloud: six
characters without the look-alikes 0/O, 1/I/L.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
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


@dataclass(frozen=True)
class Caller:
    """Who is asking: the host, a seat, or a spectator (no token). A host who plays a seat
    has that `seat`: told what the seat is told, with the host's powers kept."""

    role: str  # "host" | "seat" | "spectator"
    seat: int | None = None
    token_id: str = field(default="", compare=False)  # scopes idempotency keys to the token

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
        and its own (its team's, Game.sharing) private records; a spectator public information."""
        if revealed or self.trusted:
            return EVERYTHING
        if self.seat is None:
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
    def __init__(self, store: Store) -> None:
        self.store = store
        with store.lock:
            store.db.executescript("""
CREATE TABLE IF NOT EXISTS join_codes (code TEXT PRIMARY KEY, game TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS idx_join_codes_game ON join_codes (game);
CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, game TEXT NOT NULL, role TEXT NOT NULL, seat INTEGER, created_at TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS idx_tokens_game_seat ON tokens (game, seat);
""")

    def open_table(self, game_id: str) -> tuple[str, str]:
        """A join code and the host token for a new game."""
        host_token = self._new_token(game_id, "host", None)
        with self.store.lock:
            while True:
                code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
                try:
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
        """A seat token for a free seat; raises SeatTaken."""
        with self.store.lock:
            if seat in self.claimed_seats(game_id):
                raise SeatTaken(f"seat {seat} has been claimed; the host can hand it to a new phone")
            return self._new_token(game_id, "seat", seat)

    def reissue_seat(self, game_id: str, seat: int) -> str:
        """The host hands a seat to a new phone: earlier tokens of that seat stop working."""
        with self.store.lock:
            self.release_seat(game_id, seat)
            return self._new_token(game_id, "seat", seat)

    def host_plays(self, game_id: str, seat: int) -> int:
        """The host plays `seat` from now on (public, and for good): the seat's own tokens
        stop working, since the host's phone is that seat now. The seat the host plays."""
        with self.store.lock:
            played = self.store.set_host_seat(game_id, seat)
            if played == seat:
                self.release_seat(game_id, seat)
            return played

    def release_seat(self, game_id: str, seat: int) -> None:
        """The seat is free again (a phone left or took the wrong seat): its tokens stop working."""
        with self.store.lock:
            self.store.db.execute("DELETE FROM tokens WHERE game = ? AND role = 'seat' AND seat = ?", [game_id, seat])

    def caller(self, game_id: str, token: str | None) -> Caller:
        """Who holds `token` at this game; no token is a spectator. Raises AccessDenied."""
        if not token:
            return SPECTATOR
        expected = token_hash(token)
        # Read from the store each time, never from a cache of this process: a seat handed to
        # another phone by another server process stops working here too.
        with self.store.lock:
            row = self.store.db.execute("SELECT hash, game, role, seat FROM tokens WHERE hash = ?", [expected]).fetchone()
        if row is None or not hmac.compare_digest(row[0], expected):
            raise AccessDenied("this token is not valid")
        if row[1] != game_id:
            raise AccessDenied("this token belongs to another game")
        if row[2] == "host":  # the seat the host plays is set once, maybe by another process
            return Caller("host", self.store.host_seat(game_id), expected[:16])
        return Caller(row[2], row[3], expected[:16])

    def _new_token(self, game_id: str, role: str, seat: int | None) -> str:
        token = secrets.token_urlsafe(24)
        with self.store.lock:
            self.store.db.execute(
                "INSERT INTO tokens (hash, game, role, seat, created_at) VALUES (?, ?, ?, ?, ?)",
                [token_hash(token), game_id, role, seat, now()],
            )
        return token


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
