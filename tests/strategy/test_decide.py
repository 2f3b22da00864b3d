"""The computer player's decisions: always legal, in every game and street,
short stacks and all-ins included; the same seed gives the same decision; they read only what
the player can see; and they weigh the chance to win against the pot odds."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import RAZZ, STUD_HI_LO, STUD_HIGH, Decision, Stakes, StudHand, parse_cards
from engine.cards import FULL_DECK
from engine.evaluator import hand_key
from engine.variants import VARIANTS
from strategy import STYLES, Sight, decide, estimate
from strategy.decide import _raise_line
from strategy.equity import _result
from strategy.sight import Answers, Habits
from tests.engine.decks import stacked_deck
from tests.engine.test_properties import hands

STAKES = Stakes(ante=1, bring_in=3, small_bet=10, big_bet=20)


@given(hands(), st.sampled_from(sorted(STYLES)), st.integers(0, 2**32))
def test_every_decision_is_legal_and_every_hand_ends(
    case: tuple[StudHand, random.Random], style: str, seed: int
) -> None:
    """Bots play every seat of random hands of the three games (random stakes, stacks from 1
    chip: short stacks and all-ins); ``decide`` raises IllegalAction on any illegal choice."""
    hand, _ = case
    decisions = 0
    while hand.actor is not None:
        thought = decide(Sight.of(hand, hand.actor), STYLES[style], seed + decisions, budget=60)
        hand.decide(thought.decision)
        assert thought.decision.action != "timeout"
        decisions += 1
        assert decisions < 200
    assert hand.is_over


@pytest.mark.parametrize(
    ("hands", "deals"),
    [
        # Ten hands of each game in the slow tier (and CI), three others in the quick one, each
        # dealt from its own seed.
        pytest.param(10, 5, id="10 hands a game", marks=pytest.mark.slow),
        pytest.param(3, 6, id="3 hands a game"),
    ],
)
def test_the_same_seed_gives_the_same_decisions(hands: int, deals: int) -> None:
    rng = random.Random(deals)
    for variant in (STUD_HIGH, RAZZ, STUD_HI_LO):
        for _ in range(hands):
            deck = rng.sample(FULL_DECK, 52)
            runs = []
            for _ in range(2):
                hand = StudHand([200] * 5, STAKES, deck, 0, variant)
                taken = []
                while hand.actor is not None:
                    seed = f"hand-7:{hand.actor}:{len(hand.events)}"
                    decision = decide(Sight.of(hand, hand.actor), STYLES["loose"], seed).decision
                    taken.append(decision)
                    hand.decide(decision)
                runs.append(taken)
            assert runs[0] == runs[1]


def test_a_player_sees_no_one_elses_down_cards() -> None:
    """Two decks alike but for the opponents' down cards give the same sight and decision."""
    first = stacked_deck({0: "AsAd7c", 1: "2c3d9h", 2: "KhKc4s"}, dealer=2, seats=3)
    second = stacked_deck({0: "AsAd7c", 1: "TcJd9h", 2: "5h6c4s"}, dealer=2, seats=3)
    sights = []
    for deck in (first, second):
        hand = StudHand([200, 200, 200], STAKES, deck, 2)
        while hand.actor != 0:
            hand.decide(Decision("call") if hand.legal().call else Decision("bring_in"))
        sights.append(Sight.of(hand, 0))
    assert sights[0] == sights[1]
    assert all(o.down_count == 2 for o in sights[0].opponents)
    assert decide(sights[0], STYLES["tight"], 3) == decide(sights[1], STYLES["tight"], 3)


def _sights(cards: dict[int, str], variant: object = STUD_HIGH) -> dict[int, Sight]:
    """What each of two seats sees on 3rd street at his first decision."""
    deck = stacked_deck(cards, dealer=1, seats=2)
    hand = StudHand([500, 500], STAKES, deck, 1, variant)  # type: ignore[arg-type]
    first = hand.actor
    assert first is not None
    seen = {first: Sight.of(hand, first)}
    hand.decide(Decision("bring_in"))
    assert hand.actor is not None
    seen[hand.actor] = Sight.of(hand, hand.actor)
    return seen


def test_equity_follows_the_cards() -> None:
    """From what each player sees: rolled-up aces win most of the time against a rag door
    card; in Razz a wheel start beats a king door; in Hi-Lo three low cards hold most of the
    low half, a pair of kings most of the high half."""
    rng = random.Random(1)
    stud = _sights({0: "AsAdAc", 1: "2c7d9h"})
    assert estimate(stud[0], 400, rng).share > 0.8
    assert estimate(stud[1], 400, rng).share < 0.45
    razz = _sights({0: "Ac2d3h", 1: "4c7dKh"}, RAZZ)
    assert estimate(razz[0], 400, rng).share > 0.6
    assert estimate(razz[1], 400, rng).share < 0.45
    hilo = _sights({0: "As2d3h", 1: "KcKd9h"}, STUD_HI_LO)
    low_hand, high_hand = estimate(hilo[0], 400, rng), estimate(hilo[1], 400, rng)
    assert low_hand.low > 0.4 > high_hand.low
    assert high_hand.high > 0.5 > high_hand.low
    assert low_hand.scoop < low_hand.share


def test_a_tight_player_folds_trash_to_a_raise_and_raises_a_monster() -> None:
    deck = stacked_deck({0: "2c7d9h", 1: "AsAdAc", 2: "KsKdKc"}, dealer=2, seats=3)
    hand = StudHand([500, 500, 500], STAKES, deck, 2)
    # The 2c brings in; the aces complete; the kings raise: seat 0 faces two bets with trash.
    hand.decide(Decision("bring_in"))
    assert hand.actor == 1
    monster = decide(Sight.of(hand, 1), STYLES["tight"], 11).decision
    assert monster.action in ("raise_to", "call")  # a slowplay may just call
    hand.decide(Decision("raise_to", 10))
    hand.decide(Decision("raise_to", 20))
    assert hand.actor == 0
    assert decide(Sight.of(hand, 0), STYLES["tight"], 1).decision == Decision("fold")
    assert parse_cards("2c")[0] in Sight.of(hand, 0).own_down


def test_heads_up_a_bet_asks_a_smaller_margin_and_the_styles_keep_their_order() -> None:
    """The margin guards against being called only by the best of several holdings: heads-up it
    is a part of that against two opponents, careful still asking the most and loose the least."""
    deck = stacked_deck({0: "2c7d9h", 1: "5d9sKc", 2: "4h6h8s"}, dealer=2, seats=3)
    three = StudHand([500, 500, 500], STAKES, deck, 2)
    three.decide(Decision("bring_in"))  # the 2c
    assert three.actor is not None
    sight = Sight.of(three, three.actor)
    two = replace(sight, opponents=sight.opponents[:1])
    margins = {}
    for name, style in STYLES.items():
        heads_up = _raise_line(two, style, 1) / (1 / 2) - 1
        several = _raise_line(sight, style, 2) / (1 / 3) - 1
        assert 0 < heads_up < several / 2
        margins[name] = heads_up
    assert margins["careful"] > margins["tight"] > margins["loose"]


def test_the_sampled_result_shares_a_pot_as_the_engine_does() -> None:
    """The estimator's count of one deal (each half, ties, no qualifying low, the scoop) is the
    share of a pot the engine's showdown gives, on random complete hands of the three games."""
    rng = random.Random(22)
    for variant in VARIANTS.values():
        for _ in range(2_000):
            players = rng.randint(2, 4)
            cards = rng.sample(FULL_DECK, 7 * players)
            hands = [cards[7 * i : 7 * i + 7] for i in range(players)]
            keys = [hand_key(hand) for hand in hands]
            high_part, low_part, scooped = _result(keys[0], keys[1:], variant.high, variant.low)
            pot = 1200  # divisible by 2, 3 and 4: no odd chip
            split = variant.split(pot, [variant.show(i, hand) for i, hand in enumerate(hands)])
            won = split.total.get(0, 0)
            if variant.low is None or not variant.high:
                expected = high_part if variant.high else low_part
            elif low_part < 0:  # nobody's low qualifies: the high half is the whole pot
                expected = high_part
            else:
                expected = (high_part + low_part) / 2
            assert won == round(expected * pot), (variant.name, hands)
            assert scooped == (won == pot and len(split.total) == 1)


def _razz_seventh(bot: str, opponent: str) -> StudHand:
    """Heads-up Razz played by checks and calls to the bot's (seat 0's) turn on 7th street."""
    deck = stacked_deck({0: bot, 1: opponent}, dealer=1, seats=2)
    hand = StudHand([500, 500], STAKES, deck, 1, RAZZ)
    while not (hand.street == 7 and hand.actor == 0):
        legal = hand.legal()
        if legal.bring_in is not None:
            hand.decide(Decision("bring_in"))
        else:
            hand.decide(Decision("check") if legal.check else Decision("call"))
    return hand


def test_a_bluff_comes_from_the_better_board_as_often_as_the_opponent_folds_to_bets() -> None:
    """On 7th street the loose player holds a queen-high low, beaten by almost any hand. Showing
    6-5-4-2 to 8-9-T-J, it bets it now and then as a bluff: about as often as its style says
    against a player who folds to bets as often as the reads' players, more often against one
    who always folds, almost never against one who never does. Showing the worse board, never."""
    better = _razz_seventh("KcKd6h5s4d2cQh", "3c7dJhTs9d8c5c")
    worse = _razz_seventh("KcKdJhTs9d8cQh", "3c7d6h5s4d2c5c")
    assert Sight.of(better, 0).legal.check and Sight.of(worse, 0).legal.check
    seen = {
        "usual": Habits(),
        "folds": Habits(to_bets=Answers(met=(0, 200), folded=(0, 200))),
        "never": Habits(to_bets=Answers(met=(0, 1000), folded=(0, 0))),
    }
    bluffs = dict.fromkeys(seen, 0)
    for seed in range(400):
        for name, habits in seen.items():
            thought = decide(Sight.of(better, 0, {1: habits}), STYLES["loose"], seed)
            assert thought.equity is not None and thought.equity.share < 0.25
            bluffs[name] += thought.decision.action == "raise_to"
            assert decide(Sight.of(worse, 0, {1: habits}), STYLES["loose"], seed).decision == (
                Decision("check")
            )
    assert 0.5 * 400 * STYLES["loose"].bluff < bluffs["usual"] < 1.5 * 400 * STYLES["loose"].bluff
    assert bluffs["folds"] > 1.5 * bluffs["usual"] and bluffs["never"] < bluffs["usual"] / 10
