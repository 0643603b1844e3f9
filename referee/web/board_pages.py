"""The table's own screen and a result to share.

The board (`/g/<id>/board`) is the tablet or TV in the middle of the table: the public
state large and live. It is a reader told exactly what a spectator is told, whoever opens
it: a host's or a seat's cookie is never read here, so a phone lent to the board shows no
secret of its own. The shared result (an image, PNG and SVG, and the Open Graph tags of
the public result page that point to the PNG) is likewise the spectator's: it exists only
once a spectator may see the result (the end, and the host's reveal where a game has secrets).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request
from flask_babel import gettext, ngettext

from ..access import SPECTATOR
from ..games.base import places
from ..replay import Fold, result_hidden
from . import CLIENT_GONE, referee, sight_of
from .pages import end_sentence, fold_of, public_url, seq_arg, table_context
from .share_image import Card, card, png, row_step
from .words import day

bp = Blueprint("boards", __name__)


def board_context(game_id: str, fold: Fold) -> dict[str, Any]:
    """The spectator's table, with the last move and its flag (a spectator is told a flag
    only where its audience is everyone) for the board's large lines."""
    context = table_context(game_id, fold, SPECTATOR)
    last = next((event for event in context["recent"] if event["type"] not in ("note", "void") and not event["voided"]), None)
    flag = next((flag for flag in context["flags"] if last is not None and flag["seq"] == last["seq"]), None)
    return {**context, "last": last, "last_flag": flag, "share": shared_result(game_id, fold)}


@bp.get("/g/<game_id>/board")
def board(game_id: str) -> str:
    """The table's own screen: whose turn, what to beat, the last move, large and live."""
    return render_template("board.html", **board_context(game_id, fold_of(game_id)))


@bp.get("/g/<game_id>/board/live")
def board_live(game_id: str) -> str:
    """The board's long-poll, the table's own (Tables.wait): answers at the next move, at
    the host's reveal, or after a while."""
    fold_of(game_id)
    waited = referee().tables.wait(game_id, seq_arg("after") or 0, current_app.config["LONG_POLL_SECONDS"], request.environ.get(CLIENT_GONE),
                                   revealed=request.args.get("awaiting") != "reveal")
    context = {**board_context(game_id, fold_of(game_id)), "live": True}
    if not waited:  # too many phones wait already: the board asks again later
        context["poll_delay"] = f"{current_app.config['LONG_POLL_RETRY_SECONDS']}s"
    return render_template("board_panel.html", **context)


def shared_result(game_id: str, fold: Fold) -> dict[str, Any] | None:
    """A finished game's result as a spectator may see it, for the image and the link
    preview: None before the end, and before the host's reveal where the game has secrets."""
    sight = sight_of(game_id, fold, SPECTATOR)
    if fold.outcome is None or result_hidden(fold, sight):
        return None
    result = fold.result(sight)
    started = fold.header.started_at or referee().tables.store.created_at(game_id)
    title = fold.header.title or fold.game.title
    winner = (ngettext("%(names)s wins.", "%(names)s win.", len(result.winners), names=" & ".join(result.winners)) if result.winners
              else f"{gettext('Ended early')}: {gettext('nobody wins.')}" if result.ended_early else "")
    place_of = places(result.ranking)  # a tie shares its place (1, 1, 3), as on every page
    standings = [{"names": tier, "scores": [result.scores.get(name) for name in tier], "place": place_of[tier[0]]} for tier in result.ranking]
    players, date = ", ".join(fold.header.seats), day(started[:10])
    return {
        "title": title, "game": fold.game.title, "date": date, "players": players, "winner": winner,
        "standings": standings, "end": end_sentence(fold, sight),
        "description": " · ".join(part for part in (fold.game.title if title != fold.game.title else "", winner, players, date) if part),
        "image": public_url("boards.result_png", game_id=game_id), "url": public_url("pages.result", game_id=game_id),
        "file": f"{fold.header.game}-{game_id}.png",
    }


def shared_card(game_id: str) -> Card:
    """What the image of the final standings says (game, date, players, scores, winner), or a 404."""
    shared = shared_result(game_id, fold_of(game_id))
    if shared is None:
        abort(404, "There is no result to share yet: the game is not over, or the host has not revealed its secrets.")
    return card(shared)


@bp.get("/g/<game_id>/result.png")
def result_png(game_id: str) -> Response:
    """The final standings as a PNG: the link preview's image and the file the share sheet shares."""
    return Response(png(shared_card(game_id)), mimetype="image/png")


@bp.get("/g/<game_id>/result.svg")
def result_svg(game_id: str) -> Response:
    """The final standings as an SVG, the same card drawn by the browser, sharp at any size."""
    shown = shared_card(game_id)
    return Response(render_template("result.svg", card=shown, step=row_step(shown)), mimetype="image/svg+xml")


bp.add_app_template_global(public_url)  # links for other phones and screens: the host page's QR of the board, og:url


@bp.app_template_global()
def result_preview(game_id: str) -> dict[str, Any] | None:
    """The link preview of the public result page (Open Graph), the spectator's result."""
    return shared_result(game_id, fold_of(game_id))
