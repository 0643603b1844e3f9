"""Ladies & Gentlemen: every rule id fires and is legal in its nearest case; days and Balls as stories.

Four players: Anna (0) and her gentleman Ben (1), Cem (2) and her gentleman Dora (3); £500
per gentleman. Five players add Emil (4), the courtesan; then £1,500 per gentleman.
Boutiques are named after the lady: "team-0" (Anna's) and "team-2" (Cem's).
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import events, flags, house, last_flag, play_out, stood, table
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.record import RecordError, parse_header
from referee.replay import Fold, replay, report
from referee.simulate import ladies_gentlemen_game

ANNA, BEN, CEM, DORA, EMIL = 0, 1, 2, 3, 4
FOUR = table("ladies-and-gentlemen", "Anna Ben Cem Dora")
FIVE = table("ladies-and-gentlemen", "Anna Ben Cem Dora Emil")
FIVE_GOSSIP = table("ladies-and-gentlemen", "Anna Ben Cem Dora Emil", {"gossip": True})


def ev(kind: str, seat: int | None = None, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **({} if seat is None else {"seat": seat}), **fields}


def card(name: str, price: int = 200, stars: int = 2, kind: str = "wardrobe") -> dict[str, Any]:
    return {"name": name, "kind": kind, "price": price, "stars": stars}


def take(seat: int, boutique: str, name: str, **kwargs: Any) -> dict[str, Any]:
    return ev("take", seat, boutique=boutique, card=card(name, **kwargs))


def morning(n: int, ben: int = 1, dora: int = 2) -> list[dict[str, Any]]:
    return [ev("day", n=n), ev("number", BEN, number=ben), ev("number", DORA, number=dora)]


def visits(anna: str = "team-0", cem: str = "team-2", emil: str | None = None) -> list[dict[str, Any]]:
    return [ev("visit", ANNA, boutique=anna), ev("visit", CEM, boutique=cem), *([ev("visit", EMIL, boutique=emil)] if emil else [])]


def quiet_day(n: int, courtesan: bool = False) -> list[dict[str, Any]]:
    """A day without shopping: numbers, visits, and both gentlemen done."""
    return [*morning(n), *visits(emil="team-0" if courtesan else None), ev("done", BEN), ev("done", DORA)]


def lg(header: Any, *bodies: dict[str, Any]) -> Fold:
    return play_out(header, *bodies)


DAY1 = [*morning(1), *visits()]
# Anna and Cem share Anna's boutique (Ben has number 1: Anna takes first); Emil shops alone.
EMIL_ALONE = visits(anna="team-0", cem="team-0", emil="team-2")


# --- setup -----------------------------------------------------------------------------


def test_teams_and_the_courtesan_by_default_and_as_options() -> None:
    fold = lg(FIVE)
    assert fold.state.teams == ((0, 1), (2, 3)) and fold.state.courtesan == 4
    assert dict(fold.state.money) == {1: 1500, 3: 1500}
    assert dict(lg(table("ladies-and-gentlemen", "A B C D E F G")).state.money) == {1: 1200, 3: 1200, 5: 1200}
    custom = lg(table("ladies-and-gentlemen", "A B C D E", {"teams": [[4, 0], [1, 2]], "courtesan": 3}))
    assert custom.state.teams == ((4, 0), (1, 2)) and custom.state.courtesan == 3


@pytest.mark.parametrize(
    "seats, options",
    [
        (4, {"courtesan": 3}),  # even: no courtesan
        (5, {"courtesan": None}),  # odd: a courtesan is required
        (4, {"teams": [[0, 1], [1, 2]]}),  # a seat twice, seat 3 never
        (4, {"teams": [[0, 1], [2, 9]]}),
    ],
)
def test_teams_that_do_not_cover_every_seat_are_a_format_error_on_line_1(seats: int, options: dict[str, Any]) -> None:
    with pytest.raises(RecordError, match="line 1: options"):
        parse_header({"format": "table-record/1", "game": "ladies-and-gentlemen", "seats": list("ABCDE")[:seats], "options": options})


# --- rule ids --------------------------------------------------------------------------


def test_lg_role() -> None:
    assert last_flag(lg(FOUR, *morning(1), ev("visit", BEN, boutique="team-0"))) == "lg.role"  # a gentleman shopping
    assert last_flag(lg(FOUR, ev("day", n=1), ev("number", ANNA, number=1))) == "lg.role"  # a lady numbering
    assert last_flag(lg(FOUR, *DAY1, ev("done", ANNA))) == "lg.role"  # a lady settling
    assert last_flag(lg(FIVE, *morning(1), *visits(emil="team-0"), ev("give", ANNA, card="x", to=BEN))) == "lg.role"
    assert last_flag(lg(FIVE, *morning(1), *visits(emil="team-0"), take(EMIL, "team-0", "fan"),
                        ev("give", EMIL, card="fan", to=CEM))) == "lg.role"  # a give to a lady
    assert last_flag(lg(FOUR, *morning(1), ev("visit", ANNA, boutique="team-0"))) is None  # nearest legal case: a lady shops


def test_lg_phase() -> None:
    assert last_flag(lg(FOUR, ev("day", n=1), ev("visit", ANNA, boutique="team-0"))) == "lg.phase"  # before all numbers
    assert last_flag(lg(FOUR, *morning(1), ev("visit", ANNA, boutique="team-0"), take(ANNA, "team-0", "hat"))) == "lg.phase"
    assert last_flag(lg(FOUR, *DAY1, ev("day", n=2))) == "lg.phase"  # the day is not over
    assert last_flag(lg(FOUR, ev("day", n=2))) == "lg.phase"  # out of sequence
    assert last_flag(lg(FOUR, *DAY1, take(ANNA, "team-0", "hat"), ev("done", BEN))) == "lg.phase"  # hat unsettled
    assert last_flag(lg(FOUR, *DAY1, ev("done", BEN), ev("done", BEN))) == "lg.phase"  # a second done
    assert last_flag(lg(FOUR, *quiet_day(1), ev("ball", ANNA, elegance=3))) == "lg.phase"  # the Ball after day 6
    assert last_flag(lg(FOUR, *quiet_day(1), ev("day", n=2))) is None  # nearest legal case


def test_lg_phase_seventh_day_and_a_second_ball() -> None:
    six = [event for n in range(1, 7) for event in quiet_day(n)]
    assert last_flag(lg(FOUR, *six, ev("day", n=7))) == "lg.phase"
    assert last_flag(lg(FOUR, *six, ev("ball", ANNA, elegance=3), ev("ball", ANNA, elegance=4))) == "lg.phase"
    assert last_flag(lg(FOUR, *six, ev("ball", ANNA, elegance=3), ev("ball", CEM, elegance=4))) is None


def test_lg_phase_give_after_the_first_bill_and_bills_while_she_holds_cards() -> None:
    day = [*morning(1), *visits(emil="team-0"), take(ANNA, "team-0", "hat"), take(EMIL, "team-0", "fan"), ev("pass", ANNA, boutique="team-0"),
           ev("pass", EMIL, boutique="team-0")]
    assert last_flag(lg(FIVE, *day, ev("bill", BEN, card="hat", choice="pay"))) == "lg.phase"  # she still holds the fan
    given = [*day, ev("give", EMIL, card="fan", to=BEN)]
    assert last_flag(lg(FIVE, *given, ev("bill", BEN, card="hat", choice="pay"))) is None


def test_lg_number() -> None:
    assert last_flag(lg(FOUR, ev("day", n=1), ev("number", BEN, number=3))) == "lg.number"  # G = 2
    assert last_flag(lg(FOUR, ev("day", n=1), ev("number", BEN, number=1), ev("number", DORA, number=1))) == "lg.number"
    assert last_flag(lg(FOUR, ev("day", n=1), ev("number", BEN, number=1), ev("number", DORA, number=2))) is None


def test_lg_visit() -> None:
    assert last_flag(lg(FOUR, *morning(1), ev("visit", ANNA, boutique="team-0"), ev("visit", ANNA, boutique="team-2"))) == "lg.visit"
    assert last_flag(lg(FOUR, *DAY1, take(ANNA, "team-2", "hat"))) == "lg.visit"
    assert last_flag(lg(FOUR, *DAY1, take(ANNA, "team-0", "hat"))) is None


def test_a_shared_boutique_with_the_courtesan_always_second() -> None:
    # Dora has number 1, so Cem shops first in Anna's boutique; Emil, the courtesan, second; Anna third.
    day = [*morning(1, ben=2, dora=1), *visits(anna="team-0", cem="team-0", emil="team-0")]
    fold = lg(FIVE, *day)
    assert fold.state.boutiques["team-0"].order == (CEM, EMIL, ANNA)
    assert last_flag(lg(FIVE, *day, take(ANNA, "team-0", "hat"))) == "lg.take.order"
    round_one = [*day, take(CEM, "team-0", "hat"), take(EMIL, "team-0", "fan"), take(ANNA, "team-0", "boa")]
    assert flags(lg(FIVE, *round_one)) == {}
    # Cem passes: she is out for the day; Emil and Anna go on in turn.
    passed = [*round_one, ev("pass", CEM, boutique="team-0")]
    assert last_flag(lg(FIVE, *passed, take(CEM, "team-0", "veil"))) == "lg.take.order"
    assert last_flag(lg(FIVE, *passed, take(EMIL, "team-0", "veil"), take(ANNA, "team-0", "cape"))) is None


def test_lg_take_servant() -> None:
    assert last_flag(lg(FOUR, *DAY1, take(ANNA, "team-0", "maid", kind="servant"), take(ANNA, "team-0", "cook", kind="servant"))) == "lg.take.servant"
    assert last_flag(lg(FOUR, *DAY1, take(ANNA, "team-0", "maid", kind="servant"), take(ANNA, "team-0", "hat"))) is None  # not lg.take.servant


def test_lg_bill_card() -> None:
    day = [*DAY1, take(ANNA, "team-0", "hat"), take(CEM, "team-2", "boa")]
    assert last_flag(lg(FOUR, *day, ev("bill", BEN, card="boa", choice="pay"))) == "lg.bill.card"  # Cem's card, Dora's bill
    assert last_flag(lg(FOUR, *day, ev("bill", BEN, card="hat", choice="pay"), ev("bill", BEN, card="hat", choice="return"))) == "lg.bill.card"
    assert last_flag(lg(FOUR, *day, take(CEM, "team-2", "hat"))) == "lg.bill.card"  # the hat is with Anna
    assert last_flag(lg(FOUR, *day, ev("bill", BEN, card="hat", choice="pay"))) is None
    assert last_flag(lg(FIVE, *morning(1), *visits(emil="team-0"), ev("give", EMIL, card="fan", to=BEN))) == "lg.bill.card"


def test_lg_bill_defer_and_a_deferred_card_billed_the_next_evening() -> None:
    day = [*morning(1), *visits(emil="team-0"), take(ANNA, "team-0", "hat", price=300), take(EMIL, "team-0", "fan"),
           ev("pass", ANNA, boutique="team-0"), ev("pass", EMIL, boutique="team-0"), ev("give", EMIL, card="fan", to=BEN)]
    assert last_flag(lg(FIVE, *day, ev("bill", BEN, card="fan", choice="defer"))) == "lg.bill.defer"
    deferred = [*day, ev("bill", BEN, card="hat", choice="defer"), ev("bill", BEN, card="fan", choice="return"), ev("done", BEN), ev("done", DORA)]
    fold = lg(FIVE, *deferred)
    assert flags(fold) == {} and fold.state.money[BEN] == 1500 - 100  # a lady's card: no lg.bill.defer; the fee
    # Next evening the hat is Ben's bill again: he pays the full price, 1,400 - 300 = 1,100.
    next_day = [*deferred, *morning(2), *visits(emil="team-2"), ev("bill", BEN, card="hat", choice="pay"), ev("done", BEN)]
    fold = lg(FIVE, *next_day)
    assert flags(fold) == {} and fold.state.money[BEN] == 1100
    assert last_flag(lg(FIVE, *deferred, *morning(2), *visits(emil="team-2"), ev("done", BEN))) == "lg.phase"  # the hat is due


def test_a_discount_on_an_unvisited_boutiques_window_card() -> None:
    window = [ev("day", n=1), ev("number", BEN, number=1), ev("number", DORA, number=2),
              ev("window", boutique="team-0", card=card("silk gown", price=355, stars=4)),
              ev("window", boutique="team-2", card=card("lace", price=100))]
    nobody_at_anna = [*window, *visits(anna="team-2", cem="team-2")]
    fold = lg(FOUR, *nobody_at_anna, ev("bill", BEN, card="silk gown", choice="discount"))
    # Half of £355 rounded up to the next pound: £178. 500 - 178 = 322; the gown is Anna's.
    assert flags(fold) == {} and fold.state.money[BEN] == 322
    assert fold.view(None)["wardrobes"]["Anna"][0]["name"] == "silk gown"
    assert last_flag(lg(FOUR, *window, *visits(), ev("bill", BEN, card="silk gown", choice="discount"))) == "lg.bill.discount"  # Anna visited it
    assert last_flag(lg(FOUR, *nobody_at_anna, take(ANNA, "team-2", "hat"), ev("bill", BEN, card="hat", choice="discount"))) == "lg.bill.discount"
    assert last_flag(lg(FOUR, *nobody_at_anna, ev("bill", BEN, card="lace", choice="discount"))) == "lg.bill.discount"  # Cem's window, not his


def test_lg_bill_ratio_pay_one_courtesan_card_then_one_lady_card() -> None:
    day = [*morning(1), *EMIL_ALONE, take(ANNA, "team-0", "hat"), take(EMIL, "team-2", "fan", stars=3),
           ev("give", EMIL, card="fan", to=BEN), ev("bill", BEN, card="fan", choice="pay")]
    assert last_flag(lg(FIVE, *day, ev("bill", BEN, card="hat", choice="return"), ev("done", BEN))) == "lg.bill.ratio"
    fold = lg(FIVE, *day, ev("bill", BEN, card="hat", choice="pay"), ev("done", BEN))
    assert last_flag(fold) is None and fold.state.gifts[BEN] == 3  # one each: no lg.bill.ratio


def test_lg_money_short() -> None:
    assert last_flag(lg(FOUR, *DAY1, take(ANNA, "team-0", "tiara", price=600), ev("bill", BEN, card="tiara", choice="pay"))) == "lg.money.short"
    assert last_flag(lg(FOUR, *DAY1, take(ANNA, "team-0", "tiara", price=500), ev("bill", BEN, card="tiara", choice="pay"))) is None  # all £500: no lg.money.short


def test_the_courtesan_keeps_three_returned_cards_for_the_next_evening() -> None:
    day = [*morning(1), *EMIL_ALONE, *[take(EMIL, "team-2", name) for name in ("a", "b", "c", "d")],
           *[ev("give", EMIL, card=name, to=BEN) for name in ("a", "b", "c", "d")],
           *[ev("bill", BEN, card=name, choice="return") for name in ("a", "b", "c", "d")], ev("done", BEN), ev("done", DORA)]
    assert last_flag(lg(FIVE, *day, ev("keep", EMIL, cards=["a", "b", "c", "d"]))) == "lg.keep"
    assert last_flag(lg(FIVE, *day, ev("keep", EMIL, cards=["a", "zz"]))) == "lg.keep"
    assert last_flag(lg(FIVE, *day, ev("keep", EMIL, cards=["a"]), ev("keep", EMIL, cards=["b"]))) == "lg.keep"
    kept = lg(FIVE, *day, ev("keep", EMIL, cards=["a", "b", "c"]), *morning(2), *visits(emil="team-0"))
    assert flags(kept) == {}
    assert sorted(c["name"] for c in kept.view(None)["to_give"]) == ["a", "b", "c"]  # d went back under its deck


def test_lg_gossip() -> None:
    start = [*morning(1)]
    assert last_flag(lg(FIVE, *start, ev("gossip", ANNA, to=CEM))) == "lg.gossip"  # without the variant
    assert last_flag(lg(FIVE_GOSSIP, *start, ev("gossip", ANNA, to=CEM), ev("gossip", ANNA, to=EMIL))) == "lg.gossip"
    assert last_flag(lg(FIVE_GOSSIP, *start, ev("gossip", ANNA, to=BEN))) == "lg.role"  # not a shopper
    fold = lg(FIVE_GOSSIP, *start, ev("gossip", ANNA, to=CEM))
    assert last_flag(fold) is None and fold.view(None)["gossip"] == {"Anna": 2, "Cem": 4, "Emil": 3}


def test_lg_gossip_no_card_to_give() -> None:
    days = []
    for n in (1, 2, 3):
        days += [*morning(n), ev("gossip", ANNA, to=CEM), *visits(emil="team-0"), ev("done", BEN), ev("done", DORA)]
    assert flags(lg(FIVE_GOSSIP, *days)) == {}
    assert last_flag(lg(FIVE_GOSSIP, *days, *morning(4), ev("gossip", ANNA, to=CEM))) == "lg.gossip"


def test_discard_gossip_instead_of_the_discount() -> None:
    window = [ev("day", n=1), ev("number", BEN, number=1), ev("number", DORA, number=2),
              ev("window", boutique="team-0", card=card("silk gown", price=300))]
    unvisited = [*window, *visits(anna="team-2", cem="team-2", emil="team-2")]
    fold = lg(FIVE_GOSSIP, *unvisited, ev("discard-gossip", ANNA))
    assert last_flag(fold) is None and fold.view(None)["gossip"]["Anna"] == 2
    assert last_flag(lg(FIVE_GOSSIP, *unvisited, ev("discard-gossip", ANNA), ev("bill", BEN, card="silk gown", choice="discount"))) == "lg.bill.discount"
    assert last_flag(lg(FIVE_GOSSIP, *unvisited, ev("bill", BEN, card="silk gown", choice="discount"), ev("discard-gossip", ANNA))) == "lg.gossip"
    assert last_flag(lg(FIVE_GOSSIP, *window, *visits(emil="team-2"), ev("discard-gossip", ANNA))) == "lg.gossip"  # Anna visited it
    assert last_flag(lg(FIVE_GOSSIP, *unvisited, ev("discard-gossip", EMIL))) == "lg.role"


# --- the Ball ---------------------------------------------------------------------------


def six_days(header: Any, first: list[dict[str, Any]] | None = None, courtesan: bool = False) -> list[dict[str, Any]]:
    days = list(first or quiet_day(1, courtesan))
    for n in range(2, 7):
        days += quiet_day(n, courtesan)
    return days


def test_a_whole_game_without_a_courtesan_tie_broken_by_money() -> None:
    day1 = [*morning(1), ev("income", BEN, amount=300, reason="contract"), *visits(), ev("done", BEN), ev("done", DORA)]
    fold = lg(FOUR, *six_days(FOUR, day1), ev("ball", ANNA, elegance=12), ev("ball", CEM, elegance=12))
    shown = report(fold)
    # Both ladies 12: Ben has £800 (500 + 300), Dora £500, so Anna and Ben win.
    assert shown["finished"] and shown["scores"] == {"Anna": 12, "Cem": 12}
    assert shown["ranking"] == [["Anna", "Ben"], ["Cem", "Dora"]]
    assert shown["result"]["why"] == "Anna and Ben win: Anna is the most elegant lady (12), and Ben is the richer gentleman of the tie."
    assert shown["result"]["money"] == {"Ben": 800, "Dora": 500}


def test_a_full_tie_makes_both_teams_win() -> None:
    fold = lg(FOUR, *six_days(FOUR), ev("ball", ANNA, elegance=9), ev("ball", CEM, elegance=9))
    assert report(fold)["ranking"] == [["Anna", "Ben", "Cem", "Dora"]]


def gift_day(stars: int) -> list[dict[str, Any]]:
    """Day 1: Emil's fan (stars) is paid by Ben, after Ben paid Anna's hat."""
    return [*morning(1), *EMIL_ALONE, take(ANNA, "team-0", "hat", price=100, stars=1), take(EMIL, "team-2", "fan", price=100, stars=stars),
            ev("give", EMIL, card="fan", to=BEN), ev("bill", BEN, card="hat", choice="pay"), ev("bill", BEN, card="fan", choice="pay"),
            ev("done", BEN), ev("done", DORA)]


def test_the_courtesan_wins_with_the_gentleman_of_the_finest_gifts() -> None:
    fold = lg(FIVE, *six_days(FIVE, gift_day(4), courtesan=True), ev("ball", ANNA, elegance=10), ev("ball", CEM, elegance=8), ev("ball", EMIL, elegance=10))
    shown = report(fold)
    # Emil 10 ties Anna 10: ties go to the courtesan. Ben gave 4 stars, Dora none: Emil wins with Ben.
    assert shown["result"]["winners"] == ["Ben", "Emil"] and shown["result"]["scandal"] is False
    # then Anna alone (her gentleman won with the courtesan), then Cem and Dora
    assert shown["ranking"] == [["Ben", "Emil"], ["Anna"], ["Cem", "Dora"]]


def test_a_scandal_decided_by_the_poorer_of_two_tied_gentlemen() -> None:
    # Neither gentleman gave the courtesan anything (0 = 0 gifts); Dora is poorer (Ben earned 200).
    day1 = [*morning(1), ev("income", BEN, amount=200, reason="market"), *visits(emil="team-0"), ev("done", BEN), ev("done", DORA)]
    fold = lg(FIVE, *six_days(FIVE, day1, courtesan=True), ev("ball", ANNA, elegance=5), ev("ball", CEM, elegance=9), ev("ball", EMIL, elegance=4))
    shown = report(fold)
    # Emil (4) is below every lady: scandal. Dora (£1,500 < £1,700) is excluded with Cem,
    # although Cem is the most elegant; of the rest Anna wins with Ben.
    assert shown["result"]["scandal"] is True and shown["result"]["excluded"] == ["Cem", "Dora"]
    assert shown["ranking"] == [["Anna", "Ben"], ["Emil"], ["Cem", "Dora"]]


def test_gossip_cards_cost_elegance_at_the_ball() -> None:
    fold = lg(FIVE_GOSSIP, *six_days(FIVE_GOSSIP, courtesan=True), ev("ball", ANNA, elegance=10), ev("ball", CEM, elegance=10), ev("ball", EMIL, elegance=2))
    assert report(fold)["scores"] == {"Anna": 7, "Cem": 7, "Emil": -1}  # three gossip cards each


def test_scores_and_ranking_are_empty_before_the_ball() -> None:
    shown = report(lg(FOUR, *quiet_day(1)))
    assert shown["scores"] == {} and shown["ranking"] == [] and "money" not in shown["result"]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([4, 5, 7, 10]), gossip=st.booleans())
def test_random_legal_games_are_never_flagged_and_money_never_goes_negative(seed: int, players: int, gossip: bool) -> None:
    names = ["Anna", "Ben", "Cem", "Dora", "Emil", "Fay", "Gus", "Hal", "Ida", "Jan"][:players]
    header, body = ladies_gentlemen_game(names, seed=seed, gossip=gossip)
    fold = replay(header, events(header, *[{k: v for k, v in e.items() if k != "seq"} for e in body]))
    assert fold.violations == () and fold.outcome is not None
    assert min(fold.state.money.values()) >= 0


def test_the_view_names_everyone_the_table_waits_for_through_a_day() -> None:
    # Five players: the gentlemen's numbers, then the shoppers' visits; in Anna's shared
    # boutique Anna (Ben is number 1) before Cem; Emil shops alone in Cem's. Once Anna and
    # Cem have passed only Emil is left, alone: she need not pass, so the gentlemen are
    # waited for too; once she holds a card to hand on, the table waits for her, the
    # courtesan, alone: no gentleman turns to his bills before. In the evening: the
    # gentlemen not done.
    def waiting(*bodies: dict[str, Any]) -> list[str]:
        fold = play_out(FIVE, *bodies)
        assert flags(fold) == {}, flags(fold)
        return fold.game.view(fold.state, None)["to_act"]

    assert waiting(ev("day", n=1)) == ["Ben", "Dora"]
    assert waiting(*morning(1)) == ["Anna", "Cem", "Emil"]
    shopping = [*morning(1), *visits(anna="team-0", cem="team-0", emil="team-2")]
    assert waiting(*shopping) == ["Anna", "Emil"]
    assert waiting(*shopping, take(ANNA, "team-0", "hat")) == ["Cem", "Emil"]
    passed = [*shopping, ev("pass", ANNA, boutique="team-0"), ev("pass", CEM, boutique="team-0")]
    assert waiting(*passed) == ["Emil", "Ben", "Dora"]
    fold = play_out(FIVE, *passed)
    assert fold.game.view(fold.state, None)["boutiques"]["team-0"]["turn"] is None  # both passed: nobody's turn there
    taken = [*passed, take(EMIL, "team-2", "fan")]
    assert waiting(*taken) == ["Emil"]  # the fan is still hers to hand on
    evening = [*taken, ev("give", EMIL, card="fan", to=BEN)]
    assert waiting(*evening) == ["Ben", "Dora"]
    assert waiting(*evening, ev("done", DORA)) == ["Ben"]


# --- the table decides: moves that stand by a ruling or a house rule -------------------

STANDS = ["ruling", "house rule"]
ALL_AT_ANNAS = [*morning(1), *visits(anna="team-0", cem="team-0", emil="team-0")]  # the take order: Anna, Emil (always second), Cem


@pytest.mark.parametrize("how", STANDS)
def test_a_take_out_of_turn_that_stands_hands_the_turn_on_from_the_taker(how: str) -> None:
    # Cem takes before Anna and Emil. It stands: the turn goes on round from Cem, so Anna
    # is next; Emil, passed over, keeps her turn and takes after Anna.
    cem_first = take(CEM, "team-0", "boa")
    fold = stood(how, "lg.take.order", FIVE, ALL_AT_ANNAS, cem_first)
    assert fold.view(None)["to_act"] == ["Anna"]
    fold = stood(how, "lg.take.order", FIVE, ALL_AT_ANNAS, cem_first, take(ANNA, "team-0", "hat"), take(EMIL, "team-0", "fan"))
    assert flags(fold) == {} and fold.view(None)["to_act"] == ["Cem"]
    if how == "ruling":  # Emil's take before Anna's is out of turn
        assert last_flag(stood(how, "lg.take.order", FIVE, ALL_AT_ANNAS, cem_first, take(EMIL, "team-0", "fan"))) == "lg.take.order"


@pytest.mark.parametrize("how", STANDS)
def test_a_discount_of_another_card_that_stands_pays_half_the_price_of_the_card_it_names(how: str) -> None:
    # No window card: Ben takes Anna's £300 hat at a discount; it stands: £150, and the hat is Anna's.
    fold = stood(how, "lg.bill.discount", FOUR, [*DAY1, take(ANNA, "team-0", "hat", price=300)], ev("bill", BEN, card="hat", choice="discount"),
                 ev("done", BEN))
    assert flags(fold) == {} and fold.state.money[BEN] == 350 and fold.view(None)["wardrobes"]["Anna"][0]["name"] == "hat"


NO_MEANING = {  # a move with no meaning where it stands: the rule it breaks, the table, the record before it, the move
    "a bill for a card not handed to him": ("lg.bill.card", FOUR, [*DAY1, take(CEM, "team-2", "boa")], ev("bill", BEN, card="boa", choice="pay")),
    "a bill for a card settled already": ("lg.bill.card", FOUR, [*DAY1, take(ANNA, "team-0", "hat"), ev("bill", BEN, card="hat", choice="pay")],
                                          ev("bill", BEN, card="hat", choice="pay")),
    "a give of a card the courtesan does not hold": ("lg.bill.card", FIVE, [*morning(1), *visits(emil="team-0"), take(ANNA, "team-0", "hat")],
                                                     ev("give", EMIL, card="hat", to=DORA)),
}


@pytest.mark.parametrize("how", STANDS)
@pytest.mark.parametrize("case", sorted(NO_MEANING))
def test_a_move_with_no_meaning_that_stands_changes_nothing(case: str, how: str) -> None:
    rule, header, before, move = NO_MEANING[case]
    fold = stood(how, rule, header, before, move)
    assert fold.state == lg(header, *before).state and fold.violations == ()
    if how == "ruling":
        assert [(r["rule"], r["applied"]) for r in report(fold)["ruled"]] == [(rule, False)]


def test_after_a_bill_with_no_meaning_the_evening_goes_on() -> None:
    # Ben's bill for Cem's boa changes nothing: Dora settles it, and the day ends.
    day = [*DAY1, take(CEM, "team-2", "boa"), ev("bill", BEN, card="boa", choice="pay"), ev("ruling", target=7)]
    fold = lg(FOUR, *day, ev("bill", DORA, card="boa", choice="pay"), ev("done", BEN), ev("done", DORA))
    assert flags(fold) == {} and fold.state.money == {BEN: 500, DORA: 300} and fold.state.day_over


WINDOW_1200 = [ev("day", n=1), ev("number", BEN, number=1), ev("number", DORA, number=2),
               ev("window", boutique="team-0", card=card("crown", price=1200)), *visits()]  # Anna visits her own boutique
SHARED = [*morning(1), *visits(anna="team-0", cem="team-0")]  # the take order: Anna, Cem
FAN_GIVEN = [*morning(1), *EMIL_ALONE, take(ANNA, "team-0", "hat"), take(EMIL, "team-2", "fan"), ev("give", EMIL, card="fan", to=BEN)]
SHARED_EMIL = [*morning(1), *visits(anna="team-0", cem="team-0", emil="team-2")]
COURTESAN_BILL = [*morning(1), *visits(emil="team-0"), take(ANNA, "team-0", "tiara", price=1450), take(EMIL, "team-0", "fan"),
                  ev("give", EMIL, card="fan", to=BEN), ev("bill", BEN, card="tiara", choice="pay")]  # Ben has £50 left
OFF_THEN_LATER = [  # the rule off, the table, the record, its last move breaking it and `fires`, the nearest legal case (a whole record)
    ("lg.role", FOUR, [ev("day", n=1)], ev("number", ANNA, number=9), "lg.number", [ev("day", n=1), ev("number", ANNA, number=1)]),
    ("lg.phase", FOUR, [*morning(1), ev("visit", ANNA, boutique="team-0")], take(ANNA, "team-2", "hat"), "lg.visit",
     [*morning(1), ev("visit", ANNA, boutique="team-0"), take(ANNA, "team-0", "hat")]),
    ("lg.phase", FIVE, [*FAN_GIVEN, ev("bill", BEN, card="fan", choice="pay")], ev("done", BEN), "lg.bill.ratio",  # the hat unsettled
     [*FAN_GIVEN, ev("bill", BEN, card="fan", choice="return"), ev("done", BEN)]),
    ("lg.visit", FIVE, SHARED_EMIL, take(EMIL, "team-0", "fan"), "lg.take.order", [*SHARED_EMIL, take(CEM, "team-2", "fan")]),
    ("lg.take.order", FOUR, [*SHARED, take(ANNA, "team-0", "hat"), take(CEM, "team-0", "maid", kind="servant")],
     take(CEM, "team-0", "cook", kind="servant"), "lg.take.servant",
     [*SHARED, take(ANNA, "team-0", "hat"), take(CEM, "team-0", "maid", kind="servant"), take(CEM, "team-0", "boa")]),
    ("lg.take.servant", FOUR, [*DAY1, take(ANNA, "team-0", "maid", kind="servant"), take(CEM, "team-2", "boa")],
     take(ANNA, "team-0", "boa", kind="servant"), "lg.bill.card",
     [*DAY1, take(ANNA, "team-0", "maid", kind="servant"), take(CEM, "team-2", "boa"), take(ANNA, "team-0", "cook", kind="servant")]),
    ("lg.bill.card", FOUR, [*DAY1, take(CEM, "team-2", "tiara", price=600)], ev("bill", BEN, card="tiara", choice="pay"), "lg.money.short",
     [*DAY1, take(CEM, "team-2", "tiara", price=500), ev("bill", BEN, card="tiara", choice="pay")]),
    ("lg.bill.defer", FIVE, COURTESAN_BILL, ev("bill", BEN, card="fan", choice="defer"), "lg.money.short",
     [*COURTESAN_BILL[:-1], ev("bill", BEN, card="tiara", choice="return"), ev("bill", BEN, card="fan", choice="defer")]),
    ("lg.bill.discount", FOUR, WINDOW_1200, ev("bill", BEN, card="crown", choice="discount"), "lg.money.short",
     [*WINDOW_1200[:3], ev("window", boutique="team-0", card=card("crown", price=1000)), *visits(), ev("bill", BEN, card="crown", choice="discount")]),
]


@pytest.mark.parametrize(("off", "header", "before", "move", "fires", "legal"), OFF_THEN_LATER, ids=[f"{c[0]}-{c[4]}" for c in OFF_THEN_LATER])
def test_with_a_rule_off_the_checks_after_it_still_run(off: str, header: Any, before: list[dict[str, Any]], move: dict[str, Any],
                                                       fires: str, legal: list[dict[str, Any]]) -> None:
    assert last_flag(lg(header, *before, move)) == off  # by the official rules the first broken rule is the one turned off
    relaxed = house(header, off)
    assert last_flag(lg(relaxed, *before, move)) == fires
    assert last_flag(lg(relaxed, *legal)) is None  # the nearest legal case at that table


# --- the classic contract: which rule judges the card of a discount -----------------------


def test_the_card_a_discount_names_is_judged_by_lg_bill_discount_never_lg_bill_card() -> None:
    window = [ev("day", n=1), ev("number", BEN, number=1), ev("number", DORA, number=2),
              ev("window", boutique="team-0", card=card("silk gown", price=300)), *visits(anna="team-2", cem="team-2")]
    assert last_flag(lg(FOUR, *window, ev("bill", BEN, card="no such card", choice="discount"))) == "lg.bill.discount"
    assert last_flag(lg(FOUR, *window, ev("bill", BEN, card="silk gown", choice="discount"),
                        ev("bill", BEN, card="silk gown", choice="discount"))) == "lg.bill.discount"  # settled already
    assert last_flag(lg(FOUR, *window, ev("bill", BEN, card="silk gown", choice="pay"))) == "lg.bill.card"  # a window card is no bill
    assert last_flag(lg(FOUR, *window, ev("bill", BEN, card="silk gown", choice="discount"))) is None
