"""What a tournament's threads are told after a step between hands (RULES 11.4, 11.5): who went
out in which place, which table breaks, and who moves where."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.core.storage.house import is_bot
from bot.core.table import Table
from bot.core.tournament.waiting import Out
from engine.tournament import Move


def tell_step(
    tables: Mapping[int, Table],
    out: Iterable[Out],
    places: Mapping[int, int],
    moves: Iterable[Move] = (),
    breaking: Iterable[int] = (),
) -> None:
    """Each player out is told of in his table's thread, with his place; a table that breaks
    in its own; a move in both (the new thread mentions him, the old links to the new)."""
    for o in out:
        table = tables[o.table]
        table.outbox.say("tournament_out", name=table.name(o.user_id), place=places[o.user_id])
    for number in breaking:
        tables[number].outbox.say("tournament_breaks")
    for move in moves:
        source, target = tables[move.from_table], tables[move.to_table]
        name = source.name(move.player)
        target.names.setdefault(move.player, name)
        # A channel mention: his old thread links to his new one.
        source.outbox.say(
            "tournament_moves_away",
            name=name,
            table=move.to_table,
            thread=f"<#{target.channel_id}>",
        )
        # A computer player has no mention and no one to ping.
        bot = is_bot(move.player)
        target.outbox.say(
            "tournament_moves_in",
            ping=None if bot else move.player,
            mention=name if bot else f"<@{move.player}>",
            table=move.from_table,
        )
