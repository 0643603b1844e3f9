"""Ratings of a group (OpenSkill's Plackett-Luce): who is ahead after the group's finished
games, a tie that shares a place, a Ladies & Gentlemen team that wins and loses as one, and
the games that never count (ended early, not yet revealed)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from flask import Flask
from flask.testing import FlaskClient
from test_groups import new_group, play_sample, start, stats_page

from referee.ratings import Rating, group_ratings
from referee.record import Header
from referee.stats import Play, Seat

THURSDAY = datetime(2025, 3, 6, 19, tzinfo=timezone.utc)


def played(game: str, kind: str, evening: int, *tiers: list[str], ended_early: bool = False) -> Play:
    """A finished game of the group, its players in seat order by the tiers of its ranking."""
    started = THURSDAY + timedelta(days=7 * evening)
    placed = [(rank, name) for rank, tier in enumerate(tiers, start=1) for name in tier]
    seats = [Seat(seat, name, name, None, rank, rank == 1) for seat, (rank, name) in enumerate(placed)]
    return Play(game, kind, started, started + timedelta(hours=1), 60, None, ended_early,
                [s.name for s in seats if s.won and not ended_early], seats)


def no_header(game: str) -> Header:
    raise AssertionError(f"only a Ladies & Gentlemen game needs its header ({game})")


def order(ladder: list[Rating]) -> list[str]:
    return [r.name for r in ladder]


def test_two_evenings_anna_wins_both_and_ben_beats_cem_twice_so_anna_leads_ben_and_cem_trails() -> None:
    first = played("g1", "employee-of-the-month", 0, ["Anna"], ["Ben"], ["Cem"])
    second = played("g2", "employee-of-the-month", 1, ["Anna"], ["Ben"], ["Cem"])
    rated = group_ratings([first, second], no_header)
    assert order(rated.overall) == ["Anna", "Ben", "Cem"]
    assert order(rated.per_game["employee-of-the-month"]) == ["Anna", "Ben", "Cem"]
    assert [r.games for r in rated.overall] == [2, 2, 2]
    # The history: one point per evening; a second win makes the model surer of Anna.
    (_, after_first), (_, after_second) = rated.history
    assert after_first["Anna"] > 0 > after_first["Cem"]  # everyone starts at 0 (mu 25, sigma 25/3)
    assert after_second["Anna"] > after_first["Anna"] and after_second["Cem"] < after_first["Cem"]
    # The ordinal is mu - 3 sigma; sigma shrinks as games come.
    anna = rated.overall[0]
    assert anna.ordinal == anna.mu - 3 * anna.sigma and anna.sigma < 25 / 3


def test_a_game_won_twice_by_anna_then_once_by_cem_keeps_anna_ahead_and_lifts_cem_above_ben() -> None:
    games = [played("g1", "ftw", 0, ["Anna"], ["Ben"], ["Cem"]), played("g2", "ftw", 0, ["Anna"], ["Cem"], ["Ben"]),
             played("g3", "ftw", 1, ["Cem"], ["Anna"], ["Ben"])]
    rated = group_ratings(games, no_header)
    assert order(rated.overall) == ["Anna", "Cem", "Ben"]
    assert len(rated.history) == 2  # two evenings: the first two games were one night


def test_anna_and_ben_tie_for_first_share_a_rating_and_both_pass_cem() -> None:
    rated = group_ratings([played("g1", "senators", 0, ["Anna", "Ben"], ["Cem"])], no_header)
    anna, ben, cem = rated.overall
    assert (anna.name, ben.name, cem.name) == ("Anna", "Ben", "Cem")
    assert (anna.mu, anna.sigma) == (ben.mu, ben.sigma) and anna.mu > 25 > cem.mu


def test_games_are_rated_per_game_and_overall() -> None:
    games = [played("g1", "ftw", 0, ["Anna"], ["Ben"], ["Cem"]), played("g2", "senators", 1, ["Cem"], ["Ben"], ["Anna"])]
    rated = group_ratings(games, no_header)
    assert order(rated.per_game["ftw"]) == ["Anna", "Ben", "Cem"]
    assert order(rated.per_game["senators"]) == ["Cem", "Ben", "Anna"]
    assert [r.games for r in rated.overall] == [2, 2, 2]


def test_a_game_the_table_ended_early_changes_no_rating() -> None:
    first = played("g1", "karriere-poker", 0, ["Anna"], ["Ben"], ["Cem"])
    early = played("g2", "karriere-poker", 1, ["Ben", "Cem", "Anna"], ended_early=True)
    alone, with_early = group_ratings([first], no_header), group_ratings([first, early], no_header)
    assert with_early.overall == alone.overall and [r.games for r in with_early.overall] == [1, 1, 1]


def test_a_player_seated_twice_after_a_merge_counts_once_at_the_better_place() -> None:
    game = played("g1", "ftw", 0, ["Anna"], ["Ben"], ["Cem"])
    game.seats[2].name = "Anna"  # "anna" merged into Anna
    rated = group_ratings([game], no_header)
    assert order(rated.overall) == ["Anna", "Ben"] and rated.overall[0].games == 1


# --- through the app: the group's statistics page ---------------------------------------------


def ratings_of(page: str, game: str = "all") -> list[tuple[str, str]]:
    """(player, rating) of one table of ratings on the statistics page, best first."""
    table = page.split(f'<table class="ratings" data-game="{game}">', 1)[1].split("</table>", 1)[0]
    return re.findall(r"<tr><td>([^<]+)</td><td>([^<]+)</td>", table)


def test_the_groups_statistics_rate_two_played_games_anna_first(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    for _ in range(2):
        play_sample(app, start(client, group_id, "employee-of-the-month", ["Anna", "Ben", "Cem"]), "employee-of-the-month-3-players")
    page = stats_page(client, group_id)
    assert [name for name, _ in ratings_of(page)] == ["Anna", "Ben", "Cem"]
    assert [name for name, _ in ratings_of(page, "employee-of-the-month")] == ["Anna", "Ben", "Cem"]
    assert 'aria-label="Ratings over the evenings"' in page
    client.get("/lang/de", headers={"Referer": "http://localhost/"})
    page = stats_page(client, group_id)
    assert "<h2 id=\"ratings\">Wertungen</h2>" in page and "Alle Spiele" in page
    assert re.fullmatch(r"-?\d+,\d", ratings_of(page)[0][1])  # a decimal comma in German


def test_a_ladies_and_gentlemen_team_rises_as_one_with_the_courtesan_it_won_with(client: FlaskClient, app: Flask) -> None:
    # Emil, the courtesan, wins the Ball with Ben; Ben's lady Anna finishes last of the game's
    # ranking, but Ben's purse is hers: the team is rated as one, placed level with Emil and
    # above Cem and Dora.
    group_id = new_group(client)
    game_id = start(client, group_id, "ladies-and-gentlemen", ["Anna", "Ben", "Cem", "Dora", "Emil"])
    play_sample(app, game_id, "ladies-and-gentlemen-5-players-courtesan-wins")
    assert 'id="ratings"' not in stats_page(client, group_id)  # the incomes are secret until the host reveals them
    app.extensions["referee"].tables.reveal(game_id)
    rated = dict(ratings_of(stats_page(client, group_id)))
    assert rated["Anna"] == rated["Ben"] and rated["Cem"] == rated["Dora"]
    assert float(rated["Anna"]) > float(rated["Cem"]) and float(rated["Emil"]) > float(rated["Cem"])


def test_a_game_ended_early_is_listed_but_not_rated(client: FlaskClient, app: Flask) -> None:
    group_id = new_group(client)
    play_sample(app, start(client, group_id, "employee-of-the-month", ["Anna", "Ben", "Cem"]), "employee-of-the-month-3-players")
    before = ratings_of(stats_page(client, group_id))
    early = start(client, group_id, "employee-of-the-month", ["Anna", "Ben", "Cem"])
    app.extensions["referee"].tables.append(early, {"type": "end", "reason": "out of time"})
    page = stats_page(client, group_id)
    assert "1 finished game" in page and "1 game ended early" in page
    assert ratings_of(page) == before
