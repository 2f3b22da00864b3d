"""RULES 11: levels (11.2), places (11.4), balancing and breaking (11.5), hand-for-hand (11.6),
prizes (11.7), as pure functions."""

from __future__ import annotations

import itertools
import math
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tournament import (
    STRUCTURES,
    Break,
    Finish,
    award,
    hand_for_hand,
    level_at,
    paid_places,
    payout_shares,
    plan_after_hand,
    prize_table,
    rank_hands,
    rank_out,
    round_dealt,
    seat_entrants,
    structure,
)


def test_standard_levels_are_the_rule_books_table() -> None:
    """11.2: levels 1-12 as listed, then S and L grow by half, A = S/5 and B = S/4 to 5s."""
    standard = structure("standard")
    first = standard.level(1).stakes
    assert (first.small_bet, first.big_bet, first.ante, first.bring_in) == (20, 40, 3, 5)
    twelfth = standard.level(12).stakes
    assert (twelfth.small_bet, twelfth.big_bet, twelfth.ante, twelfth.bring_in) == (
        1000,
        2000,
        200,
        300,
    )
    thirteenth = standard.level(13).stakes
    assert (thirteenth.small_bet, thirteenth.big_bet) == (1500, 3000)
    assert (thirteenth.ante, thirteenth.bring_in) == (300, 375)
    fourteenth = standard.level(14).stakes
    assert (fourteenth.small_bet, fourteenth.big_bet) == (2250, 4500)
    assert (fourteenth.ante, fourteenth.bring_in) == (450, 565)  # 562.5 rounds up
    assert standard.starting_stack == 50 * first.big_bet


@pytest.mark.parametrize("name", sorted(STRUCTURES))
def test_every_structure_rises_and_stays_legal(name: str) -> None:
    levels = [STRUCTURES[name].level(n).stakes for n in range(1, 41)]
    for lower, higher in itertools.pairwise(levels):
        assert higher.small_bet > lower.small_bet
        assert higher.ante >= lower.ante and higher.bring_in >= lower.bring_in
    for stakes in levels:
        assert stakes.small_bet % 5 == 0 and stakes.big_bet == 2 * stakes.small_bet


def test_unknown_structure_names_the_ones_there_are() -> None:
    with pytest.raises(ValueError, match="standard, turbo, deep"):
        structure("hyper")


def test_level_at_counts_whole_levels() -> None:
    assert [level_at(t, 600) for t in (0, 599, 600, 1799, 1800)] == [1, 1, 2, 3, 4]
    assert level_at(-5, 10) == 1


@pytest.mark.parametrize(
    ("entrants", "shares"),
    [
        (2, (100,)),
        (4, (100,)),
        (5, (65, 35)),
        (12, (50, 30, 20)),
        (13, (40, 25, 17, 11, 7)),
        (40, (33, 21, 15, 11, 8, 7, 5)),
    ],
)
def test_payouts_follow_the_table(entrants: int, shares: tuple[int, ...]) -> None:
    """11.7's table."""
    assert payout_shares(entrants) == tuple(float(s) for s in shares)


def test_above_forty_the_top_fifteen_percent_are_paid_on_a_curve() -> None:
    assert paid_places(41) == 7 and paid_places(100) == 15 and paid_places(200) == 30
    for curve in ("standard", "steep", "flat"):
        shares = payout_shares(200, curve)
        assert math.isclose(sum(shares), 100)
        assert all(a > b for a, b in itertools.pairwise(shares))
    assert payout_shares(200, "steep")[0] > payout_shares(200, "flat")[0]


@given(pool=st.integers(0, 10**7), entrants=st.integers(2, 500))
def test_the_pool_is_paid_in_full_and_the_winner_gets_the_rest(pool: int, entrants: int) -> None:
    """11.7: rounded down, what rounding leaves to the winner; nothing made or lost (11.1)."""
    prizes = prize_table(pool, entrants)
    assert sum(prizes) == pool
    assert len(prizes) == paid_places(entrants)
    floors = [math.floor(pool * share / 100) for share in payout_shares(entrants)]
    assert list(prizes[1:]) == floors[1:]
    assert prizes[0] >= floors[0]


def test_players_out_together_rank_by_the_stack_they_began_with() -> None:
    """11.4: more chips at the start of the hand finishes higher; equal stacks tie."""
    assert rank_out([(1, 100), (2, 300), (3, 100)], players_before=5) == [
        Finish(3, (2,)),
        Finish(4, (1, 3)),
    ]


def test_players_out_in_different_hands_never_tie() -> None:
    """11.4 ties only players out in the same hand: the hand that ended first ranks below."""
    first, second = [(1, 100), (2, 100)], [(3, 100), (4, 300)]
    assert rank_hands([first, second], players_before=6) == [
        Finish(5, (1, 2)),
        Finish(3, (4,)),
        Finish(4, (3,)),
    ]
    assert rank_hands([first + second], players_before=6) == rank_out(first + second, 6)


def test_a_hand_for_hand_round_is_read_from_the_hands_each_table_dealt() -> None:
    """11.6 after a restart: the tables one hand ahead have dealt in the round under way."""
    assert round_dealt({1: 3, 2: 2, 3: 3}, playing=set()) == {1, 3}
    assert round_dealt({1: 3, 2: 2, 3: 3}, playing={3}) == {1, 3}
    # All even: the round is over, or, with a hand still in play, every table has had its turn.
    assert round_dealt({1: 2, 2: 2}, playing=set()) == set()
    assert round_dealt({1: 2, 2: 2}, playing={2}) == {1, 2}
    assert round_dealt({1: 0, 2: 0}, playing={1}) == {1, 2}


def test_tied_places_share_their_prizes_odd_chip_to_the_first_dealt() -> None:
    """11.4: two tied for 2nd and 3rd share 30 + 20 of a 101-chip pool... one chip over."""
    prizes = prize_table(101, 8)
    assert prizes == (51, 30, 20)
    assert award([(1, (9,)), (2, (4, 7))], prizes) == {9: 51, 4: 25, 7: 25}
    assert award([(1, (9,)), (2, (4, 7))], (51, 31, 20)) == {9: 51, 4: 26, 7: 25}


def test_a_tie_across_the_last_paid_place_shares_only_what_is_paid() -> None:
    prizes = prize_table(100, 5)  # 65, 35
    assert award([(2, (3, 5))], prizes) == {3: 18, 5: 17}


def test_hand_for_hand_is_on_the_bubble_with_more_than_one_table() -> None:
    """11.6, as docs/rules.md reads it."""
    assert hand_for_hand(players_left=8, places_paid=7, tables=2)
    assert not hand_for_hand(players_left=9, places_paid=7, tables=2)
    assert not hand_for_hand(players_left=7, places_paid=7, tables=2)
    assert not hand_for_hand(players_left=8, places_paid=7, tables=1)


@given(entrants=st.integers(2, 120), seats=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_entrants_sit_at_as_few_tables_as_can_be_as_evenly(
    entrants: int, seats: int, seed: int
) -> None:
    """11.5: as few tables as the seats allow, spread as evenly as possible, each once."""
    tables = seat_entrants(range(entrants), seats, Random(seed))
    assert len(tables) == math.ceil(entrants / seats)
    counts = [sum(p is not None for p in row) for row in tables.values()]
    assert max(counts) - min(counts) <= 1
    seated = sorted(p for row in tables.values() for p in row if p is not None)
    assert seated == list(range(entrants))
    assert tables == seat_entrants(range(entrants), seats, Random(seed))


@given(
    entrants=st.integers(9, 60),
    seats=st.integers(2, 8),
    seed=st.integers(0, 2**32),
)
def test_balancing_and_breaking_down_to_the_final_table(
    entrants: int, seats: int, seed: int
) -> None:
    """11.5 through a whole tournament: players go out at random, tables finish hands in turn.

    Nobody is lost or seated twice; a table that breaks is the highest-numbered; after every
    table has had a hand since the last elimination, no table has two fewer than another and
    there are as few tables as the players need.
    """
    rng = Random(seed)
    tables = seat_entrants(range(entrants), seats, Random(seed))
    left = set(range(entrants))
    quiet = False
    while len(left) > 1:
        # One hand at each table in turn; someone may go out at it, except in quiet rounds,
        # played until no table changes: one table breaks a round at most.
        changed = False
        for number in sorted(tables):
            if number not in tables:
                continue
            row = tables[number]
            players = [p for p in row if p is not None]
            if not quiet and len(players) > 1 and rng.random() < 0.5:
                out = rng.choice(players)
                row[row.index(out)] = None
                left.discard(out)
            plan = plan_after_hand(tables, number, Random(rng.getrandbits(32)))
            moves = plan.moves if isinstance(plan, Break) else tuple(plan)
            changed = changed or bool(moves) or isinstance(plan, Break)
            if isinstance(plan, Break):
                assert plan.table == max(tables)
                del tables[plan.table]
            for move in moves:
                assert move.from_table == number
                if not isinstance(plan, Break):
                    source = tables[move.from_table]
                    source[source.index(move.player)] = None
                target = tables[move.to_table]
                assert target[move.to_seat - 1] is None
                target[move.to_seat - 1] = move.player
            seated = sorted(p for row in tables.values() for p in row if p is not None)
            assert seated == sorted(left)
        if quiet and not changed:
            counts = [sum(p is not None for p in row) for row in tables.values()]
            assert len(tables) == math.ceil(len(left) / seats)
            assert max(counts) - min(counts) <= 1
        quiet = not quiet or changed
