"""Every word in the phone's language: a German phone reads no English sentence on any page
of any sample (table, host, scores, history, statistics), an English phone no German one;
chip reasons are stored as codes and worded by each phone; scores explain themselves in
German too."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from conftest import EVENTS_DIR
from flask.testing import FlaskClient
from language import CATALOGUE, foreign_runs, visible_text

from referee.record import read_record

SAMPLES = sorted(EVENTS_DIR.glob("*.jsonl"))
TYPED = ("reason", "text")  # what a table types: a void's or an adjustment's reason, a note


def spoken(path: Path) -> set[str]:
    """What a record holds in the table's own words: names, the title, typed reasons and notes."""
    record = read_record(path.read_text(encoding="utf-8"))
    typed = {str(event[key]) for event in record.events for key in TYPED if key in event}
    return {*record.header.seats, *([record.header.title] if record.header.title else []), *typed, "Table Referee"}


def said_on(client: FlaskClient, path: str, ignored: set[str], language: str) -> list[str]:
    """The runs of the other language on a page, the table's own words left out."""
    text = visible_text(client.get(path).get_data(as_text=True))
    for words in sorted(ignored, key=len, reverse=True):
        text = text.replace(words, " ")
    return [f"{path}: {run}" for run in foreign_runs(text, language)]


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_samples_pages_speak_the_phones_language_only(client: FlaskClient, language: str) -> None:
    client.get(f"/lang/{language}")
    found, ignored, records = [], set(), []
    for path in SAMPLES:
        text = path.read_text(encoding="utf-8")
        game_id = client.post("/import", data={"text": text}).headers["Location"].split("/")[2]
        ignored |= spoken(path)
        for page in ("", "/host", "/result", "/history", "/history?at=9"):
            found += said_on(client, f"/g/{game_id}{page}", spoken(path), language)
        records.append({"id": game_id, "seats": list(read_record(text).header.seats), "record": text})
    # The same games as a group's: its page and its statistics.
    players = sorted({name for r in records for name in r["seats"]})
    group = {"format": "table-group/1", "name": "Freitagsrunde", "players": [{"name": name} for name in players],
             "games": [{"id": r["id"], "created_at": "2026-11-20T19:00:00", "seats": r["seats"], "record": r["record"]} for r in records]}
    client.application.config["MAX_CONTENT_LENGTH"] = 2**22  # every sample in one file
    answer = client.post("/groups/import", data={"group": (io.BytesIO(json.dumps(group).encode()), "group.json")}, content_type="multipart/form-data")
    group_page = answer.headers["Location"]
    for page in (group_page, group_page + "/stats"):
        found += said_on(client, page, ignored | {"Freitagsrunde"}, language)
    assert found == []


def kp_flagged(client: FlaskClient) -> str:
    """Anna leads a 5; Cem, out of turn, plays a 9 (kp.turn)."""
    game_id = client.post("/new", data={"game": "karriere-poker", "seats": "Anna\nBen\nCem\nDora"}).headers["Location"].split("/")[2]
    for form in ({"type": "deal", "dealer": "3"}, {"type": "play", "seat": "0", "cards": "5"}, {"type": "play", "seat": "2", "cards": "9"}):
        client.post(f"/g/{game_id}/log", data=form, headers={"HX-Request": "true"})
    return game_id


def turn_bar(client: FlaskClient, game_id: str) -> str:
    page = client.get(f"/g/{game_id}").get_data(as_text=True)
    return " ".join(visible_text(page[page.index('<nav class="turnbar'):page.index("</nav>", page.index('<nav class="turnbar'))]).split())


def test_the_turn_bars_flag_says_the_games_sentence_in_german(client: FlaskClient) -> None:
    client.get("/lang/de")
    game_id = kp_flagged(client)
    bar = turn_bar(client, game_id)
    assert "⚑ Ereignis 3: " in bar and "(kp.turn)" in bar
    sentence = bar[bar.index("Ereignis 3: ") + len("Ereignis 3: "):bar.index("(kp.turn)")].strip()
    assert "Cem" in sentence and foreign_runs(sentence, "de") == [] and len(sentence.split()) >= 3


def test_a_chip_reason_is_stored_as_its_code_and_each_phone_words_it(client: FlaskClient) -> None:
    # The host, on a German phone, lets Cem's 9 stand with "so vereinbart"; the record keeps
    # the chip's code; an English phone reads "we agreed", the German one "so vereinbart".
    client.get("/lang/de")
    game_id = kp_flagged(client)
    client.post(f"/g/{game_id}/rule/3", data={"reason": "we-agreed"}, headers={"HX-Request": "true"})
    record = client.get(f"/g/{game_id}/record").get_data(as_text=True)
    assert '"reason": "we-agreed"' in record
    assert "so vereinbart" in client.get(f"/g/{game_id}").get_data(as_text=True)
    client.get("/lang/en")
    english = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert "we agreed" in english and "so vereinbart" not in english


def test_an_old_record_with_the_chips_english_text_is_worded_in_german(client: FlaskClient) -> None:
    # Recorded before the codes: the void's reason is the English chip text; a typed reason stays as typed.
    text = "\n".join(json.dumps(line) for line in [
        {"format": "table-record/1", "game": "ftw", "seats": ["Anna", "Ben", "Cem"], "options": {}},
        {"seq": 1, "type": "note", "text": "Pizza kommt"},
        {"seq": 2, "type": "void", "target": 1, "reason": "voided at the table"},
        {"seq": 3, "type": "note", "text": "Pizza ist da"},
        {"seq": 4, "type": "void", "target": 3, "reason": "typo in the note"},
    ]) + "\n"
    game_id = client.post("/import", data={"text": text}).headers["Location"].split("/")[2]
    client.get("/lang/de")
    history = visible_text(client.get(f"/g/{game_id}/history").get_data(as_text=True))
    assert "am Tisch zurückgezogen" in history and "voided at the table" not in history
    assert "typo in the note" in history


def test_why_these_scores_in_german(client: FlaskClient) -> None:
    # senators-3-players: Anna's five senators at the start, and a senator sold, in German.
    path = EVENTS_DIR / "senators-3-players.jsonl"
    game_id = client.post("/import", data={"text": path.read_text(encoding="utf-8")}).headers["Location"].split("/")[2]
    client.get("/lang/de")
    page = client.get(f"/g/{game_id}/result").get_data(as_text=True)
    section = page[page.index('id="explain"'):]
    explained = visible_text(section)
    assert "5 Senatoren zu Beginn" in explained and "einen Senator für 5 an die Bank verkauft" in explained
    assert "senators at the start" not in explained and 'lang="en"' not in section


def test_the_tables_end_without_a_reason_in_the_phones_language(client: FlaskClient) -> None:
    client.get("/lang/de")
    game_id = client.post("/new", data={"game": "ftw", "seats": "Anna\nBen\nCem"}).headers["Location"].split("/")[2]
    client.post(f"/g/{game_id}/log", data={"type": "end"}, headers={"HX-Request": "true"})
    for page in ("", "/result", "/history"):
        shown = visible_text(client.get(f"/g/{game_id}{page}").get_data(as_text=True))
        assert "the table ended the game" not in shown and foreign_runs(shown.replace("Table Referee", ""), "de") == [], page
    assert "der Tisch hat das Spiel beendet" in visible_text(client.get(f"/g/{game_id}/result").get_data(as_text=True))


def test_the_replay_report_speaks_german_and_the_json_no_language() -> None:
    from click.testing import CliRunner

    from referee.cli import main

    path = str(EVENTS_DIR / "karriere-poker-5-players-flags.jsonl")
    german = CliRunner().invoke(main, ["replay", path, "--lang", "de"]).output
    assert "Spieler: Anna, Ben, Cem, Dora, Emil" in german and "Spiel vorbei: 2 Spiele gespielt; Cem ist Boss und gewinnt" in german
    assert "Ereignis 6: zurückgezogen durch Ereignis 8 (Cem spielte 10, aber ausgespielt wurde mit 2 Karten. [kp.raise.count])" in german
    assert foreign_runs(german.replace("Fünf am Küchentisch", ""), "de") == []
    assert german == CliRunner(env={"LANG": "de_DE.UTF-8"}).invoke(main, ["replay", path]).output  # the environment's language
    english = CliRunner(env={"LANG": "C.UTF-8"}).invoke(main, ["replay", path]).output
    assert "Players: Anna, Ben, Cem, Dora, Emil" in english and foreign_runs(english.replace("Fünf am Küchentisch", ""), "en") == []
    as_json = [CliRunner(env={"LANG": lang}).invoke(main, ["replay", path, "--json"]).output for lang in ("de_DE.UTF-8", "C.UTF-8")]
    assert as_json[0] == as_json[1] and "Spieler" not in as_json[0]


def test_the_groups_plays_file_names_its_columns_in_the_phones_language(client: FlaskClient) -> None:
    path = EVENTS_DIR / "ftw-3-players.jsonl"
    record = path.read_text(encoding="utf-8")
    group = {"format": "table-group/1", "name": "Freitagsrunde", "players": [{"name": n} for n in ("Anna", "Ben", "Cem")],
             "games": [{"id": "g1", "created_at": "2026-11-20T19:00:00", "seats": ["Anna", "Ben", "Cem"], "record": record}]}
    answer = client.post("/groups/import", data={"group": (io.BytesIO(json.dumps(group).encode()), "group.json")}, content_type="multipart/form-data")
    plays = answer.headers["Location"] + "/plays.csv"
    client.get("/lang/de")
    assert client.get(plays).get_data(as_text=True).splitlines()[0] == "Datum,Spiel-ID,Spiel,Titel,Spieler,spielte als,Platz,Punkte,Rang,gewonnen,Minuten"
    client.get("/lang/en")
    assert client.get(plays).get_data(as_text=True).splitlines()[0] == "date,game_id,game,title,player,played_as,seat,score,rank,won,minutes"


def test_doras_hand_is_named_in_german_without_an_ending_glued_to_her_name(client: FlaskClient) -> None:
    # The 3-player FTW?! sample with Cem as Dora, at the reveal: the host's form names her hand.
    lines = (EVENTS_DIR / "ftw-3-players.jsonl").read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace('"Cem"', '"Dora"')
    game_id = client.post("/import", data={"text": "\n".join(lines[:44])}).headers["Location"].split("/")[2]  # up to the first reveal
    client.get("/lang/de")
    shown = visible_text(client.get(f"/g/{game_id}").get_data(as_text=True))
    assert "Karten auf der Hand von Dora" in shown and "Dora'" not in shown
    # No German sentence glues a genitive to a name ("Dora' Hand", "Emils'"): it reads right for any name.
    with CATALOGUE.open("rb") as po:
        glued = [m.string for m in read_po(po) if m.id and re.search(r"%\(\w+\)s(?:s\b|['’])", str(m.string))]
    assert glued == []
