"""Stats and reports: counting a settled hand into its players' stats, and the figures players
ask for (leaderboards by chips, by winnings and by tournament results, a player's stats, a
table's ledger).

Owns the ``player_stats`` and ``recent_hands`` tables; the reports also read wallets, seasons,
tables, hands and the ledger. ``count_hand`` runs inside the write transaction that settles the
hand; the reads run inside a ``report()`` (``backend.py``) that ``ReportQueries``
(``store.reports``, at the end) opens. Tournament results are read from the tournaments' own
tables (``tournaments.py``): a finished tournament's entries hold each player's place, prize and
entries, and it ended once, so nothing is counted twice and no table of sums can drift from
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta

from bot.core.storage import seating, wallets
from bot.core.storage.backend import Backend, Connection, Row
from bot.core.storage.common import aware, is_int, one, parse_ts, required_ts, ts
from bot.core.storage.house import HOUSE
from bot.core.storage.models import (
    ALL_GAMES,
    PERIODS,
    GameStats,
    HandFacts,
    Leaderboard,
    LeaderboardRow,
    LedgerEntry,
    Period,
    PlayerStats,
    Season,
    TableLedger,
    TournamentStats,
)

# A player's last hands of each game kept for the chart of his net (per guild and season).
RECENT_HANDS = 200
EPOCH = date(1970, 1, 1)  # stats periods are named by their first day, counted from this one


async def count_hand(
    db: Connection,
    guild_id: int,
    hand_id: int,
    facts: HandFacts,
    nets: Sequence[tuple[int, int]],
    now: datetime,
) -> None:
    """Add a settled hand to its players' stats: ``nets`` is ``(user_id, net)`` per seat, in
    the order of ``facts.seats``."""
    season = (await wallets.season(db, guild_id)).number
    today = now.astimezone(UTC).date()
    buckets = [(period, since_day(period, today)) for period in PERIODS]
    dealt = [
        (user_id, seat, net)
        for (user_id, net), seat in zip(nets, facts.seats, strict=True)
        # Stats are people's: a computer player's results are the house's.
        if seat.dealt and user_id > HOUSE
    ]
    if not dealt:
        return
    marks = ", ".join("?" * len(dealt))
    players = [user_id for user_id, _, _ in dealt]
    # Only the current day, week and month are ever asked for: a player's past ones go when he
    # next plays, so the table stays the size of the guild's players, not of its history.
    since = dict(buckets)
    await db.run(
        "DELETE FROM player_stats WHERE guild_id = ? AND season = ?"
        f" AND user_id IN ({marks}) AND ((period = 'day' AND since < ?)"
        " OR (period = 'week' AND since < ?) OR (period = 'month' AND since < ?))",
        (guild_id, season, *players, since["day"], since["week"], since["month"]),
    )
    await db.insert_many(
        "INSERT INTO player_stats (guild_id, season, user_id, period, since, game, hands,"
        " won, showdowns, won_showdown, vpip, net, biggest_pot)"
        " VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, season, user_id, period, since, game) DO UPDATE SET"
        " hands = player_stats.hands + 1,"
        " won = player_stats.won + excluded.won,"
        " showdowns = player_stats.showdowns + excluded.showdowns,"
        " won_showdown = player_stats.won_showdown + excluded.won_showdown,"
        " vpip = player_stats.vpip + excluded.vpip,"
        " net = player_stats.net + excluded.net,"
        " biggest_pot = CASE WHEN excluded.biggest_pot > player_stats.biggest_pot"
        " THEN excluded.biggest_pot ELSE player_stats.biggest_pot END",
        [
            (
                guild_id,
                season,
                user_id,
                period,
                since,
                game,
                int(seat.collected > 0),
                int(seat.showdown),
                int(seat.showdown and seat.collected > 0),
                int(seat.vpip),
                net,
                seat.collected,
            )
            for user_id, seat, net in dealt
            for period, since in buckets
            for game in (facts.game, ALL_GAMES)
        ],
    )
    # The season's count of his hands of this game, this one included, picks the slot of the
    # ring this hand overwrites.
    counts = {
        int(row["user_id"]): int(row["hands"])
        for row in await db.all(
            "SELECT user_id, hands FROM player_stats WHERE guild_id = ? AND season = ?"
            f" AND period = 'all' AND since = 0 AND game = ? AND user_id IN ({marks})",
            (guild_id, season, facts.game, *players),
        )
    }
    await db.insert_many(
        "INSERT INTO recent_hands (guild_id, season, user_id, game, slot, hand_id, day, net)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id, season, user_id, game, slot) DO UPDATE"
        " SET hand_id = excluded.hand_id, day = excluded.day, net = excluded.net",
        [
            (
                guild_id,
                season,
                user_id,
                facts.game,
                (counts[user_id] - 1) % RECENT_HANDS,
                hand_id,
                day_number(today),
                net,
            )
            for user_id, _, net in dealt
        ],
    )


async def leaderboard(
    db: Connection, guild_id: int, *, limit: int, user_id: int | None
) -> Leaderboard:
    """Top ``limit`` players by wallet + seated chips, and ``user_id``'s own rank. People only:
    the house and its computer players (user ids from 0 down) are never ranked."""
    season = await wallets.season(db, guild_id)
    # Both queries walk wallets_by_total; the rank count costs ~35 ns per wallet above.
    rows = await db.all(
        "SELECT user_id, total AS chips FROM wallets WHERE guild_id = ? AND user_id > ?"
        " ORDER BY total DESC, user_id LIMIT ?",
        (guild_id, HOUSE, limit),
    )
    caller = None
    if user_id is not None:
        own = await one(
            db,
            "SELECT total AS chips FROM wallets WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        if own is not None:
            above = await one(
                db,
                "SELECT count(*) AS n FROM wallets WHERE guild_id = ? AND total > ?"
                " AND user_id > ?",
                (guild_id, own["chips"], HOUSE),
            )
            assert above is not None
            caller = LeaderboardRow(int(above["n"]) + 1, user_id, int(own["chips"]))
    top: list[LeaderboardRow] = []
    for index, row in enumerate(rows):
        tied = top and top[-1].chips == row["chips"]
        rank = top[-1].rank if tied else index + 1
        top.append(LeaderboardRow(rank, int(row["user_id"]), int(row["chips"])))
    return Leaderboard(tuple(top), caller, season.number, season.started_at)


async def winnings(
    db: Connection,
    guild_id: int,
    *,
    period: Period,
    since: int,
    game: str | None,
    key: str,
    limit: int,
    user_id: int | None,
) -> Leaderboard:
    """Top ``limit`` players by net chips won in the stats bucket ``period``/``since`` of the
    guild's current season, in ``game`` (None: every game; ``key`` is its ``game_key``), and
    ``user_id``'s own rank."""
    current = await wallets.season(db, guild_id)
    season = current.number
    bucket = (guild_id, season, period, since, key)
    # Both walk player_stats_by_net: the top ten, then the count of those above him.
    rows = await db.all(
        "SELECT user_id, net, hands FROM player_stats WHERE guild_id = ? AND season = ?"
        " AND period = ? AND since = ? AND game = ? ORDER BY net DESC, user_id LIMIT ?",
        (*bucket, limit),
    )
    caller = None
    if user_id is not None:
        own = await one(
            db,
            "SELECT net, hands FROM player_stats WHERE guild_id = ? AND season = ?"
            " AND user_id = ? AND period = ? AND since = ? AND game = ?",
            (guild_id, season, user_id, period, since, key),
        )
        if own is not None:
            above = await one(
                db,
                "SELECT count(*) AS n FROM player_stats WHERE guild_id = ?"
                " AND season = ? AND period = ? AND since = ? AND game = ? AND net > ?",
                (*bucket, own["net"]),
            )
            assert above is not None
            caller = LeaderboardRow(
                int(above["n"]) + 1, user_id, int(own["net"]), int(own["hands"])
            )
    top: list[LeaderboardRow] = []
    for index, row in enumerate(rows):
        tied = top and top[-1].chips == row["net"]
        rank = top[-1].rank if tied else index + 1
        top.append(LeaderboardRow(rank, int(row["user_id"]), int(row["net"]), int(row["hands"])))
    return Leaderboard(
        tuple(top),
        caller,
        season,
        current.started_at,
        period,
        None if period == "all" else from_day_number(since),
        game,
    )


async def player_stats(
    db: Connection,
    guild_id: int,
    user_id: int,
    *,
    period: Period,
    since: int,
    game: str | None,
    key: str,
) -> PlayerStats:
    """A player's figures in the stats bucket ``period``/``since`` of the guild's current
    season (as ``winnings`` takes it): in ``game`` (None: every game together) and per game,
    and his net in each of his last hands of the period (at most :data:`RECENT_HANDS`, oldest
    first)."""
    season = await wallets.season(db, guild_id)
    rows = await db.all(
        "SELECT game, hands, won, showdowns, won_showdown, vpip, net, biggest_pot"
        " FROM player_stats WHERE guild_id = ? AND season = ? AND user_id = ?"
        " AND period = ? AND since = ?",
        (guild_id, season.number, user_id, period, since),
    )
    # A hand of the ring is in the period if it settled on its first day or later (the whole
    # season's "first day" is 0).
    recent = await db.all(
        "SELECT hand_id, net FROM recent_hands WHERE guild_id = :guild"
        " AND season = :season AND user_id = :user"
        " AND (CAST(:game AS TEXT) IS NULL OR game = :game) AND day >= :since"
        " ORDER BY hand_id DESC LIMIT :limit",
        {
            "guild": guild_id,
            "season": season.number,
            "user": user_id,
            "game": game,
            "since": since,
            "limit": RECENT_HANDS,
        },
    )
    results = await db.all(
        f"{_TOURNAMENT_RESULTS} AND entries.user_id = :user GROUP BY entries.user_id",
        _results_bounds(guild_id, season, since, game) | {"user": user_id},
    )
    figures = {str(row["game"]): _to_game_stats(row) for row in rows}
    games = sorted(
        (stats for name, stats in figures.items() if name != ALL_GAMES),
        key=lambda stats: -stats.hands,
    )
    return PlayerStats(
        guild_id=guild_id,
        user_id=user_id,
        season=season.number,
        season_started=season.started_at,
        period=period,
        since=None if period == "all" else from_day_number(since),
        game=game,
        total=figures.get(key) or GameStats(key),
        games=tuple(games),
        recent=tuple(int(row["net"]) for row in reversed(recent)),
        tournaments=_to_tournament_stats(results[0]) if results else TournamentStats(),
    )


# Each player's results in the guild's tournaments that finished since :since, of :game (NULL:
# every game): one row per tournament he entered, a re-entry being the same tournament. People
# only, as every ranking: the house's computer players (user ids from 0 down) are never counted.
_TOURNAMENT_RESULTS = (
    "SELECT entries.user_id, count(*) AS played,"
    " sum(CASE WHEN entries.prize > 0 THEN 1 ELSE 0 END) AS cashes,"
    " sum(CASE WHEN entries.place = 1 THEN 1 ELSE 0 END) AS wins,"
    " sum(COALESCE(entries.prize, 0) - tournaments.buy_in * entries.entries) AS net"
    " FROM tournament_entries AS entries"
    " JOIN tournaments ON tournaments.id = entries.tournament_id"
    " WHERE tournaments.guild_id = :guild AND tournaments.state = 'finished'"
    " AND tournaments.ended_at >= :since AND entries.user_id > :house"
    " AND (CAST(:game AS TEXT) IS NULL OR tournaments.game = :game)"
)


def _results_bounds(
    guild_id: int, season: Season, since: int, game: str | None
) -> dict[str, object]:
    """The parameters of ``_TOURNAMENT_RESULTS``: a tournament counts in the period (its first
    day ``since``) and the season it ended in."""
    start = datetime.combine(from_day_number(since), time(), UTC)
    if season.started_at is not None:
        start = max(start, season.started_at)
    return {"guild": guild_id, "since": ts(start), "house": HOUSE, "game": game}


async def tournament_board(
    db: Connection,
    guild_id: int,
    *,
    period: Period,
    since: int,
    game: str | None,
    limit: int,
    user_id: int | None,
) -> Leaderboard:
    """Top ``limit`` players by tournament prizes minus buy-ins over the stats period
    ``period``/``since`` of the guild's current season, in ``game`` (None: every game), with
    the tournaments each played and won, and ``user_id``'s own rank (None if he finished none
    then). A guild's tournaments are a few a night: the sums are read from their entries."""
    season = await wallets.season(db, guild_id)
    bounds = _results_bounds(guild_id, season, since, game)
    rows = await db.all(
        f"{_TOURNAMENT_RESULTS} GROUP BY entries.user_id"
        " ORDER BY net DESC, entries.user_id LIMIT :limit",
        bounds | {"limit": limit},
    )
    caller = None
    if user_id is not None:
        own = await one(
            db,
            f"{_TOURNAMENT_RESULTS} AND entries.user_id = :user GROUP BY entries.user_id",
            bounds | {"user": user_id},
        )
        if own is not None:
            above = await one(
                db,
                f"SELECT count(*) AS n FROM ({_TOURNAMENT_RESULTS} GROUP BY entries.user_id)"
                " AS results WHERE results.net > :net",
                bounds | {"net": int(own["net"])},
            )
            assert above is not None
            caller = _to_board_row(int(above["n"]) + 1, own)
    top: list[LeaderboardRow] = []
    for index, row in enumerate(rows):
        tied = top and top[-1].chips == int(row["net"])
        top.append(_to_board_row(top[-1].rank if tied else index + 1, row))
    return Leaderboard(
        tuple(top),
        caller,
        season.number,
        season.started_at,
        period,
        None if period == "all" else from_day_number(since),
        game,
        tournaments=True,
    )


def _to_board_row(rank: int, row: Row) -> LeaderboardRow:
    return LeaderboardRow(
        rank, int(row["user_id"]), int(row["net"]), int(row["played"]), int(row["wins"])
    )


def _to_tournament_stats(row: Row) -> TournamentStats:
    return TournamentStats(
        played=int(row["played"]),
        cashes=int(row["cashes"]),
        wins=int(row["wins"]),
        net=int(row["net"]),
    )


async def table_ledger(db: Connection, channel_id: int) -> TableLedger | None:
    """Every player who sat at the channel's latest table since it opened, from its ledger
    rows; ``None`` if the channel never had one."""
    table = await seating.latest_table_row(db, channel_id)
    if table is None:
        return None
    sums = await db.all(
        # A hand in progress holds its players' starting stacks (hand_start rows): those chips
        # are still theirs, on the table.
        "SELECT ledger.user_id,"
        " sum(CASE WHEN ledger.kind = 'buy_in' THEN ledger.seat_delta ELSE 0 END)"
        " AS bought_in,"
        " sum(CASE WHEN ledger.kind = 'cash_out' THEN ledger.wallet_delta ELSE 0 END)"
        " AS cashed_out,"
        " sum(ledger.seat_delta) + sum(CASE WHEN ledger.kind = 'hand_start'"
        " AND hands.ended_at IS NULL THEN ledger.hand_delta ELSE 0 END) AS on_table,"
        " min(ledger.id) AS first_row"
        " FROM ledger LEFT JOIN hands ON hands.id = ledger.hand_id"
        " WHERE ledger.table_id = ?"
        " GROUP BY ledger.user_id ORDER BY first_row",
        (table["id"],),
    )
    played = {
        int(row["user_id"]): int(row["hands"])
        for row in await db.all(
            "SELECT hand_seats.user_id, count(*) AS hands FROM hands"
            " JOIN hand_seats ON hand_seats.hand_id = hands.id"
            " WHERE hands.table_id = ? AND hands.outcome = 'settled'"
            " GROUP BY hand_seats.user_id",
            (table["id"],),
        )
    }
    settled = await one(
        db,
        "SELECT count(*) AS n FROM hands WHERE table_id = ? AND outcome = 'settled'",
        (table["id"],),
    )
    assert settled is not None
    seated = {
        int(row["user_id"])
        for row in await db.all("SELECT user_id FROM seats WHERE table_id = ?", (table["id"],))
    }
    return TableLedger(
        channel_id=int(table["channel_id"]),
        guild_id=int(table["guild_id"]),
        opened_at=required_ts(table["opened_at"]),
        closed_at=parse_ts(table["closed_at"]),
        hands=int(settled["n"]),
        entries=tuple(
            LedgerEntry(
                user_id=int(row["user_id"]),
                bought_in=int(row["bought_in"]),
                cashed_out=int(row["cashed_out"]),
                on_table=int(row["on_table"]),
                hands=played.get(int(row["user_id"]), 0),
                seated=int(row["user_id"]) in seated,
            )
            for row in sums
        ),
    )


def check_limit(limit: int) -> None:
    """A leaderboard shows 1..100 players."""
    if not is_int(limit) or not 1 <= limit <= 100:
        raise ValueError(f"limit must be 1..100, not {limit!r}")


def check_period(period: object) -> Period:
    for known in PERIODS:
        if period == known:
            return known
    raise ValueError(f"a period is one of {', '.join(PERIODS)}, not {period!r}")


def game_key(game: str | None) -> str:
    """The stats' key of ``game``: its own, or ``ALL_GAMES`` for None."""
    if game is None:
        return ALL_GAMES
    if not isinstance(game, str) or not 1 <= len(game) <= 16 or game == ALL_GAMES:
        raise ValueError(f"not a game's key: {game!r}")
    return game


def check_facts(facts: HandFacts, seats: int) -> None:
    game_key(facts.game)
    if len(facts.seats) != seats:
        raise ValueError(f"the facts have {len(facts.seats)} seats, the hand {seats}")
    for seat in facts.seats:
        if not is_int(seat.collected) or seat.collected < 0:
            raise ValueError(f"chips collected must be a whole number, not {seat.collected!r}")
        if not seat.dealt and (seat.vpip or seat.showdown or seat.collected):
            raise ValueError("a seat that was not dealt in did nothing in the hand")


def day_number(day: date) -> int:
    return (day - EPOCH).days


def from_day_number(number: int) -> date:
    return EPOCH + timedelta(days=number)


def period_bounds(period: object, game: str | None, today: date) -> tuple[Period, int, str]:
    """A report's period checked, its first day (``since_day``) and ``game``'s key."""
    key = game_key(game)
    checked = check_period(period)
    return checked, since_day(checked, today), key


def since_day(period: Period, today: date) -> int:
    """The stats bucket of ``period`` that ``today`` (UTC) is in, named by its first day."""
    if period == "day":
        return day_number(today)
    if period == "week":
        return day_number(today - timedelta(days=today.weekday()))  # from Monday
    if period == "month":
        return day_number(today.replace(day=1))
    return 0


def _to_game_stats(row: Row) -> GameStats:
    return GameStats(
        game=str(row["game"]),
        hands=int(row["hands"]),
        won=int(row["won"]),
        showdowns=int(row["showdowns"]),
        won_showdown=int(row["won_showdown"]),
        vpip=int(row["vpip"]),
        net=int(row["net"]),
        biggest_pot=int(row["biggest_pot"]),
    )


class ReportQueries:
    """``store.reports``: leaderboards, a player's stats and a table's ledger. Each is a
    ``report()``: on SQLite it reads in a thread of its own, so the tables don't wait for it."""

    def __init__(self, backend: Backend) -> None:
        self._backend = backend

    async def leaderboard(
        self, guild_id: int, *, limit: int = 10, user_id: int | None = None
    ) -> Leaderboard:
        """Top ``limit`` players by wallet + seated chips, and ``user_id``'s own rank."""
        check_limit(limit)
        async with self._backend.report() as db:
            return await leaderboard(db, guild_id, limit=limit, user_id=user_id)

    async def winnings(
        self,
        guild_id: int,
        *,
        period: str = "all",
        game: str | None = None,
        limit: int = 10,
        user_id: int | None = None,
        now: datetime | None = None,
    ) -> Leaderboard:
        """Top ``limit`` players by net chips won at the tables over ``period`` (the day, week
        or month of ``now``, or the whole season) of the guild's current season, in ``game``
        (None: every game), and ``user_id``'s own rank (None if he played no hand then)."""
        check_limit(limit)
        checked, since, key = period_bounds(period, game, aware(now).date())
        async with self._backend.report() as db:
            return await winnings(
                db,
                guild_id,
                period=checked,
                since=since,
                game=game,
                key=key,
                limit=limit,
                user_id=user_id,
            )

    async def tournament_board(
        self,
        guild_id: int,
        *,
        period: str = "all",
        game: str | None = None,
        limit: int = 10,
        user_id: int | None = None,
        now: datetime | None = None,
    ) -> Leaderboard:
        """Top ``limit`` by tournament prizes minus buy-ins, as ``winnings`` takes its
        arguments (``user_id``'s rank None if he finished no tournament in the period)."""
        check_limit(limit)
        checked, since, _ = period_bounds(period, game, aware(now).date())
        async with self._backend.report() as db:
            return await tournament_board(
                db, guild_id, period=checked, since=since, game=game, limit=limit, user_id=user_id
            )

    async def player_stats(
        self,
        guild_id: int,
        user_id: int,
        *,
        period: str = "all",
        game: str | None = None,
        now: datetime | None = None,
    ) -> PlayerStats:
        """A player's figures over ``period`` of the guild's current season (as ``winnings``
        takes it): in ``game`` (None: every game together) and per game, and his net in each of
        his last hands of the period (at most :data:`RECENT_HANDS`, oldest first), and
        his results in the tournaments that finished in the period."""
        checked, since, key = period_bounds(period, game, aware(now).date())
        async with self._backend.report() as db:
            return await player_stats(
                db, guild_id, user_id, period=checked, since=since, game=game, key=key
            )

    async def table_ledger(self, channel_id: int) -> TableLedger | None:
        """Every player who sat at the channel's table since it opened, from its ledger rows:
        the open table's, else the one closed there last; ``None`` if the channel never had
        one."""
        async with self._backend.report() as db:
            return await table_ledger(db, channel_id)
