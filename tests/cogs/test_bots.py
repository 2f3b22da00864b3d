"""Computer players through the real client on the fake Discord: seated by
command from the house wallet, playing their turns after a pause and never DMed, their chips
going back to the house, leaving when no person is seated, and resuming after a restart."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.outbox import Outbox
from bot.core.settings import Settings
from bot.core.storage.house import BOT_IDS, is_bot
from bot.core.views import PrivateView
from engine import events as ev
from strategy import Sight, Thought, decide
from strategy.sight import Habits
from tests.cogs.world import (
    World,
    labels,
    live_table,
    make_bot,
    member,
    passive_label,
    refused,
    stop_like_a_crash,
    table_message,
)
from tests.e2e.harness import shows

BOT = BOT_IDS[0]  # the first tight one: "Bot 1 (tight)"


async def fund_house(world: World, amount: int = 5_000) -> None:
    result = await world.admin.slash(world.channel, "chips house fund", amount=amount)
    assert result.response is not None and f"{amount:,}" in result.response.content


PAUSE = (6.0, 8.0)


def cheap_thinking(world: World) -> None:
    """Bots think in a worker thread, on real CPU time the tests wait for: a few dozen deals a
    decision keep these tests quick (benchmarks.bots measures the real budget). Their pause is
    longer than what settling lets pass at once (``tests/e2e/members.py``), so that it is left
    to ``advance_time`` as a turn clock is; the default pause (1-3 s) is the settings' test's."""
    world.bot.house.computer_players.samples = 48
    world.bot.house.computer_players.delay = PAUSE


async def open_with_bots(world: World, count: int = 1, style: str = "tight") -> None:
    cheap_thinking(world)
    ann = world.players[0]
    await ann.slash(world.channel, "table open")
    await ann.slash(world.channel, "sit")
    result = await ann.slash(world.channel, "table bots add", count=count, style=style)
    assert result.response is not None and result.ephemeral, result
    assert f"{count} computer player" in result.response.content


async def play_hand(world: World) -> None:
    """Ann checks or calls; the bots act by themselves, each after its pause."""
    table = live_table(world)
    after_ann = False
    while table.live is not None:
        actor = table.actor_id()
        assert actor is not None
        if is_bot(actor):
            seq = table.live.seq
            if after_ann:  # its pause started when Ann's action was shown: not over yet
                await world.env.advance_time(PAUSE[0] - 0.1)
                assert table.live is not None and table.live.seq == seq
            after_ann = False
            await world.env.advance_time(PAUSE[1] + 0.1)
            await world.env.settle()
            assert table.live is None or table.live.seq != seq, "the bot did not act"
        else:
            message = table_message(world)
            await member(world, actor).click(message, label=passive_label(labels(message)))
            after_ann = True


async def test_bots_sit_only_with_a_person_and_a_funded_house(world: World) -> None:
    ann, bob = world.players[:2]
    await ann.slash(world.channel, "table open")
    refused(await ann.slash(world.channel, "table bots add"), "only with people")
    await ann.slash(world.channel, "sit")
    refused(await ann.slash(world.channel, "table bots add"), "The house has 0 chips")
    await fund_house(world, 250)  # one buy-in of 50 big bets (1,000) is more than it has
    refused(await ann.slash(world.channel, "table bots add"), "The house has 250 chips")
    await fund_house(world, 2_000)
    refused(await bob.slash(world.channel, "table bots add"), "opened the table")
    result = await ann.slash(world.channel, "table bots add", count=3, style="loose")
    # The house had 2,250: two buy-ins of 1,000, then it could stake no more.
    assert result.response is not None and "2 computer players" in result.response.content
    table = live_table(world)
    bots = sorted(user_id for user_id in table.seats if is_bot(user_id))
    assert len(bots) == 2
    assert {table.name(user_id) for user_id in bots} == {"Bot 1 (loose)", "Bot 2 (loose)"}
    report = await world.bot.store.house_wallet.report(world.guild_id)
    assert (report.balance, report.at_tables) == (250, 2_000)
    # The channel is told, with the bot marked as one.
    assert any("Bot 1 (loose) sits down" in m.content for m in world.channel.history())
    # Someone with Manage Server may send them away too.
    result = await world.admin.slash(world.channel, "table bots remove", count=5)
    assert result.response is not None and "2 computer players leave" in result.response.content
    assert (await world.bot.store.house_wallet.report(world.guild_id)).balance == 2_250
    refused(await ann.slash(world.channel, "table bots remove"), "No computer player")
    # Anyone may see the house's figures; only admins move its chips.
    shown = await bob.slash(world.channel, "stats", house=True)
    assert shown.response is not None and shown.ephemeral
    assert shown.response.content.startswith("The house: 2,250 in its wallet, 0 with its")
    assert "won +0" in shown.response.content
    emptied = await world.admin.slash(world.channel, "chips house empty", amount=250)
    assert emptied.response is not None and "250 chips taken out" in emptied.response.content
    # /chips is an admin's command: Discord doesn't even show it to Bob (default permissions).
    await world.bot.store.audit()


async def test_a_bot_plays_its_turns_after_a_pause_and_is_never_sent_its_cards(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    private: list[PrivateView] = []
    put = Outbox.put

    def spy(self: Outbox, effect: object) -> None:
        if isinstance(effect, PrivateView):
            private.append(effect)
        put(self, effect)  # type: ignore[arg-type]

    monkeypatch.setattr(Outbox, "put", spy)
    await fund_house(world)
    await open_with_bots(world, 2)
    ann = world.players[0]
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    table = live_table(world)
    assert table.live is not None
    await play_hand(world)
    assert private and all(view.user_id == ann.id for view in private)
    # The bots' results are the house's: what Ann won or lost, it lost or won.
    wallet = await world.bot.store.wallets.get(world.guild_id, ann.id)
    report = await world.bot.store.house_wallet.report(world.guild_id)
    assert report.result == -(wallet.total - 1_000)
    await world.bot.store.audit()
    # Leaderboards rank people only.
    board = await world.bot.store.reports.winnings(world.guild_id, user_id=ann.id)
    assert [row.user_id for row in board.top] == [ann.id]
    # The table's ledger names the bots as bots, as the picture and the channel's lines do.
    ledger = await world.bot.house.seating.ledger(world.channel.id)
    assert sorted(line.name for line in ledger.lines) == ["Bot 1 (tight)", "Bot 2 (tight)", "ann"]


async def test_a_bot_reads_each_player_by_how_he_bet_in_the_hands_before(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table remembers, hand after hand, how each player played 3rd street; a bot's next
    decision sees it for every seat (Ann only checks and calls: she never completes)."""
    sights: list[Sight] = []

    def spy(sight: Sight, *args: Any, **kwargs: Any) -> Thought:
        sights.append(sight)
        return decide(sight, *args, **kwargs)

    monkeypatch.setattr("bot.core.computer_players.decide", spy)
    await fund_house(world)
    await open_with_bots(world, 1)
    ann = world.players[0]
    table = live_table(world)
    seen: set[Habits] = set()
    for _ in range(3):
        await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
        assert table.live is not None
        remembered = table.habits.get(ann.id, Habits())
        sights.clear()
        await play_hand(world)
        shown = {opponent.habits for sight in sights for opponent in sight.opponents}
        assert shown <= {remembered}
        seen |= shown
    assert table.habits[ann.id].completed == 0 and table.habits[ann.id].expected > 0
    assert table.habits[BOT].expected > 0
    assert seen - {Habits()}, "a later hand's decisions saw what the earlier ones showed"


async def test_bots_leave_when_no_person_is_seated(world: World) -> None:
    await fund_house(world)
    await open_with_bots(world, 2)
    ann = world.players[0]
    result = await ann.slash(world.channel, "leave")  # before the first hand is dealt
    assert result.response is not None
    table = live_table(world)
    assert table.seats == {}
    report = await world.bot.store.house_wallet.report(world.guild_id)
    assert (report.balance, report.at_tables, report.result) == (5_000, 0, 0)
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    assert table.live is None  # no hand among bots alone
    await world.bot.store.audit()


async def test_a_bot_to_act_acts_after_a_restart(world: World, settings: Settings) -> None:
    await fund_house(world)
    await open_with_bots(world, 1)
    table = live_table(world)
    # Ann plays until it is the bot's turn (a hand she ends herself, calling on 7th street,
    # is followed by the next); then the process stops before the bot acts.
    for _ in range(5):
        await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
        while table.live is not None and not is_bot(table.actor_id() or 0):
            message = table_message(world)
            actor = member(world, table.actor_id() or 0)
            await actor.click(message, label=passive_label(labels(message)))
        if table.live is not None:
            break
    assert table.live is not None
    decided = table.live.hand.decisions
    await stop_like_a_crash(world.bot)
    world.bot = await make_bot(settings, world.env)
    cheap_thinking(world)
    await world.env.restart_bot(world.bot)
    await world.env.settle()
    await world.env.advance_time(PAUSE[1] + 0.1)
    await world.env.settle()
    restored = live_table(world)
    assert restored is not table
    after = restored.live.hand.decisions if restored.live is not None else None
    # The bot took its turn in the new process (or ended the hand by it).
    assert after is None or (after[: len(decided)] == decided and len(after) > len(decided))
    await play_hand(world)
    await world.bot.store.audit()


async def test_a_history_shows_a_bots_down_cards_only_where_they_were_shown(
    world: World,
) -> None:
    """The bot is named as one in the history; its down cards appear only in
    a showdown's "showed" line, as any player's. Hands until one went to a showdown and one
    did not (or a few of them)."""
    await fund_house(world)
    await open_with_bots(world, 1)
    ann = world.players[0]
    table = live_table(world)
    seen = {"showdown": False, "no showdown": False}
    for _ in range(6):
        await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
        assert table.live is not None
        live = table.live
        bot_seat = live.users.index(BOT)
        await play_hand(world)
        hand = live.hand
        down = [str(card) for card in hand.down_cards(bot_seat)]
        result = await ann.slash(world.channel, "history", last=1)
        assert result.response is not None
        text = (await result.response.attachments[0].read()).decode()
        assert "Bot 1 (tight)" in text
        showed = [line for line in text.splitlines() if "Bot 1 (tight)" in line and "show" in line]
        elsewhere = [line for line in text.splitlines() if line not in showed]
        shown = any(isinstance(e, ev.HandShown) and e.seat == bot_seat for e in hand.events)
        # As cards, not as letters: "Ac" stands in "Ace to Five" too.
        assert not any(shows(card, line) for card in down for line in elsewhere), text
        assert all(shows(card, " ".join(showed)) for card in down) == shown
        seen["showdown" if shown else "no showdown"] = True
        if all(seen.values()):
            break
    assert seen["showdown"], "no hand reached a showdown in six"


async def test_a_bot_never_times_out(world: World) -> None:
    """A bot has no turn clock or time bank: however long it takes (here a pause far past a
    turn and a time bank), the table waits for it, and it is never sat out."""
    await fund_house(world)
    await open_with_bots(world, 1)
    world.bot.house.computer_players.delay = (500.0, 500.0)
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    table = live_table(world)
    while table.live is not None and not is_bot(table.actor_id() or 0):
        message = table_message(world)
        ann = member(world, table.actor_id() or 0)
        await ann.click(message, label=passive_label(labels(message)))
    assert table.live is not None  # Ann acts passively: the bot's first turn comes first
    seq = table.live.seq
    game = world.bot.settings.game
    await world.env.advance_time(game.turn_seconds + game.time_bank + 60)
    assert table.live is not None and table.live.seq == seq and not table.live.hand.timed_out
    await world.env.advance_time(500)
    assert table.live is None or table.live.seq != seq
    assert not table.seats[BOT].sitting_out


async def test_bots_go_home_after_the_hand_the_last_person_leaves_in(world: World) -> None:
    await fund_house(world)
    await open_with_bots(world, 2)
    ann = world.players[0]
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    table = live_table(world)
    assert table.live is not None
    result = await ann.slash(world.channel, "leave")
    assert result.response is not None and "after" in result.response.content
    await play_hand(world)
    assert table.seats == {}
    report = await world.bot.store.house_wallet.report(world.guild_id)
    assert report.at_tables == 0 and report.balance == 5_000 + report.result
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    assert table.live is None
    await world.bot.store.audit()
