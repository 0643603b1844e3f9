"""FTW?!: the climbing pile, helper cards, reveals and the score sheet.

Two players (Anna 0, Ben 1) hold 12 cards from 1–36; CLIMB is a first round in which they
lay 1, 2, 3, … on the pile in turn until Anna, after her eleventh card (21), holds one.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import flags, house, last_clash, last_flag, stood, told_of_clash, play_out, table

from referee.games.ftw import round_score
from referee.replay import Fold, replay, report
from referee.simulate import ftw_game

ANNA, BEN, CEM = 0, 1, 2


def high(seat: int, card: int) -> dict[str, Any]:
    return {"type": "high", "seat": seat, "card": card}


def low(seat: int, card: int, take: int) -> dict[str, Any]:
    return {"type": "low", "seat": seat, "card": card, "take": take}


def boost(seat: int, card: int, *helpers: int) -> dict[str, Any]:
    return {"type": "boost", "seat": seat, "card": card, "helpers": list(helpers)}


def reveal(seat: int, *cards: int) -> dict[str, Any]:
    return {"type": "reveal", "seat": seat, "cards": list(cards)}


def hand(seat: int, *cards: int) -> dict[str, Any]:
    return {"type": "hand", "seat": seat, "cards": list(cards)}


CLIMB = [high(k % 2, k + 1) for k in range(21)]  # Anna lays 1, 3, …, 21; Ben 2, 4, …, 20


def ftw(*bodies: dict[str, Any], seats: str = "Anna Ben", **options: Any) -> Fold:
    return play_out(table("ftw", seats, options), *bodies)


# --- round flow -----------------------------------------------------------------------------


def test_the_round_ends_at_once_when_a_player_holds_one_card() -> None:
    fold = ftw(*CLIMB)
    assert flags(fold) == {}
    assert fold.state.revealing and fold.state.sizes == (1, 2)
    assert last_flag(ftw(*CLIMB, high(BEN, 22))) == "ftw.turn"


def test_after_all_reveals_the_next_round_starts_with_the_next_player() -> None:
    fold = ftw(*CLIMB, reveal(BEN, 30, 25), reveal(ANNA, 33))
    assert fold.state.round == 1 and fold.state.turn == BEN
    assert fold.state.sizes == (12, 12) and fold.state.pile == ()
    # Ben 30 - 25 = 5; Anna 33 alone = 33
    assert fold.state.sheet == ((33, 5),)
    assert last_flag(ftw(*CLIMB, reveal(BEN, 30, 25), reveal(ANNA, 33), high(BEN, 21))) is None  # a new round: 21 is free again


def test_round_starters_rotate_from_the_first_option() -> None:
    three = ftw(high(CEM, 5), seats="Anna Ben Cem", first=2)
    assert flags(three) == {}
    assert three.game.result(three.state).detail["starters"] == ["Cem", "Anna", "Ben"]


def test_low_takes_a_card_and_the_rest_of_the_pile_leaves_the_game() -> None:
    fold = ftw(high(ANNA, 10), high(BEN, 20), low(ANNA, 5, 10))
    assert fold.state.pile == () and fold.state.helpers[ANNA] == (5,)
    assert fold.state.sizes == (11, 11)  # Anna's high -1, her low ±0
    assert fold.state.places[20] == ("out", -1) and fold.state.places[10] == ("hand", ANNA)


def test_after_a_boost_the_top_card_counts_at_face_value() -> None:
    setup = [high(ANNA, 10), low(BEN, 4, 10), high(ANNA, 20), boost(BEN, 17, 4)]
    fold = ftw(*setup)
    assert flags(fold) == {}
    assert fold.state.pile == (20, 17) and fold.state.helpers[BEN] == ()
    assert last_flag(ftw(*setup, high(ANNA, 18))) is None  # 18 beats 17, not the sum 21


@pytest.mark.parametrize(("players", "top", "size"), [(2, 36, 12), (4, 48, 12), (6, 60, 10)])
def test_a_full_game(players: int, top: int, size: int) -> None:
    names = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay"][:players]
    header, events = ftw_game(names, seed=players)
    fold = replay(header, events)
    assert flags(fold) == {}
    assert fold.outcome is not None and fold.outcome.reason == f"all {players} rounds are played"
    shown = report(fold)
    assert len(shown["result"]["rounds"]) == players
    assert shown["scores"] == {n: sum(r["scores"][n] for r in shown["result"]["rounds"]) for n in names}
    hands = [e for e in events if e["type"] == "hand"]
    assert {len(e["cards"]) for e in hands} == {size}
    assert max(c for e in hands for c in e["cards"]) <= top
    assert last_flag(replay(header, [*events, {"seq": len(events) + 1, "type": "high", "seat": 0, "card": 1}])) == "core.game.over"


# --- scoring --------------------------------------------------------------------------------


def test_round_score_examples() -> None:
    assert round_score([30, 5, 2]) == 23  # 30 - (5 + 2)
    assert round_score([10, 8, 5]) == 0  # 10 - 13 = -3 -> 0
    assert round_score([33]) == 33  # a single card scores its value
    assert round_score([12, 12 - 12 + 1, 11]) == 0  # 12 - (1 + 11) = 0


def test_totals_and_ties_through_two_rounds() -> None:
    round_2 = [high((k + 1) % 2, k + 1) for k in range(21)]  # Ben lays 1, 3, …, 21 and holds one card
    fold = ftw(*CLIMB, reveal(ANNA, 24), reveal(BEN, 30, 25), *round_2, reveal(BEN, 29), reveal(ANNA, 34, 24))
    assert flags(fold) == {}
    # Round 1: Anna 24, Ben 30 - 25 = 5. Round 2: Ben 29, Anna 34 - 24 = 10.
    # Totals: Anna 24 + 10 = 34, Ben 5 + 29 = 34: a tie shares the win.
    shown = report(fold)
    assert shown["finished"] is True
    assert shown["scores"] == {"Anna": 34, "Ben": 34}
    assert shown["ranking"] == [["Anna", "Ben"]]
    assert shown["result"]["rounds"] == [
        {"round": 1, "starter": "Anna", "scores": {"Anna": 24, "Ben": 5}},
        {"round": 2, "starter": "Ben", "scores": {"Anna": 10, "Ben": 29}},
    ]


# --- rule ids -------------------------------------------------------------------------------


def test_ftw_turn() -> None:
    assert last_flag(ftw(high(BEN, 5))) == "ftw.turn"
    assert last_flag(ftw(high(ANNA, 5), high(ANNA, 6))) == "ftw.turn"
    assert last_flag(ftw(high(ANNA, 5), high(BEN, 6))) is None


def test_ftw_turn_during_the_reveal_phase() -> None:
    assert last_flag(ftw(*CLIMB, high(BEN, 30))) == "ftw.turn"
    assert last_flag(ftw(*CLIMB, reveal(BEN, 30, 31))) is None


def test_ftw_reveal_twice() -> None:
    assert last_flag(ftw(high(ANNA, 5), reveal(BEN, 30, 31))) == "ftw.reveal.twice"
    assert last_flag(ftw(*CLIMB, reveal(BEN, 30, 31), reveal(BEN, 30, 31))) == "ftw.reveal.twice"
    assert last_flag(ftw(*CLIMB, reveal(BEN, 30, 31), reveal(ANNA, 32))) is None


def test_ftw_card_range() -> None:
    assert last_flag(ftw(high(ANNA, 37))) == "ftw.card.range"
    assert last_flag(ftw(high(ANNA, 0))) == "ftw.card.range"
    assert last_flag(ftw(high(ANNA, 36))) is None
    four = "Anna Ben Cem Dora"
    assert last_flag(ftw(high(ANNA, 49), seats=four)) == "ftw.card.range"
    assert last_flag(ftw(high(ANNA, 48), seats=four)) is None
    assert last_flag(ftw(*CLIMB, reveal(BEN, 30, 61))) == "ftw.card.range"


@pytest.mark.parametrize(
    ("story", "move", "where"),
    [
        ([high(ANNA, 5)], high(BEN, 5), "on the pile"),
        ([high(ANNA, 10), low(BEN, 4, 10), high(ANNA, 20)], high(BEN, 4), "in Ben's helper row"),
        ([high(ANNA, 10), high(BEN, 20), low(ANNA, 5, 10), high(BEN, 21)], high(ANNA, 22 - 2), "out of the game"),
        ([high(ANNA, 10), high(BEN, 20), low(ANNA, 5, 10)], high(BEN, 10), "in Anna's hand"),
    ],
)
def test_ftw_card_seen(story: list[dict[str, Any]], move: dict[str, Any], where: str) -> None:
    fold = ftw(*story, move)
    assert last_flag(fold) == "ftw.card.seen"
    assert fold.violations[-1][1].message.endswith(f"it is {where}.")
    assert last_flag(ftw(*story, {**move, "card": 30})) is None


def test_ftw_card_seen_in_a_reveal() -> None:
    fold = ftw(*CLIMB, reveal(ANNA, 33), reveal(BEN, 33, 30))
    assert last_flag(fold) == "ftw.card.seen"
    assert "revealed by Anna" in fold.violations[-1][1].message
    assert last_flag(ftw(*CLIMB, reveal(BEN, 7, 30))) == "ftw.card.seen"  # 7 is on the pile
    assert last_flag(ftw(*CLIMB, reveal(BEN, 30, 30))) == "ftw.card.seen"  # named twice
    assert last_flag(ftw(*CLIMB, reveal(ANNA, 33), reveal(BEN, 34, 30))) is None


def test_ftw_high_not_higher() -> None:
    """ftw.high.not-higher: option A needs a card above the top card."""
    fold = ftw(high(ANNA, 10), high(BEN, 8))
    assert last_flag(fold) == "ftw.high.not-higher"
    assert fold.violations[-1][1].message == "Ben's 8 does not beat the top card 10."
    assert last_flag(ftw(high(ANNA, 10), high(BEN, 11))) is None


def test_ftw_low_empty() -> None:
    assert last_flag(ftw(low(ANNA, 5, 6))) == "ftw.low.empty"
    assert last_flag(ftw(boost(ANNA, 5, 6))) == "ftw.low.empty"
    assert last_flag(ftw(high(ANNA, 10), low(BEN, 5, 10))) is None


def test_ftw_low_not_lower() -> None:
    assert last_flag(ftw(high(ANNA, 10), low(BEN, 12, 10))) == "ftw.low.not-lower"
    assert last_flag(ftw(high(ANNA, 10), low(BEN, 8, 10))) is None
    assert last_flag(ftw(high(ANNA, 10), low(BEN, 4, 10), high(ANNA, 20), boost(BEN, 25, 4))) == "ftw.low.not-lower"


def test_ftw_low_take() -> None:
    """ftw.low.take: the taken card must lie in the pile."""
    fold = ftw(high(ANNA, 10), high(BEN, 12), low(ANNA, 5, 11))
    assert last_flag(fold) == "ftw.low.take"
    assert fold.violations[-1][1].message == "Anna takes 11, which is not in the pile."
    assert last_flag(ftw(high(ANNA, 10), high(BEN, 12), low(ANNA, 5, 10))) is None  # any pile card, not only the top


def test_ftw_boost_helper() -> None:
    setup = [high(ANNA, 10), low(BEN, 4, 10), high(ANNA, 20)]
    assert last_flag(ftw(*setup, boost(BEN, 17))) == "ftw.boost.helper"
    assert last_flag(ftw(*setup, boost(BEN, 17, 9))) == "ftw.boost.helper"
    assert last_flag(ftw(*setup, boost(BEN, 17, 4, 4))) == "ftw.boost.helper"  # one helper used twice
    assert last_flag(ftw(*setup, boost(BEN, 17, 4))) is None
    used = [*setup, boost(BEN, 17, 4), high(ANNA, 18)]
    assert last_flag(ftw(*used, boost(BEN, 15, 4))) == "ftw.boost.helper"  # helpers are used once


def test_ftw_boost_sum() -> None:
    """ftw.boost.sum: the card plus helpers must beat the top card; equal is not enough."""
    setup = [high(ANNA, 10), low(BEN, 4, 10), high(ANNA, 20)]
    fold = ftw(*setup, boost(BEN, 16, 4))
    assert last_flag(fold) == "ftw.boost.sum"
    assert fold.violations[-1][1].message == "Ben's 16 + 4 = 20 does not beat the top card 20."
    assert last_flag(ftw(*setup, boost(BEN, 17, 4))) is None


def test_ftw_reveal_count() -> None:
    fold = ftw(*CLIMB, reveal(BEN, 30))
    assert last_flag(fold) == "ftw.reveal.count"
    assert fold.violations[-1][1].message == "Ben reveals 1 cards but holds 2."
    assert last_flag(ftw(*CLIMB, reveal(BEN, 30, 31))) is None


def test_ftw_reveal_count_for_a_logged_hand_of_the_wrong_size() -> None:
    assert last_flag(ftw(hand(ANNA, *range(1, 12)))) == "ftw.reveal.count"
    assert last_flag(ftw(hand(ANNA, *range(1, 13)))) is None


def test_ftw_reveal_known() -> None:
    """ftw.reveal.known: a card taken with low stays in the revealed hand."""
    # Ben took 10 from the pile; his revealed hand must still hold it.
    # Anna 12 -> 11 with 10, then ten more cards (11, 13, …, 29) leave her one; Ben's low
    # keeps his 12, nine highs (12, 14, …, 28) leave him three, one of them the 10.
    took = [high(ANNA, 10), low(BEN, 4, 10), *[high(k % 2, 11 + k) for k in range(19)]]
    fold = ftw(*took)
    assert flags(fold) == {}
    assert fold.state.revealing and fold.state.sizes == (1, 3)
    assert last_flag(ftw(*took, reveal(BEN, 32, 33, 34))) == "ftw.reveal.known"
    assert last_flag(ftw(*took, reveal(BEN, 10, 33, 34))) is None


def test_ftw_hand_cards() -> None:
    """ftw.hand.cards: with a logged hand, only its cards can be played."""
    # The play is public, the hand private: a clash for the host and Anna, never a flag.
    logged = [hand(ANNA, *range(1, 13))]
    fold = ftw(*logged, high(ANNA, 13))
    assert last_flag(fold) is None and last_clash(fold) == "ftw.hand.cards"
    assert fold.clashes[-1][1].message == "Anna played 13, which is not in Anna's hand."
    assert told_of_clash(fold) == {ANNA}
    assert last_clash(ftw(*logged, high(ANNA, 12))) is None


def test_a_logged_hand_follows_plays_and_takes() -> None:
    logged = [hand(ANNA, *range(1, 13)), high(ANNA, 12), high(BEN, 20), low(ANNA, 3, 20)]
    fold = ftw(*logged)
    assert fold.state.hands[ANNA] == frozenset({1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 20})
    assert last_flag(ftw(*logged, high(BEN, 21), high(ANNA, 3))) == "ftw.card.seen"  # 3 is a helper now
    assert last_flag(ftw(*logged, high(BEN, 21), high(ANNA, 22 - 1))) == "ftw.card.seen"  # 21 is on the pile
    assert last_flag(ftw(*logged, high(BEN, 21), boost(ANNA, 20, 3))) is None


def test_a_hand_logged_after_playing_may_name_the_played_cards() -> None:
    assert last_flag(ftw(high(ANNA, 12), hand(ANNA, *range(1, 13)))) is None
    assert last_flag(ftw(high(ANNA, 12), hand(BEN, *range(1, 13)))) == "ftw.card.seen"


def test_view_shows_the_pile_helpers_and_only_the_seats_own_hand() -> None:
    fold = ftw(hand(ANNA, *range(1, 13)), high(ANNA, 12))
    view = fold.game.view(fold.state, ANNA)
    assert view["pile"] == [12] and view["turn"] == "Ben"
    assert view["hand"] == list(range(1, 12))
    assert fold.game.view(fold.state, BEN)["hand"] is None
    assert "hand" not in fold.game.view(fold.state, None)


# --- the table decides: moves that stand as if legal (DESIGN, `ruling` and `house_rules`) ---

HOW = ["ruling", "house rule"]
TWO, THREE = table("ftw", "Anna Ben"), table("ftw", "Anna Ben Cem")
HELPER_4 = [high(ANNA, 10), low(BEN, 4, 10), high(ANNA, 20)]  # Ben keeps 4 as a helper; Ben must beat 20


@pytest.mark.parametrize("how", HOW)
def test_cems_card_out_of_turn_stands_anna_is_next_and_ben_keeps_his_turn(how: str) -> None:
    fold = stood(how, "ftw.turn", THREE, [high(ANNA, 5)], high(CEM, 7))
    assert fold.state.turn == ANNA and fold.state.pile == (5, 7)
    assert flags(stood(how, "ftw.turn", THREE, [high(ANNA, 5)], high(CEM, 7), high(ANNA, 8), high(BEN, 9))) == {}


@pytest.mark.parametrize("how", HOW)
def test_bens_lower_card_that_stands_is_the_card_to_beat(how: str) -> None:
    fold = stood(how, "ftw.high.not-higher", TWO, [high(ANNA, 10)], high(BEN, 8), high(ANNA, 9))
    assert flags(fold) == {} and fold.state.pile == (10, 8, 9)


@pytest.mark.parametrize("how", HOW)
def test_a_boost_with_a_helper_not_his_stands_and_the_helper_named_leaves_the_game(how: str) -> None:
    fold = stood(how, "ftw.boost.helper", TWO, HELPER_4, boost(BEN, 17, 9))
    assert fold.state.pile[-1] == 17 and fold.state.helpers[BEN] == (4,) and fold.state.places[9] == ("out", -1)


@pytest.mark.parametrize("how", HOW)
def test_bens_reveal_of_one_card_instead_of_two_stands_and_scores_the_card_named(how: str) -> None:
    fold = stood(how, "ftw.reveal.count", TWO, CLIMB, reveal(BEN, 30), reveal(ANNA, 32))
    assert fold.state.sheet[0] == (32, 30)


def test_a_low_on_an_empty_pile_ruled_changes_nothing_and_is_listed_as_not_applied() -> None:
    fold = stood("ruling", "ftw.low.empty", TWO, [], low(ANNA, 5, 6))
    assert fold.state == ftw().state and report(fold)["ruled"][0]["applied"] is False
    assert flags(stood("ruling", "ftw.low.empty", TWO, [], low(ANNA, 5, 6), high(ANNA, 5))) == {}  # still Anna's turn
    # With the empty pile and the take off as house rules it changes nothing either.
    assert play_out(house(TWO, "ftw.low.empty", "ftw.low.take"), low(ANNA, 5, 6)).state == ftw().state


# A rule the table turned off is skipped, and the rules after it still judge the move.
OFF_THEN_LATER = [
    # (the rule off, the move's story, the later rule that fires, the nearest legal story)
    ("ftw.turn", [high(ANNA, 10), high(ANNA, 8)], "ftw.high.not-higher", [high(ANNA, 10), high(ANNA, 12)]),
    ("ftw.turn", [*CLIMB, high(BEN, 5)], "ftw.card.seen", [*CLIMB, high(BEN, 30)]),  # in the reveal phase; 5 is on the pile
    ("ftw.boost.helper", [*HELPER_4, boost(BEN, 10, 9)], "ftw.boost.sum", [*HELPER_4, boost(BEN, 12, 9)]),
    ("ftw.low.empty", [*HELPER_4, high(BEN, 22), low(ANNA, 5, 20), boost(BEN, 7, 6)], "ftw.boost.helper",
     [*HELPER_4, high(BEN, 22), low(ANNA, 5, 20), boost(BEN, 7, 4)]),  # the pile is empty: any sum beats it
    ("ftw.low.empty", [low(ANNA, 5, 6)], "ftw.low.take", [high(ANNA, 6)]),
    ("ftw.reveal.twice", [high(ANNA, 5), reveal(BEN, 30, 31)], "ftw.reveal.count", [high(ANNA, 5), reveal(BEN, *range(20, 32))]),
]


@pytest.mark.parametrize(("off", "story", "later", "legal"), OFF_THEN_LATER)
def test_with_a_rule_off_the_rules_after_it_still_fire(off: str, story: list[dict[str, Any]], later: str, legal: list[dict[str, Any]]) -> None:
    assert last_flag(ftw(*story)) == off  # by the official rules the rule off comes first
    assert last_flag(play_out(house(TWO, off), *story)) == later
    assert last_flag(play_out(house(TWO, off), *legal)) is None
