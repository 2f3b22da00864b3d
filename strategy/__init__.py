"""How the computer players think: pure, like the engine it reads (no I/O, no Discord, no
database). ``decide(Sight.of(hand, seat), style, seed)`` is a legal decision for the actor."""

from strategy.decide import Thought, decide
from strategy.equity import Equity, estimate
from strategy.sight import Opponent, Sight
from strategy.styles import DEFAULT_STYLE, STYLES, Style

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
