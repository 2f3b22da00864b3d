"""The players out whose places the director has not given yet (RULES 11.4).

Usually one hand's, ranked as it ends. More wait together when the store refused the places
(they are tried again while other tables' hands end) or a crash came first (the restart finds
them): each hand's are still ranked on their own, in the order the hands ended, so only players
out in the same hand tie, or in the same round of hand-for-hand play (11.6), whose hands are one.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.tournament import Finish, rank_hands


@dataclass(frozen=True, slots=True)
class Out:
    """A player out: by the hand (or round) he went out in, then in dealing order at the
    lowest-numbered table."""

    group: int  # his hand's or round's, counted as they end: each is ranked on its own
    table: int
    order: int  # his place in that hand's dealing order (RULES 1.4)
    user_id: int
    began_with: int  # his chips when that hand began (11.4)

    def key(self) -> tuple[int, int, int]:
        return (self.group, self.table, self.order)


@dataclass(slots=True)
class Waiting:
    """The director's players out, from the ends of their hands to their places."""

    outs: list[Out] = field(default_factory=list)
    _groups: itertools.count[int] = field(default_factory=itertools.count)
    _round: int | None = None  # this hand-for-hand round's group, once one is out in it

    def hand_ended(self, hand_for_hand: bool, outs: Iterable[tuple[int, int, int, int]]) -> None:
        """A hand ended with these (table, order, player, chips he began with) out: a hand of
        its own, or of the hand-for-hand round under way."""
        if not hand_for_hand:
            group = next(self._groups)
        elif self._round is None:
            group = self._round = next(self._groups)
        else:
            group = self._round
        self.outs.extend(Out(group, *out) for out in outs)

    def restored(self, outs: Iterable[tuple[int, int, int, int]], in_round: bool) -> None:
        """After a restart: (hand, table, player, chips he began with) of those out in hands
        nobody ranked, ``hand`` counting the hands in the order they ended, sorted; all of one
        hand-for-hand round if ``in_round`` (which goes on: those out later in it tie too)."""
        self.outs = [
            Out(0 if in_round else hand, table, order, user, began)
            for order, (hand, table, user, began) in enumerate(outs)
        ]
        self._groups = itertools.count(1 + max((o.group for o in self.outs), default=0))
        self._round = 0 if in_round else None

    def ranked(self, players_before: int) -> tuple[list[Out], list[Finish]]:
        """Those waiting, in 11.4's order, and their places."""
        out = sorted(self.outs, key=Out.key)
        groups = itertools.groupby(out, key=lambda o: o.group)
        hands = [[(o.user_id, o.began_with) for o in hand] for _, hand in groups]
        return out, rank_hands(hands, players_before)

    def ranked_out(self, out: Iterable[Out]) -> None:
        """These have their places (others may have gone out since they were ranked); a
        hand-for-hand round after is another."""
        ranked = set(out)
        self.outs = [o for o in self.outs if o not in ranked]
        self._round = None
