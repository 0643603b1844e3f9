"""Groups: players who last, renames and merges that never touch a record, a group's own
link, its file exported and imported whole, and nothing of it shown outside it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from click.testing import CliRunner
from conftest import EVENTS_DIR
from flask import Flask
from flask.testing import FlaskClient

from referee.bgstats import PUSH_PLAY
from referee.cli import main
from referee.groups import GroupError, Groups
from referee.record import read_record
from referee.store import Store
from referee.tables import Tables


def sample(name: str) -> Any:
    return read_record((EVENTS_DIR / f"{name}.jsonl").read_text(encoding="utf-8"))


def new_group(client: FlaskClient, name: str = "Donnerstagsrunde") -> str:
    answer = client.post("/groups", data={"name": name})
    assert answer.status_code == 302
    return str(answer.location.rsplit("/", 1)[1])


def start(client: FlaskClient, group_id: str, game: str, names: list[str]) -> str:
    answer = client.post("/new", data={"game": game, "group": group_id, "seats": "\n".join(names)})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return str(answer.location.split("/")[2])


def stats_page(client: FlaskClient, group_id: str) -> str:
    """The group's statistics page, without the whitespace between tags."""
    return re.sub(r">\s+<", "><", client.get(f"/groups/{group_id}/stats").get_data(as_text=True))


def play_sample(app: Flask, game_id: str, name: str) -> None:
    """Log a sample's events at a game started in the app (the host's book-keeping)."""
    tables = app.extensions["referee"].tables
    for event in sample(name).events:
        tables.append(game_id, {k: v for k, v in event.items() if k != "seq"})


def test_a_game_started_for_a_group_seats_its_players_and_new_names_join(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    page = client.get(f"/new?game=employee-of-the-month&group={group_id}").get_data(as_text=True)
    assert "a new name joins the group" in page and 'data-line="' not in page  # no players yet
    game_id = start(client, group_id, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    page = client.get(f"/new?game=ftw&group={group_id}").get_data(as_text=True)
    assert all(f'data-line="{name}"' in page for name in ("Anna", "Ben", "Cem"))  # offered for the seats
    groups: Groups = app.extensions["referee"].groups
    assert groups.group_of(game_id) == group_id and groups.export(group_id, app.extensions["referee"].tables.public_record)["games"][0]["seats"] == ["Anna", "Ben", "Cem"]
    second = start(client, group_id, "ftw", ["Anna", "Dora", "Cem"])
    assert [p.name for p in groups.active(group_id)] == ["Anna", "Ben", "Cem", "Dora"]
    assert groups.games(group_id) == [second, game_id] and groups.games(group_id, latest=1) == [second]  # newest first
    assert "Dora" in client.get(f"/groups/{group_id}").get_data(as_text=True)


def test_the_group_page_shows_its_games_ten_a_page_newest_first(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    games = [start(client, group_id, "ftw", ["Anna", "Ben", "Cem"]) for _ in range(12)]  # games[-1] is the newest
    first = client.get(f"/groups/{group_id}").get_data(as_text=True)
    assert sorted((g for g in games if f"/g/{g}" in first), key=lambda g: first.index(f"/g/{g}")) == games[:1:-1]  # the newest 10, newest first
    assert f"/groups/{group_id}?page=2#games" in first and "Newer games" not in first
    second = client.get(f"/groups/{group_id}?page=2").get_data(as_text=True)
    assert [g for g in games if f"/g/{g}" in second] == games[:2] and "Older games</h2>" in second
    assert f'href="/groups/{group_id}#games">Newer games' in second and "?page=3" not in second
    for page in ("abc", "-3", "0", str(10**30)):  # read as the first page, or as an empty last one: never an error
        answer = client.get(f"/groups/{group_id}?page={page}")
        assert answer.status_code == 200, page
    assert "No games yet." in client.get(f"/groups/{group_id}?page={10**30}").get_data(as_text=True)


def test_the_host_puts_a_game_started_outside_a_group_into_one_of_theirs(client: FlaskClient, app: Flask) -> None:
    groups: Groups = app.extensions["referee"].groups
    group_id = new_group(client)
    start(client, group_id, "ftw", ["Anna", "Ben", "Cem"])  # not finished: not in the statistics
    game_id = client.post("/new", data={"game": "employee-of-the-month", "seats": "Anna\nBen\nDora"}).location.split("/")[2]
    play_sample(app, game_id, "employee-of-the-month-3-players")  # over before anyone thought of the group
    host_page = client.get(f"/g/{game_id}/host").get_data(as_text=True)
    assert "Count this game for a group" in host_page and f'<option value="{group_id}">Donnerstagsrunde</option>' in host_page
    outsider = app.test_client()
    assert outsider.post(f"/g/{game_id}/host/group", data={"group": group_id}).status_code == 403  # not the host
    other_group = new_group(outsider, "Schachclub")
    assert client.post(f"/g/{game_id}/host/group", data={"group": other_group}).status_code == 404  # not the host's group
    assert groups.group_of(game_id) is None
    added = client.post(f"/g/{game_id}/host/group", data={"group": group_id}, follow_redirects=True).get_data(as_text=True)
    assert "The game belongs to Donnerstagsrunde now." in added and "Count this game for a group" not in added
    assert f'href="/groups/{group_id}"' in added  # the host page leads to the group now
    assert groups.group_of(game_id) == group_id and [p.name for p in groups.active(group_id)] == ["Anna", "Ben", "Cem", "Dora"]
    page = stats_page(client, group_id)
    assert "1 finished game" in page and "<td>Dora</td><td>1</td>" in page  # counted at once, Dora joined
    again = client.post(f"/g/{game_id}/host/group", data={"group": group_id}, follow_redirects=True).get_data(as_text=True)
    assert "the game belongs to a group already" in again and groups.games(group_id)[0] == game_id


def test_a_finished_group_game_is_in_its_statistics_with_a_bg_stats_button(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    game_id = start(client, group_id, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    assert "No finished games yet" in client.get(f"/groups/{group_id}/stats").get_data(as_text=True)
    assert 'id="bgstats"' not in client.get(f"/g/{game_id}/result").get_data(as_text=True)  # not over: no play yet
    play_sample(app, game_id, "employee-of-the-month-3-players")
    page = stats_page(client, group_id)
    assert "1 finished game" in page and "<td>Anna</td><td>1</td><td>1</td><td>100%</td>" in page
    assert "<td>Anna</td><td>1/1</td><td>24.0</td><td>24</td>" in page  # average and best points
    client.set_cookie("lang", "de")
    assert "<td>Anna</td><td>1/1</td><td>24,0</td><td>24</td>" in stats_page(client, group_id)  # a German decimal comma
    client.delete_cookie("lang")
    result = client.get(f"/g/{game_id}/result").get_data(as_text=True)
    link = result.split('id="bgstats" href="', 1)[1].split('"', 1)[0]
    assert link.startswith(PUSH_PLAY)
    play = json.loads(unquote(link[len(PUSH_PLAY):].replace("&amp;", "&")))
    assert play["sourcePlayId"] == game_id and [p["name"] for p in play["players"] if p["winner"]] == ["Anna"]
    assert f"/groups/{group_id}/stats" in result  # a member is led to the group's statistics


def test_nothing_of_a_group_is_shown_outside_it(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    game_id = start(client, group_id, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    play_sample(app, game_id, "employee-of-the-month-3-players")
    players = app.extensions["referee"].groups.players(group_id)
    outsider = app.test_client()
    other_group = new_group(outsider, "Schachclub")  # a member of another group
    for path in ("", "/stats", "/plays.csv", "/export", "/stats?a=Anna&b=Ben"):
        answer = outsider.get(f"/groups/{group_id}{path}")
        assert answer.status_code == 404 and "Anna" not in answer.get_data(as_text=True), path
    assert outsider.get(f"/new?game=ftw&group={group_id}").status_code == 404
    assert outsider.post("/new", data={"game": "ftw", "group": group_id, "seats": "X\nY\nZ"}).status_code == 404
    assert outsider.post(f"/groups/{group_id}/players/{players[0].id}", data={"name": "Hacked"}).status_code == 404
    assert outsider.post(f"/groups/{other_group}/players/{players[0].id}", data={"name": "Hacked"}).status_code == 302
    assert [p.name for p in app.extensions["referee"].groups.players(group_id)] == ["Anna", "Ben", "Cem"]  # not another group's
    assert "Donnerstagsrunde" not in outsider.get("/").get_data(as_text=True)
    assert outsider.get("/groups/join/not-the-code").status_code == 404
    # The link makes a member.
    code = app.extensions["referee"].groups.group(group_id)["code"]
    assert outsider.get(f"/groups/join/{code}").status_code == 302
    assert "Anna" in outsider.get(f"/groups/{group_id}/stats").get_data(as_text=True)
    assert "Donnerstagsrunde" in outsider.get("/").get_data(as_text=True)


def test_a_renewed_link_shuts_out_everyone_who_does_not_open_it(client: FlaskClient, app: Flask) -> None:
    groups: Groups = app.extensions["referee"].groups
    group_id = new_group(client)
    game_id = start(client, group_id, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    play_sample(app, game_id, "employee-of-the-month-3-players")
    old_code = groups.group(group_id)["code"]
    friend, stranger = app.test_client(), app.test_client()
    for phone in (friend, stranger):
        assert phone.get(f"/groups/join/{old_code}").status_code == 302
        assert phone.get(f"/groups/{group_id}/stats").status_code == 200
    assert stranger.post(f"/groups/{group_id}/link").status_code == 302  # any member may renew it...
    assert stranger.get(f"/groups/{group_id}").status_code == 200  # ...and stays in
    assert client.post(f"/groups/{group_id}/link").status_code == 404  # the host's old link is out too
    new_code = groups.group(group_id)["code"]
    assert new_code != old_code and len(new_code) == 16  # 12 random bytes
    for path in ("", "/stats", "/plays.csv", "/export"):
        assert friend.get(f"/groups/{group_id}{path}").status_code == 404, path
    assert "Donnerstagsrunde" not in friend.get("/").get_data(as_text=True)
    result = friend.get(f"/g/{game_id}/result").get_data(as_text=True)
    assert f"/groups/{group_id}/stats" not in result  # the game's public page no longer leads to the group
    assert friend.get(f"/groups/join/{old_code}").status_code == 404  # the old link opens nothing
    assert friend.get(f"/groups/join/{new_code}").status_code == 302  # the new one does
    assert "Donnerstagsrunde" in friend.get("/").get_data(as_text=True)
    page = friend.get(f"/groups/{group_id}").get_data(as_text=True)
    assert f"/groups/join/{new_code}" in page and old_code not in page


def record_texts(groups: Groups, group_id: str) -> list[str]:
    return [game["record"] for game in groups.export(group_id, Tables(groups.store).public_record)["games"]]


def without_game_ids(found: Any) -> Any:
    """A group's file or statistics with the games' ids left out: an imported group's games
    are new games (and games that started at the same second are ordered by id: lists of
    games and of last results are compared as sets)."""
    if isinstance(found, dict):
        return {key: sorted(map(json.dumps, without_game_ids(value))) if key in ("last", "games") and isinstance(value, list) else without_game_ids(value)
                for key, value in found.items() if key not in ("id", "game")}
    return [without_game_ids(item) for item in found] if isinstance(found, list) else found


def test_renames_and_merges_change_the_statistics_never_a_record(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    first = start(client, group_id, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    second = start(client, group_id, "employee-of-the-month", ["anna", "Ben", "Cem"])
    for game_id in (first, second):
        play_sample(app, game_id, "employee-of-the-month-3-players")
    groups: Groups = app.extensions["referee"].groups
    before = record_texts(groups, group_id)
    records_before = [client.get(f"/g/{g}/record").get_data() for g in (first, second)]
    ids = {p.name: p.id for p in groups.players(group_id)}
    assert client.post(f"/groups/{group_id}/players/{ids['anna']}", data={"into": str(ids["Anna"])}).status_code == 302
    assert client.post(f"/groups/{group_id}/players/{ids['Anna']}", data={"name": "Anna K."}).status_code == 302
    page = stats_page(client, group_id)
    assert "<td>Anna K.</td><td>2</td><td>2</td><td>100%</td>" in page  # both spellings, under the new name
    assert record_texts(groups, group_id) == before  # byte-identical
    assert [client.get(f"/g/{g}/record").get_data() for g in (first, second)] == records_before
    # A rename to a name taken is refused with the way out; nothing changes.
    answer = client.post(f"/groups/{group_id}/players/{ids['Ben']}", data={"name": "Cem"}, follow_redirects=True)
    assert "merge the two instead" in answer.get_data(as_text=True)
    with pytest.raises(GroupError, match="merged into themselves"):
        groups.merge(group_id, ids["Ben"], ids["Ben"])


def test_a_group_exported_and_imported_elsewhere_is_the_same_group(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "home.sqlite3"))
    groups = Groups(tables.store)
    group_id = groups.create("Familie")
    for name in ("ftw-3-players", "karriere-poker-4-players", "employee-of-the-month-3-players"):
        game_id = tables.import_record(sample(name), name)
        groups.seat(group_id, game_id, list(sample(name).header.seats))
    ids = {p.name: p.id for p in groups.players(group_id)}
    groups.merge(group_id, ids["Dora"], ids["Ben"])  # say Dora was Ben's spelling (to carry a merge)
    exported = groups.export(group_id, tables.public_record)
    text = json.dumps(exported, ensure_ascii=False)
    elsewhere = Tables(Store(tmp_path / "club.sqlite3"))
    other = Groups(elsewhere.store)
    copy = other.import_(json.loads(text), elsewhere.import_record)
    again = other.export(copy, elsewhere.public_record)
    assert without_game_ids(again) == without_game_ids(exported)  # records byte for byte, seats, players and the merge
    assert {game["id"] for game in again["games"]}.isdisjoint(game["id"] for game in exported["games"])  # new games
    assert [(p.name, p.merged_into is not None) for p in other.players(copy)] == [("Anna", False), ("Ben", False), ("Cem", False), ("Dora", True)]
    assert without_game_ids(elsewhere.plays.summary(copy)) == without_game_ids(tables.plays.summary(group_id))
    # Imported again into the first store: copies under new ids, never the games of the first group.
    third = groups.import_(json.loads(text), tables.import_record)
    assert record_texts(groups, third) == record_texts(groups, group_id) and set(groups.games(third)).isdisjoint(groups.games(group_id))


def test_a_bad_group_file_is_refused_naming_what_is_wrong_and_stores_nothing(tmp_path: Path) -> None:
    tables = Tables(Store(tmp_path / "g.sqlite3"))
    groups = Groups(tables.store)
    with pytest.raises(GroupError, match="table-group/1"):
        groups.import_({"format": "x"}, tables.import_record)
    broken = {"format": "table-group/1", "name": "X", "players": [], "games": [{"id": "a", "seats": ["A"], "record": '{"format": "table-record/1"}\n'}]}
    with pytest.raises(GroupError, match="game 1: line 1"):
        groups.import_(broken, tables.import_record)
    wrong_seats = {**broken, "games": [{"id": "a", "seats": ["A"], "record": (EVENTS_DIR / "ftw-3-players.jsonl").read_text(encoding="utf-8")}]}
    with pytest.raises(GroupError, match="3 seats, but 1 players named"):
        groups.import_(wrong_seats, tables.import_record)
    assert tables.store.games() == [] and tables.store.db.execute("SELECT COUNT(*) FROM groups").fetchone()[0] == 0


def test_the_group_commands(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.sqlite3")
    runner = CliRunner()
    made = runner.invoke(main, ["group", "create", "Club", "--db", db])
    assert made.exit_code == 0 and "/groups/join/" in made.output
    tables = Tables(Store(db))
    groups = Groups(tables.store)
    group_id = groups.find("Club")
    for name in ("ftw-3-players", "ftw-6-players-flags"):
        groups.seat(group_id, tables.import_record(sample(name), name), list(sample(name).header.seats))
    assert runner.invoke(main, ["group", "rename", "Club", "Anna", "Anna K.", "--db", db]).exit_code == 0
    merged = runner.invoke(main, ["group", "merge", "Club", "Fay", "Nobody", "--db", db])
    assert merged.exit_code == 1 and "the group has no player 'Nobody'" in merged.output
    shown = json.loads(runner.invoke(main, ["stats", "--group", "Club", "--json", "--db", db]).output)
    assert shown["players"][0]["name"] == "Anna K." and shown["players"][0]["won"] == 2
    assert "Anna K." in runner.invoke(main, ["group", "list", "--db", db]).output
    link = runner.invoke(main, ["group", "link", "Club", "--db", db]).output.strip()
    assert link == f"/groups/join/{groups.group(group_id)['code']}" and made.output.split()[1] == link
    renewed = runner.invoke(main, ["group", "link", "Club", "--new", "--db", db]).output.strip()
    assert renewed == f"/groups/join/{groups.group(group_id)['code']}" and renewed != link
    assert "no group 'Nope'" in runner.invoke(main, ["group", "link", "Nope", "--db", db]).output
    loose = tables.import_record(sample("employee-of-the-month-3-players"), "eotm")  # in no group
    assert runner.invoke(main, ["group", "add", "Club", loose, "--db", db]).exit_code == 0
    assert groups.group_of(loose) == group_id and groups.games(group_id)[0] == loose
    again = runner.invoke(main, ["group", "add", "Club", loose, "--db", db])
    assert again.exit_code == 1 and "the game belongs to a group already" in again.output
    assert "no game 'nope'" in runner.invoke(main, ["group", "add", "Club", "nope", "--db", db]).output.lower()
    shown = json.loads(runner.invoke(main, ["stats", "--group", "Club", "--json", "--db", db]).output)
    out = tmp_path / "club.json"
    assert runner.invoke(main, ["group", "export", "Club", "-o", str(out), "--db", db]).exit_code == 0
    other_db = str(tmp_path / "other.sqlite3")
    imported = runner.invoke(main, ["group", "import", str(out), "--db", other_db])
    assert imported.exit_code == 0, imported.output
    assert without_game_ids(json.loads(runner.invoke(main, ["stats", "--group", imported.output.strip(), "--json", "--db", other_db]).output)) == without_game_ids(shown)
    unknown = runner.invoke(main, ["stats", "--group", "Nope", "--db", db])
    assert unknown.exit_code == 1 and "no group 'Nope'" in unknown.output


def test_events_logged_in_the_app_carry_when_they_were_logged(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    game_id = start(client, group_id, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    client.post(f"/g/{game_id}/log", data={"type": "note", "text": "Pizza is here"})
    tables = app.extensions["referee"].tables
    [note] = tables.store.events(game_id)
    assert note["type"] == "note" and note["at"].startswith("20")


def test_only_the_groups_host_changes_its_house_rules_and_every_member_sees_who_changed_what_when(client: FlaskClient, app: Flask) -> None:
    # Anna's phone makes the club: it is the host. Ben joins by the link: he sees the house
    # rules and their changes, but his phone cannot change them. Anna turns ftw.turn off:
    # both pages say when, and in words which rule. The maintainer prints the host link for
    # Cem's phone, which may change them too; renewed, it leaves Cem's phone out again.
    # The change log says each change in the switch's own sentence, never the rule's id.
    groups: Groups = app.extensions["referee"].groups
    group_id = new_group(client)
    ben = app.test_client()
    assert ben.get(f"/groups/join/{groups.group(group_id)['code']}").status_code == 302
    assert 'name="off"' in client.get(f"/groups/{group_id}").get_data(as_text=True)
    page = ben.get(f"/groups/{group_id}").get_data(as_text=True)
    assert 'name="off"' not in page and "Only the group's host changes them" in page and "None: every rule is played." in page
    assert ben.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": ["ftw.turn"]}).status_code == 403
    assert groups.house_rules(group_id, "ftw") == [] and groups.house_rule_changes(group_id, 10) == []
    assert client.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": ["ftw.turn"]}).status_code == 302
    [change] = groups.house_rule_changes(group_id, 10)
    assert (change.game, change.rule, change.off) == ("ftw", "ftw.turn", True)
    for phone in (client, ben):
        page = phone.get(f"/groups/{group_id}").get_data(as_text=True)
        assert f'<time datetime="{change.at}">{change.at[:10]} {change.at[11:16]} UTC</time> · FTW?! ·' in page
        assert "House rule added: A player may play out of turn, also while hands are revealed</li>" in page
        assert "ftw.turn" not in page[page.index('class="plain house-rule-changes"'):]
    ben.set_cookie("lang", "de")
    german = ben.get(f"/groups/{group_id}").get_data(as_text=True)
    assert "Vom Gastgeber der Gruppe geändert" in german and "Nur der Gastgeber der Gruppe" in german
    assert "Hausregel eingeführt: Man darf außer der Reihe spielen, auch beim Aufdecken</li>" in german
    client.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": []})
    assert [(c.rule, c.off) for c in groups.house_rule_changes(group_id, 10)] == [("ftw.turn", False), ("ftw.turn", True)]  # newest first
    assert "House rule dropped: A player may play out of turn" in client.get(f"/groups/{group_id}").get_data(as_text=True)
    db = app.config["DATABASE"]
    link = CliRunner().invoke(main, ["group", "link", "Donnerstagsrunde", "--host", "--db", db]).output.strip()
    cem = app.test_client()
    assert cem.get(link).status_code == 302  # a member and the host
    assert cem.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": ["ftw.card.range"]}).status_code == 302
    renewed = CliRunner().invoke(main, ["group", "link", "Donnerstagsrunde", "--host", "--new", "--db", db]).output.strip()
    assert renewed != link and cem.get(link).status_code == 404
    assert cem.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": []}).status_code == 403
    assert groups.house_rules(group_id, "ftw") == ["ftw.card.range"]


@pytest.mark.parametrize("rule, said", [
    ("core.turn", "&#39;core.turn&#39; is a rule of every game: it is always played"),
    ("kp.raise.count", "&#39;kp.raise.count&#39; is a rule of Karriere Poker, not of FTW?!"),
    ("ftw.nothing", "&#39;ftw.nothing&#39; is not a rule of FTW?!"),
    ("ftw." + "x" * 5000, "&#39;ftw.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…&#39; is not a rule of FTW?!"),
    ("ftw.turn\x00", "&#39;ftw.turn\\x00&#39; is not a rule of FTW?!"),
])
def test_a_house_rule_that_is_not_one_of_the_games_rules_is_a_400_naming_it(client: FlaskClient, app: Flask, rule: str, said: str) -> None:
    groups: Groups = app.extensions["referee"].groups
    group_id = new_group(client)
    client.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": ["ftw.turn"]})
    answer = client.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": ["ftw.reveal.twice", rule]})
    assert answer.status_code == 400 and said in answer.get_data(as_text=True)
    assert groups.house_rules(group_id, "ftw") == ["ftw.turn"] and len(groups.house_rule_changes(group_id, 10)) == 1  # nothing changed
    client.set_cookie("lang", "de")
    german = client.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": [rule]}).get_data(as_text=True)
    assert "ist eine Regel" in german or "ist keine Regel" in german


def test_the_new_game_form_names_the_house_rules_the_game_will_carry(client: FlaskClient, app: Flask) -> None:
    # The club plays FTW?! without ftw.turn: the form says so in words before the game is
    # made. Changed meanwhile on another phone, the form is shown again with the new ones,
    # and nothing is made; sent again, the game carries what the form named.
    groups: Groups = app.extensions["referee"].groups
    group_id = new_group(client)
    client.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": ["ftw.turn"]})
    form = client.get(f"/new?game=ftw&group={group_id}").get_data(as_text=True)
    assert "The group's house rules for this game:" in form
    assert "A player may play out of turn, also while hands are revealed" in form and 'name="house_rules" value="ftw.turn"' in form
    assert "house rules for this game" not in client.get(f"/new?game=senators&group={group_id}").get_data(as_text=True)
    groups.set_house_rules(group_id, "ftw", ["ftw.turn", "ftw.card.range"])  # the host, on another phone
    stale = client.post("/new", data={"game": "ftw", "group": group_id, "seats": "Anna\nBen\nCem", "house_rules": "ftw.turn"})
    page = stale.get_data(as_text=True)
    assert stale.status_code == 409 and "changed meanwhile" in page and 'value="ftw.turn ftw.card.range"' in page
    assert groups.games(group_id) == []
    game_id = start(client, group_id, "ftw", ["Anna", "Ben", "Cem"])
    assert app.extensions["referee"].tables.store.header(game_id).house_rules == ("ftw.turn", "ftw.card.range")


# --- a group's evening: members sit down in one tap, the host starts the next game ------------


def member(app: Flask, group_id: str, name: str | None) -> FlaskClient:
    """A phone that opens the group's link and says whose it is ("I am Dora"; None: says nothing)."""
    phone = app.test_client()
    assert phone.get(f"/groups/join/{app.extensions['referee'].groups.group(group_id)['code']}").status_code == 302
    if name is not None:
        assert phone.post(f"/groups/{group_id}/me", data={"name": name}).status_code == 302
    return phone


def seat_buttons(phone: FlaskClient, path: str) -> list[str]:
    """The one-tap seats a page offers this phone: (the game, whose seat)."""
    page = phone.get(path).get_data(as_text=True)
    return re.findall(r'action="/g/([\w-]+)/sit".*?Take ([^<]+?)(?:&#39;|\')s seat', page, re.S)


def test_a_member_takes_her_own_seat_in_one_tap_and_nobody_elses(client: FlaskClient, app: Flask) -> None:
    # The host starts Employee of the Month for Anna, Ben, Cem and Dora. Dora's phone joined
    # the group and said it is Dora's: the group page and her home page offer her seat, one
    # tap, no code. Eva's phone (a member not in this game) and a phone that said nothing
    # are offered nothing and may not take a seat this way; a second "Dora" is refused.
    group_id = new_group(client)
    game_id = start(client, group_id, "employee-of-the-month", ["Anna", "Ben", "Cem", "Dora"])
    dora, eva, quiet = member(app, group_id, "Dora"), member(app, group_id, "Eva"), member(app, group_id, None)
    assert "Eva" in [p.name for p in app.extensions["referee"].groups.active(group_id)]  # a new name joins the group
    assert seat_buttons(dora, f"/groups/{group_id}") == [(game_id, "Dora")] == seat_buttons(dora, "/")
    assert "Next game: Employee of the Month — take your seat" in dora.get(f"/groups/{group_id}").get_data(as_text=True)
    assert seat_buttons(eva, f"/groups/{group_id}") == [] and seat_buttons(quiet, f"/groups/{group_id}") == []
    assert "I am Dora" not in quiet.get(f"/groups/{group_id}").get_data(as_text=True)  # Dora has her phone
    again = quiet.post(f"/groups/{group_id}/me", data={"name": "Dora"})
    assert again.status_code == 409 and "Dora has a phone in the group already" in again.get_data(as_text=True)
    assert eva.post(f"/g/{game_id}/sit").status_code == 403 and quiet.post(f"/g/{game_id}/sit").status_code == 403
    assert app.test_client().post(f"/g/{game_id}/sit").status_code == 404  # outside the group: nothing of it
    assert "You are watching" in dora.get(f"/g/{game_id}").get_data(as_text=True)
    assert seat_buttons(dora, f"/g/{game_id}") == [(game_id, "Dora")]  # watching her own game: her seat is one tap there too
    taken = dora.post(f"/g/{game_id}/sit")
    assert taken.status_code == 302 and taken.location == f"/g/{game_id}"
    assert "You are <strong>Dora</strong>" in dora.get(f"/g/{game_id}").get_data(as_text=True)
    assert seat_buttons(dora, f"/groups/{group_id}") == [] and seat_buttons(dora, "/") == []  # taken: offered no more
    assert app.extensions["referee"].access.claimed_seats(game_id) == {3}


def test_a_seat_taken_by_code_is_not_offered_and_a_second_tap_changes_nothing(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    game_id = start(client, group_id, "ftw", ["Anna", "Ben", "Cem"])
    ben = member(app, group_id, "Ben")
    code = app.extensions["referee"].access.join_code(game_id)
    assert app.test_client().post(f"/g/{game_id}/seats/1", data={"code": code}).status_code == 302  # someone typed the code first
    assert seat_buttons(ben, f"/groups/{group_id}") == []
    refused = ben.post(f"/g/{game_id}/sit", follow_redirects=True).get_data(as_text=True)
    assert "That seat is taken; the host can hand it to this phone." in refused and "You are watching" in refused


def test_the_groups_host_removes_a_phone_and_a_member_leaves(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    game_id = start(client, group_id, "ftw", ["Anna", "Ben", "Cem"])
    ben, cem = member(app, group_id, "Ben"), member(app, group_id, "Cem")
    assert "Remove Ben&#39;s phone" not in ben.get(f"/groups/{group_id}").get_data(as_text=True)  # only the host removes
    players = {p.name: p.id for p in app.extensions["referee"].groups.phones(group_id)}
    assert ben.post(f"/groups/{group_id}/phones/{players['Cem']}/remove").status_code == 403
    assert client.post(f"/groups/{group_id}/phones/9999/remove").status_code == 404
    removed = client.post(f"/groups/{group_id}/phones/{players['Ben']}/remove", follow_redirects=True).get_data(as_text=True)
    assert "Ben&#39;s phone is no member of the group any more." in removed
    assert ben.get(f"/groups/{group_id}").status_code == 404 and ben.post(f"/g/{game_id}/sit").status_code == 404
    assert "Donnerstagsrunde" not in ben.get("/").get_data(as_text=True)
    # Opened again, the link makes the phone a member, no player: it says whose it is anew.
    assert ben.get(f"/groups/join/{app.extensions['referee'].groups.group(group_id)['code']}").status_code == 302
    assert "I am Ben" in ben.get(f"/groups/{group_id}").get_data(as_text=True) and seat_buttons(ben, "/") == []
    left = cem.post(f"/groups/{group_id}/leave", follow_redirects=True).get_data(as_text=True)
    assert "This phone left Donnerstagsrunde." in left and cem.get(f"/groups/{group_id}").status_code == 404
    assert [p.name for p in app.extensions["referee"].groups.phones(group_id)] == []
    assert member(app, group_id, "Cem").post(f"/g/{game_id}/sit").status_code == 302  # Cem's new phone is Cem's now


def test_again_same_seats_or_next_dealer_follows_on_every_members_phone(client: FlaskClient, app: Flask) -> None:
    # Anna's phone made the group and plays Anna; the FTW?! game is over. "Again, next
    # dealer" starts the next game at once, Ben left of last game's first starts, every chair
    # the same; Ben's phone is offered it on its finished table. "Again, same seats" keeps the first.
    groups: Groups = app.extensions["referee"].groups
    tables: Tables = app.extensions["referee"].tables
    group_id = new_group(client)
    assert client.post(f"/groups/{group_id}/me", data={"name": "Anna"}).status_code == 302
    answer = client.post("/new", data={"game": "ftw", "group": group_id, "seats": "Anna\nBen\nCem", "plays": "Anna", "title": "Sonntag"})
    first = answer.location.split("/")[2]
    ben = member(app, group_id, "Ben")
    assert ben.post(f"/g/{first}/sit").status_code == 302
    assert "Again, same seats" not in client.get(f"/g/{first}").get_data(as_text=True)  # not over yet
    play_sample(app, first, "ftw-3-players")
    table = client.get(f"/g/{first}").get_data(as_text=True)
    assert "Again, same seats" in table and "Again, next dealer" in table
    assert "Again, same seats" not in ben.get(f"/g/{first}").get_data(as_text=True)  # Ben hosts neither
    assert "Again, same seats" in client.get(f"/groups/{group_id}").get_data(as_text=True)
    assert ben.post(f"/g/{first}/again", data={"seats": "next"}).status_code == 403
    assert client.post(f"/g/{first}/again", data={"seats": "sideways"}).status_code == 400
    client.post(f"/groups/{group_id}/house-rules", data={"game": "ftw", "off": ["ftw.turn"]})
    started = client.post(f"/g/{first}/again", data={"seats": "next"})
    second = started.location.split("/")[2]
    header = tables.store.header(second)
    assert (header.seats, header.loaded_options["first"], header.title, header.house_rules) == (("Anna", "Ben", "Cem"), 1, "Sonntag", ("ftw.turn",))
    assert groups.games(group_id)[0] == second and tables.store.host_seat(second) == 0  # Anna's phone plays Anna again
    assert seat_buttons(ben, f"/g/{first}") == [(second, "Ben")]  # on Ben's finished table: the next game, his seat
    assert "Next game: Sonntag — take your seat" in ben.get(f"/groups/{group_id}/open-seats").get_data(as_text=True)
    third = client.post(f"/g/{second}/again", data={"seats": "same"}).location.split("/")[2]
    assert tables.store.header(third).loaded_options["first"] == 1
    assert seat_buttons(ben, "/") == [(third, "Ben"), (second, "Ben")]  # newest first


def test_games_without_a_starting_player_in_their_header_start_again_with_the_same_seats_only(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    made = client.post("/new", data={"game": "karriere-poker", "group": group_id, "seats": "Anna\nBen\nCem\nDora", "end_kind": "games", "end_count": "3"})
    game_id = made.location.split("/")[2]
    play_sample(app, game_id, "karriere-poker-4-players")  # three games: the match is over
    page = client.get(f"/groups/{group_id}").get_data(as_text=True)
    assert "Again, same seats" in page and "Again, next dealer" not in page
    again = client.post(f"/g/{game_id}/again", data={"seats": "next"}).location.split("/")[2]
    header = app.extensions["referee"].tables.store.header(again)
    assert header.seats == ("Anna", "Ben", "Cem", "Dora") and header.options == {"end": {"kind": "games", "count": 3}}  # the dealer is named at the deal


def test_a_members_one_tap_never_opens_a_seat_with_secrets_behind_it(client: FlaskClient, app: Flask) -> None:
    # A member's name is the phone's own word: a member who says "I am Ben" after Ben logged
    # his hand and his seat was freed must not read the hand. One tap takes a seat only while
    # nothing secret is logged and the seat was never handed on; later, the join code.
    group_id = new_group(client)
    game_id = start(client, group_id, "ftw", ["Anna", "Ben", "Cem"])
    tables = app.extensions["referee"].tables
    tables.append(game_id, {"type": "hand", "seat": 1, "cards": list(range(1, 13))})
    impostor = member(app, group_id, "Ben")
    assert seat_buttons(impostor, f"/groups/{group_id}") == []
    refused = impostor.post(f"/g/{game_id}/sit")
    assert refused.status_code == 403 and "join code" in refused.get_data(as_text=True)
    # Before any secret: the same tap seats Cem.
    fresh_game = start(client, group_id, "ftw", ["Anna", "Ben", "Cem"])
    assert member(app, group_id, "Cem").post(f"/g/{fresh_game}/sit").status_code == 302
