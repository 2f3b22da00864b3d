"""Who finishes where (RULES 11.4) and when tables play hand for hand (11.6)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from itertools import groupby


@dataclass(frozen=True, slots=True)
class Finish:
    """Players who finished tied at ``place`` (1 is the winner), in dealing order (11.4)."""

    place: int
    players: tuple[int, ...]


def rank_out(out: Sequence[tuple[int, int]], players_before: int) -> list[Finish]:
    """Places for the players out in one hand (or one hand-for-hand round).

    ``out`` holds (player, chips he began the hand with), in dealing order at the lowest-numbered
    table first; ``players_before`` is how many were in the tournament before they went out. More
    chips at the start of the hand finishes higher; equal stacks tie.
    """
    if len(out) > players_before:
        raise ValueError("more players out than were left")
    finishes: list[Finish] = []
    place = players_before - len(out) + 1
    by_stack = sorted(enumerate(out), key=lambda item: (-item[1][1], item[0]))
    for _, group in groupby(by_stack, key=lambda item: item[1][1]):
        tied = tuple(player for _, (player, _) in group)
        finishes.append(Finish(place, tied))
        place += len(tied)
    return finishes


def rank_hands(hands: Sequence[Sequence[tuple[int, int]]], players_before: int) -> list[Finish]:
    """Places for the players out in several hands (or hand-for-hand rounds), each hand's as
    ``rank_out`` ranks it: ``hands`` in the order they ended, so the first one's players finish
    below the next one's, whatever chips they began with (only players out in the same hand or
    round tie, 11.4)."""
    finishes: list[Finish] = []
    for out in hands:
        finishes.extend(rank_out(out, players_before))
        players_before -= len(out)
    return finishes


def places_after_reentry(finishes: Sequence[Finish], user_id: int) -> list[Finish]:
    """The places once ``user_id`` is in again: his is gone, and those out after him or tied
    with him finish one lower (docs/rules.md 11.9)."""
    mine = next((f.place for f in finishes if user_id in f.players), None)
    if mine is None:
        return list(finishes)
    kept: list[Finish] = []
    for finish in finishes:
        players = tuple(p for p in finish.players if p != user_id)
        if players:
            kept.append(Finish(finish.place + (finish.place <= mine), players))
    return kept


def hand_for_hand(players_left: int, places_paid: int, tables: int) -> bool:
    """Whether tables keep in step (11.6): on the bubble, with more than one table.

    We read "the next player out would finish in the money" as the moment one more elimination
    puts everyone still in the money (docs/rules.md 11.6).
    """
    return tables > 1 and players_left == places_paid + 1


def round_dealt(dealt: Mapping[int, int], playing: Set[int]) -> set[int]:
    """The tables that have dealt in the hand-for-hand round under way (11.6), from the hands
    each table has dealt since the bubble (``dealt``, by table) and those with a hand in play.

    Every table deals one hand a round: those that have dealt one more than the others have
    dealt in this round. All even, the round is over unless a hand is in play: then, as at the
    bubble with a hand dealt before it, every table has played its part of it.
    """
    most = max(dealt.values(), default=0)
    if all(count == most for count in dealt.values()):
        return set(dealt) if playing else set()
    return {table for table, count in dealt.items() if count == most}
