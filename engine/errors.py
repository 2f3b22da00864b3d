"""Errors the engine raises; their ``str()`` is a sentence a player can read."""


class IllegalAction(ValueError):
    """An action the rules don't allow now; the hand is left exactly as it was."""
