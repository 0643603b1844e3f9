"""The Flask app: JSON API and htmx pages over one event store."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, current_app, jsonify, render_template, request, session
from werkzeug.exceptions import RequestEntityTooLarge
from flask_babel import gettext
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from ..access import Access, Caller, may_log
from ..database import Unavailable
from ..groups import Groups
from ..record import MAX_SEQ, write_record
from ..replay import Fold, Sight
from ..kept import secret_beside
from ..store import Store
from ..tables import Tables

TOP = Path(__file__).resolve().parent.parent


def resource_dir(name: str) -> Path:
    """`templates/` or `events/`: top level in a checkout, inside the package when installed."""
    in_checkout = (TOP.parent / "pyproject.toml").is_file()
    return TOP.parent / name if in_checkout else TOP / name


class GuessLimit:
    """Join-code guessing: failed attempts per client address (the `limits` library).

    Checked only where codes are tried, not as app-wide middleware, which cost a fifth
    of the append throughput (bench/bench_server.py).
    """

    def __init__(self, rule: str) -> None:
        self.rule = parse(rule)
        self.window = MovingWindowRateLimiter(MemoryStorage())

    def check(self) -> None:
        if not self.window.test(self.rule, request.remote_addr or "-"):
            abort(429, "too many wrong codes; wait a minute")

    def failed(self) -> None:
        self.window.hit(self.rule, request.remote_addr or "-")

    def found(self, code: str, lookup: Callable[[str], str | None], missing: str) -> str:
        """What `lookup` finds for a code in a link; a code that finds nothing is a wrong try (404)."""
        self.check()
        found = lookup(self.readable(code))
        if found is None:
            self.failed()
            abort(404, missing)
        return found

    def readable(self, code: str) -> str:
        """A tried code that is text: 400 otherwise (a lone surrogate), counted as a wrong try."""
        try:
            code.encode("utf-8")
        except UnicodeEncodeError:
            self.failed()
            abort(400, "the code is not readable text")
        return code


@dataclass
class Referee:
    """What every request works with."""

    tables: Tables
    access: Access
    guesses: GuessLimit
    groups: Groups


def referee() -> Referee:
    extension: Referee = current_app.extensions["referee"]
    return extension


CLIENT_GONE = "referee.client_gone"  # in a request's environ: whether its phone has left (web.server)
GROUP_LINKS = "group_links"  # in the signed session cookie: the codes of the group links this browser opened
GROUP_LINKS_KEPT = 20
GROUP_PHONES = "group_phones"  # in the signed session cookie: {group id: the code of this phone as the group's member}


def join_group(code: str) -> None:
    """This browser belongs to the group of this link, until the link is renewed."""
    session[GROUP_LINKS] = [code, *[known for known in session.get(GROUP_LINKS, []) if known != code]][:GROUP_LINKS_KEPT]
    group_id = referee().groups.for_code(code)
    if group_id is not None and removed(group_id):  # back by the link: a member again, no player until it says whose it is
        session[GROUP_PHONES] = {g: c for g, c in session[GROUP_PHONES].items() if g != group_id}


def in_group(group_id: str | None) -> dict[str, Any] | None:
    """The group, if this browser opened its current link. The session is read first, whether
    or not the group exists, so a missing group and another's answer alike (`Vary: Cookie`)."""
    links = session.get(GROUP_LINKS, [])
    group = referee().groups.group(group_id) if group_id else None
    return group if group is not None and group["code"] in links and not removed(group["id"]) else None


def removed(group_id: str) -> bool:
    """Whether the group's host removed this phone: out of the group until it opens the link again."""
    phone = session.get(GROUP_PHONES, {}).get(group_id)
    return phone is not None and referee().groups.phone_player(group_id, phone) is None


def member_group(group_id: str | None) -> dict[str, Any]:
    """The group, if this browser belongs to it; 404 otherwise, as for a group that does not
    exist: nothing of a group is shown outside it, not even that it exists."""
    group = in_group(group_id)
    if group is None:
        abort(404, "There is no such group.")
    return group


def my_groups() -> list[dict[str, Any]]:
    """The groups this browser belongs to: nobody else's are listed."""
    return [group for group in referee().groups.named(session.get(GROUP_LINKS, [])[:GROUP_LINKS_KEPT]) if not removed(group["id"])]


def sight_of(game_id: str, fold: Fold, caller: Caller, at: int | None = None) -> Sight:
    """What this caller may know of this game (as of event `at`, for the history): the
    secrets are everyone's once the host has revealed them; a game without secrets reveals
    itself at its end."""
    return caller.sight(fold.game, fold.state, referee().tables.revealed(game_id, fold, at))


def refusal(game_id: str, caller: Caller, body: dict[str, Any]) -> str | None:
    """Why this caller may not log this event here (None: allowed); a void needs its target."""
    target = body.get("target") if body.get("type") == "void" else None
    known = type(target) is int and 0 < target <= MAX_SEQ  # else the schema refuses it
    event = referee().tables.store.event(game_id, target) if known else None
    return may_log(referee().tables.store.header(game_id).rules, caller, body, event)


def record_download(game_id: str, caller: Caller) -> Response:
    """The game as a table record file, with the log's head (`X-Table-Head: SEQ:HASH`, the
    receipt `referee verify --head` checks). Before the end only the host may take it
    where the game hides anything (hands, money, a score table that tells won cards)."""
    tables = referee().tables
    fold = tables.fold(game_id)
    if fold.game.hides_anything and not sight_of(game_id, fold, caller).everything:
        abort(403, "Until the host reveals the secrets at the end, only the host can download the record.")
    head_seq, head_hash = tables.store.head(game_id)
    return Response(
        write_record(fold.header, tables.store.events(game_id)),
        mimetype="application/jsonl",
        headers={"Content-Disposition": f'attachment; filename="{fold.header.game}-{game_id}.jsonl"',
                 "X-Table-Head": f"{head_seq}:{head_hash}"},
    )


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Create and configure the app (flaskr's factory, with our top-level templates).

    Settings: defaults, then `instance/config.py`, then `test_config` (tests, `referee serve`).
    """
    app = Flask(
        __name__,
        instance_path=os.path.abspath(os.environ.get("REFEREE_INSTANCE", "instance")),
        instance_relative_config=True,
        template_folder=str(resource_dir("templates")),
    )
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "referee.sqlite3"),
        MAX_CONTENT_LENGTH=8 * 1024 * 1024,  # a file: a long match's record, a group's file
        MAX_BODY_BYTES=64 * 1024,  # anything else: a move, a form
        JOIN_RATE_LIMIT="10 per minute",
        LONG_POLL_SECONDS=20,
        LONG_POLL_MAX_WAITING=24,  # `referee serve` sets its own (--max-waiting)
        LONG_POLL_MAX_PER_GAME=12,
        LONG_POLL_RETRY_SECONDS=5,  # a phone over the cap asks again after this
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
    )
    app.config.from_pyfile("config.py", silent=True)
    if test_config is not None:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    store = Store(app.config["DATABASE"])
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = secret_beside(store.path)
    tables = Tables(store, app.config["LONG_POLL_MAX_WAITING"], app.config["LONG_POLL_MAX_PER_GAME"])
    app.extensions["referee"] = Referee(tables, Access(store, tables.sharing), GuessLimit(app.config["JOIN_RATE_LIMIT"]), Groups(store))

    from . import api, board_pages, group_pages, pages

    app.register_blueprint(api.bp)
    pages.init_app(app)
    app.register_blueprint(group_pages.bp)
    app.register_blueprint(group_pages.tables_bp)
    app.register_blueprint(board_pages.bp)
    app.register_error_handler(Unavailable, unavailable)
    app.register_error_handler(RequestEntityTooLarge, too_large)
    app.before_request(small_bodies_but_files)
    app.after_request(security_headers)
    return app


FILE_ENDPOINTS = frozenset({"api.import_game", "pages.import_record", "groups.import_group"})


def small_bodies_but_files() -> None:
    """A move or a form is small; only a file (a record, a group's file) may be large, up to
    MAX_CONTENT_LENGTH: a long body elsewhere is refused before it is read."""
    if request.endpoint not in FILE_ENDPOINTS and (request.content_length or 0) > current_app.config["MAX_BODY_BYTES"]:
        raise RequestEntityTooLarge()


def too_large(error: RequestEntityTooLarge) -> Response:
    """413 in words, naming the limit: a page for a phone, JSON under /api."""
    limit = current_app.config["MAX_CONTENT_LENGTH" if request.endpoint in FILE_ENDPOINTS else "MAX_BODY_BYTES"]
    words = gettext("This is too large: at most %(size)s KB are accepted here. Nothing was stored.", size=limit // 1024)
    return problem(413, gettext("Too large"), words, again=False)


def problem(status: int, heading: str, words: str, again: bool) -> Response:
    """An answer in words that no view gave: JSON under /api, else a short page with a way
    on (`again`: the same address once more; else home)."""
    if request.path.startswith("/api/"):
        response = jsonify({"error": words})
    else:
        response = Response(render_template("problem.html", heading=heading, words=words, again=again), mimetype="text/html")
    response.status_code = status
    return response


RETRY_SECONDS = 2  # how soon a phone asks again while the database is away


def unavailable(error: Unavailable) -> Response:
    """The database is away (a restart, a failover, a disk that refuses writes): 503 with
    Retry-After, in words, never a 500; the phone keeps its move and sends it again (its
    idempotency key stores it once). Answers again as soon as the database does."""
    current_app.logger.warning("%s", error)
    words = gettext("The database is not answering; your move waits on this phone and is sent again")
    response = problem(503, gettext("Waiting for the database"), words, again=True)
    response.headers["Retry-After"] = str(RETRY_SECONDS)
    return response


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def security_headers(response: Response) -> Response:
    """Only the app's own scripts, no framing, no sniffing; nothing private is cached.

    Added, not looked up first: no view sets these, and every response (each move) pays
    for them (`setdefault` cost three scans and an exception each)."""
    headers = response.headers
    headers.add("Content-Security-Policy", CSP)
    headers.add("X-Content-Type-Options", "nosniff")
    headers.add("Referrer-Policy", "same-origin")
    if request.endpoint not in ("pages.htmx_script", "pages.icon"):
        headers["Cache-Control"] = "no-store"
    return response
