"""House rules in words and in buttons, and a void that says what it will do.

A table that turned a rule off reads it as what the table allows ("The starting player may
pass"), in the phone's language, and gets the button for the move the rule forbade. Before
the host (or the phone that logged it) voids an event, the confirmation names the later
moves replay will then flag.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from referee.games import GAMES
from referee.record import FORMAT, parse_header
from conftest import play_out, table as table_of
from test_api import Table
from test_karriere_poker import GAME_1
from test_turn_bar import bar_of, table_forms

KP = {"game": "karriere-poker", "seats": ["Anna", "Ben", "Cem", "Dora"]}
TRANSLATIONS_PO = Path(__file__).resolve().parent.parent / "referee/web/translations/de/LC_MESSAGES/messages.po"


def page_of(app: Flask, table: Table, token: str, language: str = "en") -> FlaskClient:
    phone = app.test_client()
    phone.set_cookie("referee_token", token, path=f"/g/{table.id}")
    phone.set_cookie("lang", language)
    return phone


def test_every_rule_a_table_may_turn_off_says_what_the_table_then_allows_in_english_and_german() -> None:
    with TRANSLATIONS_PO.open("rb") as po:
        german = {m.id: m.string for m in read_po(po) if m.id}
    for game in GAMES.values():
        assert list(game.allows) == list(game.rules), game.name  # one sentence per rule, in the rules' order
        for rule, sentence in game.allows.items():
            assert german.get(sentence), (rule, sentence)
            assert sentence != game.rules[rule] and rule not in sentence


def house_table(app: Flask, off: list[str]) -> Table:
    """A Karriere Poker table under house rules (as a group's new game carries them), Anna's seat claimed."""
    referee = app.extensions["referee"]
    table = Table.__new__(Table)
    table.client = app.test_client()
    table.id = referee.tables.create(parse_header({"format": FORMAT, **KP, "options": {}, "house_rules": {"off": off}}, None))
    table.code, table.host = referee.access.open_table(table.id)
    table.seats = {0: table.client.post(f"/api/games/{table.id}/seats/0", json={"code": table.code}).json["token"]}
    return table


def test_with_the_lead_pass_off_anna_may_pass_at_a_lead_on_her_phone_and_the_hosts(app: Flask) -> None:
    table = house_table(app, ["kp.lead.pass"])
    table.log({"type": "deal", "dealer": 3})
    anna = page_of(app, table, table.seats[0]).get(f"/g/{table.id}").get_data(as_text=True)
    assert bar_of(anna[anna.index('<nav class="turnbar'):]) == ("Your turn", "Your move") and "pass" in table_forms(anna)
    assert 'value="pass"' in anna[anna.index('<nav class="turnbar'):]  # Pass in the bar, one tap
    assert "House rules:" in anna and ">The starting player may pass</a>" in anna and ">kp.lead.pass<" not in anna
    host = page_of(app, table, table.host, "de").get(f"/g/{table.id}").get_data(as_text=True)
    assert "pass" in table_forms(host) and ">Der Spieler, der die Runde beginnt, darf passen</a>" in host
    assert table.log({"type": "pass", "seat": 0}, table.seats[0]).json["violation"] is None
    # Where the rule is played, a lead offers no Pass.
    strict = Table(app.test_client(), KP, claim=(0,))
    strict.log({"type": "deal", "dealer": 3})
    anna = page_of(app, strict, strict.seats[0]).get(f"/g/{strict.id}").get_data(as_text=True)
    assert "pass" not in table_forms(anna) and 'value="pass"' not in anna[anna.index('<nav class="turnbar'):]


def test_with_deferral_of_the_courtesans_cards_allowed_her_card_offers_defer() -> None:
    game = GAMES["ladies-and-gentlemen"]
    assert game.house_view({"bills": {}}, frozenset({"lg.bill.defer"}))["defer_courtesan"] is True
    assert "defer_courtesan" not in game.house_view({"bills": {}}, frozenset({"lg.keep"}))


def ruled_table(app: Flask) -> Table:
    """Anna leads a 5, Cem plays a 9 out of turn, the host lets it stand, Dora raises with a 10 after Cem."""
    table = Table(app.test_client(), KP, claim=(0, 2, 3))
    table.log({"type": "deal", "dealer": 3})
    table.log({"type": "play", "seat": 0, "cards": [5]}, table.seats[0])
    assert table.log({"type": "play", "seat": 2, "cards": [9]}, table.seats[2]).json["violation"]["rule"] == "kp.turn"
    table.log({"type": "ruling", "target": 3, "reason": "we agreed"})
    assert table.log({"type": "play", "seat": 3, "cards": [10]}, table.seats[3]).json["violation"] is None
    return table


def test_voiding_a_ruling_names_the_moves_it_will_flag_before_the_host_confirms(app: Flask) -> None:
    table = ruled_table(app)
    host = page_of(app, table, table.host)
    table_page = host.get(f"/g/{table.id}").get_data(as_text=True)
    assert f'method="get" action="/g/{table.id}/void/4"' in table_page  # Void opens the confirmation
    preview = host.get(f"/g/{table.id}/void/4").get_data(as_text=True)
    assert "Void event 4?" in preview and "Then 2 later moves are flagged:" in preview
    assert preview.count('data-rule="kp.turn"') == 2 and "Event 3:" in preview and "Event 5:" in preview
    assert len(table.events()) == 5  # the preview stores nothing
    german = page_of(app, table, table.host, "de").get(f"/g/{table.id}/void/4").get_data(as_text=True)
    assert "Ereignis 4 zurückziehen?" in german and "Dann werden 2 spätere Züge markiert:" in german
    # Confirmed: the flags it named stand.
    host.post(f"/g/{table.id}/void/4", data={"expected_seq": "5"})
    assert [(e["seq"], (e["violation"] or {}).get("rule")) for e in table.events()[2:5]] == [(3, "kp.turn"), (4, None), (5, "kp.turn")]


def test_a_void_that_flags_nothing_says_so_and_only_its_author_or_the_host_may_ask(app: Flask) -> None:
    table = ruled_table(app)
    dora = page_of(app, table, table.seats[3], "de")
    assert "Kein späterer Zug wird dadurch markiert." in dora.get(f"/g/{table.id}/void/5").get_data(as_text=True)
    anna = page_of(app, table, table.seats[0])
    assert anna.get(f"/g/{table.id}/void/5").status_code == 403  # Dora's move, not Anna's
    assert app.test_client().get(f"/g/{table.id}/void/5").status_code == 403  # a spectator
    assert anna.get(f"/g/{table.id}/void/99").status_code == 404


def test_the_bars_void_opens_the_confirmation_that_names_what_the_void_will_flag(app: Flask) -> None:
    # Cem plays a 9 out of turn after Anna's lead: flagged, and his bar shows the flag with its
    # Void. The Void asks first, on the page that names the later moves the void will flag.
    table = Table(app.test_client(), KP, claim=(0, 2))
    table.log({"type": "deal", "dealer": 3})
    table.log({"type": "play", "seat": 0, "cards": [5]}, table.seats[0])
    assert table.log({"type": "play", "seat": 2, "cards": [9]}, table.seats[2]).json["violation"]["rule"] == "kp.turn"
    cem = page_of(app, table, table.seats[2])
    page = cem.get(f"/g/{table.id}").get_data(as_text=True)
    bar = page[page.index('<nav class="turnbar'):]
    bar = bar[:bar.index("</nav>")]
    assert f'method="get" action="/g/{table.id}/void/3"' in bar and "hx-confirm" not in bar and 'method="post"' not in bar
    preview = cem.get(f"/g/{table.id}/void/3").get_data(as_text=True)
    assert "Void event 3?" in preview and "No later move is flagged by it." in preview
    assert len(table.events()) == 3  # asking stores nothing


def test_a_void_of_game_1s_deal_says_the_moves_come_before_game_1_is_dealt(app: Flask) -> None:
    # Dora deals game 1, Anna leads a 5, Ben raises with a 6. Voiding the deal flags both
    # moves: they come before game 1 is dealt (there is no "next game" in game 1).
    table = Table(app.test_client(), KP, claim=())
    for body in ({"type": "deal", "dealer": 3}, {"type": "play", "seat": 0, "cards": [5]}, {"type": "play", "seat": 1, "cards": [6]}):
        table.log(body)
    preview = page_of(app, table, table.host).get(f"/g/{table.id}/void/1").get_data(as_text=True)
    assert "Then 2 later moves are flagged:" in preview
    assert "Anna acts before game 1 is dealt." in preview and "Ben acts before game 1 is dealt." in preview and "next game" not in preview
    german = page_of(app, table, table.host, "de").get(f"/g/{table.id}/void/1").get_data(as_text=True)
    assert "Anna handelt, bevor Spiel 1 gegeben ist." in german
    # After game 1, a move before the next deal names the game it waits for.
    between = play_out(table_of("karriere-poker", KP["seats"]), *GAME_1, {"type": "play", "seat": 3, "cards": [5]})
    assert between.violation_at(between.seq).message == "Dora acts before game 2 is dealt."  # type: ignore[union-attr]
