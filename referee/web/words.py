"""The games' own words as a player reads them, in the chosen language.

Records keep their names ("red-7", "office-censor", "sell"); the games word their endings
and details in English, in pure modules. What a phone shows goes through here, so that a
German table reads German card names, choices and endings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime, timezone
from functools import cache
from typing import Any

from flask_babel import force_locale, get_locale, gettext, lazy_gettext, ngettext
from markupsafe import Markup

from ..games.base import Count, Phrase, Violation, Word
from ..games.karriere_poker import Played

COLOURS = {"red": lazy_gettext("red"), "orange": lazy_gettext("orange"), "yellow": lazy_gettext("yellow"),
           "green": lazy_gettext("green"), "blue": lazy_gettext("blue"), "purple": lazy_gettext("purple")}
OFFICES = {"governor": lazy_gettext("governor"), "censor": lazy_gettext("censor"), "consul": lazy_gettext("consul"),
           "quaestor": lazy_gettext("quaestor")}
EOTM_KINDS = {"colleague": lazy_gettext("Colleague"), "boss": lazy_gettext("Boss"), "plus": lazy_gettext("Plus"),
              "popularity": lazy_gettext("Popularity")}
LG_KINDS = {"wardrobe": lazy_gettext("wardrobe"), "servant": lazy_gettext("servant")}
# Values of event fields that are words: choices and kinds.
VALUES = {"sell": lazy_gettext("sell"), "buy": lazy_gettext("buy"), "pass": lazy_gettext("pass"), "pay": lazy_gettext("pay"),
          "keep": lazy_gettext("keep"), "return": lazy_gettext("return"), "defer": lazy_gettext("defer"),
          "discount": lazy_gettext("discount"), "war": lazy_gettext("war"), "other": lazy_gettext("other"), **LG_KINDS}

# Reasons tapped on a chip, stored as these codes and worded by each phone in its language
# (a typed reason is stored and shown as typed): rulings, voids, Senators' adjustments,
# Ladies & Gentlemen incomes.
REASONS = {"house-rule": lazy_gettext("house rule"), "we-agreed": lazy_gettext("we agreed"),
           "app-is-wrong": lazy_gettext("the app is wrong"), "voided-at-the-table": lazy_gettext("voided at the table"),
           "event-card": lazy_gettext("event card"), "war": lazy_gettext("war"), "censor": lazy_gettext("censor"),
           "contract": lazy_gettext("contract"), "market": lazy_gettext("market")}

# The games' endings (`Outcome.reason`), each with its sentence in the chosen language.
ENDINGS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"all (\d+) auctions are over"), lambda m: gettext("all %(count)s auctions are over", count=m[1])),
    (re.compile(r"all (\d+) rounds are played"), lambda m: gettext("all %(count)s rounds are played", count=m[1])),
    (re.compile(r"(\d+) games played; (.+) is Boss and wins"),
     lambda m: gettext("%(count)s games played; %(name)s is Boss and wins", count=m[1], name=m[2])),
    (re.compile(r"(.+) is Boss for the (\d+)\w\w game in a row and wins"),
     lambda m: gettext("%(name)s is Boss for the %(count)s. game in a row and wins", name=m[1], count=m[2])),
    (re.compile(r"the 4th war was drawn"), lambda m: gettext("the 4th war was drawn")),
    (re.compile(r"only one player has senators left"), lambda m: gettext("only one player has senators left")),
    (re.compile(r"every shopper's elegance is entered: the Ball is over"),
     lambda m: gettext("every shopper's elegance is entered: the Ball is over")),
    (re.compile(r"the table ended the game"), lambda m: gettext("the table ended the game")),  # an `end` without a reason
]


def flag_words(violation: Violation, names: Any) -> str | None:
    """A flag's sentence in the chosen language, with cards, kinds and boutiques named as the
    app names them elsewhere: the game's template (in the catalogue) with its values worded
    here. None for a message the game made whole (no template)."""
    if not violation.template:
        return None
    return said_words(violation.template, violation.values, names)


def said_words(template: str, values: Any, names: Any) -> str:
    """A game's sentence (`broken`, `because`) in the chosen language: its template from the
    catalogue, its values worded here."""
    return gettext(template) % {key: value_words(value, names) for key, value in values}


def explained(items: dict[str, list[dict[str, Any]]], names: Any) -> dict[str, list[dict[str, Any]]]:
    """`Game.explain`'s items with each why in the chosen language."""
    return {name: [{**item, "why": said_words(*item["said"], names)} for item in listed] for name, listed in items.items()}


@cache
def chip_texts() -> dict[str, str]:
    """Each chip's text in English and in German -> its code: the records from before the
    codes stored the text the phone showed."""
    found = {}
    for language in ("de", "en"):
        with force_locale(language):
            found.update({str(text).casefold(): code for code, text in REASONS.items()})
    return found


def reason_code(reason: str) -> str | None:
    """The chip a stored reason came from (its code, or its text); None for a typed reason."""
    return reason if reason in REASONS else chip_texts().get(reason.strip().casefold())


def reason_words(reason: str) -> str:
    """A stored reason as this phone says it: a chip's in its language, a typed one as typed."""
    code = reason_code(reason)
    return reason if code is None else str(REASONS[code])


def value_words(value: Any, names: Any) -> str:
    """One value of a flag's sentence in words: a count ("three 7s"; "3 Karten", "2 × 7"), a play's
    cards, a game's phrase, a card or kind, a boutique by its lady; a player's name as it is."""
    if isinstance(value, tuple):
        return ", ".join(value_words(item, names) for item in value)
    if isinstance(value, (Count, Played)) and get_locale().language == "en":
        return str(value)  # as players say it: "three 7s", "two 9s (one a joker)"
    if isinstance(value, Count):
        if value.noun == "card":
            return ngettext("%(num)s card", "%(num)s cards", value.count)
        return f"{value.count} × {gettext('Joker') if value.noun == 'joker' else value.noun}"
    if isinstance(value, Played):
        return " ".join(gettext("Joker") if card == "J" else str(card) for card in value.cards)
    if isinstance(value, Phrase):
        return gettext(value.text)
    if isinstance(value, Word):
        token = value.token
        if isinstance(token, int):  # an Employee of the Month distrust card
            return f"{gettext('distrust')} {token}"
        return ending(token) or str(EOTM_KINDS.get(token, "")) or card_text(token)
    if isinstance(value, str) and value not in names:
        if value.startswith("team-"):
            return boutique_text(names, value)
        return str(OFFICES[value]) if value in OFFICES else reason_words(value) if reason_code(value) else say(value)
    return str(value)


def ending(reason: str) -> str | None:
    """A game's own ending in the chosen language; None for one it does not word (typed)."""
    for pattern, said in ENDINGS:
        match = pattern.fullmatch(reason)
        if match:
            return said(match)
    return None


def colour(name: str) -> str:
    """A Senators colour: the default ones translated, a table's own names as written."""
    return str(COLOURS.get(name, name))


def card_text(card: Any) -> str:
    """A card's name as the table reads it: "rot 7", "Konsul", "Statthalter (blau)",
    "Garderobe 3", "Kollege 8"; anything else as it is."""
    text = str(card)
    if text.startswith("office-"):
        kind, _, of = text[len("office-"):].partition("-")
        word = str(OFFICES.get(kind, kind))
        return f"{word} ({colour(of)})" if of else word
    name, dash, value = text.rpartition("-")
    if dash and value.isdigit():
        if name in LG_KINDS:
            return f"{LG_KINDS[name]} {value}"
        if name in COLOURS:
            return f"{COLOURS[name]} {value}"
        if name in EOTM_KINDS:
            return f"{EOTM_KINDS[name]} {value}"
    return text


def say(value: Any) -> str:
    """An event field's value in words: a choice or a kind translated, a card named."""
    if isinstance(value, str) and value in VALUES:
        return str(VALUES[value])
    return card_text(value)


def boutique_text(names: Any, boutique: str) -> str:
    """A Ladies & Gentlemen boutique by its lady: "team-2" is "Cem's boutique"."""
    _, _, seat = boutique.rpartition("-")
    if not seat.isdigit() or int(seat) >= len(names):
        return boutique
    return gettext("%(name)s's boutique", name=names[int(seat)])


def senators_tie(detail: dict[str, Any], ranking: list[list[str]]) -> str | None:
    """Said when the winner has no more senators than the next player: money decided."""
    money = detail.get("money")
    if not money or len(ranking) < 2 or len(ranking[0]) != 1:
        return None
    winner, second = ranking[0][0], ranking[1][0]
    senators = detail["senators"]
    if senators[winner] != senators[second]:
        return None
    return gettext("%(winner)s and %(second)s have %(count)s senators each: %(winner)s wins with more money (%(more)s to %(less)s).",
                   winner=winner, second=second, count=senators[winner], more=money[winner], less=money[second])


def ball_verdict(detail: dict[str, Any], ladies_of: dict[str, str], courtesan: str | None) -> str:
    """Why the Ball was won, from its facts (winners, elegance, gifts, scandal): the game
    words it in English (`why`); this says the same in the chosen language."""
    elegance, gifts, winners = detail["elegance"], detail["gifts"], detail["winners"]
    said = []
    if detail["scandal"] and courtesan:
        said.append(gettext("Scandal: %(name)s, the courtesan, is the least elegant (%(elegance)s); excluded: %(excluded)s.",
                            name=courtesan, elegance=elegance[courtesan], excluded=", ".join(detail["excluded"])))
    if courtesan in winners:
        gentlemen = [w for w in winners if w != courtesan]
        said.append(gettext("%(name)s, the courtesan, is the most elegant at the Ball (%(elegance)s) and wins with %(gentlemen)s, who gave her the finest gifts (%(stars)s stars).",
                            name=courtesan, elegance=elegance[courtesan], gentlemen=" & ".join(gentlemen), stars=gifts[gentlemen[0]]))
    elif winners:
        ladies = [w for w in winners if w in elegance]
        said.append(gettext("%(teams)s win: the most elegant lady (%(elegance)s).",
                            teams=" & ".join(f"{lady} & {g}" for g, lady in ladies_of.items() if lady in ladies), elegance=elegance[ladies[0]]))
        tied = [lady for lady in ladies_of.values() if lady not in ladies and lady not in detail["excluded"] and elegance[lady] == elegance[ladies[0]]]
        if tied and len(ladies) == 1:
            said.append(gettext("The tie with %(names)s is decided by the gentleman's money.", names=", ".join(tied)))
    else:
        said.append(gettext("No team is left to win."))
    return " ".join(said)


def duration(minutes: int) -> str:
    """A game's or an evening's length: "1 h 05 min", "1 Std. 05 Min."."""
    hours, rest = divmod(max(minutes, 0), 60)
    return gettext("%(hours)d h %(minutes)02d min", hours=hours, minutes=rest) if hours else gettext("%(minutes)d min", minutes=rest)


def pace(seconds: int) -> str:
    """How long a move took: "42 s", "1 min 05 s"."""
    minutes, rest = divmod(max(seconds, 0), 60)
    return gettext("%(minutes)d min %(seconds)02d s", minutes=minutes, seconds=rest) if minutes else gettext("%(seconds)d s", seconds=rest)


def day(iso: str | None) -> str:
    """A date as the language writes it: "2026-11-20", "20.11.2026"."""
    if not iso:
        return "?"
    year, month, date = iso.split("-")
    return iso if get_locale().language == "en" else f"{date}.{month}.{year}"


def clock(moment: datetime) -> Markup:
    """A time of day, which table.js shows in the phone's own time zone ("21:14"); "21:14 UTC" until then."""
    utc = moment.astimezone(timezone.utc)
    return Markup('<time datetime="{}" data-clock>{} UTC</time>').format(utc.isoformat(), utc.strftime("%H:%M"))
