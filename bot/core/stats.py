"""Players' stats: what a settled hand adds to them, and how they are worded.

The store keeps the figures (``store.hands.settle`` counts each hand in the transaction that
settles it; ``store.reports.player_stats`` and ``store.reports.winnings`` read them).
:func:`hand_facts` finds, for each seat of a finished hand, what a tracker counts: whether he
was dealt in, put chips in voluntarily on the first street (VPIP), reached the showdown and
what he collected. The rest names periods and seasons and words the chart
(:func:`stats_chart`) in a language.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time

from bot.core.games import game_of
from bot.core.storage import HandFacts, Leaderboard, Period, PlayerStats, SeatFacts
from engine import events as ev
from engine.hand import StudHand
from render import NetChart
from words import Texts

# A choice to put chips in. The bring-in is forced and the antes are too: neither counts.
_VOLUNTARY = (ev.Call, ev.Complete, ev.Bet, ev.Raise)


def hand_facts(hand: StudHand) -> HandFacts:
    """What each seat of a finished ``hand`` did, for the stats (engine seat order)."""
    if not hand.is_over:
        raise ValueError("a hand counts in the stats once it is over")
    first_street = hand.variant.streets[0].number
    street = 0
    voluntary: set[int] = set()
    showdown: set[int] = set()
    for event in hand.events:
        if isinstance(event, ev.StreetStarted):
            street = event.street
        elif isinstance(event, _VOLUNTARY) and street == first_street:
            voluntary.add(event.seat)
        elif isinstance(event, ev.ShowdownStarted):
            showdown.update(event.order)
    dealt = set(hand.dealing_order)
    return HandFacts(
        game=game_of(hand.variant),
        seats=tuple(
            SeatFacts(
                dealt=seat in dealt,
                vpip=seat in voluntary,
                showdown=seat in showdown,
                collected=hand.payouts[seat],
            )
            for seat in range(hand.seats)
        ),
    )


def percent(part: int, whole: int) -> int:
    """``part`` of ``whole`` in whole percent (0 of nothing is 0)."""
    return round(100 * part / whole) if whole else 0


def period_text(texts: Texts, lang: str, period: Period, since: date | None) -> str:
    """ "This week, from Jan 6, 2025", "The whole season"."""
    if since is None or period == "all":
        return texts.t(lang, "period_all")
    start = texts.day(lang, datetime.combine(since, time(), UTC))
    return texts.t(lang, f"period_{period}", date=start)


def season_text(texts: Texts, lang: str, season: int, started: datetime | None) -> str:
    """ "Season 2, since Mar 3, 2025"; the first season has no start to name."""
    if started is None:
        return texts.t(lang, "season", season=season)
    return texts.t(lang, "season_since", season=season, date=texts.day(lang, started))


def heading(
    texts: Texts,
    lang: str,
    season: int,
    started: datetime | None,
    period: Period | None,
    since: date | None,
    game: str | None,
) -> str:
    """Which figures these are: the game (if one), the period (if any) and the season."""
    parts = [season_text(texts, lang, season, started)]
    if period is not None:
        parts.insert(0, period_text(texts, lang, period, since))
    if game is not None:
        parts.insert(0, texts.t(lang, f"game_{game}"))
    return " · ".join(parts)


def stats_heading(texts: Texts, lang: str, stats: PlayerStats) -> str:
    return heading(
        texts, lang, stats.season, stats.season_started, stats.period, stats.since, stats.game
    )


def board_heading(texts: Texts, lang: str, board: Leaderboard) -> str:
    return heading(
        texts, lang, board.season, board.season_started, board.period, board.since, board.game
    )


def stats_chart(stats: PlayerStats, name: str, texts: Texts, lang: str) -> NetChart:
    """The chart of ``stats.recent`` with its words in ``lang``."""
    t = texts.t
    count = len(stats.recent)
    return NetChart(
        title=t(lang, "pic_stats_title", name=name),
        subtitle=stats_heading(texts, lang, stats),
        nets=stats.recent,
        axis=t(lang, "pic_stats_axis", count=count, net=sum(stats.recent)) if count else "",
        empty=t(lang, "pic_stats_empty"),
        thousands=texts.pictures(lang).thousands,
    )
