"""The hand rankings picture (/help): right order, right words, the deck the viewer chose."""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO
from typing import cast

import pytest
from PIL import Image

from engine import HandCategory, evaluate
from render import hand_rankings_png, theme
from render.rankings import EXAMPLES, draw_rankings
from tests.texts import words
from words import ENGLISH


def test_the_examples_go_from_the_strongest_hand_to_the_weakest_one_per_category() -> None:
    values = [evaluate(cards) for cards in EXAMPLES]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    categories = [value.category for value in values]
    # Nine engine categories; the royal flush is the straight flush to the Ace, named apart.
    assert categories[0] == categories[1] == HandCategory.STRAIGHT_FLUSH
    assert categories[1:] == sorted(HandCategory, reverse=True)
    assert values[0].ranks[0] == 14 and values[1].ranks[0] < 14
    assert len(ENGLISH.categories) == len(EXAMPLES) == len(words("ru").categories)


def _colours(data: bytes) -> set[theme.RGB]:
    image = Image.open(BytesIO(data)).convert("RGB")
    return {cast(theme.RGB, colour) for _, colour in image.getcolors(maxcolors=256) or []}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_four_colours_only_when_asked(language: str) -> None:
    two = _colours(hand_rankings_png(words=words(language)))
    four = _colours(hand_rankings_png(four_colour=True, words=words(language)))
    assert {theme.SUIT_BLACK, theme.SUIT_RED} <= two and {theme.SUIT_GREEN, theme.SUIT_BLUE} <= four
    assert not {theme.SUIT_GREEN, theme.SUIT_BLUE} & two


def test_the_words_are_the_languages_and_a_missing_name_is_refused() -> None:
    english = draw_rankings(ENGLISH, four_colour=False)
    russian = draw_rankings(words("ru"), four_colour=False)
    assert english.size == russian.size and english.tobytes() != russian.tobytes()
    with pytest.raises(ValueError, match="hand categories"):
        draw_rankings(replace(ENGLISH, categories=ENGLISH.categories[:-1]), four_colour=False)
