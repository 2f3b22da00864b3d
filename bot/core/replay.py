"""A finished hand as the frames of a replay (``render.replay``): the hand played again from
its stored decisions, one picture after each, as one viewer may see it.

The viewer sees what he saw at the table: everyone's up cards, his own down cards if he played
the hand (his copy only: the replay is his private answer), and at the showdown the hands that
were shown; a mucked hand stays unseen (RULES 5.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.core.announce import announce
from bot.core.games import game_name, game_of
from engine import events as ev
from engine.hand import StudHand
from engine.public import PrivateHand, PublicTable
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
        if again.is_over:
            seconds = END_SECONDS
        frames.append(frame(" · ".join(said), seconds))
    return tuple(frames)
