"""The running lobby's embed (issue 21 point 2, RULES 11.2, 11.4): each table's thread and
players with their stacks in chips and big bets, the level and the time to the next, the
places so far; within Discord's limits however many play (200 entrants: point 9)."""

from __future__ import annotations

from dataclasses import replace

from bot.core.views import LobbyView
from bot.edge.lobby import lobby_embed
from engine.stakes import Stakes
from tests.texts import TEXTS

RUNNING = LobbyView(
    tournament_id=4,
    channel_id=10,
    message_id=900,
    lang="en",
    game="stud",
    state="running",
    buy_in=100,
    starting_stack=1500,
    seats=3,
    start_entrants=None,
    entrants=(1, 2, 3, 4),
    prize_pool=400,
    payouts=(280, 120),
    tables=((1, 5001), (2, 5002)),
    places=((4, 4, 0),),
    stacks=((1, 1, 3000), (1, 2, 1450), (2, 3, 1550)),
    level=2,
    stakes=Stakes(ante=5, bring_in=10, small_bet=50, big_bet=100),
    level_unit="seconds",
    to_next_level=61,
)


def text(embed_fields: list[tuple[str, str]]) -> str:
    return "\n".join(f"{name}\n{value}" for name, value in embed_fields)


def fields(view: LobbyView) -> list[tuple[str, str]]:
    embed = lobby_embed(view, TEXTS)
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    assert all(len(f.value or "") <= 1024 and len(f.name or "") <= 256 for f in embed.fields)
    return [(f.name or "", f.value or "") for f in embed.fields]


def test_the_running_lobby_shows_stacks_the_level_and_the_places() -> None:
    shown = text(fields(RUNNING))
    assert "Level 2: limits 50/100\nThe next level in 2 minutes" in shown
    assert "Table 1\n<#5001>\n<@1>: 3,000 (30 big bets)\n<@2>: 1,450 (14.5 big bets)" in shown
    assert "Table 2\n<#5002>\n<@3>: 1,550 (15.5 big bets)" in shown
    assert "4. <@4>: 0" in shown
    hands = text(fields(replace(RUNNING, level_unit="hands", to_next_level=1)))
    assert "The next level in 1 hand\n" in hands


def test_the_lobby_in_russian() -> None:
    shown = text(fields(replace(RUNNING, lang="ru")))
    assert "Уровень 2: ставки 50/100\nСледующий уровень через 2 минуты" in shown  # noqa: RUF001
    assert "Стол 1\n<#5001>\n<@1>: 3" in shown and "(30 больших ставок)" in shown


def test_two_hundred_entrants_stay_within_discords_limits() -> None:
    users = range(10**17, 10**17 + 200)
    view = replace(
        RUNNING,
        entrants=tuple(users),
        tables=tuple((n, 5000 + n) for n in range(1, 26)),
        stacks=tuple((1 + i // 8, user, 1500) for i, user in enumerate(users)),
        places=(),
        payouts=tuple(range(30, 0, -1)),
    )
    shown = fields(view)
    assert shown[-1][0] == "and 4 more", "the tables beyond the 25 fields are counted"
    assert any(value.endswith(" more") for _, value in shown), "a long list is cut"
    entrants = shown[0][1]
    assert entrants.startswith(f"<@{10**17}>, ") and entrants.endswith(" more")
    assert entrants.count("<@") == entrants.count(">"), "no mention is cut in two"
    big = replace(view, places=tuple((200 - i, user, 0) for i, user in enumerate(users)))
    assert any(value.endswith(" more") for _, value in fields(big))
