"""The views of a table (``bot.core.views``), built from its state at the moment they are asked
for: the only place that turns a :class:`~bot.core.table.Table` into what the edge may see.

Public views take the hand through ``PublicTable.from_hand``, which has no field for a down
card; a player's own cards go only into his :class:`~bot.core.views.PrivateView`.
"""

from __future__ import annotations

from dataclasses import replace

from bot.core.announce import announce
from bot.core.games import game_name, game_of
from bot.core.storage import HandEnd
from bot.core.table import LiveHand, Table
from bot.core.views import (
    HandView,
    Picture,
    PrivateView,
    ResultsView,
    SeatInfo,
    TableInfo,
    TableView,
)
from engine import events as ev
from engine.odds import AllInOdds
from engine.public import PrivateHand, PublicTable
from render import SeatLabel, TableLabels
from words import Texts

# The events a finished hand's results list: what was shown and who won what.
_RESULT_EVENTS = (ev.HandShown, ev.HandMucked, ev.PotAwarded, ev.UncalledBetReturned)


def table_view(table: Table, texts: Texts, now: float) -> TableView | None:
    """The table's message as it should look ``now``; None once the table has closed."""
    if table.closed:
        return None
    lang = table.config.lang
    live = table.live
    coming = next_game(table, texts, lang)
    return TableView(
        channel_id=table.channel_id,
        lang=lang,
        stakes=table.config.stakes,
        game=table.rotation.game,
        next_game=coming,
        # The players waiting are listed on an idle table's message only.
        seats=seat_infos(table) if live is None else (),
        next_hand_at=table.next_hand_at,
        hand=None if live is None else _hand_view(table, live, texts, now, coming),
        level=None if table.tournament is None else table.tournament.level_clock(table),
    )


def _hand_view(
    table: Table, live: LiveHand, texts: Texts, now: float, coming: str | None
) -> HandView:
    hand = live.hand
    # Before his buttons are shown the actor's clock has not started: a full turn is his.
    deadline = live.deadline if live.deadline is not None else now + table.config.turn_seconds
    banking = live.banking_since is not None
    names = tuple(table.name(user_id) for user_id in live.users)
    public = PublicTable.from_hand(hand)
    labels = _labels(
        table,
        live,
        texts,
        names,
        coming,
        table.log[-1] if table.log else "",
        seconds=max(0, round(deadline - now)),
        banking=banking,
    )
    return HandView(
        hand_id=live.hand_id,
        seq=live.seq,
        game=game_of(hand.variant),
        street=hand.street,
        public=public,
        names=names,
        users=live.users,
        log=tuple(table.log),
        actor=None if hand.actor is None else names[hand.actor],
        deadline=deadline,
        on_time_bank=banking,
        buttons=tuple(table.buttons()),
        labels=labels,
        picture=still_picture(public, labels),
        commitment=live.commitment,
    )


def still_picture(public: PublicTable, labels: TableLabels) -> Picture:
    """The hand's picture without what a click changes: no stacks, bets or pot, nobody to act,
    nobody folded or all in, no clock and no last action. The message's text has them."""
    seats = tuple(
        replace(seat, stack=0, bet=0, committed=0, folded=False, all_in=False, is_actor=False)
        for seat in public.seats
    )
    still = replace(public, seats=seats, pot=0, pots=(), actor=None)
    names = tuple(
        None if label is None else SeatLabel(label.name, sitting_out=label.sitting_out)
        for label in labels.seats
    )
    return Picture(still, replace(labels, seats=names, last_action="", figures=False))


def results_view(
    table: Table,
    live: LiveHand,
    end: HandEnd,
    texts: Texts,
    last_action: str,
    odds: AllInOdds | None = None,
) -> ResultsView:
    """The finished hand ``live`` as settled (``end``): shown hands, pots and each player's
    result, in the table's language. ``last_action`` is the hand's own last line; ``odds``
    the chances of the hands all in when the betting stopped (``engine.odds``)."""
    hand = live.hand
    lang = table.config.lang

    def name_of(seat: int) -> str:
        return table.name(live.users[seat])

    lines = (
        announce(event, texts, lang, name_of, table.config.stakes, hand.variant)
        for event in hand.events
        if isinstance(event, _RESULT_EVENTS)
    )
    names = tuple(table.name(user_id) for user_id in live.users)
    coming = next_game(table, texts, lang)
    said = [line for line in lines if line]
    if odds is not None:
        said.insert(0, odds_line(odds, texts, lang, names, low_game=hand.variant.low is not None))
    return ResultsView(
        hand_id=live.hand_id,
        lang=lang,
        game=game_of(hand.variant),
        stakes=table.config.stakes,
        street=hand.street,
        public=PublicTable.from_hand(hand),
        labels=_labels(table, live, texts, names, coming, last_action, odds=odds),
        lines=tuple(said),
        nets=tuple(
            (name, end.net[user_id]) for name, user_id in zip(names, live.users, strict=True)
        ),
        next_hand_at=table.next_hand_at,
        next_game=coming,
        commitment=live.commitment,
        odds=odds,
    )


def odds_line(
    odds: AllInOdds, texts: Texts, lang: str, names: tuple[str, ...], *, low_game: bool
) -> str:
    """ "All in on 4th street, the chances were: Ann 62%, Bob 38%" (an estimate says so)."""
    split = low_game and any(chances.high for chances in odds.seats)

    def percent(share: float) -> str:
        return f"{round(100 * share)}%"

    parts = []
    for chances in odds.seats:
        if split:
            figures = texts.t(
                lang,
                "odds_halves",
                high=percent(chances.high),
                low=percent(chances.low),
                scoop=percent(chances.scoop),
            )
        else:
            figures = percent(chances.win)
        parts.append(f"{names[chances.seat]} {figures}")
    if odds.street:
        street = texts.pictures(lang).street_name(odds.street)
    else:
        street = texts.t(lang, "odds_antes")
    key = "odds_exact" if odds.exact else "odds_estimate"
    return texts.t(lang, key, street=street, chances=", ".join(parts))


def _labels(
    table: Table,
    live: LiveHand,
    texts: Texts,
    names: tuple[str, ...],
    coming: str | None,
    last_action: str,
    *,
    seconds: int | None = None,
    banking: bool = False,
    odds: AllInOdds | None = None,
) -> TableLabels:
    """The picture's labels: names, the actor's ``seconds`` (his bank's, when ``banking``), what
    just happened and which game comes next."""
    lang = table.config.lang
    actor = live.hand.actor
    return TableLabels(
        seats=tuple(
            SeatLabel(
                name,
                seconds_left=seconds if seat == actor else None,
                on_time_bank=seat == actor and banking,
            )
            for seat, name in enumerate(names)
        ),
        last_action=last_action,
        four_colour=table.config.four_colour,
        words=texts.pictures(lang),
        game=game_name(texts, game_of(live.hand.variant), lang),
        next_game=" · ".join(filter(None, (_level_label(table, texts, lang), coming))),
        odds=odds,
    )


def private_view(
    table: Table, live: LiveHand, user_id: int, four_colour: bool, *, name: str, lang: str
) -> PrivateView:
    """The player's own cards in ``live`` as they are now, for him alone."""
    seat = live.seat_of(user_id)
    assert seat is not None, "a player's cards are his own hand's"
    return PrivateView(
        user_id=user_id,
        hand_id=live.hand_id,
        game=game_of(live.hand.variant),
        cards=PrivateHand.for_seat(live.hand, seat),
        name=name,
        lang=lang,
        four_colour=four_colour,
    )


def table_info(table: Table, texts: Texts, lang: str) -> TableInfo:
    """``/table info`` for a player reading in ``lang``."""
    return TableInfo(table.config, next_game(table, texts, lang), seat_infos(table))


def seat_infos(table: Table) -> tuple[SeatInfo, ...]:
    """Every seated player by place; his chips in the hand if he is in it."""
    live = table.live
    infos = []
    for seat in sorted(table.seats.values(), key=lambda s: s.position):
        stack = seat.stack
        if live is not None and (index := live.seat_of(seat.user_id)) is not None:
            stack = live.hand.stacks[index]
        infos.append(
            SeatInfo(
                seat.position,
                table.name(seat.user_id),
                stack,
                seat.sitting_out,
                seat.leaving,
                seat.user_id,
            )
        )
    return tuple(infos)


def next_game(table: Table, texts: Texts, lang: str) -> str | None:
    """On a mixed table, which game comes next and when ("Razz after 3 more hands")."""
    rotation = table.rotation
    if not rotation.mixed:
        return None
    if rotation.left is None:
        return texts.t(lang, "rotation_next_hand", game=game_name(texts, rotation.game, lang))
    return texts.t(
        lang,
        "rotation_next",
        game=game_name(texts, rotation.after, lang),
        count=rotation.left,
    )


def _level_label(table: Table, texts: Texts, lang: str) -> str | None:
    """A tournament table's level, for its picture ("Level 4"); its stakes are drawn beside."""
    clock = None if table.tournament is None else table.tournament.level_clock(table)
    return None if clock is None else texts.t(lang, "tournament_level_short", level=clock.number)
