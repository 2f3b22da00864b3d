"""The benchmark's opponents play legal poker in every game and seat (the engine refuses any
illegal decision), read only their own down cards, and the frozen players are the code before
its players read their opponents; what they do by holding is the table the players read by."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest

from benchmarks.baseline import BEFORE, load
from benchmarks.bots import GAMES, OPPONENTS, REASONABLE, STAKES, cell, opponent
from benchmarks.reads import FORMATS, TABLE, _play, _report
from engine import Decision, StudHand
from engine.cards import FULL_DECK
from strategy import Sight, decide

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", [n for n in OPPONENTS if not n.startswith("was-")])
def test_every_opponent_plays_every_game_to_the_end(name: str) -> None:
    player = opponent(name, 16)
    rng = random.Random(name)
    for variant in GAMES.values():
        for number in range(12):
            seats = rng.randint(2, 6)
            stacks = [rng.choice((15, 400, 1000)) for _ in range(seats)]
            hand = StudHand(stacks, STAKES, rng.sample(FULL_DECK, 52), number % seats, variant)
            decisions = 0
            while hand.actor is not None:
                hand.decide(player(hand, hand.actor, rng))
                decisions += 1
                assert decisions < 200
            assert hand.is_over


@pytest.mark.parametrize("name", ["chart", "station", "aggressor"])
def test_a_rival_sees_no_one_elses_down_cards(name: str) -> None:
    """The same hand with every other player's down cards swapped for others: the same
    decisions (each rival is deterministic given its random generator)."""
    player = opponent(name, 16)
    deals = random.Random(3)
    for variant in GAMES.values():
        for _ in range(20):
            deck = deals.sample(FULL_DECK, 52)
            hand = StudHand([400, 400, 400], STAKES, deck, 0, variant)
            while hand.actor is not None and hand.actor != 0:
                hand.decide(Decision("bring_in") if hand.legal().bring_in else Decision("call"))
            if hand.actor is None:
                continue
            # Swap the two down cards of seats 1 and 2 with undealt cards of the deck's tail.
            swapped = list(deck)
            for seat in (1, 2):
                for card in hand.down_cards(seat):
                    at, tail = (
                        swapped.index(card),
                        51 - seat * 2 - hand.down_cards(seat).index(card),
                    )
                    swapped[at], swapped[tail] = swapped[tail], swapped[at]
            other = StudHand([400, 400, 400], STAKES, swapped, 0, variant)
            for decision in hand.decisions:
                other.decide(decision)
            assert other.up_cards(1) == hand.up_cards(1)
            assert player(hand, 0, random.Random(1)) == player(other, 0, random.Random(1))


def test_the_players_before_are_the_code_at_that_commit() -> None:
    """The players before come from the repository's history as they were, under a package of
    their own: the same source but for their imports, and not today's code."""
    shown = subprocess.run(
        ["git", "show", f"{BEFORE}:strategy/decide.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if shown.returncode:
        pytest.skip(f"this clone lacks commit {BEFORE} (a shallow clone)")
    before = load()
    loaded = Path(before.decide.__code__.co_filename).read_text().splitlines()
    original = shown.stdout.splitlines()
    assert [line for line in original if "import" not in line] == [
        line for line in loaded if "import" not in line
    ]
    assert before.decide is not decide and before.Sight is not Sight


def test_a_cell_is_dealt_twice_a_deck_and_counts_hands() -> None:
    result = cell("stud", "tight", REASONABLE[0], 2, 6, 16, 1)
    assert result.hands == 6
    assert result.half > 0


def test_the_reads_the_players_load_have_the_shape_the_measure_writes() -> None:
    """``benchmarks.reads`` over a few hands gives a table of the very shape of
    ``strategy/reads.json``: every game and format, both phases of the hand, every action a read
    meets and the steal, a figure for each class, and how often they bet and folded to a raise
    on each phase."""
    rng = random.Random(3)
    written: dict[str, dict[str, object]] = {}
    for variant in GAMES.values():
        for name, seats in FORMATS.items():
            counts = _play(variant, seats, 4, rng)
            assert sum(counts.acted.values()) >= 4  # someone acts after the bring-in each hand
            written.setdefault(variant.name, {})[name] = _report(name, counts)
    loaded = json.loads(TABLE.read_text())

    def shape(value: object) -> object:
        if isinstance(value, dict):
            return {key: shape(inner) for key, inner in value.items()}
        if isinstance(value, float):
            assert 0 <= value <= 1  # how often they bet, or folded to a raise
            return "rate"
        assert isinstance(value, list) and all(0 < p <= 1 for p in value)
        return len(value)

    assert shape(written) == shape(loaded)
