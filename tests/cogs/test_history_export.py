"""/history last and /history session through the real client on the fake Discord:
one PokerStars file of hands three blank lines apart, their reveals in a second file."""

from __future__ import annotations

from engine.fairness import verify
from tests.cogs.world import World, live_table, open_and_seat, play_out_with_buttons, refused
from tests.e2e.members import Result
from tests.engine.pokerstars_parser import parse_histories


async def two_hands(world: World) -> None:
    await open_and_seat(world)
    await play_out_with_buttons(world)
    await world.env.advance_time(world.bot.settings.game.countdown_seconds + 1)
    assert live_table(world).live is not None
    await play_out_with_buttons(world)


async def files(result: Result) -> tuple[str, str, str]:
    """The reply's text, its history file and its reveal file."""
    assert result.ephemeral and result.response is not None
    history, reveal = result.response.attachments
    assert reveal.filename == history.filename.replace(".txt", "-reveal.txt")
    return (
        result.response.content,
        (await history.read()).decode(),
        (await reveal.read()).decode(),
    )


async def test_the_last_hands_come_as_one_file_and_their_reveals_as_another(world: World) -> None:
    await two_hands(world)
    ann = world.players[0]
    result = await ann.slash(world.channel, "history", last=5)
    content, text, reveal = await files(result)
    assert result.response is not None
    assert [a.filename for a in result.response.attachments] == [
        "hands-1-2.txt",
        "hands-1-2-reveal.txt",
    ]
    hands = parse_histories(text)
    assert [hand.hand_id for hand in hands] == ["1", "2"]
    assert all("ann" in hand.names.values() for hand in hands)
    net = 0
    for hand_id in (1, 2):
        record = await world.bot.store.hands.get(hand_id)
        (mine,) = [p for p in record.players if p.user_id == ann.id]
        net += (mine.final_stack or 0) - mine.starting_stack
        block = reveal.split(f"Hand #{hand_id}\n", 1)[1]
        assert block.startswith(f"Commitment: {record.commitment}\n")
        assert verify(record.commitment, block.split("Reveal: ", 1)[1].splitlines()[0])
    assert content == (
        f"Your last 2 hands (#1 to #2), net {net:+,}, in one PokerStars file; their deck"
        " reveals are in the other file. Games: Seven Card Stud: 2 hands."
    )
    one = await ann.slash(world.channel, "history", last=1)
    content, text, _ = await files(one)
    assert [hand.hand_id for hand in parse_histories(text)] == ["2"]
    assert content.startswith("Your last hand (#2), net ")


async def test_the_session_is_this_tables_hands_and_a_channel_without_one_is_told(
    world: World,
) -> None:
    ann, bob = world.players[:2]
    refused(
        await ann.slash(world.channel, "history", session=True),
        "There is no table in this channel",
    )
    await two_hands(world)
    content, text, _ = await files(await bob.slash(world.channel, "history", session=True))
    assert [hand.hand_id for hand in parse_histories(text)] == ["1", "2"]
    assert content.startswith("Your 2 hands at this table since it opened (#1 to #2), net ")
    # A player who never sat here has nothing at this table.
    cy = world.players[2]
    refused(
        await cy.slash(world.channel, "history", session=True),
        "haven't played a finished hand at this table",
    )


async def test_asking_for_two_kinds_of_export_at_once_is_refused(world: World) -> None:
    await two_hands(world)
    ann = world.players[0]
    for options in ({"hand_id": 1, "last": 2}, {"last": 2, "session": True}):
        refused(await ann.slash(world.channel, "history", **options), "one thing at a time")
    # Saying no to the session is no choice at all: the last hand, as before.
    content, text, _ = await files(await ann.slash(world.channel, "history", session=False))
    assert content.startswith("Hand #2 (Seven Card Stud): ") and len(parse_histories(text)) == 1
