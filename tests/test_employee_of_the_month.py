"""Employee of the Month: auctions, every rule id both ways, and the majority table by hand.

Seats: Anna 0, Ben 1, Cem 2. The row of START, ascending:
colleague-1, colleague-3, boss-3, colleague-5, boss-6, colleague-8, boss-9.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import flags, house, last_flag, play_out, stood, table

from referee.games.employee_of_the_month import Won, majority_table
from referee.replay import Fold, replay, report
from referee.simulate import employee_of_the_month

ANNA, BEN, CEM = 0, 1, 2
ROW = ["boss-9", "colleague-1", "colleague-5", "boss-3", "colleague-3", "boss-6", "colleague-8"]
START: dict[str, Any] = {"type": "start", "row": ROW, "distrust": 2, "points": "plus-4"}


def bid(seat: int, card: str) -> dict[str, Any]:
    return {"type": "bid", "seat": seat, "card": card}


def pass_(seat: int) -> dict[str, Any]:
    return {"type": "pass", "seat": seat}


def reveal(favour: str, distrust: int, points: str) -> dict[str, Any]:
    return {"type": "reveal", "favour": favour, "distrust": distrust, "points": points}


END = {"type": "end", "reason": "scoring example"}


def eotm(*bodies: dict[str, Any], seats: str = "Anna Ben Cem", **options: Any) -> Fold:
    return play_out(table("employee-of-the-month", seats, options), *bodies)


# --- auctions ------------------------------------------------------------------------------


def test_the_row_is_kept_in_ascending_order_boss_above_colleague() -> None:
    fold = eotm(START, pass_(ANNA), pass_(BEN), pass_(CEM), reveal("colleague-6", 1, "plus-1"))
    # boss-9 left with the wash; colleague-6 goes below boss-6 (equal value: boss ranks above)
    assert fold.state.row == ("colleague-1", "colleague-3", "boss-3", "colleague-5", "colleague-6", "boss-6", "colleague-8")


def test_bidding_the_top_card_of_the_row_wins_at_once() -> None:
    fold = eotm(START, bid(ANNA, "colleague-3"), bid(BEN, "boss-9"))
    assert flags(fold) == {}
    assert fold.state.auctions[-1].winner == BEN
    assert fold.state.won[BEN] == Won(("boss-9",), (2,), ("plus-4",))
    assert "boss-9" not in fold.state.row and "colleague-3" in fold.state.row  # turned cards turn back
    assert fold.state.prize is None


def test_the_last_bidder_wins_when_all_others_have_passed() -> None:
    fold = eotm(START, bid(ANNA, "colleague-3"), pass_(BEN), bid(CEM, "boss-3"), pass_(ANNA))
    assert fold.state.auctions[-1].winner == CEM
    assert fold.state.auctions[-1].card == "boss-3"


def test_a_wash_discards_the_highest_row_card_and_the_prize() -> None:
    fold = eotm(START, pass_(ANNA), pass_(BEN), pass_(CEM))
    auction = fold.state.auctions[-1]
    assert (auction.winner, auction.card) == (None, None)
    assert fold.state.row[-1] == "colleague-8"  # boss-9 left the game
    assert all(won == Won() for won in fold.state.won)


def test_the_first_bid_card_moves_one_seat_left_after_each_auction() -> None:
    washes = [START, pass_(ANNA), pass_(BEN), pass_(CEM), reveal("colleague-2", 1, "plus-1")]
    assert last_flag(eotm(*washes, bid(BEN, "colleague-1"))) is None
    assert last_flag(eotm(*washes, bid(ANNA, "colleague-1"))) == "eotm.turn"
    assert last_flag(eotm(START, bid(CEM, "colleague-1"), first=2)) is None


def test_a_passed_player_is_skipped_for_the_rest_of_the_auction() -> None:
    fold = eotm(START, pass_(ANNA), bid(BEN, "colleague-1"), bid(CEM, "colleague-3"))
    assert fold.state.turn == BEN


def test_a_full_game_has_exactly_32_auctions() -> None:
    header, events = employee_of_the_month(["Anna", "Ben", "Cem", "Dora"], seed=1)
    fold = replay(header, events)
    assert flags(fold) == {}
    assert len(fold.state.auctions) == 32
    assert fold.outcome is not None and fold.outcome.reason == "all 32 auctions are over"
    shown = report(fold)
    assert len(shown["result"]["auctions"]) == 32
    assert sorted(sum(shown["ranking"], [])) == ["Anna", "Ben", "Cem", "Dora"]
    # after the 32nd auction nothing more can be logged
    more = replay(header, [*events, {"seq": len(events) + 1, "type": "reveal", "favour": "boss-1", "distrust": 1, "points": "plus-1"}])
    assert last_flag(more) == "core.game.over"


# --- rule ids ------------------------------------------------------------------------------


def test_eotm_start_fires_for_events_before_start_a_second_start_and_a_short_row() -> None:
    assert last_flag(eotm(bid(ANNA, "boss-9"))) == "eotm.start"
    assert last_flag(eotm(reveal("boss-1", 1, "plus-1"))) == "eotm.start"
    assert last_flag(eotm(START, START)) == "eotm.start"
    assert last_flag(eotm({**START, "row": ROW[:6]})) == "eotm.start"
    assert last_flag(eotm(START)) is None


def test_eotm_reveal_missing() -> None:
    """eotm.reveal.missing: no bidding until the table reveals the next prize."""
    washed = [START, pass_(ANNA), pass_(BEN), pass_(CEM)]
    assert last_flag(eotm(*washed, bid(BEN, "colleague-1"))) == "eotm.reveal.missing"
    assert last_flag(eotm(*washed, reveal("boss-2", 3, "popularity-5"), bid(BEN, "colleague-1"))) is None


def test_eotm_reveal_unexpected() -> None:
    assert last_flag(eotm(START, bid(ANNA, "colleague-1"), reveal("boss-2", 3, "plus-2"))) == "eotm.reveal.unexpected"
    assert last_flag(eotm(START, reveal("boss-2", 3, "plus-2"))) == "eotm.reveal.unexpected"
    washed = [START, pass_(ANNA), pass_(BEN), pass_(CEM)]
    assert last_flag(eotm(*washed, reveal("boss-2", 3, "plus-2"), reveal("boss-2", 3, "plus-2"))) == "eotm.reveal.unexpected"
    assert last_flag(eotm(*washed, reveal("boss-2", 3, "plus-2"))) is None


@pytest.mark.parametrize(
    ("card_field", "card"),
    [("favour", "colleague-11"), ("favour", "boss-0"), ("distrust", 6), ("distrust", 0), ("points", "plus-7"), ("points", "popularity-1")],
)
def test_eotm_card_range(card_field: str, card: str | int) -> None:
    washed = [START, pass_(ANNA), pass_(BEN), pass_(CEM)]
    fold = eotm(*washed, {**reveal("boss-10", 5, "popularity-8"), card_field: card})
    assert last_flag(fold) == "eotm.card.range"
    assert last_flag(eotm(*washed, reveal("boss-10", 5, "popularity-8"))) is None  # the edges exist
    assert last_flag(eotm(*washed, reveal("colleague-1", 1, "popularity-2"))) is None


def test_eotm_card_range_for_a_bid() -> None:
    assert last_flag(eotm(START, bid(ANNA, "boss-11"))) == "eotm.card.range"
    assert last_flag(eotm(START, bid(ANNA, "boss-3"))) is None


def washes(first_auction: int, *prizes: tuple[str, int, str]) -> list[dict[str, Any]]:
    """Auctions nobody bids in (the holder passes first), each followed by a reveal."""
    bodies: list[dict[str, Any]] = []
    for offset, prize in enumerate(prizes):
        holder = (first_auction + offset) % 3
        bodies += [pass_(holder), pass_((holder + 1) % 3), pass_((holder + 2) % 3), reveal(*prize)]
    return bodies


def test_eotm_deck_supply() -> None:
    # Nine popularity cards exist: the start shows one, eight reveals make nine.
    nine = [{**START, "points": "popularity-2"}, *washes(0, *[("colleague-2", 1, "popularity-3")] * 8)]
    assert flags(eotm(*nine)) == {}
    tenth = [*nine, *washes(8, ("colleague-2", 1, "popularity-3"))]
    fold = eotm(*tenth)
    assert last_flag(fold) == "eotm.deck.supply"
    assert fold.violations[-1][1].message == "The deck has only 9 popularity cards; this would make 10."
    assert last_flag(eotm(*nine, *washes(8, ("colleague-2", 1, "plus-3")))) is None


def test_eotm_deck_supply_for_boss_cards() -> None:
    # The row holds 3 boss cards; 13 reveals of boss cards make 16, the 14th one 17.
    sixteen = [START, *washes(0, *[("boss-5", 1, "plus-1")] * 13)]
    assert flags(eotm(*sixteen)) == {}
    assert last_flag(eotm(*sixteen, *washes(13, ("boss-5", 1, "plus-1")))) == "eotm.deck.supply"


def test_eotm_turn() -> None:
    assert last_flag(eotm(START, bid(BEN, "colleague-1"))) == "eotm.turn"
    assert last_flag(eotm(START, pass_(ANNA), bid(BEN, "colleague-1"), bid(ANNA, "colleague-3"))) == "eotm.turn"
    assert last_flag(eotm(START, pass_(ANNA), bid(BEN, "colleague-1"), bid(CEM, "colleague-3"))) is None


def test_eotm_bid_row() -> None:
    """eotm.bid.row: a bid must name a card that lies in the row."""
    fold = eotm(START, bid(ANNA, "boss-7"))
    assert last_flag(fold) == "eotm.bid.row"
    assert fold.violations[-1][1].message == "Anna bid boss 7, which is not in the row."
    assert last_flag(eotm(START, bid(ANNA, "boss-6"))) is None


def test_eotm_bid_higher() -> None:
    fold = eotm(START, bid(ANNA, "boss-3"), bid(BEN, "colleague-3"))
    assert last_flag(fold) == "eotm.bid.higher"  # equal value: boss ranks above colleague
    assert fold.violations[-1][1].message == "Ben bid colleague 3, not above the high bid boss 3."
    assert last_flag(eotm(START, bid(ANNA, "colleague-3"), bid(BEN, "boss-3"))) is None
    assert last_flag(eotm(START, bid(ANNA, "boss-3"), bid(BEN, "boss-3"))) == "eotm.bid.higher"


# --- scoring: worked examples --------------------------------------------------------------


def test_scoring_ties_for_fewest_and_most() -> None:
    won = [
        Won(("colleague-3", "boss-4"), (2, 3), ("plus-5", "popularity-6")),  # Anna
        Won(("colleague-3", "boss-4"), (4,), ("popularity-2",)),  # Ben
        Won(("colleague-9",), (1,), ("plus-1",)),  # Cem
    ]
    rows = majority_table(won, fewest_needs_one=True)
    # colleague totals: Anna 3, Ben 3, Cem 9 -> fewest Anna and Ben (tie), most Cem.
    # boss totals: Anna 4, Ben 4, Cem 0 -> fewest among holders: Anna and Ben (tie);
    #   most: Anna and Ben (tie) too.
    # Anna: plus 5; colleague fewest +6; boss fewest +6; boss most -(2+3)=-5 -> 5+6+6-5 = 12
    # Ben:  plus 0; colleague fewest +2; boss fewest +2; boss most -4 -> 0+2+2-4 = 0
    # Cem:  plus 1; colleague most -1 -> 1-1 = 0
    assert [row["score"] for row in rows] == [12, 0, 0]
    assert rows[0] == {
        "plus": 5, "popularity": 6, "colleague": 3, "boss": 4, "distrust": 5,
        "colleague_popularity": 6, "colleague_distrust": 0, "boss_popularity": 6, "boss_distrust": -5, "score": 12,
    }


def test_scoring_a_player_alone_in_a_type_is_both_fewest_and_most() -> None:
    won = [
        Won(("boss-7", "colleague-2"), (3,), ("popularity-4",)),  # Anna: only boss holder
        Won(("colleague-5",), (5,), ("plus-6",)),  # Ben
    ]
    rows = majority_table(won, fewest_needs_one=True)
    # boss: Anna 7, Ben 0 -> Anna fewest (+4) and most (-3).
    # colleague: Anna 2, Ben 5 -> Anna fewest (+4), Ben most (-5).
    # Anna: 0 + 4 - 3 + 4 = 5. Ben: 6 - 5 = 1.
    assert [row["score"] for row in rows] == [5, 1]
    assert (rows[0]["boss_popularity"], rows[0]["boss_distrust"]) == (4, -3)


def test_scoring_nobody_holding_a_type_and_fewest_needs_one_false() -> None:
    won = [
        Won(("colleague-4",), (2,), ("plus-3", "popularity-5")),  # Anna
        Won(("colleague-6",), (4,), ("popularity-3",)),  # Ben
        Won((), (1,), ("plus-2",)),  # Cem: no favours at all
    ]
    # With fewest_needs_one (default): boss, nobody holds it -> nobody scores for boss.
    #   colleague: Anna 4 fewest among holders (+5), Ben 6 most (-4); Cem nothing.
    #   Anna 3+5 = 8, Ben 0-4 = -4, Cem 2.
    assert [r["score"] for r in majority_table(won, fewest_needs_one=True)] == [8, -4, 2]
    # Without it, 0 counts: colleague fewest is Cem (0): +0 popularity; boss: everyone has 0,
    #   all are fewest: Anna +5, Ben +3, Cem +0; nobody is most (needs at least 1).
    #   Anna 3+5 = 8, Ben 0-4+3 = -1, Cem 2+0+0 = 2.
    assert [r["score"] for r in majority_table(won, fewest_needs_one=False)] == [8, -1, 2]


def test_scoring_through_a_logged_game_ended_by_the_table() -> None:
    fold = eotm(
        START,
        bid(ANNA, "boss-9"),  # Anna wins boss-9, distrust 2, plus-4
        reveal("colleague-2", 3, "popularity-5"),
        bid(BEN, "colleague-1"), pass_(CEM), pass_(ANNA),  # Ben wins colleague-1, 3, popularity-5
        reveal("boss-1", 1, "popularity-7"),
        bid(CEM, "colleague-2"), pass_(ANNA), pass_(BEN),  # Cem wins colleague-2, 1, popularity-7
        END,
    )
    assert flags(fold) == {}
    # colleague: Anna 0, Ben 1, Cem 2 -> fewest (holders) Ben +5; most Cem -1.
    # boss: Anna 9 only -> Anna fewest +0 (no popularity) and most -2.
    # Anna 4 + 0 - 2 = 2; Ben 0 + 5 = 5; Cem 0 - 1 = -1.
    shown = report(fold)
    assert shown["scores"] == {"Anna": 2, "Ben": 5, "Cem": -1}
    assert shown["ranking"] == [["Ben"], ["Anna"], ["Cem"]]
    assert [a["winner"] for a in shown["result"]["auctions"]] == ["Anna", "Ben", "Cem"]


def test_view_shows_own_won_cards_and_only_counts_of_others() -> None:
    fold = eotm(START, bid(ANNA, "boss-9"), reveal("colleague-2", 3, "popularity-5"))
    game = fold.game
    anna = game.view(fold.state, ANNA)["holdings"]
    assert anna["Anna"]["favour_cards"] == ["boss-9"]
    ben = game.view(fold.state, BEN)["holdings"]
    assert ben["Anna"] == {"favours": 1, "distrust": 1, "points": 1}
    assert "favour_cards" not in game.view(fold.state, None)["holdings"]["Anna"]
    assert game.view(fold.state, None)["turn"] == "Ben"


# --- the table decides: moves that stand as if legal (DESIGN, `ruling` and `house_rules`) ---

HOW = ["ruling", "house rule"]
TABLE = table("employee-of-the-month", "Anna Ben Cem")


@pytest.mark.parametrize("how", HOW)
def test_bens_bid_out_of_turn_stands_cem_is_next_and_anna_keeps_her_turn(how: str) -> None:
    fold = stood(how, "eotm.turn", TABLE, [START], bid(BEN, "colleague-3"))
    assert fold.state.turn == CEM and fold.state.high == ("colleague-3", BEN)
    fold = stood(how, "eotm.turn", TABLE, [START], bid(BEN, "colleague-3"), bid(CEM, "boss-3"), bid(ANNA, "colleague-5"))
    assert flags(fold) == {} and fold.state.high == ("colleague-5", ANNA)


@pytest.mark.parametrize("how", HOW)
def test_a_passed_player_whose_bid_stands_is_back_in_the_auction(how: str) -> None:
    fold = stood(how, "eotm.turn", TABLE, [START, pass_(ANNA)], bid(ANNA, "colleague-3"), pass_(BEN), pass_(CEM))
    assert fold.state.auctions[-1].winner == ANNA and fold.state.auctions[-1].card == "colleague-3"


@pytest.mark.parametrize("how", HOW)
def test_bens_lower_bid_that_stands_becomes_the_high_bid(how: str) -> None:
    fold = stood(how, "eotm.bid.higher", TABLE, [START, bid(ANNA, "colleague-5")], bid(BEN, "colleague-3"))
    assert fold.state.high == ("colleague-3", BEN) and fold.state.turn == CEM
    assert flags(stood(how, "eotm.bid.higher", TABLE, [START, bid(ANNA, "colleague-5")], bid(BEN, "colleague-3"), bid(CEM, "boss-3"))) == {}


@pytest.mark.parametrize("how", HOW)
def test_a_start_with_six_row_cards_that_stands_starts_with_the_six_named(how: str) -> None:
    fold = stood(how, "eotm.start", TABLE, [], {**START, "row": ROW[:6]})
    assert len(fold.state.row) == 6 and "colleague-8" not in fold.state.row


@pytest.mark.parametrize(("before", "move", "rule"), [
    ([START], bid(ANNA, "boss-7"), "eotm.bid.row"),  # a card not in the row
    ([], bid(ANNA, "boss-9"), "eotm.start"),  # before the start
    ([START, pass_(ANNA), pass_(BEN), pass_(CEM)], pass_(BEN), "eotm.reveal.missing"),  # no prize out
])
def test_a_bid_or_pass_with_no_meaning_ruled_changes_nothing_and_is_listed_as_not_applied(before: list[dict[str, Any]], move: dict[str, Any],
                                                                                          rule: str) -> None:
    fold = stood("ruling", rule, TABLE, before, move)
    assert fold.state == eotm(*before).state
    assert report(fold)["ruled"][0]["applied"] is False
    assert stood("house rule", rule, TABLE, before, move).state == eotm(*before).state


@pytest.mark.parametrize("how", HOW)
def test_after_a_ruled_25th_colleague_reveals_without_colleagues_go_on(how: str) -> None:
    # The row holds 4 colleagues; 20 reveals make 24, the 21st makes 25.
    twenty_four = [START, *washes(0, *[("colleague-2", 1, "plus-1")] * 20)]
    assert flags(eotm(*twenty_four)) == {}
    fold = stood(how, "eotm.deck.supply", TABLE, [*twenty_four, *washes(20, ("colleague-2", 1, "plus-1"))[:3]],
                 reveal("colleague-2", 1, "plus-1"), *washes(21, ("boss-2", 1, "popularity-2"), ("boss-4", 2, "popularity-3")))
    assert flags(fold) == {} and len(fold.state.auctions) == 23
    if how == "ruling":  # the colleagues are still over the deck: another one is flagged
        more = stood(how, "eotm.deck.supply", TABLE, [*twenty_four, *washes(20, ("colleague-2", 1, "plus-1"))[:3]],
                     reveal("colleague-2", 1, "plus-1"), *washes(21, ("colleague-4", 1, "popularity-2")))
        assert last_flag(more) == "eotm.deck.supply"


# A rule the table turned off is skipped, and the rules after it still judge the move.
OFF_THEN_LATER = [
    # (the rule off, the move's story, the later rule that fires, the nearest legal story)
    ("eotm.turn", [START, bid(ANNA, "colleague-5"), bid(CEM, "colleague-3")], "eotm.bid.higher",
     [START, bid(ANNA, "colleague-5"), bid(CEM, "boss-6")]),
    ("eotm.turn", [START, bid(BEN, "boss-7")], "eotm.bid.row", [START, bid(BEN, "boss-6")]),
    ("eotm.turn", [START, pass_(ANNA), bid(BEN, "colleague-5"), bid(ANNA, "colleague-3")], "eotm.bid.higher",
     [START, pass_(ANNA), bid(BEN, "colleague-5"), bid(ANNA, "boss-6")]),
    ("eotm.card.range", [START, bid(ANNA, "boss-11")], "eotm.bid.row", [START, bid(ANNA, "boss-9")]),
    ("eotm.card.range", [START, bid(BEN, "boss-11")], "eotm.turn", [START, bid(ANNA, "boss-9")]),
    ("eotm.start", [reveal("boss-11", 1, "plus-1")], "eotm.card.range", [reveal("boss-10", 1, "plus-1")]),
    ("eotm.reveal.unexpected", [START, reveal("boss-2", 6, "plus-1")], "eotm.card.range", [START, reveal("boss-2", 5, "plus-1")]),
]


@pytest.mark.parametrize(("off", "story", "later", "legal"), OFF_THEN_LATER)
def test_with_a_rule_off_the_rules_after_it_still_fire(off: str, story: list[dict[str, Any]], later: str, legal: list[dict[str, Any]]) -> None:
    assert last_flag(eotm(*story)) == off  # by the official rules the rule off comes first
    assert last_flag(play_out(house(TABLE, off), *story)) == later
    assert last_flag(play_out(house(TABLE, off), *legal)) is None
