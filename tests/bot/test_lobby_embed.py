"""The running lobby's embed (RULES 11.2, 11.4): each table's thread and
players with their stacks in chips and big bets, the level and the time to the next, the
places so far; within Discord's limits however many play (200 entrants)."""

from __future__ import annotations

import itertools
import re
from dataclasses import replace
from typing import Any

import discord
import pytest

from bot.core.errors import TableError
from bot.core.views import LobbyView
from bot.edge.lobby import entrants_page, lobby_buttons, lobby_embed
from engine.stakes import Stakes
from tests.e2e.discord_rules import duplicate_custom_ids, embed_problems, message_problems
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


TWO_HUNDRED = range(10**17, 10**17 + 200)


def two_hundred(lang: str = "en") -> LobbyView:
    """200 entrants at 25 tables of 8, each stack its own, 20 out with their places."""
    users = list(TWO_HUNDRED)
    return replace(
        RUNNING,
        lang=lang,
        entrants=tuple(users),
        tables=tuple((n, 5000 + n) for n in range(1, 26)),
        stacks=tuple((1 + i // 8, user, 1500 + i) for i, user in enumerate(users[:180])),
        # Best first, as the desk gives them: the last to go out took 181st.
        places=tuple(sorted((200 - i, user, 0) for i, user in enumerate(users[180:]))),
        payouts=tuple(range(30, 0, -1)),
    )


def within_limits(embed: discord.Embed, buttons: discord.ui.View | None) -> None:
    shown: dict[str, Any] = dict(embed.to_dict())
    assert embed_problems([shown]) == []
    rows = [] if buttons is None else [dict(row) for row in buttons.to_components()]
    assert message_problems({"embeds": [shown], "components": rows}) == []
    assert duplicate_custom_ids(rows) == []


def test_two_hundred_entrants_stay_within_discords_limits() -> None:
    view = two_hundred()
    embed = lobby_embed(view, TEXTS)
    within_limits(embed, lobby_buttons(view, TEXTS))
    shown = [(f.name or "", f.value or "") for f in embed.fields]
    assert shown[0] == (
        "200 entrants",
        "180 still playing. Entrants lists every one privately.",
    )
    # The summary names the leaders: the biggest stacks, with their tables.
    assert shown[1][0] == "Leaders"
    leaders = shown[1][1].splitlines()
    assert leaders[0] == f"1. <@{10**17 + 179}>: 1,679 (16.8 big bets) · table 23"
    assert len(leaders) == 5
    # Entrants, leaders, pool, level and places leave 20 fields: 19 tables, then the rest.
    assert shown[-1][0] == "and 6 more", "the tables beyond the 25 fields are counted"
    assert sum(name.startswith("Table ") for name, _ in shown) == 19
    assert any(value.endswith(" more") for _, value in shown), "a long list is cut"
    assert all(value.count("<@") == value.count(">") - value.count("<#") for _, value in shown)


def every_page(view: LobbyView) -> list[tuple[discord.Embed, discord.ui.View]]:
    pages = []
    for page in itertools.count():
        try:
            pages.append(entrants_page(view, page, TEXTS))
        except TableError as error:
            assert error.key == "lobby_page_gone" and error.params == {"pages": page}
            return pages
    raise AssertionError("unreachable")


def test_the_private_list_pages_every_entrant_within_discords_limits() -> None:
    view = two_hundred()
    pages = every_page(view)
    assert len(pages) == 10
    lines = [line for embed, _ in pages for line in (embed.description or "").splitlines()]
    # Everyone once: those still in by chips with their table, then those out by place.
    assert len(lines) == 200
    assert [re.findall(r"<@(\d+)>", line)[0] for line in lines] == [
        str(user) for user in [*reversed(TWO_HUNDRED[:180]), *reversed(TWO_HUNDRED[180:])]
    ]
    assert lines[0] == f"1. <@{10**17 + 179}>: 1,679 (16.8 big bets) · table 23"
    assert lines[179] == f"180. <@{10**17}>: 1,500 (15 big bets) · table 1"
    assert lines[180] == f"181. <@{10**17 + 199}>: 0" and lines[-1] == f"200. <@{10**17 + 180}>: 0"
    for number, (embed, buttons) in enumerate(pages):
        within_limits(embed, buttons)
        assert embed.title == f"Tournament #4 · entrants, page {number + 1} of 10"
        previous, following = buttons.children
        assert isinstance(previous, discord.ui.Button) and isinstance(following, discord.ui.Button)
        assert (previous.label, previous.disabled) == ("Previous", number == 0)
        assert (following.label, following.disabled) == ("Next", number == 9)
        assert following.custom_id == f"stud:t:4:page:{number + 1}"
        assert previous.custom_id == f"stud:t:4:page:{max(number - 1, 0)}"
    with pytest.raises(TableError):
        entrants_page(view, -1, TEXTS)
    russian = entrants_page(two_hundred("ru"), 9, TEXTS)[0]
    assert russian.title == "Турнир №4 · участники, страница 10 из 10"
    assert TEXTS.t("ru", "lobby_page_gone", pages=3).startswith("Список уже другой: теперь в нём 3")


def test_the_entrants_button_comes_once_the_lobby_cant_name_everyone() -> None:
    def labels(view: LobbyView) -> list[str]:
        buttons = lobby_buttons(view, TEXTS)
        return [] if buttons is None else [b.label or "" for b in buttons.children]  # type: ignore[attr-defined]

    registering = replace(RUNNING, state="registering", tables=(), stacks=(), places=())
    assert labels(registering) == ["Register", "Unregister"]
    crowd = replace(registering, entrants=tuple(TWO_HUNDRED))
    assert labels(crowd) == ["Register", "Unregister", "Entrants"]
    (line,) = {(e.description or "") for e, _ in every_page(crowd)[:1]}
    assert line.splitlines()[0] == f"<@{10**17}>"
    assert labels(RUNNING) == ["Entrants"] and labels(replace(RUNNING, state="finished")) == [
        "Entrants"
    ]
    assert labels(replace(RUNNING, state="cancelled")) == []


def test_a_finished_lobby_says_freeroll_only_of_a_freeroll() -> None:
    """Once paid out the pool is empty: its places show the prizes, and only a tournament with
    no buy-in reads as a freeroll."""
    paid = replace(RUNNING, state="finished", prize_pool=0, places=((1, 1, 400), (2, 2, 0)))
    assert "freeroll" not in text(fields(paid))
    assert "A freeroll" in text(fields(replace(paid, buy_in=0, places=((1, 1, 0), (2, 2, 0)))))


def test_a_list_of_one_page_has_no_page_buttons() -> None:
    embed, buttons = entrants_page(RUNNING, 0, TEXTS)
    assert embed.title == "Tournament #4 · entrants, page 1 of 1" and buttons.children == []
