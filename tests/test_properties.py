"""Random legal play of Employee of the Month and FTW?! is never flagged; FTW cards stay in one place."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import Violation
from referee.replay import replay, start
from referee.simulate import employee_of_the_month, ftw_game

NAMES = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay"]


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), hands=st.booleans())
def test_ftw_random_legal_play_is_never_flagged_and_every_card_is_in_one_place(players: int, seed: int, hands: bool) -> None:
    header, events = ftw_game(NAMES[:players], seed, hands)
    fold = start(header)
    for event in events:
        state = fold.game.apply(fold.state, event)
        assert not isinstance(state, Violation), (event, state)
        places = [set(state.pile), *map(set, state.helpers), *map(state.known, range(players))]
        places += [set(h) for h in state.revealed if h is not None]
        for a, b in combinations(places, 2):
            assert not a & b, f"seq {event['seq']}: {sorted(a & b)} is in two places"
        fold = fold.__class__(header, fold.game, state)
    assert replay(header, events).outcome is not None


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), fewest_needs_one=st.booleans())
def test_eotm_random_legal_play_is_never_flagged(players: int, seed: int, fewest_needs_one: bool) -> None:
    header, events = employee_of_the_month(NAMES[:players], seed, {"fewest_needs_one": fewest_needs_one})
    fold = replay(header, events)
    assert fold.violations == ()
    assert len(fold.state.auctions) == 32
    table = fold.result().detail["majority_table"]
    for row in table:
        assert row["score"] == row["plus"] + row["colleague_popularity"] + row["boss_popularity"] + row["colleague_distrust"] + row["boss_distrust"]
