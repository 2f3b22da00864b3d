"""Look at the pictures without Discord: ``python -m render.preview OUTDIR [--seed N]``.

Plays one seeded hand and writes the table picture at the first decision of every street, the
showdown picture, and every player's private picture of his final cards.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from engine import StudHand
from engine.cards import FULL_DECK
from engine.events import Action, Bet, BringIn, Call, Check, Complete, Event, Fold, Raise
from engine.public import PrivateHand, PublicTable
from engine.stakes import DEFAULT_STAKES
from render import SeatLabel, TableLabels, private_hand_png, showdown_png, table_png
from words.texts import Texts

NAMES = ("Dana", "Олег", "Zoë", "Mateus", "Анастасия", "Émilie", "Kofi", "李雷")


def describe_action(event: Event, names: list[str]) -> str:
    """A one-line, English account of a decision, for the picture's "what just happened"."""
    if not isinstance(event, Action):
        return ""
    name = names[event.seat]
    if isinstance(event, BringIn):
        return f"{name} brings in for {event.amount}"
    if isinstance(event, Complete):
        return f"{name} completes to {event.total}"
    if isinstance(event, Bet):
        return f"{name} bets {event.total}"
    if isinstance(event, Raise):
        return f"{name} raises to {event.total}"
    if isinstance(event, Call):
        return f"{name} calls {event.amount}"
    if isinstance(event, Check):
        return f"{name} checks"
    if isinstance(event, Fold):
        return f"{name} folds"
    return ""


def _last_action(hand: StudHand, names: list[str]) -> str:
    for event in reversed(hand.events):
        line = describe_action(event, names)
        if line:
            return line
    return ""


def _decide(hand: StudHand, rng: random.Random) -> None:
    legal = hand.legal()
    roll = rng.random()
    if legal.bring_in is not None:
        hand.bring_in()
    elif legal.raise_to and roll < 0.2:
        hand.raise_to(legal.raise_to[-1])
    elif legal.fold and roll > 0.9:
        hand.fold()
    elif legal.call is not None:
        hand.call()
    else:
        hand.check()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=6, choices=range(2, 9))
    parser.add_argument("--language", default="en", choices=("en", "ru"))
    parser.add_argument("--four-colour", action="store_true")
    args = parser.parse_args(argv)
    out: Path = args.outdir
    words = Texts().pictures(args.language)
    out.mkdir(parents=True, exist_ok=True)

    rng = random.Random(args.seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    stacks = [rng.choice((60, 150, 400, 1000)) for _ in range(args.players)]
    hand = StudHand(stacks, DEFAULT_STAKES, deck, dealer=args.players - 1)
    names = list(NAMES[: args.players])
    written: list[Path] = []

    def write(name: str, data: bytes) -> None:
        path = out / name
        path.write_bytes(data)
        written.append(path)

    drawn_streets: set[int] = set()
    while hand.actor is not None:
        if hand.street not in drawn_streets:
            drawn_streets.add(hand.street)
            labels = TableLabels(
                seats=tuple(
                    SeatLabel(name, seconds_left=30 if seat == hand.actor else None)
                    for seat, name in enumerate(names)
                ),
                last_action=_last_action(hand, names),
                four_colour=args.four_colour,
                words=words,
            )
            write(f"table_street{hand.street}.png", table_png(PublicTable.from_hand(hand), labels))
        _decide(hand, rng)

    final = TableLabels(
        seats=tuple(SeatLabel(name) for name in names),
        last_action=_last_action(hand, names),
        four_colour=args.four_colour,
        words=words,
    )
    write("showdown.png", showdown_png(PublicTable.from_hand(hand), final))
    for seat in hand.dealing_order:
        private = PrivateHand.for_seat(hand, seat)
        picture = private_hand_png(
            private, name=names[seat], four_colour=args.four_colour, words=words
        )
        write(f"private_seat{seat + 1}.png", picture)
    for path in written:
        print(path)


if __name__ == "__main__":
    main()
