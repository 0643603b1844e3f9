"""The `referee` command: a thin shell over the library (replay, import, export, verify)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from flask_babel import gettext

from . import bgstats
from .access import Access
from .database import MANGLED, POSTGRESQL, Unavailable, Unreachable, is_url, refuses_copy, shown
from .games import game_names
from .games.base import places
from .groups import GroupError, Groups
from .record import Record, RecordError, load_json, read_record, write_record
from .reference import reference, write_docs
from .replay import Fold, report
from .replay import replay as replay_record
from .kept import secret_beside, secret_path
from .rulings import app_is_wrong, maintainer_key
from .stats import STATISTICS, plays_csv
from .store import SCHEMA_VERSION, CopyRefused, Store, StoreTooNew, UnknownGame
from .tables import Tables
from .web.words import ending, flag_words, reason_words

DEFAULT_DB = Path("instance") / "referee.sqlite3"


def default_db() -> str:
    return os.environ.get("REFEREE_DB", str(DEFAULT_DB))


def store_address(context: click.Context, parameter: click.Parameter, value: str) -> str:
    """A SQLite file's path or a postgresql:// URL; another URL is refused, never made a file of that name."""
    if is_url(value) and not POSTGRESQL.match(value):
        raise click.BadParameter(f"{value.split('://')[0]}://… is not a database this app keeps its store in: "
                                 "give a SQLite file's path or a postgresql:// URL")
    if not is_url(value) and MANGLED.match(value):  # never a file named after it, never its password in a message
        raise click.BadParameter(f"{value.split(':')[0]}:/… is not a URL: a database URL begins postgresql://")
    return value


db_option = click.option(
    "--db",
    "db_path",
    default=default_db,
    callback=store_address,
    show_default="instance/referee.sqlite3, or $REFEREE_DB",
    help="The event store: a SQLite file's path, or a postgresql:// URL.",
)


def store_at(path: str) -> Store:
    """The store at `path`; one written by a newer version, or a database that does not
    answer, is an error naming it."""
    try:
        return Store(path)
    except (StoreTooNew, Unreachable, Unavailable) as error:
        raise click.ClickException(str(error)) from None


class Unreadable(click.ClickException):
    """A record that cannot be read: exit 2, like a malformed one."""

    exit_code = 2


def read_file(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8") if path != "-" else sys.stdin.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise Unreadable(f"cannot read {path}: {reason}") from None


def read_or_exit(file: str) -> Record:
    """The record in `file`; a malformed one exits 2 naming the file and the line."""
    try:
        return read_record(read_file(file))
    except RecordError as error:
        click.echo(f"{file}: {error}", err=True)
        sys.exit(2)


class Commands(click.Group):
    """The commands: an unknown game, or a group operation that cannot be done, is refused
    with its message and exit code 1, as any click.ClickException, wherever it is raised."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (UnknownGame, GroupError) as error:
            raise click.ClickException(str(error)) from None


@click.group(cls=Commands)
@click.version_option(package_name="table-referee")
def main() -> None:
    """Table Referee: referee and scorekeeper for card games at a real table.

    Commands that use the event store take --db PATH (default instance/referee.sqlite3,
    or $REFEREE_DB).
    """


@main.command()
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (docs/record-format.md, section 'replay --json').")
@click.option("--upto", type=click.IntRange(min=0), help="Replay only the events up to this seq.")
@click.option("--official", is_flag=True, help="Judge by the official rules: no house rules, no rulings; the table's verdict follows (JSON: under \"table\").")
@click.option("--lang", type=click.Choice(["en", "de"]), help="The language of the readable report (default: from $LANG; --json has none).")
def replay(file: str, as_json: bool, upto: int | None, official: bool, lang: str | None) -> None:
    """Replay a table record offline and report flags, voids, rulings and the result.

    Exit status: 0 no standing violations (voided and ruled events do not count; with
    --official, by the official rules), 1 standing violations, 2 the record cannot be read
    or is malformed.
    """
    record = read_or_exit(file)
    fold = replay_record(record.header, record.events, upto, official=official)
    shown = report(fold, events=record.events)
    table = None
    if official:
        tables_fold = replay_record(record.header, record.events, upto)
        table = {key: value for key, value in report(tables_fold).items() if key in ("violations", "ruled", "scores", "ranking")}
    if as_json:
        click.echo(json.dumps(shown if table is None else {**shown, "table": table}, ensure_ascii=False))
    else:
        with speaking(lang or ("de" if os.environ.get("LANG", "").startswith("de") else "en")):
            click.echo(readable_report(fold, shown, official))
            if table is not None:
                click.echo("\n" + gettext("The table's verdict (house rules and rulings):") + "\n"
                           + "\n".join(verdict_lines(table, replay_record(record.header, record.events, upto))))
    sys.exit(1 if shown["violations"] else 0)


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """The app's words (its catalogue, `web.words`) outside the server: a bare Flask app
    that speaks `language`, its catalogue compiled into a directory of its own."""
    from flask import Flask
    from flask_babel import Babel

    from .web.pages import compile_translations

    app = Flask(__name__)
    with tempfile.TemporaryDirectory() as compiled:
        app.config["BABEL_TRANSLATION_DIRECTORIES"] = compile_translations(Path(compiled))
        Babel(app, locale_selector=lambda: language)
        with app.test_request_context():
            yield


def readable_report(fold: Fold, shown: dict[str, Any], official: bool = False) -> str:
    """The replay for people, in the language `speaking` chose: flags and endings as the
    pages word them (`web.words`)."""
    header = fold.header
    lines = [
        f"{header.rules.title}" + (f" — {header.title}" if header.title else ""),
        gettext("Players: %(names)s", names=", ".join(header.seats)),
        gettext("Events: %(count)s", count=shown["events"]),
    ]
    if official:
        lines.append(gettext("Judged by the official rules (no house rules, no rulings)"))
    elif header.house_rules:
        lines.append(gettext("House rules: off %(rules)s", rules=", ".join(header.house_rules)))
    if fold.outcome is not None:
        lines.append(f"{gettext('Ended early') if shown['ended_early'] else gettext('Game over')}: {ending(fold.outcome.reason) or fold.outcome.reason}")
        lines.append(gettext("Winner: %(names)s", names=" & ".join(shown["winners"])) if shown["winners"] else gettext("No winner"))
    else:
        lines.append(gettext("Game not finished"))
    for withdrawn in fold.withdrawn:
        was = f"{flag_text(withdrawn.flag, header.seats)} [{withdrawn.flag.rule}]" if withdrawn.flag else gettext("legal when logged")
        lines.append("  " + gettext("seq %(seq)s: voided by seq %(void)s (%(was)s)", seq=withdrawn.seq, void=withdrawn.voided_by, was=was))
    return "\n".join([*lines, *verdict_lines(shown, fold)])


def flag_text(flag: Any, names: Any) -> str:
    """A flag's sentence in the chosen language, or as the game made it whole."""
    return flag_words(flag, names) or flag.message


def verdict_lines(shown: dict[str, Any], fold: Fold) -> list[str]:
    """Flags, rulings and the ranking of a replay's report (of `fold`), as lines."""
    names = fold.header.seats
    lines = ["  " + gettext("seq %(seq)s: %(message)s", seq=seq, message=flag_text(flag, names)) + f" [{flag.rule}]" for seq, flag in fold.violations]
    if not fold.violations:
        lines.append(gettext("No violations."))
    lines += ["  " + gettext("seq %(seq)s: let stand by seq %(ruling)s (%(reason)s): %(message)s", seq=r.seq, ruling=r.ruling,
                             reason=reason_words(r.reason) if r.reason else gettext("no reason given"), message=flag_text(r.flag, names))
              + f" [{r.flag.rule}]" for r in fold.ruled]
    if shown["ranking"]:
        lines.append(gettext("Ranking:"))
        place_of = places(shown["ranking"])
        for tier in shown["ranking"]:
            points = ", ".join(f"{name} ({shown['scores'][name]})" if name in shown["scores"] else name for name in tier)
            lines.append(f"  {place_of[tier[0]]}. {points}")
    return lines


@main.command("import")
@click.argument("file")
@click.option("--id", "game_id", help="The id to give the game (default: a random one).")
@db_option
def import_(file: str, game_id: str | None, db_path: str) -> None:
    """Store a table record as a new game and print its id."""
    record = read_or_exit(file)
    try:
        click.echo(Tables(store_at(db_path)).import_record(record, game_id))
    except RecordError as error:  # the id is taken
        raise click.ClickException(f"{file}: {error}") from None


@main.command()
@click.argument("game")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file.")
@click.option("--format", "as_format", type=click.Choice(["record", "bgstats"]), default="record", show_default=True,
              help="record: the table-record/1 archive; bgstats: a finished game as a BG Stats play (push-play JSON).")
@db_option
def export(game: str, output: str | None, as_format: str, db_path: str) -> None:
    """Write a stored game as a table record (canonical table-record/1), or as a BG Stats play."""
    store = store_at(db_path)
    try:
        if as_format == "bgstats":
            events = store.events(game)
            text = json.dumps(bgstats.play(game, replay_record(store.header(game), events), events, store.created_at(game)), ensure_ascii=False, indent=1) + "\n"
        else:
            text = write_record(store.header(game), store.events(game))
        head_seq, head_hash = store.head(game)
    except bgstats.NotFinished as error:
        raise click.ClickException(str(error)) from None
    if output:
        Path(output).write_text(text, encoding="utf-8")
        click.echo(f"head: seq {head_seq} {head_hash} (a receipt: referee verify --head {game}:{head_hash})")
    else:
        click.echo(text, nl=False)


@main.command()
@click.argument("source", callback=store_address)
@click.argument("target", callback=store_address)
def copy(source: str, target: str) -> None:
    """Copy a whole store into a new file, all or nothing, while the server runs: its games
    with their chains (every receipt verifies on the copy), seats, groups and statistics."""
    store = existing_store(source)
    try:
        refused = refuses_copy(target, SCHEMA_VERSION)  # before anything is written to it (its secret key included)
    except Unreachable as error:
        raise click.ClickException(str(error)) from None
    if refused:
        raise click.ClickException(refused)
    key, target_key = secret_path(source), secret_path(target)
    if key.exists() and not target_key.exists():  # the copy serves the same phones' sessions and seals
        target_key.parent.mkdir(parents=True, exist_ok=True)
        target_key.write_bytes(key.read_bytes())
        target_key.chmod(0o600)
    same_key = key.exists() and target_key.exists() and key.read_bytes() == target_key.read_bytes()
    try:
        if store.db.backs_up_to(target):
            store.copy_to(target, keep_snapshots=same_key)  # SQLite's own backup: the file as it is
        else:  # between backends: row by row into a new store
            copy = store_at(target)
            Groups(copy)  # the tables of seats, groups and statistics
            Access(copy)
            store.copy_rows_to(copy, keep_snapshots=same_key)
    except CopyRefused as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"copied {len(store.games())} games into {shown(target)}; every hash chain verified")


@main.command()
@click.option("--head", "receipts", multiple=True, metavar="GAME:HASH",
              help="A receipt kept at the end of a game: its log must end at this hash. Repeatable.")
@db_option
def verify(receipts: tuple[str, ...], db_path: str) -> None:
    """Check every game's hash chain and head, every kept snapshot's seal, and receipts;
    name the first broken row of a game. Snapshots are checked with the secret key beside
    the database (`secret_key`)."""
    store = existing_store(db_path)
    kept = {}
    for receipt in receipts:
        game_id, _, digest = receipt.rpartition(":")
        if not game_id or len(digest) != 64:
            raise click.BadParameter(f"{receipt!r} is not GAME:HASH (a 64-character SHA-256)", param_hint="--head")
        kept[game_id] = digest.lower()
    problems = store.verify(kept)
    if store.meta(STATISTICS) != "complete":  # opening the tables below rebuilds them
        click.echo("statistics: incomplete (an interrupted rebuild, or a store from before them): rebuilt from the logs now")
    tables = Tables(store)
    problems += [f"game {game} seq {seq}: the snapshot fails its seal (edited, or not made with this instance's secret key); it is not used"
                 for game, seq, event_hash, fingerprint, blob in store.snapshots()
                 if not tables.snapshot_holds(game, seq, event_hash, fingerprint, blob)]
    for problem in problems:
        click.echo(problem, err=True)
    if problems:
        sys.exit(1)
    for game_id, digest in kept.items():
        seq, _ = store.head(game_id)
        click.echo(f"receipt matched: game {game_id} seq {seq} {digest}")
    click.echo("ok: every hash chain is intact, every snapshot's seal holds")


@main.command()
@db_option
def games(db_path: str) -> None:
    """List the stored games, newest first: id, game, events, started, players."""
    rows = [(row["id"], row["game"], str(row["events"]), row["created_at"], ", ".join(row["header"]["seats"])) for row in store_at(db_path).games()]
    if not rows:
        click.echo("no games yet (referee import FILE, referee demo, or start one in the app)")
        return
    table = [("id", "game", "events", "started", "players"), *rows]
    widths = [max(len(row[column]) for row in table) for column in range(4)]
    for row in table:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1]), row[2].rjust(widths[2]), row[3].ljust(widths[3]), row[4]]
        click.echo("  ".join(cells))


@main.command()
@click.option("--group", "group_ref", metavar="GROUP", help="Only this group's games (its id or name), by the group's players.")
@click.option("--json", "as_json", is_flag=True, help='Print {"games", "players": [{"name", "played", "won", "win_rate", "games", "last"}], "evenings"}.')
@click.option("--csv", "as_csv", is_flag=True, help="Print one row per player per game, for spreadsheets.")
@click.option("--rebuild", is_flag=True, help="Write the kept statistics anew from every game's log first.")
@db_option
def stats(group_ref: str | None, as_json: bool, as_csv: bool, rebuild: bool, db_path: str) -> None:
    """Statistics of the finished games: per player games played and won, per game.

    `played` counts the finished games in which a name held a seat, `won` those its rules
    name it a winner of; the win rate leaves out games the table ended early with no
    winner. A game that hides anything counts once the host has revealed it. With --group, seats count for the group's player who sat there
    (renamed or merged spellings together)."""
    tables = Tables(existing_store(db_path))
    if rebuild:
        counted = tables.plays.rebuild()
        if not (as_json or as_csv):
            click.echo(f"rebuilt from the logs: {counted} finished games")
    group_id = None if group_ref is None else Groups(tables.store).find(group_ref)
    if as_csv:
        click.echo(plays_csv(tables.plays.plays(group_id, seats=True)), nl=False)
        return
    shown = tables.plays.summary(group_id)
    if as_json:
        click.echo(json.dumps(shown, ensure_ascii=False))
        return
    click.echo(stats_table(shown))


def stats_table(shown: dict[str, Any]) -> str:
    if not shown["players"]:
        return "no finished games yet"
    rows = [("player", "played", "won", "win rate"),
            *[(p["name"], str(p["played"]), str(p["won"]), "–" if p["win_rate"] is None else f"{p['win_rate']:.0%}") for p in shown["players"]]]
    widths = [max(len(row[c]) for row in rows) for c in range(4)]
    lines = ["  ".join([row[0].ljust(widths[0]), *(cell.rjust(w) for cell, w in zip(row[1:], widths[1:]))]) for row in rows]
    early = f", {shown['ended_early']} ended early" if shown["ended_early"] else ""
    return "\n".join([*lines, f"{shown['games'] - shown['ended_early']} finished games{early}, {len(shown['evenings'])} evenings"])


def existing_store(db_path: str) -> Store:
    if db_path != ":memory:" and not is_url(db_path) and not Path(db_path).exists():
        raise click.ClickException(f"no database at {db_path}")
    return store_at(db_path)


@main.group()
def group() -> None:
    """Groups: the people who play together, their players, and their games as one file."""


@group.command("create")
@click.argument("name")
@db_option
def group_create(name: str, db_path: str) -> None:
    """Make a group and print its id and its members' link path."""
    groups = Groups(store_at(db_path))
    group_id = groups.create(name)
    click.echo(f"{group_id}  /groups/join/{groups.group(group_id)['code']}")  # type: ignore[index]


@group.command("list")
@db_option
def group_list(db_path: str) -> None:
    """Every group of the store: id, name, games, players."""
    groups = Groups(existing_store(db_path))
    for found in groups.named():
        click.echo(f"{found['id']}  {found['name']}  {len(groups.games(found['id']))} games  "
                   f"{', '.join(p.name for p in groups.active(found['id']))}")


@group.command("link")
@click.argument("group_ref", metavar="GROUP")
@click.option("--new", "renew", is_flag=True, help="Renew it: the old link opens nothing any more, and every browser that joined by it is out of the group until it opens the new one.")
@click.option("--host", "host", is_flag=True, help="The host's link instead: whoever opens it is the group's host (changes its house rules).")
@db_option
def group_link(group_ref: str, renew: bool, host: bool, db_path: str) -> None:
    """Print the path of a group's link for its members (or, with --host, for its host)."""
    groups = Groups(existing_store(db_path))
    group_id = groups.find(group_ref)
    if host:
        click.echo(f"/groups/host/{groups.host_code(group_id, renew)}")
        return
    code = groups.new_code(group_id) if renew else groups.group(group_id)["code"]  # type: ignore[index]
    click.echo(f"/groups/join/{code}")


@group.command("add")
@click.argument("group_ref", metavar="GROUP")
@click.argument("game")
@db_option
def group_add(group_ref: str, game: str, db_path: str) -> None:
    """Put a stored game into a group: each seat counts for the group's player of that name
    (a new name joins the group). A game belongs to one group at most."""
    store = existing_store(db_path)
    groups = Groups(store)
    groups.seat(groups.find(group_ref), game, list(store.header(game).seats))


@group.command("export")
@click.argument("group_ref", metavar="GROUP")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write to this file.")
@db_option
def group_export(group_ref: str, output: str | None, db_path: str) -> None:
    """Write a group as one file (table-group/1): its players and its games' records."""
    tables = Tables(existing_store(db_path))
    groups = Groups(tables.store)
    text = json.dumps(groups.export(groups.find(group_ref), tables.public_record), ensure_ascii=False, indent=1) + "\n"
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


@group.command("import")
@click.argument("file")
@db_option
def group_import(file: str, db_path: str) -> None:
    """Store a group's file as a new group (its games, its players and merges); print its id."""
    try:
        data = load_json(read_file(file))
    except RecordError as error:
        raise Unreadable(f"{file}: not JSON ({error.reason})") from None
    tables = Tables(store_at(db_path))
    try:
        click.echo(Groups(tables.store).import_(data, tables.import_record))
    except (GroupError, RecordError) as error:
        raise click.ClickException(f"{file}: {error}") from None


@group.command("rename")
@click.argument("group_ref", metavar="GROUP")
@click.argument("old")
@click.argument("new")
@db_option
def group_rename(group_ref: str, old: str, new: str, db_path: str) -> None:
    """Rename a group's player (the records keep the names they were played with)."""
    with_players(group_ref, db_path, lambda groups, group_id, ids: groups.rename(group_id, ids(old), new))


@group.command("merge")
@click.argument("group_ref", metavar="GROUP")
@click.argument("spelling")
@click.argument("into")
@db_option
def group_merge(group_ref: str, spelling: str, into: str, db_path: str) -> None:
    """Count a second spelling's games for the player INTO (the records are not changed)."""
    with_players(group_ref, db_path, lambda groups, group_id, ids: groups.merge(group_id, ids(spelling), ids(into)))


def with_players(group_ref: str, db_path: str, change: Any) -> None:
    groups = Groups(existing_store(db_path))
    group_id = groups.find(group_ref)
    by_name = {p.name: p.id for p in groups.players(group_id)}

    def player(name: str) -> int:
        if name not in by_name:
            raise GroupError(f"the group has no player {name!r} (it has: {', '.join(by_name)})")
        return by_name[name]

    change(groups, group_id, player)
    click.echo("ok")


@main.command()
@click.argument("game", type=click.Choice(game_names()))
@click.option("--lang", type=click.Choice(["en", "de"]), default="en", show_default=True, help="The language of the rule sentences.")
@click.option("--group", "group_ref", metavar="GROUP", help="Say first which rules this group does not play by (its house rules).")
@db_option
def rules(game: str, lang: str, group_ref: str | None, db_path: str) -> None:
    """Print a game's reference: its options, events, every rule id and when it is broken,
    scoring; with --group, the house rules in force for that group's games first."""
    if group_ref is not None:
        groups = Groups(existing_store(db_path))
        off = groups.house_rules(groups.find(group_ref), game)
        click.echo(f"House rules of {group_ref}: " + (", ".join(off) + " not played" if off else "none: every rule is played") + "\n")
    click.echo(reference(game, lang), nl=False)


@main.command()
@click.option("--link", is_flag=True, help="Print only the path of the maintainer's page that lists them.")
@db_option
def rulings(link: bool, db_path: str) -> None:
    """List the rulings that say the app is wrong (game, seq, rule, message): where tables
    let a move stand that the referee flagged, rule bugs to look into."""
    store = existing_store(db_path)
    path = f"/rulings/{maintainer_key(secret_beside(store.path))}"
    if link:
        click.echo(path)
        return
    found = app_is_wrong(Tables(store))
    for row in found:
        click.echo(f"{row['game_id']}  {row['game']}  seq {row['seq']}  {row['rule']}  {row['message']}")
    click.echo(f"{len(found)} rulings say the app is wrong; the page: {path}")


@main.command()
@click.argument("folder", type=click.Path(file_okay=False), default="docs")
def docs(folder: str) -> None:
    """Rewrite the generated reference of docs/ (a page per game, the OpenAPI document) from the code (for maintainers)."""
    for path in write_docs(Path(folder)):
        click.echo(path)
    from .web import create_app
    from .web.api import openapi_document

    with create_app({"DATABASE": ":memory:", "SECRET_KEY": "docs"}).app_context():
        path = Path(folder) / "openapi.json"
        path.write_text(json.dumps(openapi_document(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    click.echo(path)


@main.command()
@click.argument("folder", type=click.Path(file_okay=False), default="events")
def samples(folder: str) -> None:
    """Rewrite the sample records and their expected replay outputs (for maintainers)."""
    from .samples import write_samples

    Path(folder).mkdir(parents=True, exist_ok=True)
    for path in write_samples(Path(folder)):
        click.echo(path)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="0.0.0.0 lets phones on your network join.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--max-waiting", default=5000, show_default=True, type=click.IntRange(1, 100_000),
    help="Phones that may wait for news at once (each holds a greenlet, not a thread); past it a phone is told to come back later. Moves and pages are always served.",
)
@click.option("--max-connections", default=10_000, show_default=True, type=click.IntRange(1, 1_000_000),
              help="Open connections at once (at most the open-file limit less 256); past it a new one is answered 503 at once.")
@click.option("--max-connections-per-address", default=1_000, show_default=True, type=click.IntRange(0, 1_000_000),
              help="Open connections at once from one address; past it a new one is answered 503 at once. 0: no cap (behind a reverse proxy every phone has the proxy's address).")
@click.option("--idle-timeout", default=5.0, show_default=True, type=click.FloatRange(0.1, 3600),
              help="Seconds a connection may wait between requests (a phone waiting for news is not idle).")
@click.option("--header-timeout", default=5.0, show_default=True, type=click.FloatRange(0.1, 3600),
              help="Seconds a request's line and headers may take to arrive.")
@click.option("--transfer-timeout", default=10.0, show_default=True, type=click.FloatRange(0.1, 3600),
              help="Seconds a request's body or an answer may stand still (a client that does not read its answers).")
@click.option("--body-timeout", default=30.0, show_default=True, type=click.FloatRange(0.1, 3600),
              help="Seconds a request's whole body may take to arrive, however slowly it trickles.")
@click.option("--no-notify", is_flag=True,
              help="Use no LISTEN/NOTIFY (a pooler in transaction mode such as PgBouncer, or an engine without them): "
                   "phones waiting on another server process see a move within half a second.")
@db_option
def serve(host: str, port: int, max_waiting: int, max_connections: int, max_connections_per_address: int, idle_timeout: float,
          header_timeout: float, transfer_timeout: float, body_timeout: float, no_notify: bool, db_path: str) -> None:
    """Run the app on gevent's WSGI server: one event loop serves every phone."""
    from gevent import monkey

    monkey.patch_all()  # before the app exists: its locks and waits are the event loop's, not threads'
    from .web import create_app
    from .web.server import Limits, listen

    addresses = lan_addresses() if host in ("0.0.0.0", "::") else [host]
    public = f"http://{addresses[0]}:{port}" if addresses else f"http://127.0.0.1:{port}"
    store_at(db_path).close()  # a store of a newer version is refused here, in one line
    app = create_app({"DATABASE": db_path if is_url(db_path) else os.path.abspath(db_path), "PUBLIC_URL": public,
                      "LONG_POLL_MAX_WAITING": max_waiting, "LONG_POLL_MAX_PER_GAME": max(1, max_waiting // 2)})
    tables = app.extensions["referee"].tables
    if no_notify:  # a pooler would lose the notices unseen; the waiting phones read the head every half second
        tables.store.db.news = False
    else:
        tables.store.db.listen(tables.wake)  # moves stored by other server processes wake this one's phones
    try:  # bind first: "Open …" is said only once the server really listens
        server = listen(app, host, port, Limits(idle_timeout, header_timeout, transfer_timeout, max_connections, max_connections_per_address,
                                                 body_timeout))
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        raise click.ClickException(f"cannot listen on {host}:{port} ({reason}): the port is taken; "
                                   f"try another, e.g. referee serve --port {port + 1 if port < 65535 else 8000}") from None
    if host in ("0.0.0.0", "::"):
        if not addresses:
            click.echo(
                "Warning: this machine has no address on a network; phones cannot reach it. "
                f"Join a Wi-Fi network (or open a hotspot) and start again. Local use: http://127.0.0.1:{port}/",
                err=True,
            )
        for number, address in enumerate(addresses):
            url = f"http://{address}:{port}/"
            click.echo(f"Phones on this network open {url}" if number == 0 else f"  or, on another network: {url}")
        if addresses:
            click.echo(qr_for_terminal(f"http://{addresses[0]}:{port}/"))
    else:
        click.echo(f"Open http://{host}:{port}/")
    server.serve_forever()


def lan_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses, the one with the default route first.

    A UDP socket "connected" to a non-routable address sends no packet but makes the
    system pick the source address it would use; that works where the hostname resolves
    only to 127.0.0.1. The addresses the hostname resolves to are added after it.
    """
    import socket

    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.254.254.254", 1))
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        found += sorted({info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)})
    except OSError:
        pass
    usable = [a for a in found if not a.startswith(("127.", "0."))]
    return list(dict.fromkeys(usable))


def qr_for_terminal(text: str) -> str:
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()


@main.command()
@db_option
def demo(db_path: str) -> None:
    """Store the sample records (one per game and table size) as games to look at.

    Each sample is stored once, as game `demo-<name>`; a second run skips them."""
    from .web import resource_dir

    tables = Tables(store_at(db_path))
    for path in sorted(resource_dir("events").glob("*.jsonl")):
        try:
            game_id = tables.import_record(read_record(path.read_text(encoding="utf-8")), f"demo-{path.stem}")
        except RecordError:
            click.echo(f"demo-{path.stem}  {path.name} (stored already)")
            continue
        click.echo(f"{game_id}  {path.name}")
