"""A game's reference page, made from its module: events, options, rule ids, scoring.

The facts live in the game modules (the rule table, the event schemas, the options schema
with a description per option, the scoring summary and the docstring's decisions) and the
German catalogue; `docs/games/*.md` and `referee rules GAME` are made from them here, so
code and docs cannot drift (a test compares the committed pages with these).
"""

from __future__ import annotations

import inspect
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from marshmallow import fields, missing, validate

from .games import GAMES
from .games.base import Game
from .record import COMMON_EVENTS
from .replay import CORE_RULES

CATALOGUE = Path(__file__).resolve().parent / "web" / "translations" / "de" / "LC_MESSAGES" / "messages.po"
HEADINGS = {
    "en": ("Players", "Options", "option", "default", "meaning", "Events", "type", "fields", "Rule ids", "id", "broken when",
           "Scoring", "Where the rules are silent", "every game", "none", "A rule turned off: the buttons it gives back"),
    "de": ("Spieler", "Optionen", "Option", "Vorgabe", "Bedeutung", "Ereignisse", "Typ", "Felder", "Regeln", "Regel", "verletzt, wenn",
           "Wertung", "Wo die Regeln schweigen", "jedes Spiel", "keine", "Eine Regel ausgeschaltet: die Knöpfe, die sie zurückgibt"),
}


@lru_cache(maxsize=1)
def german() -> dict[str, str]:
    """English sentence -> German, from the app's catalogue."""
    with CATALOGUE.open("rb") as po:
        return {str(message.id): str(message.string) for message in read_po(po) if message.id and message.string}


def kind_of(field: fields.Field[Any]) -> str:
    """What a field holds, as a player reads it: a seat, a card, a number, one of some words…"""
    named = {"Seat": "seat", "Card": "card"}.get(type(field).__name__)
    choices = next((v.choices for v in field.validators if isinstance(v, validate.OneOf)), None)
    if named:
        return named
    if choices:
        return "one of " + "/".join(map(str, choices))
    if isinstance(field, fields.List):
        return f"list of {kind_of(field.inner)}"
    if isinstance(field, fields.Dict) and field.key_field is not None:
        return f"{kind_of(field.key_field)} → {kind_of(field.value_field) if field.value_field else 'value'}"
    kinds = {fields.Integer: "number", fields.Boolean: "true/false", fields.String: "text", fields.Dict: "object", fields.Nested: "object"}
    return next((label for cls, label in kinds.items() if isinstance(field, cls)), "card")


def field_text(name: str, field: fields.Field[Any]) -> str:
    return f"`{name}`{'' if field.required else '?'} ({kind_of(field)})"


def option_default(field: fields.Field[Any]) -> str:
    default = field.load_default
    if default is missing:
        return "—"
    return f"`{default() if callable(default) else default}`".replace("'", '"').replace("True", "true").replace("False", "false")


def reference(name: str, language: str | None = None) -> str:
    """The reference page of game `name` in Markdown: English, German (`de`), or both
    sentences side by side (None, the docs page)."""
    game = GAMES[name]
    head = HEADINGS["de" if language == "de" else "en"]
    lines = [f"# {game.title} (`{game.name}`)", "", f"{head[0]}: {game.min_players}–{game.max_players}.", "", f"## {head[1]}", ""]
    options = game.options().fields
    if options:
        lines += [f"| {head[2]} | {head[3]} | {head[4]} |", "|---|---|---|"]
        lines += [f"| `{key}` | {option_default(field)} | {field.metadata.get('description', '')} |" for key, field in options.items()]
    else:
        lines.append(head[14])
    lines += ["", f"## {head[5]}", "", f"| {head[6]} | {head[7]} |", "|---|---|"]
    for kind, declared in [*game.events.items(), *((kind, declared) for kind, declared in COMMON_EVENTS.items())]:
        private = " (private)" if kind in game.private_events else " (host)" if kind in game.host_events else ""
        common = f" ({head[13]})" if kind in COMMON_EVENTS else ""
        lines.append(f"| `{kind}`{private}{common} | {', '.join(field_text(n, f) for n, f in declared.items()) or '—'} |")
    lines += ["", f"## {head[8]}", ""]
    rules = {**CORE_RULES, **game.rules}
    if language is None:
        lines += [f"| {head[9]} | {head[10]} | verletzt, wenn |", "|---|---|---|"]
        lines += [f"| `{rule}` | {text} | {german().get(text, '')} |" for rule, text in rules.items()]
    else:
        lines += [f"| {head[9]} | {head[10]} |", "|---|---|"]
        lines += [f"| `{rule}` | {german().get(text, text) if language == 'de' else text} |" for rule, text in rules.items()]
    given_back = inspect.getdoc(type(game).house_view)  # each game's own verdict per rule id
    if type(game).house_view is not Game.house_view and given_back:
        lines += ["", f"## {head[15]}", "", "```", given_back, "```"]
    lines += ["", f"## {head[11]}", "", game.scoring, "", f"## {head[12]}", ""]
    decisions = inspect.getdoc(inspect.getmodule(game)) or ""
    body = decisions.split("\n\n", 1)[1] if "\n\n" in decisions else decisions
    lines += [body.replace("Reference: docs/games/ (made from this module). ", "", 1), ""]
    return "\n".join(lines)


def write_docs(folder: Path) -> list[Path]:
    """Write every game's reference page (docs/games/NAME.md); the paths written."""
    (folder / "games").mkdir(parents=True, exist_ok=True)
    written = []
    for name in GAMES:
        path = folder / "games" / f"{name}.md"
        path.write_text(reference(name), encoding="utf-8")
        written.append(path)
    return written
