"""How a computer player plays: tight or loose, passive or aggressive, and how often it bluffs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Style:
    """``name``: how commands and the catalogues call it. ``looseness``: how much less than the
    pot odds it will call with (0 calls only with the odds; early streets also count what is
    to come). ``aggression``: how little above its fair share of the pot it bets and raises for
    value (lower is more often; heads-up, a part of that margin). ``bluff``: the chance to bet
    or raise a poor hand when few opponents remain. ``slowplay``: the chance to just call with a
    very strong hand. ``steal``: the chance to complete on 3rd street with the best door showing
    and a hand not worth it."""

    name: str
    looseness: float
    aggression: float
    bluff: float
    slowplay: float
    steal: float


TIGHT_AGGRESSIVE = Style(
    "tight", looseness=0.0, aggression=1.25, bluff=0.08, slowplay=0.1, steal=0.7
)
LOOSE_AGGRESSIVE = Style(
    "loose", looseness=0.15, aggression=1.1, bluff=0.12, slowplay=0.05, steal=0.9
)
TIGHT_PASSIVE = Style(
    "careful", looseness=0.0, aggression=1.45, bluff=0.03, slowplay=0.15, steal=0.5
)

STYLES: dict[str, Style] = {
    style.name: style for style in (TIGHT_AGGRESSIVE, LOOSE_AGGRESSIVE, TIGHT_PASSIVE)
}
DEFAULT_STYLE = TIGHT_AGGRESSIVE
