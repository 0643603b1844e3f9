"""The table decides: a ruling lets a flagged move stand, house rules switch rules off, and
`--official` says what the official rules would have said.

For every rule id of every game (tests/rule-examples.json: a record whose last move breaks
it): the move is flagged; ruled, it stands (the record exits 0, `ruled` lists it, and the
state is the move's effect, on which later moves are judged); the ruling voided, the flag
stands again; with the rule off as a house rule it never fires; and `--official` of the
ruled record is the replay without the ruling. Then every way a ruling can be wrong
(core.ruling.target), rulings after the end, at the store, over HTTP, and the totality
property: any record with random rulings replays without raising, the same every time.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import events as numbered
from conftest import table
from referee.cli import main
from referee.games import GAMES
from referee.record import Header, RecordError, parse_event, parse_header, read_record, write_record
from referee.replay import CORE_RULES, NO_PLACE, replay, report
from referee.store import Store
from referee.tables import Tables
from rule_examples import PRIVATE_ONLY, examples, put_in, simulated
from test_api import Table, bearer

EXAMPLES = examples()
RULES = sorted(EXAMPLES)


def ruled_record(rule: str) -> tuple[Header, list[dict[str, Any]], int]:
    record = read_record(EXAMPLES[rule]["record"])
    return record.header, [dict(e) for e in record.events], len(record.events)


def more(events: list[dict[str, Any]], *bodies: dict[str, Any]) -> list[dict[str, Any]]:
    """The events with bodies logged after them."""
    return [*events, *[{**body, "seq": len(events) + n} for n, body in enumerate(bodies, start=1)]]


def test_every_rule_id_has_an_example_or_is_broken_only_by_private_records() -> None:
    every = {rule for game in GAMES.values() for rule in game.rules}
    assert every - set(EXAMPLES) == PRIVATE_ONLY


@pytest.mark.parametrize("rule", RULES)
def test_a_flagged_move_ruled_stands_and_the_ruling_voided_flags_it_again(rule: str) -> None:
    header, events, flagged = ruled_record(rule)
    game = header.rules
    before = replay(header, events[:-1])
    assert replay(header, events).violation_at(flagged).rule == rule  # type: ignore[union-attr]
    # The host lets it stand: the move applies (its effect), nothing stands against the record.
    ruled = more(events, {"type": "ruling", "target": flagged, "reason": "house rule"})
    fold = replay(header, ruled)
    shown = report(fold)
    try:
        expected, applied = game.effect(before.state, events[-1]), {}
    except NO_PLACE:  # the state has no place for the move (a bid before the first auction): it stays
        expected, applied = before.state, {"applied": False}
    assert shown["violations"] == []
    assert shown["ruled"] == [{"seq": flagged, "rule": rule, "message": replay(header, events).violation_at(flagged).message,  # type: ignore[union-attr]
                               "ruling": flagged + 1, "reason": "house rule", **applied}]
    assert fold.state == expected  # later moves are judged on this state
    # The ruling voided: the flag stands again.
    voided = replay(header, more(ruled, {"type": "void", "target": flagged + 1, "reason": "no, not today"}))
    assert voided.violation_at(flagged).rule == rule and voided.ruled == ()  # type: ignore[union-attr]
    # By the official rules the ruling is passed over: the replay without it.
    official = report(replay(header, ruled, official=True))
    plain = report(replay(header, events))
    assert {k: official[k] for k in ("violations", "scores", "ranking", "ruled")} == {k: plain[k] for k in ("violations", "scores", "ranking", "ruled")}


@pytest.mark.parametrize("rule", RULES)
def test_a_rule_off_as_a_house_rule_never_fires(rule: str) -> None:
    header, events, flagged = ruled_record(rule)
    relaxed = parse_header({**header.to_json(), "house_rules": {"off": [rule]}})
    fold = replay(relaxed, events)
    assert rule not in {flag.rule for _, flag in fold.violations}
    assert read_record(write_record(relaxed, events)).header.house_rules == (rule,)  # kept in the record, byte for byte


AFTER_OFF = [(rule, text) for rule in RULES for text in EXAMPLES[rule].get("after_off", [])]


@pytest.mark.parametrize(("rule", "text"), AFTER_OFF)
def test_with_a_rule_off_as_a_house_rule_the_next_rule_the_move_breaks_fires(rule: str, text: str) -> None:
    # E.g. with kp.turn off, Cem's out-of-turn 6s after Anna's 7s are kp.raise.higher.
    record = read_record(text)
    last = len(record.events)
    table_says = replay(record.header, record.events).violation_at(last)
    official = replay(record.header, record.events, official=True).violation_at(last)
    assert table_says is not None and table_says.rule == rule
    assert official is not None and official.rule in record.header.house_rules  # the rule off comes first in the spec


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_cli_replays_a_ruled_record_with_exit_0_and_official_with_exit_1(tmp_path: Path, game: str) -> None:
    rule = next(r for r in RULES if r in GAMES[game].rules)
    header, events, flagged = ruled_record(rule)
    path = tmp_path / "ruled.jsonl"
    path.write_text(write_record(header, more(events, {"type": "ruling", "target": flagged, "reason": "we agreed"})), encoding="utf-8")
    table_says = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert table_says.exit_code == 0 and json.loads(table_says.output)["ruled"][0]["rule"] == rule
    official = CliRunner().invoke(main, ["replay", str(path), "--json", "--official"])
    shown = json.loads(official.output)
    assert official.exit_code == 1 and shown["violations"][0]["rule"] == rule and shown["table"]["violations"] == []
    readable = CliRunner().invoke(main, ["replay", str(path), "--official"])
    assert "Judged by the official rules" in readable.output and f"let stand by seq {flagged + 1} (we agreed)" in readable.output


# --- core.ruling.target: every way a ruling can be wrong ---------------------------------------------

FTW = table("ftw", "Anna Ben Cem")
HIGH_5 = {"type": "high", "seat": 0, "card": 5}
LOW_BY_BEN = {"type": "high", "seat": 1, "card": 3}  # not higher than 5: ftw.high.not-higher


def ftw_fold(*bodies: dict[str, Any]) -> Any:
    return replay(FTW, numbered(FTW, *bodies))


@pytest.mark.parametrize(("bodies", "reason"), [
    ([HIGH_5, {"type": "ruling", "target": 1}], "event 1 is legal where it stands"),
    ([HIGH_5, {"type": "note", "text": "x"}, {"type": "ruling", "target": 2}], "event 2 is a note, not a player's move"),
    ([HIGH_5, LOW_BY_BEN, {"type": "void", "target": 2}, {"type": "ruling", "target": 3}], "event 3 is a void, not a player's move"),
    ([HIGH_5, LOW_BY_BEN, {"type": "ruling", "target": 4}], "event 4 comes after this ruling"),
    ([HIGH_5, LOW_BY_BEN, {"type": "ruling", "target": 0}], "the header is not a move"),
    ([HIGH_5, LOW_BY_BEN, {"type": "ruling", "target": 2}, {"type": "ruling", "target": 2}], "event 2 was let stand already"),
    ([HIGH_5, LOW_BY_BEN, {"type": "ruling", "target": 2}, {"type": "ruling", "target": 3}], "event 3 is a ruling, not a player's move"),
    ([HIGH_5, LOW_BY_BEN, {"type": "void", "target": 2}, {"type": "ruling", "target": 2}], "event 2 was voided"),
    ([HIGH_5, {"type": "end", "reason": "time"}, LOW_BY_BEN, {"type": "ruling", "target": 3}], "event 3 came after the end of the game"),
    ([{"type": "hand", "seat": 0, "cards": [1, 1, 2]}, {"type": "ruling", "target": 1}], "event 1 is a private record"),
])
def test_core_ruling_target_names_what_cannot_be_ruled(bodies: list[dict[str, Any]], reason: str) -> None:
    fold = ftw_fold(*bodies)
    flag = fold.violation_at(len(bodies))
    assert flag is not None and flag.rule == "core.ruling.target" and reason in flag.message


def test_the_nearest_legal_ruling_passes_and_a_ruling_after_the_end_reopens_the_judgement() -> None:
    assert ftw_fold(HIGH_5, LOW_BY_BEN, {"type": "ruling", "target": 2}).violations == ()  # nearest legal case of core.ruling.target
    # Ruled after the end (like a void), the move applies; the game stays ended by the table.
    fold = ftw_fold(HIGH_5, LOW_BY_BEN, {"type": "end", "reason": "time"}, {"type": "ruling", "target": 2, "reason": "we agreed"})
    assert fold.violations == () and fold.state.pile[-1] == 3 and fold.outcome is not None
    # Later moves are judged on the ruled state: Cem must beat 3 now, not 5.
    assert ftw_fold(HIGH_5, LOW_BY_BEN, {"type": "ruling", "target": 2}, {"type": "high", "seat": 2, "card": 4}).violations == ()


def test_a_house_rule_of_a_table_rule_or_another_games_rule_is_a_format_error_of_line_1() -> None:
    for off, said in ((["core.void.target"], "the table's own rules (core.*) are always played"), (["kp.turn"], "not a rule of ftw"),
                      ("ftw.turn", "Not a valid list.")):
        with pytest.raises(RecordError, match="line 1") as refused:
            read_record(json.dumps({"format": "table-record/1", "game": "ftw", "seats": ["A", "B"], "options": {}, "house_rules": {"off": off}}) + "\n")
        assert said in str(refused.value)
    assert set(CORE_RULES) >= {"core.ruling.target"}


# --- at the store and over HTTP ------------------------------------------------------------------------


def test_a_ruling_logged_at_the_table_is_replayed_from_before_its_target(tmp_path: Path) -> None:
    header, events, flagged = ruled_record("kp.raise.count") if "kp.raise.count" in EXAMPLES else ruled_record(RULES[0])
    tables = Tables(Store(tmp_path / "r.sqlite3"), snapshot_every=5)
    game_id = tables.create(header)
    for event in events:
        tables.append(game_id, {k: v for k, v in event.items() if k != "seq"})
    answered = tables.append(game_id, {"type": "ruling", "target": flagged, "reason": "house rule"})
    assert answered.violation is None
    cached, cold = tables.fold(game_id), Tables(Store(tmp_path / "r.sqlite3"), snapshot_every=5).fold(game_id)
    whole = replay(header, tables.store.events(game_id))
    assert cached.state == cold.state == whole.state and cached.ruled == cold.ruled == whole.ruled and len(whole.ruled) == 1
    tables.append(game_id, {"type": "void", "target": answered.seq})
    assert tables.fold(game_id).violation_at(flagged) is not None


def test_over_http_only_the_host_rules(client: Any) -> None:
    table_ = Table(client, {"game": "ftw", "seats": ["Anna", "Ben", "Cem"]}, claim=(0, 1))
    table_.log(HIGH_5, table_.seats[0])
    assert table_.log(LOW_BY_BEN, table_.seats[1]).json["violation"]["rule"] == "ftw.high.not-higher"
    refused = table_.log({"type": "ruling", "target": 2, "reason": "mine"}, table_.seats[1])
    assert refused.status_code == 403 and "only the host" in refused.json["error"]
    assert table_.log({"type": "ruling", "target": 2, "reason": "we agreed"}).json["violation"] is None
    state = client.get(f"/api/games/{table_.id}").json
    assert state["violations"] == [] and state["ruled"] == [{"seq": 2, "rule": "ftw.high.not-higher", "message": state["ruled"][0]["message"],
                                                             "ruling": 3, "reason": "we agreed"}]


# --- every effect is total -------------------------------------------------------------------------------

TOTALITY_EXAMPLES = 100
RAN: dict[str, int] = {}


@pytest.mark.parametrize("kind", sorted(GAMES))
@settings(max_examples=TOTALITY_EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_any_record_with_random_rulings_replays_without_raising_the_same_every_time(kind: str, seed: int) -> None:
    rng = random.Random(seed)
    header, legal = simulated(kind, seed % 50)
    if rng.random() < 0.3:  # a table with house rules
        header = parse_header({**header.to_json(), "house_rules": {"off": rng.sample(sorted(GAMES[kind].rules), rng.randrange(1, 4))}})
    events = [dict(e) for e in legal[: rng.randrange(1, len(legal) + 1)]]
    for _ in range(rng.randrange(1, 12)):  # moves put in where they do not belong (each a move of the game's vocabulary)
        at = rng.randrange(len(events) + 1)
        try:
            events.insert(at, parse_event(header, {**put_in(rng, legal), "seq": at + 1}, at + 1))
        except RecordError:
            continue
    events = [{**e, "seq": n} for n, e in enumerate(events, start=1)]
    flagged = [seq for seq, _ in replay(header, events).violations]
    for _ in range(rng.randrange(1, 6)):  # the table lets random moves stand, flagged or not
        target = rng.choice(flagged) if flagged and rng.random() < 0.8 else rng.randrange(0, len(events) + 2)
        events.append({"type": "ruling", "target": target, "reason": "random", "seq": len(events) + 1})
        if rng.random() < 0.2:
            events.append({"type": "void", "target": rng.randrange(1, len(events) + 1), "seq": len(events) + 1})
    checked = read_record(write_record(header, events)).events
    fold = replay(header, checked)
    first, second = report(fold, events=checked), report(replay(header, checked), events=checked)
    assert first == second
    for seat in [None, *range(len(header.seats))]:  # every phone can show it
        fold.view(seat)
    RAN[kind] = RAN.get(kind, 0) + 1
    folder = Path(__file__).resolve().parent.parent / "test-artifacts"
    folder.mkdir(exist_ok=True)
    (folder / "totality.json").write_text(json.dumps(RAN) + "\n", encoding="utf-8")


# --- on the phones, in the group, for the maintainer ------------------------------------------------------


def host_and_ben(app: Any) -> tuple[Any, str, Any]:
    """An FTW?! table on phones: the host's browser, the game, and Ben's phone; Ben's 3 does not beat Anna's 5."""
    host = app.test_client()
    game_id = host.post("/new", data={"game": "ftw", "seats": "Anna\nBen\nCem"}).headers["Location"].split("/")[2]
    host.post(f"/g/{game_id}/log", data={"type": "high", "seat": "0", "card": "5"})
    host.post(f"/g/{game_id}/log", data={"type": "high", "seat": "1", "card": "3"})
    return host, game_id, app.test_client()


def test_the_host_lets_a_flagged_move_stand_in_one_tap_and_every_phone_shows_it(app: Any) -> None:
    host, game_id, watcher = host_and_ben(app)
    page = host.get(f"/g/{game_id}").get_data(as_text=True)
    assert "Let it stand:" in page and 'value="house-rule">house rule</button>' in page  # the chip's code, worded by each phone
    assert "Let it stand" not in watcher.get(f"/g/{game_id}").get_data(as_text=True)  # the host's alone
    host.post(f"/g/{game_id}/rule/2", data={"reason": "house-rule"})
    for phone in (host, watcher):
        shown = phone.get(f"/g/{game_id}").get_data(as_text=True)
        assert "stands by the table's ruling (event 3, by the host): house rule" in shown and 'class="flag" role="alert"' not in shown
    assert "stands by ruling 3" in watcher.get(f"/g/{game_id}/history").get_data(as_text=True)
    # What would the official rules say? The flag, beside the table's verdict.
    official = watcher.get(f"/g/{game_id}/history?official=1").get_data(as_text=True)
    assert "Judged by the official rules" in official and "⚑ ftw.high.not-higher" in official
    assert "What would the official rules say?" in watcher.get(f"/g/{game_id}/result").get_data(as_text=True)
    # A typed reason; a ruling voided like any event: the flag stands again.
    host.post(f"/g/{game_id}/void/3")
    assert 'data-rule="ftw.high.not-higher"' in host.get(f"/g/{game_id}").get_data(as_text=True)
    host.post(f"/g/{game_id}/rule/2", data={"reason_typed": "Ben's birthday"})
    assert "Ben&#39;s birthday" in watcher.get(f"/g/{game_id}").get_data(as_text=True)


def test_a_ruling_is_news_while_among_the_latest_moves_and_history_keeps_it(app: Any) -> None:
    # Ben's 3 stands by the host's ruling (event 3): the green box on every phone. Six moves
    # later the ruling is no longer among the latest: the box is gone (no fold "Earlier"),
    # and History still says the move stands by it.
    host, game_id, watcher = host_and_ben(app)
    host.post(f"/g/{game_id}/rule/2", data={"reason": "house-rule"})
    for seat, card in ((2, 7), (0, 8), (1, 9), (2, 10), (0, 11)):  # events 4 to 8: the ruling is still among the latest six
        host.post(f"/g/{game_id}/log", data={"type": "high", "seat": str(seat), "card": str(card)})
        assert "stands by the table's ruling (event 3" in watcher.get(f"/g/{game_id}").get_data(as_text=True)
    host.post(f"/g/{game_id}/log", data={"type": "note", "text": "Pizza"})  # event 9: six moves since the ruling
    for phone in (host, watcher):
        shown = phone.get(f"/g/{game_id}").get_data(as_text=True)
        assert 'class="flag ruled"' not in shown and "stands by the table" not in shown and "Earlier: 1 ruling" not in shown
    assert "stands by ruling 3" in watcher.get(f"/g/{game_id}/history").get_data(as_text=True)


def test_a_groups_house_rules_go_into_its_new_games_and_its_statistics(app: Any) -> None:
    client = app.test_client()
    client.post("/groups", data={"name": "Club"})
    groups = app.extensions["referee"].groups
    [club] = groups.named()
    page = client.get(f"/groups/{club['id']}").get_data(as_text=True)
    assert 'name="off" value="ftw.high.not-higher"' in page
    client.post(f"/groups/{club['id']}/house-rules", data={"game": "ftw", "off": ["ftw.high.not-higher"]})
    assert groups.house_rules(club["id"], "ftw") == ["ftw.high.not-higher"]
    assert client.post(f"/groups/{club['id']}/house-rules", data={"game": "chess"}).status_code == 404
    made = client.post("/new", data={"game": "ftw", "seats": "Anna\nBen\nCem", "group": club["id"]})
    game_id = made.headers["Location"].split("/")[2]
    tables = app.extensions["referee"].tables
    assert tables.store.header(game_id).house_rules == ("ftw.high.not-higher",)
    table_page = client.get(f"/g/{game_id}").get_data(as_text=True)
    # The rule off is named by what the table allows, never by its id or its violation.
    assert "House rules:" in table_page and ">A high card need not be higher than the top card</a>" in table_page
    assert ">ftw.high.not-higher<" not in table_page and "high with a card not higher" not in table_page
    for body in ({"type": "high", "seat": 0, "card": 5}, {"type": "high", "seat": 1, "card": 3}, {"type": "end", "reason": "time"}):
        tables.append(game_id, {**body, "by": "host"})
    assert tables.fold(game_id).violations == ()  # the group's house rule: never flagged
    tables.reveal(game_id)  # FTW?! has secrets: it counts once the host has revealed them
    assert tables.plays.summary(club["id"])["house_rule_games"] == 1
    assert "1 under house rules" in client.get(f"/groups/{club['id']}/stats").get_data(as_text=True)
    runner = CliRunner()
    said = runner.invoke(main, ["rules", "ftw", "--group", "Club", "--db", app.config["DATABASE"]])
    assert said.exit_code == 0 and said.output.startswith("House rules of Club: ftw.high.not-higher not played")


def test_rulings_that_say_the_app_is_wrong_are_listed_for_the_maintainer_only(app: Any) -> None:
    host, game_id, watcher = host_and_ben(app)
    host.post(f"/g/{game_id}/rule/2", data={"reason": "the app is wrong"})
    runner = CliRunner()
    listed = runner.invoke(main, ["rulings", "--db", app.config["DATABASE"]])
    assert listed.exit_code == 0 and f"{game_id}  ftw  seq 2  ftw.high.not-higher" in listed.output
    from referee.rulings import maintainer_key

    key = maintainer_key(app.config["SECRET_KEY"])
    page = watcher.get(f"/rulings/{key}").get_data(as_text=True)
    assert "ftw.high.not-higher" in page and f"/rulings/{key}/{game_id}.jsonl" in page
    assert watcher.get(f"/rulings/{key}/{game_id}.jsonl").get_data(as_text=True).count("\n") == 4  # header, 2 moves, the ruling
    assert watcher.get(f"/rulings/{'0' * 32}").status_code == 404  # anyone else: nothing


def private_only_cases() -> dict[str, tuple[Header, list[dict[str, Any]]]]:
    """A record per rule that only private records break (as a flag on the record, or a clash of a public move)."""
    import test_ftw as ftw
    import test_karriere_poker as kp

    kp_bodies = {
        "kp.hand.deal": [kp.deal(kp.DORA), kp.hand(kp.ANNA, *kp.ANNA_DEALT[:12])],
        "kp.hand.cards": [kp.deal(kp.DORA), kp.hand(kp.ANNA, *kp.ANNA_DEALT), kp.play(kp.ANNA, 3)],
        "kp.exchange.cards": [*kp.GAME_1, kp.deal(), kp.hand(kp.ANNA, *kp.ANNA_DEALT), kp.exchange(kp.ANNA, kp.DORA, 2, 5)],
    }
    cases = {rule: (kp.KP, numbered(kp.KP, *bodies)) for rule, bodies in kp_bodies.items()}
    three = table("ftw", "Anna Ben Cem")
    cases["ftw.hand.cards"] = (three, numbered(three, ftw.hand(ftw.ANNA, *range(1, 13)), ftw.high(ftw.ANNA, 13)))
    return cases


@pytest.mark.parametrize("rule", sorted(PRIVATE_ONLY))
def test_a_rule_only_private_records_break_off_as_a_house_rule_never_fires_nor_clashes(rule: str) -> None:
    header, events = private_only_cases()[rule]
    broken = replay(header, events)
    assert rule in {flag.rule for _, flag in (*broken.violations, *broken.clashes)}
    relaxed = replay(parse_header({**header.to_json(), "house_rules": {"off": [rule]}}), events)
    assert rule not in {flag.rule for _, flag in (*relaxed.violations, *relaxed.clashes, *relaxed.clash_views)}
