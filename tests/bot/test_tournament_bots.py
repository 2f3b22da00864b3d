"""Computer players in tournaments (docs/rules.md 11.1), through the core on
the injected clock, on SQLite and PostgreSQL: the organiser's bots are entrants whose buy-ins
the house pays and whose prizes go back to it, seated, moved and knocked out like anyone, never
sent a DM; once no person is left they play it out without pauses. The audit holds throughout."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.core import dealer
from bot.core.errors import TableError
from bot.core.house import House
from bot.core.storage import HouseCannotCover, InvalidTableConfig, Store, Tournament
from bot.core.storage.house import HOUSE, is_bot
from bot.core.tournament import TournamentDirector
from bot.core.views import ButtonSpec, LobbyView
from engine.tournament import award, prize_table
from tests.bot.fakes import GUILD
from tests.bot.tournament_run import BUY_IN, TournamentRun, places_are_each_taken_once
from tests.databases import POSTGRESQL_IN_SLOW_TIER

FUNDS = 10_000
ADMIN = 1
BOTS = 3
# The seeds tried, in turn, for a tournament whose people all go out before it ends.
SEEDS = range(1, 11)


def calls_down(buttons: list[ButtonSpec]) -> ButtonSpec:
    """A person who calls every bet and checks when he may: against the bots he goes out before
    the end under some seeds (how many depends on how the bots play)."""
    for action in ("call", "check"):
        for spec in buttons:
            if spec.action == action:
                return spec
    return buttons[0]  # the bring-in


async def house_balance(store: Store) -> int:
    return (await store.house_wallet.report(GUILD)).balance


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> Callable[[TournamentRun], TournamentRun]:
    """Decks, the hands' salts (which seed the bots' decisions) and the bots' pauses from the
    run's seed: at one table, the same tournament every time."""

    def seed(run: TournamentRun) -> TournamentRun:
        monkeypatch.setattr(dealer, "shuffled_deck", run.deck)
        monkeypatch.setattr(dealer, "new_secret", lambda: f"{run.rng.getrandbits(128):032x}")

        def configure(house: House) -> None:
            house.computer_players.delay = (2.0, 2.0)
            # They think on a small budget here: the decisions stay legal and seeded.
            house.computer_players.samples = 20

        run.configure = configure
        configure(run.house)
        return run

    return seed


@POSTGRESQL_IN_SLOW_TIER
async def test_people_and_bots_play_over_two_tables_and_the_house_gets_the_bots_prizes(
    store: Store, seeded: Callable[[TournamentRun], TournamentRun]
) -> None:
    run = seeded(TournamentRun(store, seed=22, players=4, seats=4))
    await store.house_wallet.fund(GUILD, FUNDS, by=ADMIN)
    shown: list[LobbyView] = []

    async def show(view: LobbyView) -> int:
        shown.append(view)
        return 900

    run.lobby.on_show = show
    director = await run.register_all(level_hands=2, bots=4, bot_style="loose")
    assert run.tournament is not None
    tid = run.tournament.tournament_id
    # The house paid four buy-ins into the pool, through the ledger.
    assert await house_balance(store) == FUNDS - 4 * BUY_IN
    assert (await store.tournaments.get(tid)).prize_pool == 8 * BUY_IN
    await store.audit()
    bots = {seat.user_id for t in run.tables() for seat in t.seats.values() if is_bot(seat.user_id)}
    assert len(bots) == 4 and sorted(len(t.seats) for t in run.tables()) == [4, 4]
    # The lobby names them as bots; a person is a mention.
    lobby = shown[-1]
    assert {user for user, _ in lobby.bots} == bots
    assert all("(loose)" in name for _, name in lobby.bots)
    assert all(
        name.startswith("Bot ") for t in run.tables() for u, name in t.names.items() if u < 0
    )
    # People play at random, the bots by themselves, with the audit after every hand.
    await run.play()
    assert director.record.moves and director.record.breaks

    done = await store.tournaments.get(tid)
    assert (done.state, done.prize_pool) == ("finished", 0)
    entries = await store.tournaments.entries(tid)
    places = {e.user_id: e.place for e in entries}
    assert None not in places.values() and len(places) == 8
    places_are_each_taken_once({user: place for user, place in places.items() if place})
    paid = {e.user_id: e.prize for e in entries if e.prize}
    assert paid == award(
        [(f.place, f.players) for f in director.record.finishes], prize_table(8 * BUY_IN, 8)
    )
    # The house: its buy-ins out, its bots' prizes in, nothing left in any bot's wallet.
    bot_prizes = sum(prize for user, prize in paid.items() if is_bot(user))
    assert await house_balance(store) == FUNDS - 4 * BUY_IN + bot_prizes
    for bot in bots:
        assert (await store.wallets.get(GUILD, bot)).balance == 0
    for user in run.users:
        assert (await store.wallets.get(GUILD, user)).balance == 1000 - BUY_IN + paid.get(user, 0)
    await store.audit()
    # A computer player is never sent its cards; the people were.
    assert run.screen.private and not any(is_bot(user) for _, user in run.screen.private)
    # A bot moved is named in its new thread, never mentioned or pinged.
    assert not any(is_bot(user) for user in run.screen.pings)
    assert not any("<@-" in line for line in run.screen.lines)
    # People only on the leaderboard: the house and its bots never rank.
    board = await store.reports.leaderboard(GUILD)
    assert board.top and all(row.user_id > HOUSE for row in board.top)


@POSTGRESQL_IN_SLOW_TIER
async def test_with_no_person_left_the_bots_play_it_out_at_once(
    store: Store, seeded: Callable[[TournamentRun], TournamentRun]
) -> None:
    # The people call the bots down until the last one is out, and the bots play on by
    # themselves. Under a seed where a person wins, or too few bots are left when the last
    # person goes out to deal two hands among them, there is nothing to measure: the next seed.
    await store.house_wallet.fund(GUILD, FUNDS, by=ADMIN)
    for seed in SEEDS:
        run = seeded(TournamentRun(store, seed=seed, players=2, seats=6))
        house_before = await house_balance(store)
        dealt_when: dict[str, int] = {}  # hands dealt when only bots were left, when it ended
        waits: list[float] = []  # every wait on the clock begun once no person is left
        director = await _people_out_first(run, dealt_when, waits)
        if "people out" not in dealt_when:
            continue
        # Nobody is waiting: no countdown between hands and no pause before a bot acts (but
        # one begun before the last person went out, and the countdown the hand he went out in
        # began).
        await run.clock.advance(max(run.house.computer_players.delay), run.house)
        for _ in range(100_000):
            if director.finished:
                break
            await run.clock.advance(0, run.house)  # the loop turns; the clock stays
        assert director.finished
        if dealt_when["finished"] - dealt_when["people out"] >= 2:
            break
    else:
        pytest.fail(f"under no seed in {SEEDS} did the bots play among themselves")
    assert waits == [], "nothing waits on the clock once no person is left"
    entries = await store.tournaments.entries(director.tournament.tournament_id)
    winner = next(e for e in entries if e.place == 1)
    assert is_bot(winner.user_id) and winner.prize
    assert await house_balance(store) == house_before - BOTS * BUY_IN + sum(
        e.prize or 0 for e in entries if is_bot(e.user_id)
    )
    await store.audit()


async def _people_out_first(
    run: TournamentRun, dealt_when: dict[str, int], waits: list[float]
) -> TournamentDirector:
    """Play ``run``'s tournament, the people calling down, until no person is left in it (or
    it ends), noting the hands dealt when the lobby first shows only bots and when it shows the
    end, and each wait on the clock begun once no person is left."""

    async def show(view: LobbyView) -> int:
        director = run.house.tournaments.directors.get(view.tournament_id) or run.director
        dealt = 0 if director is None else len(director.record.dealt)
        if view.stacks and all(is_bot(user) for _, user, _ in view.stacks):
            dealt_when.setdefault("people out", dealt)
        if view.state == "finished":
            dealt_when["finished"] = dealt
        return 900

    run.lobby.on_show = show
    director = await run.register_all(level_hands=3, bots=BOTS, bot_style="tight")
    sleep = run.clock.sleep

    async def recorded(seconds: float) -> None:
        if director.unattended() and seconds > 0:
            waits.append(seconds)
        await sleep(seconds)

    run.clock.sleep = recorded  # type: ignore[method-assign]
    await run.play(until=lambda d: d.unattended(), choose=calls_down)
    return director


@POSTGRESQL_IN_SLOW_TIER
async def test_bots_play_on_after_crashes_and_the_books_still_balance(
    store: Store, seeded: Callable[[TournamentRun], TournamentRun]
) -> None:
    run = seeded(TournamentRun(store, seed=9, players=3, seats=3))
    await store.house_wallet.fund(GUILD, FUNDS, by=ADMIN)
    await run.register_all(level_hands=2, bots=3, bot_style="careful")
    await run.play(crashes=0.02)
    assert run.restarts >= 1 and run.director is not None
    assert run.director.finished or run.director.unattended()
    # What is left to play, the bots play out by themselves.
    for _ in range(100_000):
        if run.director.finished:
            break
        await run.clock.advance(max(run.house.computer_players.delay), run.house)
    assert run.director.finished
    entries = await store.tournaments.entries(run.director.tournament.tournament_id)
    assert sorted(e.place for e in entries if e.place) == sorted(range(1, 7)) or any(
        len(f.players) > 1 for r in run.records for f in r.finishes
    )
    bot_prizes = sum(e.prize or 0 for e in entries if is_bot(e.user_id))
    assert await house_balance(store) == FUNDS - 3 * BUY_IN + bot_prizes
    await store.audit()


async def test_a_cancel_gives_the_house_its_buy_ins_back(store: Store) -> None:
    run = TournamentRun(store, seed=1, players=3, seats=4)
    await store.house_wallet.fund(GUILD, FUNDS, by=ADMIN)
    tournament = await run.house.tournaments.create(
        GUILD,
        77,
        1001,
        game="razz",
        buy_in=BUY_IN,
        seats=4,
        level_unit="hands",
        level_length=5,
        start_entrants=5,
        bots=2,
        bot_style="tight",
    )
    await run.house.tournaments.register(GUILD, tournament.tournament_id, 1001)
    assert await house_balance(store) == FUNDS - 2 * BUY_IN
    refunds = await run.house.tournaments.cancel(
        GUILD, tournament.tournament_id, 1001, can_manage=False
    )
    assert len(refunds) == 3
    assert await house_balance(store) == FUNDS
    assert (await store.wallets.get(GUILD, 1001)).balance == 1000
    await store.audit()


async def test_bots_the_house_cannot_cover_or_that_would_start_it_alone_are_refused(
    store: Store,
) -> None:
    run = TournamentRun(store, seed=1, players=2, seats=4)
    desk = run.house.tournaments
    await store.house_wallet.fund(GUILD, 250, by=ADMIN)

    async def create(bots: int, *, buy_in: int = BUY_IN, style: str | None = None) -> Tournament:
        return await desk.create(
            GUILD,
            77,
            1001,
            game="stud",
            buy_in=buy_in,
            seats=4,
            level_unit="hands",
            level_length=5,
            start_entrants=4,
            bots=bots,
            bot_style=style,
        )

    with pytest.raises(HouseCannotCover, match="not the 300"):
        await create(3)
    for count, style in ((4, None), (8, None), (-1, None), (1, "wild")):
        with pytest.raises(TableError, match="tournament_bots_bad"):
            await create(count, style=style)
    # The store holds to it as well.
    refusals = ((2, (-1, -2), "at least one person"), (4, (-1, -1), "distinct negative ids"))
    for entrants, bots, refusal in refusals:
        with pytest.raises(InvalidTableConfig, match=refusal):
            await store.tournaments.create(
                GUILD,
                77,
                1001,
                game="stud",
                structure="standard",
                level_unit="hands",
                level_length=5,
                starting_stack=2000,
                buy_in=0,
                seats=4,
                seed=1,
                start_entrants=entrants,
                bots=bots,
            )
    assert await store.tournaments.active() == []
    assert await house_balance(store) == 250
    # A freeroll needs nothing of the house, however empty.
    await store.house_wallet.empty(GUILD, 250, by=ADMIN)
    free = await create(3, buy_in=0)
    assert len(await store.tournaments.entries(free.tournament_id)) == 3
    await store.audit()
