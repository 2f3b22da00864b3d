"""The picture of one player's own cards, sent only to him.

His cards in the order dealt, the community card last when there is one. Down cards carry a
"hidden" tab: only he can see them. The five cards that make his best hand are lifted and
underlined in gold, and the hand is named below.

Each card's slot (the card, lifted and underlined or not, on the panel) is drawn and mapped to
the palette once and kept: a picture maps only its text and tabs, over the empty panel mapped
once (``render.png``). Mapping every pixel again was a third of a picture's cost, and a DM
with one goes to every player dealt in, twice a hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.cards import Card
from engine.public import PrivateHand
from render import cards, png, theme
from render.text import clean, draw_text
from words.hands import describe_private
from words.pictures import Words

MARGIN = 16
GAP = 8
TITLE_HEIGHT = 42
LIFT = 10
TAB_HEIGHT = 24
FOOTER_HEIGHT = 46
SLOTS = 7  # the width is always seven cards', so the picture keeps its scale in Discord


TEXT_SPILL = 4  # how far past its width a line's pixels may reach
WIDTH = 2 * MARGIN + SLOTS * cards.PRIVATE_CARD.width + (SLOTS - 1) * GAP
CARD_TOP = TITLE_HEIGHT + LIFT
TAB_TOP = CARD_TOP + cards.PRIVATE_CARD.height + 6
HEIGHT = TAB_TOP + TAB_HEIGHT + FOOTER_HEIGHT


@dataclass(frozen=True, slots=True)
class PrivatePicture:
    """The picture in parts: ``canvas`` has its text and tabs on the panel, ``slots`` its
    cards (drawn and mapped already), ``boxes`` every part that is not the empty panel."""

    canvas: Image.Image
    slots: tuple[png.Piece, ...]
    boxes: tuple[png.Box, ...]


def private_png(hand: PrivateHand, *, name: str, four_colour: bool, text: Words) -> bytes:
    """The picture as PNG bytes: only its text and tabs mapped to the palette here."""
    picture = draw_private(hand, name=name, four_colour=four_colour, text=text)
    return png.encode(picture.canvas, _empty(), picture.boxes, picture.slots)


@lru_cache(maxsize=1)
def _empty() -> png.Background:
    return png.Background.of(Image.new("RGB", (WIDTH, HEIGHT), theme.PANEL))


@lru_cache(maxsize=512)
def _slot(card: Card, four_colour: bool, plays: bool) -> tuple[Image.Image, Image.Image]:
    """A card's slot, from the lifted card's top to the resting card's bottom, on the panel:
    the card lifted and underlined in gold if it plays; and its palette mapping. Kept: a few
    hundred of them (52 cards, two decks, lifted or not) cover every picture."""
    size = cards.PRIVATE_CARD
    slot = Image.new("RGB", (size.width, LIFT + size.height), theme.PANEL)
    face = cards.face(card, size, four_colour)
    slot.paste(face, (0, 0 if plays else LIFT), face)
    if plays:
        bar_top = size.height + 3
        ImageDraw.Draw(slot).rectangle((6, bar_top, size.width - 6, bar_top + 3), fill=theme.GOLD)
    return slot, png.Piece.of((0, 0, *slot.size), slot).mapped


def draw_private(hand: PrivateHand, *, name: str, four_colour: bool, text: Words) -> PrivatePicture:
    size = cards.PRIVATE_CARD
    canvas = Image.new("RGB", (WIDTH, HEIGHT), theme.PANEL)
    draw = ImageDraw.Draw(canvas)
    title = f"{clean(name)} · {text.your_cards}" if clean(name) else text.your_cards
    title_width = draw_text(
        canvas,
        (MARGIN, TITLE_HEIGHT // 2 + 2),
        title,
        22,
        theme.TEXT,
        bold=True,
        max_width=WIDTH - 2 * MARGIN,
    )
    row = [(item.card, not item.face_up, False) for item in hand.cards]
    if hand.community is not None:
        row.append((hand.community, False, True))
    best = set(hand.best_five) | set(hand.low_five)
    slots = []
    # Where the canvas differs from the empty panel: the text, as wide as it is drawn (a
    # pixel or two over for its mask's edges), and the tabs.
    boxes = [(0, 0, MARGIN + title_width + TEXT_SPILL, TITLE_HEIGHT)]
    for index, (card, is_down, is_community) in enumerate(row):
        x = MARGIN + index * (size.width + GAP)
        image, mapped = _slot(card, four_colour, card in best)
        box = (x, CARD_TOP - LIFT, x + image.width, CARD_TOP - LIFT + image.height)
        slots.append(png.Piece(box, image, mapped))
        centre = (x + size.width // 2, TAB_TOP + TAB_HEIGHT // 2)
        if is_down:
            # Pillow draws a rectangle's bottom row too.
            boxes.append((x, TAB_TOP, x + size.width, TAB_TOP + TAB_HEIGHT + 1))
            draw.rounded_rectangle(
                (x + 4, TAB_TOP, x + size.width - 4, TAB_TOP + TAB_HEIGHT),
                radius=8,
                fill=theme.BACK,
            )
            draw_text(
                canvas,
                centre,
                text.hidden,
                15,
                theme.TEXT,
                bold=True,
                anchor="mm",
                max_width=size.width - 12,
                squeeze=True,
            )
        elif is_community:
            spill = GAP // 2 + TEXT_SPILL
            boxes.append((x - spill, TAB_TOP, x + size.width + spill, TAB_TOP + TAB_HEIGHT))
            draw_text(
                canvas,
                centre,
                text.community,
                14,
                theme.MUTED,
                anchor="mm",
                max_width=size.width + GAP,
                squeeze=True,
            )
    if hand.folded:
        footer = text.folded_hand
    else:
        description = describe_private(hand, text.hands)
        footer = f"{text.best_hand}: {description}" if description else ""
    footer_width = draw_text(
        canvas,
        (MARGIN, HEIGHT - FOOTER_HEIGHT // 2 - 2),
        footer,
        22,
        theme.GOLD,
        bold=True,
        max_width=WIDTH - 2 * MARGIN,
        squeeze=True,
    )
    boxes.append((0, HEIGHT - FOOTER_HEIGHT, MARGIN + footer_width + TEXT_SPILL, HEIGHT))
    return PrivatePicture(canvas, tuple(slots), (*boxes, *(slot.box for slot in slots)))
