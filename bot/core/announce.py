"""What the dealer says at the table (RULES 8), built from ``hand.events``.

Only public facts are ever announced: dealt cards are never spoken (a down card is private and
the up cards are on the picture), and shown hands only appear once the engine has shown them.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import STUD_HIGH, HandCategory, Variant
from engine import events as ev
from engine.public import ShownCards
from engine.stakes import Stakes
from words import Texts, cards_text
from words.hands import describe, describe_board, describe_shown


def announce(
    event: ev.Event,
    texts: Texts,
    lang: str,
    name_of: Callable[[int], str],
    stakes: Stakes,
    variant: Variant = STUD_HIGH,
) -> str | None:
    """One line for ``event``, or ``None`` when the event says nothing a player needs to hear.

    ``name_of`` maps an engine seat to the player's display name; ``variant`` is the hand's
    game, whose halves (high, low or both) name shown hands and split pots.
    """
    high_game, low_game = variant.high, variant.low is not None
    t = texts.t
    hands = texts.pictures(lang).hands

    def all_in(flag: bool) -> str:
        return t(lang, "all_in_suffix") if flag else ""

    match event:
        case ev.StreetStarted(street=street):
            return f"— {t(lang, f'street_{street}')} —"
        case ev.AntePosted(seat=seat, amount=amount, all_in=True):
            return t(lang, "ann_ante", name=name_of(seat), amount=amount, all_in=all_in(True))
        case ev.BringInDue(seat=seat, card=card, passed_on=passed_on, highest=highest):
            key = "ann_bring_in_passed" if passed_on else "ann_bring_in_due"
            key += "_high" if highest else ""
            return t(lang, key, name=name_of(seat), card=card.pretty)
        case ev.FirstToAct(seat=seat, category=category, ranks=ranks, low=low):
            if ranks:
                holding = describe_board(HandCategory(category), ranks, hands, low=low)
            else:  # saved before boards were data: only Stud High dealt then
                holding = describe(event.up_cards, hands) or event.holding
            key = "ann_first_to_act_low" if low else "ann_first_to_act"
            return t(lang, key, name=name_of(seat), holding=holding)
        case ev.OpenPair(seat=seat, rank=rank):
            return t(
                lang,
                "ann_open_pair",
                name=name_of(seat),
                rank=texts.rank_plural(lang, rank),
                small=stakes.small_bet,
                big=stakes.big_bet,
            )
        case ev.BringIn(seat=seat, amount=amount, all_in=flag):
            return t(lang, "ann_bring_in", name=name_of(seat), amount=amount, all_in=all_in(flag))
        case ev.Complete(seat=seat, total=total, all_in=flag):
            return t(lang, "ann_complete", name=name_of(seat), total=total, all_in=all_in(flag))
        case ev.Bet(seat=seat, total=total, all_in=flag):
            return t(lang, "ann_bet", name=name_of(seat), total=total, all_in=all_in(flag))
        case ev.Raise(seat=seat, total=total, all_in=flag):
            return t(lang, "ann_raise", name=name_of(seat), total=total, all_in=all_in(flag))
        case ev.Call(seat=seat, amount=amount, all_in=flag):
            return t(lang, "ann_call", name=name_of(seat), amount=amount, all_in=all_in(flag))
        case ev.Check(seat=seat):
            return t(lang, "ann_check", name=name_of(seat))
        case ev.Fold(seat=seat):
            return t(lang, "ann_fold", name=name_of(seat))
        case ev.TimedOut(seat=seat):
            return t(lang, "ann_timed_out", name=name_of(seat))
        case ev.BettingCapped():
            return t(lang, "ann_capped")
        case ev.UncalledBetReturned(seat=seat, amount=amount):
            return t(lang, "ann_uncalled", name=name_of(seat), amount=amount)
        case ev.CommunityCardDealt(card=card):
            return t(lang, "ann_community", card=card.pretty)
        case ev.HandShown(seat=seat, cards=cards):
            shown = ShownCards.from_event(event)
            description = describe_shown(shown, hands, high_game=high_game, low_game=low_game)
            return t(
                lang,
                "ann_shown",
                name=name_of(seat),
                cards=cards_text(cards),
                description=description,
            )
        case ev.HandMucked(seat=seat):
            return t(lang, "ann_mucked", name=name_of(seat))
        case ev.PotAwarded(high_winners=high_winners) if high_winners and high_game and low_game:
            return _split_pot(event, texts, lang, name_of)
        case ev.PotAwarded(index=index, amount=amount, winners=winners, description=description):
            pot = _pot_name(index, texts, lang)
            return t(
                lang,
                "ann_pot",
                winners=", ".join(name_of(seat) for seat in winners),
                count=len(winners),
                pot=pot,
                amount=amount,
                # The engine's English; translations leave it out and name hands on the shown
                # line, as English does for lows (the engine words them as PokerStars does).
                description=f" — {description}" if description and not low_game else "",
            )
    return None


def _pot_name(index: int, texts: Texts, lang: str) -> str:
    return texts.t(lang, "main_pot") if index == 0 else texts.t(lang, "side_pot", index=index)


def _split_pot(event: ev.PotAwarded, texts: Texts, lang: str, name_of: Callable[[int], str]) -> str:
    """A Stud Hi-Lo pot at showdown: a scoop, the two halves, or the high alone (no low)."""
    t = texts.t
    pot = _pot_name(event.index, texts, lang)

    def names(seats: tuple[int, ...]) -> str:
        return ", ".join(name_of(seat) for seat in seats)

    if event.scoop:
        return t(lang, "ann_pot_scoop", winners=names(event.winners), pot=pot, amount=event.amount)
    high = names(event.high_winners)
    if not event.low_winners:
        count = len(event.high_winners)
        return t(lang, "ann_pot_no_low", winners=high, count=count, pot=pot, amount=event.amount)
    halves = [
        t(lang, key, winners=names(seats), count=len(seats), pot=pot, amount=sum(shares))
        for key, seats, shares in (
            ("ann_pot_high", event.high_winners, event.high_shares),
            ("ann_pot_low", event.low_winners, event.low_shares),
        )
    ]
    return "; ".join(halves)
