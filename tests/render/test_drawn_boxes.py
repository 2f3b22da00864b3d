"""render.table.table_boxes: a table picture only maps its drawn boxes to the palette, so nothing
may be drawn outside them. Random hands of every size, game and moment, with the longest labels
a picture takes, must leave the felt untouched everywhere else. The same for a player's own
picture (render.private), whose cards come already mapped."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageDraw

from engine import DEFAULT_STAKES, RAZZ, STUD_HI_LO, StudHand
from engine.cards import FULL_DECK
from engine.public import PrivateHand, PublicTable
from engine.variants import STUD_HIGH
from render import SeatLabel, TableLabels, png, private_hand_png, table_png, theme
from render.private import draw_private
from render.table import _felt, draw_table, table_boxes
from tests.texts import words

LONG = "Александра Константиновна Ёлкина-Щербакова"


def _random_moment(seed: int) -> StudHand:
    rng = random.Random(seed)
    seats = 2 + seed % 7
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    stacks = [rng.choice([3, 40, 1000, 987_654]) for _ in range(seats)]
    variant = (STUD_HIGH, RAZZ, STUD_HI_LO)[seed % 3]
    hand = StudHand(stacks, DEFAULT_STAKES, deck, dealer=rng.randrange(seats), variant=variant)
    for _ in range(rng.randrange(80)):
        if hand.is_over:
            break
        legal = hand.legal()
        roll = rng.random()
        if legal.bring_in is not None:
            hand.bring_in()
        elif legal.raise_to and roll < 0.3:
            hand.raise_to(rng.choice(legal.raise_to))
        elif legal.fold and roll < 0.4:
            hand.fold()
        elif legal.call is not None:
            hand.call()
        else:
            hand.check()
    return hand


def _labels(hand: StudHand, seed: int) -> TableLabels:
    return TableLabels(
        seats=tuple(
            SeatLabel(LONG, seconds_left=27, on_time_bank=seed % 2 == 0)
            for _ in range(len(hand.stacks))
        ),
        last_action=f"{LONG} raises to 987,654 and is all-in " * 3,
        game="Seven Card Stud Hi-Lo Eight or Better",
        next_game="Razz after 12 more hands, then Seven Card Stud",
        words=words("ru" if seed % 4 == 0 else "en"),
    )


@pytest.mark.parametrize("seed", range(60))
def test_nothing_is_drawn_outside_the_boxes(seed: int) -> None:
    hand = _random_moment(seed)
    view = PublicTable.from_hand(hand)
    labels = _labels(hand, seed)
    canvas = draw_table(view, labels)
    outside = Image.new("L", canvas.size, 255)
    for left, top, right, bottom in table_boxes(view, labels):
        ImageDraw.Draw(outside).rectangle((left, top, right - 1, bottom - 1), fill=0)
    red, green, blue = ImageChops.difference(canvas, _felt()).split()
    changed = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    assert ImageChops.multiply(changed, outside).getbbox() is None


@pytest.mark.parametrize("seed", range(0, 60, 7))
def test_a_table_picture_maps_every_pixel_as_the_whole_picture_would(seed: int) -> None:
    hand = _random_moment(seed)
    view = PublicTable.from_hand(hand)
    labels = _labels(hand, seed)
    whole = png.encode(draw_table(view, labels))
    boxed = table_png(view, labels)
    assert Image.open(io.BytesIO(boxed)).tobytes() == Image.open(io.BytesIO(whole)).tobytes()


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_a_private_picture_is_the_whole_picture_mapped(seed: int) -> None:
    """Its text, tabs and cards only are mapped and drawn over the empty panel: the pixels
    must be those of the whole picture mapped, and outside its boxes the panel's own."""
    hand = _random_moment(seed)
    mine = PrivateHand.for_seat(hand, seed % len(hand.stacks))
    text = words("ru" if seed % 2 else "en")
    four_colour = seed % 4 == 1
    name = LONG if seed % 3 else ""
    picture = draw_private(mine, name=name, four_colour=four_colour, text=text)
    whole = picture.canvas.copy()
    for slot in picture.slots:
        whole.paste(slot.image, slot.box[:2])
    outside = Image.new("L", whole.size, 255)
    for left, top, right, bottom in picture.boxes:
        ImageDraw.Draw(outside).rectangle((left, top, right - 1, bottom - 1), fill=0)
    panel = Image.new("RGB", whole.size, theme.PANEL)
    red, green, blue = ImageChops.difference(whole, panel).split()
    changed = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    assert ImageChops.multiply(changed, outside).getbbox() is None
    drawn = private_hand_png(mine, name=name, four_colour=four_colour, words=text)
    expected = Image.open(io.BytesIO(png.encode(whole))).tobytes()
    assert Image.open(io.BytesIO(drawn)).tobytes() == expected
