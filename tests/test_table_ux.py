"""The phone at the table through the real Flask app: what just happened, the turn bar,
card entry by tapping or short notation, and the host who also plays a seat."""

from __future__ import annotations

import re
from typing import Any

from conftest import EVENTS_DIR
import pytest
from flask.testing import FlaskClient
from test_pages import log, new_game

from referee.record import read_record, write_record


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def table(client: FlaskClient, game_id: str) -> str:
    return client.get(f"/g/{game_id}").get_data(as_text=True)


def news(html: str) -> list[str]:
    return [text_of(n) for n in re.findall(r'<p class="news">(.*?)</p>', html)]


def kp_table(client: FlaskClient) -> str:
    game_id = new_game(client, "karriere-poker", ["Anna", "Ben", "Cem", "Dora"])
    log(client, game_id, type="deal", dealer=3)  # Anna, left of the dealer, leads
    return game_id


def test_the_table_says_who_won_the_round(client: FlaskClient) -> None:
    game_id = kp_table(client)
    log(client, game_id, type="play", seat=0, cards="5")
    log(client, game_id, type="play", seat=1, cards="7")
    assert news(table(client, game_id)) == []  # the round goes on
    log(client, game_id, type="pass", seat=2)
    log(client, game_id, type="pass", seat=3)  # Ben's 7 stands: the round is his
    assert news(table(client, game_id)) == ["Ben wins the round and leads."]
    log(client, game_id, type="play", seat=1, cards="2")
    assert news(table(client, game_id)) == []  # said once, until the next move


def test_the_table_says_when_a_game_is_over_and_what_the_exchange_will_be(client: FlaskClient) -> None:
    # The 5-player sample's first game, up to its last move: the table names the finish
    # and the exchange of the next game (5 players: 2 cards between Boss and Tellerwäscher,
    # 1 between the second and the second-to-last, KP spec "Exchange").
    record = read_record((EVENTS_DIR / "karriere-poker-5-players-flags.jsonl").read_text(encoding="utf-8"))
    second_deal = [e["seq"] for e in record.events if e["type"] == "deal"][1]
    page = client.post("/import", data={"text": write_record(record.header, record.events[: second_deal - 1])})
    game_id = page.headers["Location"].split("/")[2]
    said = news(table(client, game_id))
    last_move = record.events[second_deal - 2]
    assert said[0] == f"{record.header.seats[last_move['seat']]} is out: Abteilungsleiter."  # 4th of 5 by that move
    said = said[1:]
    assert said[0].startswith("Game 1 is over: Boss ") and " · Tellerwäscher " in said[0]
    finish = said[0].removeprefix("Game 1 is over: ").removesuffix(".").split(" · ")
    boss, dishwasher = finish[0].split(" ", 1)[1], finish[-1].split(" ", 1)[1]
    assert said[1] == f"Next game: {dishwasher} (Tellerwäscher) gives {boss} (Boss) the 2 highest cards; {boss} gives back the 2 lowest."
    assert said[2].endswith("the highest card; " + said[2].split("gives ")[1].split(" (")[0] + " gives back the lowest.")


def test_the_table_says_who_won_an_auction(client: FlaskClient) -> None:
    game_id = new_game(client, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    stored = log(client, game_id, type="start", row="c3 b10 c7 k1 chef2 b5 colleague-9", distrust="2", points="p4")
    assert "alert" not in stored.get_data(as_text=True)
    log(client, game_id, type="bid", seat=0, card="colleague-3")
    log(client, game_id, type="pass", seat=1)
    log(client, game_id, type="pass", seat=2)
    assert news(table(client, game_id)) == ["Anna wins auction 1 with Colleague 3: distrust 2 and Plus 4."]


def test_short_notation_is_stored_in_the_records_notation(client: FlaskClient) -> None:
    game_id = new_game(client, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    log(client, game_id, type="start", row="C3 b10 k7 K1 Chef2 B5 boss-9", distrust="2", points="pop6")
    start = client.get(f"/api/games/{game_id}/events").json["events"][0]
    assert start["row"] == ["colleague-3", "boss-10", "colleague-7", "colleague-1", "boss-2", "boss-5", "boss-9"]
    assert start["points"] == "popularity-6" and start["distrust"] == 2


def test_a_token_that_is_no_card_is_refused_in_players_words_and_nothing_is_stored(client: FlaskClient) -> None:
    game_id = new_game(client, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    answer = log(client, game_id, type="start", row="c3 x7 c1 c2 c4 c5 c6", distrust="2", points="p4").get_data(as_text=True)
    assert "“x7” is not a favour card: write c3 for colleague 3, b10 for boss 10." in answer
    assert client.get(f"/api/games/{game_id}/events").json["events"] == []
    german = client.post(f"/g/{game_id}/log", data={"type": "start", "row": "c3 x7", "distrust": "2", "points": "p4"},
                         headers={"HX-Request": "true", "Accept-Language": "de"}).get_data(as_text=True)
    assert "„x7“ ist keine Gefälligkeitskarte" in german


def test_the_start_form_offers_tap_pickers_and_names_card_kinds_in_words(client: FlaskClient) -> None:
    game_id = new_game(client, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    page = table(client, game_id)
    assert page.count('data-append="c') == 10 and page.count('data-append="b') == 10
    assert 'name="distrust" value="5"' in page and 'name="points" value="popularity-8"' in page
    log(client, game_id, type="start", row="c3 b10 c7 c1 b2 b5 c9", distrust="2", points="p4")
    page = table(client, game_id)
    assert '<small class="kind boss">Boss</small>&nbsp;10' in page
    assert not re.search("[\U0001F300-\U0001FAFF]", page)  # no emoji: Debian's Chromium draws boxes


def test_the_turn_bar_shows_whose_turn_the_main_action_and_my_flag(client: FlaskClient) -> None:
    game_id = kp_table(client)
    host_page = table(client, game_id)
    bar = re.search(r'<nav class="turnbar[^"]*".*?</nav>', host_page, re.S).group(0)  # type: ignore[union-attr]
    assert "Anna's turn" in text_of(bar) and "Log for Anna" in text_of(bar)
    assert 'value="pass"' not in bar  # Anna leads: she may not pass
    log(client, game_id, type="play", seat=0, cards="5")
    log(client, game_id, type="play", seat=2, cards="9")  # not Cem's turn: flagged kp.turn
    bar = re.search(r'<nav class="turnbar[^"]*".*?</nav>', table(client, game_id), re.S).group(0)  # type: ignore[union-attr]
    assert 'value="pass"' in bar and "/void/3" in bar
    assert re.search(r"Event 3: .*Cem.* \(kp\.turn\)", text_of(bar))  # the game's sentence, then its rule id


def test_a_seat_sees_your_turn_in_the_bar_and_the_title(client: FlaskClient) -> None:
    game_id = kp_table(client)
    code = re.search(r'class="code"[^>]*>(\w+)<', client.get(f"/g/{game_id}/host").get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    anna = client.application.test_client()
    anna.post(f"/g/{game_id}/seats/0", data={"code": code})
    page = table(anna, game_id)
    assert '<nav class="turnbar mine"' in page and "<title>▶ Your turn · Karriere Poker · Table Referee</title>" in page
    ben = client.application.test_client()
    ben.post(f"/g/{game_id}/seats/1", data={"code": code})
    page = table(ben, game_id)
    assert '<nav class="turnbar"' in page and "Anna's turn" in page and "▶ Your turn" not in page


def test_the_host_plays_a_seat_and_keeps_host_powers(client: FlaskClient) -> None:
    game_id = kp_table(client)
    client.post(f"/g/{game_id}/seats/1")  # the host takes Ben's seat on this phone
    page = table(client, game_id)
    assert "You are the host and play Ben" in text_of(page)
    assert "you play this seat on this phone" in client.get(f"/g/{game_id}/host").get_data(as_text=True)
    log(client, game_id, type="play", seat=0, cards="5")  # for Anna: a host power
    log(client, game_id, type="play", seat=1, cards="7")  # his own move
    events: list[dict[str, Any]] = client.get(f"/api/games/{game_id}/events").json["events"]
    assert [(e["seat"], e["by"]) for e in events[1:]] == [(0, "host"), (1, 1)]
    assert "End the game now" in table(client, game_id)  # still the host
    other = client.application.test_client()
    code = re.search(r'class="code"[^>]*>(\w+)<', client.get(f"/g/{game_id}/host").get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    assert other.post(f"/g/{game_id}/seats/1", data={"code": code}).status_code == 302
    assert "That seat is taken" in other.get(f"/g/{game_id}/seats").get_data(as_text=True)


def test_the_table_says_how_a_round_of_ftw_was_scored(client: FlaskClient) -> None:
    # The 3-player sample: the third reveal (seq 46) closes round 1.
    record = read_record((EVENTS_DIR / "ftw-3-players.jsonl").read_text(encoding="utf-8"))
    game_id = client.post("/import", data={"text": write_record(record.header, record.events[:46])}).headers["Location"].split("/")[2]
    said = news(table(client, game_id))
    scores = client.get(f"/api/games/{game_id}").json["result"]["rounds"][0]["scores"]
    assert said == ["Round 1 is scored: " + " · ".join(f"{name} {points}" for name, points in scores.items()) + "."]
    game_id = client.post("/import", data={"text": write_record(record.header, record.events[:45])}).headers["Location"].split("/")[2]
    assert news(table(client, game_id)) == []  # one hand still to reveal


def in_german(client: FlaskClient) -> FlaskClient:
    client.get("/lang/de")
    return client


def test_a_flag_is_a_german_sentence_when_german_is_chosen(client: FlaskClient) -> None:
    game_id = kp_table(in_german(client))
    log(client, game_id, type="play", seat=2, cards="9")  # Anna leads, not Cem
    flag = re.search(r'<div class="flag" role="alert" data-rule="kp.turn">(.*?)</div>', table(client, game_id), re.S).group(1)  # type: ignore[union-attr]
    # The game's own sentence, with the move's names, in German; nothing English after it.
    assert "Anna beginnt diese Runde, nicht Cem." in flag and "starts this round" not in flag and 'lang="en"' not in flag
    history = client.get(f"/g/{game_id}/history").get_data(as_text=True)
    assert "Anna beginnt diese Runde, nicht Cem." in history and "Cem spielt 9." in history and "Dora gibt." in history


def test_the_rules_page_is_german_for_every_rule_of_every_game(client: FlaskClient) -> None:
    from referee.games import GAMES
    from referee.replay import CORE_RULES

    english = {game: client.get(f"/rules/{game}").get_data(as_text=True) for game in GAMES}
    in_german(client)
    for game, rules in GAMES.items():
        page = client.get(f"/rules/{game}?rule={next(iter(rules.rules))}").get_data(as_text=True)
        for rule, text in {**CORE_RULES, **rules.rules}.items():
            line = re.search(rf'<li id="{re.escape(rule)}"[^>]*><strong>{re.escape(rule)}</strong>: (.*?)</li>', page).group(1)  # type: ignore[union-attr]
            assert line and line != text.replace("'", "&#39;") and text.replace("'", "&#39;") in english[game], rule
        assert "Die genannte Regel" in page and 'class="cited"' in page


def test_the_end_of_a_game_is_said_in_german_with_the_games_own_words_after(client: FlaskClient) -> None:
    text = (EVENTS_DIR / "karriere-poker-4-players.jsonl").read_text(encoding="utf-8")
    game_id = client.post("/import", data={"text": text}).headers["Location"].split("/")[2]
    state = client.get(f"/api/games/{game_id}").json
    winner, reason = state["ranking"][0][0], state["outcome"]["reason"]
    assert (winner, reason) == ("Cem", "3 games played; Cem is Boss and wins")
    in_german(client)
    for path in (f"/g/{game_id}", f"/g/{game_id}/result"):
        assert "Spiel vorbei: Cem gewinnt. (3 Spiele gespielt; Cem ist Boss und gewinnt)" in client.get(path).get_data(as_text=True)
    client.get("/lang/en")
    assert f"Game over: {reason}" in text_of(table(client, game_id))


@pytest.mark.parametrize("sample", sorted(p.stem for p in EVENTS_DIR.glob("*.jsonl")))
def test_every_games_own_ending_is_said_in_german(client: FlaskClient, sample: str) -> None:
    # Each sample that its rules ended: in German no English ending is left on the table or
    # the scores (the host imported it, so it is revealed to him).
    text = (EVENTS_DIR / f"{sample}.jsonl").read_text(encoding="utf-8")
    game_id = client.post("/import", data={"text": text}).headers["Location"].split("/")[2]
    outcome = client.get(f"/api/games/{game_id}").json["outcome"]
    if outcome is None or outcome["termination"] != "finished":
        return
    in_german(client)
    for path in (f"/g/{game_id}", f"/g/{game_id}/result"):
        page = client.get(path).get_data(as_text=True)
        assert "Spiel vorbei" in page and outcome["reason"] not in page, (path, outcome["reason"])


def test_in_ladies_and_gentlemen_the_bar_names_everyone_the_table_waits_for(client: FlaskClient) -> None:
    # The 4-player sample just before its first bill (seq 13): the evening, nobody done yet.
    # Ben and Dora are the gentlemen (teams Anna–Ben, Cem–Dora); the table waits for both.
    record = read_record((EVENTS_DIR / "ladies-and-gentlemen-4-players.jsonl").read_text(encoding="utf-8"))
    game_id = client.post("/import", data={"text": write_record(record.header, record.events[:12])}).headers["Location"].split("/")[2]
    bar = re.search(r'<nav class="turnbar[^"]*".*?</nav>', table(client, game_id), re.S).group(0)  # type: ignore[union-attr]
    assert "Waiting for: Ben, Dora" in text_of(bar) and "Log for Ben" in text_of(bar)
    code = re.search(r'class="code"[^>]*>(\w+)<', client.get(f"/g/{game_id}/host").get_data(as_text=True)).group(1)  # type: ignore[union-attr]
    ben, anna = client.application.test_client(), client.application.test_client()
    ben.post(f"/g/{game_id}/seats/1", data={"code": code})
    anna.post(f"/g/{game_id}/seats/0", data={"code": code})
    assert '<nav class="turnbar mine"' in table(ben, game_id) and "▶ Your turn" in table(ben, game_id)
    assert '<nav class="turnbar"' in table(anna, game_id)  # her part of the day is done


def test_every_price_and_income_of_the_samples_is_a_chip(app: Any) -> None:
    # No typing at the table: the host's page in the afternoon of each Ladies & Gentlemen
    # sample offers a chip for every card price and every income any sample logs.
    from flask import render_template

    from referee.access import Caller
    from referee.web import referee
    from referee.web.pages import table_context

    prices, incomes, offered_prices, offered_incomes = set(), set(), set(), set()
    for path in sorted(EVENTS_DIR.glob("ladies-and-gentlemen-*.jsonl")):
        record = read_record(path.read_text(encoding="utf-8"))
        prices |= {e["card"]["price"] for e in record.events if e["type"] in ("take", "window")}
        incomes |= {e["amount"] for e in record.events if e["type"] == "income"}
        with app.test_request_context("/"):
            game_id = referee().tables.create(record.header)
            for event in record.events:
                fold = referee().tables.append(game_id, {k: v for k, v in event.items() if k != "seq"}).fold
                if fold.game.phase(fold.state) == "shopping":
                    break
            page = render_template("table_panel.html", **table_context(game_id, fold, Caller("host")))
        offered_prices |= {int(v) for v in re.findall(r'type="radio" name="card.price" value="(\d+)"', page)}
        offered_incomes |= {int(v) for v in re.findall(r'type="radio" name="amount" value="(\d+)"', page)}
    assert prices and incomes
    assert prices - offered_prices == set() and incomes - offered_incomes == set()


RAW_TOKEN = re.compile(r"\b(?:red|orange|yellow|green|blue|purple|colleague|boss|plus|popularity|wardrobe|servant|office|team)-[\w-]+")


@pytest.mark.parametrize("sample", sorted(p.stem for p in EVENTS_DIR.glob("*.jsonl")))
def test_the_pages_of_every_sample_name_cards_in_words_and_flags_in_the_chosen_language(client: FlaskClient, sample: str) -> None:
    # The host imported the sample: the table, every page of the history, the table as it
    # was at every 10th event, and the scores, in English and in German. No record token ("popularity-6", "red-5", "team-2") reaches
    # the reader, and in German no flag is left in the game's English words.
    text = (EVENTS_DIR / f"{sample}.jsonl").read_text(encoding="utf-8")
    game_id = client.post("/import", data={"text": text}).headers["Location"].split("/")[2]
    events = client.get(f"/api/games/{game_id}/events").json["events"]
    messages = {e["violation"]["message"] for e in events if e["violation"]} | {e["withdrawn"]["message"] for e in events if e["withdrawn"] and e["withdrawn"]["message"]}
    history_pages = -(-len(events) // 100)
    paths = [f"/g/{game_id}", f"/g/{game_id}/result", *(f"/g/{game_id}/history?page={n}" for n in range(1, history_pages + 1)),
             *(f"/g/{game_id}/history?at={seq}" for seq in range(2, len(events), 10))]  # the table as it was, every 10th event
    for language in ("en", "de"):
        client.get(f"/lang/{language}")
        for path in paths:
            page = client.get(path).get_data(as_text=True)
            shown = text_of(re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S))
            assert RAW_TOKEN.findall(shown) == [], (language, path)
            if language == "de":
                left = [m for m in messages if html_escape(m) in page]
                assert left == [], (path, left)
    assert sample.endswith("flags") <= bool(messages)  # the flag samples have flags to word


def html_escape(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))
