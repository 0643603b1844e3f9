"""The pages of a group: its players, its games, its statistics and charts, its files.

A browser is a member once it has opened the group's link (or made the group, or imported
it): the link's code is then kept in the signed session cookie, and counts until a member
renews the link. Everyone else is told there is no such group: nothing of a group is shown
outside it, not even that it exists. The browser that made the group (or imported it), and
any that opens its host link, is its host (`groups.py`), kept by the host link's code in the
session cookie as well: only the host changes the house rules. A member's phone is one of
the group's players once it says which ("I am Dora"), kept by a code of its own in the
session cookie (`GROUP_PHONES`): it takes that player's seat at the group's games in one
tap (`sit`), and the group's host may remove it. The group's host, or a game's host,
starts the group's next game as the last one ("Again").
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, session, url_for
from flask_babel import format_decimal, gettext
from werkzeug.wrappers import Response as BaseResponse

from ..access import SeatTaken
from ..games import GAMES
from ..groups import GroupError, NotAHouseRule, Player, PhoneTaken, again_options, has_next_dealer
from ..ratings import GroupRatings, group_ratings
from ..record import RecordError, load_json
from ..stats import plays_csv
from ..record import FORMAT, parse_header
from ..store import now
from . import GROUP_LINKS, GROUP_PHONES, in_group, join_group, member_group, referee
from .pages import MY_GAMES, fold_of, line_chart, page_caller, public_url, qr_svg, with_token
from .words import day

bp = Blueprint("groups", __name__, url_prefix="/groups")
tables_bp = Blueprint("group_tables", __name__)  # a group's games, under /g/<game_id>/ where their token cookie is sent
bp.add_app_template_global(has_next_dealer)
bp.add_app_template_global(in_group)
CHART_POINTS = 20  # evenings (or games) in a chart: it stays readable on a phone
CHART_PLAYERS = 6
GAMES_A_PAGE = 10  # on the group's page, finished or not, newest first
LAST_PAGE = 10**6  # a larger page number reads as this one (SQLite's OFFSET is a 64-bit integer)
EVENINGS_SHOWN = 10  # the page lists the latest evenings; the CSV and `referee stats --json` have them all
CHANGES_SHOWN = 10  # the latest changes of the house rules, on the group's page
GROUP_HOSTS = "group_hosts"  # in the signed session cookie: the codes of the host links this browser holds
GROUP_HOSTS_KEPT = 20


@bp.app_template_filter("decimal")
def decimal(number: float) -> str:
    """A rating or an average with one decimal, in the phone's language (3.5, 3,5)."""
    return format_decimal(number, "0.0")


def become_host(group_id: str) -> None:
    """This browser is the group's host (and a member), until the host link is renewed."""
    code = referee().groups.host_code(group_id)
    session[GROUP_HOSTS] = [code, *[known for known in session.get(GROUP_HOSTS, []) if known != code]][:GROUP_HOSTS_KEPT]


def hosts(group_id: str) -> bool:
    """Whether this browser is the group's host."""
    return any(referee().groups.for_host_code(code) == group_id for code in session.get(GROUP_HOSTS, []))


@bp.post("")
def create() -> BaseResponse:
    """A new group; this browser is its first member."""
    try:
        group_id = referee().groups.create(request.form.get("name", ""))
    except GroupError as error:
        flash(str(error), "error")
        return redirect(url_for("pages.home"))
    become_host(group_id)
    return joined(group_id)


def joined(group_id: str) -> BaseResponse:
    """This browser belongs to the group by its current link; to the group's page."""
    join_group(referee().groups.group(group_id)["code"])  # type: ignore[index]
    return redirect(url_for("groups.group", group_id=group_id))


@bp.get("/join/<code>")
def join_link(code: str) -> BaseResponse:
    """The group's link: whoever opens it is a member."""
    return joined(referee().guesses.found(code, referee().groups.for_code, "No group has this link."))


@bp.get("/host/<code>")
def host_link(code: str) -> BaseResponse:
    """The group's host link (`referee group link GROUP --host`): whoever opens it is the
    group's host, and a member."""
    group_id = referee().guesses.found(code, referee().groups.for_host_code, "No group has this link.")
    become_host(group_id)
    return joined(group_id)


@bp.post("/<group_id>/link")
def new_link(group_id: str) -> BaseResponse:
    """A new link for the group: the old one opens nothing any more, and every other
    browser that joined by it is no longer a member until it opens the new one."""
    member_group(group_id)
    referee().groups.new_code(group_id)
    flash(gettext("The group has a new link. The old one opens nothing any more: send the new one to the group."), "info")
    return joined(group_id)


@bp.get("/<group_id>")
def group(group_id: str) -> str:
    """The group: start a game with its players, its games (the latest, a page of older ones
    with ?page=N), its players, its link."""
    found = member_group(group_id)
    groups = referee().groups
    page = min(max(request.args.get("page", 1, type=int) or 1, 1), LAST_PAGE)
    shown = groups.games(group_id, latest=GAMES_A_PAGE + 1, skip=(page - 1) * GAMES_A_PAGE)  # one more: is there an older page?
    games = referee().tables.store.games(shown[:GAMES_A_PAGE]) if shown else []
    link = public_url("groups.join_link", code=found["code"])
    again = games[0] if page == 1 and games and referee().tables.fold(games[0]["id"]).outcome is not None else None  # the last game is over
    return render_template("group.html", group=found, players=groups.players(group_id), games=games, link=link, qr=qr_svg(link),
                           me=my_player(group_id), phones=groups.phones(group_id), seats=open_seats(group_id), again=again,
                           page=page, older=len(shown) > GAMES_A_PAGE, house_rules={game: groups.house_rules(group_id, game) for game in GAMES},
                           hosting=hosts(group_id), changes=groups.house_rule_changes(group_id, CHANGES_SHOWN),
                           saved=request.args.get("saved") if request.args.get("saved") in GAMES else None)


# --- a member's phone: its player, its seats in one tap, the next game --------------------


def my_player(group_id: str) -> Player | None:
    """The group's player this phone is (None: it has not said, it left, or was removed)."""
    code = session.get(GROUP_PHONES, {}).get(group_id)
    return None if code is None else referee().groups.phone_player(group_id, code)


@bp.app_template_global()
def open_seats(group_id: str | None) -> list[tuple[str, Any, int]] | None:
    """The group's games not over whose seat of this phone's player no phone holds (game,
    header, seat), newest first; None where this phone is no player of the group. A game
    this phone is at already (a seat or its host) is not offered."""
    player = my_player(group_id) if group_id and in_group(group_id) else None
    if group_id is None or player is None:
        return None
    groups, tables, here = referee().groups, referee().tables, set(session.get(MY_GAMES, []))
    found = []
    for game_id in groups.games(group_id, latest=GAMES_A_PAGE):
        seat = groups.seat_of(game_id, player.id)
        if seat is None or game_id in here or seat in referee().access.claimed_seats(game_id) or not referee().access.fresh(game_id, seat):
            continue
        fold = tables.fold(game_id)
        if fold.outcome is None:
            found.append((game_id, fold.header, seat))
    return found


@bp.app_template_global()
def group_of_game(game_id: str) -> str | None:
    return referee().groups.group_of(game_id)


@bp.get("/<group_id>/open-seats")
def open_seats_now(group_id: str) -> str:
    """The member's seats to take, asked again every few seconds by its phone: a game the
    host starts appears at once on the group page, the home page and a finished table."""
    member_group(group_id)
    return render_template("_group_seats.html", group_id=group_id, seats=open_seats(group_id) or [])


@bp.post("/<group_id>/me")
def sit_down(group_id: str) -> BaseResponse:
    """This phone is one of the group's players ("I am Dora"; a new name joins the group)."""
    member_group(group_id)
    if my_player(group_id) is not None:
        abort(409, gettext("This phone is a player of the group already."))
    try:
        code = referee().groups.sit_down(group_id, request.form.get("name", ""))
    except PhoneTaken as error:
        abort(409, gettext(error.template, **error.values))
    except GroupError as error:
        abort(400, str(error))
    session[GROUP_PHONES] = {**session.get(GROUP_PHONES, {}), group_id: code}
    return redirect(url_for("groups.group", group_id=group_id))


@bp.post("/<group_id>/leave")
def leave(group_id: str) -> BaseResponse:
    """This phone leaves the group: no player of it, and nothing of it shown, until it opens
    the group's link again."""
    found = member_group(group_id)
    player = my_player(group_id)
    if player is not None:
        referee().groups.remove_phone(group_id, player.id)
    session[GROUP_PHONES] = {g: c for g, c in session.get(GROUP_PHONES, {}).items() if g != group_id}
    session[GROUP_LINKS] = [code for code in session.get(GROUP_LINKS, []) if code != found["code"]]
    flash(gettext("This phone left %(group)s.", group=found["name"]), "info")
    return redirect(url_for("pages.home"))


@bp.post("/<group_id>/phones/<int:player_id>/remove")
def remove_phone(group_id: str, player_id: int) -> BaseResponse:
    """The group's host removes a player's phone (lost, or not that player's): it is out of
    the group until it opens the group's link again."""
    member_group(group_id)
    if not hosts(group_id):
        abort(403, gettext("Only the group's host removes a member's phone."))
    player = next((p for p in referee().groups.phones(group_id) if p.id == player_id), None)
    if player is None:
        abort(404, "The group has no phone of this player.")
    referee().groups.remove_phone(group_id, player_id)
    flash(gettext("%(name)s's phone is no member of the group any more.", name=player.name), "info")
    return redirect(url_for("groups.group", group_id=group_id) + "#phones")


@tables_bp.post("/g/<game_id>/sit")
def sit(game_id: str) -> BaseResponse:
    """A member's phone takes its player's seat at the group's game in one tap, no join
    code: only the phone of that seat's player, only a seat no phone holds, and only while
    nothing secret is logged and the seat was never handed on (`Access.fresh`)."""
    fold_of(game_id)
    group_id = member_group(referee().groups.group_of(game_id))["id"]
    player = my_player(group_id)
    seat = None if player is None else referee().groups.seat_of(game_id, player.id)
    if seat is None:
        abort(403, gettext("Only the phone of a player seated at this game takes a seat here; others join with the code."))
    if page_caller(game_id).role != "spectator":  # at this table already
        return redirect(url_for("pages.table", game_id=game_id))
    if not referee().access.fresh(game_id, seat):
        abort(403, gettext("This seat has secrets behind it now: take it with the table's join code."))
    try:
        token = referee().access.claim_seat(game_id, seat)
    except SeatTaken:
        flash(gettext("That seat is taken; the host can hand it to this phone."), "error")
        return redirect(url_for("pages.table", game_id=game_id))
    return with_token(redirect(url_for("pages.table", game_id=game_id)), game_id, token)


@tables_bp.post("/g/<game_id>/again")
def again(game_id: str) -> BaseResponse:
    """The group's next game as this one (`seats=same`), or with the next dealer
    (`seats=next`): the game's host or the group's host, in two taps. This phone plays the
    seat of its player, else the seat it played at this game, else none."""
    fold = fold_of(game_id)
    group_id = member_group(referee().groups.group_of(game_id))["id"]
    caller = page_caller(game_id)
    if not caller.is_host and not hosts(group_id):
        abort(403, gettext("Only the game's host or the group's host starts the group's next game."))
    if request.form.get("seats") not in ("same", "next"):
        abort(400, "seats: must be same (the same seats) or next (the next dealer).")
    old = fold.header
    off = referee().groups.house_rules(group_id, old.game)
    header = parse_header({"format": FORMAT, "game": old.game, "seats": list(old.seats), "options": again_options(old, request.form["seats"] == "next"),
                           "started_at": now(), **({"title": old.title} if old.title else {}), **({"house_rules": {"off": off}} if off else {})}, None)
    player = my_player(group_id)
    mine = None if player is None else referee().groups.seat_of(game_id, player.id)
    host_seat = mine if mine is not None else caller.seat if caller.is_host else None
    new_id = referee().tables.create(header, host_seat=host_seat)
    referee().groups.seat(group_id, new_id, list(old.seats))
    _, host_token = referee().access.open_table(new_id)
    return with_token(redirect(url_for("seats.host", game_id=new_id)), new_id, host_token)


@bp.post("/<group_id>/house-rules")
def house_rules(group_id: str) -> BaseResponse:
    """The rules of a game this group does not play by (the group's host sets them): its next
    games carry them. An id that is not one of the game's rules is a 400 naming it."""
    member_group(group_id)
    if not hosts(group_id):
        abort(403, gettext("Only the group's host changes its house rules."))
    game = request.form.get("game", "")
    if game not in GAMES:
        abort(404, "There is no such game.")
    try:
        referee().groups.set_house_rules(group_id, game, request.form.getlist("off"))
    except NotAHouseRule as error:
        abort(400, gettext(error.template, **error.values))
    return redirect(url_for("groups.group", group_id=group_id, saved=game) + "#house-rules")  # said right there, in view


@bp.post("/<group_id>/move-times")
def move_times(group_id: str) -> BaseResponse:
    """Switch "who took longest to move" on the group's statistics on (`shown=1`) or off (the group's host)."""
    member_group(group_id)
    if not hosts(group_id):
        abort(403, gettext("Only the group's host switches who took longest to move on or off."))
    if request.form.get("shown") not in ("0", "1"):
        abort(400, "shown: must be 1 (show who took longest to move) or 0 (hide it).")
    referee().groups.show_move_times(group_id, request.form["shown"] == "1")
    return redirect(url_for("groups.stats", group_id=group_id) + "#move-times")


@bp.post("/<group_id>/players/<int:player_id>")
def player(group_id: str, player_id: int) -> BaseResponse:
    """Rename a player, or merge a second spelling into a player."""
    member_group(group_id)
    groups = referee().groups
    try:
        if request.form.get("into"):
            into = int(request.form["into"])
            if not (0 < player_id < 2**63 and 0 < into < 2**63):  # past the database's integers: no such player
                raise GroupError(gettext("There is no such player in this group."))
            groups.merge(group_id, player_id, into)
        elif not 0 < player_id < 2**63:
            raise GroupError(gettext("There is no such player in this group."))
        else:
            groups.rename(group_id, player_id, request.form.get("name", ""))
    except (GroupError, ValueError) as error:
        flash(str(error), "error")
    return redirect(url_for("groups.group", group_id=group_id) + "#players")


@bp.get("/<group_id>/stats")
def stats(group_id: str) -> str:
    """Statistics and charts of the group's finished games, and its latest evenings."""
    found = member_group(group_id)
    kept = referee().tables.plays
    shown = kept.summary(group_id)
    names = [p["name"] for p in shown["players"]]
    first, second = request.args.get("a", ""), request.args.get("b", "")
    versus = kept.head_to_head(group_id, first, second) if first in names and second in names and first != second else None
    kinds = sorted({kind for p in shown["players"] for kind in p["games"]})
    rated = group_ratings(kept.plays(group_id, seats=True), referee().tables.store.header)
    paces = kept.move_times(group_id) if referee().groups.shows_move_times(group_id) else None  # None: the group switched it off
    return render_template("group_stats.html", group=found, shown=shown, kinds=kinds, names=names, versus=versus, rated=rated,
                           paces=paces, hosting=hosts(group_id),
                           charts=stats_charts(group_id, shown, kinds, rated), nights=shown["evenings"][:EVENINGS_SHOWN])


def stats_charts(group_id: str, shown: dict[str, Any], kinds: list[str], rated: GroupRatings) -> list[tuple[str, str]]:
    """Wins over the latest evenings (running totals of the leading players), each game's
    points in its latest plays, and the best ratings over the evenings."""
    leaders = [p["name"] for p in shown["players"][:CHART_PLAYERS]]
    charts = []
    nights = shown["evenings"][:CHART_POINTS][::-1]
    if nights and leaders:  # from the first evening on
        wins = {name: list(itertools.accumulate(sum(name in game["winners"] for game in night["games"]) for night in nights)) for name in leaders}
        charts.append((gettext("Wins over the evenings"), line_chart([day(night["date"]) for night in nights], wins)))
    for kind in kinds:
        latest = [p for p in referee().tables.plays.plays(group_id, seats=True, kind=kind, latest=CHART_POINTS) if any(s.score is not None for s in p.seats)]
        if latest:  # from the first play on
            series = {n: [next((s.score for s in p.seats if s.name == n), None) for p in latest]
                      for n in leaders if any(s.name == n for p in latest for s in p.seats)}
            labels = [day(p.started.date().isoformat() if p.started else None) for p in latest]
            charts.append((gettext("Points per game: %(game)s", game=GAMES[kind].title), line_chart(labels, series)))
    history = rated.history[-CHART_POINTS:]
    if history and rated.overall:  # the best rated players, whole numbers on the axis
        lines = {r.name: [round(after[r.name]) if r.name in after else None for _, after in history] for r in rated.overall[:CHART_PLAYERS]}
        charts.append((gettext("Ratings over the evenings"), line_chart([day(date) for date, _ in history], lines)))
    return charts


@bp.get("/<group_id>/plays.csv")
def plays_file(group_id: str) -> Response:
    """The group's plays for spreadsheets: one row per player per game."""
    member_group(group_id)
    headers = [gettext("date"), gettext("game_id"), gettext("game"), gettext("title"), gettext("player"), gettext("played_as"),
               gettext("seat"), gettext("score"), gettext("rank"), gettext("won"), gettext("minutes")]  # stats.CSV_COLUMNS, in words
    return Response(plays_csv(referee().tables.plays.plays(group_id, seats=True), headers), mimetype="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="plays-{group_id}.csv"'})


@bp.get("/<group_id>/export")
def export(group_id: str) -> Response:
    """The whole group as one file: its players and its games' records (table-group/1)."""
    member_group(group_id)
    text = json.dumps(referee().groups.export(group_id, referee().tables.public_record), ensure_ascii=False, indent=1) + "\n"
    return Response(text, mimetype="application/json", headers={"Content-Disposition": f'attachment; filename="group-{group_id}.json"'})


@bp.post("/import")
def import_group() -> BaseResponse:
    """A group's file, stored as a new group this browser belongs to."""
    upload = request.files.get("group")
    try:
        data = load_json(upload.read().decode("utf-8", errors="replace") if upload else "")
        group_id = referee().groups.import_(data, referee().tables.import_record)
    except (GroupError, RecordError) as error:
        flash(gettext("Not a group file: %(problem)s", problem=str(error)), "error")
        return redirect(url_for("pages.home"))
    become_host(group_id)
    return joined(group_id)
