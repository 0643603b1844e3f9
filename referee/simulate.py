"""Random legal play: demo games, benchmark loads and property tests.

Each simulator shuffles real decks, logs what a careful table would log, and asks the
game module whose turn it is; it never decides a rule question itself.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from .games import find_game
from .games import employee_of_the_month as eotm
from .games import ftw
from .games import karriere_poker as kp
from .games import ladies_gentlemen as lg
from .games import senators as sen
from .games.base import Violation
from .record import Header


class Simulation:
    """Events built one by one, each applied to the game so the simulator sees the state."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.game = find_game(header.game)
        self.state: Any = self.game.initial(header.seats, self.game.load_options(header.options))
        self.events: list[dict[str, Any]] = []

    def log(self, event_type: str, **fields: Any) -> None:
        event = {"seq": len(self.events) + 1, "type": event_type, **fields}
        after = self.game.apply(self.state, event)
        if isinstance(after, Violation):
            raise AssertionError(f"simulated move was flagged: {event} -> {after}")
        self.state = after
        self.events.append(event)

    @property
    def over(self) -> bool:
        return self.game.outcome(self.state) is not None


def karriere_poker(seats: list[str], games: int, seed: int = 0, hands: bool = True) -> tuple[Header, list[dict[str, Any]]]:
    """A match of `games` games (end option "games"), every deal shuffled from `seed`."""
    rng = random.Random(seed)
    header = Header("karriere-poker", tuple(seats), {"end": {"kind": "games", "count": games}})
    sim = Simulation(header)
    while not sim.over:
        _karriere_poker_game(sim, rng, hands)
    return header, sim.events


def _karriere_poker_game(sim: Simulation, rng: random.Random, log_hands: bool) -> None:
    state: kp.State = sim.state
    n = state.seat_count
    deck: list[int | str] = [number for number in range(1, 14) for _ in range(n)] + [kp.JOKER] * state.jokers
    rng.shuffle(deck)
    if state.finished:
        dealer = state.finished[-1][-1]
        sim.log("deal")
    else:
        dealer = rng.randrange(n)
        sim.log("deal", dealer=dealer)
    hands: dict[int, Counter[int | str]] = {}
    for seat in range(n):
        hands[seat] = Counter(deck[seat * kp.HAND_SIZE : (seat + 1) * kp.HAND_SIZE])
    if sim.state.rank:
        hands[dealer].update(deck[n * kp.HAND_SIZE :])
    if log_hands:
        for seat in range(n):
            sim.log("hand", seat=seat, cards=_cards(hands[seat]))
    dealt = {seat: Counter(hand) for seat, hand in hands.items()}
    for better, worse, count in sim.state.pairs:
        low = _cards(dealt[better])[:count]
        high = _cards(dealt[worse])[-count:]
        for giver, receiver, cards in ((better, worse, low), (worse, better, high)):
            sim.log("exchange", seat=giver, to=receiver, cards=cards)
            hands[giver].subtract(cards)
            hands[receiver].update(cards)
    while sim.state.playing:
        seat = sim.state.turn
        move = _karriere_poker_move(sim.state, +hands[seat], rng)
        if move is None:
            sim.log("pass", seat=seat)
        else:
            sim.log("play", seat=seat, cards=move)
            hands[seat].subtract(move)


def _cards(hand: Counter[int | str]) -> list[int | str]:
    return sorted(hand.elements(), key=kp.card_index)


def _karriere_poker_move(state: kp.State, hand: Counter[int | str], rng: random.Random) -> list[int | str] | None:
    """A random legal play for the seat on turn, or None to pass."""
    jokers = hand[kp.JOKER]
    options = list(_plays(hand, jokers))
    if state.leader is None:
        options = [p for p in options if len(p) == state.lead_count and kp.play_value(p) > state.top_value]
        if not options or rng.random() < 0.25:
            return None
    return rng.choice(options)


def _plays(hand: Counter[int | str], jokers: int) -> Iterator[list[int | str]]:
    for number in range(1, 14):
        for count in range(1, hand[number] + 1):
            for extra in range(0, jokers + 1):
                yield [number] * count + [kp.JOKER] * extra
    for count in range(1, jokers + 1):
        yield [kp.JOKER] * count


def employee_of_the_month(seats: list[str], seed: int = 0, options: dict[str, Any] | None = None) -> tuple[Header, list[dict[str, Any]]]:
    """A whole game of 32 auctions with random decks and random legal bids."""
    rng = random.Random(seed)
    header = Header("employee-of-the-month", tuple(seats), options or {})
    sim = Simulation(header)
    favours = [f"colleague-{rng.randint(1, 10)}" for _ in range(24)] + [f"boss-{rng.randint(1, 10)}" for _ in range(16)]
    distrust = [rng.randint(1, 5) for _ in range(32)]
    points = [f"plus-{rng.randint(1, 6)}" for _ in range(23)] + [f"popularity-{rng.randint(2, 8)}" for _ in range(9)]
    for deck in (favours, points):
        rng.shuffle(deck)
    sim.log("start", row=favours[:7], distrust=distrust[0], points=points[0])
    for auction in range(eotm.AUCTIONS):
        if auction:
            sim.log("reveal", favour=favours[6 + auction], distrust=distrust[auction], points=points[auction])
        while sim.state.prize is not None:
            state: eotm.State = sim.state
            higher = [c for c in state.row if state.high is None or eotm.rank(c) > eotm.rank(state.high[0])]
            if higher and rng.random() < 0.6:
                sim.log("bid", seat=state.turn, card=rng.choice(higher[:3]))
            else:
                sim.log("pass", seat=state.turn)
    return header, sim.events


def ftw_game(seats: list[str], seed: int = 0, hands: bool = True) -> tuple[Header, list[dict[str, Any]]]:
    """A whole game of FTW?!: every round dealt, passed and played with random legal moves."""
    rng = random.Random(seed)
    header = Header("ftw", tuple(seats), {})
    sim = Simulation(header)
    n = len(seats)
    size = ftw.start_size(n)
    while not sim.over:
        dealt = rng.sample(range(1, ftw.card_range(n) + 1), n * size)
        held = [set(dealt[s * size : (s + 1) * size]) for s in range(n)]
        passed = [set(rng.sample(sorted(hand), 3)) for hand in held]
        held = [(held[s] - passed[s]) | passed[(s + 1) % n] for s in range(n)]  # 3 cards to the right
        if hands:
            for seat in range(n):
                sim.log("hand", seat=seat, cards=sorted(held[seat]))
        while not sim.state.revealing:
            _ftw_move(sim, held, rng)
        for seat in range(n):
            sim.log("reveal", seat=seat, cards=sorted(held[seat]))
    return header, sim.events


def _ftw_move(sim: Simulation, held: list[set[int]], rng: random.Random) -> None:
    state: ftw.State = sim.state
    seat = state.turn
    hand = sorted(held[seat])
    top = state.pile[-1] if state.pile else 0
    higher = [c for c in hand if c > top]
    lower = [c for c in hand if c < top]
    helpers = list(state.helpers[seat])
    boosts = [(c, [h]) for c in lower for h in helpers if c + h > top]
    choice = rng.random()
    if boosts and choice < 0.3:
        played, used = rng.choice(boosts)
        sim.log("boost", seat=seat, card=played, helpers=used)
        held[seat].discard(played)
    elif lower and (choice < 0.55 or not higher):
        played, take = rng.choice(lower), rng.choice(state.pile)
        sim.log("low", seat=seat, card=played, take=take)
        held[seat].discard(played)
        held[seat].add(take)
    else:
        played = rng.choice(higher) if higher else min(hand)
        sim.log("high", seat=seat, card=played)
        held[seat].discard(played)


def senators_game(seats: list[str], seed: int = 0, hands: bool = True, options: dict[str, Any] | None = None) -> tuple[Header, list[dict[str, Any]]]:
    """A whole game of Senators: real decks with offices mixed in, random legal actions."""
    rng = random.Random(seed)
    header = Header("senators", tuple(seats), options or {})
    sim = Simulation(header)
    state: sen.State = sim.state
    resources = [f"{c}-{v}" for c in state.colours for v in range(1, 10)]
    rng.shuffle(resources)
    offices = [f"office-governor-{c}" for c in state.colours] if "governor" in state.offices else []
    offices += [f"office-{o}" for o in ("censor", "consul", "quaestor") if o in state.offices]
    rng.shuffle(offices)
    decks = [resources[i::3] for i in range(3)]
    secret: dict[int, list[str]] = {}
    for seat in range(len(seats)):
        secret[seat] = [deck.pop() for deck in decks]
        if hands:
            sim.log("hand", seat=seat, cards=secret[seat])
    wars_left = [rng.randrange(6, 14) for _ in range(4)]
    while not sim.over:
        turn_number = len(sim.state.turns)
        kind = "war" if sim.state.wars < 4 and turn_number >= sum(wars_left[: sim.state.wars + 1]) else "other"
        sim.log("event", kind=kind, **({"name": "Krieg"} if kind == "war" else {}))
        if sim.over:
            break
        if kind == "other" and rng.random() < 0.2:
            seat = rng.choice(sim.state.alive_seats)
            sim.log("adjust", seat=seat, money=rng.randint(1, 6), reason="event card: tax refund")
        choice = rng.random()
        if choice < 0.55 and any(decks):
            _senators_auction(sim, rng, decks, offices)
        elif choice < 0.7:
            _senators_blackmail(sim, rng)
        else:
            _senators_cash_in(sim, rng, secret, hands)
        if rng.random() < 0.05:
            seat = rng.choice(sim.state.alive_seats)
            if sim.state.senators[seat] > 1:
                sim.log("sell-senator", seat=seat)
    return header, sim.events


def _senators_auction(sim: Simulation, rng: random.Random, decks: list[list[str]], offices: list[str]) -> None:
    active = sim.state.active
    cards = [deck.pop() for deck in decks if deck]
    if offices and rng.random() < 0.3:
        cards.append(offices.pop())
    sim.log("auction", seat=active, cards=cards)
    while sim.state.action is not None and isinstance(sim.state.action, sen.Auction) and sim.state.action.bidders:
        state: sen.State = sim.state
        auction = state.action
        assert isinstance(auction, sen.Auction)
        bidder, budget, bids = auction.bidders[0], state.money[auction.bidders[0]], {}
        budget -= sum(price for price, who in auction.high.values() if who == bidder)
        for card in cards:
            price = auction.high.get(card, (0, -1))[0] + rng.randint(1, 4)
            if rng.random() < 0.5 and price <= budget:
                bids[card] = price
                budget -= price
        sim.log("bid", seat=bidder, bids=bids)
    while isinstance(sim.state.action, sen.Auction) and sim.state.action.open_decisions:
        state = sim.state
        auction = state.action
        assert isinstance(auction, sen.Auction)
        card = auction.open_decisions[0]
        price, bidder = auction.high[card]
        buy = state.money[active] >= price and (rng.random() < 0.5 or state.money[bidder] < price)
        sim.log("decide", seat=active, card=card, choice="buy" if buy else "sell")


def _senators_blackmail(sim: Simulation, rng: random.Random) -> None:
    active = sim.state.active
    sim.log("blackmail", seat=active)
    for target in sim.state.others_from_left(active):
        state: sen.State = sim.state
        face_up = state.cards_of(target, "up")
        if not face_up or rng.random() < 0.4 or state.money[active] < 1:
            continue
        price = rng.randint(1, min(6, state.money[active]))
        sim.log("demand", seat=active, target=target, card=rng.choice(face_up), price=price)
        keep = sim.state.money[target] >= price and rng.random() < 0.5
        sim.log("answer", seat=target, choice="keep" if keep else "sell")


def _senators_cash_in(sim: Simulation, rng: random.Random, secret: dict[int, list[str]], hands: bool) -> None:
    active = sim.state.active
    sim.log("cash-in", seat=active)
    while isinstance(sim.state.action, sen.CashIn) and sim.state.action.queue and sim.state.action.casher is None:
        state: sen.State = sim.state
        seat = state.action.queue[0]  # type: ignore[union-attr]
        pays = state.money[seat] >= sen.JOIN_PRICE + sen.SENATOR_PRICE and rng.random() < 0.5
        sim.log("join", seat=seat, choice="pay" if pays else "pass")
        if pays:
            _senators_cash(sim, rng, seat, secret, hands)
    _senators_cash(sim, rng, active, secret, hands)


def _senators_cash(sim: Simulation, rng: random.Random, seat: int, secret: dict[int, list[str]], hands: bool) -> None:
    """Sell the best sets, play offices now and then, buy senators, and close with done."""
    def held() -> list[str]:
        state: sen.State = sim.state
        own = state.cards_of(seat, "up", "down", "hand")
        return own if hands else sorted({*own, *(c for c in secret[seat] if c not in state.places)})

    if "office-censor" in held() and rng.random() < 0.7:
        victims = [s for s in sim.state.alive_seats if s != seat and sim.state.senators[s] > 1]
        sim.log("adjust", seat=seat, office="office-censor", reason="censor")
        if victims:
            sim.log("adjust", seat=rng.choice(victims), senators=-1, reason="the censor takes a senator")
    while True:
        sets = sen.Senators.sets_in(held())
        if not sets:
            break
        sim.log("sell-set", seat=seat, cards=list(sets[0][0]))
    resources = [c for c in held() if sen.resource(c)]
    if "office-quaestor" in held() and len(resources) >= 3:
        sim.log("sell-set", seat=seat, cards=resources[:3], office="office-quaestor")
    state: sen.State = sim.state
    consul = "office-consul" in held()
    price = state.consul_price if consul else sen.SENATOR_PRICE
    count = state.money[seat] // price
    if count:
        sim.log("buy-senators", seat=seat, count=count, **({"office": "office-consul"} if consul else {}))
    sim.log("done", seat=seat)


def ladies_gentlemen_game(seats: list[str], seed: int = 0, gossip: bool = False, verdict: str | None = None) -> tuple[Header, list[dict[str, Any]]]:
    """Six days and the Ball with random legal shopping and bills. `verdict` "courtesan" or
    "scandal" enters Ball scores that make the courtesan the most or the least elegant."""
    rng = random.Random(seed)
    header = Header("ladies-and-gentlemen", tuple(seats), {"gossip": True} if gossip else {})
    sim = Simulation(header)
    state: lg.State = sim.state
    boutiques = [f"team-{lady}" for lady in state.ladies]
    made = iter(range(1, 10**6))

    def new_card(kind: str) -> dict[str, Any]:
        """A card from a boutique's deck: each name once in the game."""
        wardrobe = kind == "wardrobe"
        return {"name": f"{'gown' if wardrobe else 'maid'}-{next(made)}", "kind": kind,
                "price": rng.randrange(100, 700, 50) if wardrobe else rng.randrange(50, 300, 50), "stars": rng.randint(0, 5)}

    for day in range(1, lg.DAYS + 1):
        sim.log("day", n=day)
        for gentleman, number in zip(state.gentlemen, rng.sample(range(1, len(state.teams) + 1), len(state.teams))):
            sim.log("number", seat=gentleman, number=number)
        for boutique in boutiques:
            if rng.random() < 0.5:
                sim.log("window", boutique=boutique, card=new_card("wardrobe"))
        for gentleman in state.gentlemen:
            if rng.random() < 0.5:
                sim.log("income", seat=gentleman, amount=rng.randrange(100, 600, 50), reason="contract")
        for shopper in state.shoppers:
            sim.log("visit", seat=shopper, boutique=rng.choice(boutiques))
        if gossip:
            _lg_gossip(sim, rng)
        _lg_shopping(sim, rng, new_card)
        _lg_evening(sim, rng)
    _lg_ball(sim, rng, verdict)
    return header, sim.events


def _lg_shopping(sim: Simulation, rng: random.Random, new_card: Callable[[str], dict[str, Any]]) -> None:
    state: lg.State = sim.state
    for boutique, shop in state.boutiques.items():
        if len(shop.order) == 1:
            for _ in range(rng.randint(0, 3)):
                kind = "servant" if rng.random() < 0.25 and not sim.state.servants.get(shop.order[0]) else "wardrobe"
                sim.log("take", seat=shop.order[0], boutique=boutique, card=new_card(kind))
            continue
        while True:
            shop = sim.state.boutiques[boutique]
            if len(shop.passed) == len(shop.order):
                break
            shopper = shop.order[shop.next]
            if rng.random() < 0.35:
                sim.log("pass", seat=shopper, boutique=boutique)
            else:
                kind = "servant" if rng.random() < 0.25 and not sim.state.servants.get(shopper) else "wardrobe"
                sim.log("take", seat=shopper, boutique=boutique, card=new_card(kind))


def _lg_evening(sim: Simulation, rng: random.Random) -> None:
    state: lg.State = sim.state
    for card in state.to_give():
        sim.log("give", seat=state.courtesan, card=card.name, to=rng.choice(state.gentlemen))
    for gentleman in state.gentlemen:
        lady = state.lady_of(gentleman)
        window = sim.state.windows.get(f"team-{lady}")
        if window is not None and sim.state.cards[window.name].place == "window" and f"team-{lady}" not in sim.state.visits.values():
            if sim.state.money[gentleman] >= -(-window.price // 2) and rng.random() < 0.7:
                sim.log("bill", seat=gentleman, card=window.name, choice="discount")
            elif sim.state.gossip_variant and sim.state.gossip_own[lady]:
                sim.log("discard-gossip", seat=lady)
        bills = sorted(sim.state.handed_to(gentleman), key=lambda c: c.shopper == sim.state.courtesan)  # his lady's first
        for card in bills:
            current: lg.State = sim.state
            money = current.money[gentleman]
            if card.shopper == current.courtesan:
                room = current.paid_lady.get(gentleman, 0) > current.paid_courtesan.get(gentleman, 0)
                choice = "pay" if room and money >= card.price and rng.random() < 0.7 else "return"
            else:
                roll = rng.random()
                choice = "pay" if money >= card.price and roll < 0.7 else "defer" if money >= lg.DEFER_FEE and roll < 0.85 else "return"
            sim.log("bill", seat=gentleman, card=card.name, choice=choice)
        sim.log("done", seat=gentleman)
    returned = [c.name for c in sim.state.cards.values() if c.place == "returned-to-courtesan"]
    if returned and rng.random() < 0.7:
        sim.log("keep", seat=sim.state.courtesan, cards=returned[:3])


def _lg_gossip(sim: Simulation, rng: random.Random) -> None:
    state: lg.State = sim.state
    for shopper in state.shoppers:
        if state.gossip_own[shopper] + state.gossip_received[shopper] and rng.random() < 0.3:
            sim.log("gossip", seat=shopper, to=rng.choice([s for s in state.shoppers if s != shopper]))
            state = sim.state


def _lg_ball(sim: Simulation, rng: random.Random, verdict: str | None) -> None:
    state: lg.State = sim.state
    stars = {s: sum(c.stars for c in state.cards.values() if c.place == "paid" and c.shopper == s) for s in state.shoppers}
    ladies = {lady: stars[lady] + rng.randint(0, 3) for lady in state.ladies}
    for lady, elegance in ladies.items():
        sim.log("ball", seat=lady, elegance=elegance)
    if state.courtesan is not None:
        elegance = stars[state.courtesan] + rng.randint(0, 3)
        if verdict == "courtesan":
            elegance = max(ladies.values()) + 1 + state.gossip_own[state.courtesan] + state.gossip_received[state.courtesan]
        elif verdict == "scandal":
            elegance = min(ladies.values()) - 8
        sim.log("ball", seat=state.courtesan, elegance=elegance)
