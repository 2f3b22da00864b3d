# ruff: noqa: RUF001  (Russian text is meant to be Cyrillic)
"""Players' stats: what a hand adds, read off the
engine's hand; the store's figures and leaderboards against a replay of the stored hands; the
periods, the games, the ring of recent hands, bad input, and how it all is worded."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

import pytest

from bot.core.archive import Archive
from bot.core.config import TableConfig
from bot.core.games import HI_LO, MIXED, RAZZ_GAME, STUD, game_of
from bot.core.stats import hand_facts, stats_chart
from bot.core.storage import (
    GameStats,
    HandFacts,
    Leaderboard,
    LeaderboardRow,
    PlayerStats,
    SeatFacts,
    Store,
    reports,
)
from bot.edge.embeds import leaderboard_embed, stats_embed
from engine import STUD_HI_LO
from engine import events as ev
from engine.codec import decode
from engine.stakes import DEFAULT_STAKES
from tests.bot.fakes import CHANNEL, GUILD, TURN, ManualClock, screened
from tests.databases import Location, query, snapshot
from tests.engine.decks import call_down, stud
from tests.texts import TEXTS
from words import EN, RU

COUNTDOWN = 30.0
NBSP = "\xa0"
T0 = datetime(2025, 1, 8, 12, 0, tzinfo=UTC)  # a Wednesday
OTHER_GUILD = GUILD + 1


@pytest.fixture
async def store(database: Location) -> AsyncIterator[Store]:
    opened = await Store.open(database)
    yield opened
    await opened.audit()
    await opened.close()


# ----------------------------------------------------------------- what one hand adds


def test_the_bring_in_alone_is_not_voluntary_and_a_walk_is_won_without_a_showdown() -> None:
    hand = stud({0: "AsKs2c", 1: "AhKh9d"})  # seat 0's deuce brings in
    hand.bring_in()
    hand.fold()
    facts = hand_facts(hand)
    assert facts.game == STUD
    # Seat 1's ante is the pot; the bring-in nobody called came back.
    assert facts.seats == (
        SeatFacts(dealt=True, vpip=False, showdown=False, collected=2),
        SeatFacts(dealt=True, vpip=False, showdown=False, collected=0),
    )


def test_a_completion_and_a_call_of_it_on_third_street_are_voluntary() -> None:
    hand = stud({0: "AsKs2c", 1: "AhKh9d", 2: "QdJc8s"})
    hand.bring_in()
    hand.raise_to(10)  # seat 1 completes
    hand.fold()  # seat 2 folds: he only paid his ante
    hand.call()  # the bring-in calls the completion
    call_down(hand)
    facts = hand_facts(hand)
    assert [seat.vpip for seat in facts.seats] == [True, True, False]
    assert [seat.showdown for seat in facts.seats] == [True, True, False]
    winners = [seat for seat in range(3) if facts.seats[seat].collected]
    assert len(winners) == 1 and facts.seats[winners[0]].collected == sum(hand.committed)


def test_calls_after_third_street_are_not_vpip() -> None:
    hand = stud({0: "AsKs2c", 1: "AhKh9d"})
    hand.bring_in()
    hand.call()  # seat 1 calls the bring-in: voluntary
    hand.check()  # third street closes; fourth: the best board bets
    while hand.street == 4:
        legal = hand.legal()
        if legal.raise_to and legal.check:
            hand.raise_to(legal.raise_to[0])
        else:
            hand.call()
    call_down(hand)
    assert [seat.vpip for seat in hand_facts(hand).seats] == [False, True]


def test_a_seat_without_chips_is_not_dealt_and_a_split_pot_is_won_by_both() -> None:
    # The same straight for both in Stud Hi-Lo and no eight-or-better low: they split the pot.
    hand = stud(
        {0: "9s8s7d6hTcJdQd", 1: "9h8h7c6dTsJhQc"},
        stacks=[500, 500, 0],
        variant=STUD_HI_LO,
    )
    call_down(hand)
    facts = hand_facts(hand)
    assert facts.game == HI_LO
    assert [seat.dealt for seat in facts.seats] == [True, True, False]
    assert facts.seats[0].collected == facts.seats[1].collected > 0
    assert facts.seats[2] == SeatFacts(dealt=False, vpip=False, showdown=False, collected=0)


def test_a_hand_in_progress_has_no_facts_yet() -> None:
    hand = stud({0: "AsKs2c", 1: "AhKh9d"})
    with pytest.raises(ValueError, match="once it is over"):
        hand_facts(hand)


# ----------------------------------------------------------------- against a replay


@dataclass
class Expected:
    """A player's figures worked out again from the stored hands, without the stats code."""

    hands: int = 0
    won: int = 0
    showdowns: int = 0
    won_showdown: int = 0
    vpip: int = 0
    net: int = 0
    biggest_pot: int = 0
    nets: list[int] = field(default_factory=list)

    def add(self, *, net: int, collected: int, showed: bool, voluntary: bool) -> None:
        self.hands += 1
        self.won += collected > 0
        self.showdowns += showed
        self.won_showdown += showed and collected > 0
        self.vpip += voluntary
        self.net += net
        self.biggest_pot = max(self.biggest_pot, collected)
        self.nets.append(net)

    def figures(self, game: str) -> GameStats:
        return GameStats(
            game,
            self.hands,
            self.won,
            self.showdowns,
            self.won_showdown,
            self.vpip,
            self.net,
            self.biggest_pot,
        )


async def replay(store: Store, hand_ids: list[int]) -> dict[tuple[int, str], Expected]:
    """(user, game or "all") -> his figures, from each stored hand's saved state replayed."""
    expected: dict[tuple[int, str], Expected] = defaultdict(Expected)
    for hand_id in hand_ids:
        record = await store.hands.get(hand_id)
        assert record.outcome == "settled"
        hand = decode(record.state)
        street = 0
        voluntary: set[int] = set()
        shown: set[int] = set()
        collected: dict[int, int] = defaultdict(int)
        for event in hand.events:
            if isinstance(event, ev.CardDealt):
                street = event.street
            elif isinstance(event, ev.Call | ev.Complete | ev.Raise) and street == 3:
                voluntary.add(event.seat)
            elif isinstance(event, ev.HandShown | ev.HandMucked):
                shown.add(event.seat)  # a hand mucked at the showdown got there too (RULES 5.6)
            elif isinstance(event, ev.PotAwarded):
                for seat, share in zip(event.winners, event.shares, strict=True):
                    collected[seat] += share
        for player in record.players:
            seat = player.seat_index
            assert player.final_stack is not None
            net = player.final_stack - player.starting_stack
            assert net == hand.stacks[seat] - hand.starting_stacks[seat]
            for key in (game_of(hand.variant), "all"):
                expected[player.user_id, key].add(
                    net=net,
                    collected=collected[seat],
                    showed=seat in shown,
                    voluntary=seat in voluntary,
                )
    return expected


async def play_random_hands(store: Store, hands: int, seed: int) -> list[int]:
    """A mixed table (two hands a game) of four players deciding at random."""
    clock = ManualClock()
    manager, _ = screened(store, clock)
    config = TableConfig(
        DEFAULT_STAKES,
        6,
        100,
        1000,
        TURN,
        countdown_seconds=COUNTDOWN,
        game=MIXED,
        hands_per_game=2,
    )
    await manager.seating.open(GUILD, CHANNEL, 1, config)
    for user_id in range(1, 5):
        await manager.seating.sit(CHANNEL, user_id, f"p{user_id}", 1000)
    rng = random.Random(seed)
    hand_ids = []
    for _ in range(hands):
        await clock.advance(COUNTDOWN, manager)
        table = manager.seating.get(CHANNEL)
        assert table.live is not None
        hand_ids.append(table.live.hand_id)
        while table.live is not None:
            actor = table.actor_id()
            assert actor is not None
            spec = rng.choice(table.buttons())
            await manager.dealer.act(CHANNEL, actor, spec.action, spec.amount)
    await manager.recovery.shutdown()
    return hand_ids


async def test_stats_and_winnings_agree_with_a_replay_of_the_stored_hands(store: Store) -> None:
    hand_ids = await play_random_hands(store, 18, seed=7)
    expected = await replay(store, hand_ids)
    games = {game for _, game in expected} - {"all"}
    assert games == {STUD, RAZZ_GAME, HI_LO}, "the rotation should deal every game"
    users = sorted({user for user, _ in expected})
    assert any(expected[user, "all"].vpip < expected[user, "all"].hands for user in users)
    assert any(expected[user, "all"].showdowns for user in users)
    for user in users:
        stats = await store.reports.player_stats(GUILD, user)
        assert stats.season == 1 and stats.period == "all" and stats.since is None
        assert stats.total == expected[user, "all"].figures("all")
        played = [expected[user, game].figures(game) for game in games if (user, game) in expected]
        assert sorted(stats.games, key=lambda s: s.game) == sorted(played, key=lambda s: s.game)
        assert [s.hands for s in stats.games] == sorted((s.hands for s in played), reverse=True)
        assert stats.recent == tuple(expected[user, "all"].nets)
        for game in games:
            one = await store.reports.player_stats(GUILD, user, game=game)
            mine = expected.get((user, game), Expected())
            assert one.total == mine.figures(game)
            assert one.recent == tuple(mine.nets)
    # Chips are conserved: what some won, the others lost.
    assert sum(expected[user, "all"].net for user in users) == 0
    for choice in (None, *games):
        key = choice or "all"
        board = await store.reports.winnings(GUILD, game=choice, user_id=users[-1])
        ranked = sorted(
            (user for user in users if (user, key) in expected),
            key=lambda user: (-expected[user, key].net, user),
        )
        assert [row.user_id for row in board.top] == ranked
        for row in board.top:
            assert row.chips == expected[row.user_id, key].net
            assert row.hands == expected[row.user_id, key].hands
            assert row.rank == 1 + sum(expected[user, key].net > row.chips for user in ranked)
        if (users[-1], key) in expected:
            assert board.caller is not None and board.caller.rank == next(
                row.rank for row in board.top if row.user_id == users[-1]
            )


# ----------------------------------------------------------------- the store's buckets


async def settle(
    store: Store,
    results: dict[int, tuple[int, SeatFacts]],
    *,
    game: str = STUD,
    now: datetime = T0,
    channel: int = CHANNEL,
) -> int:
    """A hand among ``results``' players (user -> (net, facts)), settled at ``now``."""
    if await store.seating.table(channel) is None:
        await store.seating.open(channel, GUILD, 1, max_seats=8, min_buy_in=1, max_buy_in=10_000)
    seats = {seat.user_id: seat for seat in await store.seating.seats(channel)}
    for user_id in results:
        if user_id not in seats:
            await store.seating.sit(channel, user_id, 500)
    stacks = {seat.user_id: seat.stack for seat in await store.seating.seats(channel)}
    players = [(user_id, stacks[user_id]) for user_id in results]
    hand_id = await store.hands.start(channel, players, b"state", commitment="ab" * 32, salt="s")
    finals = [stacks[user_id] + net for user_id, (net, _) in results.items()]
    facts = HandFacts(game, tuple(seat for _, seat in results.values()))
    await store.hands.settle(hand_id, b"state", finals, facts=facts, now=now)
    return hand_id


def won(collected: int, *, showdown: bool = True, vpip: bool = True) -> SeatFacts:
    return SeatFacts(dealt=True, vpip=vpip, showdown=showdown, collected=collected)


LOST = SeatFacts(dealt=True, vpip=True, showdown=True, collected=0)
FOLDED = SeatFacts(dealt=True, vpip=False, showdown=False, collected=0)


async def test_days_weeks_and_months_are_utc_calendar_buckets(
    store: Store, database: Location
) -> None:
    monday = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
    moments = [
        datetime(2024, 12, 31, 23, 59, tzinfo=UTC),  # another year, month and week
        monday,
        monday + timedelta(days=2),  # Wednesday, T0's day
        T0 + timedelta(hours=11, minutes=59),  # still Wednesday in UTC
    ]
    # Player 3 plays once, on New Year's Eve, with player 2.
    await settle(store, {2: (5, won(9)), 3: (-5, LOST)}, now=moments[0])
    for number, moment in enumerate(moments, 1):
        await settle(
            store, {1: (10 * number, won(10 * number + 5)), 2: (-10 * number, LOST)}, now=moment
        )
        if number == 1:
            december = await store.reports.player_stats(GUILD, 2, period="month", now=moment)
            assert (december.total.hands, december.total.net) == (2, -5)
    expected = {"day": (2, 70, 45), "week": (3, 90, 45), "month": (3, 90, 45), "all": (4, 100, 45)}
    buckets = set()
    for period, (hands, net, biggest) in expected.items():
        stats = await store.reports.player_stats(GUILD, 1, period=period, now=T0)
        if stats.since is not None:
            buckets.add((stats.since - date(1970, 1, 1)).days)
        assert (stats.total.hands, stats.total.net, stats.total.biggest_pot) == (
            hands,
            net,
            biggest,
        ), period
        assert len(stats.recent) == hands
    assert (await store.reports.player_stats(GUILD, 1, period="week", now=T0)).since == date(
        2025, 1, 6
    )
    assert (await store.reports.player_stats(GUILD, 1, period="month", now=T0)).since == date(
        2025, 1, 1
    )
    assert (await store.reports.player_stats(GUILD, 1, period="day", now=T0)).since == date(
        2025, 1, 8
    )
    # The next day has nothing yet.
    tomorrow = await store.reports.player_stats(GUILD, 1, period="day", now=T0 + timedelta(days=1))
    assert tomorrow.total == GameStats("all") and tomorrow.recent == ()
    board = await store.reports.winnings(GUILD, period="day", now=T0, user_id=3)
    assert [(row.rank, row.user_id, row.chips, row.hands) for row in board.top] == [
        (1, 1, 70, 2),
        (2, 2, -70, 2),
    ]
    assert board.caller is None
    assert (
        await store.reports.player_stats(GUILD, 2)
    ).total.hands == 5  # the season keeps them all
    # Only current periods are asked for: a player's past ones went when he played again;
    # player 3's December stays until he plays again, and shows nowhere now.
    rows = await query(
        database, "SELECT user_id, period, since FROM player_stats WHERE game = 'all'"
    )
    past = sorted((r["user_id"], r["period"]) for r in rows if r["since"] not in {0, *buckets})
    assert past == [(3, "day"), (3, "month"), (3, "week")]
    assert (
        await store.reports.player_stats(GUILD, 2, period="month", now=moments[0])
    ).total.hands == 0


async def test_the_figures_count_wins_showdowns_and_vpip_per_game(store: Store) -> None:
    await settle(store, {1: (30, won(50)), 2: (-30, LOST)})
    await settle(
        store, {1: (-3, FOLDED), 2: (3, won(6, showdown=False, vpip=False))}, game=RAZZ_GAME
    )
    await settle(store, {1: (5, won(25)), 2: (-5, won(20))}, game=HI_LO)  # a split pot
    first = await store.reports.player_stats(GUILD, 1)
    assert first.total == GameStats("all", 3, 2, 2, 2, 2, 32, 50)
    assert {s.game for s in first.games} == {STUD, RAZZ_GAME, HI_LO}
    assert {s.game: s for s in first.games}[RAZZ_GAME] == GameStats(RAZZ_GAME, 1, 0, 0, 0, 0, -3)
    second = await store.reports.player_stats(GUILD, 2, game=HI_LO)
    assert second.total == GameStats(HI_LO, 1, 1, 1, 1, 1, -5, 20)
    assert second.recent == (-5,) and second.game == HI_LO
    # The other guild and players who never played have nothing.
    assert (await store.reports.player_stats(OTHER_GUILD, 1)).total == GameStats("all")
    nobody = await store.reports.winnings(GUILD, user_id=99)
    assert nobody.caller is None and [row.user_id for row in nobody.top] == [1, 2]
    assert (await store.reports.winnings(GUILD, game=RAZZ_GAME)).top[0].user_id == 2


async def test_only_the_latest_hands_of_each_game_are_kept_for_the_chart(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reports, "RECENT_HANDS", 3)
    nets = [7, -2, 5, 11, -4]
    for net in nets:
        await settle(store, {1: (net, won(net + 4)), 2: (-net, LOST)})
    await settle(store, {1: (1, won(5)), 2: (-1, LOST)}, game=RAZZ_GAME)
    assert (await store.reports.player_stats(GUILD, 1, game=STUD)).recent == (5, 11, -4)
    assert (await store.reports.player_stats(GUILD, 1)).recent == (11, -4, 1)
    # The figures themselves count every hand.
    assert (await store.reports.player_stats(GUILD, 1, game=STUD)).total.hands == 5


async def test_a_voided_hand_or_one_settled_without_facts_counts_nowhere(
    store: Store, database: Location
) -> None:
    await store.seating.open(CHANNEL, GUILD, 1, max_seats=8, min_buy_in=1, max_buy_in=1000)
    for user_id in (1, 2):
        await store.seating.sit(CHANNEL, user_id, 500)
    players = [(1, 500), (2, 500)]
    voided = await store.hands.start(CHANNEL, players, b"state", commitment="ab" * 32, salt="s")
    await store.hands.void(voided, reason="test")
    plain = await store.hands.start(CHANNEL, players, b"state", commitment="ab" * 32, salt="s")
    await store.hands.settle(plain, b"state", [600, 400])
    assert (await store.reports.player_stats(GUILD, 1)).total == GameStats("all")
    rows = await snapshot(database)
    assert rows["player_stats"] == [] and rows["recent_hands"] == []


async def test_facts_that_dont_fit_the_hand_are_refused_and_nothing_changes(
    store: Store, database: Location
) -> None:
    await store.seating.open(CHANNEL, GUILD, 1, max_seats=8, min_buy_in=1, max_buy_in=1000)
    for user_id in (1, 2):
        await store.seating.sit(CHANNEL, user_id, 500)
    hand_id = await store.hands.start(
        CHANNEL, [(1, 500), (2, 500)], b"state", commitment="ab" * 32, salt="s"
    )
    before = await snapshot(database)
    absent = SeatFacts(dealt=False, vpip=True, showdown=False, collected=0)
    for facts, problem in (
        (HandFacts(STUD, (LOST,)), "seats"),
        (HandFacts("all", (LOST, won(10))), "game"),
        (HandFacts("", (LOST, won(10))), "game"),
        (HandFacts(STUD, (LOST, won(-1))), "whole number"),
        (HandFacts(STUD, (absent, won(10))), "not dealt"),
    ):
        with pytest.raises(ValueError, match=problem):
            await store.hands.settle(hand_id, b"state", [490, 510], facts=facts)
    for wrong in ({"period": "year"}, {"game": "all"}):
        with pytest.raises(ValueError):
            await store.reports.player_stats(GUILD, 1, **wrong)  # type: ignore[arg-type]
        with pytest.raises(ValueError):
            await store.reports.winnings(GUILD, **wrong)  # type: ignore[arg-type]
    assert await snapshot(database) == before


# ----------------------------------------------------------------- words


def sample_stats(game: str | None = None) -> PlayerStats:
    stud = GameStats(STUD, 30, 12, 9, 6, 14, 1500, 640)
    razz = GameStats(RAZZ_GAME, 10, 3, 2, 1, 4, -300, 95)
    total = GameStats("all", 40, 15, 11, 7, 18, 1200, 640)
    return PlayerStats(
        guild_id=GUILD,
        user_id=1,
        season=2,
        season_started=datetime(2025, 3, 3, 18, 0, tzinfo=UTC),
        period="week",
        since=date(2025, 3, 10),
        game=game,
        total=total if game is None else stud,
        games=(stud, razz),
        recent=(40, -20, 1180),
    )


def test_the_stats_embed_and_chart_are_worded_in_the_readers_language() -> None:
    english = stats_embed(sample_stats(), "Ann", TEXTS, EN)
    assert english.title == "Stats · Ann"
    assert english.description == "This week, from Mar 10, 2025 · Season 2, since Mar 3, 2025"
    assert {f.name: f.value for f in english.fields} == {
        "Hands": "40",
        "Won": "15 (38%)",
        "Won at showdown": "7 of 11",
        "VPIP": "45%",
        "Net": "+1,200",
        "Biggest pot won": "640",
        "By game": "Seven Card Stud: 30 hands, net +1,500, VPIP 47%\n"
        "Razz: 10 hands, net -300, VPIP 40%",
    }
    russian = stats_embed(sample_stats(), "Оля", TEXTS, RU)
    assert russian.title == "Статистика · Оля"
    assert (russian.description or "").startswith("Эта неделя, с 10 мар. 2025")
    figures = {f.name: f.value or "" for f in russian.fields}
    assert figures["Итог"] == f"+1{NBSP}200" and figures["Добровольный вход"] == "45 %"
    assert figures["По играм"].startswith(f"Семикарточный стад: 30 раздач, итог +1{NBSP}500")
    # One game: no split by game, the game named first.
    stud_only = stats_embed(sample_stats(STUD), "Оля", TEXTS, RU)
    assert (stud_only.description or "").startswith("Семикарточный стад · Эта неделя")
    assert "По играм" not in {f.name for f in stud_only.fields}
    chart = stats_chart(sample_stats(), "Оля", TEXTS, RU)
    assert chart.title == "Оля · итог в фишках" and chart.thousands == NBSP
    assert chart.axis == f"3 последние раздачи, от старых к новым: итог +1{NBSP}200"
    assert stats_chart(sample_stats(), "Ann", TEXTS, EN).axis == (
        "The last 3 hands, oldest first: net +1,200"
    )


def test_the_leaderboards_are_worded_in_the_readers_language() -> None:
    rows = (LeaderboardRow(1, 1, 1500, 21), LeaderboardRow(2, 2, -40, 1))
    board = Leaderboard(rows, LeaderboardRow(2, 2, -40, 1), 1, None, "all", None, RAZZ_GAME)
    names = {1: "Оля", 2: "Борис"}
    russian = leaderboard_embed(board, names, TEXTS, RU)
    assert russian.title == "Таблица лидеров · выигрыш за столами"
    assert russian.description == (
        f"Разз · Весь сезон · Сезон 1\n\n1. Оля — +1{NBSP}500 за 21 раздачу\n"
        "2. Борис — -40 за 1 раздачу"
    )
    assert russian.footer.text == "Вы на 2-м месте: -40 за 1 раздачу."
    unranked = leaderboard_embed(
        Leaderboard((), None, 1, None, "day", date(2025, 1, 8)), {}, TEXTS, EN
    )
    assert (
        unranked.description
        == "Today, Jan 8, 2025 · Season 1\n\nNo hand was played in this period."
    )
    assert unranked.footer.text == "You have played no hand in this period: no rank yet."
    wallets = leaderboard_embed(Leaderboard((LeaderboardRow(1, 3, 1000),), None, 3), {}, TEXTS, EN)
    assert wallets.title == "Leaderboard · chips in wallets and at tables"
    assert wallets.description == "Season 3\n\n1. <@3> — 1,000"
    assert (wallets.footer.text or "").startswith("You have no chips on this server yet")


async def test_histories_name_each_hands_game(store: Store) -> None:
    """The one-hand summary and the export's listing say the game."""
    hand_ids = await play_random_hands(store, 6, seed=3)
    archive = Archive(store, TEXTS)
    games = []
    for hand_id in hand_ids:
        found = await archive.history(
            GUILD, 1, hand_id, viewer_name="p1", channel_name=str, lang=EN
        )
        record = await store.hands.get(hand_id)
        assert found.game == game_of(decode(record.state).variant)
        games.append(found.game)
    assert games == [STUD, STUD, RAZZ_GAME, RAZZ_GAME, HI_LO, HI_LO]
    export = await archive.export(GUILD, 1, last=6, viewer_name="p1", channel_name=str, lang=EN)
    assert export.games == ((STUD, 2), (RAZZ_GAME, 2), (HI_LO, 2))
