"""Groups: the people who play together (a family, a club), kept beside the log.

A group has players who last from game to game. A game started for a group belongs to it,
and each of its seats to one of the group's players. Records keep the names they were
played with: renaming a player, or merging two spellings of one person, changes only this
mapping, never an event or a header. A person may be in several groups (as a player of
each); a group's members reach it by its link, whose code is long and unguessable (it is
not read aloud like a table's join code), and nothing of a group is shown to anyone else.
A group's link can be renewed (a link passed on too far): the old one then opens nothing,
and everyone who joined by it opens the new one.

A group has a host: the browser that made it (on the web, or imported its file), and any
browser that opens the host's own link (`referee group link GROUP --host` prints it; a
group made on the command line, or before groups had hosts, has a host only once that
link is opened). Only the host changes the group's house rules; every change is kept with
its time, and the group's page shows them (who, what, when). Only the host switches off
(and on again) "who took longest to move" on the group's statistics: the players' pace is
a light statistic, not one every table wants told (on by default).

A phone that joined a group is a member, one of its players ("I am Dora"), until it leaves
or the group's host removes it: the phone keeps a code of its own in the signed session
cookie, as the host does, and the store the player it stands for (one phone per player).
When a game is started for the group, a member's phone takes the seat of its player with
one tap (`Groups.seat_of`), no join code: only that player's phone, and only a seat no phone
holds. Membership never widens sight: a member seated at no game of the group is that
game's spectator. The group's host starts the next game in two taps, "Again, same seats"
or "Again, next dealer": nobody changes chairs, so the seats stay in order and the next
dealer is the seat to the left of the last game's first (`first`, in Employee of the Month,
FTW?! and Senators); Karriere Poker names its dealer at each deal, and Ladies & Gentlemen
seats teams, not a starting player, so they are started again with the same seats only.

A group's file (`table-group/1`, JSON) holds its name, its players (a merged spelling
with the player it was merged into) and its games, each as its table record and the
player of each seat: a group exported and imported again is the same group, its records
byte for byte, its games under new ids. A game whose secrets are not yet revealed is in
the file without its record. A file is data from outside: checked whole, then stored in
one transaction.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

from .games import GAMES, find_game, game_names
from .record import Header, Record, RecordError, flatten_errors, iso8601, name_problem, normal_name, read_record, write_record
from .stats import Plays, regroup
from .store import Store, new_game_id, now

GROUP_FORMAT = "table-group/1"
MAX_NAME = 60


class GroupError(ValueError):
    """A group operation that cannot be done (the message says why); nothing was changed."""


class NotAHouseRule(GroupError):
    """A rule id that cannot be a group's house rule of a game: its English sentence
    (`template` % `values`), which the pages say in the phone's language."""

    CORE = "%(rule)s is a rule of every game: it is always played"
    OTHER_GAME = "%(rule)s is a rule of %(other)s, not of %(game)s"
    UNKNOWN = "%(rule)s is not a rule of %(game)s"

    def __init__(self, template: str, **values: str) -> None:
        super().__init__(template % values)
        self.template, self.values = template, values


class PhoneTaken(GroupError):
    """The player has a phone in the group already (`template` % `values`, worded by the pages)."""

    TEMPLATE = "%(name)s has a phone in the group already: the group's host can remove it"

    def __init__(self, template: str, **values: str) -> None:
        super().__init__(template % values)
        self.template, self.values = template, values


@dataclass(frozen=True)
class HouseRuleChange:
    """A rule of a game the group's host turned off (`off`) or on again, and when."""

    game: str
    rule: str
    off: bool
    at: str


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    merged_into: int | None


def link_code() -> str:
    """A group link's code: 96 random bits, too many to guess."""
    return secrets.token_urlsafe(12)


def clean_name(name: Any) -> str:
    """A group's or a player's name as kept (normal form); GroupError naming what is wrong."""
    text = normal_name(name) if isinstance(name, str) else ""
    problem = name_problem(text) if text else None
    if problem is not None:
        raise GroupError(problem)
    if not 1 <= len(text) <= MAX_NAME:
        raise GroupError(f"a name has 1 to {MAX_NAME} characters (got {len(text)})")
    return text


class Groups:
    def __init__(self, store: Store) -> None:
        self.store = store
        Plays(store)  # the statistics' tables, which keep each seat's player
        with store.lock:
            store.db.executescript(f"""
CREATE TABLE IF NOT EXISTS groups (id TEXT PRIMARY KEY, name TEXT NOT NULL, code TEXT NOT NULL, created_at TEXT NOT NULL, host TEXT);
CREATE UNIQUE INDEX IF NOT EXISTS idx_groups_code ON groups (code);
CREATE TABLE IF NOT EXISTS group_players (id INTEGER PRIMARY KEY, grp TEXT NOT NULL REFERENCES groups (id), name TEXT NOT NULL,
  merged_into INTEGER);
CREATE UNIQUE INDEX IF NOT EXISTS idx_group_players_grp_name ON group_players (grp, name);
CREATE TABLE IF NOT EXISTS group_seats (game TEXT NOT NULL REFERENCES games (id), seat INTEGER NOT NULL,
  grp TEXT NOT NULL REFERENCES groups (id), player INTEGER NOT NULL, PRIMARY KEY (game, seat));
CREATE INDEX IF NOT EXISTS idx_group_seats_grp_seat ON group_seats (grp, seat);
CREATE TABLE IF NOT EXISTS group_house_rules (grp TEXT NOT NULL REFERENCES groups (id), game TEXT NOT NULL,
  rule TEXT NOT NULL, PRIMARY KEY (grp, game, rule));
CREATE TABLE IF NOT EXISTS group_house_rule_changes (grp TEXT NOT NULL REFERENCES groups (id), game TEXT NOT NULL,
  rule TEXT NOT NULL, off INTEGER NOT NULL, at TEXT NOT NULL{store.db.ROWID});
CREATE INDEX IF NOT EXISTS idx_group_house_rule_changes_grp ON group_house_rule_changes (grp);
CREATE TABLE IF NOT EXISTS group_phones (code TEXT PRIMARY KEY, grp TEXT NOT NULL REFERENCES groups (id), player INTEGER NOT NULL,
  joined_at TEXT NOT NULL);
CREATE UNIQUE INDEX IF NOT EXISTS idx_group_phones_grp_player ON group_phones (grp, player);
""")
            if "host" not in store.db.columns("groups"):  # a store from before groups had hosts
                store.db.execute("ALTER TABLE groups ADD COLUMN host TEXT")
            if "move_times" not in store.db.columns("groups"):  # whether its statistics show who took longest to move
                store.db.execute("ALTER TABLE groups ADD COLUMN move_times INTEGER NOT NULL DEFAULT 1")

    def _one(self, sql: str, params: Iterable[Any]) -> Any:
        with self.store.lock:
            return self.store.db.execute(sql, list(params)).fetchone()

    # --- groups ------------------------------------------------------------------------

    def create(self, name: str) -> str:
        """A new group; its id. Its host is whoever is given its host code (`host_code`)."""
        group_id, code = new_game_id(), link_code()
        with self.store.transaction():
            self.store.db.execute("INSERT INTO groups (id, name, code, created_at, host) VALUES (?, ?, ?, ?, ?)",
                                       [group_id, clean_name(name), code, now(), link_code()])
        return group_id

    def host_code(self, group_id: str, renew: bool = False) -> str:
        """The code of the group's host link (made if the group has none; `renew`: a new
        one, and every browser that was host by the old one is not any more)."""
        with self.store.transaction():
            row = self.store.db.execute("SELECT host FROM groups WHERE id = ?", [group_id]).fetchone()
            if row is None:
                raise GroupError(f"no group {group_id!r}")
            if row[0] and not renew:
                return str(row[0])
            code = link_code()
            self.store.db.execute("UPDATE groups SET host = ? WHERE id = ?", [code, group_id])
        return code

    def for_host_code(self, code: str) -> str | None:
        """The group whose host link has this code."""
        row = self._one("SELECT id FROM groups WHERE host = ?", [code])
        return None if row is None else str(row[0])

    def group(self, group_id: str) -> dict[str, Any] | None:
        row = self._one("SELECT id, name, code, created_at FROM groups WHERE id = ?", [group_id])
        return None if row is None else dict(zip(("id", "name", "code", "created_at"), row))

    def for_code(self, code: str) -> str | None:
        row = self._one("SELECT id FROM groups WHERE code = ?", [code])
        return None if row is None else str(row[0])

    def find(self, ref: str) -> str:
        """A group by its id or its name (the command line); GroupError if none or several."""
        with self.store.lock:
            rows = self.store.db.execute("SELECT id FROM groups WHERE id = ? OR name = ?", [ref, ref]).fetchall()
        if len(rows) != 1:
            raise GroupError(f"no group {ref!r}" if not rows else f"several groups are called {ref!r}: name one by its id")
        return str(rows[0][0])

    def new_code(self, group_id: str) -> str:
        """A new link for the group: the old one, and every membership it gave, ends."""
        code = link_code()
        with self.store.transaction():
            self.store.db.execute("UPDATE groups SET code = ? WHERE id = ?", [code, group_id])
        return code

    def named(self, codes: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """The groups of these links (a browser's own), or every group (the command line), by name."""
        wanted = None if codes is None else list(codes)
        where = "" if wanted is None else f" WHERE code IN ({', '.join('?' * len(wanted))})"
        with self.store.lock:
            ids = [str(row[0]) for row in self.store.db.execute("SELECT id FROM groups" + where, wanted or []).fetchall()]
        shown = [group for group in map(self.group, ids) if group is not None]
        return sorted(shown, key=lambda g: g["name"].casefold())

    # --- players -----------------------------------------------------------------------

    def players(self, group_id: str) -> list[Player]:
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT id, name, merged_into FROM group_players WHERE grp = ? ORDER BY name COLLATE NOCASE", [group_id]).fetchall()
        return [Player(int(i), str(n), None if m is None else int(m)) for i, n, m in rows]

    def active(self, group_id: str) -> list[Player]:
        """The group's players, merged spellings left out."""
        return [p for p in self.players(group_id) if p.merged_into is None]

    def _player_ids(self, group_id: str, names: Iterable[str]) -> list[int]:
        """The players of these names, new names joining the group (a merged spelling stays
        itself: it counts for its player through the merge). Inside the caller's transaction."""
        ids = []
        for name in names:
            row = self.store.db.execute("SELECT id FROM group_players WHERE grp = ? AND name = ?", [group_id, name]).fetchone()
            if row is None:
                row = self.store.db.execute("INSERT INTO group_players (grp, name) VALUES (?, ?) RETURNING id", [group_id, name]).fetchone()
            ids.append(int(row[0]))
        return ids

    def seat(self, group_id: str, game_id: str, names: list[str]) -> None:
        """The game belongs to the group; each seat to the player of that name. A game
        belongs to one group at most."""
        with self.store.transaction():
            if self.store.db.execute("SELECT 1 FROM group_seats WHERE game = ? LIMIT 1", [game_id]).fetchone():
                raise GroupError("the game belongs to a group already")
            self.store.db.executemany(
                "INSERT INTO group_seats (game, seat, grp, player) VALUES (?, ?, ?, ?)",
                [(game_id, seat, group_id, player) for seat, player in enumerate(self._player_ids(group_id, names))],
            )
            regroup(self.store, game_id)  # a finished game seated later (a group's file): its statistics too

    def rename(self, group_id: str, player_id: int, name: str) -> None:
        """Rename a player; the records keep the names they were played with."""
        new = clean_name(name)
        with self.store.transaction():
            self._own(group_id, player_id)
            try:
                self.store.db.execute("UPDATE group_players SET name = ? WHERE id = ?", [new, player_id])
            except self.store.db.IntegrityError:
                raise GroupError(f"the group has a player called {new!r} already: merge the two instead") from None

    def merge(self, group_id: str, player_id: int, into_id: int) -> None:
        """Two spellings of one person: `player_id`'s games count for `into_id` from now on."""
        if player_id == into_id:
            raise GroupError("a player cannot be merged into themselves")
        with self.store.transaction():
            self._own(group_id, player_id)
            if self._own(group_id, into_id).merged_into is not None:
                raise GroupError("merge into a player who has not been merged into another")
            self.store.db.execute("UPDATE group_players SET merged_into = ? WHERE id = ? OR merged_into = ?",
                                       [into_id, player_id, player_id])

    def _own(self, group_id: str, player_id: int) -> Player:
        row = self.store.db.execute(
            "SELECT id, name, merged_into FROM group_players WHERE id = ? AND grp = ?", [player_id, group_id]).fetchone()
        if row is None:
            raise GroupError(f"the group has no player {player_id}")
        return Player(int(row[0]), str(row[1]), row[2])

    # --- members' phones ---------------------------------------------------------------

    def sit_down(self, group_id: str, name: str) -> str:
        """This phone is the group's player of this name (a new name joins the group; a
        merged spelling is its player) until it leaves or the host removes it; the phone's
        code. GroupError if that player has a phone in the group already."""
        code = link_code()
        with self.store.transaction():
            player = self._own(group_id, self._player_ids(group_id, [clean_name(name)])[0])
            player = self._own(group_id, player.merged_into) if player.merged_into else player
            taken = PhoneTaken(PhoneTaken.TEMPLATE, name=player.name)
            if self.store.db.execute("SELECT 1 FROM group_phones WHERE grp = ? AND player = ?", [group_id, player.id]).fetchone():
                raise taken
            try:
                self.store.db.execute("INSERT INTO group_phones (code, grp, player, joined_at) VALUES (?, ?, ?, ?)",
                                      [code, group_id, player.id, now()])
            except self.store.db.IntegrityError:  # another phone, a moment earlier
                raise taken from None
        return code

    def phone_player(self, group_id: str, code: str) -> Player | None:
        """The player whose phone holds this code in the group (None: it left, or was removed)."""
        row = self._one("SELECT p.id, p.name, p.merged_into FROM group_phones f JOIN group_players p ON p.id = f.player "
                        "WHERE f.code = ? AND f.grp = ?", [code, group_id])
        return None if row is None else Player(int(row[0]), str(row[1]), row[2])

    def phones(self, group_id: str) -> list[Player]:
        """The players who have a phone in the group, by name."""
        with self.store.lock:
            rows = self.store.db.execute("SELECT p.id, p.name, p.merged_into FROM group_phones f JOIN group_players p ON p.id = f.player "
                                         "WHERE f.grp = ? ORDER BY p.name COLLATE NOCASE", [group_id]).fetchall()
        return [Player(int(i), str(n), m) for i, n, m in rows]

    def remove_phone(self, group_id: str, player_id: int) -> None:
        """The player's phone is no member any more (it left, or the group's host removed it)."""
        with self.store.transaction():
            self.store.db.execute("DELETE FROM group_phones WHERE grp = ? AND player = ?", [group_id, player_id])

    def seat_of(self, game_id: str, player_id: int) -> int | None:
        """The seat of the group's game whose player is this one (or a spelling merged into it)."""
        row = self._one("SELECT s.seat FROM group_seats s JOIN group_players p ON p.id = s.player "
                        "WHERE s.game = ? AND (p.id = ? OR p.merged_into = ?)", [game_id, player_id, player_id])
        return None if row is None else int(row[0])

    def shows_move_times(self, group_id: str) -> bool:
        """Whether the group's statistics show who took longest to move."""
        row = self._one("SELECT move_times FROM groups WHERE id = ?", [group_id])
        return bool(row and row[0])

    def show_move_times(self, group_id: str, shown: bool) -> None:
        """Switch "who took longest to move" on or off (the pages let only the group's host)."""
        with self.store.transaction():
            self.store.db.execute("UPDATE groups SET move_times = ? WHERE id = ?", [int(shown), group_id])

    # --- house rules -------------------------------------------------------------------

    def house_rules(self, group_id: str, game: str) -> list[str]:
        """The rules of `game` this group does not play by, in the game's rule order."""
        with self.store.lock:
            off = {str(row[0]) for row in self.store.db.execute(
                "SELECT rule FROM group_house_rules WHERE grp = ? AND game = ?", [group_id, game]).fetchall()}
        return [rule for rule in find_game(game).rules if rule in off]

    def set_house_rules(self, group_id: str, game: str, off: Iterable[str]) -> list[HouseRuleChange]:
        """The group plays `game` without these rules from its next game on (each new game
        carries them in its header, so its record stands on its own); the changes, each
        kept with its time. NotAHouseRule for an id that is not one of the game's rules."""
        wanted = set(off)
        for rule in sorted(wanted):
            house_rule(game, rule)
        at = now()
        with self.store.transaction():
            before = {str(row[0]) for row in self.store.db.execute(
                "SELECT rule FROM group_house_rules WHERE grp = ? AND game = ?", [group_id, game]).fetchall()}
            changes = [HouseRuleChange(game, rule, rule in wanted, at) for rule in find_game(game).rules if (rule in wanted) != (rule in before)]
            self.store.db.execute("DELETE FROM group_house_rules WHERE grp = ? AND game = ?", [group_id, game])
            self.store.db.executemany("INSERT INTO group_house_rules (grp, game, rule) VALUES (?, ?, ?)",
                                           [(group_id, game, rule) for rule in wanted])
            self.store.db.executemany("INSERT INTO group_house_rule_changes (grp, game, rule, off, at) VALUES (?, ?, ?, ?, ?)",
                                           [(group_id, c.game, c.rule, int(c.off), c.at) for c in changes])
        return changes

    def house_rule_changes(self, group_id: str, latest: int) -> list[HouseRuleChange]:
        """The group's latest changes of its house rules, newest first."""
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT game, rule, off, at FROM group_house_rule_changes WHERE grp = ? ORDER BY rowid DESC LIMIT ?",
                [group_id, latest]).fetchall()
        return [HouseRuleChange(str(game), str(rule), bool(off), str(at)) for game, rule, off, at in rows]

    # --- games -------------------------------------------------------------------------

    def group_of(self, game_id: str) -> str | None:
        row = self._one("SELECT grp FROM group_seats WHERE game = ? LIMIT 1", [game_id])
        return None if row is None else str(row[0])

    def games(self, group_id: str, latest: int | None = None, skip: int = 0) -> list[str]:
        """The group's games (the `latest` ones after the newest `skip`), newest first."""
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT s.game FROM group_seats s JOIN games g ON g.id = s.game WHERE s.grp = ? AND s.seat = 0 "
                "ORDER BY g.created_at DESC, g.rowid DESC LIMIT ? OFFSET ?", [group_id, 1 << 62 if latest is None else latest, skip]).fetchall()
        return [str(row[0]) for row in rows]

    # --- a group's file ----------------------------------------------------------------

    def export(self, group_id: str, public: Callable[[str], bool]) -> dict[str, Any]:
        """The whole group: its players (and merges) and its games' records, as JSON. A game
        whose record is not yet everyone's (`public`: its secrets unrevealed) is listed
        without it, marked `unrevealed`: a member learns nothing of it that the game would
        not tell them."""
        group = self.group(group_id)
        if group is None:
            raise GroupError(f"no group {group_id!r}")
        players = self.players(group_id)
        name_of = {p.id: p.name for p in players}
        with self.store.lock:
            rows = self.store.db.execute(
                "SELECT s.game, s.player, g.created_at FROM group_seats s JOIN games g ON g.id = s.game WHERE s.grp = ? "
                "ORDER BY g.created_at, g.rowid, s.seat", [group_id]).fetchall()
        seats: dict[str, list[str]] = {}
        created: dict[str, str] = {}
        for game, player, created_at in rows:
            seats.setdefault(game, []).append(name_of[player])
            created[game] = created_at
        games = []
        for game in seats:
            entry: dict[str, Any] = {"id": game, "created_at": created[game], "seats": seats[game]}
            if public(game):
                entry["record"] = write_record(self.store.header(game), self.store.events(game))
            else:
                entry.update(game=self.store.header(game).game, unrevealed=True)
            games.append(entry)
        return {
            "format": GROUP_FORMAT,
            "name": group["name"],
            "players": [{"name": p.name, **({"merged_into": name_of[p.merged_into]} if p.merged_into else {})} for p in players],
            "games": games,
        }

    def import_(self, data: Any, import_record: Callable[[Record, str | None, str | None], str]) -> str:
        """A group from its file, as a new group; `import_record(record, id, created_at)`
        stores a game. The file is checked whole first, then stored in one transaction: all
        of it or nothing. Every game is stored anew under a new id (a file never names a
        game of this store into a group); a game exported `unrevealed` has no record and
        is left out."""
        group = read_group_file(data)
        with self.store.transaction():
            group_id = self.create(group.name)
            ids = dict(zip(group.players, self._player_ids(group_id, group.players), strict=True))
            for name, into in group.merges:
                self.store.db.execute("UPDATE group_players SET merged_into = ? WHERE id = ?", [ids[into], ids[name]])
            for record, names, created in group.games:
                self.seat(group_id, import_record(record, None, created), names)
        return group_id


def has_next_dealer(game: str) -> bool:
    """Whether "Again, next dealer" means anything for this game: its header names who starts."""
    return "first" in find_game(game).options().fields


def again_options(header: Header, next_dealer: bool) -> dict[str, Any]:
    """The options of the group's next game of this kind: the same, and with `next_dealer`
    the seat to the left of the last game's first starts (everyone keeps their chair)."""
    options = dict(header.options)
    if next_dealer and has_next_dealer(header.game):
        options["first"] = (header.loaded_options["first"] + 1) % len(header.seats)
    return options


def house_rule(game: str, rule: str) -> str:
    """`rule`, if it is a rule of `game` a group may play without; NotAHouseRule naming
    what it is instead (a core rule, another game's, none at all)."""
    shown = repr(rule if len(rule) <= 40 else rule[:40] + "…")
    title = find_game(game).title
    if rule in find_game(game).rules:
        return rule
    if rule.startswith("core."):
        raise NotAHouseRule(NotAHouseRule.CORE, rule=shown)
    other = next((g.title for g in GAMES.values() if rule in g.rules), None)
    if other is not None:
        raise NotAHouseRule(NotAHouseRule.OTHER_GAME, rule=shown, other=other, game=title)
    raise NotAHouseRule(NotAHouseRule.UNKNOWN, rule=shown, game=title)


# --- reading a group's file: data from outside, checked whole before anything is stored ------

SAFE_ID = r"[A-Za-z0-9_][A-Za-z0-9_-]{0,39}"  # as the app makes them: never a "-" first (a command-line option)
MAX_PLAYERS = 10_000
MAX_GAMES = 100_000
MAX_RECORD = 10_000_000  # characters of one game's record


class PlayerEntry(Schema):
    name = fields.String(required=True)
    merged_into = fields.String()


class GameEntry(Schema):
    id = fields.String(validate=validate.Regexp(f"{SAFE_ID}\\Z", error="{input!r} is not a game id (letters, digits, - and _, at most 40)."))
    created_at = fields.String(validate=iso8601)
    seats = fields.List(fields.String(), required=True, validate=validate.Length(max=100))
    record = fields.String(validate=validate.Length(max=MAX_RECORD))
    game = fields.String(validate=validate.OneOf(game_names()))
    unrevealed = fields.Boolean(truthy={True}, falsy={False})


class GroupFile(Schema):
    format = fields.String(required=True, validate=validate.Equal(GROUP_FORMAT, error=f"must be {GROUP_FORMAT!r}"))
    name = fields.String(required=True)
    players = fields.List(fields.Nested(PlayerEntry), required=True, validate=validate.Length(max=MAX_PLAYERS))
    games = fields.List(fields.Nested(GameEntry), required=True, validate=validate.Length(max=MAX_GAMES))


GROUP_FILE = GroupFile()


@dataclass(frozen=True)
class GroupToStore:
    """A group's file as checked: what `Groups.import_` stores."""

    name: str
    players: list[str]
    merges: list[tuple[str, str]]
    games: list[tuple[Record, list[str], str | None]]  # record, the player of each seat, when it was stored


def read_group_file(data: Any) -> GroupToStore:
    """Check a group's file whole; GroupError naming the place (`game 3: created_at: …`)."""
    if not isinstance(data, Mapping) or data.get("format") != GROUP_FORMAT:
        raise GroupError(f"not a group file: its \"format\" must be {GROUP_FORMAT!r}")
    try:
        loaded = GROUP_FILE.load(data)
    except ValidationError as error:
        raise GroupError(placed(error.messages)) from None
    players = [where(f"player {n}", clean_name, p["name"]) for n, p in enumerate(loaded["players"], start=1)]
    if len(set(players)) != len(players):
        raise GroupError("players: a name is listed twice")
    merges = [(clean_name(p["name"]), where(f"player {n}: merged_into", clean_name, p["merged_into"]))
              for n, p in enumerate(loaded["players"], start=1) if "merged_into" in p]
    for name, into in merges:
        if into not in players or into == name:
            raise GroupError(f"{name!r} is merged into {into!r}, which is not another player of the file")
    games = []
    for number, game in enumerate(loaded["games"], start=1):
        names = [where(f"game {number}: seats", clean_name, name) for name in game["seats"]]
        if game.get("unrevealed"):
            continue  # exported before its secrets were revealed: there is no record to store
        if "record" not in game:
            raise GroupError(f"game {number}: needs \"record\" (the table record's text) or \"unrevealed\": true")
        record = where(f"game {number}", read_record, game["record"])
        if len(names) != len(record.header.seats):
            raise GroupError(f"game {number}: {len(record.header.seats)} seats, but {len(names)} players named")
        games.append((record, names, game.get("created_at")))
    return GroupToStore(where("name", clean_name, loaded["name"]), players, merges, games)


def where(place: str, check: Callable[[Any], Any], value: Any) -> Any:
    """`check(value)`, its error prefixed with the place in the file."""
    try:
        return check(value)
    except (GroupError, RecordError) as error:
        raise GroupError(f"{place}: {error}") from None


def placed(messages: Any) -> str:
    """marshmallow's errors of a group's file, each at its place: 'game 3: created_at: …'."""
    parts = []
    for key, value in messages.items():
        if key in ("games", "players") and isinstance(value, dict) and all(isinstance(k, int) for k in value):
            parts.extend(f"{key[:-1]} {index + 1}: {flatten_errors(errors)}" for index, errors in value.items())
        else:
            parts.append(flatten_errors(value, str(key)))
    return "; ".join(parts)
