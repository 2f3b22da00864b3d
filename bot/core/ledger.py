"""A table's session ledger as players read it: everyone who sat since the table opened, what
each bought in for, cashed out and still has on the table, his net and his hands.

The figures are the store's (``store.reports.table_ledger``, summed from the table's ledger
rows); this names the players as the bot last saw them, puts the biggest winner first and
words the picture (:func:`ledger_sheet`) in a language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from bot.core.storage import LedgerEntry, TableLedger
from render import LedgerRow, LedgerSheet
from words import Texts

# Players past this many are counted, not listed: the embed and the picture stay readable.
MAX_ROWS: Final = 25


@dataclass(frozen=True, slots=True)
class LedgerLine:
    name: str
    entry: LedgerEntry


@dataclass(frozen=True, slots=True)
class LedgerTotals:
    bought_in: int
    cashed_out: int
    on_table: int
    net: int  # 0 whenever chips are conserved: what one player won, the others lost


@dataclass(frozen=True, slots=True)
class SessionLedger:
    channel_id: int
    opened_at: datetime
    closed_at: datetime | None  # None while the table is open
    hands: int  # settled hands at the table
    lines: tuple[LedgerLine, ...]  # biggest winner first; equal nets in the order they sat

    @classmethod
    def of(cls, record: TableLedger, name: Callable[[int], str]) -> SessionLedger:
        lines = [LedgerLine(name(entry.user_id), entry) for entry in record.entries]
        lines.sort(key=lambda line: -line.entry.net)  # stable: equal nets keep the sitting order
        return cls(
            record.channel_id, record.opened_at, record.closed_at, record.hands, tuple(lines)
        )

    def left_early(self, line: LedgerLine) -> bool:
        """He left while the table played on (once it closed, everyone has left)."""
        return self.closed_at is None and not line.entry.seated

    @property
    def shown(self) -> tuple[LedgerLine, ...]:
        return self.lines[:MAX_ROWS]

    @property
    def hidden(self) -> int:
        """How many players the embed and the picture leave out."""
        return len(self.lines) - len(self.shown)

    def totals(self) -> LedgerTotals:
        entries = [line.entry for line in self.lines]
        return LedgerTotals(
            bought_in=sum(e.bought_in for e in entries),
            cashed_out=sum(e.cashed_out for e in entries),
            on_table=sum(e.on_table for e in entries),
            net=sum(e.net for e in entries),
        )


def ledger_sheet(ledger: SessionLedger, texts: Texts, lang: str, channel_name: str) -> LedgerSheet:
    """The ledger picture's words and numbers in ``lang``."""
    t, day = texts.t, texts.day
    words = texts.catalogue(lang)
    number, signed = words.number, words.signed
    if ledger.closed_at is None:
        subtitle = t(lang, "pic_ledger_open", date=day(lang, ledger.opened_at), hands=ledger.hands)
    else:
        subtitle = t(
            lang,
            "pic_ledger_closed",
            date=day(lang, ledger.opened_at),
            closed=day(lang, ledger.closed_at),
            hands=ledger.hands,
        )
    rows = tuple(
        LedgerRow(
            name=line.name,
            bought_in=number(line.entry.bought_in),
            cashed_out=number(line.entry.cashed_out),
            # Someone who left has nothing there, which a dash says at a glance.
            on_table=number(line.entry.on_table) if line.entry.seated else "—",
            net=signed(line.entry.net),
            hands=number(line.entry.hands),
            net_sign=line.entry.net,
            seated=not ledger.left_early(line),
        )
        for line in ledger.shown
    )
    totals = ledger.totals()
    if not ledger.lines:
        more = t(lang, "pic_ledger_empty")
    elif ledger.hidden:
        more = t(lang, "pic_ledger_more", count=ledger.hidden)
    else:
        more = ""
    return LedgerSheet(
        title=t(lang, "pic_ledger_title", channel=channel_name),
        subtitle=subtitle,
        headers=(
            t(lang, "pic_ledger_player"),
            t(lang, "pic_ledger_bought_in"),
            t(lang, "pic_ledger_cashed_out"),
            t(lang, "pic_ledger_on_table"),
            t(lang, "pic_ledger_net"),
            t(lang, "pic_ledger_hands"),
        ),
        rows=rows,
        total=LedgerRow(
            name=t(lang, "pic_ledger_total"),
            bought_in=number(totals.bought_in),
            cashed_out=number(totals.cashed_out),
            on_table=number(totals.on_table),
            net=signed(totals.net),
            hands=number(ledger.hands),
            net_sign=totals.net,
        ),
        more=more,
    )
