"""``bot.core.errors.refusal``: the one wording of a request the core refused, which the Discord
face and the Activity's socket both answer with."""

from __future__ import annotations

from bot.core.errors import TableError, refusal
from bot.core.storage.errors import NotEnoughChips
from engine.errors import IllegalAction
from words import Texts

TEXTS = Texts()


def test_a_tables_rule_an_illegal_action_and_the_stores_refusal_each_have_words() -> None:
    assert refusal(TableError("not_your_turn"), TEXTS, "en") == "It's not your turn."
    assert refusal(IllegalAction("check with a bet to call"), TEXTS, "en") == (
        "You can't do that now: check with a bet to call"
    )
    # The engine's reason is English; the Russian reply does without it.
    assert refusal(IllegalAction("check with a bet to call"), TEXTS, "ru") == "Так сейчас нельзя."
    assert refusal(NotEnoughChips(needed=500, available=120), TEXTS, "en") == (
        "You don't have enough chips: 500 needed, 120 in your wallet."
    )


def test_any_other_error_is_not_a_refusal() -> None:
    assert refusal(RuntimeError("the database went away"), TEXTS, "en") is None
