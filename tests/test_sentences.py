"""A table reads its phones in sentences: every event of every game in History and Latest
("The host let event 2 stand: we agreed"), the New game form by the typed names, no small
untruths (the right game number, the Tellerwäscher not "out", the host's own move), and
statistics that fit a phone (charts with contrast, none from one point)."""

from __future__ import annotations

import functools
import html
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import EVENTS_DIR
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from kp_helpers import finish_game

from referee.games import GAMES
from referee.record import COMMON_EVENTS, Header, read_record
from referee.replay import EVERYTHING, replay
from referee.web import sentences
from referee.web.news import news
from referee.web.pages import CHART_COLOURS, line_chart, qr_svg

PO = Path(__file__).resolve().parent.parent / "referee" / "web" / "translations" / "de" / "LC_MESSAGES" / "messages.po"
SAMPLES = sorted(EVENTS_DIR.glob("*.jsonl"))


def new_game(client: FlaskClient, game: str, seats: list[str], **form: str) -> str:
    answer = client.post("/new", data={"game": game, "seats": "\n".join(seats), **form})
    assert answer.status_code == 302, answer.get_data(as_text=True)[-800:]
    return answer.headers["Location"].split("/")[2]


def log(client: FlaskClient, game_id: str, **form: object) -> str:
    return client.post(f"/g/{game_id}/log", data={k: str(v) for k, v in form.items()}, headers={"HX-Request": "true"}).get_data(as_text=True)


def lines(page: str) -> list[str]:
    """The text of each History line."""
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in re.findall(r'<li id="e\d+"[^>]*>(.*?)</li>', page, re.S)]


def test_every_event_of_every_game_has_its_sentence() -> None:
    assert set(COMMON_EVENTS) <= set(sentences.COMMON)
    for name, game in GAMES.items():
        assert set(game.events) <= set(sentences.GAMES[name]), name
    assert set().union(*(game.private_events for game in GAMES.values())) <= set(sentences.WITHHELD)


def field_names_in(language: str) -> set[str]:
    """Every field of every event, as the old History lines named them ("target", "Grund")."""
    names = {field for game in GAMES.values() for fields in [*game.events.values(), *COMMON_EVENTS.values()] for field in fields}
    if language == "de":
        with PO.open("rb") as source:
            catalog = read_po(source)
        names = {str(catalog[name].string) for name in names if catalog.get(name) is not None and catalog[name].string}
    return names


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("sample", SAMPLES, ids=[path.stem for path in SAMPLES])
def test_the_history_of_every_sample_reads_in_sentences_not_fields(client: FlaskClient, sample: Path, language: str) -> None:
    client.set_cookie("lang", language)
    game_id = client.post("/import", data={"text": sample.read_text(encoding="utf-8")}).headers["Location"].split("/")[2]
    typed = {str(event[key]) for event in map(json.loads, sample.read_text(encoding="utf-8").splitlines()[1:]) for key in ("reason", "text", "name") if key in event}
    said = [functools.reduce(lambda line, text: line.replace(text, "…"), typed, html.unescape(line))  # what the table typed is its own
            for line in lines(client.get(f"/g/{game_id}/history").get_data(as_text=True))]
    dump = re.compile(r"(?<![\w-])(%s):" % "|".join(re.escape(name) for name in field_names_in(language)))
    assert said and [line for line in said if dump.search(line)] == []
    assert all(re.match(r"#\d+ \S", line) for line in said)
    assert all(line.split()[1] not in {*GAMES[sample.stem.split("-players")[0].rsplit("-", 1)[0]].events} for line in said)


RAW_ID = re.compile(r"\b(?:[a-z]+-\d+|office-[a-z]+)\b")  # "boss-10", "popularity-6", "office-consul": a card's id, not its name


def news_at_every_event(app: Flask, sample: Path, language: str) -> list[str]:
    """The line above the cards after each event of a sample, as the host's phone says it."""
    record = read_record(sample.read_text(encoding="utf-8"))
    said: list[str] = []
    fold = None
    with app.test_request_context(), force_locale(language):
        for upto, event in enumerate(record.events, start=1):
            reaches_back = fold is None or event["type"] in ("void", "ruling")
            fold = replay(record.header, record.events[:upto] if reaches_back else [event], since=None if reaches_back else fold,
                          find_clashes=None)
            moves = [e for e in record.events[:upto] if e["type"] not in ("note", "void") and not fold.withdrawn_at(e["seq"])]
            said += news(fold, fold.view(None), moves[-1] if moves else None, EVERYTHING)
    return said


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("sample", SAMPLES, ids=[path.stem for path in SAMPLES])
def test_no_line_of_any_sample_names_a_card_by_its_id(app: Flask, client: FlaskClient, sample: Path, language: str) -> None:
    """Dora wins auction 1 with "Boss 10" ("Chef 10"), never with "boss-10": in Latest, after every move, and in History."""
    client.set_cookie("lang", language)
    game_id = client.post("/import", data={"text": sample.read_text(encoding="utf-8")}).headers["Location"].split("/")[2]
    said = news_at_every_event(app, sample, language)
    said += lines(client.get(f"/g/{game_id}/history").get_data(as_text=True))
    said += lines(client.get(f"/g/{game_id}").get_data(as_text=True))
    record = read_record(sample.read_text(encoding="utf-8"))
    typed = {str(e[key]) for e in record.events for key in ("reason", "text") if key in e}  # the table's own words
    typed |= {e["card"]["name"] for e in record.events if isinstance(e.get("card"), dict)}  # a Ladies & Gentlemen card as the table named it
    assert said and [line for line in said if RAW_ID.search(functools.reduce(lambda text, words: text.replace(words, "…"), typed, line))] == []


def test_dora_wins_the_auction_with_a_boss_10_and_popularity_6_in_both_languages(app: Flask) -> None:
    sample = EVENTS_DIR / "employee-of-the-month-3-players.jsonl"
    won = [line for line in news_at_every_event(app, sample, "en") if " wins auction " in line]
    gewonnen = [line for line in news_at_every_event(app, sample, "de") if " gewinnt Versteigerung " in line]
    assert won and len(won) == len(gewonnen)
    assert all(re.search(r"with (Colleague|Boss) \d+: distrust \d+ and (Plus|Popularity) \d+\.$", line) for line in won), won
    assert all(re.search(r"mit (Kollege|Chef) \d+: Misstrauen \d+ und (Pluspunkte|Beliebtheit) \d+\.$", line) for line in gewonnen), gewonnen


def test_german_says_versteigerung_and_auslage_one_word_each() -> None:
    with PO.open("rb") as source:
        german = [str(m.string) for m in read_po(source) if m.id and m.string]
    assert [text for text in german if "Auktion" in text] == []
    assert [text for text in german if re.sub(r"außer der Reihe|der Reihe nach", "", text).count("Reihe")] == []


@pytest.mark.parametrize(("language", "ruled", "voided"), [
    ("en", "The host let event 2 stand: we agreed.", "Event 4 withdrawn: wrong phone."),
    ("de", "Der Gastgeber ließ Ereignis 2 gelten: so vereinbart.", "Ereignis 4 zurückgezogen: wrong phone."),  # the chip's reason in German
])
def test_a_ruling_and_a_void_are_sentences_in_history_and_latest(client: FlaskClient, language: str, ruled: str, voided: str) -> None:
    client.set_cookie("lang", language)
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"], plays="")
    log(client, game_id, type="deal", dealer=3)
    log(client, game_id, type="play", seat=2, cards="9")  # Cem plays out of turn: Anna leads
    client.post(f"/g/{game_id}/rule/2", data={"reason": "we agreed"})
    log(client, game_id, type="note", text="Ben's phone is flat")
    client.post(f"/g/{game_id}/void/4", data={"reason": "wrong phone"})
    history = lines(client.get(f"/g/{game_id}/history").get_data(as_text=True))
    assert history[2].startswith(f"#3 {ruled}") and history[4].startswith(f"#5 {voided}")
    assert ruled in client.get(f"/g/{game_id}").get_data(as_text=True)  # Latest says it the same way


def test_a_spectator_reads_that_a_hand_was_logged_and_nothing_of_it(app: Flask, client: FlaskClient) -> None:
    game_id = new_game(client, "ftw", ["Anna", "Ben", "Cem"], plays="")
    log(client, game_id, type="hand", seat=0, cards=" ".join(str(n) for n in range(1, 13)))
    said = lines(app.test_client().get(f"/g/{game_id}/history").get_data(as_text=True))
    assert said == ["#1 Anna logs the hand (private)."]


def test_the_new_game_form_offers_the_typed_names_and_no_choice_for_the_host(client: FlaskClient) -> None:
    form = client.get("/new?game=ftw").get_data(as_text=True)
    assert "Who plays on this phone?" in form and "Who starts?" in form and " checked" not in form
    assert "Starting seat" not in form and "the name in line" not in form
    game_id = new_game(client, "ftw", ["Anna", "Ben", "Cem"], plays="Ben", first="Cem")
    assert client.get(f"/api/games/{game_id}").json["host_seat"] == 1
    assert client.get(f"/api/games/{game_id}").json["view"]["to_act"] == ["Cem"]  # Cem starts
    nobody = new_game(client, "ftw", ["Anna", "Ben", "Cem"], plays="")
    assert client.get(f"/api/games/{nobody}").json["host_seat"] is None


@pytest.mark.parametrize(("field", "language", "said"), [
    ("plays", "en", "“Dora” is not one of the players: choose a name from the list."),
    ("first", "en", "“Dora” is not one of the players: choose a name from the list."),
    ("plays", "de", "„Dora“ ist keiner der Spieler: Wähle einen Namen aus der Liste."),
])
def test_a_name_that_is_not_a_player_is_refused_and_the_form_keeps_the_names(client: FlaskClient, field: str, language: str, said: str) -> None:
    client.set_cookie("lang", language)
    answer = client.post("/new", data={"game": "ftw", "seats": "Anna\nBen\nCem", field: "Dora"})
    page = answer.get_data(as_text=True).replace("&#34;", '"')
    assert answer.status_code == 400 and said in page and 'value="Cem"' in page


def test_between_games_the_table_names_the_next_game_and_nobody_is_out(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"], plays="")
    log(client, game_id, type="deal", dealer=3)
    state = replay(Header("karriere-poker", ("Anna", "Ben", "Cem", "Dora")), [{"seq": 1, "type": "deal", "dealer": 3}]).state
    for body in finish_game(state, [2, 0, 3, 1]):
        log(client, game_id, **{k: " ".join(map(str, v)) if isinstance(v, list) else v for k, v in body.items()})
    table = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "<strong>Game 2</strong> · the cards are dealt next" in table and "(out)" not in table
    result = client.get(f"/g/{game_id}/result").get_data(as_text=True)
    match_table = result.split("Boss and Tellerwäscher games</h2>")[1].split("</table>")[0]
    assert re.findall(r"<tr><td>(\w+)</td>", match_table) == ["Cem", "Anna", "Dora", "Ben"]  # by position, not seat


def test_a_host_who_plays_reads_her_own_move_as_hers(client: FlaskClient) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"], plays="Anna")
    log(client, game_id, type="deal", dealer=3)  # Anna, left of the dealer, leads
    table = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Logging for Anna" not in table and "<h2>Your move</h2>" in table
    log(client, game_id, type="play", seat=0, cards="13")
    assert "<h2>Logging for Ben</h2>" in client.get(f"/g/{game_id}").get_data(as_text=True)  # the host logs for another seat


@pytest.mark.parametrize(("cards", "said"), [("13", "does not hold it."), ("13 13", "does not hold them.")])
def test_a_card_not_in_the_logged_hand_is_it_and_two_are_them(client: FlaskClient, cards: str, said: str) -> None:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"], plays="")
    log(client, game_id, type="deal", dealer=3)
    log(client, game_id, type="hand", seat=0, cards="1 1 2 2 3 3 4 4 5 5 6 6 7")
    assert said in log(client, game_id, type="play", seat=0, cards=cards)


def contrast(colour: str) -> float:
    """WCAG contrast of a colour against white."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def test_chart_lines_have_aa_contrast_and_one_point_is_a_sentence_not_a_chart(app: Flask) -> None:
    assert min(contrast(colour) for colour in CHART_COLOURS) >= 3
    with app.test_request_context():
        single = line_chart(["20.11.2026"], {"Anna": [2], "Ben": [1]})
        chart = line_chart(["1", "2"], {name: [0, 1] for name in ("Anna", "Ben", "Cem", "Dora", "Emil")})
    assert "<svg" not in single and "So far one point (20.11.2026): Anna 2 · Ben 1." in single
    assert all(f">{name}</text>" in chart for name in ("Anna", "Ben", "Cem", "Dora", "Emil"))


def test_a_qr_code_fills_its_box() -> None:
    svg = qr_svg("https://example.org/groups/join/abc")
    assert "viewBox=" in svg and "width=" not in svg.split(">")[0]


def test_house_rules_saved_is_said_under_the_house_rules_heading(client: FlaskClient) -> None:
    group_id = client.post("/groups", data={"name": "Donnerstag"}).headers["Location"].split("/groups/")[1]
    answer = client.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": ["ftw.turn"]})
    assert answer.headers["Location"].endswith("#house-rules")
    page = client.get(answer.headers["Location"]).get_data(as_text=True)
    assert re.search(r'id="house-rules">[^<]*</h2>\s*<p class="flash info" role="status">House rules saved', page)
