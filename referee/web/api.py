"""The JSON API under /api (DESIGN.md): games, seats, events, records, live updates."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from flask import Blueprint, Response, abort, current_app, jsonify, request
from marshmallow import INCLUDE, Schema, ValidationError, fields, validate
from werkzeug.exceptions import HTTPException

from ..access import MOVE_CODE_SECONDS, AccessDenied, Caller, MoveRefused, SeatTaken, visible_event
from ..record import FORMAT, MAX_SEQ, Header, RecordError, check_names, load_json, normal_name, parse_header, read_record
from ..replay import Fold, Sight, flag_json, report
from ..store import Conflict, SecretSeen, UnknownGame, now
from ..tables import NotOver
from . import CLIENT_GONE, record_download, referee, refusal, sight_of

bp = Blueprint("api", __name__, url_prefix="/api")
# Not a CORS-safelisted type, so no other site's page can post a record here unasked.
RECORD_TYPES = ("application/jsonl", "application/x-ndjson", "application/json")


class CreateGame(Schema):
    """A header without its `format` line: the game, the seats in clockwise order, options."""

    format = fields.String(validate=validate.Equal(FORMAT))
    game = fields.String(required=True)
    seats = fields.List(fields.String(), required=True)
    options = fields.Dict(keys=fields.String())
    title = fields.String()
    started_at = fields.String()
    host_seat = fields.Integer(strict=True, validate=validate.Range(min=0), metadata={
        "description": "the seat the host plays (0-based); leave it out for a host who only keeps score and sees every secret"})


class HostSeat(Schema):
    """The seat the host plays from now on: public, and for good."""

    seat = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))


class AppendEvent(Schema):
    """One event without `seq`, as DESIGN.md's record line; the game's schema checks the rest."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True)
    expected_seq = fields.Integer(strict=True, validate=validate.Range(min=0), metadata={"description": "the last seq you saw"})


class Code(Schema):
    code = fields.String(required=True, validate=validate.Length(min=1, max=20))


class ClaimSeat(Schema):
    code = fields.String(validate=validate.Length(min=1, max=20), metadata={"description": "the join code"})
    move_code = fields.String(validate=validate.Length(min=1, max=20), metadata={
        "description": "the one-time code the seat's own phone showed (POST .../move-code): the seat moves here, keeping everything"})


class Created(Schema):
    id = fields.String()
    join_code = fields.String()
    host_token = fields.String()


Problem = Schema.from_dict(
    {"error": fields.String(), "fields": fields.Dict(), "current_seq": fields.Integer()}, name="Problem"
)


SCHEMAS = {schema.__name__: schema() for schema in (CreateGame, Code, ClaimSeat, HostSeat)}


# --- helpers at the edge -------------------------------------------------------------------


def json_object() -> dict[str, Any]:
    """The request's JSON object: 415 or 400 otherwise."""
    if not request.is_json:
        abort(415, "send JSON with Content-Type: application/json")
    try:
        data = load_json(request.get_data())
    except RecordError as error:
        abort(400, str(error))
    if not isinstance(data, dict):
        abort(400, "the body must be a JSON object")
    return data


def json_body(schema: Schema) -> dict[str, Any]:
    """The request's JSON object loaded by `schema`: 415, 400 with field errors otherwise."""
    data = json_object()
    try:
        loaded: dict[str, Any] = schema.load(data)
        return loaded
    except ValidationError as error:
        raise BadFields(error.messages) from None


class BadFields(HTTPException):
    code = 400

    def __init__(self, errors: Any, message: str = "the body has errors") -> None:
        super().__init__(message)
        self.errors = errors


def known_game(game_id: str) -> Header:
    try:
        return referee().tables.store.header(game_id)
    except UnknownGame:
        abort(404, f"no game {game_id!r}")


def bearer_token() -> str | None:
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        abort(401, "use Authorization: Bearer <token>")
    return token.strip()


def caller_at(game_id: str) -> Caller:
    known_game(game_id)
    try:
        return referee().access.caller(game_id, bearer_token())
    except AccessDenied as error:
        abort(403, str(error))


def event_json(fold: Fold, event: dict[str, Any], sight: Sight) -> dict[str, Any]:
    """One event as this reader may see it, with its standing flag or what withdrew it."""
    seq = event["seq"]
    violation, withdrawn = fold.violation_at(seq), fold.withdrawn_at(seq)
    clash = fold.clash_at(seq, sight)
    ruled = fold.ruled_at(seq)
    return {
        **visible_event(fold.game, event, sight),
        "violation": None if violation is None or not sight.sees(violation.audience) else flag_json(violation),
        "voided": withdrawn is not None,
        "withdrawn": None if withdrawn is None else {**flag_json(withdrawn.flag, sight), "voided_by": withdrawn.voided_by},
        **({"clash": flag_json(clash)} if clash is not None else {}),
        **({"ruled": {**flag_json(ruled.flag), "ruling": ruled.ruling, "reason": ruled.reason}} if ruled is not None else {}),
    }


def game_json(game_id: str, fold: Fold, caller: Caller) -> dict[str, Any]:
    """The game as this caller may see it."""
    sight = sight_of(game_id, fold, caller)
    seat = caller.seat
    return {
        "id": game_id,
        "title": fold.header.title,
        "seats": list(fold.header.seats),
        "seq": fold.seq,
        "host_seat": referee().tables.store.host_seat(game_id),
        "seat_changes": referee().tables.store.seat_changes(game_id),
        "you": {"role": caller.role, "seat": seat, **({"blind": True} if caller.blind else {})},
        "revealed": bool(fold.game.private_events) and referee().tables.store.revealed(game_id) is not None,
        "view": fold.view(seat, sight),
        **report(fold, sight=sight),
    }


def created(game_id: str) -> tuple[Response, int]:
    join_code, host_token = referee().access.open_table(game_id)
    return jsonify(id=game_id, join_code=join_code, host_token=host_token), 201


# --- endpoints -----------------------------------------------------------------------------


@bp.post("/games")
def create_game() -> tuple[Response, int]:
    """Start a game: returns its id, the join code and the host token."""
    body = json_body(SCHEMAS["CreateGame"])
    host_seat = body.pop("host_seat", None)
    body["seats"] = [normal_name(name) for name in body["seats"]]
    try:
        header = parse_header({"format": FORMAT, "options": {}, "started_at": now(), **body}, None)
        check_names(header.seats, None)
    except RecordError as error:
        raise BadFields(error.errors, str(error)) from None
    if host_seat is not None and host_seat >= len(header.seats):
        raise BadFields({"host_seat": [f"There are {len(header.seats)} seats (0 to {len(header.seats) - 1})."]})
    return created(referee().tables.create(header, host_seat=host_seat))


@bp.post("/games/<game_id>/host-seat")
def host_plays(game_id: str) -> Response:
    """The host plays a seat from now on: told only what that seat is told. Public, and for good."""
    header = known_game(game_id)
    if not caller_at(game_id).is_host:
        abort(403, "only the host says which seat the host plays")
    seat = json_body(SCHEMAS["HostSeat"])["seat"]
    if seat >= len(header.seats):
        raise BadFields({"seat": [f"There are {len(header.seats)} seats (0 to {len(header.seats) - 1})."]})
    try:
        played = referee().access.host_plays(game_id, seat)
    except SecretSeen as seen:
        abort(409, f"the host starts to play only while no other seat's private record is logged (one was logged at event {seen.seq}); "
                   "the host keeps score for this game")
    if played != seat:
        abort(409, f"the host plays seat {played} already; that cannot change")
    return jsonify(host_seat=played)


@bp.post("/games/import")
def import_game() -> tuple[Response, int]:
    """Store a whole table record (the request body, JSON Lines) as a new game, all or nothing."""
    if request.mimetype not in RECORD_TYPES:
        abort(415, f"send the record with Content-Type: {RECORD_TYPES[0]}")
    try:
        text = request.get_data().decode("utf-8")
        record = read_record(text)
    except UnicodeDecodeError as error:
        abort(400, f"the record is not UTF-8: {error.reason} at byte {error.start}")
    except RecordError as error:
        raise BadFields(error.errors, str(error)) from None
    return created(referee().tables.import_record(record))


@bp.post("/join")
def join() -> Response:
    """Find a game by its join code (lists the seats and which are taken), or by a seat's
    move code (names the seat it moves: claim it with `move_code`)."""
    referee().guesses.check()
    code = referee().guesses.readable(json_body(SCHEMAS["Code"])["code"])
    game_id = referee().access.game_for_code(code)
    moving = None if game_id is not None else referee().access.move_for_code(code)
    if moving is not None:
        return jsonify(id=moving[0], seats=seat_list(moving[0]), moves_seat=moving[1])
    if game_id is None:
        referee().guesses.failed()
        abort(404, "no game has this code, and no seat moves with it")
    return jsonify(id=game_id, seats=seat_list(game_id))


def seat_list(game_id: str) -> list[dict[str, Any]]:
    header = known_game(game_id)
    taken = referee().access.claimed_seats(game_id)
    return [{"seat": s, "name": name, "claimed": s in taken} for s, name in enumerate(header.seats)]


@bp.post("/games/<game_id>/seats/<int:seat>")
def claim_seat(game_id: str, seat: int) -> tuple[Response, int]:
    """Claim a seat with the join code (a seat token); the host hands a seat to a new phone."""
    header = known_game(game_id)
    caller = caller_at(game_id)
    body = json_body(SCHEMAS["ClaimSeat"])
    if not 0 <= seat < len(header.seats):
        abort(404, f"there is no seat {seat}")
    access = referee().access
    if "move_code" in body:  # the seat's own phone showed this code: the seat moves here
        referee().guesses.check()
        try:
            token = access.take_move(game_id, seat, referee().guesses.readable(body["move_code"]))
        except MoveRefused as error:
            referee().guesses.failed()
            abort(403, str(error))
        return jsonify(seat=seat, name=header.seats[seat], token=token), 201
    if caller.is_host:
        return jsonify(seat=seat, name=header.seats[seat], token=access.hand_on(game_id, seat)), 201
    referee().guesses.check()
    if access.game_for_code(referee().guesses.readable(body.get("code", ""))) != game_id:
        referee().guesses.failed()
        abort(403, "the join code is wrong")
    try:
        token = access.claim_seat(game_id, seat)
    except SeatTaken as error:
        abort(409, str(error))
    return jsonify(seat=seat, name=header.seats[seat], token=token), 201


@bp.post("/games/<game_id>/move-code")
def move_code(game_id: str) -> tuple[Response, int]:
    """A seat's own phone asks for a one-time code that moves the seat to another phone."""
    caller = caller_at(game_id)
    if caller.role != "seat":
        abort(403, "only a seat's own phone moves it to another phone (the host hands a seat on: POST .../seats/N)")
    return jsonify(seat=caller.seat, move_code=referee().access.move_code(game_id, caller), expires_in=MOVE_CODE_SECONDS), 201


@bp.get("/games/<game_id>")
def game_state(game_id: str) -> Response:
    """The game's state and result as the caller may see them."""
    caller = caller_at(game_id)
    return jsonify(game_json(game_id, referee().tables.fold(game_id), caller))


@bp.post("/games/<game_id>/events")
def append_event(game_id: str) -> tuple[Response, int]:
    """Log one event; illegal moves are stored and answered with their violation."""
    caller = caller_at(game_id)
    # The event is checked once, by the store against its game's compiled schema (a move is
    # the hot path); only `expected_seq`, which is not part of it, is checked here.
    body = json_object()
    expected_seq = body.pop("expected_seq", None)
    if expected_seq is not None and (type(expected_seq) is not int or not 0 <= expected_seq <= MAX_SEQ):
        raise BadFields({"expected_seq": ["The last seq you saw: a whole number, 0 or more."]})
    tables = referee().tables
    if "by" not in body and caller.role != "spectator":
        body["by"] = caller.by
    elif body.get("by") != caller.by:
        abort(403, "`by` must name who logs the event: yourself")
    refused = refusal(game_id, caller, body)
    if refused:
        abort(401 if caller.role == "spectator" else 403, refused)
    body.setdefault("at", now())  # when it was logged, unless the client says when it happened
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= 200:
        abort(400, "Idempotency-Key must have 1 to 200 characters")
    try:
        appended = tables.append(game_id, body, expected_seq, caller.idempotency_key(key))
    except RecordError as error:
        raise BadFields(error.errors, str(error)) from None
    except Conflict as conflict:
        return jsonify(error=str(conflict), current_seq=conflict.current_seq), 409
    sight = sight_of(game_id, appended.fold, caller)
    violation = appended.violation
    answer = {
        "seq": appended.seq,
        "event": visible_event(appended.fold.game, appended.event, sight),
        "violation": None if violation is None or not sight.sees(violation.audience) else flag_json(violation),
        "finished": appended.finished,
    }
    return jsonify(answer), 201  # a retry answers exactly as the first time


@bp.post("/games/<game_id>/reveal")
def reveal(game_id: str) -> Response:
    """The host confirms the end: every seat's secrets are shown to everyone, for good."""
    if not caller_at(game_id).is_host:
        abort(403, "only the host reveals the secrets")
    try:
        seq = referee().tables.reveal(game_id)
    except NotOver as error:
        abort(409, str(error))
    return jsonify(revealed_at=seq)


@bp.get("/games/<game_id>/witness/<int:seq>")
def witness(game_id: str, seq: int) -> Response:
    """The witness hash at event `seq`: a phone keeps the last one it saw and checks that
    the log still holds it (404: the log no longer reaches that far)."""
    known_game(game_id)
    digest = referee().tables.witness(game_id, min(seq, MAX_SEQ))
    if digest is None:
        abort(404, f"the log has no event {seq}")
    return jsonify(seq=seq, hash=digest)


@bp.get("/games/<game_id>/events")
def list_events(game_id: str) -> Response:
    """Events after `after`; with `wait=N` waits up to N seconds for the next one (long-poll)."""
    caller = caller_at(game_id)
    after = min(request.args.get("after", 0, type=int), MAX_SEQ)
    wait = min(request.args.get("wait", 0, type=float), current_app.config["LONG_POLL_SECONDS"])
    tables = referee().tables
    waited = tables.wait(game_id, after, wait, request.environ.get(CLIENT_GONE)) if wait > 0 else True
    fold = tables.fold(game_id)
    sight = sight_of(game_id, fold, caller)
    events = [event_json(fold, event, sight) for event in tables.store.events(game_id, after=max(after, 0))]
    response = jsonify(events=events, seq=fold.seq, finished=fold.outcome is not None,
                       witness={"seq": fold.seq, "hash": tables.witness(game_id, fold.seq)})
    if not waited:  # too many phones wait already: come back later
        response.headers["Retry-After"] = str(current_app.config["LONG_POLL_RETRY_SECONDS"])
    return response


@bp.get("/games/<game_id>/record")
def export_record(game_id: str) -> Response:
    """The game as a table record; before the end only the host may take it (it holds hands)."""
    return record_download(game_id, caller_at(game_id))


@bp.get("/openapi.json")
def openapi() -> Response:
    """The OpenAPI document, generated from the marshmallow schemas."""
    return jsonify(openapi_document())


@lru_cache(maxsize=1)
def openapi_document() -> dict[str, Any]:
    spec = APISpec("Table Referee", "1.0", "3.0.3", plugins=[MarshmallowPlugin()])
    spec.components.security_scheme("bearer", {"type": "http", "scheme": "bearer"})
    for schema in (CreateGame, HostSeat, AppendEvent, Code, ClaimSeat, Created, Problem):
        spec.components.schema(schema.__name__, schema=schema)

    def json_op(summary: str, body: str | None = None, ok: str = "200", params: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        operation: dict[str, Any] = {
            "summary": summary,
            "responses": {ok: {"description": "done"}, "400": {"description": "bad input", "content": {"application/json": {"schema": "Problem"}}}},
            "security": [{"bearer": []}, {}],
        }
        if body:
            operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
        if params:
            operation["parameters"] = params
        return operation

    game_id = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
    seat = {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer"}}
    after = {"name": "after", "in": "query", "schema": {"type": "integer"}}
    spec.path("/api/games", operations={"post": json_op("Start a game", "CreateGame", "201")})
    spec.path(
        "/api/games/import",
        operations={"post": {"summary": "Import a table record", "requestBody": {"content": {"application/jsonl": {"schema": {"type": "string"}}}}, "responses": {"201": {"description": "stored"}}}},
    )
    spec.path("/api/join", operations={"post": json_op("Find a game by join code", "Code")})
    spec.path("/api/games/{game_id}/seats/{seat}", operations={"post": json_op("Claim a seat", "ClaimSeat", "201", [game_id, seat])})
    spec.path("/api/games/{game_id}", operations={"get": json_op("State and result", params=[game_id])})
    spec.path("/api/games/{game_id}/events", operations={
        "post": json_op("Log an event", "AppendEvent", "201", [game_id, {"name": "Idempotency-Key", "in": "header", "schema": {"type": "string"}}]),
        "get": json_op("Events after a seq", params=[game_id, after, {"name": "wait", "in": "query", "schema": {"type": "number"}}]),
    })
    spec.path("/api/games/{game_id}/move-code", operations={"post": json_op("A seat's one-time code to move it to another phone", ok="201", params=[game_id])})
    spec.path("/api/games/{game_id}/host-seat", operations={"post": json_op("The host plays a seat (for good)", "HostSeat", params=[game_id])})
    spec.path("/api/games/{game_id}/reveal", operations={"post": json_op("Reveal the secrets at the end (host)", params=[game_id])})
    spec.path("/api/games/{game_id}/witness/{seq}", operations={"get": json_op("The witness hash at an event", params=[game_id, {"name": "seq", "in": "path", "required": True, "schema": {"type": "integer"}}])})
    spec.path("/api/games/{game_id}/record", operations={"get": json_op("The table record", params=[game_id])})
    return spec.to_dict()


@bp.app_errorhandler(404)
@bp.app_errorhandler(405)
def routing_error(error: HTTPException) -> Any:
    """Unknown paths and methods under /api answer in JSON too."""
    return http_error(error) if request.path.startswith("/api/") else error


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException) -> tuple[Response, int]:
    body: dict[str, Any] = {"error": error.description}
    if isinstance(error, BadFields):
        body["fields"] = _json_safe(error.errors)
    return jsonify(body), error.code or 500


def _json_safe(errors: Any) -> Any:
    """marshmallow keys list items by int; JSON keys are strings."""
    if isinstance(errors, dict):
        return {str(key): _json_safe(value) for key, value in errors.items()}
    if isinstance(errors, list):
        return [_json_safe(item) for item in errors]
    return errors
