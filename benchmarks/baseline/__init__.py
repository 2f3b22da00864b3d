"""The computer players as they were before they read their opponents, frozen for the benchmark
to play against: ``git archive 55a43d1 strategy/`` with only the imports pointed here. Not
live code; nothing outside ``benchmarks.bots`` imports it.

How the computer players think: pure, like the engine it reads (no I/O, no Discord, no
database). ``decide(Sight.of(hand, seat), style, seed)`` is a legal decision for the actor."""

from benchmarks.baseline.decide import Thought, decide
from benchmarks.baseline.equity import Equity, estimate
from benchmarks.baseline.sight import Opponent, Sight
from benchmarks.baseline.styles import DEFAULT_STYLE, STYLES, Style

__all__ = [
    "DEFAULT_STYLE",
    "STYLES",
    "Equity",
    "Opponent",
    "Sight",
    "Style",
    "Thought",
    "decide",
    "estimate",
]
