"""Every slash command and every bad input class, through the real client on the fake Discord."""

from __future__ import annotations

import copy

import pytest

import render
from bot.core.settings import Settings
from engine.fairness import verify
from tests.cogs.world import (
    World,
    labels,
    live_table,
    make_bot,
    member,
    message_text,
    open_and_seat,
    play_out_with_buttons,
    refused,
    spy_drawing,
    stop_like_a_crash,
    stored_buttons,
    table_message,
)
from tests.engine.pokerstars_parser import parse_history


async def test_table_open_uses_the_rule_book_defaults_and_info_lists_players(world: World) -> None:
    """RULES 1.2: the default table is A=1, B=3, S=10, L=20."""
    ann, bob = world.players[:2]
    result = await ann.slash(world.channel, "table open")
    assert result.response is not None
    assert "10/20 (ante 1, bring-in 3)" in result.response.content
    await ann.slash(world.channel, "sit", buy_in=300)
    info = await bob.slash(world.channel, "table info")
    assert info.ephemeral and info.response is not None
    assert "Seat 1: ann — 300 chips" in info.response.content


async def test_table_open_with_custom_stakes_and_bad_stakes(world: World) -> None:
    ann = world.players[0]
    refused(
        await ann.slash(world.channel, "table open", bring_in=30, small_bet=10),
        "Those stakes don't work",
    )
    assert list(world.bot.house.open_tables) == []
    result = await ann.slash(
        world.channel, "table open", ante=2, bring_in=5, small_bet=20, big_bet=40, seats=3
    )
    assert result.response is not None and "20/40 (ante 2, bring-in 5)" in result.response.content
    assert live_table(world).config.seats == 3


async def test_second_table_in_a_channel_is_refused(world: World) -> None:
    ann, bob = world.players[:2]
    await ann.slash(world.channel, "table open")
    refused(await bob.slash(world.channel, "table open"), "already has a table")


async def test_commands_without_a_table_say_how_to_open_one(world: World) -> None:
    ann = world.players[0]
    for command in ("sit", "leave", "fold", "cards", "table info", "table close"):
        refused(await ann.slash(world.channel, command), "There is no table in this channel")


async def test_sitting_with_too_few_chips_or_outside_the_limits_changes_nothing(
    world: World,
) -> None:
    ann = world.players[0]
    await ann.slash(world.channel, "table open", max_buy_in=5000)
    refused(await ann.slash(world.channel, "sit", buy_in=2000), "don't have enough chips")
    refused(
        await ann.slash(world.channel, "sit", buy_in=50), "buy-in at this table is 100 to 5,000"
    )
    assert live_table(world).seats == {}
    assert (await world.bot.store.wallets.get(world.guild_id, ann.id)).balance == 1000
    await world.bot.store.audit()


async def test_sitting_twice_and_a_full_table(world: World) -> None:
    ann, bob, cy = world.players[:3]
    await ann.slash(world.channel, "table open", seats=2)
    await ann.slash(world.channel, "sit")
    refused(await ann.slash(world.channel, "sit"), "already have a seat")
    await bob.slash(world.channel, "sit")
    refused(await cy.slash(world.channel, "sit"), "The table is full")


async def test_acting_out_of_turn_or_unseated_changes_nothing(world: World) -> None:
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    seq = table.live.seq
    actor = table.actor_id()
    other = next(p for p in world.players[:2] if p.id != actor)
    refused(await other.slash(world.channel, "bringin"), "It's not your turn")
    refused(await world.players[2].slash(world.channel, "fold"), "not seated")
    assert table.live.seq == seq


async def test_illegal_actions_and_amounts_explain_what_is_allowed(world: World) -> None:
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    actor = member(world, table.actor_id() or 0)
    refused(await actor.slash(world.channel, "fold"), "You can't do that now")
    refused(await actor.slash(world.channel, "check"), "You can't do that now")
    seq = table.live.seq
    await actor.slash(world.channel, "bringin")
    assert table.live.seq > seq
    caller = member(world, table.actor_id() or 0)
    refused(await caller.slash(world.channel, "raise", total=999), "You can't make it 999")
    refused(await caller.slash(world.channel, "bringin"), "You can't do that now")


async def test_a_whole_hand_by_slash_commands(world: World) -> None:
    """Bring-in, completion, raise, call, bet, check and fold, each as a command (RULES 3-4)."""
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    hand = table.live.hand
    script = [
        ("bringin", {}, "bring in for 3"),
        ("complete", {}, "complete to 10"),
        ("raise", {"total": 20}, "raise to 20"),
        ("call", {}, "call 10"),
        ("bet", {}, "bet"),
        ("raise", {}, "raise to"),
        ("call", {}, "call"),
        ("check", {}, "check"),
        ("check", {}, "check"),
        ("bet", {"amount": 20}, "bet 20"),
        ("call", {}, "call 20"),
        ("check", {}, "check"),
        ("bet", {}, "bet 20"),
        ("fold", {}, "fold"),
    ]
    for command, options, done in script:
        actor = member(world, table.actor_id() or 0)
        result = await actor.slash(world.channel, command, **options)
        assert result.ephemeral and result.response is not None
        assert result.response.content.startswith("Done: " + done), (command, result.response)
    assert hand.is_over and table.live is None
    await world.bot.store.audit()


async def test_buttons_show_only_legal_actions_with_amounts(world: World) -> None:
    await open_and_seat(world)
    assert labels(table_message(world)) == ["Bring in 3", "Complete to 10"]
    table = live_table(world)
    await member(world, table.actor_id() or 0).click(table_message(world), label="Bring in 3")
    assert labels(table_message(world)) == ["Fold", "Call 3", "Complete to 10"]


async def test_a_click_from_someone_else_is_not_your_turn(world: World) -> None:
    await open_and_seat(world)
    table = live_table(world)
    other = next(p for p in world.players[:2] if p.id != table.actor_id())
    refused(await other.click(table_message(world), label="Bring in 3"), "It's not your turn")
    outsider = world.players[3]
    refused(await outsider.click(table_message(world), label="Bring in 3"), "not seated")


async def test_a_button_from_an_old_hand_or_betting_state_answers_clearly(world: World) -> None:
    await open_and_seat(world)
    table = live_table(world)
    old = copy.deepcopy(world.env.stored(table_message(world).id))
    old_id = stored_buttons(old)[0]
    actor = member(world, table.actor_id() or 0)
    await actor.click(table_message(world), label="Bring in 3")
    stale = await member(world, table.actor_id() or 0).click(old, custom_id=old_id)
    refused(stale, "betting has moved on")
    await play_out_with_buttons(world)
    await world.env.advance_time(31)
    assert table.live is not None and table.live.hand_id == 2
    from_hand_one = await member(world, table.actor_id() or 0).click(old, custom_id=old_id)
    refused(from_hand_one, "belongs to a hand that is over")


async def test_leaving_during_a_hand_waits_for_its_end_and_leaving_twice_is_refused(
    world: World,
) -> None:
    await open_and_seat(world, 3)
    ann = world.players[0]
    result = await ann.slash(world.channel, "leave")
    assert result.response is not None and "after this hand" in result.response.content
    refused(await ann.slash(world.channel, "leave"), "already leaving")
    await play_out_with_buttons(world)
    table = live_table(world)
    assert ann.id not in table.seats
    wallet = await world.bot.store.wallets.get(world.guild_id, ann.id)
    assert wallet.seated == 0 and wallet.balance > 0
    refused(await ann.slash(world.channel, "leave"), "not seated")
    await world.bot.store.audit()


async def test_leaving_between_hands_cashes_out_at_once(world: World) -> None:
    ann = world.players[0]
    await ann.slash(world.channel, "table open")
    await ann.slash(world.channel, "sit", buy_in=400)
    result = await ann.slash(world.channel, "leave")
    assert result.response is not None and "400 chips go back" in result.response.content
    assert (await world.bot.store.wallets.get(world.guild_id, ann.id)).balance == 1000


async def test_sitting_out_skips_the_next_hand_and_sitting_in_comes_back(world: World) -> None:
    """RULES 1.1: a player sitting out is not dealt and pays no ante."""
    ann, bob, cy = world.players[:3]
    await ann.slash(world.channel, "table open")
    for player in (ann, bob, cy):
        await player.slash(world.channel, "sit")
    await cy.slash(world.channel, "sitout")
    refused(await cy.slash(world.channel, "sitout"), "already sitting out")
    await world.env.advance_time(31)
    table = live_table(world)
    assert table.live is not None and cy.id not in table.live.users
    await cy.slash(world.channel, "sitin")
    refused(await cy.slash(world.channel, "sitin"), "not sitting out")
    await play_out_with_buttons(world)
    await world.env.advance_time(31)
    assert table.live is not None and cy.id in table.live.users


async def test_closing_needs_the_opener_or_manage_server_and_no_hand(world: World) -> None:
    ann, bob = world.players[:2]
    await open_and_seat(world)
    refused(await bob.slash(world.channel, "table close"), "Only the player who opened")
    refused(await ann.slash(world.channel, "table close"), "Close the table between hands")
    await play_out_with_buttons(world)
    result = await world.admin.slash(world.channel, "table close")
    assert result.response is not None and "The table is closed" in result.response.content
    assert list(world.bot.house.open_tables) == []
    for player in (ann, bob):
        assert (await world.bot.store.wallets.get(world.guild_id, player.id)).seated == 0
    await world.bot.store.audit()


async def test_cards_command_and_button_are_ephemeral_with_the_private_picture(
    world: World,
) -> None:
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    ann = world.players[0]
    seat = table.live.seat_of(ann.id)
    assert seat is not None
    down = " ".join(card.pretty for card in table.live.hand.down_cards(seat))
    for result in (
        await ann.slash(world.channel, "cards"),
        await ann.click(table_message(world), label="My cards"),
    ):
        assert result.ephemeral and result.response is not None
        assert down in result.response.content
        assert [a.filename for a in result.response.attachments] == ["cards.png"]
    refused(await world.players[3].click(table_message(world), label="My cards"), "no cards")


async def test_private_cards_arrive_by_dm_on_third_and_seventh_street(world: World) -> None:
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    hand = table.live.hand
    users = table.live.users
    await play_out_with_buttons(world)
    for seat, user_id in enumerate(users):
        dms = world.users[user_id].dm_channel.history()
        assert len(dms) == 2, [m.content for m in dms]
        third, seventh = dms
        first_two = " ".join(card.pretty for card in hand.down_cards(seat)[:2])
        assert first_two in third.content
        assert hand.down_cards(seat)[2].pretty in seventh.content
        assert [a.filename for a in third.attachments] == ["cards.png"]


async def test_closed_dms_get_one_channel_line_and_play_goes_on(world: World) -> None:
    world.env.fake.closed_dms.update(world.users)
    await open_and_seat(world)
    lines = [m.content for m in world.channel.history() if "DMs are closed" in m.content]
    expected = [f"{p.mention}, your DMs are closed: use My cards." for p in world.players[:2]]
    assert sorted(lines) == sorted(expected)
    await play_out_with_buttons(world)
    assert live_table(world).live is None
    # 7th street fails again, but each player is named once per hand.
    again = [m.content for m in world.channel.history() if "DMs are closed" in m.content]
    assert sorted(again) == sorted(expected)
    await world.bot.store.audit()


async def test_running_out_of_time_warns_then_acts_and_sits_out(world: World) -> None:
    """RULES 6.1: out of time -> bring in, check, or fold; 6.2: then sitting out."""
    await open_and_seat(world, time_bank=0)
    table = live_table(world)
    assert table.live is not None
    hand = table.live.hand
    actor = table.actor_id()
    await world.env.advance_time(46)
    assert any(f"<@{actor}>, 15 seconds left" in m.content for m in world.channel.history())
    await world.env.advance_time(15)
    assert hand.events and hand.timed_out
    while table.live is not None:
        await world.env.advance_time(61)
    assert hand.is_over
    seats = {seat.user_id: seat for seat in await world.bot.store.seating.seats(world.channel.id)}
    assert all(seats[user_id].sitting_out for user_id in (actor,))
    assert any("sits out from the next hand" in m.content for m in world.channel.history())


async def test_a_turn_that_runs_out_draws_on_the_time_bank_first(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The time bank runs, on the table message and in the channel; then RULES 6.1. The
    message's text says so with its deadline, and no picture is drawn
    for it (a live picture shows no clock)."""
    drawn = spy_drawing(monkeypatch, render.table_png)
    await open_and_seat(world, time_bank=20)
    table = live_table(world)
    assert table.live is not None
    hand, actor = table.live.hand, table.actor_id()
    pictures = len(drawn)
    await world.env.advance_time(61)
    assert not hand.timed_out
    assert any(
        f"<@{actor}>, your turn is over: your time bank is running (20 s)." in m.content
        for m in world.channel.history()
    )
    assert len(drawn) == pictures
    assert [label.seconds_left for label in drawn[-1][0][1].seats] == [None, None]
    text = message_text(table_message(world))
    assert "on the time bank, time runs out <t:" in text
    await world.env.advance_time(20)
    assert hand.timed_out


async def test_wallet_commands(world: World) -> None:
    ann, bob = world.players[:2]
    result = await ann.slash(world.channel, "balance")
    assert result.ephemeral and result.response is not None
    assert "Chips in your wallet: 1,000." in result.response.content
    result = await ann.slash(world.channel, "daily")
    assert result.response is not None and "1,200" in result.response.content
    refused(await ann.slash(world.channel, "daily"), "already took your daily chips")
    await bob.slash(world.channel, "balance")
    board = await bob.slash(world.channel, "leaderboard", by="wallet")
    assert board.ephemeral and board.response is not None
    embed = board.response.embeds[0]
    assert embed.title == "Leaderboard · chips in wallets and at tables"
    # Names as the bot saw them when they used it (no member cache to look them up in).
    assert embed.description == "Season 1\n\n1. ann — 1,200\n2. bob — 1,000"
    assert embed.footer.text == "You are #2 with 1,000 chips."
    # A wallet whose owner never used the bot: a mention, which pings nobody in an embed.
    cy = world.players[2]
    await world.admin.slash(world.channel, "chips grant", member=cy, amount=5000)
    board = await bob.slash(world.channel, "leaderboard", by="wallet")
    assert board.response is not None
    assert (board.response.embeds[0].description or "").startswith(
        f"Season 1\n\n1. {cy.mention} — 6,000\n"
    )


async def test_chips_grant_needs_manage_server(world: World) -> None:
    ann = world.players[0]
    assert "chips grant" not in ann.available_commands(world.channel)
    result = await world.admin.slash(world.channel, "chips grant", member=ann, amount=500)
    assert result.response is not None and "Wallet: 1,500" in result.response.content
    await world.bot.store.audit()


async def test_hand_verify_reveals_deck_and_salt_only_after_the_hand(world: World) -> None:
    await open_and_seat(world)
    ann = world.players[0]
    refused(await ann.slash(world.channel, "hand verify", hand_id=1), "still being played")
    refused(await ann.slash(world.channel, "hand verify", hand_id=99), "There is no hand #99")
    await play_out_with_buttons(world)
    result = await ann.slash(world.channel, "hand verify", hand_id=1)
    assert result.ephemeral and result.response is not None
    assert "matches" in result.response.content
    assert [a.filename for a in result.response.attachments] == ["hand-1-reveal.txt"]


async def test_history_is_your_own_copy_as_a_text_file(world: World) -> None:
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    hand = table.live.hand
    ann = world.players[0]
    seat = table.live.seat_of(ann.id)
    other = 1 - (seat or 0)
    # During his first hand there is no finished one yet; the live one is asked for by id.
    refused(await ann.slash(world.channel, "history"), "haven't played a finished hand")
    refused(await ann.slash(world.channel, "history", hand_id=1), "still being played")
    await play_out_with_buttons(world)
    result = await ann.slash(world.channel, "history")
    assert result.ephemeral and result.response is not None
    attachment, reveal_file = result.response.attachments
    assert (attachment.filename, reveal_file.filename) == ("hand-1.txt", "hand-1-reveal.txt")
    text = (await attachment.read()).decode()
    assert "Hand #1" in result.response.content
    # The reveal is a file of its own: the history holds the hand and nothing after it,
    # and the reveal checks against the commitment posted before the deal.
    parse_history(text)
    reveal = (await reveal_file.read()).decode()
    assert "Reveal:" not in text and "Commitment:" not in text
    commitment = reveal.split("Commitment: ", 1)[1].split()[0]
    assert verify(commitment, reveal.split("Reveal: ", 1)[1].splitlines()[0])
    assert any(commitment in message_text(m) for m in world.channel.history())
    mine = " ".join(str(card) for card in hand.down_cards(seat or 0)[:2])
    assert f"Dealt to ann [{mine}" in text
    # The other player's down cards are in ann's copy only as shown at showdown.
    showdown = text.split("*** SHOW DOWN ***")[0] if "SHOW DOWN" in text else text
    for card in hand.down_cards(other):
        assert str(card) not in showdown.split("*** 3rd STREET ***")[1]


async def test_an_unexpected_error_gives_the_player_an_id(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    await open_and_seat(world)

    async def broken(*args: object, **kwargs: object) -> tuple[str, int | None]:
        raise RuntimeError("boom")

    monkeypatch.setattr(world.bot.house.dealer, "act", broken)
    world.allowed_bugs = 1
    result = await world.players[0].slash(world.channel, "fold")
    refused(result, "report error id")
    assert result.response is not None
    error_id = result.response.content.split("`")[1]
    assert any(error_id in record.getMessage() for record in caplog.records)


async def test_a_restart_mid_hand_restores_the_hand_and_play_continues(
    world: World, settings: Settings
) -> None:
    """Restart recovery: the hand comes back from the database with a fresh table message."""
    await open_and_seat(world)
    table = live_table(world)
    actor = member(world, table.actor_id() or 0)
    await actor.click(table_message(world), label="Bring in 3")
    assert table.live is not None
    before = table.live.hand.to_dict()
    old = table_message(world)
    await stop_like_a_crash(world.bot)
    world.bot = await make_bot(settings, world.env)
    await world.env.restart_bot(world.bot)
    await world.env.settle()
    restored = live_table(world)
    assert restored is not table and restored.live is not None
    assert restored.live.hand.to_dict() == before
    # The message from before the restart no longer offers buttons, and
    # keeps its picture and text.
    stored = world.env.stored(old.id)
    assert stored["components"] and not stored_buttons(stored)
    assert "Bring in" in str(stored["components"]) or "brings in" in str(stored["components"])
    assert any("The bot restarted; hand #1 continues" in m.content for m in world.channel.history())
    message = table_message(world)
    assert labels(message) and "Call 3" in labels(message)
    await play_out_with_buttons(world)
    await world.bot.store.audit()


async def test_a_finished_hand_is_exported_after_a_restart(
    world: World, settings: Settings
) -> None:
    """The stored hand writes the same history after the bot restarts."""
    await open_and_seat(world)
    await play_out_with_buttons(world)
    ann = world.players[0]
    before = await ann.slash(world.channel, "history", hand_id=1)
    assert before.response is not None
    attachment, _ = before.response.attachments
    text_before = (await attachment.read()).decode()
    await stop_like_a_crash(world.bot)
    world.bot = await make_bot(settings, world.env)
    await world.env.restart_bot(world.bot)
    await world.env.settle()
    after = await ann.slash(world.channel, "history", hand_id=1)
    assert after.ephemeral and after.response is not None
    attachment, _ = after.response.attachments
    text_after = (await attachment.read()).decode()
    assert "*** SUMMARY ***" in text_after and text_after == text_before


@pytest.mark.parametrize(
    "custom_id",
    [
        "stud:a:",
        "stud:cards:",
        "stud:v0:fold",  # an id scheme of an older version
        "stud:a:1:2:3:shove:",  # an action no button has
    ],
)
async def test_a_stud_button_no_current_button_understands_is_answered(
    world: World, custom_id: str
) -> None:
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    before = table.live.hand.to_dict()
    stored = world.env.stored(table_message(world).id)
    actor = member(world, table.actor_id() or 0)
    result = await actor.click(stored, custom_id=custom_id)
    refused(result, "older version of the table")
    assert table.live.hand.to_dict() == before


async def test_a_button_clicked_outside_its_tables_channel_is_refused(world: World) -> None:
    """A click acts at the table of the channel it happens in, whatever its id says."""
    await open_and_seat(world)
    table = live_table(world)
    assert table.live is not None
    before = table.live.hand.to_dict()
    other = world.env.channel(await world.env.fake.create_channel())
    await world.env.settle()
    actor = member(world, table.actor_id() or 0)
    posted = await world.players[0].slash(other, "table open")
    assert posted.ephemeral
    await world.env.settle()
    # The acting player's real button, clicked from a message in the other channel.
    stored_table = world.env.stored(table_message(world).id)
    button = next(b for b in stored_buttons(stored_table) if b.startswith("stud:a:"))
    stored = world.env.stored(other.history()[-1].id)
    result = await actor.click(stored, custom_id=button)
    refused(result, "another channel")
    assert table.live.hand.to_dict() == before
