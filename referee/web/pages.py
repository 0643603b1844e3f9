"""The htmx pages for the phones at the table.

Every page renders the whole state on the server and works read-only without
JavaScript; htmx swaps the table after a tap and long-polls for other phones' moves. A
phone's seat (or host) token lives in an HttpOnly, SameSite cookie whose path is its own
game, so it never opens another game.
"""

from __future__ import annotations

import hashlib
import hmac
import importlib.resources
import itertools
import json
import re
from urllib.parse import urlsplit, urlunsplit
from pathlib import Path
from typing import Any

import pygal
import segno
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import Babel, get_locale, gettext, ngettext
from flask_htmx import HTMX
from flask_wtf.csrf import CSRFProtect
from markupsafe import Markup
from marshmallow import fields
from werkzeug.wrappers import Response as BaseResponse

from ..access import SPECTATOR, AccessDenied, Caller, visible_event
from ..games import GAMES, find_game
from ..games.base import places
from ..groups import GroupError, clean_name
from ..record import COMMON_EVENTS, FORMAT, MAX_SEQ, RecordError, check_names, normal_name, parse_header, read_record
from ..replay import CORE_RULES, Fold, Sight, explain, flag_json, flagged_by_void, result_hidden
from ..store import Conflict, UnknownGame, now
from ..tables import NotOver
from . import CLIENT_GONE, in_group, member_group, my_groups, record_download, referee, refusal, sight_of
from .api import event_json
from ..bgstats import play, push_link
from ..rulings import app_is_wrong, maintainer_key
from ..stats import break_since, minutes, playing_time
from .icon import icon_png
from .news import news
from .sentences import event_sentence
from .notation import read_token
from .words import EOTM_KINDS, ball_verdict, clock, explained, flag_words, boutique_text, card_text, colour, day, duration, ending, pace, reason_words, say, senators_tie

bp = Blueprint("pages", __name__)
htmx = HTMX()
csrf = CSRFProtect()
babel = Babel()
TOKEN_COOKIE = "referee_token"
MY_GAMES = "my_games"  # in the signed session cookie: the games this browser hosts or joined
MY_GAMES_KEPT = 20
# Chart lines, each at least 3:1 against white (WCAG AA for graphics), told apart by hue.
CHART_COLOURS = ("#0b5fff", "#b00020", "#106b21", "#6a1b9a", "#8a4500", "#00695c", "#37474f", "#ad1457")
HISTORY_PAGE = 100  # events per History page: a long game stays light on a phone
MAX_FORM_CARDS = 64  # more than any game's hand: a bigger count is refused by the schema
LANGUAGES = ("en", "de")
ICON_SIZES = (192, 512)
TRANSLATIONS = Path(__file__).resolve().parent / "translations"


def init_app(app: Flask) -> None:
    """Register the pages, CSRF protection (not for the token-authenticated API), htmx, i18n."""
    from .api import bp as api_bp

    htmx.init_app(app)
    csrf.init_app(app)
    csrf.exempt(api_bp)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = compile_translations(Path(app.instance_path) / "translations")
    babel.init_app(app, locale_selector=choose_language)
    from . import seat_pages

    app.register_blueprint(bp)
    app.register_blueprint(seat_pages.bp)
    app.jinja_env.globals.update(GAMES=GAMES, card_label=card_label, card_text=card_text, say=say, colour_text=colour, boutique_text=boutique_text, senators_tie=senators_tie, ball_verdict=ball_verdict,
                                 flag_sentence=flag_sentence, end_sentence=end_sentence, get_locale=get_locale, receipt_qr=qr_svg, duration=duration, day=day, clock=clock, pace=pace,
                                 rule_texts=rule_texts, house_rule_text=house_rule_text, event_sentence=event_sentence, explained=explained, reason_words=reason_words,
                                 places=places)
    app.jinja_env.filters["say"] = say


def compile_translations(target: Path) -> str:
    """Compile the shipped .po catalogues into the instance folder (no binaries in the repo)."""
    for po_path in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"):
        mo_path = target / po_path.relative_to(TRANSLATIONS).with_suffix(".mo")
        if not mo_path.exists() or mo_path.stat().st_mtime < po_path.stat().st_mtime:
            mo_path.parent.mkdir(parents=True, exist_ok=True)
            with po_path.open("rb") as source:
                catalog = read_po(source)
            with mo_path.open("wb") as out:
                write_mo(out, catalog)
    return str(target)


def public_url(endpoint: str, **values: Any) -> str:
    """A link for other phones: from the configured PUBLIC_URL (set by `referee serve`),
    never from the request's Host header, which a client chooses."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + url_for(endpoint, **values)


def qr_svg(text: str) -> str:
    """A QR code as inline SVG (segno): join links, and the receipt at the end of a game."""
    svg: str = segno.make(text, error="m").svg_inline(scale=4, dark="#111", light="#fff", omitsize=True)  # a viewBox: it fills its box
    return svg


def choose_language() -> str:
    chosen = request.cookies.get("lang")
    return chosen if chosen in LANGUAGES else request.accept_languages.best_match(LANGUAGES) or "en"


def card_label(card: Any) -> Markup:
    """A card as the table names it, its kind in words and colour (no emoji: Debian's
    Chromium draws them as empty boxes)."""
    if card == "J":
        return Markup(gettext("Joker"))
    kind, _, value = str(card).rpartition("-")
    if kind not in EOTM_KINDS:
        return Markup.escape(card)
    return Markup('<small class="kind {}">{}</small>&nbsp;{}').format(kind, EOTM_KINDS[kind], value)


def rule_texts(game: str) -> dict[str, str]:
    """Each rule id of a game (core rules first) and, in the chosen language, when it is broken."""
    return {rule: gettext(text) for rule, text in {**CORE_RULES, **GAMES[game].rules}.items()}


def house_rule_text(game: str, rule: str) -> str:
    """A rule the table turned off, as what the table allows ("The starting player may pass"),
    in the chosen language: never its id nor the sentence of its violation."""
    return gettext(GAMES[game].allows[rule])


def flag_sentence(game: str, flag: dict[str, Any], names: Any = ()) -> Markup:
    """A flag for the table, in the chosen language (`words.flag_words`) when the page hands
    over the game's own violation (`said`); else its message as the game worded it."""
    said = flag.get("said")
    worded = None if said is None else flag_words(said, names)
    return Markup.escape(flag.get("message") or "" if worded is None else worded)


def end_sentence(fold: Fold, sight: Sight) -> Markup:
    """"Game over" and why; in German the winners lead and the game's own ending follows,
    translated (`words.ending`). A game the table ended early says so, with the reason the
    host typed, and names a winner only where the game's rules name one.
    Before the host has revealed the secrets of a game that has them, only that it awaits him."""
    outcome = fold.outcome
    if outcome is None:
        return Markup("")
    if result_hidden(fold, sight) and fold.game.private_events:
        return Markup.escape(gettext("Game over? The host confirms the end; then every secret is shown."))
    result = fold.result(sight)
    first = result.winners
    lead = ngettext("%(names)s wins.", "%(names)s win.", len(first), names=" & ".join(first)) if first else ""
    if result.ended_early:  # the table's `end`: its reason as typed, and a winner only where the rules name one
        return Markup("{}: {} ({})").format(gettext("Ended early"), lead or gettext("nobody wins."), ending(outcome.reason) or outcome.reason)
    over = gettext("Game over")
    if get_locale().language == "en":
        named = all(name in outcome.reason for name in first)  # "…; Cem is Boss and wins" names him already
        return Markup("{}: {}").format(over, outcome.reason) if named else Markup("{}: {} ({})").format(over, lead, outcome.reason)
    said = ending(outcome.reason)
    if said is None:  # a game's ending not worded here: its English detail, marked as such
        return Markup('{}: {} <small class="muted" lang="en">({})</small>').format(over, lead, outcome.reason)
    return Markup("{}: {} ({})").format(over, lead, said)


# --- who is at this phone --------------------------------------------------------------------


def page_caller(game_id: str) -> Caller:
    """Who is at this phone: the host (with the seat the host plays, if any), a seat, or a spectator."""
    try:
        return referee().access.caller(game_id, request.cookies.get(TOKEN_COOKIE))
    except AccessDenied:
        return SPECTATOR


def with_token(response: BaseResponse, game_id: str, token: str) -> BaseResponse:
    """Hand this phone a token for the game, and list the game among this browser's own."""
    session[MY_GAMES] = [game_id, *[known for known in session.get(MY_GAMES, []) if known != game_id]][:MY_GAMES_KEPT]
    response.set_cookie(
        TOKEN_COOKIE, token, path=f"/g/{game_id}", httponly=True, samesite="Lax",
        secure=request.is_secure, max_age=60 * 60 * 24 * 60,
    )
    return response


def fold_of(game_id: str) -> Fold:
    try:
        return referee().tables.fold(game_id)
    except UnknownGame:
        abort(404, "There is no such game.")


# --- starting and joining --------------------------------------------------------------------


def my_games() -> list[dict[str, Any]]:
    """The games this browser hosts or has joined, newest first: nobody else's are listed."""
    return referee().tables.store.games(session.get(MY_GAMES, []))


@bp.get("/")
def home() -> str:
    """Start a game, join one with a code, or open one of this browser's games."""
    return render_template("home.html", recent=my_games(), groups=my_groups())


@bp.route("/new", methods=["GET", "POST"])
def new_game() -> Any:
    """The form for a new game: which game, the players in seating order, its options; for a
    group (`group`), its players are offered for the seats and new names join it."""
    game = request.values.get("game", "karriere-poker")
    if game not in GAMES:
        abort(404, "There is no such game.")
    group = member_group(request.values["group"]) if request.values.get("group") else None
    offered = [p.name for p in referee().groups.active(group["id"])] if group else []
    off = referee().groups.house_rules(group["id"], game) if group else []  # named on the form before the game is made
    if request.method == "GET":
        return render_template("new.html", game=find_game(game), names="", group=group, offered=offered, off=off)
    names = [normal_name(line) for line in re.split(r"[\n,]", request.form.get("seats", "")) if line.strip()]
    header_json: dict[str, Any] = {"format": FORMAT, "game": game, "seats": names, "started_at": now()}
    if request.form.get("title", "").strip():
        header_json["title"] = request.form["title"].strip()
    if off:  # the group's house rules, in the record itself
        header_json["house_rules"] = {"off": off}
    if request.form.get("house_rules", " ".join(off)) != " ".join(off):  # the form named other house rules
        flash(gettext("The group's house rules changed meanwhile: this game will carry the ones named now."), "error")
        return render_template("new.html", game=find_game(game), names="\n".join(names), group=group, offered=offered, off=off), 409
    try:
        header_json["options"] = options_from_form(game, request.form, names)
        header = parse_header(header_json, None)
        check_names(header.seats, None)
        for name in names if group else ():
            clean_name(name)  # a group's player's name: refused before anything is stored
        host_seat = seat_named(names, request.form.get("plays"))
    except (RecordError, GroupError) as error:
        flash(str(error), "error")
        return render_template("new.html", game=find_game(game), names="\n".join(names), group=group, offered=offered, off=off), 400
    game_id = referee().tables.create(header, host_seat=host_seat)
    if group:
        referee().groups.seat(group["id"], game_id, names)
    _, host_token = referee().access.open_table(game_id)
    return with_token(redirect(url_for("seats.host", game_id=game_id)), game_id, host_token)


def seat_named(names: list[str], name: str | None) -> int | None:
    """The seat of a player chosen by name on the form ("I play: Anna", "Who starts?"); None
    for nobody (an empty choice, or none sent by a client that is no phone)."""
    if not name or not name.strip():
        return None
    if normal_name(name) not in names:
        raise RecordError(gettext("“%(name)s” is not one of the players: choose a name from the list.", name=name.strip()))
    return names.index(normal_name(name))


def options_from_form(game: str, form: Any, names: list[str]) -> dict[str, Any]:
    """A game's options from the New game form; who starts is chosen by name."""
    options: dict[str, Any] = {}
    if form.get("end_kind") and form["end_kind"] != "open":
        options["end"] = {"kind": form["end_kind"], "count": parse_value(form.get("end_count") or "1")}
    first = seat_named(names, form.get("first"))
    if first is not None and "first" in find_game(game).options().fields:
        options["first"] = first
    if game == "employee-of-the-month":
        options["fewest_needs_one"] = form.get("fewest_needs_one") == "on"
    if game == "ladies-and-gentlemen" and form.get("gossip") == "on":
        options["gossip"] = True
    return options


@bp.post("/g/<game_id>/host/group")
def to_group(game_id: str) -> BaseResponse:
    """The host puts a game started outside a group into one of their groups, each seat
    for the group's player of that name (a new name joins the group)."""
    fold = fold_of(game_id)
    if not page_caller(game_id).is_host:
        abort(403, "Only the host can put the game into a group.")
    group = member_group(request.form.get("group"))
    try:
        referee().groups.seat(group["id"], game_id, list(fold.header.seats))
    except GroupError as error:
        flash(str(error), "error")
    else:
        flash(gettext("The game belongs to %(group)s now.", group=group["name"]), "info")
    return redirect(url_for("seats.host", game_id=game_id))


# --- the table -------------------------------------------------------------------------------


def table_context(game_id: str, fold: Fold, caller: Caller, error: str | None = None) -> dict[str, Any]:
    seat = caller.seat  # a seat's, or the seat a host also plays
    store = referee().tables.store
    finished = fold.outcome is not None
    sight = sight_of(game_id, fold, caller)
    flagged = []
    for flagged_seq, violation in [flag for flag in fold.violations if sight.sees(flag[1].audience)][-5:]:
        event = store.event(game_id, flagged_seq) or {}
        mine = caller.is_host or (seat is not None and event.get("by") == seat)  # what this phone may void
        rulable = caller.is_host and event.get("type") not in fold.game.private_events and not violation.rule.startswith("core.")
        flagged.append({"seq": flagged_seq, **flag_json(violation), "said": violation, "mine": mine, "rulable": rulable})
    clashes = [{"seq": seq, **flag_json(clash), "said": clash} for seq, clash in fold.clashes_for(sight)][-5:]
    since = fold.seq - 6  # the latest moves: "Latest", and what is news (a ruling among them)
    recent = store.events(game_id, after=since)
    view = fold.view(seat, sight)
    moves = [e for e in recent if e["type"] not in ("note", "void") and not fold.withdrawn_at(e["seq"])]
    me = None if seat is None else fold.header.seats[seat]
    my_turn = not finished and me is not None and me in view["to_act"]
    # This phone logs the table's own next event when no player is to act (a deal, the event card).
    logs_table = not finished and not view["to_act"] and (caller.is_host or (caller.role == "seat" and fold.game.seats_log_table))
    may_act = not finished and me is not None and me in view.get("may_act", [])
    title = fold.header.title or fold.game.title
    outcome = None if not finished or result_hidden(fold, sight) else fold.result(sight)
    return {
        "game_id": game_id,
        "fold": fold,
        # The end is a moment: the final standings at once, on every phone (each tier a line).
        "standings": None if outcome is None else outcome.ranking,
        "final_scores": {} if outcome is None else outcome.scores,
        "game": fold.game,
        "caller": caller,
        "seat": seat,
        "view": view,
        "flags": flagged,
        # The bar's flag: the latest standing flag on a move this caller may void.
        "my_flag": next((flag for flag in reversed(flagged) if flag["mine"]), None),
        "recent": [event_json(fold, e, sight) for e in recent][::-1],
        "news": news(fold, view, moves[-1] if moves else None, sight),
        "clashes": clashes,
        "ruled": [r for r in fold.ruled if r.ruling > since],  # news while among the latest; History keeps every ruling
        "sight": sight,
        "awaiting_reveal": finished and caller.is_host and bool(fold.game.private_events) and store.revealed(game_id) is None,
        "unrevealed_end": finished and bool(fold.game.private_events) and store.revealed(game_id) is None,
        "witness": referee().tables.witness(game_id, fold.seq),
        "host_seat": store.host_seat(game_id),
        "reader": reader_of(game_id, caller),  # whom the phone's outbox holds moves for (table.js)
        "seat_changes": store.seat_changes(game_id),  # public: every phone is told who plays which seat since when
        "waiting_seats": waiting_seats(game_id),
        "my_turn": my_turn,
        "break_since": break_since(fold, store.events(game_id)) if fold.paused else None,  # the banner "Break since 21:14"
        "status": turn_status(view, me, finished, logs_table),
        # The bar's button to this phone's controls: only where the phone has a move to make now.
        "move_label": gettext("Your move") if my_turn or may_act else gettext("Log for %(name)s", name=view["to_act"][0])
        if caller.is_host and view["to_act"] and not finished else gettext("Log it") if logs_table else None,
        "page_title": f"▶ {gettext('Your turn')} · {title}" if my_turn else title,
        "finished": finished,
        "error": error,
    }


def waiting_seats(game_id: str) -> list[int]:
    """The seats the host handed on that no phone has taken since ("Ben's seat waits for a new
    phone"): public, as the hand-over itself is."""
    handed = {change["seat"] for change in referee().tables.store.seat_changes(game_id) if change["kind"] == "handed-on"}
    return sorted(handed - referee().access.claimed_seats(game_id))


def turn_status(view: dict[str, Any], me: str | None, finished: bool, logs_table: bool) -> Markup:
    """What the turn bar says: the view's `to_act` (every game names who the table waits for);
    when it waits for no player, whether this phone logs the table's next event itself
    (`logs_table`) or the host does; and a move this phone may still make meanwhile."""
    waiting = [Markup.escape(name) for name in view["to_act"]]
    may_act = view.get("may_act", [])
    if finished:
        said = gettext("Game over")
    elif me is not None and me in view["to_act"]:
        said = gettext("Your turn")
    elif len(waiting) == 1:
        said = gettext("%(name)s's turn", name=waiting[0])
    elif waiting:
        said = gettext("Waiting for") + ": " + ", ".join(waiting)
    elif me is not None and me in may_act:
        said = gettext("Your move if you want; then the table moves on")
    elif logs_table:
        said = gettext("The table's turn: log it here")
    elif may_act:
        said = gettext("%(name)s may still act; then the host logs the table's next event", name=Markup.escape(may_act[0]))
    else:
        said = gettext("Waiting for the host to log the table's next event")
    return Markup(said)  # the names in it are escaped


@bp.get("/g/<game_id>")
def table(game_id: str) -> str:
    """The table: the cards in play, whose turn it is, flags, and the moves legal now."""
    fold = fold_of(game_id)
    return render_template("table.html", **table_context(game_id, fold, page_caller(game_id)))


@bp.get("/g/<game_id>/live")
def live(game_id: str) -> str:
    """Long-poll: answers with the table as soon as another phone logs, or after a while."""
    fold_of(game_id)
    after = seq_arg("after") or 0
    # A phone whose page awaits the host's reveal is answered at the reveal too.
    waited = referee().tables.wait(game_id, after, current_app.config["LONG_POLL_SECONDS"], request.environ.get(CLIENT_GONE),
                                   revealed=request.args.get("awaiting") != "reveal", seats=request.args.get("seats", type=int))
    fold = fold_of(game_id)
    context = {**table_context(game_id, fold, page_caller(game_id)), "live": True}
    if not waited:  # too many phones wait already: this one asks again later
        context["poll_delay"] = f"{current_app.config['LONG_POLL_RETRY_SECONDS']}s"
    return render_template("table_panel.html", **context)


@bp.post("/g/<game_id>/log")
def log(game_id: str) -> Any:
    """Log one move from the phone; an illegal move is stored and shown flagged."""
    return log_from(game_id, request.form)


@bp.post("/g/<game_id>/rule/<int:seq>")
def rule(game_id: str, seq: int) -> Any:
    """The host lets a flagged move stand (a ruling), with a reason tapped or typed."""
    form = request.form.copy()
    form["type"], form["target"] = "ruling", str(seq)
    form["reason"] = (request.form.get("reason") or request.form.get("reason_typed") or "").strip() or "we-agreed"  # a chip's code (words.REASONS)
    return log_from(game_id, form)


@bp.post("/g/<game_id>/void/<int:seq>")
def void(game_id: str, seq: int) -> Any:
    """Withdraw any event (its author, who logged it, or the host), after a confirmation."""
    form = request.form.copy()
    form["type"], form["target"] = "void", str(seq)
    form["reason"] = request.form.get("reason") or "voided-at-the-table"  # a chip's code (words.REASONS)
    return log_from(game_id, form)


@bp.get("/g/<game_id>/void/<int:seq>")
def void_preview(game_id: str, seq: int) -> str:
    """Before a void is confirmed: the event it withdraws and the later moves it will flag."""
    fold = fold_of(game_id)
    caller = page_caller(game_id)
    store = referee().tables.store
    event = store.event(game_id, seq)
    if event is None or event["type"] == "void" or fold.withdrawn_at(seq) is not None:
        abort(404, "There is no such event to void.")
    if not (caller.is_host or (caller.seat is not None and event.get("by") == caller.seat)):
        abort(403, "Only the host or the phone that logged it voids this event.")
    sight = sight_of(game_id, fold, caller)
    flagged = [{"seq": flagged_seq, "said": violation, "message": violation.message, "rule": violation.rule}
               for flagged_seq, violation in flagged_by_void(fold.header, store.events(game_id), fold, seq) if sight.sees(violation.audience)]
    return render_template("void.html", game_id=game_id, fold=fold, event=event_json(fold, event, sight), flagged=flagged,
                           names=fold.header.seats, caller=caller, seat=caller.seat)


def log_from(game_id: str, form: Any) -> Any:
    fold = fold_of(game_id)
    caller = page_caller(game_id)
    try:
        body = event_from_form(fold, form, caller)
        error = refusal(game_id, caller, body) if tapped_by_this_reader(game_id, caller, form) else gettext(
            "Nothing was logged: this move was tapped for whoever held this phone before; the phone now holds another seat.")
    except RecordError as problem:
        error = gettext("Nothing was logged: %(problem)s", problem=str(problem))
    if error is None:
        # The seq the phone's page showed: when the table has moved on, nothing is stored.
        expected = parse_value(form.get("expected_seq") or "")
        body["at"] = now()
        try:
            appended = referee().tables.append(game_id, body, expected if isinstance(expected, int) else None,
                                               key=caller.idempotency_key(form.get("key") or None))
            fold = appended.fold
            if body["type"] == "end" and caller.is_host and form.get("reveal") and fold.outcome is not None:
                referee().tables.reveal(game_id)  # "End and reveal": the host confirmed it in the dialog
        except RecordError as problem:
            error = gettext("Nothing was logged: %(problem)s", problem=str(problem))
        except Conflict:
            fold = fold_of(game_id)
            seen = expected if isinstance(expected, int) else fold.seq
            if not logged_meanwhile(game_id, seen, body, sight_of(game_id, fold, caller)):  # the same move, tapped twice: it is there, no error
                error = stale_refusal(game_id, fold, caller, seen)
    if htmx:
        return render_template("table_panel.html", **table_context(game_id, fold, caller, error), live=True)
    if error:
        flash(error, "error")
    return redirect(url_for("pages.table", game_id=game_id))


def tapped_by_this_reader(game_id: str, caller: Caller, form: Any) -> bool:
    """Whether a move the phone kept (offline, or while the database was away) was tapped by
    the reader who sends it now: the page names its reader in `reader`; a seat freed or handed
    on meanwhile makes the phone another reader, and its old moves are never stored as his."""
    tapped_for = form.get("reader")
    return not tapped_for or hmac.compare_digest(str(tapped_for).encode(), reader_of(game_id, caller).encode())


def logged_meanwhile(game_id: str, seen: int, body: dict[str, Any], sight: Sight) -> bool:
    """Whether this very move (by the same hand) was stored after seq `seen`: a second tap of
    one control, which the phone sent before the first one's answer came. Only events this
    reader may see are compared: a private record it may not read (a blind seat's earlier
    hand) would otherwise answer guesses of it."""
    def move(event: dict[str, Any]) -> dict[str, Any]:
        return {key: value for key, value in event.items() if key not in ("seq", "at", "id")}
    game = GAMES[referee().tables.store.header(game_id).game]
    return any(move(visible_event(game, event, sight)) == move(body) for event in referee().tables.store.events(game_id, after=seen))


def stale_refusal(game_id: str, fold: Fold, caller: Caller, seen: int) -> str:
    """A tap made against an older table: refused, saying what changed since the phone's
    table (the events logged meanwhile, as this phone may see them, latest three)."""
    sight = sight_of(game_id, fold, caller)
    meanwhile = [event_json(fold, e, sight) for e in referee().tables.store.events(game_id, after=seen)][-3:]
    said = [event_sentence(fold.header.game, e, fold.header.seats) for e in meanwhile]
    if not said:
        return gettext("The table changed — check and tap again.")
    return gettext("The table changed meanwhile: %(events)s Check and tap again.", events=" ".join(s if s.endswith(".") else s + "." for s in said))


def event_from_form(fold: Fold, form: Any, caller: Caller) -> dict[str, Any]:
    """An event body from a form: fields converted by the game's own schema types."""
    kind = form.get("type", "")
    declared = COMMON_EVENTS.get(kind) or fold.game.events.get(kind, {})
    body: dict[str, Any] = {"type": kind}
    game = fold.header.game
    for name, field in declared.items():
        # A tapped card button and a typed field may share a name: the first one filled in
        # counts. htmx sends the pressed button after the fields, so it counts when the field is empty.
        raw = next((value.strip() for value in form.getlist(name) if value.strip()), "")
        if name == "seat":
            body["seat"] = caller.seat if caller.role == "seat" else form.get("seat", type=int)
        elif name == "cards" and form.get("pick"):
            # Counts are bounded before a list is built: the schema then names what is wrong.
            # "How many" counts every card laid, the jokers among them included.
            pick = parse_value(form["pick"])
            count, jokers = form_count(form, "count", 1), form_count(form, "jokers", 0)
            if pick != "J" and jokers >= count:
                raise RecordError(gettext("%(count)s cards cannot hold %(jokers)s jokers and a %(pick)s.", count=count, jokers=jokers, pick=pick),
                                  errors={"jokers": ["More jokers than cards."]})
            body["cards"] = ["J"] * count if pick == "J" else [pick] * (count - jokers) + ["J"] * jokers
        elif isinstance(field, (fields.Dict, fields.Nested)):  # "bids.red-7" = "4", "card.price" = "300"
            # A tapped chip and a typed field may share a name: the last one filled in counts.
            # "No bid" (a button named "no_bid") sends an empty dict whatever was tapped.
            prefix = name + "."
            body[name] = {} if form.get("no_bid") else {
                key[len(prefix):]: parse_value(value) for key, value in form.items(multi=True) if key.startswith(prefix) and value.strip()}
        elif isinstance(field, fields.List):
            # Tapped cards (one value each) and typed ones ("red-3 blue-7") together.
            values = [token for value in form.getlist(name) for token in value.replace(",", " ").split()]
            if values or name in ("helpers",):
                body[name] = [parse_value(read_token(game, name, v)) for v in values]
        elif raw:
            body[name] = parse_value(raw) if isinstance(field, fields.Integer) else read_token(game, name, raw)
    if form.get("target_card"):  # a Senators demand: one tap names the holder and his card, "2:red-7"
        target, _, card = form["target_card"].partition(":")
        body["target"], body["card"] = parse_value(target), card
    body = fold.game.completed(fold.state, body)
    if caller.role != "spectator":
        # A host who plays this seat logs his own move as that seat; any other as the host.
        own = caller.is_host and caller.seat is not None and body.get("seat") == caller.seat
        body["by"] = caller.seat if own else caller.by
    return body


def form_count(form: Any, name: str, default: int) -> int:
    """A count of cards from a form, bounded before a list is built; RecordError if not a number."""
    value = parse_value(form.get(name) or str(default))
    if not isinstance(value, int):
        raise RecordError(f"{name}: {value!r} is not a number", errors={name: ["Not a number."]})
    return min(max(value, 0), MAX_FORM_CARDS)


def parse_value(text: str) -> Any:
    """A form value as the schema expects it: small whole numbers as int, the rest as text."""
    text = str(text).strip()
    if re.fullmatch(r"-?[0-9]{1,15}", text):
        return int(text)
    return "J" if text.lower() in ("j", "joker") else text


def seq_arg(name: str) -> int | None:
    """A seq from the query string, within what SQLite stores (None when absent or bad)."""
    value = request.args.get(name, type=int)
    return None if value is None else min(max(value, 0), MAX_SEQ)


# --- history, results, records ---------------------------------------------------------------


@bp.post("/g/<game_id>/reveal")
def reveal(game_id: str) -> BaseResponse:
    """The host confirms the end: every secret is shown to everyone, for good."""
    fold_of(game_id)
    if not page_caller(game_id).is_host:
        abort(403, "Only the host reveals the secrets.")
    try:
        referee().tables.reveal(game_id)
    except NotOver:
        flash(gettext("The game is not over yet."), "error")
    return redirect(url_for("pages.table", game_id=game_id))


@bp.get("/g/<game_id>/history")
def history(game_id: str) -> str:
    """Every event with its flag or void; tap one to see the table as it was then, as this
    phone could see it then (nothing it learnt only later)."""
    fold = fold_of(game_id)
    caller = page_caller(game_id)
    at = seq_arg("at")
    seat = caller.seat
    sight = sight_of(game_id, fold, caller)
    aside, official = official_asked(fold)
    if official:
        fold = referee().tables.fold_at(game_id, trusted=sight.everything, official=True)
    then = referee().tables.fold_at(game_id, at, trusted=sight.everything, official=official) if at is not None else None
    events = [event_json(fold, e, sight) for e in referee().tables.store.events(game_id)]
    for event in events:  # each flag with the game's own violation, to be worded in this phone's language
        if event["violation"]:
            event["violation"]["said"] = fold.violation_at(event["seq"])
        if event["withdrawn"] and event["withdrawn"]["rule"]:
            event["withdrawn"]["said"] = fold.withdrawn_at(event["seq"]).flag  # type: ignore[union-attr]
    reasons = {e["seq"]: reason_words(e["reason"]) for e in events if e["type"] == "void" and e.get("reason")}
    # Where it went wrong: the first flag, standing or withdrawn by a correction.
    flagged = [e for e in events if e["violation"] or (e["withdrawn"] and e["withdrawn"]["rule"]) or e["type"] == "void"]
    first = next((e["seq"] for e in flagged if e["type"] != "void"), None)
    only_flags = request.args.get("only") == "flags"
    shown = flagged if only_flags else events
    pages = max(1, -(-len(shown) // HISTORY_PAGE))
    page = seq_arg("page") or (1 + next((i for i, e in enumerate(shown) if e["seq"] >= at), 0) // HISTORY_PAGE if at else 1)
    page = min(max(page, 1), pages)
    return render_template(
        "history.html", fold=fold, game_id=game_id, events=shown[(page - 1) * HISTORY_PAGE : page * HISTORY_PAGE],
        reasons=reasons, at=at, first_violation=first, page=page, pages=pages, only_flags=only_flags,
        then_view=None if then is None else then.view(seat, sight_of(game_id, then, caller, at=at)), then=then, game=fold.game,
        then_over=then is not None and then.outcome is not None,
        caller=caller, seat=seat, finished=fold.outcome is not None, aside=aside, official=official,
        seat_changes=referee().tables.store.seat_changes(game_id),
    )


def official_asked(fold: Fold) -> tuple[bool, bool]:
    """Whether the table set rules aside (house rules, rulings), and whether this page is
    asked to judge by the official rules instead (`?official=1`)."""
    aside = bool(fold.header.house_rules or fold.ruled)
    return aside, aside and request.args.get("official") == "1"


@bp.get("/g/<game_id>/result")
def result(game_id: str) -> str:
    """The game's scoring table: majority table, round sheet with chart, positions per game."""
    fold = fold_of(game_id)
    caller = page_caller(game_id)
    sight = sight_of(game_id, fold, caller)
    aside, official = official_asked(fold)
    if official:
        fold = referee().tables.fold_at(game_id, trusted=sight.everything, official=True)
    hidden = result_hidden(fold, sight)
    outcome = fold.result(sight)
    shown_charts = [] if hidden else charts(fold.header.game, outcome.detail)
    store = referee().tables.store
    events = store.events(game_id)
    created = store.created_at(game_id)
    why = None if hidden else explain(fold, events, sight)
    public = fold.view(None, sight)
    roles = public.get("teams", [])  # Ladies & Gentlemen: each gentleman's lady, the courtesan
    # BG Stats is offered a play with a result: not a game ended before it ranked anyone (L&G before the Ball).
    offered = not hidden and fold.outcome is not None and bool(outcome.ranking)
    return render_template("result.html", bgstats=push_link(play(game_id, fold, events, created)) if offered else None,
                           minutes=None if hidden else minutes(playing_time(fold, events)),
                           group=in_group(referee().groups.group_of(game_id)),
                           fold=fold, game_id=game_id, result=outcome, hidden=hidden, charts=shown_charts, caller=caller,
                           # The receipt is the log's chain hash, which covers every private record: a
                           # reader who may not see them all could test guesses against it (a hand of 13
                           # cards is a few million tries), so it is shown once the record is everyone's.
                           head=store.head(game_id) if fold.outcome is not None and not hidden and (sight.everything or referee().tables.public_record(game_id)) else None,
                           sight=sight,
                           ladies_of={team["gentleman"]: team["lady"] for team in roles}, courtesan=public.get("courtesan"), explanation=why,
                           aside=aside, official=official)


def charts(game: str, detail: dict[str, Any]) -> list[tuple[str, str]]:
    """The game's charts as (title, inline SVG): FTW?! running totals per round; Senators'
    senate track per turn and, once the game is over, money per turn."""
    if game == "ftw" and detail.get("rounds"):
        rounds = detail["rounds"]
        totals = {name: list(itertools.accumulate(row["scores"][name] for row in rounds)) for name in rounds[0]["scores"]}
        return [(gettext("Running totals"), line_chart([str(r["round"]) for r in rounds], totals))]
    if game == "senators" and detail.get("turns"):
        turns = detail["turns"]
        labels = [str(t["turn"]) for t in turns]
        shown = [(gettext("Senators per turn"), line_chart(labels, {n: [t["senators"][n] for t in turns] for n in turns[0]["senators"]}))]
        if "money" in turns[0]:
            shown.append((gettext("Money per turn"), line_chart(labels, {n: [t["money"][n] for t in turns] for n in turns[0]["money"]})))
        return shown
    return []


def line_chart(x_labels: list[str], series: dict[str, list[int | None]] | dict[str, list[int]]) -> str:
    """A small line chart as inline SVG without scripts (pygal), sized for a phone: a row of
    the legend for every two players (none cut off), whole numbers on the axis; a None is a
    gap (a player who was not in that game). One point is no line: a sentence says it. Below
    it whole labels (pygal would cut a date to "06.03.…"): up to four, else the first, the
    middle and the last, as many dates as a phone has room for."""
    if len(x_labels) < 2:
        said = " · ".join(f"{name} {values[-1]}" for name, values in series.items() if values and values[-1] is not None)
        return str(Markup('<p class="muted">{}</p>').format(gettext("So far one point (%(label)s): %(values)s. The chart follows from the second.",
                                                                     label=x_labels[0] if x_labels else "", values=said)))
    # The page's colours (base.html): the chart follows the light or dark theme.
    style = pygal.style.Style(colors=tuple(f"var(--chart-{i}, {c})" for i, c in enumerate(CHART_COLOURS)), background="transparent",
                              plot_background="transparent", foreground="var(--ink)", foreground_strong="var(--ink)",
                              foreground_subtle="var(--muted)", stroke_opacity="1", stroke_width="3", legend_font_size=20, legend_box_size=16, label_font_size=14, major_label_font_size=14)
    legend_rows = -(-len(series) // 2)
    # pygal makes room for len // 2 legend rows: the last player of an odd count gets his row here.
    chart = pygal.Line(js=[], width=360, height=220 + 32 * legend_rows, show_legend=True, legend_at_bottom=True, legend_at_bottom_columns=2,
                       margin_bottom=20 + 30 * (len(series) % 2), margin_right=44, show_dots=len(x_labels) <= 40, truncate_legend=-1,
                       truncate_label=-1, x_labels_major_count=3, show_minor_x_labels=len(x_labels) <= 4, style=style)
    points = [v for line in series.values() for v in line if v is not None]
    if points:  # whole numbers only: no axis of fractions for counts of wins
        low, high = min(points), max(points)
        chart.y_labels = list(range(low, high + 1, max(1, -(-(high - low) // 6))))
    chart.x_labels = x_labels
    for name, values in series.items():
        chart.add(name, values)
    svg: str = chart.render(is_unicode=True, disable_xml_declaration=True)
    # pygal names each chart with a random uuid and dates it in a comment: the same game
    # gives the same page (a page tells nothing but the game; caches and tests compare it).
    chart_id = hashlib.sha256(json.dumps([x_labels, series], sort_keys=True).encode()).hexdigest()[:12]
    return re.sub(r"<!--.*?-->", "", re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", chart_id, svg))


@bp.get("/g/<game_id>/record")
def record(game_id: str) -> Response:
    """Download the table record; hands stay with the host until the game is over."""
    fold_of(game_id)
    return record_download(game_id, page_caller(game_id))


@bp.route("/import", methods=["GET", "POST"])
def import_record() -> Any:
    """Import a record file and replay it here."""
    if request.method == "GET":
        return render_template("import.html")
    upload = request.files.get("record")
    text = upload.read().decode("utf-8", errors="replace") if upload else request.form.get("text", "")
    try:
        game_id = referee().tables.import_record(read_record(text))
    except RecordError as error:
        flash(str(error), "error")
        return render_template("import.html"), 400
    _, host_token = referee().access.open_table(game_id)
    return with_token(redirect(url_for("pages.history", game_id=game_id)), game_id, host_token)


def maintainer(key: str) -> None:
    """The maintainer's pages answer only the key `referee rulings --link` prints (404 otherwise,
    also for a key that is not ASCII, which `compare_digest` cannot take as text)."""
    if not hmac.compare_digest(key.encode("utf-8", "surrogatepass"), maintainer_key(current_app.config["SECRET_KEY"]).encode()):
        abort(404)


@bp.get("/rulings/<key>")
def app_is_wrong_page(key: str) -> str:
    """For the instance's maintainer: the rulings that say the app is wrong, each with its record."""
    maintainer(key)
    return render_template("rulings.html", found=app_is_wrong(referee().tables), key=key)


@bp.get("/rulings/<key>/<game_id>.jsonl")
def app_is_wrong_record(key: str, game_id: str) -> Response:
    """The whole record of a game a ruling says the app judged wrongly (the maintainer holds every
    secret): only of a game the list names, so the link opens no other game of the instance."""
    maintainer(key)
    if game_id not in {row["game_id"] for row in app_is_wrong(referee().tables)}:
        abort(404)
    return record_download(game_id, Caller("host"))


@bp.get("/rules/<game>")
def rules(game: str) -> str:
    """The rule ids of a game and when each is broken; `rule` quotes the one a flag cites,
    `back` leads back to the table (a path of this site only)."""
    if game not in GAMES:
        abort(404, "There is no such game.")
    texts = rule_texts(game)
    cited = request.args.get("rule")
    back = request.args.get("back", "")
    return render_template("rules.html", game=GAMES[game], texts=texts, cited=cited if cited in texts else None,
                           back=back if re.fullmatch(r"/g/[A-Za-z0-9_-]{1,40}(/history)?", back) else None)


@bp.get("/lang/<code>")
def language(code: str) -> BaseResponse:
    """Switch the language (German or English) and go back to the page, on this site only."""
    response = redirect(own_path(request.referrer) or url_for("pages.home"))
    if code in LANGUAGES:
        response.set_cookie("lang", code, samesite="Lax", httponly=True, max_age=60 * 60 * 24 * 365)
    return response


THEMES = ("auto", "light", "dark")


@bp.app_template_global()
def theme() -> str:
    """The theme chosen on this phone: light, dark, or auto (as the phone is set)."""
    chosen = request.cookies.get("theme", "auto")
    return chosen if chosen in THEMES else "auto"


@bp.get("/theme/<choice>")
def theme_choice(choice: str) -> BaseResponse:
    """Keep a theme on this phone (light, dark, or auto) and go back to the page."""
    if choice not in THEMES:
        abort(404, gettext("There is no such theme: auto, light or dark."))
    response = redirect(own_path(request.referrer) or url_for("pages.home"))
    response.set_cookie("theme", choice, samesite="Lax", httponly=True, max_age=60 * 60 * 24 * 365)
    return response


def own_path(url: str | None) -> str | None:
    """The path and query of a URL of this site, as a relative redirect target; None for
    anything else (another host, a scheme-relative `//host`, a backslash browsers read as one)."""
    back = urlsplit(url or "")
    if back.netloc != request.host or back.scheme not in ("http", "https"):
        return None
    if not back.path.startswith("/") or back.path.startswith(("//", "/\\")) or "\\" in back.path:
        return None
    return urlunsplit(("", "", back.path, back.query, ""))


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: "Add to home screen" opens the app full screen, like an app."""
    body = {
        "name": "Table Referee", "short_name": "Referee", "start_url": url_for("pages.home"), "scope": "/",
        "display": "standalone", "background_color": "#ffffff", "theme_color": "#0b5fff",
        "description": gettext("Referee for card games at a real table"),
        "icons": [{"src": url_for("pages.icon", size=size), "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
                  for size in ICON_SIZES],
    }
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")


@bp.get("/icon-<int:size>.png")
def icon(size: int) -> Response:
    """The app's icon (drawn by the app itself), 192 or 512 px."""
    if size not in ICON_SIZES:
        abort(404, "There is no icon of that size.")
    response = Response(icon_png(size), mimetype="image/png")
    response.cache_control.max_age = 86400
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the site's root so that it serves every page (offline)."""
    script = (Path(__file__).resolve().parent / "static" / "sw.js").read_bytes()
    response = Response(script, mimetype="text/javascript")
    response.headers["Service-Worker-Allowed"] = "/"
    return response


# The offline copy is its reader's own: every answer about a game names whom it was
# rendered for, and the service worker keeps a game's copies for one reader at a time (sw.js).
def reader_of(game_id: str, caller: Caller) -> str:
    """The reader a page of this game is rendered for: one per token and seat (a host who
    starts to play a seat is a new reader), a keyed hash that never reveals the token."""
    said = f"{game_id}\0{caller.role}\0{caller.seat}\0{caller.token_id}".encode()
    return hmac.new(str(current_app.secret_key).encode(), said, hashlib.sha256).hexdigest()[:32]


@bp.after_app_request
def tell_the_reader(response: BaseResponse) -> BaseResponse:
    """Every answer under /g/<game> names its reader (X-Reader), for the service worker and
    for the copy a live update hands it: a seat handed on, a host who plays, is a new reader."""
    game_id = (request.view_args or {}).get("game_id")
    if game_id is not None and request.path.startswith("/g/") and response.status_code < 400:
        response.headers["X-Reader"] = reader_of(game_id, page_caller(game_id))
    return response


@bp.get("/offline")
def offline() -> str:
    """What a phone shows for a page it never loaded, when it has no network (kept by the service worker)."""
    return render_template("offline.html")


@bp.get("/static/htmx.min.js")
def htmx_script() -> Response:
    """htmx from the django-js-lib-htmx wheel's data files (never copied into this repo)."""
    script = importlib.resources.files("js_lib_htmx").joinpath("static/htmx/htmx.min.js").read_bytes()
    response = Response(script, mimetype="text/javascript")
    response.cache_control.max_age = 86400
    return response
