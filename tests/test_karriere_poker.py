"""Karriere Poker: every rule id fires, and the nearest legal situation passes.

Seats: Anna 0, Ben 1, Cem 2, Dora 3 (and Emil 4 at five). GAME_1 is a scripted first game
dealt by Dora in which Anna, Ben, Cem go out in that order: Anna is Boss, Ben
Geschäftsführer, Cem Manager, Dora Tellerwäscher.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import flags, house, last_clash, last_flag, stood, told_of_clash, play_out, table
from kp_helpers import deal, exchange, finish_game, hand, match, pass_, play

from referee.games.karriere_poker import EXCHANGE_COUNTS
from referee.replay import Fold, report

KP = table("karriere-poker", "Anna Ben Cem Dora")
ANNA, BEN, CEM, DORA, EMIL = range(5)

GAME_1: list[dict[str, Any]] = [
    deal(DORA),  # Anna, left of the dealer, leads
    play(ANNA, 1, 1, 1, 1), pass_(BEN), pass_(CEM), pass_(DORA),
    play(ANNA, 2, 2, 2, 2), pass_(BEN), pass_(CEM), pass_(DORA),
    play(ANNA, 3, 3, 3, 3), pass_(BEN), pass_(CEM), pass_(DORA),
    play(ANNA, 4), pass_(BEN), pass_(CEM), pass_(DORA),  # Anna out: Boss; Dora (to her right) leads
    play(DORA, 5), play(BEN, 6), pass_(CEM),  # Ben wins the round
    play(BEN, 7, 7, 7, 7), pass_(CEM), pass_(DORA),
    play(BEN, 8, 8, 8, 8), pass_(CEM), pass_(DORA),
    play(BEN, 9, 9, 9, 9), pass_(CEM), pass_(DORA),  # Ben out; right of him Anna is out: Dora leads
    play(DORA, 10), play(CEM, 11),
    play(CEM, 12, 12, 12, 12), pass_(DORA),
    play(CEM, 13, 13, 13, 13), pass_(DORA),
    play(CEM, 11, 11, 11), pass_(DORA),
    play(CEM, "J"),  # Cem out with Dora still to act: the game ends at once
]
GAME_2_EXCHANGES = [exchange(ANNA, DORA, count=2), exchange(DORA, ANNA, count=2),
                    exchange(BEN, CEM, count=1), exchange(CEM, BEN, count=1)]


def kp(*bodies: dict[str, Any], seats: str = "Anna Ben Cem Dora", **options: Any) -> Fold:
    return play_out(table("karriere-poker", seats, options), *bodies)


# --- scenarios -----------------------------------------------------------------------------


def test_scripted_first_game_gives_positions_in_the_order_players_went_out() -> None:
    fold = kp(*GAME_1)
    assert flags(fold) == {}
    assert fold.state.finished == ((ANNA, BEN, CEM, DORA),)
    assert fold.result().ranking == [["Anna"], ["Ben"], ["Cem"], ["Dora"]]
    finish = fold.result().detail["games"][0]["finish"]
    assert finish == [
        {"position": "Boss", "player": "Anna"},
        {"position": "Geschäftsführer", "player": "Ben"},
        {"position": "Manager", "player": "Cem"},
        {"position": "Tellerwäscher", "player": "Dora"},
    ]


def test_the_game_ends_inside_a_round_when_one_player_still_holds_cards() -> None:
    # Cem's joker was his last card; Dora never got her turn in that round.
    fold = kp(*GAME_1, pass_(DORA))
    assert fold.state.playing is False
    assert last_flag(fold) == "kp.deal.missing"


def test_the_player_to_the_dealers_left_leads_game_1() -> None:
    assert kp(deal(BEN), play(CEM, 5)).violations == ()
    assert last_flag(kp(deal(BEN), play(ANNA, 5))) == "kp.turn"


def test_game_1_successor_is_the_next_player_counter_clockwise_with_cards() -> None:
    # Anna goes out winning a round: Dora, to her right, leads (GAME_1 seq 18).
    fold = kp(*GAME_1[:17])
    assert fold.state.leader == DORA
    # Ben goes out winning a round: Anna to his right is out, so Dora leads.
    fold = kp(*GAME_1[:29])
    assert fold.state.sizes[BEN] == 0 and fold.state.leader == DORA


def test_from_game_2_players_sit_by_rank_and_the_boss_leads() -> None:
    # Game 1 finish: Cem, Anna, Dora, Ben -> game 2 order Cem, Anna, Dora, Ben.
    bodies = [*match(KP, [CEM, ANNA, DORA, BEN]), deal()]
    bodies += [exchange(g, r, count=c) for g, r, c in kp(*bodies).state.exchanges_missing()]
    fold = kp(*bodies)
    assert fold.state.order == (CEM, ANNA, DORA, BEN)
    assert fold.state.turn == CEM
    fold = kp(*bodies, play(CEM, 5), play(ANNA, 6), play(DORA, 7), pass_(BEN))
    assert flags(fold) == {}
    assert fold.state.leader == DORA  # Dora played highest


def game_2(*bodies: dict[str, Any]) -> Fold:
    """Game 2 after GAME_1: Dora (Tellerwäscher) deals; the pairs exchange by count."""
    return kp(*GAME_1, deal(), *GAME_2_EXCHANGES, *bodies)


def test_game_2_successor_branch_1_the_direct_superior_leads() -> None:
    # Cem (Manager) wins a round with his last cards: Ben (Geschäftsführer) leads next.
    fold = game_2(
        play(ANNA, 1), pass_(BEN), play(CEM, 2), pass_(DORA),
        play(CEM, 3, 3, 3, 3), pass_(DORA), pass_(ANNA), pass_(BEN),
        play(CEM, 4, 4, 4, 4), pass_(DORA), pass_(ANNA), pass_(BEN),
        play(CEM, 5, 5, 5, 5), pass_(DORA), pass_(ANNA), pass_(BEN),
    )
    assert flags(fold) == {}
    assert fold.state.sizes[CEM] == 0 and fold.state.leader == BEN


def test_game_2_successor_branch_2_the_direct_subordinate_leads() -> None:
    # Ben goes out first (Anna, his superior, then leads); Cem goes out winning a round:
    # his superior Ben is out, so his subordinate Dora leads.
    ben_out = [
        play(ANNA, 1), play(BEN, 2), pass_(CEM), pass_(DORA),
        play(BEN, 3, 3, 3, 3), pass_(CEM), pass_(DORA), pass_(ANNA),
        play(BEN, 4, 4, 4, 4), pass_(CEM), pass_(DORA), pass_(ANNA),
        play(BEN, 5, 5, 5, 5), pass_(CEM), pass_(DORA), pass_(ANNA),
    ]
    assert game_2(*ben_out).state.leader == ANNA  # branch 1 for Ben: the Boss is his superior
    fold = game_2(*ben_out,
                  play(ANNA, 6), play(CEM, 7), pass_(DORA),
                  play(CEM, 8, 8, 8, 8), pass_(DORA), pass_(ANNA),
                  play(CEM, 9, 9, 9, 9), pass_(DORA), pass_(ANNA),
                  play(CEM, 10, 10, 10, 10), pass_(DORA), pass_(ANNA))
    assert flags(fold) == {}
    assert fold.state.sizes[CEM] == 0 and fold.state.leader == DORA


def test_game_2_successor_branch_3_the_best_ranked_player_with_cards_leads() -> None:
    five = table("karriere-poker", "Anna Ben Cem Dora Emil")
    game_1 = match(five, [ANNA, BEN, CEM, DORA, EMIL], dealer=EMIL)
    bodies = [
        *game_1, deal(),
        exchange(ANNA, EMIL, count=2), exchange(EMIL, ANNA, count=2),
        exchange(BEN, DORA, count=1), exchange(DORA, BEN, count=1),
        play(ANNA, 1), play(BEN, 2), pass_(CEM), pass_(DORA), pass_(EMIL),
        play(BEN, 3, 3, 3, 3, 3), pass_(CEM), pass_(DORA), pass_(EMIL), pass_(ANNA),
        play(BEN, 4, 4, 4, 4, 4), pass_(CEM), pass_(DORA), pass_(EMIL), pass_(ANNA),
        play(BEN, 5, 5), pass_(CEM), pass_(DORA), pass_(EMIL), pass_(ANNA),  # Ben out
        play(ANNA, 6), pass_(CEM), play(DORA, 7), pass_(EMIL),
        play(DORA, 8, 8, 8, 8, 8), pass_(EMIL), pass_(ANNA), pass_(CEM),
        play(DORA, 9, 9, 9, 9, 9), pass_(EMIL), pass_(ANNA), pass_(CEM),
        play(DORA, 10, 10), pass_(EMIL), pass_(ANNA), pass_(CEM),  # Dora out: Cem (superior) leads
        play(CEM, 11), pass_(EMIL), pass_(ANNA),
        play(CEM, 12, 12, 12, 12, 12), pass_(EMIL), pass_(ANNA),
        play(CEM, 13, 13, 13, 13, 13), pass_(EMIL), pass_(ANNA),
        play(CEM, "J", "J"), pass_(EMIL), pass_(ANNA),  # Cem out: Ben and Dora are out too
    ]
    fold = play_out(five, *bodies)
    assert flags(fold) == {}
    assert fold.state.out == (BEN, DORA, CEM)
    assert fold.state.leader == ANNA  # the best-ranked player still holding cards


def test_jokers_take_the_number_they_are_played_with() -> None:
    opening = [deal(DORA), play(ANNA, 8, 8)]
    assert last_flag(kp(*opening, play(BEN, 9, "J"))) is None
    assert last_flag(kp(*opening, play(BEN, 8, "J"))) == "kp.raise.higher"


def test_jokers_alone_beat_13_and_nothing_beats_them() -> None:
    assert last_flag(kp(deal(DORA), play(ANNA, 13), play(BEN, "J"))) is None
    assert last_flag(kp(deal(DORA), play(ANNA, "J"), play(BEN, "J"))) == "kp.raise.higher"
    assert last_flag(kp(deal(DORA), play(ANNA, 13, 13), play(BEN, 13, "J"))) == "kp.raise.higher"


def test_each_player_gets_exactly_one_turn_per_round() -> None:
    # Anna leads, Ben, Cem, Dora act once each; then Dora (highest) leads a new round.
    orbit = [deal(DORA), play(ANNA, 2), play(BEN, 3), pass_(CEM), play(DORA, 5)]
    assert kp(*orbit).state.leader == DORA
    assert last_flag(kp(*orbit, play(ANNA, 6))) == "kp.turn"
    assert last_flag(kp(*orbit, play(DORA, 6))) is None


def test_a_full_four_player_match_of_three_games() -> None:
    header = table("karriere-poker", "Anna Ben Cem Dora", {"end": {"kind": "games", "count": 3}})
    bodies = match(header, [ANNA, BEN, CEM, DORA], [BEN, DORA, ANNA, CEM], [DORA, ANNA, CEM, BEN])
    fold = play_out(header, *bodies)
    assert flags(fold) == {}
    assert fold.outcome is not None and "Dora is Boss and wins" in fold.outcome.reason
    detail = fold.result().detail
    assert detail["winner"] == "Dora" and detail["loser"] is None
    assert detail["boss_games"] == {"Anna": 1, "Ben": 1, "Cem": 0, "Dora": 1}
    assert detail["dishwasher_games"] == {"Anna": 0, "Ben": 1, "Cem": 1, "Dora": 1}
    assert [g["dealer"] for g in detail["games"]] == ["Dora", "Dora", "Cem"]
    assert report(fold)["ranking"] == [["Dora"], ["Anna"], ["Cem"], ["Ben"]]
    assert last_flag(play_out(header, *bodies, deal())) == "core.game.over"


# --- the exchange --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "pairs"),
    [
        (4, [(1, 4, 2), (2, 3, 1)]),
        (5, [(1, 5, 2), (2, 4, 1)]),
        (6, [(1, 6, 3), (2, 5, 2), (3, 4, 1)]),
        (7, [(1, 7, 3), (2, 6, 2), (3, 5, 1)]),
        (8, [(1, 8, 4), (2, 7, 3), (3, 6, 2), (4, 5, 1)]),
    ],
)
def test_exchange_table_for_the_next_game(players: int, pairs: list[tuple[int, int, int]]) -> None:
    # Game 1 finishes in reverse seat order: position k is held by seat n-k.
    names = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay", "Gus", "Hal"][:players]
    header = table("karriere-poker", names)
    order = list(reversed(range(players)))
    fold = play_out(header, *match(header, order, dealer=0))
    shown = fold.result().detail["next_exchange"]
    expected = [
        {"better": names[players - a], "worse": names[players - b], "count": c} for a, b, c in pairs
    ]
    assert [{k: row[k] for k in ("better", "worse", "count")} for row in shown] == expected
    assert shown[0]["better_position"] == "Boss" and shown[0]["worse_position"] == "Tellerwäscher"
    assert len(EXCHANGE_COUNTS[players]) == len(pairs)


def test_kp_exchange_pair_fires_for_seats_that_are_not_a_pair() -> None:
    assert last_flag(game_2()) is None
    fold = kp(*GAME_1, deal(), exchange(ANNA, BEN, count=2))
    assert last_flag(fold) == "kp.exchange.pair"
    assert fold.violations[-1][1].message == "Anna exchanges with Dora, not with Ben."


def test_kp_exchange_pair_fires_for_a_pair_exchanging_twice() -> None:
    assert last_flag(kp(*GAME_1, deal(), exchange(ANNA, DORA, count=2))) is None
    assert last_flag(kp(*GAME_1, deal(), exchange(ANNA, DORA, count=2), exchange(ANNA, DORA, count=2))) == "kp.exchange.pair"


def test_kp_exchange_pair_fires_in_game_1_and_for_the_middle_seat_at_five() -> None:
    assert last_flag(kp(deal(DORA), exchange(ANNA, DORA, count=2))) == "kp.exchange.pair"
    five = table("karriere-poker", "Anna Ben Cem Dora Emil")
    bodies = [*match(five, [ANNA, BEN, CEM, DORA, EMIL], dealer=EMIL), deal()]
    assert last_flag(play_out(five, *bodies, exchange(CEM, ANNA, count=1))) == "kp.exchange.pair"
    assert last_flag(play_out(five, *bodies, exchange(BEN, DORA, count=1))) is None


def test_kp_exchange_count() -> None:
    assert last_flag(kp(*GAME_1, deal(), exchange(ANNA, DORA, count=1))) == "kp.exchange.count"
    assert last_flag(kp(*GAME_1, deal(), exchange(BEN, CEM, 5, 6))) == "kp.exchange.count"
    assert last_flag(kp(*GAME_1, deal(), exchange(BEN, CEM, 5))) is None


def test_kp_exchange_missing() -> None:
    """kp.exchange.missing: no play until every pair has exchanged."""
    assert last_flag(kp(*GAME_1, deal(), *GAME_2_EXCHANGES[:3], play(ANNA, 5))) == "kp.exchange.missing"
    assert last_flag(kp(*GAME_1, deal(), *GAME_2_EXCHANGES, play(ANNA, 5))) is None


ANNA_DEALT = [1, 2, 2, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13]
DORA_DEALT = [1, 3, 4, 4, 6, 6, 7, 8, 9, 10, 12, 13, "J", "J", 11]  # 15 cards: she dealt


# The exchange is public, the hand it is judged against private: kp.exchange.cards is a
# clash (seen by the host and the giver until the reveal), never a flag.


def test_kp_exchange_cards_the_better_player_gives_his_lowest() -> None:
    known = [*GAME_1, deal(), hand(ANNA, *ANNA_DEALT)]
    assert last_clash(kp(*known, exchange(ANNA, DORA, 1, 2))) is None
    fold = kp(*known, exchange(ANNA, DORA, 2, 5))
    assert last_flag(fold) is None and last_clash(fold) == "kp.exchange.cards"
    assert fold.clashes[-1][1].message == "Anna must give Dora the 2 lowest cards dealt (1, 2), not 2, 5."
    assert told_of_clash(fold) == {ANNA}  # her own hand shows it: nobody else's


def test_kp_exchange_cards_the_worse_player_gives_his_highest_jokers_first() -> None:
    known = [*GAME_1, deal(), hand(DORA, *DORA_DEALT)]
    assert last_clash(kp(*known, exchange(DORA, ANNA, "J", "J"))) is None
    assert last_clash(kp(*known, exchange(DORA, ANNA, 13, 12))) == "kp.exchange.cards"


def test_both_directions_are_judged_against_the_hands_as_dealt() -> None:
    # Anna receives two jokers first; her lowest dealt cards are still 1 and 2.
    known = [*GAME_1, deal(), hand(ANNA, *ANNA_DEALT), hand(DORA, *DORA_DEALT), exchange(DORA, ANNA, "J", "J")]
    assert last_clash(kp(*known, exchange(ANNA, DORA, 1, 2))) is None
    done = [*known, exchange(ANNA, DORA, 1, 2), exchange(BEN, CEM, 5), exchange(CEM, BEN, 6)]
    assert kp(*done).state.hand(ANNA) is not None
    # Anna now holds the jokers and not her 1: hands follow the exchange.
    assert last_clash(kp(*done, play(ANNA, "J", "J"))) is None
    assert last_clash(kp(*done, play(ANNA, 1))) == "kp.hand.cards"


def test_an_exchange_by_count_with_a_known_hand_follows_the_rule() -> None:
    fold = kp(*GAME_1, deal(), hand(ANNA, *ANNA_DEALT), *GAME_2_EXCHANGES)
    assert fold.state.hand(ANNA) is None  # Dora's highest cards are unknown
    # What Dora gave by count is her secret: Anna's hand becomes unknown even when both are recorded.
    both = [*GAME_1, deal(), hand(ANNA, *ANNA_DEALT), hand(DORA, *DORA_DEALT), *GAME_2_EXCHANGES]
    assert kp(*both).state.hand(ANNA) is None
    assert last_clash(kp(*both, play(ANNA, 1))) is None
    named = [*GAME_1, deal(), hand(ANNA, *ANNA_DEALT), hand(DORA, *DORA_DEALT), exchange(ANNA, DORA, count=2),
             exchange(DORA, ANNA, "J", "J"), *GAME_2_EXCHANGES[2:]]
    assert last_clash(kp(*named, play(ANNA, 1))) == "kp.hand.cards"
    assert last_clash(kp(*named, play(ANNA, "J", "J"))) is None


# --- the deal, the turn, plays -------------------------------------------------------------


def test_kp_deal_dealer_game_1_needs_a_dealer() -> None:
    assert last_flag(kp(deal())) == "kp.deal.dealer"
    assert last_flag(kp(deal(BEN))) is None


def test_kp_deal_dealer_from_game_2_the_tellerwascher_deals() -> None:
    fold = kp(*GAME_1, deal(ANNA))
    assert last_flag(fold) == "kp.deal.dealer"
    assert fold.violations[-1][1].message == "Anna cannot deal: the Tellerwäscher, Dora, deals from game 2 on."
    assert last_flag(kp(*GAME_1, deal(DORA))) is None
    assert last_flag(kp(*GAME_1, deal())) is None


def test_from_game_2_the_dealer_holds_the_leftover_cards() -> None:
    assert game_2().state.sizes == (13, 13, 13, 15)
    assert kp(*GAME_1[:1]).state.sizes == (13, 13, 13, 13)


def test_kp_deal_missing() -> None:
    assert last_flag(kp(play(ANNA, 5))) == "kp.deal.missing"
    assert last_flag(kp(exchange(ANNA, DORA, count=2))) == "kp.deal.missing"
    assert last_flag(kp(hand(ANNA, *ANNA_DEALT))) == "kp.deal.missing"
    assert last_flag(kp(deal(DORA), play(ANNA, 5))) is None


def test_kp_turn() -> None:
    fold = kp(deal(DORA), play(BEN, 5))
    assert last_flag(fold) == "kp.turn"
    assert fold.violations[-1][1].message == "Anna starts this round, not Ben."
    assert last_flag(kp(deal(DORA), play(ANNA, 5), play(CEM, 6))) == "kp.turn"
    assert last_flag(kp(deal(DORA), play(ANNA, 5), play(BEN, 6))) is None


def test_kp_turn_includes_a_player_who_is_out() -> None:
    fold = kp(*GAME_1[:17], play(ANNA, 5))
    assert last_flag(fold) == "kp.turn"
    assert "Anna has gone out" in fold.violations[-1][1].message
    assert last_flag(kp(*GAME_1[:17], play(DORA, 5))) is None


def test_kp_lead_pass() -> None:
    assert last_flag(kp(deal(DORA), pass_(ANNA))) == "kp.lead.pass"
    assert last_flag(kp(deal(DORA), play(ANNA, 5), pass_(BEN))) is None


def test_kp_play_mixed() -> None:
    fold = kp(deal(DORA), play(ANNA, 7, 8))
    assert last_flag(fold) == "kp.play.mixed"
    assert fold.violations[-1][1].message == "Anna played 7, 8: all cards must show one number."
    assert last_flag(kp(deal(DORA), play(ANNA, 7, "J"))) is None


def test_kp_raise_count() -> None:
    # Anna leads three 7s, Cem raises with two 9s.
    fold = kp(deal(DORA), play(ANNA, 7, 7, 7), pass_(BEN), play(CEM, 9, 9))
    assert last_flag(fold) == "kp.raise.count"
    assert fold.violations[-1][1].message == "Cem played two 9s, but the lead was three cards."
    assert last_flag(kp(deal(DORA), play(ANNA, 7, 7, 7), pass_(BEN), play(CEM, 9, 9, 9))) is None


def test_kp_raise_higher() -> None:
    fold = kp(deal(DORA), play(ANNA, 7, 7), play(BEN, 7, 7))
    assert last_flag(fold) == "kp.raise.higher"
    assert fold.violations[-1][1].message == "Ben played two 7s, not higher than two 7s."
    assert last_flag(kp(deal(DORA), play(ANNA, 7, 7), play(BEN, 8, 8))) is None


def test_kp_hand_size() -> None:
    """kp.hand.size: hand sizes are public, so playing more than you hold is caught."""
    # Anna has one card left after three sets of four.
    fold = kp(*GAME_1[:13], play(ANNA, 4, 4))
    assert last_flag(fold) == "kp.hand.size"
    assert fold.violations[-1][1].message == "Anna played two cards but holds only 1."
    assert last_flag(kp(*GAME_1[:13], play(ANNA, 4))) is None


def test_kp_deck_supply() -> None:
    # Four players: four 7s exist in the deck.
    fold = kp(deal(DORA), play(ANNA, 7, 7, 7, 7, 7))
    assert last_flag(fold) == "kp.deck.supply"
    assert fold.violations[-1][1].message == "Anna played five 7s, but the deck has only four 7s."
    assert last_flag(kp(deal(DORA), play(ANNA, 7, 7, 7, 7))) is None
    assert last_flag(kp(deal(DORA), play(ANNA, 7, 7), play(BEN, "J", "J"), pass_(CEM), pass_(DORA),
                        play(BEN, "J"))) == "kp.deck.supply"


def test_kp_hand_cards() -> None:
    # Anna's play is public, her hand private: the play stands, the clash is hers and the host's.
    known = [deal(DORA), hand(ANNA, *ANNA_DEALT)]
    fold = kp(*known, play(ANNA, 3))
    assert last_flag(fold) is None and last_clash(fold) == "kp.hand.cards"
    assert fold.clashes[-1][1].message == "Anna played one 3, but does not hold it."
    assert told_of_clash(fold) == {ANNA}
    assert last_clash(kp(*known, play(ANNA, 2, 2))) is None
    assert last_clash(kp(*known, play(ANNA, 2, 2), pass_(BEN), pass_(CEM), pass_(DORA), play(ANNA, 2))) == "kp.hand.cards"


def test_kp_hand_deal_wrong_size_or_impossible_contents() -> None:
    assert last_flag(kp(deal(DORA), hand(ANNA, *ANNA_DEALT[:12]))) == "kp.hand.deal"
    assert last_flag(kp(deal(DORA), hand(ANNA, 7, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 8, 9))) == "kp.hand.deal"
    assert last_flag(kp(deal(DORA), hand(ANNA, *ANNA_DEALT))) is None
    assert last_flag(kp(*GAME_1, deal(), hand(DORA, *DORA_DEALT))) is None  # 15 cards for the dealer


def test_kp_hand_deal_against_other_hands_and_earlier_plays() -> None:
    # Ben's hand is judged on his own events: Anna's recorded jokers make a clash for the
    # host alone (telling Ben would tell him of Anna's hand), never a flag.
    three_jokers = [deal(DORA), hand(ANNA, "J", "J", *ANNA_DEALT[:11])]
    clashing = kp(*three_jokers, hand(BEN, "J", *ANNA_DEALT[:12]))
    assert last_flag(clashing) is None and last_clash(clashing) == "kp.hand.deal"
    assert told_of_clash(clashing) == set()  # the host's alone
    assert last_clash(kp(*three_jokers, hand(BEN, *ANNA_DEALT))) is None
    assert last_flag(kp(deal(DORA), play(ANNA, 3), hand(ANNA, *ANNA_DEALT))) == "kp.hand.deal"
    assert last_flag(kp(deal(DORA), play(ANNA, 2), hand(ANNA, *ANNA_DEALT))) is None
    # A seat logs its hand once per game; a flagged try does not count.
    again = [deal(DORA), hand(ANNA, *ANNA_DEALT)]
    assert last_flag(kp(*again, hand(ANNA, *ANNA_DEALT))) == "kp.hand.deal"
    assert last_flag(kp(*again, hand(ANNA, 3, *ANNA_DEALT[1:]))) == "kp.hand.deal"
    assert last_flag(kp(deal(DORA), hand(ANNA, *ANNA_DEALT[:12]), hand(ANNA, *ANNA_DEALT))) is None
    voided = kp(deal(DORA), hand(ANNA, *ANNA_DEALT[:12]), {"type": "void", "target": 2}, hand(ANNA, *ANNA_DEALT))
    assert last_flag(voided) is None  # a voided try is withdrawn: as if never logged


def test_several_broken_rules_report_the_first_in_the_spec_table() -> None:
    # Out of turn (kp.turn) and mixed (kp.play.mixed): kp.turn comes first in the table.
    assert last_flag(kp(deal(DORA), play(BEN, 7, 8))) == "kp.turn"
    # Mixed and too many cards: kp.play.mixed comes before kp.hand.size.
    assert last_flag(kp(*GAME_1[:13], play(ANNA, 4, 5))) == "kp.play.mixed"


# --- the end of a match --------------------------------------------------------------------


def test_end_after_a_number_of_games() -> None:
    header = table("karriere-poker", "Anna Ben Cem Dora", {"end": {"kind": "games", "count": 1}})
    fold = play_out(header, *GAME_1)
    assert fold.outcome is not None
    assert fold.result().detail["winner"] == "Anna"


def test_end_boss_streak() -> None:
    header = table("karriere-poker", "Anna Ben Cem Dora", {"end": {"kind": "boss-streak", "count": 2}})
    two = match(header, [ANNA, BEN, CEM, DORA], [BEN, ANNA, CEM, DORA], [BEN, CEM, ANNA, DORA])
    fold = play_out(header, *two[: len(two) - 1])
    assert fold.outcome is None  # Anna, then Ben: no streak yet
    fold = play_out(header, *two)
    assert fold.outcome is not None and "Ben is Boss for the 2nd game in a row" in fold.outcome.reason
    assert fold.result().detail["winner"] == "Ben"


def test_end_dishwasher_streak() -> None:
    header = table("karriere-poker", "Anna Ben Cem Dora", {"end": {"kind": "dishwasher-streak", "count": 3}})
    games = match(header, [ANNA, BEN, CEM, DORA], [BEN, CEM, ANNA, DORA], [CEM, ANNA, BEN, DORA])
    fold = play_out(header, *games)
    assert fold.outcome is not None
    detail = fold.result().detail
    assert (detail["winner"], detail["loser"]) == ("Cem", "Dora")
    header_4 = table("karriere-poker", "Anna Ben Cem Dora", {"end": {"kind": "dishwasher-streak", "count": 4}})
    assert play_out(header_4, *games).outcome is None


def test_end_open_waits_for_the_tables_end_and_the_boss_wins() -> None:
    fold = kp(*GAME_1, deal())
    assert fold.outcome is None
    assert fold.result().detail["winner"] is None
    fold = kp(*GAME_1, deal(), {"type": "end", "reason": "midnight"})
    assert fold.outcome is not None
    assert fold.result().detail["winner"] == "Anna"
    assert report(fold)["ranking"][0] == ["Anna"]


def test_options_positions_rename_the_ranks() -> None:
    header = table("karriere-poker", "Anna Ben Cem Dora",
                   {"positions": ["Boss", "Chef", "Praktikant", "Tellerwäscher"]})
    fold = play_out(header, *GAME_1)
    assert [row["position"] for row in fold.result().detail["games"][0]["finish"]] == [
        "Boss", "Chef", "Praktikant", "Tellerwäscher"]


def test_view_shows_whose_turn_and_only_the_seats_own_hand() -> None:
    fold = kp(deal(DORA), hand(ANNA, *ANNA_DEALT), play(ANNA, 2, 2))
    view = fold.game.view(fold.state, ANNA)
    assert view["turn"] == "Ben" and view["phase"] == "raise"
    assert view["hand"] == [1, 5, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    assert "hand" not in fold.game.view(fold.state, BEN)
    assert "hand" not in fold.game.view(fold.state, None)
    assert fold.game.view(fold.state, BEN)["legal"] == ["play", "pass"]


def test_finish_game_helper_reaches_any_order() -> None:
    state = kp(deal(DORA)).state
    assert finish_game(state, [DORA, CEM, BEN, ANNA])[-1]["type"] == "play"


def test_the_view_waits_for_the_givers_of_missing_exchanges_then_for_whose_turn_it_is() -> None:
    # After game 1 and the deal, every player of a pair still has to give; once the four
    # exchanges are in, the table waits for the Boss, who leads.
    def waiting(*bodies: dict[str, Any]) -> list[str]:
        fold = kp(*bodies)
        assert flags(fold) == {}
        return fold.game.view(fold.state, None)["to_act"]

    assert waiting() == []  # the deal is the table's
    givers = waiting(*GAME_1, deal())
    assert sorted(givers) == ["Anna", "Ben", "Cem", "Dora"]
    after_one = waiting(*GAME_1, deal(), GAME_2_EXCHANGES[0])
    assert len(after_one) == 3 and GAME_2_EXCHANGES[0]["seat"] not in [["Anna", "Ben", "Cem", "Dora"].index(n) for n in after_one]
    fold = kp(*GAME_1, deal(), *GAME_2_EXCHANGES)
    assert fold.game.view(fold.state, None)["to_act"] == [fold.game.view(fold.state, None)["turn"]]


def test_kp_hand_deal_a_clash_over_a_number_is_put_only_on_the_hands_that_hold_it() -> None:
    # Found by hold-out games: Cem's three 13s and Anna's and Ben's make five 13s. Dora's
    # hand, logged after them, holds no 13: it does not clash; Cem's does.
    thirteen = list(range(1, 14))
    fold = kp(deal(DORA), hand(ANNA, *thirteen), hand(BEN, *thirteen), hand(CEM, *range(1, 11), 13, 13, 13),
              hand(DORA, *range(1, 10), 11, 11, 12, "J"))
    assert [seq for seq, _ in fold.clashes] == [4]
    assert fold.clash_at(4).message == "This hand cannot have been dealt: the deck has only four 13s."  # type: ignore[union-attr]
    assert last_clash(fold) is None and last_flag(fold) is None


def test_kp_deal_dealer_a_deal_while_a_game_is_still_being_played() -> None:
    # The spec says so now (it was kp.turn): the deal is the dealer's, and comes after the game.
    fold = kp(deal(DORA), play(ANNA, 3), deal(DORA))
    assert last_flag(fold) == "kp.deal.dealer" and "Game 1 is still being played" in fold.violation_at(3).message  # type: ignore[union-attr]
    assert last_flag(kp(*GAME_1, deal())) is None  # after the game: the Tellerwäscher deals


def test_between_games_the_table_shows_every_position_and_no_stale_cards() -> None:
    # Found at a real table: at the end of a game the Tellerwäscher's position was blank and
    # the last cards played still lay "on the table".
    view = kp(*GAME_1).view(None)
    assert [out["position"] for out in view["out"]] == ["Boss", "Geschäftsführer", "Manager", "Tellerwäscher"]
    assert view["table"]["cards"] == [] and view["table"]["by"] is None


# --- the table decides: moves that stand as if legal (DESIGN, `ruling` and `house_rules`) ---

HOW = ["ruling", "house rule"]


@pytest.mark.parametrize("how", HOW)
def test_after_annas_lead_cems_out_of_turn_7_stands_dora_is_next_and_ben_keeps_his_turn(how: str) -> None:
    before = [deal(DORA), play(ANNA, 5)]
    fold = stood(how, "kp.turn", KP, before, play(CEM, 7))
    assert fold.state.turn == DORA and fold.state.pending == (DORA, BEN)
    fold = stood(how, "kp.turn", KP, before, play(CEM, 7), play(DORA, 8), play(BEN, 9))
    assert flags(fold) == {}
    assert fold.state.leader == BEN  # the orbit came round to Ben, whose 9 won the round


@pytest.mark.parametrize("how", HOW)
def test_a_lead_out_of_turn_that_stands_starts_the_orbit_from_its_player(how: str) -> None:
    fold = stood(how, "kp.turn", KP, [deal(DORA)], play(CEM, 5))
    assert fold.state.pending == (DORA, ANNA, BEN)  # Anna, passed over, acts when the order comes round


@pytest.mark.parametrize("how", HOW)
def test_bens_lower_raise_that_stands_becomes_the_cards_to_beat(how: str) -> None:
    fold = stood(how, "kp.raise.higher", KP, [deal(DORA), play(ANNA, 7, 7)], play(BEN, 6, 6))
    assert fold.state.top_cards == (6, 6) and fold.state.top_seat == BEN and fold.state.turn == CEM


@pytest.mark.parametrize("how", HOW)
def test_anna_gives_dora_one_card_instead_of_two_and_the_hand_sizes_move_by_one(how: str) -> None:
    # Dora, the Tellerwäscher, dealt and holds 15.
    fold = stood(how, "kp.exchange.count", KP, [*GAME_1, deal()], exchange(ANNA, DORA, 7), exchange(DORA, ANNA, "J", "J"))
    assert fold.state.sizes[ANNA] == 13 - 1 + 2 and fold.state.sizes[DORA] == 15 + 1 - 2
    fold = stood(how, "kp.exchange.count", KP, [*GAME_1, deal()], exchange(ANNA, DORA, count=3))
    assert fold.state.sizes[ANNA] == 10 and fold.state.sizes[DORA] == 18  # the count named, not the two due


@pytest.mark.parametrize("how", HOW)
def test_cems_two_9s_on_a_lead_of_three_stand_and_dora_still_raises_with_three(how: str) -> None:
    before = [deal(DORA), play(ANNA, 7, 7, 7), pass_(BEN)]
    fold = stood(how, "kp.raise.count", KP, before, play(CEM, 9, 9))
    assert fold.state.sizes[CEM] == 11 and fold.state.top_cards == (9, 9) and fold.state.lead_count == 3
    assert flags(stood(how, "kp.raise.count", KP, before, play(CEM, 9, 9), play(DORA, 10, 10, 10))) == {}


def test_a_pass_before_the_lead_ruled_changes_nothing_and_is_listed_as_not_applied() -> None:
    fold = stood("ruling", "kp.lead.pass", KP, [deal(DORA)], pass_(ANNA), play(ANNA, 5))
    assert flags(fold) == {} and fold.state.top_seat == ANNA
    assert report(fold)["ruled"] == [{"seq": 2, "rule": "kp.lead.pass", "message": "Anna starts this round and must play, not pass.",
                                      "ruling": 3, "reason": "we agreed", "applied": False}]


def test_a_pass_before_the_lead_by_house_rule_changes_nothing() -> None:
    fold = stood("house rule", "kp.lead.pass", KP, [deal(DORA)], pass_(ANNA))
    assert fold.state == kp(deal(DORA)).state
    assert last_flag(stood("house rule", "kp.lead.pass", KP, [deal(DORA)], pass_(ANNA), play(BEN, 5))) == "kp.turn"  # Anna still leads


@pytest.mark.parametrize("how", HOW)
def test_a_play_before_the_deal_that_stands_changes_nothing(how: str) -> None:
    fold = stood(how, "kp.deal.missing", KP, [*GAME_1], play(DORA, 5))
    assert fold.state == kp(*GAME_1).state
    if how == "ruling":
        assert report(fold)["ruled"][0]["applied"] is False


# A rule the table turned off is skipped, and the rules after it still judge the move.
OFF_THEN_LATER = [
    # (the rule off, the move's story, the later rule that fires, the nearest legal story)
    ("kp.turn", [deal(DORA), play(ANNA, 7, 7), play(CEM, 6, 6)], "kp.raise.higher", [deal(DORA), play(ANNA, 7, 7), play(CEM, 8, 8)]),
    ("kp.turn", [deal(DORA), play(ANNA, 7, 7), play(CEM, 9)], "kp.raise.count", [deal(DORA), play(ANNA, 7, 7), play(CEM, 9, 9)]),
    ("kp.turn", [deal(DORA), pass_(BEN)], "kp.lead.pass", [deal(DORA), play(ANNA, 7), pass_(CEM)]),
    ("kp.turn", [*GAME_1[:17], play(ANNA, 5)], "kp.hand.size", [*GAME_1[:17], play(BEN, 5)]),  # Anna is out
    ("kp.raise.count", [deal(DORA), play(ANNA, 7, 7, 7), play(BEN, 6, 6)], "kp.raise.higher", [deal(DORA), play(ANNA, 7, 7, 7), play(BEN, 8, 8)]),
    ("kp.play.mixed", [deal(DORA), play(ANNA, 7, 7), play(BEN, 8, 9, 9)], "kp.raise.count", [deal(DORA), play(ANNA, 7, 7), play(BEN, 8, 9)]),
    ("kp.play.mixed", [deal(DORA), play(ANNA, 7, 7), play(BEN, 6, 9)], "kp.raise.higher", [deal(DORA), play(ANNA, 7, 7), play(BEN, 8, 9)]),
    ("kp.exchange.missing", [*GAME_1, deal(), play(BEN, 5)], "kp.turn", [*GAME_1, deal(), play(ANNA, 5)]),  # Anna, the Boss, leads
    ("kp.exchange.pair", [*GAME_1, deal(), exchange(ANNA, DORA, 1, 2), exchange(ANNA, DORA, 3)], "kp.exchange.count",
     [*GAME_1, deal(), exchange(ANNA, DORA, 1, 2), exchange(ANNA, DORA, 3, 4)]),
]


@pytest.mark.parametrize(("off", "story", "later", "legal"), OFF_THEN_LATER)
def test_with_a_rule_off_the_rules_after_it_still_fire(off: str, story: list[dict[str, Any]], later: str, legal: list[dict[str, Any]]) -> None:
    assert last_flag(kp(*story)) == off  # by the official rules the rule off comes first
    assert last_flag(play_out(house(KP, off), *story)) == later
    assert last_flag(play_out(house(KP, off), *legal)) is None


def test_with_kp_exchange_count_off_the_hand_clash_that_follows_is_reported() -> None:
    # Anna (Boss) gives one card: with the count off it is judged as one card, her lowest.
    known = [*GAME_1, deal(), hand(ANNA, *ANNA_DEALT)]
    fold = play_out(house(KP, "kp.exchange.count"), *known, exchange(ANNA, DORA, 5))
    assert last_flag(fold) is None and last_clash(fold) == "kp.exchange.cards"
    assert fold.clashes[-1][1].message == "Anna must give Dora the 1 lowest cards dealt (1), not 5."
    assert last_clash(play_out(house(KP, "kp.exchange.count"), *known, exchange(ANNA, DORA, 1))) is None
