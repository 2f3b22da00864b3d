"""bot.core.outbox: a request to show the table is built when the edge takes it, so one still
waiting shows every later change; it takes a later request's place when only DMs, which the
channel never sees, stand between them (so a hand's deal is one post)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from bot.core.outbox import Effect, Line, Outbox, Why
from bot.core.views import PrivateView, TableView
from engine.public import PrivateHand
from words import Texts


class _Reports:
    def delivered(self, outbox: Outbox, effect: Effect) -> None:
        pass

    def posted(self, outbox: Outbox, effect: Effect, message_id: int) -> None:
        pass

    def failed(self, outbox: Outbox, effect: Effect, why: Why, permissions: Sequence[str]) -> None:
        pass


def _outbox(built: list[int]) -> Outbox:
    def view() -> TableView:
        built.append(len(built))
        return cast(TableView, ("table", len(built)))

    return Outbox(
        1, 2, texts=Texts(), lang="en", view=view, reports=_Reports(), wake=lambda outbox: None
    )


def _cards(user_id: int) -> PrivateView:
    return PrivateView(user_id, 7, "stud", cast(PrivateHand, None), "p", "en", False)


def _taken(outbox: Outbox) -> list[object]:
    taken: list[object] = []
    while (effect := outbox.take()) is not None:
        taken.append(effect)
    return taken


def test_a_redraw_behind_only_dms_is_the_one_waiting() -> None:
    built: list[int] = []
    outbox = _outbox(built)
    outbox.redraw()
    outbox.put(_cards(1))
    outbox.put(_cards(2))
    outbox.redraw()
    assert len(outbox) == 3
    assert _taken(outbox) == [("table", 1), _cards(1), _cards(2)]
    assert built == [0]


def test_a_redraw_behind_a_channel_message_keeps_its_place() -> None:
    built: list[int] = []
    outbox = _outbox(built)
    outbox.redraw()
    outbox.put(Line("timed out", None))
    outbox.redraw()
    assert _taken(outbox) == [("table", 1), Line("timed out", None), ("table", 2)]


def test_a_redraw_after_the_waiting_one_was_taken_is_kept() -> None:
    built: list[int] = []
    outbox = _outbox(built)
    outbox.redraw()
    assert _taken(outbox) == [("table", 1)]
    outbox.put(_cards(1))
    outbox.redraw()
    assert _taken(outbox) == [_cards(1), ("table", 2)]
