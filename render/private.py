"""The picture of one player's own cards, sent only to him.

His cards in the order dealt, the community card last when there is one. Down cards carry a
"hidden" tab: only he can see them. The five cards that make his best hand are lifted and
underlined in gold, and the hand is named below.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine.public import PrivateHand
from render import cards, theme
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


def draw_private(hand: PrivateHand, *, name: str, four_colour: bool, text: Words) -> Image.Image:
    size = cards.PRIVATE_CARD
    width = 2 * MARGIN + SLOTS * size.width + (SLOTS - 1) * GAP
    card_top = TITLE_HEIGHT + LIFT
    tab_top = card_top + size.height + 6
    height = tab_top + TAB_HEIGHT + FOOTER_HEIGHT
    canvas = Image.new("RGB", (width, height), theme.PANEL)
    draw = ImageDraw.Draw(canvas)
    title = f"{clean(name)} · {text.your_cards}" if clean(name) else text.your_cards
    draw_text(
        canvas,
        (MARGIN, TITLE_HEIGHT // 2 + 2),
        title,
        22,
        theme.TEXT,
        bold=True,
        max_width=width - 2 * MARGIN,
    )
    row = [(item.card, not item.face_up, False) for item in hand.cards]
    if hand.community is not None:
        row.append((hand.community, False, True))
    best = set(hand.best_five) | set(hand.low_five)
    for index, (card, is_down, is_community) in enumerate(row):
        x = MARGIN + index * (size.width + GAP)
        plays = card in best
        face = cards.face(card, size, four_colour)
        canvas.paste(face, (x, card_top - (LIFT if plays else 0)), face)
        if plays:
            bar_top = card_top + size.height - LIFT + 3
            draw.rectangle((x + 6, bar_top, x + size.width - 6, bar_top + 3), fill=theme.GOLD)
        centre = (x + size.width // 2, tab_top + TAB_HEIGHT // 2)
        if is_down:
            draw.rounded_rectangle(
                (x + 4, tab_top, x + size.width - 4, tab_top + TAB_HEIGHT),
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
    draw_text(
        canvas,
        (MARGIN, height - FOOTER_HEIGHT // 2 - 2),
        footer,
        22,
        theme.GOLD,
        bold=True,
        max_width=width - 2 * MARGIN,
        squeeze=True,
    )
    return canvas
