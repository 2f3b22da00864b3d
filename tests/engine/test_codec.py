"""The compact saved hand: ``decode(encode(hand))`` replays to the same hand,
event for event, in every game, at every point of a hand; hands saved as JSON still load; and a
damaged record is refused rather than read as some other hand."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import RAZZ, STUD_HI_LO, STUD_HIGH, Decision, Stakes, StudHand
from engine.cards import FULL_DECK, Card
from engine.codec import ACTIONS, FORMAT, GAMES, decode, encode
from engine.events import AntePosted, BringIn, Call, CommunityCardDealt, PotAwarded, Raise
from engine.variants import Variant
from tests.engine.decks import choose, stud

VARIANTS = (STUD_HIGH, RAZZ, STUD_HI_LO)
# A thousand hands of each game in the slow tier (and so in CI), two hundred in the quick one, on
# a seed of its own: enough for every count the test asks for.
SIZES = [
    pytest.param(200, 20250113, id="200 hands a game"),
    pytest.param(1000, 20250112, id="1000 hands a game", marks=pytest.mark.slow),
]


def snapshot(hand: StudHand) -> tuple[object, ...]:
    """Everything a replayed hand must agree on with the original."""
    return (
        hand.variant.name,
        hand.stakes,
        hand.dealer,
        hand.starting_stacks,
        hand.deck,
        hand.decisions,
        list(hand.events),
        [hand.cards(seat) for seat in range(hand.seats)],
        list(hand.stacks),
        list(hand.bets),
        list(hand.committed),
        list(hand.payouts),
        hand.timed_out,
        hand.community,
        hand.actor,
        hand.street,
        hand.is_over,
        hand.legal(),
        hand.always_show,
        hand.run_out_from,
    )


def random_deal(rng: random.Random, variant: Variant) -> StudHand:
    """2-8 players, often eight (so the deck can run short), stacks from one chip (all in on the
    ante) to a million, someone sitting out now and then, stakes from small to large."""
    seats = 8 if rng.random() < 0.35 else rng.randint(2, 8)
    stacks = [rng.choice([1, 2, 5, 12, 30, 80, 200, 1000, 10**6]) for _ in range(seats)]
    if rng.random() < 0.1:
        stacks[rng.randrange(seats)] = 0
    if sum(1 for stack in stacks if stack) < 2:
        stacks[0] = stacks[1] = 50
    scale = rng.choice([1, 1, 1, 10, 1000])
    stakes = Stakes(
        ante=rng.choice([0, 1, 2]) * scale,
        bring_in=3 * scale,
        small_bet=10 * scale,
        big_bet=20 * scale,
    )
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    # Now and then players who chose always to show (RULES 5.6): the codec keeps who they are.
    shows = [seat for seat in range(seats) if rng.random() < 0.2]
    return StudHand(stacks, stakes, deck, rng.randrange(seats), variant=variant, always_show=shows)


@pytest.mark.parametrize(("hands_per_game", "seed"), SIZES)
def test_random_hands_replay_identically(hands_per_game: int, seed: int) -> None:
    """Hundreds or thousands of hands of each game, with timeouts, all-ins, side pots and the
    community card: decoding what was encoded gives the same hand, checked at the end and after
    one decision in four (after every one, each hand would be replayed some fifty times)."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    for variant in VARIANTS:
        for _ in range(hands_per_game):
            hand = random_deal(rng, variant)
            aggression = rng.choice([0.0, 0.3, 0.7])
            while True:
                if hand.actor is None or rng.random() < 0.25:
                    saved = encode(hand)
                    restored = decode(saved)
                    assert snapshot(restored) == snapshot(hand)
                    assert encode(restored) == saved
                    seen["checked mid-hand"] += hand.actor is not None
                if hand.actor is None:
                    break
                if rng.random() < 0.08:
                    hand.timeout()
                else:
                    hand.apply(*choose(hand, rng, aggression))
            seen["games " + variant.name] += 1
            seen["timeouts"] += bool(hand.timed_out)
            seen["all-ins"] += any(
                isinstance(e, AntePosted | BringIn | Call | Raise) and e.all_in for e in hand.events
            )
            seen["side pots"] += sum(isinstance(e, PotAwarded) for e in hand.events) > 1
            seen["community card"] += any(isinstance(e, CommunityCardDealt) for e in hand.events)
            seen["amounts over 127"] += any(
                d.amount is not None and d.amount > 127 for d in hand.decisions
            )
    # The sample covers what the encoding must get right, in numbers that mean it.
    assert all(seen["games " + variant.name] == hands_per_game for variant in VARIANTS)
    assert seen["checked mid-hand"] >= 2 * len(VARIANTS) * hands_per_game
    for feature in ("timeouts", "all-ins", "side pots", "community card", "amounts over 127"):
        assert seen[feature] >= 50, seen


stakes_strategy = st.builds(
    lambda ante, bring_in, small, extra: Stakes(ante, min(bring_in, small), small, small + extra),
    st.integers(0, 10**6),
    st.integers(1, 10**6),
    st.integers(1, 10**6),
    st.integers(1, 10**9),
)


@given(
    st.lists(st.integers(0, 10**12), min_size=2, max_size=8).filter(
        lambda stacks: sum(1 for stack in stacks if stack) >= 2
    ),
    stakes_strategy,
    st.permutations(FULL_DECK),
    st.integers(0, 7),
    st.sampled_from(VARIANTS),
    st.integers(0, 2**32),
)
def test_any_hand_round_trips(
    stacks: list[int],
    stakes: Stakes,
    deck: list[Card],
    dealer: int,
    variant: Variant,
    seed: int,
) -> None:
    """Any stakes and stacks (numbers of many bytes), any deck, any dealer and game."""
    hand = StudHand(stacks, stakes, deck, dealer % len(stacks), variant=variant)
    rng = random.Random(seed)
    while hand.actor is not None:
        hand.apply(*(("timeout", None) if rng.random() < 0.1 else choose(hand, rng, 0.5)))
    restored = decode(encode(hand))
    assert snapshot(restored) == snapshot(hand)


def test_a_short_deck_round_trips() -> None:
    """StudHand takes a deck of fewer than 52 cards when that is enough: so does the record."""
    hand = StudHand([100, 100], Stakes(1, 3, 10, 20), FULL_DECK[:13], 0)
    rng = random.Random(1)
    while hand.actor is not None:
        hand.apply(*choose(hand, rng, 0.5))
    assert hand.community is not None  # 2 x 6 cards, then the last one shared
    assert snapshot(decode(encode(hand))) == snapshot(hand)


def golden_hand() -> StudHand:
    """A Razz hand of three with a raise, a timeout and a fold."""
    hand = stud(
        {0: "AsKd2c", 1: "3h4h9s", 2: "5c6dKs"},
        stacks=[500, 300, 200],
        stakes=Stakes(1, 2, 10, 20),
        variant=RAZZ,
    )
    hand.bring_in()  # Ks
    hand.raise_to(10)
    hand.timeout()  # seat 1 facing a bet: folds
    hand.call()
    return hand


# What format 3 writes for golden_hand() (the last byte: no seat always shows), and what format 2
# wrote for it: saved hands must read back as they were saved, so these may never change; a new
# layout is a new format number that decode also reads.
GOLDEN = (
    "030101020a140302f403ac02c80134cc632d29101fbc10831051c824b34e3d049351559761969b71d7a086"
    "28e49669e8a6aaecbb0c720403040a050200"
)
GOLDEN_2 = (
    "020101020a140302f403ac02c80134cc632d29101fbc10831051c824b34e3d049351559761969b71d7a086"
    "28e49669e8a6aaecbb0c720403040a0502"
)


def test_the_saved_format_does_not_change() -> None:
    hand = golden_hand()
    assert encode(hand).hex() == GOLDEN
    assert snapshot(decode(bytes.fromhex(GOLDEN))) == snapshot(hand)
    # Format 2 was written when every hand at a showdown was shown (before RULES 5.6).
    old = decode(bytes.fromhex(GOLDEN_2))
    assert old.always_show == frozenset(range(3))
    assert snapshot(old)[:-2] == snapshot(hand)[:-2]
    assert hand.decisions == (
        Decision("bring_in"),
        Decision("raise_to", 10),
        Decision("timeout"),
        Decision("call"),
    )


def test_hands_saved_as_json_still_load() -> None:
    """Format 1: ``to_dict()`` as JSON, as the store kept hands before (and older still, from
    before there were other games, without a variant: Stud High)."""
    rng = random.Random(3)
    for variant in VARIANTS:
        hand = random_deal(rng, variant)
        while hand.actor is not None:
            hand.apply(*choose(hand, rng, 0.4))
        saved = json.dumps(hand.to_dict(), separators=(",", ":")).encode()
        assert snapshot(decode(saved)) == snapshot(hand)
        assert len(encode(hand)) * 4 < len(saved)
    hand = random_deal(rng, STUD_HIGH)
    old = hand.to_dict()
    del old["variant"]
    assert snapshot(decode(json.dumps(old).encode())) == snapshot(hand)


def finished_hand() -> StudHand:
    rng = random.Random(11)
    hand = random_deal(rng, STUD_HI_LO)
    while hand.actor is not None:
        hand.apply(*choose(hand, rng, 0.5))
    return hand


def test_a_record_cut_short_or_padded_is_refused() -> None:
    saved = encode(finished_hand())
    for end in range(len(saved)):
        with pytest.raises(ValueError):
            decode(saved[:end])
    with pytest.raises(ValueError, match="to spare"):
        decode(saved + b"\x00")


def test_records_no_encoder_wrote_are_refused() -> None:
    hand = golden_hand()
    saved = bytearray(encode(hand))
    assert saved[0] == FORMAT
    # Format, game, four stakes, seats, dealer: a byte each; three stacks of two; the deck's size.
    deck_at = 1 + 1 + 4 + 1 + 1 + 3 * 2 + 1
    first_card = bytes([0xFC | saved[deck_at]])  # its six bits made 63: no such card
    refused = {
        "unknown saved hand format": bytes([9]) + saved[1:],
        "unknown game": saved[:1] + bytes([len(GAMES)]) + saved[2:],
        "card index must be": saved[:deck_at] + first_card + saved[deck_at + 1 :],
        # The last decision (the call, before the byte of seats that always show) given a code
        # no action has.
        "unknown decision": saved[:-2] + bytes([len(ACTIONS)]) + saved[-1:],
        # Seat 2, facing a bet, checks.
        "you can't check": saved[:-2] + bytes([ACTIONS.index("check")]) + saved[-1:],
        # Seat 3 of three (from 0) always shows.
        "beyond the table": saved[:-1] + bytes([0b1000]),
        "an empty saved hand": b"",
        "Expecting property name": b"{]",
        "unknown hand state version": b'{"actions": []}',
    }
    for reason, data in refused.items():
        with pytest.raises(ValueError, match=reason):
            decode(bytes(data))
