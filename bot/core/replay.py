"""A finished hand as the frames of a replay (``render.replay``): the hand played again from
its stored decisions, one picture after each, as one viewer may see it.

The viewer sees what he saw at the table: everyone's up cards, his own down cards if he played
the hand (his copy only: the replay is his private answer), and at the showdown the hands that
were shown; a mucked hand stays unseen (RULES 5.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from bot.core.announce import announce
from bot.core.games import game_name, game_of
from engine import events as ev
from engine.hand import StudHand
from engine.odds import position
from engine.public import PrivateCard, PrivateHand, PublicTable, pots_in_play
from render import SeatLabel, TableLabels
from render.replay import Frame
from words import Texts

# How long each picture stays: long enough to read on a phone.
DEAL_SECONDS: Final = 2.0
ACTION_SECONDS: Final = 1.3
NEW_STREET_SECONDS: Final = 2.2  # a decision after which the next street's cards came
END_SECONDS: Final = 6.0


def replay_frames(
    hand: StudHand,
    *,
    viewer: int | None,
    names: Sequence[str],
    hand_id: int,
    texts: Texts,
    lang: str,
    four_colour: bool,
) -> tuple[Frame, ...]:
    """The finished ``hand`` again, from its start: a frame after the deal and after each
    decision, the last one its end. ``names`` are by seat; ``viewer`` is the seat of the player
    asking, or None for one who did not play it."""
    if not hand.is_over:
        raise ValueError("only a finished hand is replayed")
    again = StudHand(
        list(hand.starting_stacks),
        hand.stakes,
        hand.deck,
        hand.dealer,
        variant=hand.variant,
        always_show=hand.always_show,
    )
    words = texts.pictures(lang)
    game = game_name(texts, game_of(hand.variant), lang)
    caption = texts.t(lang, "replay_caption", hand_id=hand_id)

    def name_of(seat: int) -> str:
        return names[seat]

    def frame(last_action: str, seconds: float) -> Frame:
        labels = TableLabels(
            seats=tuple(SeatLabel(name) for name in names),
            last_action=last_action,
            four_colour=four_colour,
            words=words,
            game=game,
            next_game=caption,
        )
        own = None
        if viewer is not None and viewer in again.dealing_order:
            own = PrivateHand.for_seat(again, viewer)
        return Frame(PublicTable.from_hand(again), labels, own, seconds)

    frames = [frame("", DEAL_SECONDS)]
    seen = len(again.events)
    for decision in hand.decisions:
        street = again.street
        again.decide(decision)
        new = again.events[seen:]
        seen = len(again.events)
        said = [
            line
            for event in new
            if isinstance(event, ev.Action | ev.TimedOut)
            and (line := announce(event, texts, lang, name_of, hand.stakes, hand.variant))
        ]
        seconds = NEW_STREET_SECONDS if again.street != street else ACTION_SECONDS
        line = " · ".join(said)
        all_in = None
        if again.is_over:
            seconds = END_SECONDS
            all_in = position(again)
            if all_in is not None:
                # The cards dealt with no betting (RULES 2.4) come a street at a time, too,
                # with the hands' chances as the table showed them.
                for view, cards in _run_out(again, viewer):
                    street_frame = frame(line, NEW_STREET_SECONDS)
                    own = street_frame.own
                    if own is not None:
                        # His cards by then; what they make is the showdown's to say.
                        own = replace(own, cards=cards, community=view.community, best_five=())
                    frames.append(
                        replace(street_frame, view=view, own=own, all_in=all_in, seed=hand_id)
                    )
                    line = ""
        frames.append(replace(frame(line, seconds), all_in=all_in, seed=hand_id))
    return tuple(frames)


def _run_out(
    hand: StudHand, viewer: int | None
) -> list[tuple[PublicTable, tuple[PrivateCard, ...]]]:
    """The finished ``hand`` as the table saw it after each street dealt with no betting,
    before the showdown, with the viewer's own cards by then."""
    assert hand.run_out_from is not None
    end = PublicTable.from_hand(hand)
    dealt = [e for e in hand.events if isinstance(e, ev.CardDealt)]
    last_street = hand.variant.streets[-1].number
    found = []
    for street in range(hand.run_out_from, last_street + 1):
        by_seat: dict[int, list[ev.CardDealt]] = {}
        for card in dealt:
            if card.street <= street:
                by_seat.setdefault(card.seat, []).append(card)
        seats = tuple(
            replace(
                seat,
                stack=seat.stack - seat.won,  # what he had before the pots were paid
                up_cards=tuple(c.card for c in by_seat.get(seat.seat, []) if c.face_up),
                down_count=sum(1 for c in by_seat.get(seat.seat, []) if not c.face_up),
                shown=None,
                won=0,
                mucked=False,
            )
            for seat in end.seats
        )
        view = replace(
            end,
            seats=seats,
            street=street,
            pots=pots_in_play(seats),
            community=hand.community if street == last_street else None,
            is_over=False,
            results=(),
        )
        own = by_seat.get(viewer, []) if viewer is not None else []
        found.append((view, tuple(PrivateCard(c.card, c.face_up) for c in own)))
    return found
