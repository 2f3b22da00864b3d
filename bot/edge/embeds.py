"""Discord embeds from the core's views and reports: an idle table's message, the players at a
table, a ledger, a player's stats, the leaderboard; and the lines a hand's message shares. Pure
functions: a view and the texts in, an embed out; they read nothing else."""

from __future__ import annotations

from functools import lru_cache

import discord

from bot.core.games import game_name
from bot.core.ledger import SessionLedger
from bot.core.stats import board_heading, percent, stats_heading
from bot.core.storage import Leaderboard, PlayerStats
from bot.core.views import HandView, LevelClock, SeatInfo, TableView
from bot.edge.funnel import full_time, relative_time
from engine.stakes import Stakes
from words import Texts

# Discord shows names of at most 32 characters; the store keeps some room past that. Cut to it,
# 25 ledger lines stay within an embed's 4,096 characters.
LEDGER_NAME = 32


def idle_embed(view: TableView, texts: Texts) -> discord.Embed:
    """An idle table's message: the players waiting for the next hand (a hand in play has a
    message of its own, ``bot.edge.layout``); with a countdown running, the next is on its way."""
    lang = view.lang
    embed = discord.Embed(
        title=texts.t(
            lang,
            "table_waiting" if view.next_hand_at is None else "table_next_hand",
            game=game_name(texts, view.game, lang),
            stakes=view.stakes,
        ),
        description="\n".join(seat_lines(view.seats, texts, lang)),
        colour=discord.Colour.dark_green(),
    )
    _add_next_game(embed, view.next_game)
    if view.level is not None:
        embed.add_field(name="🏆", value=level_line(view.level, texts, lang), inline=False)
    if view.next_hand_at is not None:
        embed.add_field(
            name="⏱", value=texts.t(lang, "countdown", when=relative_time(view.next_hand_at))
        )
    return embed


def level_line(level: LevelClock, texts: Texts, lang: str) -> str:
    """A tournament table's level and when the next begins: a Discord timestamp that counts
    down where each reader sees it, or the hands left at this table (RULES 11.2)."""
    if level.to_next == 0:
        return texts.t(lang, "tournament_level_next_hand", level=level.number)
    if level.next_at is None:
        return texts.t(lang, "tournament_level_hands", level=level.number, hands=level.to_next)
    return texts.t(
        lang, "tournament_level_time", level=level.number, when=relative_time(level.next_at)
    )


def hand_seat_lines(hand: HandView, texts: Texts, lang: str) -> list[str]:
    """One line per seat dealt in: whose turn, name, stack, cards, bet, folded or all in."""
    lines: list[str] = []
    for seat in hand.public.seats:
        if not seat.dealt_in:
            continue
        marker = "▶ " if seat.is_actor else ""
        cards = " ".join(["🂠"] * seat.down_count + [card.pretty for card in seat.up_cards])
        extra = []
        if seat.bet:
            extra.append(texts.t(lang, "seat_bet", amount=seat.bet))
        if seat.folded:
            extra.append(texts.t(lang, "seat_folded"))
        elif seat.all_in:
            extra.append(texts.t(lang, "seat_all_in"))
        tail = f" ({', '.join(extra)})" if extra else ""
        lines.append(
            texts.t(
                lang,
                "seat_line",
                marker=marker,
                name=hand.names[seat.seat],
                stack=seat.stack,
                cards=cards,
                extra=tail,
            )
        )
    return lines


# The same for every click of a street (a few hundred tables' current streets fit).
@lru_cache(maxsize=1024)
def hand_title(
    texts: Texts, lang: str, game: str, stakes: Stakes, hand_id: int, street: int | str
) -> str:
    """A hand's title: its game, stakes, hand number and street (a number, or "showdown")."""
    return texts.t(
        lang,
        "table_title",
        game=game_name(texts, game, lang),
        stakes=stakes,
        hand_id=hand_id,
        street=texts.t(lang, f"street_{street}"),
    )


def _add_next_game(embed: discord.Embed, next_game: str | None) -> None:
    """A mixed table's message says which game comes next, and when."""
    if next_game is not None:
        embed.set_footer(text=next_game)


def seat_lines(seats: tuple[SeatInfo, ...], texts: Texts, lang: str) -> list[str]:
    """One line per seated player: position, name, chips (in the hand, if he is in it) and
    whether he sits out or is leaving."""
    lines = []
    for seat in seats:
        status = ""
        if seat.sitting_out:
            status = texts.t(lang, "status_sitting_out")
        elif seat.leaving:
            status = texts.t(lang, "status_leaving")
        lines.append(
            texts.t(
                lang,
                "info_player",
                seat=seat.position + 1,
                name=seat.name,
                stack=seat.stack,
                status=status,
            )
        )
    return lines or [texts.t(lang, "info_empty")]


def ledger_embed(ledger: SessionLedger, texts: Texts, lang: str) -> discord.Embed:
    """The ledger as text: when the table was open, then each player, biggest winner first."""
    t = texts.t
    opened = full_time(ledger.opened_at.timestamp())
    if ledger.closed_at is None:
        lines = [t(lang, "ledger_open", opened=opened, hands=ledger.hands)]
    else:
        closed = full_time(ledger.closed_at.timestamp())
        lines = [t(lang, "ledger_closed", opened=opened, closed=closed, hands=ledger.hands)]
    lines.append("")
    for line in ledger.shown:
        entry = line.entry
        if entry.seated:
            key = "ledger_line"
        else:
            key = "ledger_line_left" if ledger.left_early(line) else "ledger_line_closed"
        lines.append(
            t(
                lang,
                key,
                name=discord.utils.escape_markdown(line.name[:LEDGER_NAME]),
                bought_in=entry.bought_in,
                cashed_out=entry.cashed_out,
                on_table=entry.on_table,
                net=entry.net,
                hands=entry.hands,
            )
        )
    if ledger.hidden:
        lines.append(t(lang, "ledger_more", count=ledger.hidden))
    if ledger.lines:
        totals = ledger.totals()
        lines += [
            "",
            t(
                lang,
                "ledger_total",
                bought_in=totals.bought_in,
                cashed_out=totals.cashed_out,
                on_table=totals.on_table,
                net=totals.net,
            ),
        ]
    else:
        lines.append(t(lang, "ledger_empty"))
    return discord.Embed(
        title=t(lang, "ledger_title"), description="\n".join(lines), colour=discord.Colour.gold()
    )


def stats_embed(stats: PlayerStats, name: str, texts: Texts, lang: str) -> discord.Embed:
    """A player's figures: hands, won, won at showdown, VPIP, net and biggest pot, then, over
    every game, each game's hands and net."""
    t = texts.t
    embed = discord.Embed(
        title=t(lang, "stats_title", name=discord.utils.escape_markdown(name[:LEDGER_NAME])),
        description=stats_heading(texts, lang, stats),
        colour=discord.Colour.dark_green(),
    )
    total = stats.total
    words = texts.catalogue(lang)
    played = stats.tournaments
    if played.played:
        # His tournaments (RULES 11) beside the cash figures: their chips are not the wallets'.
        embed.add_field(
            name=t(lang, "stats_tournaments"),
            value=t(
                lang,
                "stats_tournaments_line",
                played=played.played,
                cashes=played.cashes,
                wins=played.wins,
                net=played.net,
            ),
            inline=False,
        )
    if not total.hands:
        embed.description = f"{embed.description}\n\n{t(lang, 'stats_none')}"
        return embed
    for key, value in (
        ("stats_hands", words.number(total.hands)),
        (
            "stats_won",
            t(lang, "stats_share", part=total.won, percent=percent(total.won, total.hands)),
        ),
        (
            "stats_won_showdown",
            t(lang, "stats_of", part=total.won_showdown, whole=total.showdowns),
        ),
        ("stats_vpip", t(lang, "stats_percent", percent=percent(total.vpip, total.hands))),
        ("stats_net", words.signed(total.net)),
        ("stats_biggest_pot", words.number(total.biggest_pot)),
    ):
        embed.add_field(name=t(lang, key), value=value, inline=True)
    if stats.game is None and stats.games:
        lines = [
            t(
                lang,
                "stats_game_line",
                game=t(lang, f"game_{game.game}"),
                hands=game.hands,
                net=game.net,
                vpip=percent(game.vpip, game.hands),
            )
            for game in stats.games
        ]
        embed.add_field(name=t(lang, "stats_by_game"), value="\n".join(lines), inline=False)
    return embed


def leaderboard_embed(
    board: Leaderboard, names: dict[int, str], texts: Texts, lang: str
) -> discord.Embed:
    """The top players, each with his net over the period and his hands (ranking winnings) or
    his chips (ranking wallets), and the caller's own rank under them (or why he has none)."""
    t = texts.t
    if board.tournaments:
        return _tournament_board_embed(board, names, texts, lang)
    winnings = board.period is not None
    lines = [board_heading(texts, lang, board), ""]
    for row in board.top:
        # Names as the bot last saw them (it has no member cache); a mention for a player it
        # never saw, which Discord shows as his name to whoever can see him.
        shown = names.get(row.user_id)
        name = f"<@{row.user_id}>" if shown is None else discord.utils.escape_markdown(shown)
        if winnings:
            line = t(
                lang,
                "leaderboard_net_line",
                rank=row.rank,
                name=name,
                net=row.chips,
                hands=row.hands or 0,
            )
        else:
            line = t(lang, "leaderboard_line", rank=row.rank, name=name, chips=row.chips)
        lines.append(line)
    if not board.top:
        lines.append(t(lang, "leaderboard_net_empty" if winnings else "leaderboard_empty"))
    caller = board.caller
    if caller is None:
        footer = t(lang, "leaderboard_net_unranked" if winnings else "leaderboard_no_wallet")
    elif winnings:
        footer = t(
            lang, "leaderboard_net_you", rank=caller.rank, net=caller.chips, hands=caller.hands or 0
        )
    else:
        footer = t(lang, "leaderboard_you", rank=caller.rank, chips=caller.chips)
    embed = discord.Embed(
        title=t(lang, "leaderboard_net_title" if winnings else "leaderboard_wallet_title"),
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text=footer)
    return embed


def _tournament_board_embed(
    board: Leaderboard, names: dict[int, str], texts: Texts, lang: str
) -> discord.Embed:
    """The top players by tournament prizes minus buy-ins, each with the tournaments he played
    and won, and the caller's own rank under them (or why he has none)."""
    t = texts.t
    lines = [board_heading(texts, lang, board), ""]
    for row in board.top:
        shown = names.get(row.user_id)
        name = f"<@{row.user_id}>" if shown is None else discord.utils.escape_markdown(shown)
        lines.append(
            t(
                lang,
                "leaderboard_tournament_line",
                rank=row.rank,
                name=name,
                net=row.chips,
                played=row.hands or 0,
                wins=row.wins or 0,
            )
        )
    if not board.top:
        lines.append(t(lang, "leaderboard_tournament_empty"))
    caller = board.caller
    footer = (
        t(lang, "leaderboard_tournament_unranked")
        if caller is None
        else t(
            lang,
            "leaderboard_tournament_you",
            rank=caller.rank,
            net=caller.chips,
            played=caller.hands or 0,
            wins=caller.wins or 0,
        )
    )
    embed = discord.Embed(
        title=t(lang, "leaderboard_tournament_title"),
        description="\n".join(lines),
        colour=discord.Colour.gold(),
    )
    embed.set_footer(text=footer)
    return embed
