"""Senators: every rule id fires and is legal in its nearest case; whole turns as stories.

Anna (0), Ben (1) and Cem (2) start with 5 senators and 10, 13 and 16 money (10 for the
starting player, 3 more for each seat clockwise).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import events, flags, house, last_clash, last_flag, play_out, stood, table, told_of_clash
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.senators import set_payout
from referee.record import RecordError
from referee.replay import Fold, replay, report
from referee.simulate import senators_game

ANNA, BEN, CEM = 0, 1, 2
SEN = table("senators", "Anna Ben Cem")
EVENT = {"type": "event", "kind": "other"}
WAR = {"type": "event", "kind": "war"}


def ev(kind: str, seat: int | None = None, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **({} if seat is None else {"seat": seat}), **fields}


def game(*bodies: dict[str, Any], options: dict[str, Any] | None = None) -> Fold:
    header = table("senators", "Anna Ben Cem", options) if options else SEN
    return play_out(header, *bodies)


def money(fold: Fold) -> tuple[int, ...]:
    return fold.state.money


# An auction of red-3, blue-7 and green-1: Ben bids 4 on red-3, Cem 5 on red-3 and 2 on blue-7.
AUCTION = [
    EVENT,
    ev("auction", ANNA, cards=["red-3", "blue-7", "green-1"]),
    ev("bid", BEN, bids={"red-3": 4}),
    ev("bid", CEM, bids={"red-3": 5, "blue-7": 2}),
]


def test_an_auction_where_the_active_player_sells_one_card_and_buys_another() -> None:
    fold = game(*AUCTION, ev("decide", ANNA, card="red-3", choice="sell"), ev("decide", ANNA, card="blue-7", choice="buy"))
    assert flags(fold) == {}
    # sell red-3: Cem pays Anna 5 (Anna 10 + 5 = 15, Cem 16 - 5 = 11); buy blue-7: Anna
    # pays Cem 2 (Anna 15 - 2 = 13, Cem 11 + 2 = 13). green-1 had no bid: Anna's, free.
    assert money(fold) == (13, 13, 13)
    assert fold.state.places["red-3"] == ("up", CEM)
    assert fold.state.places["blue-7"] == ("up", ANNA) and fold.state.places["green-1"] == ("up", ANNA)
    assert fold.state.action_done


def test_sen_turn_bid_out_of_order_and_a_second_bid() -> None:
    assert last_flag(game(*AUCTION[:2], ev("bid", CEM, bids={}))) == "sen.turn"  # Ben bids first
    assert last_flag(game(*AUCTION[:3], ev("bid", BEN, bids={}))) == "sen.turn"  # Ben again
    assert last_flag(game(*AUCTION[:2], ev("bid", BEN, bids={}))) is None  # nearest legal: Ben passes


def test_sen_turn_an_action_before_the_event_and_a_second_action() -> None:
    assert last_flag(game(ev("blackmail", ANNA))) == "sen.turn"
    assert last_flag(game(EVENT, ev("blackmail", ANNA), ev("cash-in", ANNA))) == "sen.turn"
    assert last_flag(game(EVENT, ev("blackmail", ANNA))) is None


def test_sen_turn_an_event_while_the_action_is_unfinished() -> None:
    assert last_flag(game(*AUCTION, EVENT)) == "sen.turn"  # decisions missing
    assert last_flag(game(EVENT, EVENT)) == "sen.turn"  # no action yet
    assert last_flag(game(EVENT, ev("blackmail", ANNA), EVENT)) is None  # a blackmail ends with the next event


def test_the_next_event_is_the_next_players_turn() -> None:
    fold = game(EVENT, ev("blackmail", ANNA), EVENT)
    assert fold.state.active == BEN
    assert last_flag(game(EVENT, ev("blackmail", ANNA), EVENT, ev("blackmail", ANNA))) == "sen.turn"


def test_sen_turn_a_hand_after_the_first_event_or_twice() -> None:
    hand = ev("hand", ANNA, cards=["red-1", "blue-2", "green-3"])
    assert last_flag(game(EVENT, hand)) == "sen.turn"
    assert last_flag(game(hand, ev("hand", ANNA, cards=["red-4", "blue-5", "green-6"]))) == "sen.turn"
    assert last_flag(game(hand)) is None


def test_sen_eliminated_comes_before_everything_else() -> None:
    sold = [ev("sell-senator", CEM)] * 5  # Cem sells his last senator: out
    fold = game(*sold)
    assert fold.state.senators[CEM] == 0 and money(fold)[CEM] == 16 + 25
    assert last_flag(game(*sold, ev("sell-senator", CEM))) == "sen.eliminated"
    assert last_flag(game(*sold, ev("adjust", CEM, money=1, reason="gift"))) == "sen.eliminated"
    assert last_flag(game(*sold, ev("adjust", BEN, money=1, reason="gift"))) is None


def test_sen_action_order_answer_without_demand_and_decide_without_auction() -> None:
    assert last_flag(game(EVENT, ev("blackmail", ANNA), ev("answer", BEN, choice="sell"))) == "sen.action.order"
    assert last_flag(game(EVENT, ev("blackmail", ANNA), ev("decide", ANNA, card="red-3", choice="buy"))) == "sen.action.order"


def test_sen_action_order_demand_to_oneself_and_cashing_steps_by_others() -> None:
    blackmail = [*AUCTION, ev("decide", ANNA, card="red-3", choice="sell"), ev("decide", ANNA, card="blue-7", choice="sell"),
                 EVENT, ev("blackmail", BEN)]
    assert last_flag(game(*blackmail, ev("demand", BEN, target=BEN, card="red-3", price=2))) == "sen.action.order"
    assert last_flag(game(*blackmail, ev("demand", BEN, target=ANNA, card="green-1", price=2))) is None
    cash = [EVENT, ev("cash-in", ANNA)]
    assert last_flag(game(*cash, ev("done", ANNA))) == "sen.action.order"  # Ben and Cem first
    assert last_flag(game(*cash, ev("join", BEN, choice="pass"), ev("join", CEM, choice="pass"), ev("done", ANNA))) is None


def test_sen_auction_cards() -> None:
    four = ev("auction", ANNA, cards=["red-1", "red-2", "red-3", "red-4"])
    two_offices = ev("auction", ANNA, cards=["red-1", "office-censor", "office-consul"])
    assert last_flag(game(EVENT, four)) == "sen.auction.cards"
    assert last_flag(game(EVENT, two_offices)) == "sen.auction.cards"
    assert last_flag(game(EVENT, ev("auction", ANNA, cards=["red-1", "red-2", "red-3", "office-censor"]))) is None


def test_sen_card_unknown_a_card_seen_twice_or_an_office_not_in_play() -> None:
    hand = ev("hand", BEN, cards=["red-1", "blue-2", "green-3"])
    # Ben's hand is his secret: an auction of one of its cards is a clash for him and the host.
    clashing = game(hand, EVENT, ev("auction", ANNA, cards=["red-1"]))
    assert last_flag(clashing) is None and last_clash(clashing) == "sen.card.unknown"
    assert told_of_clash(clashing) == {BEN}
    assert last_clash(game(hand, EVENT, ev("auction", ANNA, cards=["red-2"]))) is None
    # A card the table has seen is public: auctioned twice, it is flagged.
    assert last_flag(game(EVENT, ev("auction", ANNA, cards=["red-1", "red-1"]))) == "sen.card.unknown"
    no_censor = {"offices": ["governor", "consul", "quaestor"]}
    assert last_flag(game(EVENT, ev("auction", ANNA, cards=["office-censor"]), options=no_censor)) == "sen.card.unknown"
    assert last_flag(game(hand, EVENT, ev("auction", ANNA, cards=["red-2", "office-consul"]), options=no_censor)) is None


def test_sen_card_owner_demands_take_only_face_up_cards() -> None:
    hand = ev("hand", BEN, cards=["red-1", "blue-2", "green-3"])
    fold = game(hand, EVENT, ev("blackmail", ANNA), ev("demand", ANNA, target=BEN, card="red-1", price=2))
    assert last_flag(fold) == "sen.card.owner"  # red-1 is in Ben's secret hand


def test_sen_bid_higher_and_sen_bid_card() -> None:
    assert last_flag(game(*AUCTION[:3], ev("bid", CEM, bids={"red-3": 4}))) == "sen.bid.higher"  # not above 4
    assert last_flag(game(*AUCTION[:2], ev("bid", BEN, bids={"red-3": 0}))) == "sen.bid.higher"  # below 1
    assert last_flag(game(*AUCTION[:2], ev("bid", BEN, bids={"red-4": 3}))) == "sen.bid.card"
    assert last_flag(game(*AUCTION[:3], ev("bid", CEM, bids={"red-3": 5}))) is None


def test_sen_bid_card_nearest_legal_case_bids_on_a_card_of_the_auction() -> None:
    assert last_flag(game(*AUCTION[:2], ev("bid", BEN, bids={"blue-7": 3}))) is None  # not sen.bid.card


def test_sen_decide_card_twice_or_without_a_bid() -> None:
    sold = [*AUCTION, ev("decide", ANNA, card="red-3", choice="sell")]
    assert last_flag(game(*sold, ev("decide", ANNA, card="red-3", choice="buy"))) == "sen.decide.card"
    assert last_flag(game(*sold, ev("decide", ANNA, card="green-1", choice="buy"))) == "sen.decide.card"
    assert last_flag(game(*sold, ev("decide", ANNA, card="blue-7", choice="buy"))) is None


def test_a_blackmail_where_one_target_sells_and_one_keeps() -> None:
    setup = [*AUCTION, ev("decide", ANNA, card="red-3", choice="sell"), ev("decide", ANNA, card="blue-7", choice="buy"),
             EVENT, ev("blackmail", BEN)]
    # After the auction: Anna 13 (green-1, blue-7 up), Ben 13, Cem 13 (red-3 up). Ben takes 3: 16.
    fold = game(*setup, ev("demand", BEN, target=ANNA, card="blue-7", price=4), ev("answer", ANNA, choice="sell"),
                ev("demand", BEN, target=CEM, card="red-3", price=6), ev("answer", CEM, choice="keep"))
    assert flags(fold) == {}
    # Anna sells: Ben pays 4 (Ben 16 - 4 = 12, Anna 13 + 4 = 17). Cem keeps: pays Ben 6
    # (Cem 13 - 6 = 7, Ben 12 + 6 = 18). Both cards now lie face down.
    assert money(fold) == (17, 18, 7)
    assert fold.state.places["blue-7"] == ("down", BEN) and fold.state.places["red-3"] == ("down", CEM)
    assert last_flag(game(*setup, ev("demand", BEN, target=ANNA, card="blue-7", price=4), ev("answer", ANNA, choice="sell"),
                          ev("demand", BEN, target=ANNA, card="green-1", price=1))) == "sen.demand.twice"
    assert last_flag(game(*setup, ev("demand", BEN, target=ANNA, card="blue-7", price=4), ev("answer", ANNA, choice="sell"),
                          ev("demand", BEN, target=CEM, card="red-3", price=1))) is None  # another player: no sen.demand.twice
    assert last_flag(game(*setup, ev("demand", BEN, target=ANNA, card="blue-7", price=4),
                          ev("demand", BEN, target=CEM, card="red-3", price=1))) == "sen.turn"  # one pending at a time
    assert last_flag(game(*setup, ev("demand", BEN, target=ANNA, card="blue-7", price=4), ev("answer", CEM, choice="sell"))) == "sen.turn"


HANDS = [
    ev("hand", ANNA, cards=["red-4", "red-5", "red-6"]),
    ev("hand", BEN, cards=["blue-2", "green-2", "yellow-2"]),
    ev("hand", CEM, cards=["purple-1", "orange-9", "green-5"]),
]


def test_a_cash_in_that_two_players_join_with_a_run_bonus_and_a_value_set() -> None:
    fold = game(*HANDS, EVENT, ev("cash-in", ANNA),
                ev("join", BEN, choice="pay"), ev("sell-set", BEN, cards=["blue-2", "green-2", "yellow-2"]),
                ev("buy-senators", BEN, count=1), ev("done", BEN),
                ev("join", CEM, choice="pay"), ev("done", CEM),
                ev("sell-set", ANNA, cards=["red-4", "red-5", "red-6"]), ev("buy-senators", ANNA, count=4), ev("done", ANNA))
    assert flags(fold) == {}
    # Ben pays Anna 5 (13 - 5 = 8), sells 2+2+2 = 6 (14), buys a senator for 10 (4).
    # Cem pays Anna 5 (16 - 5 = 11). Anna: 10 + 5 + 5 = 20, sells 4+5+6 = 15 + run bonus
    # 15 = 30 (50), buys 4 senators for 40 (10).
    assert money(fold) == (10, 4, 11)
    assert fold.state.senators == (9, 6, 5)
    assert fold.state.action_done


def test_sen_set_invalid_and_sen_money_short() -> None:
    # Anna holds red-4, red-5, red-6 (hand), blue-7 and green-1 (face up), and 13 money.
    cash = [*HANDS, *AUCTION, ev("decide", ANNA, card="red-3", choice="sell"), ev("decide", ANNA, card="blue-7", choice="buy"),
            EVENT, ev("blackmail", BEN), EVENT, ev("blackmail", CEM), EVENT,
            ev("cash-in", ANNA), ev("join", BEN, choice="pass"), ev("join", CEM, choice="pass")]
    assert last_flag(game(*cash, ev("sell-set", ANNA, cards=["red-4", "blue-7", "green-1"]))) == "sen.set.invalid"
    assert last_flag(game(*cash, ev("sell-set", ANNA, cards=["red-4", "red-5", "red-6"]))) is None
    assert last_flag(game(*cash, ev("buy-senators", ANNA, count=2))) == "sen.money.short"  # 20 > 13
    assert last_flag(game(*cash, ev("buy-senators", ANNA, count=1))) is None
    # red-7 is not in Anna's recorded hand: a clash for her and the host (the sale is public, her hand is not).
    not_hers = game(*cash, ev("sell-set", ANNA, cards=["red-4", "red-5", "red-7"]))
    assert last_flag(not_hers) is None and last_clash(not_hers) == "sen.card.owner"
    assert told_of_clash(not_hers) == {ANNA}
    # red-3 lies face up before Ben: everyone knows it is not Anna's.
    assert last_flag(game(*cash, ev("sell-set", ANNA, cards=["red-3", "red-4", "red-5"]))) == "sen.card.owner"


def test_sen_money_short_on_a_decide_names_the_payer() -> None:
    rich_bid = [EVENT, ev("auction", ANNA, cards=["red-3"]), ev("bid", BEN, bids={"red-3": 12}), ev("bid", CEM, bids={})]
    assert last_flag(game(*rich_bid, ev("decide", ANNA, card="red-3", choice="buy"))) == "sen.money.short"  # Anna has 10
    assert last_flag(game(*rich_bid, ev("decide", ANNA, card="red-3", choice="sell"))) is None  # Ben pays 12 of 13


def test_sen_money_short_and_sen_senators_none_on_an_adjust() -> None:
    assert last_flag(game(ev("adjust", ANNA, money=-11, reason="tax"))) == "sen.money.short"
    assert last_flag(game(ev("adjust", ANNA, money=-10, reason="tax"))) is None
    assert last_flag(game(ev("adjust", ANNA, senators=-6, reason="plague"))) == "sen.senators.none"
    assert last_flag(game(ev("adjust", ANNA, senators=-4, reason="plague"))) is None  # nearest legal case of sen.senators.none


def test_a_governor_set_counts_the_value_that_pays_most() -> None:
    # red-4, red-5 and the red governor: as red-6 or red-3 it makes a run: 4+5+6 + 15 = 30.
    assert set_payout(["red-4", "red-5", "office-governor-red"], quaestor=False) == 30
    assert set_payout(["red-4", "red-5", "office-governor-blue"], quaestor=False) is None
    auction = [*HANDS[1:], EVENT, ev("auction", ANNA, cards=["red-4", "red-5", "office-governor-red"]),
               ev("bid", BEN, bids={}), ev("bid", CEM, bids={}), EVENT, ev("blackmail", BEN), EVENT, ev("blackmail", CEM), EVENT,
               ev("cash-in", ANNA), ev("join", BEN, choice="pass"), ev("join", CEM, choice="pass")]
    fold = game(*auction, ev("sell-set", ANNA, cards=["red-4", "red-5", "office-governor-red"]))
    assert flags(fold) == {} and money(fold)[ANNA] == 10 + 30
    assert fold.state.places["office-governor-red"] == ("out", -1)


def test_a_quaestor_set_is_any_three_resource_cards_without_bonus() -> None:
    start = [*HANDS[1:], EVENT, ev("auction", ANNA, cards=["red-4", "blue-9", "green-1", "office-quaestor"]),
             ev("bid", BEN, bids={}), ev("bid", CEM, bids={}), EVENT, ev("blackmail", BEN), EVENT, ev("blackmail", CEM), EVENT,
             ev("cash-in", ANNA), ev("join", BEN, choice="pass"), ev("join", CEM, choice="pass")]
    fold = game(*start, ev("sell-set", ANNA, cards=["red-4", "blue-9", "green-1"], office="office-quaestor"))
    assert flags(fold) == {} and money(fold)[ANNA] == 10 + 4 + 9 + 1
    without = game(*start, ev("sell-set", ANNA, cards=["red-4", "blue-9", "green-1"]))
    assert last_flag(without) == "sen.set.invalid"


def test_the_consul_price_holds_for_the_rest_of_the_cash_in() -> None:
    start = [EVENT, ev("auction", ANNA, cards=["office-consul"]), ev("bid", BEN, bids={}), ev("bid", CEM, bids={}),
             EVENT, ev("blackmail", BEN), EVENT, ev("blackmail", CEM), EVENT,
             ev("cash-in", ANNA), ev("join", BEN, choice="pass"), ev("join", CEM, choice="pass")]
    fold = game(*start, ev("buy-senators", ANNA, count=1, office="office-consul"), ev("buy-senators", ANNA, count=1))
    # consul_price 5: two senators for 5 each, 10 - 10 = 0.
    assert flags(fold) == {} and money(fold)[ANNA] == 0 and fold.state.senators[ANNA] == 7
    assert last_flag(game(*start, ev("buy-senators", ANNA, count=1, office="office-consul"), ev("done", ANNA),
                          EVENT, ev("cash-in", BEN), ev("join", CEM, choice="pass"), ev("join", ANNA, choice="pass"),
                          ev("buy-senators", BEN, count=1, office="office-consul"))) == "sen.card.owner"


def test_an_elimination_mid_turn_ends_the_auction_and_passes_the_turn() -> None:
    bids = [EVENT, ev("auction", ANNA, cards=["red-3", "blue-4"]), ev("bid", BEN, bids={"red-3": 2})]
    fold = game(*bids, *[ev("sell-senator", ANNA)] * 5)
    assert flags(fold) == {}
    assert fold.state.places["red-3"] == ("out", -1) and fold.state.action_done
    after = game(*bids, *[ev("sell-senator", ANNA)] * 5, EVENT)
    assert after.state.active == BEN
    # an eliminated bidder leaves the queue: Cem's bid is the last
    out = game(EVENT, ev("auction", ANNA, cards=["red-3"]), *[ev("sell-senator", BEN)] * 5, ev("bid", CEM, bids={"red-3": 1}))
    assert flags(out) == {} and out.state.action.deciding


def test_a_whole_game_to_the_4th_war() -> None:
    turns = []
    for kind in ("war", "war", "other", "war"):
        turns += [{"type": "event", "kind": kind}, ev("blackmail", len(turns) // 2 % 3)]
    fold = game(*turns, WAR)
    assert fold.outcome is not None and fold.outcome.reason == "the 4th war was drawn"
    shown = report(fold)
    # Anna, Ben, Cem, Anna blackmailed (+3 each time): money 16, 16, 19; senators all 5.
    assert shown["scores"] == {"Anna": 5, "Ben": 5, "Cem": 5}
    assert shown["ranking"] == [["Cem"], ["Anna", "Ben"]]  # senators tie: more money wins; 16 = 16 share
    assert shown["result"]["money"] == {"Anna": 16, "Ben": 16, "Cem": 19}
    assert last_flag(game(*turns, WAR, ev("blackmail", BEN))) == "core.game.over"


def test_a_whole_game_to_the_last_senator_standing() -> None:
    fold = game(*[ev("sell-senator", BEN)] * 5, *[ev("sell-senator", CEM)] * 5)
    assert fold.outcome is not None and fold.outcome.reason == "only one player has senators left"
    assert report(fold)["ranking"] == [["Anna"], ["Cem"], ["Ben"]]  # 0 senators each: Cem 41 beats Ben 38


def test_money_stays_secret_until_the_end() -> None:
    fold = game(EVENT, ev("blackmail", ANNA))
    assert "money" not in report(fold)["result"] and "money" not in fold.view(None)
    assert fold.view(ANNA)["my_money"] == 13 and "my_money" not in fold.view(None)


@pytest.mark.parametrize(
    "body, field",
    [
        (ev("hand", ANNA, cards=["red-10", "blue-2", "green-3"]), "cards"),
        (ev("hand", ANNA, cards=["red-1", "blue-2"]), "cards"),
        (ev("hand", ANNA, cards=["red-1", "blue-2", "office-censor"]), "cards"),
        (ev("auction", ANNA, cards=[]), "cards"),
        (ev("auction", ANNA, cards=["office-king"]), "cards"),
        (ev("auction", ANNA, cards=["pink-3"]), "cards"),
        (ev("sell-set", ANNA, cards=["red-1", "red-2"]), "cards"),
        (ev("buy-senators", ANNA, count=0), "count"),
        (ev("demand", ANNA, target=BEN, card="red-1", price=0), "price"),
    ],
)
def test_format_errors_of_the_material(body: dict[str, Any], field: str) -> None:
    with pytest.raises(RecordError, match=field):
        events(SEN, body)


def test_colours_are_an_option() -> None:
    header = table("senators", "Anna Ben Cem", {"colours": ["a", "b", "c", "d", "e", "pink"]})
    assert events(header, ev("auction", ANNA, cards=["pink-3"]))
    with pytest.raises(RecordError, match="not a card"):
        events(header, ev("auction", ANNA, cards=["red-3"]))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 5), hands=st.booleans())
def test_random_legal_games_are_never_flagged_and_money_never_goes_negative(seed: int, players: int, hands: bool) -> None:
    header, body = senators_game(["Anna", "Ben", "Cem", "Dora", "Emil"][:players], seed=seed, hands=hands)
    fold = replay(header, events(header, *[{k: v for k, v in e.items() if k != "seq"} for e in body]))
    assert fold.violations == () and fold.outcome is not None
    for turn in report(fold)["result"]["turns"]:
        assert min(turn["money"].values()) >= 0


def test_the_view_names_who_the_table_waits_for_at_every_step_of_a_turn() -> None:
    # Anna is the active player, but the table waits for Ben's bid, then Cem's; then Anna
    # decides; then nobody (the host draws the next event card). Ben blackmails next: nobody
    # (Ben may demand), Anna answers his demand, then nobody again. Cem cashes in: Anna, then Ben join or pass, then Cem cashes in.
    def waiting(*bodies: dict[str, Any]) -> list[str]:
        fold = game(*bodies)
        assert flags(fold) == {}, flags(fold)
        return fold.game.view(fold.state, None)["to_act"]

    assert waiting() == []
    assert waiting(EVENT) == ["Anna"]
    assert waiting(*AUCTION[:2]) == ["Ben"]
    assert waiting(*AUCTION[:3]) == ["Cem"]
    assert waiting(*AUCTION) == ["Anna"]
    done = [*AUCTION, ev("decide", ANNA, card="red-3", choice="sell"), ev("decide", ANNA, card="blue-7", choice="buy")]
    assert waiting(*done) == []
    blackmail = [*done, EVENT, ev("blackmail", BEN)]
    # A blackmail has no closing event: the table waits for the event card, and Ben may demand.
    assert waiting(*blackmail) == []
    assert game(*blackmail).game.view(game(*blackmail).state, None)["may_act"] == ["Ben"]
    demand = [*blackmail, ev("demand", BEN, target=ANNA, card="blue-7", price=2)]
    assert waiting(*demand) == ["Anna"]
    answered = [*demand, ev("answer", ANNA, choice="sell")]
    assert waiting(*answered) == [] and game(*answered).game.view(game(*answered).state, None)["may_act"] == ["Ben"]
    cash_in = [*blackmail, EVENT, ev("cash-in", CEM)]
    assert waiting(*cash_in) == ["Anna"]
    assert waiting(*cash_in, ev("join", ANNA, choice="pass")) == ["Ben"]
    assert waiting(*cash_in, ev("join", ANNA, choice="pass"), ev("join", BEN, choice="pay")) == ["Ben"]  # Ben cashes in first
    assert waiting(*cash_in, ev("join", ANNA, choice="pass"), ev("join", BEN, choice="pass")) == ["Cem"]


# --- the table decides: moves that stand by a ruling or a house rule -------------------

DORA = 3
SEN4 = table("senators", "Anna Ben Cem Dora")  # money 10, 13, 16, 19
AUCTION4 = [EVENT, ev("auction", ANNA, cards=["red-3", "blue-7"])]
STANDS = ["ruling", "house rule"]


@pytest.mark.parametrize("how", STANDS)
def test_a_bid_out_of_order_that_stands_hands_the_bidding_on_from_the_bidder(how: str) -> None:
    # Anna auctions; Cem bids before Ben. It stands: Dora bids next, and Ben, passed over,
    # keeps his bid for when the order comes round to him.
    cem_first = ev("bid", CEM, bids={"red-3": 2})
    fold = stood(how, "sen.turn", SEN4, AUCTION4, cem_first)
    assert fold.view(None)["auction"]["next_bidder"] == "Dora"
    fold = stood(how, "sen.turn", SEN4, AUCTION4, cem_first, ev("bid", DORA, bids={"red-3": 3}), ev("bid", BEN, bids={"red-3": 4}))
    assert flags(fold) == {} and fold.state.action.high["red-3"] == (4, BEN) and fold.state.action.deciding
    if how == "ruling":  # Ben's bid before Dora's is out of order again
        assert last_flag(stood(how, "sen.turn", SEN4, AUCTION4, cem_first, ev("bid", BEN, bids={}))) == "sen.turn"


@pytest.mark.parametrize("how", STANDS)
def test_an_action_by_another_seat_that_stands_makes_him_the_active_player(how: str) -> None:
    fold = stood(how, "sen.turn", SEN, [EVENT], ev("blackmail", BEN), EVENT)
    assert flags(fold) == {} and money(fold) == (10, 16, 16) and fold.state.active == CEM  # play goes on from Ben


@pytest.mark.parametrize("how", STANDS)
def test_a_bid_not_higher_that_stands_is_the_high_bid_and_its_bidder_holds_it(how: str) -> None:
    # Ben bids 4 on red-3; Cem's 3 is not higher, but stands: Anna sells red-3 to Cem for 3.
    fold = stood(how, "sen.bid.higher", SEN, AUCTION[:3], ev("bid", CEM, bids={"red-3": 3}), ev("decide", ANNA, card="red-3", choice="sell"))
    assert flags(fold) == {} and fold.state.places["red-3"] == ("up", CEM) and money(fold) == (13, 13, 13)


@pytest.mark.parametrize("how", STANDS)
def test_an_auction_of_four_cards_that_stands_auctions_every_card_it_names(how: str) -> None:
    four = ev("auction", ANNA, cards=["red-1", "red-2", "red-3", "red-4"])
    fold = stood(how, "sen.auction.cards", SEN, [EVENT], four, ev("bid", BEN, bids={"red-4": 2}), ev("bid", CEM, bids={}),
                 ev("decide", ANNA, card="red-4", choice="sell"))
    assert flags(fold) == {} and fold.state.places["red-4"] == ("up", BEN) and fold.state.cards_of(ANNA, "up") == ["red-1", "red-2", "red-3"]


@pytest.mark.parametrize("how", STANDS)
def test_three_cards_that_are_no_set_sold_by_the_tables_leave_pay_the_values_they_name(how: str) -> None:
    cash = [EVENT, ev("cash-in", ANNA), ev("join", BEN, choice="pass"), ev("join", CEM, choice="pass")]
    fold = stood(how, "sen.set.invalid", SEN, cash, ev("sell-set", ANNA, cards=["red-1", "blue-5", "green-9"]))
    assert money(fold)[ANNA] == 10 + 1 + 5 + 9


NO_MEANING = {  # a move with no meaning where it stands: the rule it breaks, the record before it, the move
    "a bid after the bidding": ("sen.turn", AUCTION, ev("bid", BEN, bids={"red-3": 9})),
    "a decide while the bids are still coming": ("sen.action.order", AUCTION[:3], ev("decide", ANNA, card="red-3", choice="sell")),
    "a second decide of one card": ("sen.decide.card", [*AUCTION, ev("decide", ANNA, card="red-3", choice="sell")],
                                    ev("decide", ANNA, card="red-3", choice="buy")),
    "an answer with no demand": ("sen.action.order", [EVENT, ev("blackmail", ANNA)], ev("answer", BEN, choice="keep")),
}


@pytest.mark.parametrize("how", STANDS)
@pytest.mark.parametrize("case", sorted(NO_MEANING))
def test_a_move_with_no_meaning_that_stands_changes_nothing(case: str, how: str) -> None:
    rule, before, move = NO_MEANING[case]
    fold = stood(how, rule, SEN, before, move)
    assert fold.state == game(*before).state and fold.violations == ()
    if how == "ruling":
        assert [(r["rule"], r["applied"]) for r in report(fold)["ruled"]] == [(rule, False)]


CASH = [EVENT, ev("cash-in", ANNA)]
BLACKMAIL = [*AUCTION, ev("decide", ANNA, card="red-3", choice="sell"), ev("decide", ANNA, card="blue-7", choice="sell"),
             EVENT, ev("blackmail", BEN)]  # Cem holds red-3 and blue-7 face up, with 16 - 5 - 2 = 9; Ben 13 + 3 = 16
POOR_CEM = table("senators", "Anna Ben Cem", {"money": [10, 13, 2]})
OFF_THEN_LATER = [  # the rule off, the table, the record, its last move breaking it and `fires`, the nearest legal move
    ("sen.eliminated", SEN, [*[ev("sell-senator", CEM)] * 5], ev("adjust", CEM, money=-42, reason="fine"), "sen.money.short",
     ev("adjust", CEM, money=-41, reason="fine")),
    ("sen.turn", SEN, AUCTION[:2], ev("bid", CEM, bids={"red-3": 0}), "sen.bid.higher", ev("bid", CEM, bids={"red-3": 1})),
    ("sen.turn", SEN, AUCTION, ev("bid", BEN, bids={"yellow-9": 1}), "sen.bid.card", ev("bid", BEN, bids={})),
    ("sen.turn", POOR_CEM, CASH, ev("join", CEM, choice="pay"), "sen.money.short", ev("join", CEM, choice="pass")),
    ("sen.turn", SEN, [*BLACKMAIL, ev("demand", BEN, target=CEM, card="red-3", price=12)], ev("answer", ANNA, choice="keep"),
     "sen.money.short", ev("answer", ANNA, choice="sell")),
    ("sen.action.order", SEN, CASH, ev("sell-set", BEN, cards=["red-1", "blue-5", "green-9"]), "sen.set.invalid",
     ev("sell-set", BEN, cards=["red-1", "red-2", "red-3"])),
    ("sen.auction.cards", SEN, [EVENT], ev("auction", ANNA, cards=["red-1", "red-2", "red-3", "red-1"]), "sen.card.unknown",
     ev("auction", ANNA, cards=["red-1", "red-2", "red-3", "red-4"])),
    ("sen.card.owner", SEN, [*BLACKMAIL, ev("demand", BEN, target=CEM, card="red-3", price=1), ev("answer", CEM, choice="keep")],
     ev("demand", BEN, target=CEM, card="red-3", price=1), "sen.demand.twice", ev("demand", BEN, target=ANNA, card="red-3", price=1)),
    ("sen.bid.higher", SEN, AUCTION[:3], ev("bid", CEM, bids={"red-3": 4, "yellow-9": 1}), "sen.bid.card", ev("bid", CEM, bids={"red-3": 4})),
    ("sen.money.short", SEN, [], ev("adjust", ANNA, money=-11, senators=-6, reason="plague"), "sen.senators.none",
     ev("adjust", ANNA, money=-11, senators=-5, reason="plague")),
]


@pytest.mark.parametrize(("off", "header", "before", "move", "fires", "legal"), OFF_THEN_LATER, ids=[f"{c[0]}-{c[4]}" for c in OFF_THEN_LATER])
def test_with_a_rule_off_the_checks_after_it_still_run(off: str, header: Any, before: list[dict[str, Any]], move: dict[str, Any],
                                                       fires: str, legal: dict[str, Any]) -> None:
    assert last_flag(play_out(header, *before, move)) == off  # by the official rules the first broken rule is the one turned off
    relaxed = house(header, off)
    assert last_flag(play_out(relaxed, *before, move)) == fires
    assert last_flag(play_out(relaxed, *before, legal)) is None  # the nearest legal case at that table


# --- the classic contract: a player out while his bid or a demand to him stands ----------


def test_an_eliminated_bidders_bids_are_withdrawn_and_the_highest_left_holds() -> None:
    # Ben bids 4 on red-3; Cem 5 on red-3 and 2 on blue-7; then Cem sells his last senator.
    fold = game(*AUCTION, *[ev("sell-senator", CEM)] * 5)
    auction = fold.state.action
    assert flags(fold) == {} and auction.high == {"red-3": (4, BEN)} and auction.open_decisions == ["red-3"]
    assert fold.state.places["blue-7"] == ("up", ANNA)  # no bid left on it: Anna's, free, like green-1
    fold = game(*AUCTION, *[ev("sell-senator", CEM)] * 5, ev("decide", ANNA, card="red-3", choice="sell"), EVENT)
    assert flags(fold) == {} and fold.state.places["red-3"] == ("up", BEN) and money(fold)[:2] == (14, 9)
    # Out before his bid: the bidding is over once Ben has bid.
    assert game(*AUCTION[:3], *[ev("sell-senator", CEM)] * 5).state.action.deciding


def test_a_demand_to_a_player_eliminated_before_he_answers_is_dropped_and_the_blackmail_ends() -> None:
    demanded = [*BLACKMAIL, ev("demand", BEN, target=CEM, card="red-3", price=2), *[ev("sell-senator", CEM)] * 5]
    fold = game(*demanded)
    assert fold.state.action.pending is None and fold.view(None)["to_act"] == []
    fold = game(*demanded, EVENT)  # the next event card: Cem is out, so it is Anna's turn
    assert flags(fold) == {} and fold.state.active == ANNA
