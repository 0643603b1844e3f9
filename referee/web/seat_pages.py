"""The pages that say who holds which seat: the host's page (join code, seats, "I play this
seat", free a seat), joining by code or link, the seat picker, and moving a seat to
another phone (docs/privacy.md: the threat model at every hand-off)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response as BaseResponse

from ..access import MOVE_CODE_SECONDS, MoveRefused, SeatTaken, normalise_code
from ..store import SecretSeen
from . import in_group, my_groups, referee
from .pages import fold_of, my_games, page_caller, public_url, qr_svg, with_token

bp = Blueprint("seats", __name__)


@bp.get("/g/<game_id>/host")
def host(game_id: str) -> Any:
    """The host's page: the join code and a QR code for the other phones."""
    fold = fold_of(game_id)
    caller = page_caller(game_id)
    if not caller.is_host:
        return redirect(url_for("pages.table", game_id=game_id))
    code = referee().access.join_code(game_id) or ""
    link = public_url("seats.join_link", code=code)
    qr = qr_svg(link)
    taken = referee().access.claimed_seats(game_id)
    group_id = referee().groups.group_of(game_id)
    return render_template("host.html", fold=fold, game_id=game_id, code=code, link=link, qr=qr, taken=taken, playing=caller.seat,
                           group=in_group(group_id), groups=[] if group_id else my_groups())


@bp.post("/g/<game_id>/host/release/<int:seat>")
def release(game_id: str, seat: int) -> BaseResponse:
    """The host frees a claimed seat (its phone is lost), so another phone can take it:
    every phone is told, and the history shows it."""
    fold = fold_of(game_id)
    if not page_caller(game_id).is_host:
        abort(403, "Only the host can free a seat.")
    if not 0 <= seat < len(fold.header.seats):
        abort(404, "There is no such seat.")
    referee().access.free_seat(game_id, seat)
    flash(gettext("%(name)s's seat is free again.", name=fold.header.seats[seat]), "info")
    return redirect(url_for("seats.host", game_id=game_id))


@bp.get("/j/<code>")
def join_link(code: str) -> Any:
    """The link in the QR code: straight to the seat picker."""
    game_id = referee().guesses.found(code, referee().access.game_for_code, "No game has this code.")
    return redirect(url_for("seats.seats", game_id=game_id, code=normalise_code(code)))


@bp.post("/join")
def join() -> Any:
    """Join with a typed code: a join code leads to the seat picker, a seat's move code
    (typed off the old phone's screen) to "Take Cem's seat", under one limit of wrong tries."""
    referee().guesses.check()
    code = referee().guesses.readable(request.form.get("code", ""))
    game_id = referee().access.game_for_code(code)
    moving = None if game_id is not None else referee().access.move_for_code(code)
    if moving is not None:
        return redirect(url_for("seats.take", game_id=moving[0], seat=moving[1], code=normalise_code(code)))
    if game_id is None:
        referee().guesses.failed()
        flash(gettext("No game has the code %(code)s.", code=code), "error")
        return render_template("home.html", recent=my_games(), groups=my_groups()), 404
    return redirect(url_for("seats.seats", game_id=game_id, code=normalise_code(code)))


@bp.get("/g/<game_id>/seats")
def seats(game_id: str) -> Any:
    """Pick your seat (or watch). A phone that holds a seat of this game (or hosts it) goes
    back to the table: Back from the table never strands it among "taken" seats."""
    fold = fold_of(game_id)
    if page_caller(game_id).role != "spectator":
        return redirect(url_for("pages.table", game_id=game_id))
    taken = referee().access.claimed_seats(game_id)
    return render_template("seats.html", fold=fold, game_id=game_id, taken=taken, code=request.args.get("code", ""),
                           host_seat=referee().tables.store.host_seat(game_id))


@bp.post("/g/<game_id>/seats/<int:seat>")
def claim(game_id: str, seat: int) -> Any:
    """Take a seat: the phone remembers it in a cookie for this game only."""
    fold = fold_of(game_id)
    access = referee().access
    if not 0 <= seat < len(fold.header.seats):
        abort(404, "There is no such seat.")
    if page_caller(game_id).is_host:  # the host plays this seat, for good, and stays the host
        try:
            played = access.host_plays(game_id, seat)
        except SecretSeen:
            flash(gettext("This phone keeps score for this game: another seat's private record has been logged, so the host can no longer play a seat."), "error")
            return redirect(url_for("seats.host", game_id=game_id))
        if played != seat:
            flash(gettext("This phone plays %(name)s already; that cannot change before the reveal.", name=fold.header.seats[played]), "error")
            return redirect(url_for("seats.host", game_id=game_id))
        return redirect(url_for("pages.table", game_id=game_id))
    referee().guesses.check()
    if access.game_for_code(referee().guesses.readable(request.form.get("code", ""))) != game_id:
        referee().guesses.failed()
        abort(403, "The join code is wrong.")
    try:
        token = access.claim_seat(game_id, seat)
    except SeatTaken:
        flash(gettext("That seat is taken; the host can hand it to this phone."), "error")
        return redirect(url_for("seats.seats", game_id=game_id, code=request.form.get("code", "")))
    return with_token(redirect(url_for("pages.table", game_id=game_id)), game_id, token)


@bp.app_template_global()
def next_game_join(game_id: str) -> tuple[str, Any, str] | None:
    """The group's newest game, not over, if it came after this one: (game, header, join
    code) for a phone that sat at (or hosted) this game, so players who joined by code and
    are no members find the next table too. A spectator is offered nothing: the join code
    goes only to those the last table let in (docs/privacy.md)."""
    group_id = referee().groups.group_of(game_id)
    if group_id is None or page_caller(game_id).role == "spectator":
        return None
    newest = referee().groups.games(group_id, latest=1)
    if not newest or newest[0] == game_id or referee().tables.fold(newest[0]).outcome is not None:
        return None
    return newest[0], referee().tables.fold(newest[0]).header, referee().access.join_code(newest[0]) or ""


# --- a seat moves to another phone ------------------------------------------------------------


@bp.post("/g/<game_id>/move")
def move(game_id: str) -> Any:
    """The seat's own phone shows a one-time code and its QR: the new phone takes the seat
    with everything, and this phone's token stops working."""
    fold = fold_of(game_id)
    caller = page_caller(game_id)
    if caller.role != "seat" or caller.seat is None:
        abort(403, "Only a seat's own phone can move it to another phone.")
    code = referee().access.move_code(game_id, caller)
    link = public_url("seats.take", game_id=game_id, seat=caller.seat, code=code)
    return render_template("move.html", fold=fold, game_id=game_id, seat=caller.seat, name=fold.header.seats[caller.seat], code=code, link=link,
                           qr=qr_svg(link), minutes=MOVE_CODE_SECONDS // 60)


@bp.get("/g/<game_id>/move/<int:seat>")
def moved(game_id: str, seat: int) -> Any:
    """Asked by the move-code page of the old phone every few seconds: nothing (204) while it
    still holds the seat; once the seat is on the new phone, says so, so the old phone is
    never left on a used code."""
    fold = fold_of(game_id)
    if not 0 <= seat < len(fold.header.seats):
        abort(404, "There is no such seat.")
    if page_caller(game_id).seat == seat:
        return "", 204
    return render_template("_moved.html", game_id=game_id, name=fold.header.seats[seat])


@bp.route("/g/<game_id>/take/<int:seat>", methods=["GET", "POST"])
def take(game_id: str, seat: int) -> Any:
    """The new phone takes a seat by the code the old one shows: asked first (GET), taken
    by the button (POST), so a link preview never uses the code up."""
    fold = fold_of(game_id)
    if not 0 <= seat < len(fold.header.seats):
        abort(404, "There is no such seat.")
    code = request.values.get("code", "")
    if request.method == "GET":
        return render_template("take.html", fold=fold, game_id=game_id, seat=seat, name=fold.header.seats[seat], code=code)
    referee().guesses.check()
    try:
        token = referee().access.take_move(game_id, seat, referee().guesses.readable(code))
    except MoveRefused:
        referee().guesses.failed()
        flash(gettext("This code does not move a seat any more: it was used, or it is too old. Ask the seat's phone for a new one."), "error")
        return render_template("take.html", fold=fold, game_id=game_id, seat=seat, name=fold.header.seats[seat], code=code), 403
    return with_token(redirect(url_for("pages.table", game_id=game_id)), game_id, token)
