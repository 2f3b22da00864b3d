"""Replays in the core: a replay's frames show the viewer his own down cards if he played
the hand, everyone else's only where they were shown, and a mucked hand never (RULES 5.6)."""

from __future__ import annotations

import pytest

from bot.core.replay import END_SECONDS, replay_frames
from engine.events import HandMucked, HandShown
from engine.hand import StudHand
from render.replay import Frame
from tests.engine.decks import call_down, stud
from tests.texts import TEXTS


def frames_for(hand: StudHand, viewer: int | None) -> tuple[Frame, ...]:
    return replay_frames(
        hand,
        viewer=viewer,
        names=["Ann", "Bob", "Cy"],
        hand_id=7,
        texts=TEXTS,
        lang="en",
        four_colour=False,
    )


@pytest.fixture
def hand() -> StudHand:
    # Seat 0 shows two pair first; seats 1 and 2, beaten, muck.
    played = stud({0: "AsAd2c2d3h9sKc", 1: "KsKd4c5h7h8sJc", 2: "QsQd3c6h9d8cTc"})
    call_down(played)
    assert [e.seat for e in played.events if isinstance(e, HandMucked)] == [1, 2]
    return played


def test_a_frame_after_the_deal_and_after_every_decision_then_the_end(hand: StudHand) -> None:
    frames = frames_for(hand, viewer=1)
    assert len(frames) == 1 + len(hand.decisions)
    assert frames[0].view.street == 3 and frames[0].labels.last_action == ""
    assert frames[1].labels.last_action.startswith("Ann brings in")
    assert [frame.view.is_over for frame in frames] == [False] * (len(frames) - 1) + [True]
    assert frames[-1].seconds == END_SECONDS
    assert {frame.view.street for frame in frames} == {3, 4, 5, 6, 7}
    assert frames[-1].labels.next_game == "Replay of hand #7"


def test_the_viewer_sees_his_own_cards_and_only_the_shown_hands_of_others(
    hand: StudHand,
) -> None:
    for viewer in (0, 1, None):
        frames = frames_for(hand, viewer)
        for frame in frames:
            own = frame.own
            if viewer is None:
                assert own is None
            else:
                assert own is not None and own.seat == viewer
                assert [card.card for card in own.cards] == [
                    card for card, _ in hand.cards(viewer)[: len(own.cards)]
                ]
        last = frames[-1].view
        shown = {e.seat for e in hand.events if isinstance(e, HandShown)}
        assert {seat.seat for seat in last.seats if seat.shown is not None} == shown == {0}
        assert [seat.mucked for seat in last.seats] == [False, True, True]
        # Before the end no picture has any shown hand (PublicTable refuses one).
        assert all(seat.shown is None for frame in frames[:-1] for seat in frame.view.seats)


def test_only_a_finished_hand_is_replayed() -> None:
    live = stud({0: "AsAd2c", 1: "KsKd4c"})
    with pytest.raises(ValueError, match="finished"):
        frames_for(live, viewer=0)


def test_a_run_out_comes_a_street_at_a_time_before_the_showdown() -> None:
    """RULES 2.4: all in on 3rd street, the other streets dealt with no betting."""
    played = stud({0: "AsAd2c2d3h9sKc", 1: "KsKd4c5h7h8sJc"}, stacks=[1000, 14])
    while played.actor is not None:
        legal = played.legal()
        if legal.raise_to:
            played.raise_to(legal.raise_to[-1])
        elif legal.call is not None:
            played.call()
        else:
            played.bring_in()
    assert played.run_out_from == 4
    frames = frames_for(played, viewer=1)
    streets = [(frame.view.street, frame.view.is_over) for frame in frames]
    assert streets[-5:] == [(4, False), (5, False), (6, False), (7, False), (7, True)]
    for frame in frames[-5:-1]:
        seat = frame.view.seats[1]
        own = frame.own
        assert own is not None and len(own.cards) == len(seat.up_cards) + seat.down_count
        assert frame.view.pot == sum(played.committed)
        assert all(seat.shown is None and seat.won == 0 for seat in frame.view.seats)
    assert len(frames[-2].view.seats[0].up_cards) == 4 and frames[-2].view.seats[0].down_count == 3
    # The chances when the betting stopped go on the run-out's frames and the showdown, as on
    # the table's results; the frames before carry none.
    assert all(frame.all_in is not None and frame.seed == 7 for frame in frames[-5:])
    assert all(frame.all_in is None for frame in frames[:-5])
